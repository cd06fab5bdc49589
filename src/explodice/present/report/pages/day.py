"""The party's gauges over an adventuring day (the question ``day``, exact unless the
configuration asks for a simulation): when each gauge that can empty runs dry (drained by its
own rolls, or filled by another gauge's overflow), and each roll type's success with its gauge
not empty and empty."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.sensitivity import day_blind_spot
from explodice.present import plots
from explodice.present.answers import day_inputs, for_plot, method_text
from explodice.present.formats import Formatter
from explodice.present.labels import (
    N_,
    blind_spot_text,
    day_description,
    policy_label,
    roll_type_lines,
)
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.present.report.warmup import wait_for
from explodice.questions.day import emptying
from explodice.questions.registry import ask

__all__ = ["data", "draw"]

#: The gauges' table as the page shows it: (column of the "gauges" table, header).
GAUGE_COLUMNS = (
    ("character", N_("character")),
    ("gauge", N_("gauge")),
    ("start", N_("start")),
    ("policy", N_("policy")),
    ("emptied_by", N_("emptied by")),
    ("p_empty", N_("P(empty by end of day)")),
    ("first_empty_mean", N_("first empty: mean roll")),
    ("caused_mean", N_("drain per day")),
    ("lost_mean", N_("points lost (character)")),
)
#: How a gauge empties: its own rolls drain it, or only the excess of another pours into it.
EMPTIED_BY = {True: N_("its rolls"), False: N_("overflow")}


def data(ctx: Context) -> PageData:
    """The day's answer (:mod:`explodice.questions.day`): every gauge's fate, P(empty) after
    each roll for every gauge that can empty, the success by roll and by roll type."""
    inputs = day_inputs(ctx.config)
    wait_for(ctx)  # the day's kernels, compiled by the warm-up process
    answer = ask("day", inputs)
    if "not computed" in answer.extra:
        spot = day_blind_spot(ctx.config.day, ctx.rules)
        return PageData({}, {"not computed": blind_spot_text(spot, ctx.config.day, ctx.lang)})
    return PageData(
        {
            "gauges": answer.csv_table("gauges"),
            "empty": answer.csv_table("empty"),
            "success": answer.csv_table("success"),
            "roll-types": answer.csv_table("roll_types"),
        },
        {"answer": answer},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    title = _("The rule of 1 over a day: the party's gauges")
    if "not computed" in data.shown:
        caption = _("The day is not computed: {reason}.").format(reason=data.shown["not computed"])
        fig, (a,) = page_figure(ctx, title, caption)
        a.axis("off")
        return fig
    answer = data.shown["answer"]
    prov = answer.provenance
    fmt = Formatter(lang)
    gauges = answer.tables["gauges"]
    can_empty = gauges[gauges.can_empty].assign(emptied_by=lambda f: f.caused_mean > 0)
    policies = {str(ch.policy): policy_label(ch.policy, lang) for ch in c.day.characters}

    def cell(col: str, v: object) -> str:
        if col == "policy":
            return policies.get(str(v), _(str(v)))
        if col == "emptied_by":
            return _(EMPTIED_BY[bool(v)])
        digits = 1 if col == "first_empty_mean" else None  # a roll of the day, to a tenth
        return fmt.cell(v, answer.kind(col), exact=prov.exact, cut=prov.cut, digits=digits)

    shown = pd.DataFrame(
        {_(head): [cell(col, v) for v in can_empty[col]] for col, head in GAUGE_COLUMNS}
    )
    # the points a character loses (drain with nowhere to go) are the character's, not a
    # gauge's: written once, on the character's first row (they read as 0.7 per gauge)
    later = can_empty["character"].duplicated().to_numpy()
    shown.loc[later, _("points lost (character)")] = ""
    if not prov.exact and not can_empty.empty:  # a simulated P(empty) with its interval
        shown[_(N_("95% interval"))] = [
            f"{fmt.cell(lo, 'probability', exact=False)} – {fmt.cell(hi, 'probability', exact=False)}"
            for lo, hi in zip(can_empty.ci_low, can_empty.ci_high)
        ]
    if shown.empty:  # an all-NPC party, or the rule of 1 on none of the day's kinds
        shown = pd.DataFrame({_("gauges"): [_("no gauge can empty under these rules")]})
    caption = _(
        "{day} The day is {method}. Left: the probability that each gauge that can empty "
        "(drained by its own rolls, or filled by another gauge's overflow) is empty after "
        "roll t. Right: each roll type's success rate while its gauge is not empty and once "
        "it is empty (then at disadvantage). The table gives the fate of every gauge that "
        "can empty at the end of the day."
    ).format(
        day=day_description(c.day.name, [ch.name for ch in c.day.characters], c.day.n_rolls, lang),
        method=method_text(prov, lang, rules=False),
    )
    height = 0.03 + 0.028 * (len(shown) + 1)  # the roll types' names take three lines
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=shown, table_height=height, bottom=0.14 + height
    )
    curves = emptying(answer).drop(columns=["rules"])  # every gauge that can empty
    curves.attrs["rules"] = ctx.rules
    plots.plot_depletion(curves, ax=a, lang=lang)
    types = for_plot(answer, "roll_types", ctx.rules)
    rolls = {r.label: r for r in c.day.rolls}
    types["roll type"] = [
        roll_type_lines(rolls[t], lang) if t in rolls else t for t in types["type"]
    ]
    types["state"] = types["state"].map(_)
    plots.plot_bars(
        types,
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
