"""Plots of a day of rolls: the success/drain frontier of the policies (:func:`plot_frontier`)
and the gauges' depletion roll by roll (:func:`plot_depletion`). Each draws onto an Axes and
returns it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.plots.style import (
    axes_or_current,
    colour_map,
    frame_provenance,
    percent_axis,
    place_legend,
    titled,
)

__all__ = [
    "plot_depletion",
    "plot_frontier",
]


def plot_frontier(
    frame: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "drain_mean",
    y: str = "p_success",
    hue: str | None = None,
    label_col: str | None = "policy",
    lang: Lang = "en",
) -> Any:
    """The success/drain frontier: E[drain] on x, P(success) on y, one point per policy.

    The ends (``keep``, ``cancel``) and a few λ values are labelled from ``label_col``; a
    label that would fall on one already written (the best(λ) points that coincide with keep,
    say) is left out. ``keep``, the right end, is labelled below its point, inside the Axes.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    span_x = float(np.ptp(frame[x].to_numpy(dtype=float))) or 1.0
    span_y = float(np.ptp(frame[y].to_numpy(dtype=float))) or 1.0
    placed: list[tuple[float, float]] = []
    for h, g in groups:
        g = g.sort_values(x)
        (line,) = ax.plot(g[x], g[y], "o-", ms=3, label=None if h is None else str(h))
        knee = -1
        if "knee" in g.columns and g["knee"].any():
            knee = int(np.flatnonzero(g["knee"].astype(bool).to_numpy())[0])
            k = g.iloc[[knee]]
            ax.plot(k[x], k[y], "*", ms=10, color=line.get_color(), mec="black", mew=0.5)
            if "implied_lambda" in g.columns:  # the star's own label: the λ a table shows
                ax.annotate(
                    _("implied λ = {value}").format(
                        value=i18n.number(float(k["implied_lambda"].iloc[0]), lang, 3)
                    ),
                    (float(k[x].iloc[0]), float(k[y].iloc[0])),
                    textcoords="offset points",
                    xytext=(2, -6),  # below the line, which rises towards keep
                    va="top",
                    fontsize=6,
                    fontweight="bold",
                )
                placed.append((float(k[x].iloc[0]) / span_x, float(k[y].iloc[0]) / span_y))
        if label_col and label_col in g.columns:
            labels = _frontier_labels(g, label_col, lang)
            names = [str(v) for v in g[label_col]]  # keep first, then cancel, then the λ
            ends = tuple(names.index(e) for e in ("keep", "cancel") if e in names) or (0,)
            order = [*ends, *(i for i in range(len(g)) if i not in ends)]
            for i in order:
                xv, yv, lv = float(g[x].iloc[i]), float(g[y].iloc[i]), labels[i]
                if not (i in ends or h is None or i % max(1, len(g) // 4) == 0):
                    continue
                if i == knee and i not in ends and "implied_lambda" in g.columns:
                    continue  # the star carries its own label
                spot = (xv / span_x, yv / span_y)
                if any(abs(spot[0] - a) < 0.06 and abs(spot[1] - b) < 0.03 for a, b in placed):
                    continue
                placed.append(spot)
                right_end = names[i] == "keep"
                ax.annotate(
                    lv,
                    (xv, yv),
                    textcoords="offset points",
                    xytext=(-3, -4) if right_end else (4, 4),
                    ha="right" if right_end else "left",
                    va="top" if right_end else "bottom",
                    fontsize=6,
                )
    ax.plot([], [], "*", ms=8, color="0.5", mec="black", mew=0.5, label=_("implied λ"))
    ax.set_xlabel(_("E[drain] per roll (gauge points)"))
    ax.set_ylabel(_("P(success)"))
    ax.yaxis.set_major_formatter(percent_axis(decimals=1, lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(ax, _("Success against drain: the cancel frontier"), frame_provenance(frame, lang), lang)
    return ax


def plot_depletion(
    frame: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "roll",
    y: str = "p",
    hue: str = "character",
    style: str | None = "gauge",
    ylabel: str | None = None,
    title: str | None = None,
    lang: Lang = "en",
) -> Any:
    """Gauge depletion over a day: P(gauge empty after roll t), one line per gauge.

    ``frame`` is tidy (the ``"empty"`` table of a day simulation) with the columns ``x``,
    ``y``, ``hue`` and ``style``; ``ci_low``/``ci_high`` draw bands when present. Any per-roll
    curve of a day (the success rate, say) draws the same way with ``y`` and ``ylabel``.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    keys = [hue] + ([style] if style else [])
    styles = (
        {v: s for v, s in zip(pd.unique(frame[style]), ["-", "--", ":", "-."] * 8)} if style else {}
    )
    colours = colour_map(pd.unique(frame[hue]))
    for key, g in frame.groupby(keys, sort=False):
        h = key[0] if isinstance(key, tuple) else key
        s = key[1] if style else None
        g = g.sort_values(x)
        label = f"{h}" + (f", {s}" if style else "")
        ax.plot(g[x], g[y], styles.get(s, "-"), color=colours[h], label=label)
        if {"ci_low", "ci_high"} <= set(g.columns):
            ax.fill_between(g[x], g["ci_low"], g["ci_high"], color=colours[h], alpha=0.15)
    ax.set_xlabel(_("roll of the day, t"))
    ax.set_ylabel(ylabel or _("P(gauge empty after roll t)"))
    if y.startswith("p"):
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    if len(frame):  # no curve (no gauge drains): no legend to draw
        place_legend(ax, room=True, fontsize="x-small", ncol=2)
    ax.grid(alpha=0.3)
    titled(ax, title or _("Gauges over an adventuring day"), frame_provenance(frame, lang), lang)
    return ax


def _frontier_labels(frame: pd.DataFrame, label_col: str, lang: Lang = "en") -> list[str]:
    """'keep', 'cancel', and 'λ≥x' for the best(λ) segments of a frontier table."""
    _ = i18n.translator(lang)
    out = []
    for _i, row in frame.iterrows():
        name = _(str(row[label_col]))
        if str(row[label_col]) == "best" and "lambda_lo" in frame.columns:
            lo = float(f"{row['lambda_lo']:.2g}")
            name = f"λ≥{i18n.number(lo, lang, None)}"
        out.append(name)
    return out
