"""Opposed tests: win, tie (status quo) and loss by the difference of modifiers, both
systems."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.resolutions import opposed
from explodice.game.rules import Roll
from explodice.present import plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """P(win), P(tie), P(loss) of A at -4..+8 against B at +0, exact, in both systems."""
    rows = []
    for system in ("3d6x", "d20"):
        for diff in range(-4, 9):
            o = opposed(Roll(diff), Roll(0), system=system, rules=ctx.rules)
            rows.append(
                {
                    "system": system,
                    "modifier_a": diff,
                    "modifier_b": 0,
                    "win": o.win,
                    "tie": o.tie,
                    "loss": o.loss,
                    "method": o.method,
                }
            )
    return PageData({"opposed": pd.DataFrame(rows)})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    frame = data.tables["opposed"]
    caption = _(
        "Both sides roll; the higher total wins and a tie keeps the status quo (a close "
        "contest under the optional rule). Against "
        "an opponent at +0, by the roller's modifier: 3d6x (left) ties more often than "
        "d20 (right) and rewards a modifier edge more steeply, since its totals cluster. "
        "Green: A wins; grey: a tie; red: B wins. Exact."
    )
    fig, (a, b) = page_figure(
        ctx, _("Opposed tests"), caption, ncols=2, wspace=0.3, left=0.075, right=0.86
    )
    labels = [_("A wins"), _("a tie (status quo)"), _("B wins")]
    for ax, system in ((a, "3d6x"), (b, "d20")):
        plots.plot_outcomes(
            frame[frame.system == system],
            x="modifier_a",
            ax=ax,
            lang=lang,
            labels=labels,
            legend=ax is b,  # one legend for both: the colours are the same
            legend_title=_("outcome for A"),
            xlabel=_("modifier of A (B rolls at +0)"),
            title=_("Opposed test, {system}: A against B").format(system=system),
        )
    return fig
