"""The report's pages, in order: each builder takes the :class:`Context` and returns a
:class:`Page` (figure, tidy tables, one sentence on what it shows)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from explodice.analysis.compare import equivalent_dc, equivalent_dc_table
from explodice.analysis.drain import drain_frame, drain_summary
from explodice.analysis.frontier import frontier
from explodice.analysis.resolutions import (
    group_success,
    haggle,
    haggle_table,
    opposed,
    passive_table,
    working_together,
)
from explodice.analysis.success import success_table
from explodice.core.version import __version__
from explodice.day.optimal import optimal_policy
from explodice.day.simulate import simulate_day
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.engine.simulate import simulate
from explodice.game.character import ABILITIES
from explodice.game.rules import Roll
from explodice.present import plots
from explodice.present.report.config import ReportConfig, load_config
from explodice.present.report.kit import PAGE_SIZE, Context, Page, draw_table, page_figure, pct
from explodice.present.report.rules_pages import RULES_PAGES
from explodice.present.report.warmup import start_day_warm_up, stop, wait_for, warm_roll_kernel

__all__ = ["PAGES", "build_pages"]


def title_page(ctx: Context) -> Page:
    """Date, version, rules switches, seed, sample sizes, the party and the contents."""
    c = ctx.config
    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.06, 0.88, c.title, fontsize=24, weight="bold")
    lines = [
        f"Date: {ctx.date}        explodice version {ctx.version}        configuration: {c.source}",
        f"Seed: {c.seed}        Monte Carlo checks: n = {c.n:,} rolls        "
        f"days simulated: {c.days:,}",
        "",
        "Rules switches (RULES.md):",
        f"    disadvantage = {c.rules.disadvantage!r}   (subtract: 3 dice minus an exploding malus "
        "die; drop: 2 dice)",
        f"    rule of 1 applies to: {', '.join(sorted(c.rules.rule_of_one_kinds)) or 'nothing'}",
        f"    ones_on_explosions = {c.rules.ones_on_explosions}    overflow = {c.rules.overflow!r}"
        f"    drain_gauge = {c.rules.drain_gauge!r}",
        "",
        "Exact numbers come from the exact engine (every cut of the infinite explosion leaves out",
        "less than 1e-12); simulated numbers state n and seed and carry 95 % Wilson intervals.",
    ]
    fig.text(0.06, 0.80, "\n".join(lines), fontsize=10.5, va="top", family="monospace")
    contents = [
        f"{i + 2:>2}. {(p.__doc__ or p.__name__).splitlines()[0].rstrip('.')}"
        for i, p in enumerate(PAGES[1:])
    ]
    fig.text(0.06, 0.44, "Contents\n" + "\n".join(contents), fontsize=9, va="top")
    tables: dict[str, pd.DataFrame] = {}
    if c.party:
        party = _party_frame(c.party)
        tables["party"] = party
        shown = party[
            [
                "name",
                "level",
                "actor",
                "policy",
                "STR",
                "DEX",
                "CON",
                "INT",
                "WIS",
                "CHA",
                "PA",
                "PM",
                "PF",
                "PH",
            ]
        ]
        draw_table(fig, shown, (0.52, 0.08, 0.44, 0.04 + 0.035 * len(shown)))
        fig.text(
            0.52,
            0.10 + 0.04 + 0.035 * len(shown),
            "The party (scores and gauge maxima)",
            fontsize=10,
            weight="bold",
        )
    fig.text(0.06, 0.02, ctx.footer(), fontsize=6.5, color="0.4")
    return Page(
        "01-title", c.title, "Title page: date, version, rules switches and seed.", fig, tables
    )


def _party_frame(party: Sequence[Any]) -> pd.DataFrame:
    rows = []
    for ch in party:
        row: dict[str, Any] = {
            "name": ch.name,
            "level": ch.level,
            "actor": ch.actor,
            "policy": str(ch.policy),
            "proficiency_bonus": ch.proficiency_bonus,
        }
        row |= {a: ch.scores[a] for a in ABILITIES}
        row |= ch.gauges()
        rows.append(row)
    return pd.DataFrame(rows)


def distribution_page(ctx: Context) -> Page:
    """The total's distribution: 3d6x against d20, "at least" curves and the tail."""
    rules = ctx.rules
    mod = 4
    dists = {
        f"3d6x+{mod}": exact(Roll(mod), rules),
        f"3d6x+{mod}, advantage": exact(Roll(mod, advantage="advantage"), rules),
        f"3d6x+{mod}, disadvantage": exact(Roll(mod, advantage="disadvantage"), rules),
        f"d20+{mod}": d20(Roll(mod)),
    }
    caption = (
        f"For a modifier of +{mod}: the probability of each total, and of reaching at "
        "least k, for 3d6x (normal, advantage, disadvantage) and for the d20. 3d6x "
        "concentrates around its mean (12.6 + modifier) where the d20 is flat, and its "
        "explosions leave a long tail that the log scale shows: very high DCs stay "
        "possible."
    )
    fig, (a, b, c) = page_figure(ctx, "The total: 3d6x against d20", caption, ncols=3)
    plots.plot_pmf(dists, ax=a, xlim=(0, 45))
    plots.plot_at_least(dists, ax=b, xlim=(0, 45))
    plots.plot_at_least(dists, ax=c, log=True, xlim=(0, 80))
    frames = []
    for label, d in dists.items():
        f = d.to_frame("total")
        f.insert(0, "roll", label)
        f["p_at_least"] = d.sf(f["total"].to_numpy())
        f["system"], f["method"] = d.system, d.method
        frames.append(f)
    return Page(
        "04-distribution",
        "The total: 3d6x against d20",
        caption,
        fig,
        {"pmf": pd.concat(frames, ignore_index=True)},
    )


