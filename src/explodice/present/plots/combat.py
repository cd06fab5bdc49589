"""Plots of combat (docs/rules.md, "Combat"): each function draws one result of the combat
questions (:func:`~explodice.combat_progression`, :func:`~explodice.fit_defence_base`,
:func:`~explodice.critical_table`, :func:`~explodice.attack_table`) onto an Axes and returns
it; they compute no probability and never call ``plt.show()``.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import combat_progression, reference_builds
>>> t = combat_progression(reference_builds()[:1], levels=[1, 2, 3])
>>> ax = plot_hits_by_level(t, build="fighter")
>>> ax.get_xlabel()
'level'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from explodice.game.tables import HIT_MARK_D20
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import N_
from explodice.present.plots.style import axes_title, finish_error_panel, place_legend

__all__ = [
    "SYSTEM_STYLE",
    "plot_attack_curves",
    "plot_critical",
    "plot_defence_bases",
    "plot_hits_by_level",
]

#: Each system's line: 3d6x solid, 5e dashed (as on every page of the report).
SYSTEM_STYLE = {"3d6x": ("-", "#1f5fa8"), "d20": ("--", "#d2691e")}
#: Who hits whom, as the legend says it.
WHO = {
    "p_build_hits": N_("the build hits"),
    "p_monster_hits": N_("the monster hits"),
}


def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    return ax


def _finish(ax: Any, lang: Lang, title: str | None, *, legend: bool = True) -> Any:
    """Percent ticks, the axis 0..100 % (a probability's whole range: the legend takes no
    room above it), the grid, the legend where it covers least (``legend``) and the title."""
    ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    ax.set_ylim(0, 1)
    ax.tick_params(labelsize=6.5)
    ax.grid(alpha=0.3)
    if legend:
        place_legend(ax, outside=False, fontsize=6.5)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax


def plot_hits_by_level(
    table: pd.DataFrame,
    *,
    build: str,
    offset: int = 0,
    ax: Any = None,
    lang: Lang = "en",
    title: str | None = None,
    legend: bool = True,
) -> Any:
    """P(the build hits) and P(the monster hits) by level for one build against the monsters
    of FP = level + ``offset`` (rows of :func:`~explodice.combat_progression`), 3d6x solid
    beside 5e dashed, with 5e's 65 % mark; the y axis 0..100 % (a line at 100 % drawn whole
    on the frame); ``legend=False`` leaves the legend out (a page of panels shows one)."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    rows = table[(table.build == build) & (table.offset == offset)]
    markers = {"p_build_hits": "o", "p_monster_hits": "s"}
    for system, (style, colour) in SYSTEM_STYLE.items():
        part = rows[rows.system == system].sort_values("level")
        for column, marker in markers.items():
            ax.plot(part.level, part[column], style, marker=marker, ms=2.5, lw=1.1,
                    color=colour if column == "p_build_hits" else _darker(colour),
                    clip_on=False,  # a line at 100 % lies on the frame: drawn whole
                    label=_("{system}: {who}").format(system=system, who=_(WHO[column])))  # fmt: skip
    mark = i18n.percent(HIT_MARK_D20, lang, 0)
    ax.axhline(HIT_MARK_D20, color="0.4", lw=0.8, ls=":",
               label=_("5e's mark ({mark})").format(mark=mark))  # fmt: skip
    ax.set_xlabel(_("level"), fontsize=7)
    ax.set_ylabel(_("P(hit)"), fontsize=7)
    ax.set_xticks(sorted(set(rows.level))[:: max(1, len(set(rows.level)) // 10)])
    return _finish(ax, lang, title, legend=legend)


def _darker(colour: str) -> str:
    """The same hue, darker: the monster's line beside the build's."""
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) * 0.55
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def plot_defence_bases(
    bases: pd.DataFrame,
    *,
    ax: Any = None,
    lang: Lang = "en",
    span: int = 6,
    title: str | None = None,
) -> Any:
    """Both criteria of the defence base's fit for the bases within ``span`` of the chosen
    one (rows of :attr:`~explodice.DefenceBaseFit.bases`), the chosen base marked."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    chosen = int(bases.loc[bases.chosen, "base"].iloc[0])
    near = bases[(bases.base - chosen).abs() <= span]
    ax.plot(near.base, near.rmse, "o-", ms=3, color="#1f5fa8", label=_("root mean square error"))
    ax.plot(near.base, near.max_error, "s--", ms=3, color="#7d3c98", label=_("largest error"))
    top = float(np.nanmax(near[["rmse", "max_error"]].to_numpy()))
    ax.vlines(chosen, 0, top, color="0.4", lw=0.8, ls=":")
    ax.annotate(_("base = {base}").format(base=chosen), xy=(chosen, top), ha="left", va="top",
                fontsize=7, xytext=(3, 0), textcoords="offset points")  # fmt: skip
    return finish_error_panel(ax, _("defence base of the VD"), _("error in P(hit)"), lang, title)


#: The readings of a critical hit, as the legend says them.
READINGS = {
    "two_sixes": N_("two 6s"),
    "three_sixes": N_("three 6s"),
    "natural 20": N_("natural 20 (d20)"),
}


def reading_label(reading: str, lang: Lang) -> str:
    """A row's ``reading`` of :func:`~explodice.critical_table` in ``lang``: ``two 6s``,
    ``margin 5`` (``marge 5``), ``natural 20 (d20)``."""
    _ = i18n.translator(lang)
    if reading.startswith("margin "):
        return _("margin {margin}").format(margin=reading.split(" ", 1)[1])
    return _(READINGS.get(reading, reading))


def plot_critical(
    table: pd.DataFrame, *, ax: Any = None, lang: Lang = "en", title: str | None = None
) -> Any:
    """P(critical) under each reading (bars grouped by advantage state; rows of
    :func:`~explodice.critical_table`), the d20's natural 20 beside them, each bar labelled
    in percent."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    states = list(dict.fromkeys(table.advantage))
    readings = list(dict.fromkeys(table.reading))
    width = 0.8 / len(readings)
    colours = ["#1f5fa8", "#5dade2", "#1e8449", "#82e0aa", "#7d3c98", "#d2691e"]
    for i, reading in enumerate(readings):
        part = table[table.reading == reading].set_index("advantage").reindex(states)
        x = np.arange(len(states)) + (i - (len(readings) - 1) / 2) * width
        colour = "#d2691e" if reading == "natural 20" else colours[i % (len(colours) - 1)]
        bars = ax.bar(
            x, part.p_crit, width * 0.92, color=colour, label=reading_label(reading, lang)
        )
        for bar, p in zip(bars, part.p_crit):
            ax.annotate(i18n.percent(float(p), lang, 1), (bar.get_x() + bar.get_width() / 2, p),
                        ha="center", va="bottom", fontsize=4.5, rotation=90,
                        xytext=(0, 1), textcoords="offset points")  # fmt: skip
    ax.set_xticks(np.arange(len(states)))
    ax.set_xticklabels([_(s) for s in states], fontsize=6.5)
    ax.set_ylabel(_("P(critical)"), fontsize=7)
    ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    top = float(table.p_crit.max())
    ax.set_ylim(0, min(1.0, top * 1.35 + 0.02))
    ax.tick_params(labelsize=6.5)
    ax.grid(alpha=0.3, axis="y")
    place_legend(ax, room=True, fontsize=6)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax


def plot_attack_curves(
    table: pd.DataFrame,
    *,
    modifier: int,
    advantage: str = "normal",
    ax: Any = None,
    lang: Lang = "en",
    title: str | None = None,
) -> Any:
    """P(hit) by 5e AC for one attacker (rows of :func:`~explodice.attack_table`): 5e against
    the AC, 3d6x against the VD that AC reads, and the equivalent VD's P(hit)."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    rows = table[(table.modifier == modifier) & (table.advantage == advantage)].sort_values("ac")
    ax.plot(rows.ac, rows.p_hit_d20, "--", marker="o", ms=2.5, color="#d2691e",
            label=_("d20 against the AC"))  # fmt: skip
    ax.plot(rows.ac, rows.p_hit_3d6x, "-", marker="o", ms=2.5, color="#1f5fa8",
            label=_("3d6x against VD = AC − 10 + base"))  # fmt: skip
    ax.plot(rows.ac, rows.p_hit_equivalent, ":", marker="s", ms=2.5, color="#1e8449",
            label=_("3d6x against the equivalent VD"))  # fmt: skip
    ax.set_xlabel(_("5e armour class (AC)"), fontsize=7)
    ax.set_ylabel(_("P(hit)"), fontsize=7)
    return _finish(ax, lang, title)
