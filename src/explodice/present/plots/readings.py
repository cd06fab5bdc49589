"""The plot of which readings matter: each switch's value ranked by its largest change of a
probability (:func:`plot_readings`, the report's page ``readings``), from the table of
:func:`~explodice.present.readings.readings_frame`. It draws onto an Axes and returns it.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd

from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.plots.style import axes_title
from explodice.present.readings import PART_NAMES

__all__ = ["plot_readings"]


def plot_readings(
    frame: pd.DataFrame,
    *,
    ax: Any = None,
    lang: Lang = "en",
    width: int = 58,
    title: str | None = None,
) -> Any:
    """Horizontal bars of each reading's largest change of a probability (``largest_abs``,
    in percentage points), ranked, coloured by the part where it happens, each with its
    signed change and where (wrapped at ``width`` characters) beside it; a reading with
    nothing computed is said so, never drawn as 0. ``frame``: :func:`readings_frame`."""
    import matplotlib.pyplot as plt

    _ = i18n.translator(lang)
    if ax is None:
        _fig, ax = plt.subplots()
    n = len(frame)
    y = np.arange(n)
    size = 100 * frame["largest_abs"].to_numpy(dtype=float)
    top = np.nanmax(size) if np.isfinite(size).any() and np.nanmax(size) > 0 else 1.0
    tab10 = plt.get_cmap("tab10")  # its i-th colour for the i-th part
    colours = {part: tab10(i) for i, part in enumerate(PART_NAMES)}
    for yi, (row, v) in enumerate(zip(frame.to_dict("records"), size)):
        if np.isnan(v):
            ax.text(0, yi, "  " + _("not computed"), va="center", fontsize=6.5, color="0.35")
            continue
        ax.barh(yi, v, color=colours.get(row["part"], "0.6"), height=0.7)
        text = row["largest"] + (f" · {row['where']}" if row["where"] else "")
        ax.text(
            v + top * 0.01,
            yi,
            "\n".join(textwrap.wrap(text, width)) or text,
            va="center",
            fontsize=5.6,
            linespacing=1.0,
        )
    ax.set_yticks(y, [_two_lines(r) for r in frame["reading"]], fontsize=7)
    ax.set_xlim(0, top * 2.1)  # room for the words beside the longest bar
    step = next(st for st in (1, 2, 5, 10, 20, 25) if top / st <= 6)
    ax.set_xticks(np.arange(0, min(100.0, top) + step / 2, step))  # never past 100 points
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel(_("largest change of a probability (percentage points)"), fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(alpha=0.3, axis="x")
    parts = [p for p in PART_NAMES if p in set(frame["part"].dropna())]
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[p]) for p in parts]
    if handles:
        ax.legend(
            handles,
            [_(PART_NAMES[p]) for p in parts],
            title=_("where the change is largest"),
            loc="lower right",
            fontsize=6.5,
            title_fontsize=7,
        )
    if title:
        axes_title(ax, title, fontsize=10, loc="left")
    return ax


def _two_lines(reading: str, width: int = 26) -> str:
    """A long reading label on two lines, broken after its ``=``."""
    name, eq, value = reading.partition(" = ")
    return f"{name} =\n{value}" if eq and len(reading) > width else reading