def rule_of_one_page(ctx: Context) -> Page:
    """The rule of 1: the drain of one roll and the success/drain frontier of cancelling."""
    rules = ctx.rules
    rolls = {
        "keep": Roll(4),
        "cancel": Roll(4, policy="cancel"),
        "advantage, keep": Roll(4, advantage="advantage"),
    }
    drains = drain_frame(rolls, rules, upto=40)
    summary = drain_summary(rolls, rules)
    cases = [(2, 12), (4, 16), (6, 22), (4, 22)]
    fronts = []
    for mod, dc in cases:
        f = frontier(mod, dc, rules=rules)
        f.insert(0, "case", f"{mod:+d} vs DC {dc}")
        f["implied_lambda"] = f.attrs["implied_lambda"]
        fronts.append(f)
    front = pd.concat(fronts, ignore_index=True)
    rows = []
    for case, g in front.groupby("case", sort=False):
        keep, cancel = g[g.policy == "keep"].iloc[0], g[g.policy == "cancel"].iloc[0]
        rows.append(
            {
                "case": case,
                "keep: P(success)": pct(keep.p_success),
                "keep: E[drain]": f"{keep.drain_mean:.2f}",
                "cancel: P(success)": pct(cancel.p_success),
                "cancel: E[drain]": f"{cancel.drain_mean:.2f}",
                "implied λ": f"{g.implied_lambda.iloc[0]:.3f}",
            }
        )
    caption = (
        "Left: the gauge points one roll drains (each kept 1 drains an exploding d6), on a "
        "log scale, never cancelling, always cancelling, and with advantage (a 4th die, "
        "more 1s). Right: what cancelling a 1 against a 6 buys: each point is a policy "
        "from keep (top right) to cancel (bottom left); λ is the success a player gives "
        "up per point of drain saved. The table gives the ends and the implied λ of a "
        "sensible player (the frontier's average price, the star)."
    )
    fig, (a, b) = page_figure(
        ctx,
        "The rule of 1: drain and the cancel frontier",
        caption,
        ncols=2,
        table=pd.DataFrame(rows),
        table_height=0.2,
    )
    plots.plot_drain(
        {label: exact(roll, rules) for label, roll in rolls.items()}, ax=a, max_drain=40
    )
    plots.plot_frontier(front, ax=b, hue="case")
    return Page(
        "06-rule-of-one",
        "The rule of 1: drain and the cancel frontier",
        caption,
        fig,
        {"drain": drains, "drain-summary": summary, "frontier": front},
    )


def monte_carlo_page(ctx: Context) -> Page:
    """The Monte Carlo engine checked against the exact one: bands and convergence."""
    c = ctx.config
    roll, dc = Roll(4, advantage="advantage"), 22
    ex = exact(roll, ctx.rules)
    sim = simulate(roll, ctx.rules, n=c.n, seed=c.seed)
    ns = np.unique(np.geomspace(1_000, c.n, 8).astype(int))
    rows = []
    for n in ns:
        s = sim if n == c.n else simulate(roll, ctx.rules, n=int(n), seed=c.seed)
        lo, hi = s.ci(dc)
        rows.append(
            {
                "n": int(n),
                "dc": dc,
                "p": s.p_success(dc),
                "ci_low": lo,
                "ci_high": hi,
                "exact": ex.p_success(dc),
                "method": "simulate",
                "seed": c.seed,
            }
        )
    conv = pd.DataFrame(rows)
    bands = sim.success_frame(range(3, 61))
    bands["exact"] = ex.p_success(bands["dc"].to_numpy())
    bands["roll"] = roll.describe()
    caption = (
        f"The Monte Carlo engine against the exact one, for {roll.describe()}: left, "
        f"n = {c.n:,} simulated rolls with their 95 % Wilson band over the exact curve; "
        f"right, the estimate of P(total ≥ {dc}) as n grows (seed {c.seed}), converging "
        "on the exact value. Simulated numbers elsewhere in this report carry such "
        "intervals."
    )
    fig, (a, b) = page_figure(ctx, "Monte Carlo against exact", caption, ncols=2)
    plots.plot_mc_bands(sim, exact=ex, ax=a, dcs=range(3, 51))
    plots.plot_convergence(
        conv, exact=ex.p_success(dc), ax=b, title=f"Convergence of P(total ≥ {dc})"
    )
    return Page(
        "12-monte-carlo",
        "Monte Carlo against exact",
        caption,
        fig,
        {"bands": bands, "convergence": conv},
    )


def dc_table_page(ctx: Context) -> Page:
    """The DC table: P(success) for each modifier, DC and advantage state, both readings."""
    c = ctx.config
    table = success_table(list(c.modifiers), readings="both", rules=ctx.rules)
    table.attrs["rules"] = ctx.rules
    caption = (
        "P(success) on the typical DC table (very easy 8 to nearly impossible 35) for "
        "each modifier: normal, with advantage (a 4th die) and with disadvantage under "
        "both readings of the seed: subtract (3 dice minus an exploding malus die) and "
        "drop (2 dice). Exact. The two readings differ most on easy DCs."
    )
    fig, axes = page_figure(ctx, "The DC table", caption, nrows=2, ncols=2, hspace=0.6)
    for ax, state in zip(
        axes, ("normal", "advantage", "disadvantage (subtract)", "disadvantage (drop)")
    ):
        part = table[table.advantage == state]
        plots.plot_heatmap(part, ax=ax, title=f"P(success), {state}")
    return Page("02-dc-table", "The DC table", caption, fig, {"success": table})


def success_curves_page(ctx: Context) -> Page:
    """Success against DC for several modifiers, one line per advantage state."""
    mods = _spread(ctx.config.modifiers, 3)
    table = success_table(mods, range(3, 41), readings="both", rules=ctx.rules)
    caption = (
        "P(success) against the DC, for modifiers "
        + ", ".join(f"{m:+d}" for m in mods)
        + ": the line style gives the advantage state (solid advantage, dashed normal, "
        "dotted disadvantage). Left the subtract reading of disadvantage, right the drop "
        "reading. The shaded bands are the typical DC table; exact."
    )
    fig, (a, b) = page_figure(ctx, "Success against DC", caption, ncols=2)
    for ax, reading in ((a, "subtract"), (b, "drop")):
        part = table[table.advantage.isin(["advantage", "normal", f"disadvantage ({reading})"])]
        part = part.assign(advantage=part.advantage.str.replace(f" ({reading})", ""))
        plots.plot_success_curves(part, ax=ax)
    return Page("03-success-curves", "Success against DC", caption, fig, {"success": table})


