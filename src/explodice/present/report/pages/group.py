"""Group tests and working together, for the party."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure

from explodice.present import plots
from explodice.present.formats import Formatter
from explodice.present.labels import REROLL, policy_label, test_label
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.group import GroupInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]

SKILL = "Stealth"


def data(ctx: Context) -> PageData:
    """P(success) against DCs 4 to 36 of the party's group test, of its working together (the
    best member leads with advantage), and of each member alone (the question ``group``,
    exact)."""
    answer = ask("group", GroupInputs(tuple(ctx.config.party), SKILL, rules=ctx.rules))
    return PageData({"group": answer.csv_table("group")}, {"answer": answer})


def _series(row: Any, ctx: Context) -> str:
    """A row's curve, in words: the group, working together, or one member alone, with the
    member's rule-of-1 policy and reroll (two members at one modifier differ by them)."""
    _, lang = ctx._, ctx.lang
    if row.how == "group":
        return _("group (≥{need} of {size})").format(need=row.need, size=row.size)
    policies = {str(ch.policy): policy_label(ch.policy, lang) for ch in ctx.config.party}
    how = [policies.get(row.policy, row.policy)] + ([_(REROLL[row.reroll])] if row.reroll else [])
    if row.how == "together":
        return _("working together ({name} leads; {how})").format(
            name=row.member, how=", ".join(how)
        )
    modifier = Formatter(lang).cell(row.modifier, "modifier")
    return _("{name} alone ({modifier}; {how})").format(
        name=row.member, modifier=modifier, how=", ".join(how)
    )


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    skill = test_label(SKILL, lang)
    caption = _(
        "A {skill} test for the whole party: the group succeeds when at least half of "
        "its members succeed; working together, the best member rolls with advantage "
        "for everyone. Each member's own odds for comparison, with the rule-of-1 policy "
        "each plays (the legend): two members at one modifier differ when one cancels "
        "1s against 6s, which can fail a DC that keeping would pass. Exact."
    ).format(skill=skill)
    fig, (a,) = page_figure(ctx, _("Group tests and working together"), caption, right=0.68)
    answer = data.shown["answer"]
    curves = answer.csv_table("group").drop(columns=["rules"])
    curves["series"] = [_series(row, ctx) for row in curves.itertuples()]
    plots.plot_success_curves(
        curves.assign(advantage="normal"),
        ax=a,
        hue="series",
        lang=lang,
        title=_("Success against DC: {skill}").format(skill=skill),
    )
    # the legend (each member's policy: long in French) stands right of the Axes, which
    # then need no room above 100% for it
    a.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    a.set_ylim(0, 1.02)
    a.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    return fig
