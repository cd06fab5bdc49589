"""The report's pages, in order: each builder takes the :class:`Context` and returns a
:class:`Page` (figure, tidy tables, one sentence on what it shows)."""

from __future__ import annotations

import datetime as _dt
import textwrap
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
from explodice.day.exact import optimal_unsupported
from explodice.day.optimal import optimal_policy
from explodice.day.simulate import simulate_day
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.engine.simulate import simulate
from explodice.game.character import ABILITIES
from explodice.game.rules import Best, Roll
from explodice.game.tables import (
    DC_TABLES,
    DIFFICULTIES,
    HAGGLE_BASE_DC,
    HAGGLE_CAP_PCT,
    HAGGLE_DCS_FR,
    HAGGLE_STEP_PCT,
)
from explodice.present import i18n, plots
from explodice.present.explorer import roll_type_label, test_label
from explodice.present.labels import ABILITY, DRAIN_GAUGE, N_, OVERFLOW
from explodice.present.report.config import ReportConfig, load_config
from explodice.present.report.kit import PAGE_SIZE, Context, Page, draw_table, page_figure
from explodice.present.report.rules_pages import RULES_PAGES
from explodice.present.report.warmup import start_day_warm_up, stop, wait_for, warm_roll_kernel

__all__ = ["PAGES", "build_pages"]


