"""Group tests and working together, for the party."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.resolutions import group_success, working_together
from explodice.present import plots
from explodice.present.labels import test_label
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]

SKILL = "Stealth"


def data(ctx: Context) -> PageData:
    """P(success) against DCs 4 to 36 of the party's group test, of its working together (the
    best member leads with advantage), and of each member alone, exact."""
    party = list(ctx.config.party)
    _ = ctx._
    rows = []
    for dc in range(4, 37):
        rolls = [ch.roll(SKILL, dc=dc) for ch in party]  # a reroll on failure needs the DC
        g = group_success(rolls, dc=dc, rules=ctx.rules)
        t = working_together(rolls, dc, rules=ctx.rules)
        rows.append(
            {
                "dc": dc,
                "series": _("group (≥{need} of {size})").format(need=g.need, size=len(rolls)),
                "p": g.p,
            }
        )
        rows.append(
            {
                "dc": dc,
                "series": _("working together ({name} leads)").format(name=party[t.leader].name),
                "p": t.p,
            }
        )
        rows += [
            {
                "dc": dc,
                "series": _("{name} alone ({modifier})").format(
                    name=ch.name, modifier=f"{r.modifier:+d}"
                ),
                "p": p,
            }
            for ch, r, p in zip(party, rolls, g.p_each)
        ]
    frame = pd.DataFrame(rows)
    frame["skill"], frame["method"] = test_label(SKILL, ctx.lang), "exact"
    return PageData({"group": frame})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    skill = test_label(SKILL, lang)
    caption = _(
        "A {skill} test for the whole party: the group succeeds when at least half of "
        "its members succeed; working together, the best member rolls with advantage "
        "for everyone. Each member's own odds for comparison; exact."
    ).format(skill=skill)
    fig, (a,) = page_figure(ctx, _("Group tests and working together"), caption, right=0.74)
    plots.plot_success_curves(
        data.tables["group"].assign(advantage="normal"),
        ax=a,
        hue="series",
        lang=lang,
        title=_("Success against DC: {skill}").format(skill=skill),
    )
    a.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig
