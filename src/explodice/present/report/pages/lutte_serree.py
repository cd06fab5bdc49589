"""Lutte serrée: how often a test ties its DC, and what the bids cost each side."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.close_contest import close_contest
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.game.rules import Roll
from explodice.game.tables import DC_TABLES
from explodice.present import i18n, plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["MODIFIERS", "data", "draw"]

MODIFIERS = (0, 4, 8)


def data(ctx: Context) -> PageData:
    """P(total = DC) per system, modifier and DC of the table; the bids' outcomes and costs
    for pairs of bid models; the HP A pays when it bids 3 against B's uniform 0-5."""
    rows = []
    for system, dist_of in (
        ("3d6x", lambda m: exact(Roll(m), ctx.rules)),
        ("d20", lambda m: d20(Roll(m))),
    ):
        for m in MODIFIERS:
            d = dist_of(m)
            for dc in DC_TABLES[system].values():
                rows.append(
                    {
                        "system": system,
                        "modifier": m,
                        "dc": dc,
                        "p_tie": float(d.p_success(dc) - d.p_success(dc + 1)),
                    }
                )
    ties = pd.DataFrame(rows).assign(method="exact")
    _ = ctx._
    models = {
        _("fixed 3"): 3,
        _("uniform 0-5"): "uniform:5",
        _("uniform 0-10"): "uniform:10",
    }
    contests = []
    for name_a, bids_a in models.items():
        for name_b, bids_b in models.items():
            if bids_a == bids_b == 3:
                continue
            c = close_contest(bids_a, bids_b)
            contests.append({"bids_a": name_a, "bids_b": name_b, **c.summary()})
    example = close_contest(3, "uniform:5")
    return PageData(
        {"ties": ties, "bids": pd.DataFrame(contests)},
        {"example_hp": example.hp_pmf("a"), "example_p_win_a": example.p_win_a},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    ties = data.tables["ties"]
    caption = _(
        "An optional rule (rules text 001): a tie goes to secret bids of HP; the higher bid wins and "
        "pays, equal bids are paid by both and bid again (Aleksandr: 3/3 then 4/3 costs "
        "him 7 HP, the brigand 3). Left: P(total = DC); right: HP paid by A. Exact."
    )
    table = data.tables["bids"].copy()
    for col in ("p_win_a", "p_win_b"):
        table[col] = table[col].map(ctx.pct)
    for col in ("hp_a_mean", "hp_b_mean", "rounds_mean"):
        table[col] = table[col].map(lambda v: i18n.number(v, ctx.lang, 2))
    table = table.rename(
        columns={
            "bids_a": _("A bids"),
            "bids_b": _("B bids"),
            "p_win_a": _("A wins"),
            "p_win_b": _("B wins"),
            "hp_a_mean": _("HP paid by A"),
            "hp_b_mean": _("HP paid by B"),
            "rounds_mean": _("rounds of bids"),
        }
    )
    fig, (a, b) = page_figure(
        ctx, _("Lutte serrée"), caption, ncols=2, table=table, table_height=0.28
    )
    for (system, m), part in ties.groupby(["system", "modifier"], sort=False):
        a.plot(
            part.dc,
            part.p_tie,
            "-" if system == "3d6x" else ":",
            marker="o",
            label=f"{system} {m:+d}",
        )
    a.set(xlabel=_("DC"), ylabel=_("P(total = DC)"), title=_("How often a test ties its DC"))
    a.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang, 1))
    plots.place_legend(a, room=True, fontsize=7)
    pmf = data.shown["example_hp"]
    shown = pmf[pmf.index <= pmf.index[np.searchsorted(pmf.cumsum().to_numpy(), 0.999)]]
    b.bar(shown.index, shown.to_numpy())
    b.set(
        xlabel=_("HP paid by A"),
        ylabel=_("probability"),
        title=_("A bids 3, B uniform 0-5: A wins {p}").format(
            p=ctx.pct(data.shown["example_p_win_a"])
        ),
    )
    b.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    return fig
