"""The party's gauges over an adventuring day, simulated: when each gauge the day drains runs
dry, and each roll type's success with its gauge not empty and empty."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.sensitivity import day_blind_spot
from explodice.day.simulate import simulate_day
from explodice.present import i18n, plots
from explodice.present.labels import (
    N_,
    blind_spot_text,
    day_description,
    policy_label,
    roll_type_lines,
)
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.present.report.warmup import wait_for

__all__ = ["data", "draw"]

#: The gauges' table as the page shows it: (column of the "gauges" table, header, format).
GAUGE_COLUMNS = (
    ("character", N_("character"), None),
    ("gauge", N_("gauge"), None),
    ("start", N_("start"), None),
    ("policy", N_("policy"), "policy"),
    ("p_empty", N_("P(empty by end of day)"), "percent"),
    ("first_empty_mean", N_("first empty: mean roll"), "number"),
    ("caused_mean", N_("drain per day"), "number"),
    ("lost_mean", N_("points lost"), "number2"),
)


def data(ctx: Context) -> PageData:
    """``days`` simulated days of the configuration's scenario: the gauges' fate, P(empty)
    after each roll for every gauge the day drains, the success by roll and by roll type
    (its gauge not empty or empty)."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    spot = day_blind_spot(c.day, ctx.rules)
    if spot is not None:  # the day engines would ignore a reading: no number, the reason
        return PageData({}, {"not computed": blind_spot_text(spot, c.day, lang)})
    wait_for(ctx)
    result = simulate_day(c.day, ctx.rules, n_days=c.days, seed=c.seed)
    gauges = result.to_frame("gauges")
    drained = gauges[gauges.caused_mean > 0][["character", "gauge"]]
    empty = result.to_frame("empty").merge(drained, on=["character", "gauge"])
    types = result.to_frame("roll_types")
    rolls = {r.label: r for r in c.day.rolls}
    types["roll type"] = [
        roll_type_lines(rolls[t], lang) if t in rolls else t for t in types["type"]
    ]
    types["state"] = types["state"].map(_)
    empty.attrs["rules"] = types.attrs["rules"] = ctx.rules
    return PageData(
        {
            "gauges": gauges,
            "empty": empty,
            "success": result.to_frame("success"),
            "roll-types": types,
        }
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    title = _("The rule of 1 over a day: the party's gauges")
    if "not computed" in data.shown:
        caption = _("The day is not computed: {reason}.").format(reason=data.shown["not computed"])
        fig, (a,) = page_figure(ctx, title, caption)
        a.axis("off")
        return fig
    gauges = data.tables["gauges"]
    policies = {str(ch.policy): policy_label(ch.policy, lang) for ch in c.day.characters}
    formats = {
        "policy": lambda v: policies.get(str(v), _(str(v))),
        "percent": ctx.pct,
        "number": ctx.num,
        "number2": lambda v: ctx.num(v, 2),
    }
    drained = gauges[gauges.caused_mean > 0]
    shown = pd.DataFrame(
        {
            _(header): drained[col].map(formats[how]) if how else drained[col]
            for col, header, how in GAUGE_COLUMNS
        }
    )
    if shown.empty:  # an all-NPC party, or the rule of 1 on none of the day's kinds
        shown = pd.DataFrame(
            {_("gauges"): [_("no roll of the day drains a gauge under these rules")]}
        )
    caption = _(
        "{day} {days} days simulated (seed {seed}). Left: the probability that each "
        "gauge the day drains is empty after roll t. Right: each roll type's success "
        "rate while its gauge is not empty and once it is empty (then at disadvantage). The "
        "table gives the gauges' fate at the end of the day."
    ).format(
        day=day_description(c.day.name, [ch.name for ch in c.day.characters], c.day.n_rolls, lang),
        days=i18n.number(c.days, lang, 0),
        seed=c.seed,
    )
    height = 0.03 + 0.028 * (len(shown) + 1)  # the roll types' names take three lines
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=shown, table_height=height, bottom=0.14 + height
    )
    plots.plot_depletion(data.tables["empty"], ax=a, lang=lang)
    plots.plot_bars(
        data.tables["roll-types"],
        x="roll type",
        y="p",
        hue="state",
        ax=b,
        percent=True,
        lang=lang,
        ylabel=_("P(success)"),
        title=_("Success by roll type, its gauge empty or not"),
    )
    b.tick_params(axis="x", labelsize=6)
    return fig