def title_page(ctx: Context) -> Page:
    """Date, version, rules switches, seed, sample sizes, the party and the contents."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.06, 0.88, c.title, fontsize=24, weight="bold")
    yes_no = {True: _("yes"), False: _("no")}
    kinds = ", ".join(_(k) for k in sorted(c.rules.rule_of_one_kinds)) or _("nothing")
    lines = [
        _("Date: {date}").format(date=ctx.day()),
        _("explodice version {version}; configuration: {source}").format(
            version=ctx.version, source=_(c.source)
        ),
        _("Seed: {seed}").format(seed=c.seed),
        _("Monte Carlo checks: n = {n} rolls; days simulated: {days}").format(
            n=i18n.number(c.n, lang, 0), days=i18n.number(c.days, lang, 0)
        ),
        "",
        _("Rules switches (RULES.md):"),
        "    "
        + _(
            "disadvantage: {reading} (subtract: 3 dice minus an exploding malus die; drop: 2 dice)"
        ).format(reading=_(c.rules.disadvantage)),
        "    " + _("rule of 1 applies to: {kinds}").format(kinds=kinds),
        "    "
        + _("a 1 on an explosion die drains too: {ones}").format(
            ones=yes_no[bool(c.rules.ones_on_explosions)]
        ),
        "    " + _("excess drain: {overflow}").format(overflow=_(OVERFLOW[c.rules.overflow])),
        "    "
        + _("gauge a drain hits: {gauge}").format(gauge=_(DRAIN_GAUGE[c.rules.drain_gauge])),
        "",
        _(
            "Exact numbers come from the exact engine (every cut of the infinite explosion leaves "
            "out less than 1e-12); simulated numbers state n and seed and carry 95 % Wilson "
            "intervals."
        ),
    ]
    lines = [
        w
        for line in lines
        for w in (textwrap.wrap(line, 78, subsequent_indent="    ", break_on_hyphens=False) or [""])
    ]
    fig.text(0.06, 0.80, "\n".join(lines), fontsize=9.5, va="top", linespacing=1.4)
    contents = [
        w
        for i, p in enumerate(PAGES[1:])
        for w in textwrap.wrap(
            f"{i + 2:>2}. {_(_contents_line(p))}", 80, subsequent_indent="      "
        )
    ]
    fig.text(0.55, 0.80, _("Contents"), fontsize=11, weight="bold", va="top")
    fig.text(0.55, 0.765, "\n".join(contents), fontsize=8.5, va="top", linespacing=1.4)
    tables: dict[str, pd.DataFrame] = {}
    bands = pd.DataFrame(
        [
            [_("3d6x DC")] + [DC_TABLES["3d6x"][d] for d in DIFFICULTIES],
            [_("d20 DC")] + [DC_TABLES["d20"][d] for d in DIFFICULTIES],
        ],
        columns=[_("difficulty")] + [_(d) for d in DIFFICULTIES],
    )
    fig.text(0.06, 0.375, _("The typical DC table"), fontsize=10, weight="bold")
    draw_table(fig, bands, (0.06, 0.27, 0.42, 0.095), loc="upper left")
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
        ].copy()
        shown["policy"] = [policy_label(ch.policy, lang) for ch in c.party]
        shown["actor"] = shown["actor"].map(_)
        shown.columns = [_(n) for n in ("name", "level", "actor", "policy")] + [
            ABILITY[lang].get(a, a) for a in shown.columns[4:]
        ]
        height = 0.035 * (len(shown) + 1)
        fig.text(
            0.06,
            0.10 + height + 0.015,
            _("The party (scores and gauge maxima)"),
            fontsize=10,
            weight="bold",
        )
        draw_table(fig, shown, (0.06, 0.10, 0.42, height), loc="upper left")
    fig.text(0.06, 0.02, ctx.footer(), fontsize=6.5, color="0.4")
    return Page(
        "01-title", c.title, _("Title page: date, version, rules switches and seed."), fig, tables
    )


def policy_label(policy: Any, lang: str) -> str:
    """A rule-of-1 policy as the report names it: ``keep``, ``cancel``, ``best(DC 16, λ=0.05)``
    (``meilleur(DD 16, λ=0,05)`` in French)."""
    _ = i18n.translator(lang)
    if isinstance(policy, Best):
        return _("best(DC {dc}, λ={weight})").format(
            dc=policy.dc, weight=i18n.number(policy.weight, lang, None)
        )
    return _(str(policy))


def _contents_line(builder: Callable[[Context], Page]) -> str:
    """A page's line in the contents: the first sentence of its builder's docstring."""
    first = (builder.__doc__ or builder.__name__).split("\n\n")[0]
    return " ".join(first.split()).rstrip(".")


#: The contents lines (the builders' docstrings), for the catalogue.
CONTENTS = (
    N_("The DC table: P(success) for each modifier, DC and advantage state, both readings"),
    N_("Success against DC for several modifiers, one line per advantage state"),
    N_('The total\'s distribution: 3d6x against d20, "at least" curves and the tail'),
    N_("The d20 comparison: equivalent DCs and the equivalent DC table"),
    N_("The rule of 1: the drain of one roll and the success/drain frontier of cancelling"),
    N_("The party's gauges over an adventuring day, simulated"),
    N_(
        "The party's day under four policies, exactly: keep, cancel, the best fixed λ and the "
        "optimal state-dependent player"
    ),
    N_("Opposed tests: win, tie (status quo) and loss by the difference of modifiers"),
    N_("Passive values against the roll they stand for: median, mean and the matching base"),
    N_("Group tests and working together, for the party"),
    N_("Haggling: the price change for each modifier and item type of the seed's table"),
    N_("The Monte Carlo engine checked against the exact one: bands and convergence"),
    N_("Rerolls: what a reroll on failure and the Lucky trait are worth, in success and drain"),
    N_("Initiative: each creature's rank and P(the party acts first), both systems"),
    N_("Lutte serrée: how often a test ties its DC, and what the bids cost each side"),
)
#: Column names and cell values the pages show, for the catalogue.
LABELS = (
    N_("name"),
    N_("level"),
    N_("actor"),
    N_("pc"),
    N_("item"),
    N_("best fixed λ"),
    N_("optimal"),
    N_("expected"),
    N_("optimal_gain"),
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
    rules, _, lang = ctx.rules, ctx._, ctx.lang
    mod = 4
    dists = {
        f"3d6x+{mod}": exact(Roll(mod), rules),
        f"3d6x+{mod}, {_('advantage')}": exact(Roll(mod, advantage="advantage"), rules),
        f"3d6x+{mod}, {_('disadvantage')}": exact(Roll(mod, advantage="disadvantage"), rules),
        f"d20+{mod}": d20(Roll(mod)),
    }
    caption = _(
        "For a modifier of +{mod}: the probability of each total, and of reaching at "
        "least k, for 3d6x (normal, advantage, disadvantage) and for the d20. 3d6x "
        "concentrates around its mean ({mean} + modifier) where the d20 is flat, and its "
        "explosions leave a long tail that the log scale shows: very high DCs stay "
        "possible."
    ).format(mod=mod, mean=i18n.number(dists[f"3d6x+{mod}"].mean - mod, lang, 1))
    title = _("The total: 3d6x against d20")
    fig, (a, b, c) = page_figure(ctx, title, caption, ncols=3)
    plots.plot_pmf(dists, ax=a, xlim=(0, 45), lang=lang)
    plots.plot_at_least(dists, ax=b, xlim=(0, 45), lang=lang)
    plots.plot_at_least(dists, ax=c, log=True, xlim=(0, 80), lang=lang)
    frames = []
    for label, d in dists.items():
        f = d.to_frame("total")
        f.insert(0, "roll", label)
        f["p_at_least"] = d.sf(f["total"].to_numpy())
        f["system"], f["method"] = d.system, d.method
        frames.append(f)
    return Page(
        "04-distribution", title, caption, fig, {"pmf": pd.concat(frames, ignore_index=True)}
    )


def rule_of_one_page(ctx: Context) -> Page:
    """The rule of 1: the drain of one roll and the success/drain frontier of cancelling."""
    rules, _, lang = ctx.rules, ctx._, ctx.lang
    rolls = {
        "keep": Roll(4),
        "cancel": Roll(4, policy="cancel"),
        "advantage, keep": Roll(4, advantage="advantage"),
    }
    N_("advantage, keep")
    drains = drain_frame(rolls, rules, upto=40)
    summary = drain_summary(rolls, rules)
    cases = [(2, 12), (4, 16), (6, 22), (4, 22)]
    fronts = []
    for mod, dc in cases:
        f = frontier(mod, dc, rules=rules)
        f.insert(0, "case", _("{mod} vs DC {dc}").format(mod=f"{mod:+d}", dc=dc))
        f["implied_lambda"] = f.attrs["implied_lambda"]
        fronts.append(f)
    front = pd.concat(fronts, ignore_index=True)
    front.attrs["rules"] = rules
    rows = []
    for case, g in front.groupby("case", sort=False):
        keep, cancel = g[g.policy == "keep"].iloc[0], g[g.policy == "cancel"].iloc[0]
        rows.append(
            {
                _("case"): case,
                _("keep: P(success)"): ctx.pct(keep.p_success),
                _("keep: E[drain]"): ctx.num(keep.drain_mean, 2),
                _("cancel: P(success)"): ctx.pct(cancel.p_success),
                _("cancel: E[drain]"): ctx.num(cancel.drain_mean, 2),
                _("implied λ"): ctx.num(g.implied_lambda.iloc[0], 3),
            }
        )
    caption = _(
        "Left: the gauge points one roll drains (each kept 1 drains an exploding d6), on "
        "a log scale, never cancelling, always cancelling, and with advantage (a 4th die, "
        "more 1s). Right: what cancelling a 1 against a 6 buys: each point is a policy "
        "from keep (top right) to cancel (bottom left); λ is the success a player gives "
        "up per point of drain saved. The table gives the ends and the implied λ of a "
        "sensible player (the frontier's average price, the star)."
    )
    title = _("The rule of 1: drain and the cancel frontier")
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=pd.DataFrame(rows), table_height=0.2
    )
    plots.plot_drain(
        {_(label): exact(roll, rules) for label, roll in rolls.items()},
        ax=a,
        max_drain=40,
        lang=lang,
    )
    plots.plot_frontier(front, ax=b, hue="case", lang=lang)
    return Page(
        "06-rule-of-one",
        title,
        caption,
        fig,
        {"drain": drains, "drain-summary": summary, "frontier": front},
    )


def monte_carlo_page(ctx: Context) -> Page:
    """The Monte Carlo engine checked against the exact one: bands and convergence."""
    c, _, lang = ctx.config, ctx._, ctx.lang
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
    described = _("3d6x+4 with advantage")
    caption = _(
        "The Monte Carlo engine against the exact one, for {roll}: left, n = {n} "
        "simulated rolls with their 95 % Wilson band over the exact curve; right, the "
        "estimate of P(total ≥ {dc}) as n grows (seed {seed}), converging on the exact "
        "value. Simulated numbers elsewhere in this report carry such intervals."
    ).format(roll=described, n=i18n.number(c.n, lang, 0), dc=dc, seed=c.seed)
    title = _("Monte Carlo against exact")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2)
    plots.plot_mc_bands(sim, exact=ex, ax=a, dcs=range(3, 51), lang=lang)
    plots.plot_convergence(
        conv,
        exact=ex.p_success(dc),
        ax=b,
        lang=lang,
        title=_("Convergence of P(total ≥ {dc})").format(dc=dc),
    )
    return Page("12-monte-carlo", title, caption, fig, {"bands": bands, "convergence": conv})


def dc_table_page(ctx: Context) -> Page:
    """The DC table: P(success) for each modifier, DC and advantage state, both readings."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    table = success_table(list(c.modifiers), readings="both", rules=ctx.rules)
    table.attrs["rules"] = ctx.rules
    caption = _(
        "P(success) on the typical DC table (very easy {lo} to nearly impossible {hi}) for "
        "each modifier: normal, with advantage (a 4th die) and with disadvantage under "
        "both readings of the seed: subtract (3 dice minus an exploding malus die) and "
        "drop (2 dice). Exact. The two readings differ most on easy DCs."
    ).format(lo=min(DC_TABLES["3d6x"].values()), hi=max(DC_TABLES["3d6x"].values()))
    title = _("The DC table")
    fig, axes = page_figure(ctx, title, caption, nrows=2, ncols=2, hspace=0.6)
    for ax, state in zip(
        axes, ("normal", "advantage", "disadvantage (subtract)", "disadvantage (drop)")
    ):
        part = table[table.advantage == state]
        plots.plot_heatmap(
            part, ax=ax, lang=lang, title=_("P(success), {state}").format(state=_(state))
        )
    return Page("02-dc-table", title, caption, fig, {"success": table})


