"""The designer's report: one multi-page PDF, one PNG per figure and one CSV per table.

:func:`write_report` builds every page from a configuration (the embedded default,
``explodice/data/default.toml``, or a copy a designer edited) and writes the files whole or
not at all: everything goes to a temporary folder beside the target first, and the files
already there are only replaced once the whole new report is complete.

>>> from explodice.report import load_config
>>> load_config().seed
2026
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import shutil
import tempfile
import textwrap
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from .rules import ExplodiceError, Roll, Rules, check_int
from .tomlfile import parse_toml, read_text

__all__ = [
    "ConfigError",
    "Page",
    "ReportConfig",
    "PAGES",
    "default_config_text",
    "load_config",
    "write_default_config",
    "build_pages",
    "write_report",
]

PDF_NAME = "explodice-report.pdf"
MANIFEST = "MANIFEST.txt"
PAGE_SIZE = (11.69, 8.27)  # A4 landscape, inches
PNG_DPI = 110
_CONFIG_KEYS = ("title", "seed", "rules", "table", "simulation", "character", "day")


class ConfigError(ExplodiceError):
    """A report configuration file is unreadable, not TOML, or holds a value not allowed."""


# -- configuration --------------------------------------------------------------------------
@dataclass(frozen=True)
class ReportConfig:
    """What a report shows: rules switches, seed, table rows, sample sizes, party and day."""

    title: str = "explodice — the designer's report"
    seed: int = 2026
    rules: Rules = field(default_factory=Rules)
    modifiers: tuple[int, ...] = (-1, 0, 2, 4, 6, 8, 10)
    profiles: Mapping[str, int] = field(default_factory=lambda: {"untrained": 0, "trained": 4,
                                                                 "expert": 8})
    n: int = 200_000
    days: int = 2_000
    party: tuple[Any, ...] = ()
    day: Any = None  # a Scenario
    source: str = "embedded default"


def default_config_text() -> str:
    """The text of the embedded default configuration (a TOML file a designer can copy)."""
    return resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")


def write_default_config(path: str | os.PathLike[str]) -> Path:
    """Write a copy of the default configuration to ``path`` (refusing to overwrite a file)."""
    path = Path(path)
    if path.exists():
        raise ConfigError(f"{path}: already exists; choose another name or remove it first.")
    _atomic_write_text(path, default_config_text())
    return path


def load_config(path: str | os.PathLike[str] | None = None) -> ReportConfig:
    """Read a report configuration; ``None`` reads the embedded default.

    Errors name the file, the key and what is allowed (a :class:`ConfigError`, or the
    character module's error for a bad ``[[character]]`` table).
    """
    if path is None:
        text, source = default_config_text(), "embedded default"
    else:
        source = str(path)
        text = read_text(path, error=ConfigError)
    return _config_from_data(parse_toml(text, source=source, error=ConfigError), source)


def _config_from_data(data: dict[str, Any], source: str) -> ReportConfig:
    def fail(key: str, value: Any, allowed: str) -> ConfigError:
        return ConfigError(f"{source}: `{key}` must be {allowed}, but {value!r} was passed.")

    unknown = [k for k in data if k not in _CONFIG_KEYS]
    if unknown:
        raise fail(unknown[0], data[unknown[0]], f"absent: it is not a known key {_CONFIG_KEYS}")

    def section(name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise fail(name, value, "a table")
        extra = [k for k in value if k not in keys]
        if extra:
            raise fail(f"{name}.{extra[0]}", value[extra[0]], f"one of the keys {list(keys)}")
        return value

    def integer(key: str, value: Any, lo: int, hi: int) -> int:
        try:
            return check_int(key, value, lo=lo, hi=hi)
        except ExplodiceError as err:
            raise ConfigError(f"{source}: {err}") from None

    defaults = ReportConfig()
    title = data.get("title", defaults.title)
    if not isinstance(title, str):
        raise fail("title", title, "a string")
    seed = integer("seed", data.get("seed", defaults.seed), 0, 2**63 - 1)

    rules_table = section("rules", ("disadvantage", "rule_of_one_kinds", "ones_on_explosions",
                                    "overflow", "lucky"))
    try:
        rules = Rules(**rules_table)
    except ExplodiceError as err:
        raise ConfigError(f"{source}: [rules] {err}") from None

    table = section("table", ("modifiers", "profiles"))
    mods = table.get("modifiers", list(defaults.modifiers))
    if not isinstance(mods, list) or not mods:
        raise fail("table.modifiers", mods, "a non-empty list of integers")
    modifiers = tuple(integer("table.modifiers", m, -20, 30) for m in mods)
    profiles = table.get("profiles", dict(defaults.profiles))
    if not isinstance(profiles, dict) or not profiles:
        raise fail("table.profiles", profiles, "a table of names to modifiers")
    profiles = {str(k): integer(f"table.profiles.{k}", v, -20, 30) for k, v in profiles.items()}

    sim = section("simulation", ("n", "days"))
    n = integer("simulation.n", sim.get("n", defaults.n), 1_000, 10**9)
    days = integer("simulation.days", sim.get("days", defaults.days), 10, 10**7)

    from .character import characters_from_tables
    from .scenario import scenario_from_tables

    party = tuple(characters_from_tables(data.get("character"), source=source))
    day = scenario_from_tables({"day": data.get("day", {})}, characters=party, source=source,
                               default_name="a day")
    return ReportConfig(title=title, seed=seed, rules=rules, modifiers=modifiers,
                        profiles=profiles, n=n, days=days, party=party, day=day, source=source)


# -- pages ----------------------------------------------------------------------------------
@dataclass
class Page:
    """One report page: a figure, the tidy tables behind it, and a sentence on what it shows.

    ``slug`` names its PNG (``<slug>.png``) and CSVs (``<slug>-<table>.csv``).
    """

    slug: str
    title: str
    caption: str
    figure: Any
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


@dataclass
class _Context:
    config: ReportConfig
    version: str
    date: str
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.config.rules

    def footer(self) -> str:
        c = self.config
        return (f"explodice {self.version} · {self.date} · config: {c.source} · seed {c.seed} · "
                f"{c.rules.describe()}")


def _page_figure(ctx: _Context, title: str, caption: str, *, nrows: int = 1, ncols: int = 1,
                 table: pd.DataFrame | None = None, table_height: float = 0.22,
                 width_ratios: Sequence[float] | None = None,
                 **grid: Any) -> tuple[Any, list[Any]]:
    """A landscape page: title, caption sentence, a grid of Axes, an optional table, a footer."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.04, 0.965, title, fontsize=15, weight="bold", va="top")
    fig.text(0.04, 0.925, textwrap.fill(caption, 170), fontsize=9, va="top", color="0.15")
    fig.text(0.04, 0.012, ctx.footer(), fontsize=6.5, color="0.4", va="bottom")
    bottom = 0.08 + (table_height if table is not None else 0.0)
    layout = {"left": 0.07, "right": 0.96, "top": 0.80, "bottom": bottom, "wspace": 0.3,
              "hspace": 0.55} | grid
    spec = fig.add_gridspec(nrows, ncols, width_ratios=width_ratios, **layout)
    axes = [fig.add_subplot(spec[i, j]) for i in range(nrows) for j in range(ncols)]
    if table is not None:
        _draw_table(fig, table, (0.07, 0.045, 0.89, table_height - 0.01))
    return fig, axes


def _draw_table(fig: Any, table: pd.DataFrame, rect: tuple[float, float, float, float]) -> None:
    """Draw a (small, already formatted) DataFrame as a table in ``rect`` of the figure."""
    ax = fig.add_axes(rect)
    ax.axis("off")
    cells = [[str(v) for v in row] for row in table.itertuples(index=False)]
    t = ax.table(cellText=cells, colLabels=[str(c) for c in table.columns], loc="center",
                 cellLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(7 if len(table.columns) <= 12 else 6)
    t.auto_set_column_width(list(range(len(table.columns))))
    t.scale(1, 1.1)
    for (r, _), cell in t.get_celld().items():
        cell.set_linewidth(0.3)
        if r == 0:
            cell.set_facecolor("0.9")


def _pct(x: Any, digits: int = 1) -> str:
    return "—" if pd.isna(x) else f"{100 * float(x):.{digits}f} %"


def title_page(ctx: _Context) -> Page:
    """Date, version, rules switches, seed, sample sizes, the party and the contents."""
    from matplotlib.figure import Figure

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
        f"    lucky = {c.rules.lucky}",
        "",
        "Exact numbers come from the exact engine (every cut of the infinite explosion leaves out",
        "less than 1e-12); simulated numbers state n and seed and carry 95 % Wilson intervals.",
    ]
    fig.text(0.06, 0.80, "\n".join(lines), fontsize=10.5, va="top", family="monospace")
    contents = [f"{i + 2:>2}. {(p.__doc__ or p.__name__).splitlines()[0].rstrip('.')}"
                for i, p in enumerate(PAGES[1:])]
    fig.text(0.06, 0.44, "Contents\n" + "\n".join(contents), fontsize=9, va="top")
    tables: dict[str, pd.DataFrame] = {}
    if c.party:
        party = _party_frame(c.party)
        tables["party"] = party
        shown = party[["name", "level", "actor", "policy", "STR", "DEX", "CON", "INT", "WIS",
                       "CHA", "PA", "PM", "PF", "PH"]]
        _draw_table(fig, shown, (0.52, 0.08, 0.44, 0.04 + 0.035 * len(shown)))
        fig.text(0.52, 0.10 + 0.04 + 0.035 * len(shown), "The party (scores and gauge maxima)",
                 fontsize=10, weight="bold")
    fig.text(0.06, 0.02, ctx.footer(), fontsize=6.5, color="0.4")
    return Page("01-title", c.title, "Title page: date, version, rules switches and seed.",
                fig, tables)


def _party_frame(party: Sequence[Any]) -> pd.DataFrame:
    from .character import ABILITIES

    rows = []
    for ch in party:
        row: dict[str, Any] = {"name": ch.name, "level": ch.level, "actor": ch.actor,
                               "policy": str(ch.policy), "proficiency_bonus": ch.proficiency_bonus}
        row |= {a: ch.scores[a] for a in ABILITIES}
        row |= ch.gauges()
        rows.append(row)
    return pd.DataFrame(rows)


def distribution_page(ctx: _Context) -> Page:
    """The total's distribution: 3d6x against d20, "at least" curves and the tail."""
    from . import plots
    from .d20 import d20
    from .exact import exact

    rules = ctx.rules
    mod = 4
    dists = {
        f"3d6x+{mod}": exact(Roll(mod), rules),
        f"3d6x+{mod}, advantage": exact(Roll(mod, advantage="advantage"), rules),
        f"3d6x+{mod}, disadvantage": exact(Roll(mod, advantage="disadvantage"), rules),
        f"d20+{mod}": d20(Roll(mod)),
    }
    caption = (f"For a modifier of +{mod}: the probability of each total, and of reaching at "
               "least k, for 3d6x (normal, advantage, disadvantage) and for the d20. 3d6x "
               "concentrates around its mean (12.6 + modifier) where the d20 is flat, and its "
               "explosions leave a long tail that the log scale shows: very high DCs stay "
               "possible.")
    fig, (a, b, c) = _page_figure(ctx, "The total: 3d6x against d20", caption, ncols=3)
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
    return Page("04-distribution", "The total: 3d6x against d20", caption, fig,
                {"pmf": pd.concat(frames, ignore_index=True)})


def rule_of_one_page(ctx: _Context) -> Page:
    """The rule of 1: the drain of one roll and the success/drain frontier of cancelling."""
    from . import plots
    from .drain import drain_frame, drain_summary
    from .exact import exact
    from .frontier import frontier

    rules = ctx.rules
    rolls = {"keep": Roll(4), "cancel": Roll(4, policy="cancel"),
             "advantage, keep": Roll(4, advantage="advantage")}
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
        rows.append({"case": case, "keep: P(success)": _pct(keep.p_success),
                     "keep: E[drain]": f"{keep.drain_mean:.2f}",
                     "cancel: P(success)": _pct(cancel.p_success),
                     "cancel: E[drain]": f"{cancel.drain_mean:.2f}",
                     "implied λ": f"{g.implied_lambda.iloc[0]:.3f}"})
    caption = ("Left: the gauge points one roll drains (each kept 1 drains an exploding d6), on a "
               "log scale, never cancelling, always cancelling, and with advantage (a 4th die, "
               "more 1s). Right: what cancelling a 1 against a 6 buys: each point is a policy "
               "from keep (top right) to cancel (bottom left); λ is the success a player gives "
               "up per point of drain saved. The table gives the ends and the implied λ of a "
               "sensible player (the frontier's average price, the star).")
    fig, (a, b) = _page_figure(ctx, "The rule of 1: drain and the cancel frontier", caption,
                               ncols=2, table=pd.DataFrame(rows), table_height=0.2)
    plots.plot_drain({label: exact(roll, rules) for label, roll in rolls.items()}, ax=a,
                     max_drain=40)
    plots.plot_frontier(front, ax=b, hue="case")
    return Page("06-rule-of-one", "The rule of 1: drain and the cancel frontier", caption, fig,
                {"drain": drains, "drain-summary": summary, "frontier": front})


def monte_carlo_page(ctx: _Context) -> Page:
    """The Monte Carlo engine checked against the exact one: bands and convergence."""
    from . import plots
    from .exact import exact
    from .simulate import simulate

    c = ctx.config
    roll, dc = Roll(4, advantage="advantage"), 22
    ex = exact(roll, ctx.rules)
    sim = simulate(roll, ctx.rules, n=c.n, seed=c.seed)
    ns = np.unique(np.geomspace(1_000, c.n, 8).astype(int))
    rows = []
    for n in ns:
        s = sim if n == c.n else simulate(roll, ctx.rules, n=int(n), seed=c.seed)
        lo, hi = s.ci(dc)
        rows.append({"n": int(n), "dc": dc, "p": s.p_success(dc), "ci_low": lo, "ci_high": hi,
                     "exact": ex.p_success(dc), "method": "simulate", "seed": c.seed})
    conv = pd.DataFrame(rows)
    bands = sim.success_frame(range(3, 61))
    bands["exact"] = ex.p_success(bands["dc"].to_numpy())
    bands["roll"] = roll.describe()
    caption = (f"The Monte Carlo engine against the exact one, for {roll.describe()}: left, "
               f"n = {c.n:,} simulated rolls with their 95 % Wilson band over the exact curve; "
               f"right, the estimate of P(total ≥ {dc}) as n grows (seed {c.seed}), converging "
               "on the exact value. Simulated numbers elsewhere in this report carry such "
               "intervals.")
    fig, (a, b) = _page_figure(ctx, "Monte Carlo against exact", caption, ncols=2)
    plots.plot_mc_bands(sim, exact=ex, ax=a, dcs=range(3, 51))
    plots.plot_convergence(conv, exact=ex.p_success(dc), ax=b,
                           title=f"Convergence of P(total ≥ {dc})")
    return Page("12-monte-carlo", "Monte Carlo against exact", caption, fig,
                {"bands": bands, "convergence": conv})


def dc_table_page(ctx: _Context) -> Page:
    """The DC table: P(success) for each modifier, DC and advantage state, both readings."""
    from . import plots
    from .tables import success_table

    c = ctx.config
    table = success_table(list(c.modifiers), rules=ctx.rules)
    table.attrs["rules"] = ctx.rules
    caption = ("P(success) on the typical DC table (very easy 8 to nearly impossible 35) for "
               "each modifier: normal, with advantage (a 4th die) and with disadvantage under "
               "both readings of the seed: subtract (3 dice minus an exploding malus die) and "
               "drop (2 dice). Exact. The two readings differ most on easy DCs.")
    fig, axes = _page_figure(ctx, "The DC table", caption, nrows=2, ncols=2, hspace=0.6)
    for ax, state in zip(axes, ("normal", "advantage", "disadvantage (subtract)",
                                "disadvantage (drop)")):
        part = table[table.advantage == state]
        plots.plot_heatmap(part, ax=ax, title=f"P(success), {state}")
    return Page("02-dc-table", "The DC table", caption, fig, {"success": table})


def success_curves_page(ctx: _Context) -> Page:
    """Success against DC for several modifiers, one line per advantage state."""
    from . import plots
    from .tables import success_table

    mods = _spread(ctx.config.modifiers, 3)
    table = success_table(mods, range(3, 41), rules=ctx.rules)
    caption = ("P(success) against the DC, for modifiers " + ", ".join(f"{m:+d}" for m in mods)
               + ": the line style gives the advantage state (solid advantage, dashed normal, "
               "dotted disadvantage). Left the subtract reading of disadvantage, right the drop "
               "reading. The shaded bands are the typical DC table; exact.")
    fig, (a, b) = _page_figure(ctx, "Success against DC", caption, ncols=2)
    for ax, reading in ((a, "subtract"), (b, "drop")):
        part = table[table.advantage.isin(["advantage", "normal", f"disadvantage ({reading})"])]
        part = part.assign(advantage=part.advantage.str.replace(f" ({reading})", ""))
        part.attrs["rules"] = dataclasses.replace(ctx.rules, disadvantage=reading)
        plots.plot_success_curves(part, ax=ax)
    return Page("03-success-curves", "Success against DC", caption, fig, {"success": table})


def _spread(values: Sequence[int], k: int) -> list[int]:
    """``k`` values spread across a sorted sequence (all of them if there are few)."""
    values = sorted(set(values))
    if len(values) <= k:
        return values
    idx = np.round(np.linspace(0, len(values) - 1, k)).astype(int)
    return [values[i] for i in idx]


def compare_page(ctx: _Context) -> Page:
    """The d20 comparison: equivalent DCs and the equivalent DC table."""
    from . import plots
    from .compare import equivalent_dc, equivalent_dc_table
    from .tables import success_table

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
    curves = pd.concat([success_table(list(profiles.values()), range(1, 41), system=system,
                                      advantages=["normal"], rules=ctx.rules)
                        for system in ("3d6x", "d20")], ignore_index=True)
    shown = (table.assign(cell=[f"{p3:.0%} (d20 {pd20:.0%})" for p3, pd20 in
                                zip(table.p_3d6x, table.p_d20)])
             .pivot(index=["difficulty", "d20_dc", "dc_3d6x"], columns="profile", values="cell")
             .reindex(columns=list(profiles)).reset_index())
    shown = shown.sort_values("d20_dc")
    shown.columns = ["difficulty", "d20 DC", f"3d6x DC ({reference})"] + [
        f"{p} {profiles[p]:+d}: 3d6x (d20)" for p in profiles]
    caption = ("For each profile's modifier, the 3d6x DC whose odds are closest to each d20 DC "
               "(left, the gap 3d6x - d20 beside each point), and the success curves of both "
               f"systems (right). The table maps the d20 DC table onto 3d6x for the {reference} "
               "profile and gives every profile's odds there, in 3d6x and (in brackets) d20.")
    fig, (a, b) = _page_figure(ctx, "3d6x against d20: equivalent DCs", caption, ncols=2,
                               table=shown, table_height=0.24)
    plots.plot_equivalent_dc(eq_frame, ax=a)
    plots.plot_success_curves(curves, ax=b, style="system", bands=None,
                              title="Success against DC (solid 3d6x, dashed d20)")
    return Page("05-d20-comparison", "3d6x against d20: equivalent DCs", caption, fig,
                {"equivalent-dc": eq_frame, "equivalent-dc-table": table, "curves": curves})


def day_page(ctx: _Context) -> Page:
    """The party's gauges over an adventuring day, simulated."""
    from . import plots
    from .day import simulate_day

    c = ctx.config
    _wait_for(ctx)
    result = simulate_day(c.day, ctx.rules, n_days=c.days, seed=c.seed)
    gauges = result.to_frame("gauges")
    empty = result.to_frame("empty")
    drained = gauges[gauges.caused_mean > 0][["character", "gauge"]]
    empty = empty.merge(drained, on=["character", "gauge"])
    success = result.to_frame("success")
    shown = gauges[gauges.caused_mean > 0].assign(
        **{"P(empty by end of day)": lambda f: f.p_empty.map(_pct),
           "first empty: mean roll": lambda f: f.first_empty_mean.map(
               lambda v: "—" if pd.isna(v) else f"{v:.1f}"),
           "drain per day": lambda f: f.caused_mean.map("{:.1f}".format),
           "points lost": lambda f: f.lost_mean.map("{:.2f}".format)})
    shown = shown[["character", "gauge", "start", "policy", "P(empty by end of day)",
                   "first empty: mean roll", "drain per day", "points lost"]]
    types = result.to_frame("roll_types")
    types["roll type"] = (types["type"].str.replace(" check", "").str.replace(": ", ":\n")
                          .str.replace(" DC", "\nDC"))
    caption = (f"{c.day.describe()}. {c.days:,} days simulated (seed {c.seed}). Left: the "
               "probability that each gauge the day drains is empty after roll t. Right: each "
               "roll type's success rate while its gauge is full and once it is empty (then at "
               "disadvantage). The table gives the gauges' fate at the end of the day.")
    fig, (a, b) = _page_figure(ctx, "The rule of 1 over a day: the party's gauges", caption,
                               ncols=2, table=shown, table_height=0.03 + 0.028 * (len(shown) + 1))
    plots.plot_depletion(empty, ax=a)
    plots.plot_bars(types, x="roll type", y="p", hue="state", ax=b, percent=True,
                    ylabel="P(success)", title="Success by roll type, gauge full or empty")
    b.tick_params(axis="x", labelsize=6)
    return Page("07-day", "The rule of 1 over a day", caption, fig,
                {"gauges": gauges, "empty": empty, "success": success, "roll-types": types})


def opposed_page(ctx: _Context) -> Page:
    """Opposed tests: win, tie (status quo) and loss by the difference of modifiers."""
    from . import plots
    from .resolutions import opposed

    rows = []
    for system in ("3d6x", "d20"):
        for diff in range(-4, 9):
            o = opposed(Roll(diff), Roll(0), system=system, rules=ctx.rules)
            rows.append({"system": system, "modifier_a": diff, "modifier_b": 0, "win": o.win,
                         "tie": o.tie, "loss": o.loss, "method": o.method})
    frame = pd.DataFrame(rows)
    caption = ("Both sides roll; the higher total wins and a tie keeps the status quo. Against "
               "an opponent at +0, by the roller's modifier: 3d6x (left) ties more often than "
               "d20 (right) and rewards a modifier edge more steeply, since its totals cluster. "
               "Exact.")
    fig, (a, b) = _page_figure(ctx, "Opposed tests", caption, ncols=2, wspace=0.35)
    for ax, system in ((a, "3d6x"), (b, "d20")):
        plots.plot_outcomes(frame[frame.system == system], x="modifier_a", ax=ax,
                            xlabel="modifier of A (B rolls at +0)",
                            title=f"Opposed test, {system}: A against B")
    return Page("08-opposed", "Opposed tests", caption, fig, {"opposed": frame})


def passive_page(ctx: _Context) -> Page:
    """Passive values against the roll they stand for: median, mean and the matching base."""
    from . import plots
    from .resolutions import passive_table

    frame = pd.concat([passive_table([0], system=system, rules=ctx.rules)
                       for system in ("3d6x", "d20")], ignore_index=True)
    frame["method"] = "exact"
    long = frame.melt(id_vars=["system", "advantage"], value_vars=["gap_median", "gap_mean"],
                      var_name="measure", value_name="points")
    long["series"] = long.system + ", " + long.measure.str.replace("gap_", "roll ")
    normal = frame[(frame.system == "3d6x") & (frame.advantage == "normal")].iloc[0]
    caption = ("A passive value is 10 + modifier, +5 with advantage, -5 with disadvantage. The "
               "bars show how far the active roll's median and mean sit above it (the same for "
               "every modifier), for each advantage state. In d20 the passive value sits at the "
               f"roll's median; 3d6x rolls higher (mean 12.6 + modifier), so a base of "
               f"{int(normal.base_for_median)} instead of 10 would match its median. Exact.")
    shown = frame[["system", "advantage", "passive", "median", "mean", "gap_median",
                   "base_for_median", "p_roll_at_least"]].copy()
    shown["mean"] = shown["mean"].map("{:.2f}".format)
    shown["p_roll_at_least"] = shown["p_roll_at_least"].map(_pct)
    shown.columns = ["system", "advantage (modifier +0)", "passive", "median", "mean",
                     "median - passive", "base matching the median", "P(roll ≥ passive)"]
    fig, (a,) = _page_figure(ctx, "Passive values", caption, table=shown,
                             table_height=0.03 + 0.028 * (len(shown) + 1))
    plots.plot_bars(long, x="advantage", y="points", hue="series", ax=a,
                    ylabel="points above the passive value", title="Active roll − passive value")
    return Page("09-passive", "Passive values", caption, fig, {"passive": frame})


def group_page(ctx: _Context) -> Page:
    """Group tests and working together, for the party."""
    from . import plots
    from .resolutions import group_success, working_together

    party = list(ctx.config.party)
    skill = "Stealth"
    rolls = [ch.roll(skill) for ch in party]
    rows = []
    for dc in range(4, 37):
        g = group_success(rolls, dc=dc, rules=ctx.rules)
        t = working_together(rolls, dc, rules=ctx.rules)
        rows.append({"dc": dc, "series": f"group (≥{g.need} of {len(rolls)})", "p": g.p})
        rows.append({"dc": dc, "series": f"working together ({party[t.leader].name} leads)",
                     "p": t.p})
        rows += [{"dc": dc, "series": f"{ch.name} alone ({r.modifier:+d})", "p": p}
                 for ch, r, p in zip(party, rolls, g.p_each)]
    frame = pd.DataFrame(rows)
    frame["skill"], frame["method"] = skill, "exact"
    caption = (f"A {skill} test for the whole party: the group succeeds when at least half of "
               "its members succeed; working together, the best member rolls with advantage "
               "for everyone. Each member's own odds for comparison; exact.")
    fig, (a,) = _page_figure(ctx, "Group tests and working together", caption)
    plots.plot_success_curves(frame.assign(advantage="normal"), ax=a, hue="series",
                              title=f"Success against DC: {skill}")
    return Page("10-group", "Group tests and working together", caption, fig, {"group": frame})


def haggle_page(ctx: _Context) -> Page:
    """Haggling: the price change for each modifier and item type of the seed's table."""
    from . import plots
    from .resolutions import haggle, haggle_table

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
    caption = ("Persuasion against the seller: 10 % of the price per point of margin, capped "
               "at 25 % either way. Left: the mean price change (in the buyer's favour) by "
               "modifier and item type (the seed's minimum DCs). Right: the distribution of "
               "the change at DC 16 for each modifier. Exact.")
    fig, (a, b) = _page_figure(ctx, "Haggling", caption, ncols=2, wspace=0.4, left=0.2,
                               bottom=0.14)
    heat = table.assign(item=table["item"] + " (DC " + table["dc"].astype(str) + ")")
    plots.plot_heatmap(heat, ax=a, row="item", col="modifier", value="mean", cmap="RdYlGn",
                       fmt="{:+.0f}%", title="Mean price change (%) by item type",
                       label="mean price change (%)")
    a.tick_params(axis="y", labelsize=7)
    wide = dist.pivot(index="modifier", columns="change_pct", values="p").fillna(0.0)
    frame = wide.reset_index()
    frame.columns = ["modifier"] + [f"{c:+d} %" for c in wide.columns]
    greens = [f"{c:+d} %" for c in wide.columns]
    colours = [_change_colour(c) for c in wide.columns]
    plots.plot_outcomes(frame.assign(method="exact"), x="modifier", parts=greens,
                        colours=colours, ax=b, xlabel="modifier (DC 16)",
                        title="Price change at DC 16")
    return Page("11-haggling", "Haggling", caption, fig, {"items": table, "dc16": dist})


def _change_colour(change: int) -> Any:
    from matplotlib import colormaps

    return colormaps["RdYlGn"](0.5 + change / 60)


#: The page builders, in report order; each takes the context and returns a :class:`Page`.
PAGES: list[Callable[[_Context], Page]] = [
    title_page,
    dc_table_page,
    success_curves_page,
    distribution_page,
    compare_page,
    rule_of_one_page,
    day_page,
    opposed_page,
    passive_page,
    group_page,
    haggle_page,
    monte_carlo_page,
]


def build_pages(config: ReportConfig | None = None, *, date: str | None = None
                ) -> Iterator[Page]:
    """Build the report's pages one at a time (a generator: each figure can be written and
    released before the next is drawn)."""
    from . import __version__

    config = load_config() if config is None else config
    ctx = _Context(config, __version__, date or _dt.date.today().isoformat())
    ctx.cache["warm-up"] = _start_day_warm_up()
    try:
        _warm_roll_kernel()  # compiles here while the day kernel compiles in the other process
        for builder in PAGES:
            yield builder(ctx)
    finally:
        _stop(ctx.cache.pop("warm-up", None))


# -- first-run compile time -----------------------------------------------------------------
# On a fresh checkout numba compiles the Monte Carlo and day kernels once (then caches them).
# The day kernel is the slower one: it compiles in a second process while this one compiles
# the roll kernel and draws the exact pages, so the two compilations overlap on two cores.
def _start_day_warm_up() -> Any:
    import multiprocessing

    if (os.cpu_count() or 1) < 2:
        return None
    try:
        proc = multiprocessing.get_context("spawn").Process(target=_warm_day_kernel, daemon=True)
        proc.start()
    except OSError:  # pragma: no cover - no processes allowed: compile in-line instead
        return None
    return proc


def _warm_day_kernel() -> None:
    """Run the day kernel once on a tiny scenario (compiling it, or loading it from cache).

    Only a warm-up: it ignores Ctrl-C (the parent stops it) and any failure (the parent then
    compiles the kernel itself).
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        from .character import Character
        from .day import simulate_day
        from .scenario import DayRoll, Scenario

        hero = Character("warm-up", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        simulate_day(Scenario([hero], [DayRoll("warm-up", ability="STR")]), n_days=1, seed=0,
                     threads=1)
    except Exception:  # noqa: BLE001 - a warm-up that fails costs only time
        pass


def _warm_roll_kernel() -> None:
    from .simulate import simulate

    simulate(Roll(0), n=1, seed=0, threads=1)


def _wait_for(ctx: _Context) -> None:
    """Wait until the warm-up process has the day kernel compiled and cached."""
    proc = ctx.cache.pop("warm-up", None)
    if proc is not None:
        proc.join(timeout=300)
        _stop(proc)


def _stop(proc: Any) -> None:
    if proc is not None and proc.is_alive():
        proc.terminate()
        proc.join(timeout=10)


# -- writing --------------------------------------------------------------------------------
def write_report(config: ReportConfig | str | os.PathLike[str] | None = None,
                 out: str | os.PathLike[str] = "reports", *, progress: bool = False,
                 date: str | None = None) -> list[Path]:
    """Write the report into ``out`` and return the paths written.

    The PDF, PNGs and CSVs are built in a temporary folder inside ``out``; only when every page
    is done do they replace the files of the previous report (and files the previous report
    listed in its manifest that the new one does not have are removed). If anything fails
    the previous report is left untouched and the temporary folder is removed.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_pdf import PdfPages

    if not isinstance(config, ReportConfig):
        config = load_config(config)
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".explodice-report-", dir=out))
    except OSError as err:
        raise OSError(f"cannot write the report into {out}: {err.strerror}") from None
    names: list[str] = [PDF_NAME]
    try:
        pages = build_pages(config, date=date)
        bar = _bar(len(PAGES), progress)
        meta = {"Title": config.title, "Creator": "explodice", "Subject": config.rules.describe()}
        with PdfPages(tmp / PDF_NAME, metadata=meta) as pdf:
            for page in pages:
                pdf.savefig(page.figure)
                png = f"{page.slug}.png"
                page.figure.savefig(tmp / png, dpi=PNG_DPI)
                names.append(png)
                for name, frame in page.tables.items():
                    csv = f"{page.slug}-{name}.csv"
                    frame.to_csv(tmp / csv, index=False)
                    names.append(csv)
                page.figure.clear()
                if bar is not None:
                    bar.update(1)
        if bar is not None:
            bar.close()
        (tmp / MANIFEST).write_text("\n".join(names) + "\n", encoding="utf-8")
        names.append(MANIFEST)
        previous = _read_manifest(out / MANIFEST)
        for name in names:
            os.replace(tmp / name, out / name)
        for stale in previous - set(names):
            (out / stale).unlink(missing_ok=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [out / n for n in names]


def _read_manifest(path: Path) -> set[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    return {n for n in lines if n and "/" not in n and not n.startswith(".")}


def _atomic_write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _bar(total: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="page", desc="report", leave=False)
