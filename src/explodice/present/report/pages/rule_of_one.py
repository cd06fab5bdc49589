"""The rule of 1: the drain of one roll and the success/drain frontier of cancelling 1s
against 6s."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.drain import drain_frame, drain_summary
from explodice.analysis.frontier import frontier
from explodice.engine.exact import exact
from explodice.game.rules import Roll
from explodice.present import plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]

#: The rolls whose drain is drawn, by label (the labels are in labels.WORDS).
ROLLS = {
    "keep": Roll(4),
    "cancel": Roll(4, policy="cancel"),
    "advantage, keep": Roll(4, advantage="advantage"),
}
#: The frontier's cases: (modifier, DC).
CASES = ((2, 12), (4, 16), (6, 22), (4, 22))


def data(ctx: Context) -> PageData:
    """The drain of each roll of :data:`ROLLS` (its law, summary and exact distribution) and
    the cancel frontier of each case, with its implied λ."""
    rules, _ = ctx.rules, ctx._
    drains = drain_frame(ROLLS, rules, upto=40)
    summary = drain_summary(ROLLS, rules)
    fronts = []
    for mod, dc in CASES:
        f = frontier(mod, dc, rules=rules)
        # the case names the roll in full: a CSV cell starting with + would read as a formula
        f.insert(0, "case", _("3d6x{mod} vs DC {dc}").format(mod=f"{mod:+d}", dc=dc))
        f["implied_lambda"] = f.attrs["implied_lambda"]
        fronts.append(f)
    front = pd.concat(fronts, ignore_index=True)
    front.attrs["rules"] = rules
    return PageData(
        {"drain": drains, "drain-summary": summary, "frontier": front},
        {"distributions": {label: exact(roll, rules) for label, roll in ROLLS.items()}},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    front = data.tables["frontier"]
    rows = []
    for case, g in front.groupby("case", sort=False):
        keep, cancel = g[g.policy == "keep"].iloc[0], g[g.policy == "cancel"].iloc[0]
        rows.append(
            {
                _("case"): case,
                _("keep: P(success)"): ctx.pct(keep.p_success),
                _("keep: E[drain]"): ctx.num(keep.drain_mean, 2),
                _("cancel: P(success)"): ctx.pct(cancel.p_success),
                _("cancel: E[drain]"): ctx.num(cancel.drain_mean, 2),
                _("implied λ"): ctx.num(g.implied_lambda.iloc[0], 3),
            }
        )
    caption = _(
        "Left: the gauge points one roll drains (each kept 1 drains an exploding d6), on "
        "a log scale, never cancelling, always cancelling, and with advantage (a 4th die, "
        "more 1s). Right: what cancelling a 1 against a 6 buys: each point is a policy "
        "from keep (top right) to cancel (bottom left); λ is the success a player gives "
        "up per point of drain saved. The table gives the ends and the implied λ of a "
        "sensible player (the frontier's average price, the star)."
    )
    caption += " " + _("Exact (no sampling).")  # every caption names its method
    title = _("The rule of 1: drain and the cancel frontier")
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=pd.DataFrame(rows), table_height=0.2
    )
    plots.plot_drain(
        {_(label): d for label, d in data.shown["distributions"].items()},
        ax=a,
        max_drain=40,
        lang=lang,
    )
    plots.plot_frontier(front, ax=b, hue="case", lang=lang)
    return fig
