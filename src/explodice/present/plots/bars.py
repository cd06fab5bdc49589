"""Grouped bars of any tidy table (:func:`plot_bars`), with each value written on its bar in
one format; the day's and the passive checks' pages draw with it. It draws onto an Axes and
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
    share,
    signed_label,
    signed_number,
    titled,
)

__all__ = [
    "plot_bars",
]


def plot_bars(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    ax: Any = None,
    hue: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    title: str | None = None,
    percent: bool = False,
    decimals: int | None = None,
    signed: bool = False,
    lang: Lang = "en",
) -> Any:
    """Grouped bars of ``y`` against ``x`` (one colour per ``hue``), values written on the bars
    in one format: a probability in whole percent (``percent``; one that is not zero is never
    written 0 %: ``< 1 %``), else a number with ``decimals`` decimals (default: three
    significant digits of the largest value), ``signed`` for a difference (:func:`signed_number`:
    ``+0.015``, ``±0.000`` for no change, rounding noise included)."""
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    xs = list(pd.unique(frame[x]))
    hues = list(pd.unique(frame[hue])) if hue else [None]
    width = 0.8 / len(hues)
    colours = colour_map(hues)
    if decimals is None:  # whole numbers stay whole; else 3 significant digits of the largest
        values = frame[y].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        top = float(np.max(np.abs(values), initial=0.0))
        whole = bool(np.all(values == np.round(values)))
        decimals = 0 if whole or top == 0 else max(0, 2 - int(np.floor(np.log10(top))))

    def written(v: float) -> str:
        if percent:
            return share(v, lang)
        if signed:
            return signed_number(v, lang, decimals)
        return "0" if v == 0 else i18n.number(v, lang, decimals)

    for k, h in enumerate(hues):
        g = frame if h is None else frame[frame[hue] == h]
        vals = [g.loc[g[x] == v, y].iloc[0] if (g[x] == v).any() else np.nan for v in xs]
        pos = np.arange(len(xs)) + (k - (len(hues) - 1) / 2) * width
        ax.bar(pos, vals, width=width, color=colours[h], label=None if h is None else f"{h}")
        for p_, v in zip(pos, vals):
            if not np.isnan(v):
                text = written(v)  # below a bar that goes down, else above (0.000 included)
                down = text.startswith(("−", "-"))
                ax.text(p_, v, text, ha="center", va="top" if down else "bottom", fontsize=6)
    ax.set_xticks(range(len(xs)), [signed_label(v) for v in xs])
    ax.set_xlabel(xlabel or _(x))
    ax.set_ylabel(ylabel or _(y))
    if percent:
        ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    if hue:
        place_legend(ax, room=True, fontsize="small", title=_(hue))
    ax.grid(alpha=0.3, axis="y")
    titled(ax, title or _("{y} by {x}").format(y=_(y), x=_(x)), frame_provenance(frame, lang), lang)
    return ax