def success_curves_page(ctx: Context) -> Page:
    """Success against DC for several modifiers, one line per advantage state."""
    _, lang = ctx._, ctx.lang
    mods = _spread(ctx.config.modifiers, 3)
    table = success_table(mods, range(3, 41), readings="both", rules=ctx.rules)
    caption = _(
        "P(success) against the DC, for modifiers {mods}: the line style gives the "
        "advantage state (solid advantage, dashed normal, dotted disadvantage). Left the "
        "subtract reading of disadvantage, right the drop reading. The shaded bands are "
        "the typical DC table; exact."
    ).format(mods=", ".join(f"{m:+d}" for m in mods))
    title = _("Success against DC")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2)
    for ax, reading in ((a, "subtract"), (b, "drop")):
        part = table[table.advantage.isin(["advantage", "normal", f"disadvantage ({reading})"])]
        part = part.assign(advantage=part.advantage.str.replace(f" ({reading})", ""))
        plots.plot_success_curves(part, ax=ax, lang=lang)
    return Page("03-success-curves", title, caption, fig, {"success": table})


def _spread(values: Sequence[int], k: int) -> list[int]:
    """``k`` values spread across a sorted sequence (all of them if there are few)."""
    values = sorted(set(values))
    if len(values) <= k:
        return values
    idx = np.round(np.linspace(0, len(values) - 1, k)).astype(int)
    return [values[i] for i in idx]