def _spread(values: Sequence[int], k: int) -> list[int]:
    """``k`` values spread across a sorted sequence (all of them if there are few)."""
    values = sorted(set(values))
    if len(values) <= k:
        return values
    idx = np.round(np.linspace(0, len(values) - 1, k)).astype(int)
    return [values[i] for i in idx]


def compare_page(ctx: Context) -> Page:
    """The d20 comparison: equivalent DCs and the equivalent DC table."""
    c = ctx.config
    profiles = dict(c.profiles)
    reference = "trained" if "trained" in profiles else next(iter(profiles))
    eq = []
    for name, mod in profiles.items():
        f = equivalent_dc(Roll(mod), rules=ctx.rules)
        f.insert(0, "profile", name)
        f.insert(1, "modifier", mod)
        eq.append(f)
    eq_frame = pd.concat(eq, ignore_index=True)
    eq_frame["method"] = "exact"
    table = equivalent_dc_table(profiles, reference=reference, rules=ctx.rules)
    curves = pd.concat(
        [
            success_table(
                list(profiles.values()),
                range(1, 41),
                system=system,
                advantages=["normal"],
                rules=ctx.rules,
            )
            for system in ("3d6x", "d20")
        ],
        ignore_index=True,
    )
    shown = (
        table.assign(
            cell=[f"{p3:.0%} (d20 {pd20:.0%})" for p3, pd20 in zip(table.p_3d6x, table.p_d20)]
        )
        .pivot(index=["difficulty", "d20_dc", "dc_3d6x"], columns="profile", values="cell")
        .reindex(columns=list(profiles))
        .reset_index()
    )
    shown = shown.sort_values("d20_dc")
    shown.columns = ["difficulty", "d20 DC", f"3d6x DC ({reference})"] + [
        f"{p} {profiles[p]:+d}: 3d6x (d20)" for p in profiles
    ]
    caption = (
        "For each profile's modifier, the 3d6x DC whose odds are closest to each d20 DC "
        "(left, the gap 3d6x - d20 beside each point), and the success curves of both "
        f"systems (right). The table maps the d20 DC table onto 3d6x for the {reference} "
        "profile and gives every profile's odds there, in 3d6x and (in brackets) d20."
    )
    fig, (a, b) = page_figure(
        ctx, "3d6x against d20: equivalent DCs", caption, ncols=2, table=shown, table_height=0.24
    )
    plots.plot_equivalent_dc(eq_frame, ax=a)
    plots.plot_success_curves(
        curves,
        ax=b,
        style="system",
        bands=None,
        title="Success against DC (solid 3d6x, dashed d20)",
    )
    return Page(
        "05-d20-comparison",
        "3d6x against d20: equivalent DCs",
        caption,
        fig,
        {"equivalent-dc": eq_frame, "equivalent-dc-table": table, "curves": curves},
    )


