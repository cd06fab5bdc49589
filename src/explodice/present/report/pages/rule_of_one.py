"""The rule of 1: the drain of one roll and the success/drain frontier of cancelling 1s
against 6s."""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from explodice.engine.distribution import Distribution
from explodice.game.rules import Roll
from explodice.present import plots
from explodice.present.answers import method_text
from explodice.present.formats import Formatter
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.registry import ask
from explodice.questions.rule_of_one import RuleOfOneInputs

__all__ = ["data", "draw"]

#: The rolls whose drain is drawn, by label (the labels are in labels.WORDS).
ROLLS = {
    "keep": Roll(4),
    "cancel": Roll(4, policy="cancel"),
    "advantage, keep": Roll(4, advantage="advantage"),
}
#: The drains drawn, up to this many points.
MAX_DRAIN = 40
#: The frontier's cases: (modifier, DC).
CASES = ((2, 12), (4, 16), (6, 22), (4, 22))


def data(ctx: Context) -> PageData:
    """The drain of each roll of :data:`ROLLS` (its law and summary) and the cancel frontier
    of each case of :data:`CASES`, with its implied λ: the ``rule_of_one`` question."""
    _ = ctx._
    inputs = RuleOfOneInputs(
        ctx.rules,
        drains=tuple(ROLLS.items()),
        cases=tuple((Roll(mod), dc) for mod, dc in CASES),
        upto=MAX_DRAIN,
    )
    answer = ask("rule_of_one", inputs)
    front = answer.csv_table("frontier")
    # the case names the roll in full: a CSV cell starting with + would read as a formula
    names = {
        (Roll(mod).describe(), dc): _("3d6x{mod} vs DC {dc}").format(mod=f"{mod:+d}", dc=dc)
        for mod, dc in CASES
    }
    front.insert(0, "case", [names[r, d] for r, d in zip(front.roll, front.dc)])
    front.attrs["rules"] = ctx.rules
    return PageData(
        {
            "drain": answer.csv_table("drain"),
            "drain-summary": answer.csv_table("drain_summary"),
            "frontier": front,
        },
        {"answer": answer},
    )


def _drains(answer: Any, rules: Any) -> dict[str, Distribution]:
    """The drain law of each roll, as the drain plot reads a distribution (the answer's
    P(drain = x), up to :data:`MAX_DRAIN`)."""
    drain = answer.tables["drain"]
    return {
        str(label): Distribution(rows.p.to_numpy(dtype=float).reshape(1, -1, 1), 0, rules=rules)
        for label, rows in drain.groupby("label", sort=False)
    }


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    fmt = Formatter(lang)
    front = data.tables["frontier"]
    rows = []
    for case, g in front.groupby("case", sort=False):
        keep, cancel = g[g.policy == "keep"].iloc[0], g[g.policy == "cancel"].iloc[0]
        rows.append(
            {
                _("case"): case,
                _("keep: P(success)"): fmt.cell(keep.p_success, "probability"),
                _("keep: E[drain]"): fmt.cell(keep.drain_mean, "number", digits=2),
                _("cancel: P(success)"): fmt.cell(cancel.p_success, "probability"),
                _("cancel: E[drain]"): fmt.cell(cancel.drain_mean, "number", digits=2),
                _("implied λ"): fmt.cell(g.implied_lambda.iloc[0], "number"),
            }
        )
    caption = _(
        "Left: the gauge points one roll drains (each kept 1 drains an exploding d6), on "
        "a log scale, never cancelling, always cancelling, and with advantage (a 4th die, "
        "more 1s). Right: what cancelling a 1 against a 6 buys: each point is a policy "
        "from keep (top right) to cancel (bottom left); λ is the success a player gives "
        "up per point of drain saved. The table gives the ends and the implied λ of a "
        "sensible player: the average price of a point of drain over the whole frontier. "
        "The star marks the policy that price picks, labelled with the same implied λ."
    )
    how = method_text(data.shown["answer"].provenance, lang, rules=False)
    caption += " " + how[:1].upper() + how[1:] + "."
    title = _("The rule of 1: drain and the cancel frontier")
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=pd.DataFrame(rows), table_height=0.2
    )
    plots.plot_drain(
        {_(label): d for label, d in _drains(data.shown["answer"], ctx.rules).items()},
        ax=a,
        max_drain=MAX_DRAIN,
        lang=lang,
    )
    plots.plot_frontier(front, ax=b, hue="case", lang=lang)
    return fig
