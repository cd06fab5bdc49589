"""Plots of the bestiary (:func:`~explodice.bestiary`, :func:`~explodice.fp_table`): each
function draws one result onto an Axes and returns it; they compute no probability and never
call ``plt.show()``.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import bestiary, fp_table
>>> ax = plot_changes_by_fp(bestiary(fp=[1, 2]))
>>> ax.get_xlabel()
'power factor (FP)'
>>> plot_fp_conversion(fp_table(fps=[1, 2])).get_ylabel()
'3d6x value'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.bestiary import CHANCES, DEFAULT_THRESHOLD
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import N_
from explodice.present.plots.style import axes_title, place_legend

__all__ = ["CHANCE_COLOURS", "CHANCE_LABELS", "plot_changes_by_fp", "plot_fp_conversion"]

#: One colour per chance of the bestiary, the same on every page.
CHANCE_COLOURS = dict(zip(CHANCES, ("#1f5fa8", "#c0392b", "#1e8449", "#b7950b")))
#: Each chance in words.
CHANCE_LABELS = {
    "build_hits": N_("the build hits the monster"),
    "monster_hits": N_("the monster hits the build"),
    "build_saves": N_("the build saves against its DC"),
    "monster_saves": N_("the monster saves against the build's DC"),
}


def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    return ax


def _fp_positions(fps: pd.Series) -> tuple[dict[float, int], list[str]]:
    """Each FP's place on an even axis (0, 1/8, 1/4, 1/2, 1, 2 ... equally spaced)."""
    order = sorted(set(fps))
    return {v: i for i, v in enumerate(order)}, order


def _fp_ticks(ax: Any, labels: list[str]) -> None:
    step = max(1, len(labels) // 16)
    ax.set_xticks(range(0, len(labels), step))
    ax.set_xticklabels(labels[::step], fontsize=6.5)


def plot_changes_by_fp(
    frame: pd.DataFrame,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    ax: Any = None,
    lang: Lang = "en",
    title: str | None = None,
) -> Any:
    """The change in each chance (3d6x - 5e, the mean over the level-matched builds) of each
    monster and item of :func:`~explodice.bestiary`, by FP: a point each, a line through each
    chance's median, the ±``threshold`` band shaded."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    where, values = _fp_positions(frame.fp_value)
    labels = [frame.loc[frame.fp_value == v, "fp"].iloc[0] for v in values]
    rng = np.random.default_rng(0)  # a fixed jitter: the same figure on every run
    for k, chance in enumerate(CHANCES):
        part = frame[frame.chance == chance]
        if part.empty:
            continue
        x = part.fp_value.map(where).to_numpy(dtype=float)
        jitter = (k - 1.5) * 0.12 + rng.uniform(-0.04, 0.04, x.size)
        colour = CHANCE_COLOURS[chance]
        ax.scatter(x + jitter, part.change, s=4, alpha=0.35, color=colour, lw=0)
        med = part.groupby("fp_value").change.median()
        ax.plot(
            [where[v] for v in med.index], med.to_numpy(), "-", lw=1.3, color=colour,
            label=_(CHANCE_LABELS[chance]),
        )  # fmt: skip
    ax.axhspan(-threshold, threshold, color="0.85", alpha=0.5, lw=0)
    ax.axhline(0, color="0.3", lw=0.7)
    _fp_ticks(ax, labels)
    ax.set_xlabel(_("power factor (FP)"), fontsize=7)
    ax.set_ylabel(_("change in P, 3d6x − 5e"), fontsize=7)
    ax.yaxis.set_major_formatter(i18n.change_formatter(lang))
    ax.tick_params(labelsize=6.5)
    ax.grid(alpha=0.3)
    place_legend(ax, room=True, fontsize=6.5)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax


def plot_fp_conversion(
    table: pd.DataFrame, *, ax: Any = None, lang: Lang = "en", title: str | None = None
) -> Any:
    """The 3d6x VD, attack bonus and save DC of the typical monster of each FP
    (:func:`~explodice.fp_table`): the flat conversion dashed, the matched one solid."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    x = np.arange(len(table))
    for name, colour, flat_label, matched_label in (  # whole labels: French agrees them
        ("vd", "#1f5fa8", N_("VD, flat"), N_("VD, matched")),
        ("attack", "#c0392b", N_("attack bonus, flat"), N_("attack bonus, matched")),
        ("save_dc", "#1e8449", N_("save DC, flat"), N_("save DC, matched")),
    ):
        flat = pd.to_numeric(table[f"{name}_flat"], errors="coerce")
        matched = pd.to_numeric(table[f"{name}_matched"], errors="coerce")
        ax.plot(x, flat, "--", lw=1.0, color=colour, label=_(flat_label))
        ax.plot(x, matched, "o-", ms=2.5, lw=1.3, color=colour, label=_(matched_label))
    _fp_ticks(ax, list(table.fp))
    ax.set_xlabel(_("power factor (FP)"), fontsize=7)
    ax.set_ylabel(_("3d6x value"), fontsize=7)
    ax.tick_params(labelsize=6.5)
    ax.grid(alpha=0.3)
    place_legend(ax, room=True, fontsize=6.5)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax
