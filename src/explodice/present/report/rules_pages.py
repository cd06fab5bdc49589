"""Report pages for the seeds' other rules: what a reroll is worth, initiative, lutte serrée.

Each builder takes the report's :class:`~explodice.present.report.kit.Context` and returns a
:class:`~explodice.present.report.kit.Page`; :data:`RULES_PAGES` is appended to the report's
page list.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from explodice.analysis.close_contest import close_contest
from explodice.analysis.initiative import initiative
from explodice.analysis.reroll import reroll_worth
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.game.rules import Roll
from explodice.game.tables import DC_TABLES
from explodice.present import i18n
from explodice.present.report.kit import Context, Page, page_figure

__all__ = ["RULES_PAGES", "close_contest_page", "initiative_page", "reroll_page"]

_MODS = (0, 4, 8)


def reroll_page(ctx: Context) -> Page:
    """Rerolls: what a reroll on failure and the Lucky trait are worth, in success and drain."""
    frames = []
    for system in ("3d6x", "d20"):
        for trigger in ("failure", "one"):
            frames.append(
                reroll_worth(
                    _MODS,
                    system=system,
                    trigger=trigger,
                    advantages=("normal", "advantage"),
                    rules=ctx.rules,
                )
            )
    frame = pd.concat(frames, ignore_index=True)
    frame["method"] = "exact"
    _ = ctx._
    caption = _(
        "Exact. A reroll on failure without advantage turns p into 1 - (1 - p)²; "
        "with advantage only the best die is rerolled. In 3d6x the roll thrown again "
        "drains again (right); Lucky (a 1 rerolled before the rule of 1) drains less. "
        "Table: 3d6x +4, no advantage."
    )
    triggers = {"failure": _("reroll on failure"), "one": _("Lucky")}
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
        for m in _MODS:
            rows = part[part.modifier == m]
            style = "-" if system == "3d6x" else ":"
            a.plot(
                rows.dc,
                rows.gain,
                style,
                marker="o" if trigger == "failure" else "x",
                label=f"{system}, {triggers[trigger]}, {m:+d}",
            )
    a.set(
        xlabel=_("DC"),
        ylabel=_("P(success) gained"),
        title=_("Gain in success (no advantage)"),
    )
    a.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    a.legend(fontsize=6, ncol=2)
    x3 = normal[normal.system == "3d6x"]
    for (trigger, m), rows in x3.groupby(["trigger", "modifier"]):
        b.plot(rows.dc, rows.drain_added, marker="o", label=f"{triggers[trigger]}, {m:+d}")
    b.axhline(0, color="0.5", lw=0.6)
    b.set(
        xlabel=_("DC"),
        ylabel=_("E[drain] added per test"),
        title=_("3d6x: drain added by the reroll"),
    )
    b.yaxis.set_major_formatter(i18n.number_formatter(ctx.lang))
    b.legend(fontsize=7)
    return Page("13-rerolls", title, caption, fig, {"worth": frame})


def initiative_page(ctx: Context) -> Page:
    """Initiative: each creature's rank and P(the party acts first), both systems."""
    party = list(ctx.config.party)
    _ = ctx._
    orc, wolf, us, them = _("Orc"), _("Wolf"), _("the party"), _("the monsters")
    creatures: dict[str, object] = {c.name: c for c in party}
    creatures |= {orc: 1, wolf: 2}
    sides = {us: [c.name for c in party], them: [orc, wolf]} if party else None
    if not party:
        creatures |= {_("Hero"): 2}
        sides = {us: [_("Hero")], them: [orc, wolf]}
    results = {
        s: initiative(creatures, sides=sides, system=s, rules=ctx.rules) for s in ("3d6x", "d20")
    }
    ranks = pd.concat([r.ranks.assign(system=s) for s, r in results.items()], ignore_index=True)
    side_rows = pd.concat([r.sides.assign(system=s) for s, r in results.items()], ignore_index=True)
    ranks["method"] = side_rows["method"] = "exact"
    first = side_rows[side_rows["first"] == us].set_index("system").p
    caption = _(
        "A DEX ability check (outside the rule of 1); ties go to the higher DEX "
        "modifier, then a coin. Exact P(rank) against an orc (DEX +1) and a wolf (+2). "
        "The party acts entirely first with P = {p3} in 3d6x, {p20} in d20."
    ).format(p3=ctx.pct(first["3d6x"]), p20=ctx.pct(first["d20"]))
    table = side_rows.assign(p=side_rows.p.map(ctx.pct))[["system", "first", "second", "p"]]
    table.columns = [_("system"), _("acts first"), _("then"), _("probability")]
    title = _("Initiative")
    fig, axes = page_figure(ctx, title, caption, ncols=2, table=table, table_height=0.16)
    names = list(creatures)
    n = len(names)
    for ax, (system, r) in zip(axes, results.items()):
        wide = r.ranks.pivot(index="creature", columns="rank", values="p").reindex(names)
        bottom = np.zeros(n)
        for rank in wide.columns:
            ax.bar(names, wide[rank], bottom=bottom, label=_("rank {rank}").format(rank=rank))
            bottom += wide[rank].to_numpy()
        ax.set(
            title=_("{system}: P(rank)").format(system=system),
            ylabel=_("probability"),
            ylim=(0, 1),
        )
        ax.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
        ax.legend(fontsize=6)
    return Page("14-initiative", title, caption, fig, {"ranks": ranks, "sides": side_rows})


def close_contest_page(ctx: Context) -> Page:
    """Lutte serrée: how often a test ties its DC, and what the bids cost each side."""
    rows = []
    for system, dist_of in (
        ("3d6x", lambda m: exact(Roll(m), ctx.rules)),
        ("d20", lambda m: d20(Roll(m))),
    ):
        for m in _MODS:
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
    bids = pd.DataFrame(contests)
    example = close_contest(3, "uniform:5")
    caption = _(
        "Optional (seed 001): a tie goes to secret bids of HP; the higher bid wins and "
        "pays, equal bids are paid by both and bid again (Aleksandr: 3/3 then 4/3 costs "
        "him 7 HP, the brigand 3). Left: P(total = DC); right: HP paid by A. Exact."
    )
    table = bids.copy()
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
    title = _("Lutte serrée")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, table=table, table_height=0.28)
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
    a.legend(fontsize=7)
    pmf = example.hp_pmf("a")
    shown = pmf[pmf.index <= pmf.index[np.searchsorted(pmf.cumsum().to_numpy(), 0.999)]]
    b.bar(shown.index, shown.to_numpy())
    b.set(
        xlabel=_("HP paid by A"),
        ylabel=_("probability"),
        title=_("A bids 3, B uniform 0..5: A wins {p}").format(p=ctx.pct(example.p_win_a)),
    )
    b.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    return Page("15-lutte-serree", title, caption, fig, {"ties": ties, "bids": bids})


RULES_PAGES: list[Callable[[Context], Page]] = [reroll_page, initiative_page, close_contest_page]