def compare_page(ctx: Context) -> Page:
    """The d20 comparison: equivalent DCs and the equivalent DC table."""
    c, _, lang = ctx.config, ctx._, ctx.lang
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
            cell=[
                f"{plots.share(p3, lang)} (d20 {plots.share(pd20, lang)})"
                for p3, pd20 in zip(table.p_3d6x, table.p_d20)
            ]
        )
        .pivot(index=["difficulty", "d20_dc", "dc_3d6x"], columns="profile", values="cell")
        .reindex(columns=list(profiles))
        .reset_index()
    )
    shown = shown.sort_values("d20_dc")
    shown["difficulty"] = shown["difficulty"].map(_)
    shown.columns = [
        _("difficulty"),
        _("d20 DC"),
        _("3d6x DC ({profile})").format(profile=reference),
    ] + [
        _("{profile} {modifier}: 3d6x (d20)").format(profile=p, modifier=f"{profiles[p]:+d}")
        for p in profiles
    ]
    caption = _(
        "For each profile's modifier, the 3d6x DC whose odds are closest to each d20 DC "
        "(left, the gap 3d6x - d20 beside each point), and the success curves of both "
        "systems (right). The table maps the d20 DC table onto 3d6x for the {reference} "
        "profile and gives every profile's odds there, in 3d6x and (in brackets) d20."
    ).format(reference=reference)
    title = _("3d6x against d20: equivalent DCs")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, table=shown, table_height=0.24)
    plots.plot_equivalent_dc(eq_frame, ax=a, lang=lang)
    plots.plot_success_curves(
        curves,
        ax=b,
        style="system",
        bands=None,
        lang=lang,
        title=_("Success against DC (solid 3d6x, dashed d20)"),
    )
    return Page(
        "05-d20-comparison",
        title,
        caption,
        fig,
        {"equivalent-dc": eq_frame, "equivalent-dc-table": table, "curves": curves},
    )


