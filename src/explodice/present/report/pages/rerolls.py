"""Rerolls: what a reroll on failure and the Lucky trait are worth, in success and drain."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.reroll import reroll_worth
from explodice.present import i18n
from explodice.present.labels import REROLL
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["MODIFIERS", "data", "draw"]

MODIFIERS = (0, 4, 8)


def data(ctx: Context) -> PageData:
    """P(success) and E[drain] with and without each reroll, per modifier, DC and advantage
    state, in both systems (exact)."""
    frames = [
        reroll_worth(
            MODIFIERS,
            system=system,
            trigger=trigger,
            advantages=("normal", "advantage"),
            rules=ctx.rules,
        )
        for system in ("3d6x", "d20")
        for trigger in ("failure", "one")
    ]
    frame = pd.concat(frames, ignore_index=True)
    frame["method"] = "exact"
    return PageData({"worth": frame})


def draw(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    frame = data.tables["worth"]
    caption = _(
        "Exact. A reroll on failure without advantage turns p into 1 - (1 - p)²; "
        "with advantage only the best die is rerolled. In 3d6x the roll thrown again "
        "drains again (right); Lucky (a 1 rerolled before the rule of 1) drains less. "
        "Table: 3d6x +4, no advantage."
    )
    triggers = {k: _(v) for k, v in REROLL.items()}
    normal = frame[frame.advantage == "normal"]
    table = normal[(normal.system == "3d6x") & (normal.modifier == 4)][
        ["trigger", "dc", "p", "p_reroll", "gain", "drain_added"]
    ].copy()
    for col in ("p", "p_reroll", "gain"):
        table[col] = table[col].map(ctx.pct)
    table["drain_added"] = table["drain_added"].map(
        lambda v: ("+" if v >= 0 else "") + i18n.number(v, ctx.lang, 2)
    )
    table["trigger"] = table["trigger"].map(triggers)
    table.columns = [
        _("reroll"),
        _("DC"),
        _("P(success)"),
        _("P(success) with the reroll"),
        _("gained"),
        _("E[drain] added"),
    ]
    title = _("What is a reroll worth?")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, table=table, table_height=0.26)
    for (system, trigger), part in normal.groupby(["system", "trigger"], sort=False):
        for m in MODIFIERS:
            rows = part[part.modifier == m]
            style = "-" if system == "3d6x" else ":"
            a.plot(
                rows.dc,
                rows.gain,
                style,
                marker="o" if trigger == "failure" else "x",
                label=f"{system}, {triggers[str(trigger)]}, {m:+d}",
            )
    a.set(
        xlabel=_("DC"),
        ylabel=_("P(success) gained"),
        title=_("Gain in success (no advantage)"),
    )
    a.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    a.legend(fontsize=6, ncol=2)
    x3 = normal[normal.system == "3d6x"]
    for (trigger, mod), rows in x3.groupby(["trigger", "modifier"]):
        b.plot(rows.dc, rows.drain_added, marker="o", label=f"{triggers[str(trigger)]}, {mod:+d}")
    b.axhline(0, color="0.5", lw=0.6)
    b.set(
        xlabel=_("DC"),
        ylabel=_("E[drain] added per test"),
        title=_("3d6x: drain added by the reroll"),
    )
    b.yaxis.set_major_formatter(i18n.number_formatter(ctx.lang))
    b.legend(fontsize=7)
    return fig
