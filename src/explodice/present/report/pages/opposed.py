"""Opposed tests: win, tie (status quo) and loss by the difference of modifiers, both
systems."""

from __future__ import annotations

from matplotlib.figure import Figure

from explodice.game.rules import Roll
from explodice.present import plots
from explodice.present.answers import for_plot
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.opposed import OpposedInputs
from explodice.questions.registry import ask

__all__ = ["MODIFIERS", "data", "draw"]

#: Side A's modifiers (side B rolls at +0).
MODIFIERS = tuple(range(-4, 9))


def data(ctx: Context) -> PageData:
    """P(win), P(tie), P(loss) of A at -4..+8 against B at +0, exact, in both systems (the
    question ``opposed``)."""
    inputs = OpposedInputs(
        tuple(Roll(m) for m in MODIFIERS), Roll(0), systems=("3d6x", "d20"), rules=ctx.rules
    )
    answer = ask("opposed", inputs)
    return PageData({"opposed": answer.csv_table("opposed")}, {"answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    frame = for_plot(data.shown["answer"], "opposed", ctx.rules)
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