def day_page(ctx: Context) -> Page:
    """The party's gauges over an adventuring day, simulated."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    wait_for(ctx)
    result = simulate_day(c.day, ctx.rules, n_days=c.days, seed=c.seed)
    gauges = result.to_frame("gauges")
    empty = result.to_frame("empty")
    drained = gauges[gauges.caused_mean > 0][["character", "gauge"]]
    empty = empty.merge(drained, on=["character", "gauge"])
    success = result.to_frame("success")
    policies = {str(ch.policy): policy_label(ch.policy, lang) for ch in c.day.characters}
    shown = gauges[gauges.caused_mean > 0].assign(
        **{
            "P(empty by end of day)": lambda f: f.p_empty.map(ctx.pct),
            "first empty: mean roll": lambda f: f.first_empty_mean.map(ctx.num),
            "drain per day": lambda f: f.caused_mean.map(ctx.num),
            "points lost": lambda f: f.lost_mean.map(lambda v: ctx.num(v, 2)),
            "policy": lambda f: f.policy.map(lambda v: policies.get(str(v), _(str(v)))),
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
    shown.columns = [
        _(n)
        for n in (
            "character",
            "gauge",
            "start",
            "policy",
            N_("P(empty by end of day)"),
            N_("first empty: mean roll"),
            "drain per day",
            N_("points lost"),
        )
    ]
    if shown.empty:  # an all-NPC party, or the rule of 1 on none of the day's kinds
        shown = pd.DataFrame(
            {_("gauges"): [_("no roll of the day drains a gauge under these rules")]}
        )
    types = result.to_frame("roll_types")
    labels = {r.label: roll_type_label(r, lang) for r in c.day.rolls}
    types["roll type"] = (
        types["type"]
        .map(lambda t: labels.get(t, t))
        .str.replace(" " + _("check"), "")
        .str.replace(": ", ":\n")
        .str.replace(" : ", " :\n")
        .str.replace(" " + _("DC") + " ", "\n" + _("DC") + " ")
    )
    types["state"] = types["state"].map(_)
    rolls = c.day.rolls_per_day if c.day.rolls_per_day is not None else c.day.n_rolls
    describe = _("{name}: {party}; {rolls} rolls a day.").format(
        name=_(c.day.name) if c.day.name else _("a day"),
        party=", ".join(ch.name for ch in c.day.characters),
        rolls=rolls,
    )
    caption = _(
        "{day} {days} days simulated (seed {seed}). Left: the probability that each "
        "gauge the day drains is empty after roll t. Right: each roll type's success "
        "rate while its gauge is full and once it is empty (then at disadvantage). The "
        "table gives the gauges' fate at the end of the day."
    ).format(day=describe, days=i18n.number(c.days, lang, 0), seed=c.seed)
    title = _("The rule of 1 over a day: the party's gauges")
    height = 0.03 + 0.028 * (len(shown) + 1)  # the roll types' names take three lines
    fig, (a, b) = page_figure(
        ctx, title, caption, ncols=2, table=shown, table_height=height, bottom=0.14 + height
    )
    empty.attrs["rules"] = types.attrs["rules"] = ctx.rules
    plots.plot_depletion(empty, ax=a, lang=lang)
    plots.plot_bars(
        types,
        x="roll type",
        y="p",
        hue="state",
        ax=b,
        percent=True,
        lang=lang,
        ylabel=_("P(success)"),
        title=_("Success by roll type, gauge full or empty"),
    )
    b.tick_params(axis="x", labelsize=6)
    return Page(
        "07-day",
        title,
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
    _, lang = ctx._, ctx.lang
    caption = _(
        "Both sides roll; the higher total wins and a tie keeps the status quo (a close "
        "contest under the optional rule). Against "
        "an opponent at +0, by the roller's modifier: 3d6x (left) ties more often than "
        "d20 (right) and rewards a modifier edge more steeply, since its totals cluster. "
        "Exact."
    )
    title = _("Opposed tests")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, wspace=0.35)
    for ax, system in ((a, "3d6x"), (b, "d20")):
        plots.plot_outcomes(
            frame[frame.system == system],
            x="modifier_a",
            ax=ax,
            lang=lang,
            xlabel=_("modifier of A (B rolls at +0)"),
            title=_("Opposed test, {system}: A against B").format(system=system),
        )
    return Page("08-opposed", title, caption, fig, {"opposed": frame})


def passive_page(ctx: Context) -> Page:
    """Passive values against the roll they stand for: median, mean and the matching base."""
    frame = pd.concat(
        [passive_table([0], system=system, rules=ctx.rules) for system in ("3d6x", "d20")],
        ignore_index=True,
    )
    frame["method"] = "exact"
    _, lang = ctx._, ctx.lang
    # one bar per system and advantage state (the d20 has one disadvantage: under both readings)
    states = ["normal", "advantage", "disadvantage (subtract)", "disadvantage (drop)"]
    rows = []
    for st in states:
        for _system, g in frame.groupby("system", sort=False):
            same = g[g.advantage == st]
            rows.append((same if len(same) else g[g.advantage == "disadvantage"]).assign(state=st))
    long = pd.concat(rows, ignore_index=True)
    long["state"] = long["state"].map(lambda st: _(st).replace(" (", "\n("))
    long["series"] = long["system"].map(lambda sy: _("{system} roll: median").format(system=sy))
    normal = frame[(frame.system == "3d6x") & (frame.advantage == "normal")].iloc[0]
    caption = _(
        "A passive value is 10 + modifier, +5 with advantage, -5 with disadvantage (the "
        "black marks). The bars are the active roll's median for each advantage state, "
        "at modifier +0 (every modifier shifts both alike): in d20 the median sits on "
        "the passive value (or 1 point above); 3d6x rolls higher (mean {mean} + "
        "modifier), so a base of {base} instead of 10 would match its median. The table "
        "adds the means and how often the roll reaches the passive value. Exact."
    ).format(mean=i18n.number(normal["mean"], lang, 1), base=int(normal.base_for_median))
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
    shown["advantage"] = shown["advantage"].map(_)
    shown["mean"] = shown["mean"].map(lambda v: ctx.num(v, 2))
    shown["p_roll_at_least"] = shown["p_roll_at_least"].map(ctx.pct)
    shown.columns = [
        _(n)
        for n in (
            "system",
            N_("advantage (modifier +0)"),
            N_("passive"),
            "median",
            "mean",
            N_("median - passive"),
            N_("base matching the median"),
            N_("P(roll ≥ passive)"),
        )
    ]
    title = _("Passive values")
    fig, (a,) = page_figure(
        ctx, title, caption, table=shown, table_height=0.03 + 0.028 * (len(shown) + 1)
    )
    plots.plot_bars(
        long,
        x="state",
        y="median",
        hue="series",
        ax=a,
        lang=lang,
        xlabel=_("advantage state (modifier +0)"),
        ylabel=_("total"),
        title=_("The active roll's median against the passive value"),
    )
    passive = long.drop_duplicates("state")["passive"].to_numpy()
    a.hlines(
        passive,
        np.arange(len(passive)) - 0.45,
        np.arange(len(passive)) + 0.45,
        color="black",
        lw=2.5,
        label=_("passive value"),
        zorder=3,
    )
    a.legend(fontsize="small", loc="upper right")
    return Page("09-passive", title, caption, fig, {"passive": frame})


def group_page(ctx: Context) -> Page:
    """Group tests and working together, for the party."""
    party = list(ctx.config.party)
    _, lang = ctx._, ctx.lang
    skill = "Stealth"
    shown_skill = test_label(skill, lang)
    rows = []
    for dc in range(4, 37):
        rolls = [ch.roll(skill, dc=dc) for ch in party]  # a reroll on failure needs the DC
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
    frame["skill"], frame["method"] = shown_skill, "exact"
    caption = _(
        "A {skill} test for the whole party: the group succeeds when at least half of "
        "its members succeed; working together, the best member rolls with advantage "
        "for everyone. Each member's own odds for comparison; exact."
    ).format(skill=shown_skill)
    title = _("Group tests and working together")
    fig, (a,) = page_figure(ctx, title, caption, right=0.74)
    plots.plot_success_curves(
        frame.assign(advantage="normal"),
        ax=a,
        hue="series",
        lang=lang,
        title=_("Success against DC: {skill}").format(skill=shown_skill),
    )
    a.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Page("10-group", title, caption, fig, {"group": frame})


def haggle_page(ctx: Context) -> Page:
    """Haggling: the price change for each modifier and item type of the seed's table."""
    mods = list(ctx.config.modifiers)
    table = haggle_table(mods, rules=ctx.rules)
    table["method"] = "exact"
    rows = []
    for m in mods:
        h = haggle(Roll(m), dc=HAGGLE_BASE_DC, rules=ctx.rules)
        for change, p in h.pmf.items():
            rows.append(
                {"modifier": m, "dc": HAGGLE_BASE_DC, "change_pct": int(change), "p": float(p)}
            )
    dist = pd.DataFrame(rows)
    dist["method"] = "exact"
    _, lang = ctx._, ctx.lang
    caption = _(
        "Persuasion against the seller (haggling): {step} % of the price per point of "
        "margin, capped at {cap} % either way. Left: the mean price change (in the buyer's "
        "favour) by modifier and item type (the seed's minimum DCs). Right: the "
        "distribution of the change at DC {dc} for each modifier. Exact."
    ).format(step=HAGGLE_STEP_PCT, cap=HAGGLE_CAP_PCT, dc=HAGGLE_BASE_DC)
    title = _("Haggling")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, wspace=0.4, left=0.2, bottom=0.14)
    items = [_item_label(i, lang) for i in table["item"]]
    heat = table.assign(
        item=[_("{item} (DC {dc})").format(item=i, dc=d) for i, d in zip(items, table["dc"])]
    )
    plots.plot_heatmap(
        heat,
        ax=a,
        row="item",
        col="modifier",
        value="mean",
        cmap="RdYlGn",
        fmt=lambda v: (
            ("+" if v >= 0 else "−")
            + i18n.number(abs(v), lang, 0)
            + ("%" if lang == "en" else "\xa0%")
        ),
        lang=lang,
        title=_("Mean price change (%) by item type"),
        label=_("mean price change (%)"),
    )
    a.tick_params(axis="y", labelsize=7)
    wide = dist.pivot(index="modifier", columns="change_pct", values="p").fillna(0.0)
    frame = wide.reset_index()
    greens = [("+" if c >= 0 else "−") + i18n.percent(abs(c) / 100, lang, 0) for c in wide.columns]
    frame.columns = ["modifier"] + greens
    colours = [_change_colour(c) for c in wide.columns]
    plots.plot_outcomes(
        frame.assign(method="exact"),
        x="modifier",
        parts=greens,
        lang=lang,
        colours=colours,
        ax=b,
        xlabel=_("modifier (DC {dc})").format(dc=HAGGLE_BASE_DC),
        title=_("Price change at DC {dc}").format(dc=HAGGLE_BASE_DC),
    )
    return Page("11-haggling", title, caption, fig, {"items": table, "dc16": dist})


