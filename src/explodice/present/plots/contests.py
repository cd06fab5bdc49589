"""Plots of contests (opposed rolls, haggling): the stacked win / tie / loss bars of
:func:`plot_outcomes`. It draws onto an Axes and returns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.plots.style import (
    axes_or_current,
    frame_provenance,
    percent_axis,
    share,
    signed_label,
    titled,
)

__all__ = [
    "plot_outcomes",
]


def plot_outcomes(
    frame: pd.DataFrame,
    *,
    x: str,
    ax: Any = None,
    parts: Sequence[str] = ("win", "tie", "loss"),
    colours: Sequence[str] = ("tab:green", "0.7", "tab:red"),
    labels: Sequence[str] | None = None,
    legend: bool = True,
    legend_title: str | None = None,
    xlabel: str | None = None,
    title: str | None = None,
    lang: Lang = "en",
) -> Any:
    """Stacked bars of outcome probabilities (win / tie / loss by default) against ``x``.

    The bars fill the Axes, so the legend (``labels``, default the parts' names, under
    ``legend_title``) stands outside them, at their right: the page leaves that room, or
    draws one legend for several Axes (``legend=False`` on the others)."""
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    f = frame.sort_values(x)
    pos = np.arange(len(f))
    bottom = np.zeros(len(f))
    names = list(labels) if labels is not None else [_(part) for part in parts]
    for part, colour, name in zip(parts, colours, names):
        vals = f[part].to_numpy(dtype=float)
        ax.bar(pos, vals, bottom=bottom, color=colour, label=name, width=0.8)
        for i, (v, b) in enumerate(zip(vals, bottom)):
            if v >= 0.06:
                ax.text(i, b + v / 2, share(v, lang), ha="center", va="center", fontsize=6)
        bottom += vals
    ax.set_xticks(pos, [signed_label(v) for v in f[x]])
    ax.set_xlabel(xlabel or _(x))
    ax.set_ylabel(_("probability"))
    ax.set_ylim(0, 1.0)
    ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    if legend:
        handles, shown = ax.get_legend_handles_labels()
        ax.legend(
            handles[::-1],  # top to bottom, as the bars are stacked
            shown[::-1],
            title=legend_title,
            fontsize="x-small",
            title_fontsize="x-small",
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            frameon=False,
            alignment="left",
        )
    titled(ax, title or _("Outcomes"), frame_provenance(frame, lang), lang)
    return ax
