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
from explodice.present.report.kit import Context, Page, page_figure, pct

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
    caption = (
        "Exact. A reroll on failure without advantage turns p into 1 - (1 - p)²; "
        "with advantage only the best die is rerolled. In 3d6x the roll thrown again "
        "drains again (right); Lucky (a 1 rerolled before the rule of 1) drains less. "
        "Table: 3d6x +4, no advantage."
    )
    normal = frame[frame.advantage == "normal"]
    table = normal[(normal.system == "3d6x") & (normal.modifier == 4)][
        ["trigger", "dc", "p", "p_reroll", "gain", "drain_added"]
    ].copy()
    for col in ("p", "p_reroll", "gain"):
        table[col] = table[col].map(pct)
    table["drain_added"] = table["drain_added"].map("{:+.2f}".format)
    fig, (a, b) = page_figure(
        ctx, "What is a reroll worth?", caption, ncols=2, table=table, table_height=0.26
    )
    for (system, trigger), part in normal.groupby(["system", "trigger"], sort=False):
        for m in _MODS:
            rows = part[part.modifier == m]
            style = "-" if system == "3d6x" else ":"
            a.plot(
                rows.dc,
                rows.gain,
                style,
                marker="o" if trigger == "failure" else "x",
                label=f"{system} {trigger} +{m}",
            )
    a.set(xlabel="DC", ylabel="P(success) gained", title="Gain in success (no advantage)")
    a.legend(fontsize=6, ncol=2)
    x3 = normal[normal.system == "3d6x"]
    for (trigger, m), rows in x3.groupby(["trigger", "modifier"]):
        b.plot(rows.dc, rows.drain_added, marker="o", label=f"{trigger} +{m}")
    b.axhline(0, color="0.5", lw=0.6)
    b.set(xlabel="DC", ylabel="E[drain] added per test", title="3d6x: drain added by the reroll")
    b.legend(fontsize=7)
    return Page("13-rerolls", "What is a reroll worth?", caption, fig, {"worth": frame})


def initiative_page(ctx: Context) -> Page:
    """Initiative: each creature's rank and P(the party acts first), both systems."""
    party = list(ctx.config.party)
    creatures: dict[str, object] = {c.name: c for c in party}
    creatures |= {"Orc": 1, "Wolf": 2}
    sides = {"party": [c.name for c in party], "monsters": ["Orc", "Wolf"]} if party else None
    if not party:
        creatures |= {"Hero": 2}
        sides = {"party": ["Hero"], "monsters": ["Orc", "Wolf"]}
    results = {
        s: initiative(creatures, sides=sides, system=s, rules=ctx.rules) for s in ("3d6x", "d20")
    }
    ranks = pd.concat([r.ranks.assign(system=s) for s, r in results.items()], ignore_index=True)
    side_rows = pd.concat([r.sides.assign(system=s) for s, r in results.items()], ignore_index=True)
    ranks["method"] = side_rows["method"] = "exact"
    first = side_rows[side_rows["first"] == "party"].set_index("system").p
    caption = (
        "A DEX ability check (outside the rule of 1); ties go to the higher DEX "
        "modifier, then a coin. Exact P(rank) against an orc (DEX +1) and a wolf (+2). "
        f"The party acts entirely first with P = {pct(first['3d6x'])} in 3d6x, "
        f"{pct(first['d20'])} in d20."
    )
    table = side_rows.assign(p=side_rows.p.map(pct))[["system", "first", "second", "p"]]
    fig, axes = page_figure(ctx, "Initiative", caption, ncols=2, table=table, table_height=0.16)
    names = list(creatures)
    n = len(names)
    for ax, (system, r) in zip(axes, results.items()):
        wide = r.ranks.pivot(index="creature", columns="rank", values="p").reindex(names)
        bottom = np.zeros(n)
        for rank in wide.columns:
            ax.bar(names, wide[rank], bottom=bottom, label=f"rank {rank}")
            bottom += wide[rank].to_numpy()
        ax.set(title=f"{system}: P(rank)", ylabel="probability", ylim=(0, 1))
        ax.legend(fontsize=6)
    return Page("14-initiative", "Initiative", caption, fig, {"ranks": ranks, "sides": side_rows})


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
    models = {"fixed 3": 3, "uniform 0-5": "uniform:5", "uniform 0-10": "uniform:10"}
    contests = []
    for name_a, bids_a in models.items():
        for name_b, bids_b in models.items():
            if name_a == name_b == "fixed 3":
                continue
            c = close_contest(bids_a, bids_b)
            contests.append({"bids_a": name_a, "bids_b": name_b, **c.summary()})
    bids = pd.DataFrame(contests)
    example = close_contest(3, "uniform:5")
    caption = (
        "Optional (seed 001): a tie goes to secret bids of HP; the higher bid wins and "
        "pays, equal bids are paid by both and bid again (Aleksandr: 3/3 then 4/3 costs "
        "him 7 HP, the brigand 3). Left: P(total = DC); right: HP paid by A. Exact."
    )
    table = bids.copy()
    for col in ("p_win_a", "p_win_b"):
        table[col] = table[col].map(pct)
    for col in ("hp_a_mean", "hp_b_mean", "rounds_mean"):
        table[col] = table[col].map("{:.2f}".format)
    fig, (a, b) = page_figure(ctx, "Lutte serrée", caption, ncols=2, table=table, table_height=0.28)
    for (system, m), part in ties.groupby(["system", "modifier"], sort=False):
        a.plot(
            part.dc,
            part.p_tie,
            "-" if system == "3d6x" else ":",
            marker="o",
            label=f"{system} +{m}",
        )
    a.set(xlabel="DC", ylabel="P(total = DC)", title="How often a test ties its DC")
    a.legend(fontsize=7)
    pmf = example.hp_pmf("a")
    shown = pmf[pmf.index <= pmf.index[np.searchsorted(pmf.cumsum().to_numpy(), 0.999)]]
    b.bar(shown.index, shown.to_numpy())
    b.set(
        xlabel="HP paid by A",
        ylabel="probability",
        title=f"A bids 3, B uniform 0..5: A wins {pct(example.p_win_a)}",
    )
    return Page("15-lutte-serree", "Lutte serrée", caption, fig, {"ties": ties, "bids": bids})


RULES_PAGES: list[Callable[[Context], Page]] = [reroll_page, initiative_page, close_contest_page]
