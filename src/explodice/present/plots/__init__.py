"""Plots of explodice results, one module per subject; each function draws onto an Axes and
returns it.

- :mod:`~explodice.present.plots.style`: what every plot shares (the provenance note, legends
  off the data, DC bands, numbers written the language's way); imports no other module here;
- :mod:`~explodice.present.plots.roll`: one roll (distribution, odds against a DC, Monte
  Carlo against exact);
- :mod:`~explodice.present.plots.contests`: opposed rolls and haggling (win / tie / loss);
- :mod:`~explodice.present.plots.day`: a day of rolls (frontier, gauges' depletion);
- :mod:`~explodice.present.plots.levels`: levels 1-20 (progression, gauges, save DCs);
- :mod:`~explodice.present.plots.readings`: which readings of the rules matter;
- :mod:`~explodice.present.plots.combat`: attacks against the defence value, critical hits;
- :mod:`~explodice.present.plots.bestiary`: the SRD's monsters converted to 3d6x;
- :mod:`~explodice.present.plots.bars`: grouped bars of any tidy table;
- :mod:`~explodice.present.plots.cells`: many small texts drawn cheaply (a heatmap's cell
  numbers, the report's tables); imports no other module here.

A new subject is a module of its own, importing :mod:`.style` and listed here. Every function takes results (a :class:`~explodice.Distribution` or a tidy
DataFrame from the analysis layer), never computes a probability itself, labels its axes and
units, and writes the provenance of the numbers (system, exact or Monte Carlo with n and seed,
rules switches) on the Axes. ``ax=None`` draws on the current Axes; nothing here calls
``plt.show()``. Every name below is reached from this package (``explodice.plots.plot_pmf``).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import Roll, exact
>>> from explodice.present.plots import plot_pmf
>>> ax = plot_pmf({"3d6x+0": exact(Roll(0))})
>>> ax.get_xlabel()
'total (dice + modifier)'
"""

from __future__ import annotations

from explodice.present.plots.bars import plot_bars
from explodice.present.plots.bestiary import plot_changes_by_fp, plot_fp_conversion
from explodice.present.plots.combat import (
    plot_attack_curves,
    plot_critical,
    plot_defence_bases,
    plot_hits_by_level,
)
from explodice.present.plots.contests import plot_outcomes
from explodice.present.plots.day import plot_depletion, plot_frontier
from explodice.present.plots.levels import (
    plot_gauge_needs,
    plot_level_grid,
    plot_save_dc_bases,
    plot_save_dc_fit,
)
from explodice.present.plots.readings import plot_readings
from explodice.present.plots.roll import (
    plot_at_least,
    plot_convergence,
    plot_drain,
    plot_equivalent_dc,
    plot_heatmap,
    plot_mc_bands,
    plot_pmf,
    plot_success_curves,
)
from explodice.present.plots.style import (
    DC_BANDS_3D6X,
    DC_BANDS_D20,
    covered,
    frame_provenance,
    log_ticks,
    place_legend,
    provenance,
    share,
    signed_number,
)

__all__ = [
    "DC_BANDS_3D6X",
    "DC_BANDS_D20",
    "provenance",
    "frame_provenance",
    "plot_pmf",
    "plot_at_least",
    "plot_success_curves",
    "plot_heatmap",
    "plot_drain",
    "plot_mc_bands",
    "plot_convergence",
    "plot_equivalent_dc",
    "plot_frontier",
    "plot_depletion",
    "plot_outcomes",
    "plot_bars",
    "plot_level_grid",
    "plot_gauge_needs",
    "plot_save_dc_fit",
    "plot_save_dc_bases",
    "plot_readings",
    "plot_hits_by_level",
    "plot_defence_bases",
    "plot_critical",
    "plot_attack_curves",
    "plot_changes_by_fp",
    "plot_fp_conversion",
    "place_legend",
    "covered",
    "log_ticks",
    "share",
    "signed_number",
]
