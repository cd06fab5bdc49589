"""Success against DC for several modifiers, one line per advantage state, each reading of
disadvantage on its own side."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from explodice.present import plots
from explodice.present.answers import method_text
from explodice.present.formats import Formatter
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.registry import ask
from explodice.questions.success import SuccessInputs

__all__ = ["DCS", "data", "draw"]

#: The DCs of the curves.
DCS = tuple(range(3, 41))


def data(ctx: Context) -> PageData:
    """The exact success table of three modifiers spread across the configuration's, DCs 3
    to 40, both readings."""
    inputs = SuccessInputs(tuple(_spread(ctx.config.modifiers, 3)), ctx.rules, DCS, readings="both")
    answer = ask("success", inputs)  # the DC table's question (`explodice table`)
    table = answer.csv_table("success")
    table.attrs["rules"] = ctx.rules  # the plots' note names them in the page's language
    return PageData({"success": table}, {"answer": answer})


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
        "the typical DC table."
    ).format(mods=", ".join(Formatter(lang).cell(m, "modifier") for m in mods))
    how = method_text(data.shown["answer"].provenance, lang, rules=False)
    caption += " " + how[:1].upper() + how[1:] + "."
    fig, (a, b) = page_figure(ctx, _("Success against DC"), caption, ncols=2, bottom=0.24)
    for ax, reading in ((a, "subtract"), (b, "drop")):
        # one reading's rows, its disadvantage drawn as plain "disadvantage"
        part = table[table.disadvantage.isna() | (table.disadvantage == reading)]
        part = part.assign(advantage=part.advantage.where(part.disadvantage.isna(), "disadvantage"))
        plots.plot_success_curves(part, ax=ax, lang=lang)
        # the curves fill the panel: the legend goes under both, the y axis stops at 100%
        handles, labels = ax.get_legend_handles_labels()
        ax.get_legend().remove()
        ax.set_ylim(0, 1.02)
        ax.set_yticks(np.linspace(0, 1, 6))
    fig.legend(
        handles,
        labels,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.05),
        ncol=3,
        fontsize="small",
        frameon=False,
    )
    return fig