def _item_label(item: str, lang: str) -> str:
    """An item type of the haggling table as the seed names it in ``lang``."""
    return HAGGLE_DCS_FR.get(item, item) if lang == "fr" else item


REPORT_LAMBDAS = (0.0, 0.02, 0.05, 0.1, 0.2)  # the fixed λ the day-policies page tries


def day_policies_page(ctx: Context) -> Page:
    """The party's day under four policies, exactly: keep, cancel, the best fixed λ and the
    optimal state-dependent player."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    reason = optimal_unsupported(c.day)
    if reason is not None:  # the optimal player cannot play this day: say why, draw nothing
        return _unsupported_page(ctx, reason)
    best = optimal_policy(c.day, ctx.rules)
    table = best.compare(lambdas=REPORT_LAMBDAS)
    order = ["keep", "cancel", "best fixed λ", "optimal"]
    table["policy"] = pd.Categorical(table["policy"], order, ordered=True)
    table = table.sort_values(["character", "policy"]).reset_index(drop=True)
    table["policy"] = table["policy"].astype(str)
    shown = table.assign(
        **{
            "expected successes": table.successes.map(lambda v: ctx.num(v, 3)),
            "optimal gain": table.optimal_gain.map(  # 0 - 3e-15 is shown as +0
                lambda v: "+" + ctx.num(max(v, 0.0), 3)
            ),
            "λ": table.detail.str.replace("best(λ=", "", regex=False)
            .str.rstrip(")")
            .map(lambda v: ctx.num(float(v), None) if v else ""),
            "policy": table.policy.map(_),
        }
    )
    shown = shown[["character", "policy", "λ", "expected successes", "optimal gain"]]
    shown.columns = [
        _(n) for n in ("character", "policy", "λ", N_("expected successes"), N_("optimal gain"))
    ]
    if shown.empty:  # an all-NPC party: nobody has a choice to make
        shown = pd.DataFrame({_("policies"): [_("no player character rolls in this day")]})
    thresholds = best.to_frame("thresholds")
    rolls = c.day.rolls_per_day if c.day.rolls_per_day is not None else c.day.n_rolls
    describe = _("{name}: {party}; {rolls} rolls a day.").format(
        name=_(c.day.name) if c.day.name else _("a day"),
        party=", ".join(ch.name for ch in c.day.characters),
        rolls=rolls,
    )
    caption = _(
        "{day} Exact (no sampling). Each PC's expected successes over the day under "
        "keep, cancel, the best fixed weight λ (of {lambdas}, played all day) and the "
        "optimal player, who chooses k after seeing the throw, knowing the roll's place "
        "in the day and every gauge level (backward dynamic programming). The gain is "
        "what playing well adds to each fixed policy."
    ).format(day=describe, lambdas=", ".join(i18n.number(x, lang, None) for x in REPORT_LAMBDAS))
    title = _("The rule of 1 over a day: four policies")
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
    else:
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
        )
        gain = named[table.policy != "optimal"]
        plots.plot_bars(
            gain,
            x="character",
            y="optimal_gain",
            hue="policy",
            ax=b,
            lang=lang,
            ylabel=_("optimal minus policy (successes per day)"),
            title=_("What the optimal player gains over each fixed policy"),
        )
    return Page(
        "07b-day-policies",
        title,
        caption,
        fig,
        {"policies": table, "optimal-thresholds": thresholds},
    )


def _unsupported_page(ctx: Context, reason: str) -> Page:
    """The four-policies page for a day the optimal player cannot play (it says why)."""
    _ = ctx._
    title = _("The rule of 1 over a day: four policies")
    caption = _("The optimal player cannot play this day: {reason}").format(reason=reason)
    fig, (a,) = page_figure(ctx, title, caption)
    a.axis("off")
    return Page("07b-day-policies", title, caption, fig, {})


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