def day_page(ctx: Context) -> Page:
    """The party's gauges over an adventuring day, simulated."""
    c = ctx.config
    wait_for(ctx)
    result = simulate_day(c.day, ctx.rules, n_days=c.days, seed=c.seed)
    gauges = result.to_frame("gauges")
    empty = result.to_frame("empty")
    drained = gauges[gauges.caused_mean > 0][["character", "gauge"]]
    empty = empty.merge(drained, on=["character", "gauge"])
    success = result.to_frame("success")
    shown = gauges[gauges.caused_mean > 0].assign(
        **{
            "P(empty by end of day)": lambda f: f.p_empty.map(pct),
            "first empty: mean roll": lambda f: f.first_empty_mean.map(
                lambda v: "—" if pd.isna(v) else f"{v:.1f}"
            ),
            "drain per day": lambda f: f.caused_mean.map("{:.1f}".format),
            "points lost": lambda f: f.lost_mean.map("{:.2f}".format),
        }
    )
    shown = shown[
        [
            "character",
            "gauge",
            "start",
            "policy",
            "P(empty by end of day)",
            "first empty: mean roll",
            "drain per day",
            "points lost",
        ]
    ]
    if shown.empty:  # an all-NPC party, or the rule of 1 on none of the day's kinds
        shown = pd.DataFrame({"gauges": ["no roll of the day drains a gauge under these rules"]})
    types = result.to_frame("roll_types")
    types["roll type"] = (
        types["type"].str.replace(" check", "").str.replace(": ", ":\n").str.replace(" DC", "\nDC")
    )
    caption = (
        f"{c.day.describe()}. {c.days:,} days simulated (seed {c.seed}). Left: the "
        "probability that each gauge the day drains is empty after roll t. Right: each "
        "roll type's success rate while its gauge is full and once it is empty (then at "
        "disadvantage). The table gives the gauges' fate at the end of the day."
    )
    fig, (a, b) = page_figure(
        ctx,
        "The rule of 1 over a day: the party's gauges",
        caption,
        ncols=2,
        table=shown,
        table_height=0.03 + 0.028 * (len(shown) + 1),
    )
    plots.plot_depletion(empty, ax=a)
    plots.plot_bars(
        types,
        x="roll type",
        y="p",
        hue="state",
        ax=b,
        percent=True,
        ylabel="P(success)",
        title="Success by roll type, gauge full or empty",
    )
    b.tick_params(axis="x", labelsize=6)
    return Page(
        "07-day",
        "The rule of 1 over a day",
        caption,
        fig,
        {"gauges": gauges, "empty": empty, "success": success, "roll-types": types},
    )


def opposed_page(ctx: Context) -> Page:
    """Opposed tests: win, tie (status quo) and loss by the difference of modifiers."""
    rows = []
    for system in ("3d6x", "d20"):
        for diff in range(-4, 9):
            o = opposed(Roll(diff), Roll(0), system=system, rules=ctx.rules)
            rows.append(
                {
                    "system": system,
                    "modifier_a": diff,
                    "modifier_b": 0,
                    "win": o.win,
                    "tie": o.tie,
                    "loss": o.loss,
                    "method": o.method,
                }
            )
    frame = pd.DataFrame(rows)
    caption = (
        "Both sides roll; the higher total wins and a tie keeps the status quo. Against "
        "an opponent at +0, by the roller's modifier: 3d6x (left) ties more often than "
        "d20 (right) and rewards a modifier edge more steeply, since its totals cluster. "
        "Exact."
    )
    fig, (a, b) = page_figure(ctx, "Opposed tests", caption, ncols=2, wspace=0.35)
    for ax, system in ((a, "3d6x"), (b, "d20")):
        plots.plot_outcomes(
            frame[frame.system == system],
            x="modifier_a",
            ax=ax,
            xlabel="modifier of A (B rolls at +0)",
            title=f"Opposed test, {system}: A against B",
        )
    return Page("08-opposed", "Opposed tests", caption, fig, {"opposed": frame})


def passive_page(ctx: Context) -> Page:
    """Passive values against the roll they stand for: median, mean and the matching base."""
    frame = pd.concat(
        [passive_table([0], system=system, rules=ctx.rules) for system in ("3d6x", "d20")],
        ignore_index=True,
    )
    frame["method"] = "exact"
    long = frame.melt(
        id_vars=["system", "advantage"],
        value_vars=["gap_median", "gap_mean"],
        var_name="measure",
        value_name="points",
    )
    long["series"] = long.system + ", " + long.measure.str.replace("gap_", "roll ")
    normal = frame[(frame.system == "3d6x") & (frame.advantage == "normal")].iloc[0]
    caption = (
        "A passive value is 10 + modifier, +5 with advantage, -5 with disadvantage. The "
        "bars show how far the active roll's median and mean sit above it (the same for "
        "every modifier), for each advantage state. In d20 the passive value sits at the "
        f"roll's median; 3d6x rolls higher (mean 12.6 + modifier), so a base of "
        f"{int(normal.base_for_median)} instead of 10 would match its median. Exact."
    )
    shown = frame[
        [
            "system",
            "advantage",
            "passive",
            "median",
            "mean",
            "gap_median",
            "base_for_median",
            "p_roll_at_least",
        ]
    ].copy()
    shown["mean"] = shown["mean"].map("{:.2f}".format)
    shown["p_roll_at_least"] = shown["p_roll_at_least"].map(pct)
    shown.columns = [
        "system",
        "advantage (modifier +0)",
        "passive",
        "median",
        "mean",
        "median - passive",
        "base matching the median",
        "P(roll ≥ passive)",
    ]
    fig, (a,) = page_figure(
        ctx, "Passive values", caption, table=shown, table_height=0.03 + 0.028 * (len(shown) + 1)
    )
    plots.plot_bars(
        long,
        x="advantage",
        y="points",
        hue="series",
        ax=a,
        ylabel="points above the passive value",
        title="Active roll − passive value",
    )
    return Page("09-passive", "Passive values", caption, fig, {"passive": frame})


