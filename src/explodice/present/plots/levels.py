"""Plots across levels 1-20: each function draws one result of the levels workbench
(:func:`~explodice.progression`, :func:`~explodice.size_gauges`,
:func:`~explodice.fit_save_dc`) onto an Axes and returns it; they compute no probability and
never call ``plt.show()``.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import progression, reference_builds
>>> t = progression(reference_builds()[:1], levels=[1, 2], tests="main")
>>> ax = plot_level_grid(t[t.system == "3d6x"])
>>> ax.get_xlabel()
'level'
"""

from __future__ import annotations

from typing import Any, TypedDict

import numpy as np
import pandas as pd

from explodice.game.character import GAUGES
from explodice.game.tables import D20_SAVE_DC_BASE, DIFFICULTIES
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import N_, difficulty_label
from explodice.present.plots.cells import write_grid
from explodice.present.plots.style import (
    axes_or_current,
    axes_title,
    finish_error_panel,
    place_legend,
    share,
)

__all__ = [
    "GAUGE_COLOURS",
    "OUTSIDE_EDGE",
    "OUTSIDE_LABEL",
    "EdgeStyle",
    "plot_gauge_needs",
    "plot_level_grid",
    "plot_save_dc_bases",
    "plot_save_dc_fit",
]

#: One colour per gauge, the same on every page.
GAUGE_COLOURS = dict(zip(GAUGES, ("#c0392b", "#1f5fa8", "#b7950b", "#1e8449")))


class EdgeStyle(TypedDict):
    """The keywords of a patch's edge (matplotlib's ``edgecolor`` and ``linewidth``)."""

    edgecolor: str
    linewidth: float


#: The frame of a cell outside its band's target range.
OUTSIDE_EDGE: EdgeStyle = {"edgecolor": "black", "linewidth": 1.1}
#: The label of that frame in a legend.
OUTSIDE_LABEL = N_("outside the band's target range")


