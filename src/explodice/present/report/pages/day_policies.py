"""The party's day under four policies, exactly: keep, cancel, the best fixed λ and the optimal
state-dependent player."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.sensitivity import day_blind_spot
from explodice.day.exact import optimal_unsupported
from explodice.day.optimal import optimal_policy
from explodice.present import i18n, plots
from explodice.present.formats import Formatter
from explodice.present.labels import N_, blind_spot_text, day_description
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["LAMBDAS", "data", "draw"]

LAMBDAS = (0.0, 0.02, 0.05, 0.1, 0.2)  # the fixed λ the page tries
POLICIES = ("keep", "cancel", "best fixed λ", "optimal")  # the table's order


def data(ctx: Context) -> PageData:
    """Each PC's expected successes over the day under each policy, the optimal player's
    gain over each, and its thresholds; or, for a day it cannot play, the reason."""
    day = ctx.config.day
    spot = day_blind_spot(day, ctx.rules)  # a reading the day engines do not read yet
    reason = optimal_unsupported(day) or (spot and blind_spot_text(spot, day, ctx.lang))
    if reason:  # the optimal player cannot play this day: the page says why
        return PageData({}, {"unsupported": reason})
    best = optimal_policy(ctx.config.day, ctx.rules)
    table = best.compare(lambdas=LAMBDAS)
    table["policy"] = pd.Categorical(table["policy"], POLICIES, ordered=True)
    table = table.sort_values(["character", "policy"]).reset_index(drop=True)
    table["policy"] = table["policy"].astype(str)
    # the weight of each row's best fixed λ, looked up by the label compare() gives it (the
    # table has no column of its own for it)
    weights = {f"best(λ={w:g})": w for w in LAMBDAS}
    return PageData(
        {"policies": table, "optimal-thresholds": best.to_frame("thresholds")},
        {"weights": [weights.get(d) for d in table.detail]},
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
    table = data.tables["policies"]
    shown = pd.DataFrame(
        {
            _("character"): table.character,
            _("policy"): table.policy.map(_),
            _("λ"): [ctx.num(w, None) if w is not None else "" for w in data.shown["weights"]],
            _(N_("expected successes")): table.successes.map(lambda v: ctx.num(v, 3)),
            # a signed number, three decimals in every row: +0.015, 0.000 for 0 and for -3e-15
            _(N_("optimal gain")): table.optimal_gain.map(
                lambda v: Formatter(lang).cell(v, "signed")
            ),
        }
    )
    if shown.empty:  # an all-NPC party: nobody has a choice to make
        shown = pd.DataFrame({_("policies"): [_("no player character rolls in this day")]})
    caption = _(
        "{day} Exact (no sampling). Each PC's expected successes over the day under "
        "keep, cancel, the best fixed weight λ (of {lambdas}, played all day) and the "
        "optimal player, who chooses k after seeing the throw, knowing the roll's place "
        "in the day and every gauge level (backward dynamic programming). The gain is "
        "what playing well adds to each fixed policy."
    ).format(
        day=day_description(c.day.name, [ch.name for ch in c.day.characters], c.day.n_rolls, lang),
        lambdas=", ".join(i18n.number(x, lang, None) for x in LAMBDAS),
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
    named = table.assign(policy=table.policy.map(_), expected=table.successes)
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