def group_page(ctx: Context) -> Page:
    """Group tests and working together, for the party."""
    party = list(ctx.config.party)
    skill = "Stealth"
    rolls = [ch.roll(skill) for ch in party]
    rows = []
    for dc in range(4, 37):
        g = group_success(rolls, dc=dc, rules=ctx.rules)
        t = working_together(rolls, dc, rules=ctx.rules)
        rows.append({"dc": dc, "series": f"group (≥{g.need} of {len(rolls)})", "p": g.p})
        rows.append(
            {"dc": dc, "series": f"working together ({party[t.leader].name} leads)", "p": t.p}
        )
        rows += [
            {"dc": dc, "series": f"{ch.name} alone ({r.modifier:+d})", "p": p}
            for ch, r, p in zip(party, rolls, g.p_each)
        ]
    frame = pd.DataFrame(rows)
    frame["skill"], frame["method"] = skill, "exact"
    caption = (
        f"A {skill} test for the whole party: the group succeeds when at least half of "
        "its members succeed; working together, the best member rolls with advantage "
        "for everyone. Each member's own odds for comparison; exact."
    )
    fig, (a,) = page_figure(ctx, "Group tests and working together", caption)
    plots.plot_success_curves(
        frame.assign(advantage="normal"), ax=a, hue="series", title=f"Success against DC: {skill}"
    )
    return Page("10-group", "Group tests and working together", caption, fig, {"group": frame})


def haggle_page(ctx: Context) -> Page:
    """Haggling: the price change for each modifier and item type of the seed's table."""
    mods = list(ctx.config.modifiers)
    table = haggle_table(mods, rules=ctx.rules)
    table["method"] = "exact"
    rows = []
    for m in mods:
        h = haggle(Roll(m), dc=16, rules=ctx.rules)
        for change, p in h.pmf.items():
            rows.append({"modifier": m, "dc": 16, "change_pct": int(change), "p": float(p)})
    dist = pd.DataFrame(rows)
    dist["method"] = "exact"
    caption = (
        "Persuasion against the seller: 10 % of the price per point of margin, capped "
        "at 25 % either way. Left: the mean price change (in the buyer's favour) by "
        "modifier and item type (the seed's minimum DCs). Right: the distribution of "
        "the change at DC 16 for each modifier. Exact."
    )
    fig, (a, b) = page_figure(ctx, "Haggling", caption, ncols=2, wspace=0.4, left=0.2, bottom=0.14)
    heat = table.assign(item=table["item"] + " (DC " + table["dc"].astype(str) + ")")
    plots.plot_heatmap(
        heat,
        ax=a,
        row="item",
        col="modifier",
        value="mean",
        cmap="RdYlGn",
        fmt="{:+.0f}%",
        title="Mean price change (%) by item type",
        label="mean price change (%)",
    )
    a.tick_params(axis="y", labelsize=7)
    wide = dist.pivot(index="modifier", columns="change_pct", values="p").fillna(0.0)
    frame = wide.reset_index()
    frame.columns = ["modifier"] + [f"{c:+d} %" for c in wide.columns]
    greens = [f"{c:+d} %" for c in wide.columns]
    colours = [_change_colour(c) for c in wide.columns]
    plots.plot_outcomes(
        frame.assign(method="exact"),
        x="modifier",
        parts=greens,
        colours=colours,
        ax=b,
        xlabel="modifier (DC 16)",
        title="Price change at DC 16",
    )
    return Page("11-haggling", "Haggling", caption, fig, {"items": table, "dc16": dist})