def plot_level_grid(
    table: pd.DataFrame,
    *,
    ax: Any = None,
    lang: Lang = "en",
    title: str | None = None,
    band_labels: bool = True,
    fontsize: float = 5.5,
) -> Any:
    """A band x level heatmap of P(success) for one build, test and system (rows of
    :func:`~explodice.progression`): easiest band on top, each cell written in whole percent
    without its % sign (never a false 0 or 100: ``<1``, ``>99``), a cell outside its band's target range framed in black.
    The image is ``ax.images[0]`` (for a colour bar shared by several grids)."""
    from matplotlib.collections import PolyCollection

    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    bands = [b for b in DIFFICULTIES if b in set(table.difficulty)]
    grid = table.pivot_table(index="difficulty", columns="level", values="p", aggfunc="first")
    grid = grid.reindex(bands)
    inside = table.pivot_table(
        index="difficulty", columns="level", values="in_target", aggfunc="first"
    ).reindex(bands)
    data = grid.to_numpy(dtype=float)
    ax.imshow(data, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    levels = list(grid.columns)
    write_grid(
        ax,
        data,
        lambda v: share(v, lang).replace("%", "").replace("\xa0", "").replace(" ", ""),
        fontsize=fontsize,
        light=(0.2, 0.85),
    )
    # the frames of the cells outside their range, one artist (each a Rectangle's path)
    rows, cols = np.nonzero(~np.isnan(data))
    outside = [(i, j) for i, j in zip(rows.tolist(), cols.tolist()) if not inside.iat[i, j]]
    ax.add_collection(
        PolyCollection(
            [[(j - 0.46, i - 0.44), (j + 0.46, i - 0.44), (j + 0.46, i + 0.44),
              (j - 0.46, i + 0.44)] for i, j in outside],
            facecolors="none",
            edgecolors=OUTSIDE_EDGE["edgecolor"],
            linewidths=OUTSIDE_EDGE["linewidth"],
            joinstyle="miter",
        ),
        autolim=False,
    )  # fmt: skip
    ax.set_xticks(range(len(levels)), [str(lv) for lv in levels], fontsize=6)
    if band_labels:
        ax.set_yticks(range(len(bands)), [difficulty_label(b, lang) for b in bands], fontsize=6)
    else:
        ax.set_yticks(range(len(bands)), [""] * len(bands))
    ax.tick_params(length=0)
    ax.set_xlabel(_("level"), fontsize=7, labelpad=1)
    if title:
        axes_title(ax, title, fontsize=7.5, pad=3)
    return ax


def plot_gauge_needs(
    table: pd.DataFrame, *, ax: Any = None, lang: Lang = "en", title: str | None = None
) -> Any:
    """One build's gauges by level (rows of :func:`~explodice.size_gauges`): the maximum
    needed (solid, dots) against the build's own (dashed, hollow squares), one colour per
    gauge."""
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    for gauge, rows in table.groupby("gauge", sort=False):
        colour = GAUGE_COLOURS.get(str(gauge), "0.3")
        # the two lines can lie a point apart or on each other: the need solid with filled
        # dots, the build's dashed with hollow squares at the other levels, both visible
        ax.plot(
            rows.level,
            rows.needed,
            "-",
            color=colour,
            lw=1.6,
            marker="o",
            ms=3,
            markevery=(0, 2),
            label=_("{gauge} needed").format(gauge=gauge),
        )
        ax.plot(
            rows.level,
            rows.have,
            "--",
            color=colour,
            lw=1.1,
            marker="s",
            ms=4,
            mfc="white",
            markevery=(1, 2),
            label=_("{gauge} the build's").format(gauge=gauge),
        )
    ax.set_xlabel(_("level"), fontsize=7)
    ax.set_ylabel(_("gauge maximum (points)"), fontsize=7)
    ax.set_xticks([1, 5, 10, 15, 20])
    ax.tick_params(labelsize=6.5)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    place_legend(ax, room=True, outside=False, fontsize=6)
    if lang != "en":
        ax.yaxis.set_major_formatter(i18n.number_formatter(lang))
    if title:
        axes_title(ax, title, fontsize=8, pad=3)
    return ax


def plot_save_dc_fit(
    gaps: pd.DataFrame,
    *,
    base: int,
    d20_base: int = D20_SAVE_DC_BASE,
    ax: Any = None,
    lang: Lang = "en",
    title: str | None = None,
) -> Any:
    """P(the target saves) by gap (rows of :attr:`~explodice.SaveDCFit.gaps`): 5e at DC
    ``d20_base`` + gap against 3d6x at ``base`` + gap, each point's area the share of the
    cases at that gap."""
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    sizes = 12 + 400 * gaps.share.to_numpy()
    for column, style, colour, label in (
        ("p_d20", "--", "#d2691e", _("d20: DC {base} + gap").format(base=d20_base)),
        ("p_3d6x", "-", "#1f5fa8", _("3d6x: DC {base} + gap").format(base=base)),
    ):
        ax.plot(gaps.gap, gaps[column], style, color=colour, lw=1.2)
        ax.scatter(gaps.gap, gaps[column], s=sizes, color=colour, alpha=0.7, label=label)
    ax.set_xlabel(_("gap = PB + caster's modifier − target's save modifier"), fontsize=7)
    ax.set_ylabel(_("P(the target saves)"), fontsize=7)
    ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    ax.set_ylim(0, 1)
    ax.tick_params(labelsize=6.5)
    ax.grid(alpha=0.3)
    place_legend(ax, room=True, fontsize=6.5, markerscale=0.5)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax


def plot_save_dc_bases(
    bases: pd.DataFrame,
    *,
    ax: Any = None,
    lang: Lang = "en",
    span: int = 6,
    title: str | None = None,
) -> Any:
    """Both criteria of the fit for the bases within ``span`` of the chosen one (rows of
    :attr:`~explodice.SaveDCFit.bases`), the chosen base marked."""
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    chosen = int(bases.loc[bases.chosen, "base"].iloc[0])
    near = bases[(bases.base - chosen).abs() <= span]
    ax.plot(near.base, near.rmse, "o-", ms=3, color="#1f5fa8", label=_("weighted RMS error"))
    ax.plot(near.base, near.max_error, "s--", ms=3, color="#7d3c98", label=_("largest error"))
    # the chosen base's line stops at the data's top: the legend can take the room above
    top = float(np.nanmax(near[["rmse", "max_error"]].to_numpy()))
    ax.vlines(chosen, 0, top, color="0.4", lw=0.8, ls=":")
    ax.annotate(
        _("B = {base}").format(base=chosen),
        xy=(chosen, top),
        xycoords="data",
        ha="left",
        va="top",
        fontsize=7,
        xytext=(3, 0),
        textcoords="offset points",
    )
    return finish_error_panel(
        ax, _("base B of the 3d6x save DC"), _("error in P(the target saves)"), lang, title
    )
