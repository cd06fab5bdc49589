"""The party's day under four policies, exactly (the question ``day_policies``): keep, cancel,
the best fixed λ and the optimal state-dependent player."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.sensitivity import day_blind_spot
from explodice.present import plots
from explodice.present.answers import for_plot
from explodice.present.formats import Formatter
from explodice.present.labels import N_, blind_spot_text, day_description
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.day_policies import LAMBDAS, DayPoliciesInputs
from explodice.questions.registry import ask

__all__ = ["LAMBDAS", "data", "draw"]


def data(ctx: Context) -> PageData:
    """Each PC's expected successes over the day under each policy, the optimal player's
    gain over each, and its thresholds; or, for a day it cannot play, the reason."""
    day = ctx.config.day
    answer = ask("day_policies", DayPoliciesInputs(day, ctx.rules))
    if "unsupported" in answer.extra:  # the optimal player cannot play this day: the page says why
        return PageData({}, {"unsupported": answer.extra["unsupported"]})
    if "not computed" in answer.extra:  # a reading the day engines do not read yet
        spot = day_blind_spot(day, ctx.rules)
        return PageData({}, {"unsupported": blind_spot_text(spot, day, ctx.lang)})
    return PageData(
        {
            "policies": answer.csv_table("policies"),
            "optimal-thresholds": answer.csv_table("thresholds"),
        },
        {"answer": answer},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    title = _("The rule of 1 over a day: four policies")
    if "unsupported" in data.shown:
        caption = _("The optimal player cannot play this day: {reason}").format(
            reason=data.shown["unsupported"]
        )
        fig, (a,) = page_figure(ctx, title, caption)
        a.axis("off")
        return fig
    answer = data.shown["answer"]
    table = answer.tables["policies"]
    fmt = Formatter(lang)

    def cells(col: str, digits: int | None = None) -> list[str]:
        # one format per column, by its kind: λ 0.00 / 0.02, successes 10.630, gains +0.015
        # (±0.000 for 0 and for -3e-15, +< 0.001 for 1e-05); a row without a λ is blank
        return [
            "" if col == "weight" and pd.isna(v) else fmt.cell(v, answer.kind(col), digits=digits)
            for v in table[col]
        ]

    shown = pd.DataFrame(
        {
            _("character"): table.character,
            _("policy"): table.policy.map(_),
            _("λ"): cells("weight", 2),
            _(N_("expected successes")): cells("successes"),
            _(N_("optimal gain")): cells("optimal_gain"),
        }
    )
    if shown.empty:  # an all-NPC party: nobody has a choice to make
        shown = pd.DataFrame({_("policies"): [_("no player character rolls in this day")]})
    caption = _(
        "{day} Exact (no sampling). Each PC's expected successes over the day under "
        "keep, cancel, the best fixed weight λ (of {lambdas}, played all day) and the "
        "optimal player, who chooses k after seeing the throw, knowing the roll's place "
        "in the day and every gauge level (backward dynamic programming). The gain is "
        "what playing well adds to each fixed policy. The best fixed λ can be 0 and still "
        "beat keep: λ = 0 still cancels a pair whenever that costs no chance of success "
        "(ties go to cancelling), which saves gauge points for later rolls."
    ).format(
        day=day_description(c.day.name, [ch.name for ch in c.day.characters], c.day.n_rolls, lang),
        lambdas=", ".join(fmt.cell(x, "number", digits=2) for x in LAMBDAS),
    )
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=shown, table_height=0.03 + 0.022 * (len(shown) + 1)
    )
    if table.empty:
        for ax in (a, b):
            ax.axis("off")
            ax.text(
                0.5,
                0.5,
                _("no player character rolls in this day"),
                ha="center",
                transform=ax.transAxes,
            )
        return fig
    named = for_plot(answer, "policies", ctx.rules)
    named = named.assign(policy=named.policy.map(_), expected=named.successes)
    named.attrs["rules"] = ctx.rules
    plots.plot_bars(
        named,
        x="character",
        y="expected",
        lang=lang,
        hue="policy",
        ax=a,
        ylabel=_("expected successes per day"),
        title=_("Expected successes over the day, by policy"),
        decimals=2,
    )
    plots.plot_bars(
        named[table.policy != "optimal"],
        x="character",
        y="optimal_gain",
        hue="policy",
        ax=b,
        lang=lang,
        ylabel=_("optimal minus policy (successes per day)"),
        title=_("What the optimal player gains over each fixed policy"),
        decimals=3,
        signed=True,
    )
    return fig
