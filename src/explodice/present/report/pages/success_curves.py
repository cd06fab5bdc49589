"""Success against DC for several modifiers, one line per advantage state, each reading of
disadvantage on its own side."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from explodice.analysis.success import success_table
from explodice.present import plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """The exact success table of three modifiers spread across the configuration's, DCs 3
    to 40, both readings."""
    mods = _spread(ctx.config.modifiers, 3)
    return PageData(
        {"success": success_table(mods, range(3, 41), readings="both", rules=ctx.rules)}
    )


def _spread(values: Sequence[int], k: int) -> list[int]:
    """``k`` values spread across a sorted sequence (all of them if there are few)."""
    values = sorted(set(values))
    if len(values) <= k:
        return values
    idx = np.round(np.linspace(0, len(values) - 1, k)).astype(int)
    return [values[i] for i in idx]


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    table = data.tables["success"]
    mods = list(dict.fromkeys(table.modifier))
    caption = _(
        "P(success) against the DC, for modifiers {mods}: the line style gives the "
        "advantage state (solid advantage, dashed normal, dotted disadvantage). Left the "
        "subtract reading of disadvantage, right the drop reading. The shaded bands are "
        "the typical DC table; exact."
    ).format(mods=", ".join(f"{m:+d}" for m in mods))
    fig, (a, b) = page_figure(ctx, _("Success against DC"), caption, ncols=2)
    for ax, reading in ((a, "subtract"), (b, "drop")):
        # one reading's rows, its disadvantage drawn as plain "disadvantage"
        part = table[table.disadvantage.isna() | (table.disadvantage == reading)]
        part = part.assign(advantage=part.advantage.where(part.disadvantage.isna(), "disadvantage"))
        plots.plot_success_curves(part, ax=ax, lang=lang)
    return fig
