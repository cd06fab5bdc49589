"""The DC table: P(success) for each modifier, DC and advantage state, under both readings of
disadvantage."""

from __future__ import annotations

from matplotlib.figure import Figure

from explodice.game.tables import DC_TABLES
from explodice.present import plots
from explodice.present.labels import STATES
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.registry import ask
from explodice.questions.success import SuccessInputs

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """The exact success table of the configuration's modifiers, both readings."""
    inputs = SuccessInputs(tuple(ctx.config.modifiers), ctx.rules, readings="both")
    table = ask("success", inputs).csv_table("success")
    table.attrs["rules"] = ctx.rules
    return PageData({"success": table})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    table = data.tables["success"]
    caption = _(
        "P(success) on the typical DC table (very easy {lo} to nearly impossible {hi}) for "
        "each modifier: normal, with advantage (a 4th die) and with disadvantage under "
        "both readings of the seed: subtract (3 dice minus an exploding malus die) and "
        "drop (2 dice). Exact. The two readings differ most on easy DCs."
    ).format(lo=min(DC_TABLES["3d6x"].values()), hi=max(DC_TABLES["3d6x"].values()))
    fig, axes = page_figure(
        ctx, _("The DC table"), caption, nrows=2, ncols=2, hspace=0.6, right=0.92
    )
    for ax, state in zip(axes, STATES):  # one heatmap per state, both readings
        plots.plot_heatmap(
            table[table.advantage == state.key],
            ax=ax,
            lang=lang,
            title=_("P(success), {state}").format(state=state.label(lang)),
        )
    return fig