REPORT_LAMBDAS = (0.0, 0.02, 0.05, 0.1, 0.2)  # the fixed λ the day-policies page tries


def day_policies_page(ctx: Context) -> Page:
    """The party's day under four policies, exactly: keep, cancel, the best fixed λ and the
    optimal state-dependent player."""
    c = ctx.config
    best = optimal_policy(c.day, ctx.rules)
    table = best.compare(lambdas=REPORT_LAMBDAS)
    order = ["keep", "cancel", "best fixed λ", "optimal"]
    table["policy"] = pd.Categorical(table["policy"], order, ordered=True)
    table = table.sort_values(["character", "policy"]).reset_index(drop=True)
    table["policy"] = table["policy"].astype(str)
    shown = table.assign(
        **{
            "expected successes": table.successes.map("{:.3f}".format),
            "optimal gain": table.optimal_gain.map(lambda v: f"{max(v, 0.0):+.3f}"),  # 0 - 3e-15
            "λ": table.detail.str.replace("best(λ=", "", regex=False).str.rstrip(")"),
        }
    )
    shown = shown[["character", "policy", "λ", "expected successes", "optimal gain"]]
    if shown.empty:  # an all-NPC party: nobody has a choice to make
        shown = pd.DataFrame({"policies": ["no player character rolls in this day"]})
    thresholds = best.to_frame("thresholds")
    caption = (
        f"{c.day.describe()}; exact (no sampling). Each PC's expected successes over "
        "the day under keep, cancel, the best fixed weight λ (of "
        f"{', '.join(f'{x:g}' for x in REPORT_LAMBDAS)}, played all day) and the "
        "optimal player, who chooses k after seeing the throw, knowing the roll's place "
        "in the day and every gauge level (backward dynamic programming). "
        "The gain is what playing well adds to each fixed policy."
    )
    fig, (a, b) = page_figure(
        ctx,
        "The rule of 1 over a day: four policies",
        caption,
        ncols=2,
        table=shown,
        table_height=0.03 + 0.022 * (len(shown) + 1),
    )
    if table.empty:
        for ax in (a, b):
            ax.axis("off")
            ax.text(
                0.5,
                0.5,
                "no player character rolls in this day",
                ha="center",
                transform=ax.transAxes,
            )
    else:
        plots.plot_bars(
            table.assign(expected=table.successes),
            x="character",
            y="expected",
            hue="policy",
            ax=a,
            ylabel="expected successes per day",
            title="Expected successes over the day, by policy",
        )
        gain = table[table.policy != "optimal"]
        plots.plot_bars(
            gain,
            x="character",
            y="optimal_gain",
            hue="policy",
            ax=b,
            ylabel="optimal minus policy (successes per day)",
            title="What the optimal player gains over each fixed policy",
        )
    return Page(
        "07b-day-policies",
        "The rule of 1 over a day: four policies",
        caption,
        fig,
        {"policies": table, "optimal-thresholds": thresholds},
    )


def _change_colour(change: int) -> Any:
    return colormaps["RdYlGn"](0.5 + change / 60)


#: The page builders, in report order; each takes the context and returns a :class:`Page`.
PAGES: list[Callable[[Context], Page]] = [
    title_page,
    dc_table_page,
    success_curves_page,
    distribution_page,
    compare_page,
    rule_of_one_page,
    day_page,
    day_policies_page,
    opposed_page,
    passive_page,
    group_page,
    haggle_page,
    monte_carlo_page,
    *RULES_PAGES,  # rerolls, initiative, lutte serrée (present/report/rules_pages.py)
]


def build_pages(config: ReportConfig | None = None, *, date: str | None = None) -> Iterator[Page]:
    """Build the report's pages one at a time (a generator: each figure can be written and
    released before the next is drawn)."""
    config = load_config() if config is None else config
    ctx = Context(config, __version__, date or _dt.date.today().isoformat())
    ctx.cache["warm-up"] = start_day_warm_up()
    try:
        warm_roll_kernel()  # compiles here while the day kernel compiles in the other process
        for builder in PAGES:
            yield builder(ctx)
    finally:
        stop(ctx.cache.pop("warm-up", None))
