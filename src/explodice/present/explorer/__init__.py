"""The designer's explorer: one HTML file to play with the numbers, offline, in any browser.

:func:`write_explorer` computes every number of a report configuration when the file is
written and hands them to Vega-Lite charts built with Altair. The page is self-contained: Vega,
Vega-Lite and vega-embed are inlined (from ``vl-convert-python``'s bundle), the data sit in the
specifications, and nothing is fetched when it opens. The controls (Vega-Lite parameters bound
to inputs) only filter and redraw precomputed tables. ``lang="fr"`` writes it in the game's own
words (:mod:`explodice.present.labels`, :mod:`explodice.present.i18n`).

Three steps, one module each:

- :mod:`.data`: :func:`explorer_data`, every number, as the tidy tables of
  :class:`ExplorerData` (the exact engine for single rolls and equivalent DCs; the day engine,
  seeded from the configuration, for the party's day);
- :mod:`.charts`: :func:`explorer_charts`, the Altair views of those tables;
- :mod:`.page`: :func:`explorer_html` and :func:`write_explorer`, the HTML file.

The choices of the controls are the typed keys of :mod:`.keys` (:class:`RollClass`,
:class:`PolicyChoice`, :class:`~explodice.present.labels.State`); the tables name them by their
``key``.

>>> from explodice.present.explorer import explorer_data
>>> data = explorer_data(day=False)
>>> row = data.roll.query("system == '3d6x' and cls == 'check/pc' and state == 'normal' "
...                       "and policy == 'keep' and need == 8")
>>> round(float(row.p.iloc[0]) * 216, 9)   # P(3d6x >= 8) = 181/216
181.0
"""

from explodice.present.explorer.charts import explorer_charts, shown_percent
from explodice.present.explorer.data import ExplorerData, explorer_data
from explodice.present.explorer.keys import LAMBDAS, POLICY_CHOICES, PolicyChoice, RollClass
from explodice.present.explorer.page import EXPLORER_NAME, explorer_html, write_explorer
from explodice.present.labels import MODIFIER_CHOICE, OWN_POLICIES

__all__ = [
    "EXPLORER_NAME",
    "LAMBDAS",
    "MODIFIER_CHOICE",
    "OWN_POLICIES",
    "POLICY_CHOICES",
    "ExplorerData",
    "PolicyChoice",
    "RollClass",
    "explorer_charts",
    "explorer_data",
    "explorer_html",
    "shown_percent",
    "write_explorer",
]
