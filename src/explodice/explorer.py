"""The designer's explorer: one HTML file to play with the numbers, offline, in any browser.

:func:`write_explorer` computes every number of a report configuration when the file is
written (the exact engine for single rolls and equivalent DCs; the day engine, seeded from the
configuration, for the party's day) and hands them to Vega-Lite charts built with Altair. The
page is self-contained: Vega, Vega-Lite and vega-embed are inlined (from ``vl-convert-python``'s
bundle), the data sit in the specifications, and nothing is fetched when it opens. The controls
(Vega-Lite parameters bound to inputs) only filter and redraw precomputed tables.

>>> from explodice.explorer import explorer_data
>>> data = explorer_data(day=False)
>>> row = data.roll.query("system == '3d6x' and cls == 'check/pc' and state == 'normal' "
...                       "and policy == 'keep' and need == 8")
>>> round(float(row.p.iloc[0]) * 216, 9)   # P(3d6x >= 8) = 181/216
181.0
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import html
import json
import os
from decimal import ROUND_HALF_UP, Decimal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .rules import ADVANTAGE_STATES, Best, ExplodiceError, Policy, Roll, Rules

__all__ = [
    "EXPLORER_NAME",
    "LAMBDAS",
    "ExplorerData",
    "explorer_charts",
    "explorer_data",
    "explorer_html",
    "fixed",
    "shown_percent",
    "write_explorer",
]

EXPLORER_NAME = "explorer.html"
#: The weights λ of the best(λ) policies offered next to keep and cancel.
LAMBDAS = (0.0, 0.05, 0.2)
#: DCs drawn on the "at least" curves.
CURVE_DCS = range(1, 51)
#: The modifiers the slider offers (a character's tests may add others).
SLIDER = (-5, 15)
MODIFIER_CHOICE = "the modifier of the slider"
OWN_POLICIES = "each character's own"
_STATES = ("normal", "advantage", "disadvantage (subtract)", "disadvantage (drop)")
_LANGS = ("en",)


def policy_choices() -> dict[str, Policy]:
    """The rule-of-1 policies of the controls, by label; ``Best`` gets its DC per row.

    >>> list(policy_choices())
    ['keep', 'cancel', 'best(λ=0)', 'best(λ=0.05)', 'best(λ=0.2)']
    """
    out: dict[str, Policy] = {"keep": "keep", "cancel": "cancel"}
    out |= {f"best(λ={w:g})": Best(0, w) for w in LAMBDAS}
    return out


def shown_percent(p: float) -> str:
    """A probability as the explorer prints it: one decimal, never a false 0 % or 100 %.

    >>> shown_percent(0.49123), shown_percent(0.0002), shown_percent(0.0), shown_percent(0.99996)
    ('49.1%', '< 0.1%', '0.0%', '> 99.9%')
    """
    if 0 < p < 0.0005:
        return "< 0.1%"
    if 0.9995 <= p < 1:
        return "> 99.9%"
    return f"{fixed(100 * p, 1)}%"


def fixed(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals, rounded as the page's JavaScript rounds (``toFixed``:
    the exact binary value, ties away from zero), so Python and the page print alike.

    >>> fixed(1.25, 1), f"{1.25:.1f}", fixed(2.675, 2)
    ('1.3', '1.2', '2.67')
    """
    q = Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{q:.{digits}f}"


# The same rule in Vega's expression language, for the charts' labels.
def _vega_percent(field: str) -> str:
    d = f"datum.{field}"
    return (f"{d} > 0 && {d} < 0.0005 ? '< 0.1%' : {d} >= 0.9995 && {d} < 1 ? '> 99.9%' : "
            f"format({d}, '.1%')")


# -- the numbers ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ExplorerData:
    """Every number the explorer shows, as tidy tables (precomputed; the page only filters).

    - ``subjects``: who rolls: ``who`` (a label), ``mod3`` and ``mod20`` (the modifier in each
      system), ``cls`` (``kind/actor``, which sets the rule of 1);
    - ``roll``: P(success) and the expected drain of one roll against ``need`` = DC - modifier,
      per ``system``, ``cls``, advantage ``state`` and ``policy`` (d20 rows: policy ``"-"``);
    - ``dcs``: the typical DC tables of both systems;
    - ``equivalent``: for each profile, the 3d6x DC closest in odds to each d20 DC;
    - ``day_empty``, ``day_types``, ``day_gauges``: the party's day per policy (simulated);
    - ``meta``: title, version, date, seed, rules and method notes.
    """

    subjects: pd.DataFrame
    roll: pd.DataFrame
    dcs: pd.DataFrame
    equivalent: pd.DataFrame
    day_empty: pd.DataFrame
    day_types: pd.DataFrame
    day_gauges: pd.DataFrame
    meta: dict[str, Any]


def _subjects(party: Sequence[Any]) -> pd.DataFrame:
    """A modifier (the slider), then each character's saves and proficient skills."""
    from .character import ABILITIES

    rows = [{"who": MODIFIER_CHOICE, "mod3": 0, "mod20": 0, "cls": "check/pc"}]
    for c in party:
        tests: list[tuple[str, Roll, Roll]] = []
        for skill, prof in c.skills.items():
            if prof:
                tests.append((skill, c.roll(skill), c.roll(skill, system="d20")))
        for a in ABILITIES:
            tests.append((f"save {a}", c.roll(ability=a, kind="save"),
                          c.roll(ability=a, kind="save", system="d20")))
        for label, r3, r20 in tests:
            mods = f"{r3.modifier:+d}" + ("" if r20.modifier == r3.modifier
                                           else f"; d20 {r20.modifier:+d}")
            rows.append({"who": f"{c.name}: {label} ({mods})", "mod3": r3.modifier,
                         "mod20": r20.modifier, "cls": f"{r3.kind}/{r3.actor}"})
    return pd.DataFrame(rows)


def _state_rules(state: str, rules: Rules) -> tuple[str, Rules]:
    if state.startswith("disadvantage"):
        reading = state.split("(")[1].rstrip(")")
        return "disadvantage", dataclasses.replace(rules, disadvantage=reading)
    return state, rules


def _roll_table(subjects: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """P(success) and E[drain] against need = DC - modifier, for every choice of the controls."""
    from .d20 import d20
    from .exact import exact

    lo = min(CURVE_DCS) - max(SLIDER[1], int(subjects.mod3.max()), int(subjects.mod20.max()))
    hi = max(CURVE_DCS) - min(SLIDER[0], int(subjects.mod3.min()), int(subjects.mod20.min()))
    needs = np.arange(lo, hi + 1)
    frames = []
    for cls in subjects.cls.unique():
        kind, actor = cls.split("/")
        for state in _STATES:
            adv, state_rules = _state_rules(state, rules)
            dist20 = d20(Roll(0, advantage=adv, kind=kind, actor=actor))
            frames.append(pd.DataFrame({"system": "d20", "cls": cls, "state": state,
                                        "policy": "-", "need": needs,
                                        "p": dist20.p_success(needs), "drain": 0.0}))
            for label, policy in policy_choices().items():
                if isinstance(policy, Best):
                    p, drain = np.empty(needs.size), np.empty(needs.size)
                    for i, need in enumerate(needs):
                        d = exact(Roll(0, advantage=adv, kind=kind, actor=actor,
                                       policy=Best(int(need), policy.weight)), state_rules)
                        p[i], drain[i] = d.p_success(int(need)), d.drain_mean
                else:
                    d = exact(Roll(0, advantage=adv, kind=kind, actor=actor, policy=policy),
                              state_rules)
                    p, drain = d.p_success(needs), np.full(needs.size, d.drain_mean)
                frames.append(pd.DataFrame({"system": "3d6x", "cls": cls, "state": state,
                                            "policy": label, "need": needs, "p": p,
                                            "drain": drain}))
    out = pd.concat(frames, ignore_index=True)
    return out


def _dc_frame() -> pd.DataFrame:
    from .tables import DC_TABLES

    rows = [{"system": system, "order": i, "difficulty": name, "dc": dc}
            for system, table in DC_TABLES.items() for i, (name, dc) in enumerate(table.items())]
    return pd.DataFrame(rows)


def _equivalent(profiles: dict[str, int], rules: Rules) -> pd.DataFrame:
    from .compare import equivalent_dc

    frames = []
    for name, mod in profiles.items():
        f = equivalent_dc(Roll(mod), rules=rules)
        f.insert(0, "profile", f"{name} ({mod:+d})")
        f.insert(1, "order", range(len(f)))
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def _day_tables(config: Any) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The party's day under each policy: its own, then keep, cancel and each best(λ)."""
    from .day import simulate_day

    scenario = config.day
    runs: dict[str, Any] = {OWN_POLICIES: scenario}
    for label, policy in policy_choices().items():
        if isinstance(policy, Best):
            policy = Best(16, policy.weight)  # the day plays Best against each roll's own DC
        party = tuple(dataclasses.replace(c, policy=policy) for c in scenario.characters)
        runs[label] = scenario.replace(characters=party)
    empties, types, gauges = [], [], []
    for label, sc in runs.items():
        res = simulate_day(sc, config.rules, n_days=config.days, seed=config.seed)
        g = res.to_frame("gauges")
        drained = g[g.caused_mean > 0][["character", "gauge"]]
        e = res.to_frame("empty").merge(drained, on=["character", "gauge"])
        e["series"] = e.character + " " + e.gauge
        empties.append(e[["series", "roll", "p", "ci_low", "ci_high"]].assign(policy=label))
        t = res.to_frame("roll_types")
        t = t[t.rolls > 0]
        types.append(t[["type", "state", "rolls", "p", "ci_low", "ci_high"]].assign(policy=label))
        g = g[g.caused_mean > 0]
        gauges.append(g[["character", "gauge", "start", "p_empty", "caused_mean"]]
                      .assign(policy=label))
    return tuple(pd.concat(f, ignore_index=True)  # type: ignore[return-value]
                 for f in (empties, types, gauges))


def explorer_data(config: Any = None, *, date: str | None = None,
                  day: bool = True) -> ExplorerData:
    """Compute every table of the explorer for a report configuration (default: embedded).

    ``day=False`` leaves the party's day out (its tables empty): for quick looks and tests.
    """
    from . import __version__
    from .report import ReportConfig, load_config

    if not isinstance(config, ReportConfig):
        config = load_config(config)
    subjects = _subjects(config.party)
    empty = pd.DataFrame()
    day_tables = _day_tables(config) if day and config.day is not None else (empty,) * 3
    rules = config.rules
    meta = {
        "title": config.title, "version": __version__,
        "date": date or _dt.date.today().isoformat(), "seed": config.seed,
        "source": config.source, "rules": rules.describe(), "switches": {
            "disadvantage": rules.disadvantage,
            "rule_of_one_kinds": ", ".join(sorted(rules.rule_of_one_kinds)) or "none",
            "ones_on_explosions": rules.ones_on_explosions, "overflow": rules.overflow,
            "lucky": rules.lucky},
        "days": config.days,
        "day": config.day.describe() if config.day is not None else "",
        "profiles": dict(config.profiles),
    }
    return ExplorerData(subjects, _roll_table(subjects, rules), _dc_frame(),
                        _equivalent(dict(config.profiles), rules), *day_tables, meta=meta)


# -- the charts -----------------------------------------------------------------------------
def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(frame.to_json(orient="records"))


def _roll_chart(data: ExplorerData, reading: str) -> Any:
    """One roll: the DC table and the "at least" curve, 3d6x beside d20, with the drain."""
    import altair as alt

    who = alt.param(name="who", value=MODIFIER_CHOICE, bind=alt.binding_select(
        options=list(data.subjects.who), name="who rolls ", element="#controls-roll"))
    mod = alt.param(name="mod", value=4, bind=alt.binding_range(
        min=SLIDER[0], max=SLIDER[1], step=1, name="modifier ", element="#controls-roll"))
    adv = alt.param(name="adv", value="normal", bind=alt.binding_radio(
        options=list(ADVANTAGE_STATES), name="advantage ", element="#controls-roll"))
    read = alt.param(name="reading", value=reading, bind=alt.binding_radio(
        options=["subtract", "drop"], name="disadvantage reading ", element="#controls-roll"))
    pol = alt.param(name="policy", value="keep", bind=alt.binding_select(
        options=list(policy_choices()), name="rule of 1 ", element="#controls-roll"))
    params = [who, mod, adv, read, pol]

    base = (alt.Chart(alt.Data(values=_records(data.roll)))
            .transform_calculate(who="who")  # the chosen subject's row, joined by its label
            .transform_lookup(lookup="who", from_=alt.LookupData(
                alt.Data(values=_records(data.subjects)), "who", ["mod3", "mod20", "cls"]),
                as_=["mod3", "mod20", "subject_cls"])
            .transform_calculate(
                chosen_state="adv == 'disadvantage' ? 'disadvantage (' + reading + ')' : adv",
                modifier=f"who == '{MODIFIER_CHOICE}' ? mod : "
                         "(datum.system == 'd20' ? datum.mod20 : datum.mod3)")
            .transform_filter("datum.cls == datum.subject_cls && datum.state == datum.chosen_state"
                              " && (datum.system == 'd20' || datum.policy == policy)")
            .transform_calculate(dc="datum.need + datum.modifier"))

    system_colour = alt.Color("system:N", scale=alt.Scale(domain=["3d6x", "d20"],
                                                          range=["#1f5fa8", "#d2691e"]),
                              legend=alt.Legend(title=None, orient="top-right"))
    curve = (base.transform_filter(f"datum.dc >= {min(CURVE_DCS)} && "
                                   f"datum.dc <= {max(CURVE_DCS)}")
             .transform_calculate(shown=_vega_percent("p"))
             .mark_line(point=alt.OverlayMarkDef(size=14), interpolate="step-after")
             .encode(x=alt.X("dc:Q", title="DC", scale=alt.Scale(domain=[0, 50], nice=False)),
                     y=alt.Y("p:Q", title="P(total ≥ DC)", axis=alt.Axis(format="%")),
                     color=system_colour,
                     tooltip=[alt.Tooltip("system:N"), alt.Tooltip("dc:Q", title="DC"),
                              alt.Tooltip("shown:N", title="P(success)")])
             .properties(width=430, height=400, title="Success against every DC ('at least')"))
    drain = (base.transform_filter(f"datum.system == '3d6x' && datum.dc >= {min(CURVE_DCS)} "
                                   f"&& datum.dc <= {max(CURVE_DCS)}")
             .mark_line(color="#1f5fa8", interpolate="step-after")
             .encode(x=alt.X("dc:Q", title="DC", scale=alt.Scale(domain=[0, 50], nice=False)),
                     y=alt.Y("drain:Q", title="expected drain (points)",
                             scale=alt.Scale(zero=True)),
                     tooltip=[alt.Tooltip("dc:Q", title="DC"),
                              alt.Tooltip("drain:Q", title="expected drain", format=".2f")])
             .properties(width=520, height=120,
                         title="3d6x: expected drain of one roll (rule of 1), by DC"))

    # The DC table as text: rows are the difficulty bands, columns each system's DC and odds.
    table = (base.transform_calculate(key="datum.system + '|' + datum.dc")
             .transform_lookup(lookup="key", from_=alt.LookupData(
                 alt.Data(values=_records(data.dcs.assign(
                     key=data.dcs.system + "|" + data.dcs.dc.astype(str)))),
                 "key", ["difficulty", "order"]))
             .transform_filter("isValid(datum.difficulty)")
             .transform_calculate(
                 dc_text="'' + datum.dc", p_text=_vega_percent("p"),
                 drain_text="datum.system == '3d6x' ? format(datum.drain, '.2f') : ''")
             .transform_fold(["dc_text", "p_text", "drain_text"], as_=["part", "text"])
             .transform_filter("datum.text != ''")
             .transform_calculate(column="datum.system + ({dc_text: ' DC', p_text: ' P(success)', "
                                         "drain_text: ' E[drain]'})[datum.part]",
                                  cell="datum.column + ' @ ' + datum.difficulty"))
    columns = ["3d6x DC", "3d6x P(success)", "3d6x E[drain]", "d20 DC", "d20 P(success)"]
    order = list(data.dcs[data.dcs.system == "3d6x"].difficulty)
    text = table.mark_text(fontSize=13).encode(
        x=alt.X("column:N", sort=columns, title=None,
                axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold",
                              domain=False, ticks=False, labelLimit=200)),
        y=alt.Y("difficulty:N", sort=order, title=None,
                axis=alt.Axis(domain=False, ticks=False, labelFontWeight="bold")),
        text="text:N", description="cell:N",
        color=alt.condition("datum.part == 'p_text'", alt.value("black"), alt.value("#555")))
    text = text.properties(width=520, height=220,
                           title="The DC table: each band in each system")
    left = alt.vconcat(text, drain, spacing=25)
    return (alt.hconcat(left, curve, spacing=30).add_params(*params)
            .resolve_legend(color="independent"))


def _equivalent_chart(data: ExplorerData) -> Any:
    """The equivalent-DC table: per profile, the 3d6x DC closest in odds to each d20 DC."""
    import altair as alt

    frame = data.equivalent.assign(
        cell=lambda f: "DC " + f.dc_3d6x.astype(str),
        odds=lambda f: [f"{shown_percent(a)} vs {shown_percent(b)}"
                        for a, b in zip(f.p_3d6x, f.p_d20)],
        row=lambda f: f.difficulty + " (d20 DC " + f.d20_dc.astype(str) + ")",
        gap_points=lambda f: (100 * f.gap).round(1),
        description=lambda f: "equivalent @ " + f.profile + " @ " + f.difficulty)
    rows = list(frame.drop_duplicates("order").row)
    base = alt.Chart(alt.Data(values=_records(frame))).encode(
        x=alt.X("profile:N", title=None, sort=list(frame.profile.unique()),
                axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold")),
        y=alt.Y("row:N", title=None, sort=rows, axis=alt.Axis(labelFontWeight="bold")))
    heat = base.mark_rect(stroke="white").encode(
        color=alt.Color("gap_points:Q", title="3d6x − d20 (points)",
                        scale=alt.Scale(scheme="redblue", domain=[-15, 15], clamp=True)),
        tooltip=[alt.Tooltip("profile:N"), alt.Tooltip("difficulty:N"),
                 alt.Tooltip("d20_dc:Q", title="d20 DC"), alt.Tooltip("dc_3d6x:Q", title="3d6x DC"),
                 alt.Tooltip("odds:N", title="3d6x vs d20"), alt.Tooltip("note:N")])
    dc = base.mark_text(fontSize=14, fontWeight="bold", dy=-8).encode(
        text="cell:N", description="description:N")
    odds = base.mark_text(fontSize=11, dy=10, color="#222").encode(text="odds:N")
    return (heat + dc + odds).properties(
        width=170 * frame.profile.nunique(), height=55 * len(rows),
        title="d20 DC → the 3d6x DC with the closest odds (3d6x odds vs d20 odds)")


def _day_chart(data: ExplorerData) -> Any:
    """The party's day per policy: gauge depletion curves and success by roll type."""
    import altair as alt

    choices = [OWN_POLICIES, *policy_choices()]
    pol = alt.param(name="day_policy", value=OWN_POLICIES, bind=alt.binding_select(
        options=choices, name="the party's rule-of-1 policy ", element="#controls-day"))
    picked = "datum.policy == day_policy"
    empty = alt.Chart(alt.Data(values=_records(data.day_empty))).transform_filter(picked)
    x = alt.X("roll:Q", title="roll of the day")
    series = alt.Color("series:N", title="gauge", legend=alt.Legend(
        orient="top-left", symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3))
    band = empty.mark_area(opacity=0.2).encode(x=x, y=alt.Y("ci_low:Q", stack=None),
                                               y2="ci_high:Q", color=series)
    line = empty.mark_line().encode(
        x=x, y=alt.Y("p:Q", title="P(gauge empty after this roll)", axis=alt.Axis(format="%"),
                     scale=alt.Scale(domain=[0, 1])),
        color=series,
        tooltip=[alt.Tooltip("series:N", title="gauge"), alt.Tooltip("roll:Q"),
                 alt.Tooltip("p:Q", format=".1%", title="P(empty)")])
    depletion = (band + line).properties(width=430, height=300,
                                         title="Gauges running dry over the day")

    types = (alt.Chart(alt.Data(values=_records(data.day_types))).transform_filter(picked)
             .transform_calculate(shown=_vega_percent("p"),
                                  cell="'day @ ' + datum.type + ' @ ' + datum.state"))
    y = alt.Y("type:N", title=None, axis=alt.Axis(labelLimit=260))
    colour = alt.Color("state:N", title=None, scale=alt.Scale(
        domain=["gauge full", "gauge empty"], range=["#1f5fa8", "#c0392b"]),
        legend=alt.Legend(orient="top"))
    bars = types.mark_bar().encode(
        y=y, yOffset=alt.YOffset("state:N", sort=["gauge full", "gauge empty"]),
        x=alt.X("p:Q", title="P(success)", axis=alt.Axis(format="%"),
                                        scale=alt.Scale(domain=[0, 1])),
        color=colour, tooltip=[alt.Tooltip("type:N"), alt.Tooltip("state:N"),
                               alt.Tooltip("rolls:Q", title="rolls in all days"),
                               alt.Tooltip("shown:N", title="P(success)")])
    labels = types.mark_text(align="left", dx=3, fontSize=10).encode(
        y=y, yOffset=alt.YOffset("state:N", sort=["gauge full", "gauge empty"]), x="p:Q", text="shown:N", description="cell:N")
    whiskers = types.mark_rule(color="#333").encode(
        y=y, yOffset=alt.YOffset("state:N", sort=["gauge full", "gauge empty"]),
        x="ci_low:Q", x2="ci_high:Q")
    success = (bars + whiskers + labels).properties(width=330, height=300,
                                         title="Success by roll type, gauge full or empty")

    gauges = (alt.Chart(alt.Data(values=_records(data.day_gauges))).transform_filter(picked)
              .transform_calculate(
                  who="datum.character + ' ' + datum.gauge + ' (' + datum.start + ' points)'",
                  empty_text=_vega_percent("p_empty"),
                  drain_text="format(datum.caused_mean, '.1f')")
              .transform_fold(["empty_text", "drain_text"], as_=["part", "text"])
              .transform_calculate(column="({empty_text: 'P(empty by evening)', "
                                          "drain_text: 'drain per day'})[datum.part]",
                                   cell="'gauge @ ' + datum.who + ' @ ' + datum.column"))
    table = gauges.mark_text(fontSize=12).encode(
        x=alt.X("column:N", title=None, sort=["P(empty by evening)", "drain per day"],
                axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold")),
        y=alt.Y("who:N", title=None, axis=alt.Axis(labelFontWeight="bold", labelLimit=260)),
        text="text:N", description="cell:N").properties(
        width=260, height=30 * max(1, data.day_gauges.drop_duplicates(
            ["character", "gauge"]).shape[0]), title="The gauges' fate at the end of the day")
    # concatenated views share colour scales by default: gauges and states have their own
    top = alt.hconcat(depletion, success, spacing=40).resolve_scale(color="independent")
    return alt.vconcat(top, table, spacing=30).add_params(pol)


def explorer_charts(data: ExplorerData) -> dict[str, Any]:
    """The explorer's views as Altair charts, by section id: ``roll``, ``equivalent``, ``day``."""
    charts = {"roll": _roll_chart(data, data.meta["switches"]["disadvantage"]),
              "equivalent": _equivalent_chart(data)}
    if not data.day_empty.empty:
        charts["day"] = _day_chart(data)
    return charts


# -- the page -------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1b1b1b; background: #fafafa; }
header, section, footer { max-width: 1180px; margin: 0 auto; padding: 12px 24px; }
header { border-bottom: 1px solid #ddd; }
h1 { font-size: 1.6em; margin: 0.3em 0; } h2 { font-size: 1.25em; margin: 0.6em 0 0.2em; }
p.lead, p.note { color: #333; max-width: 75em; line-height: 1.4; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 14px;
          font-size: 0.9em; margin: 8px 0; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; font-family: ui-monospace, monospace; }
.controls { display: flex; flex-wrap: wrap; gap: 6px 22px; padding: 10px 14px;
            background: #eef3f9; border: 1px solid #cdd9e6; border-radius: 6px;
            position: sticky; top: 0; z-index: 5; font-size: 0.95em; }
.controls .vega-bind-name { font-weight: 600; }
.controls select { max-width: 22em; }
.view { background: white; border: 1px solid #e2e2e2; border-radius: 6px; padding: 10px;
        margin-top: 10px; overflow-x: auto; }
footer { color: #555; font-size: 0.85em; border-top: 1px solid #ddd; }
"""


def _meta_html(meta: dict[str, Any]) -> str:
    sw = meta["switches"]
    rows = [("explodice version", meta["version"]), ("written on", meta["date"]),
            ("configuration", meta["source"]), ("seed", meta["seed"]),
            ("disadvantage", f"{sw['disadvantage']} (the page's reading control can change it)"),
            ("rule of 1 applies to", sw["rule_of_one_kinds"]),
            ("ones_on_explosions", sw["ones_on_explosions"]), ("overflow", sw["overflow"]),
            ("lucky", sw["lucky"])]
    return "<dl class='meta'>" + "".join(
        f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows) + "</dl>"


def explorer_html(data: ExplorerData, *, lang: str = "en") -> str:
    """The explorer page for precomputed ``data``: one HTML string, every script inlined."""
    import altair as alt
    import vl_convert
    from altair.utils._importers import vl_version_for_vl_convert

    _check_lang(lang)
    meta = data.meta
    specs = {k: c.to_dict() for k, c in explorer_charts(data).items()}
    bundle = vl_convert.javascript_bundle(vl_version=vl_version_for_vl_convert())
    esc = html.escape
    day_section = ""
    if "day" in specs:
        day_section = f"""
<section id="day-section">
  <h2>3. The party's day</h2>
  <p class="lead">{esc(meta['day'])}. Each policy's day is <b>simulated</b>: {meta['days']:,}
  days with seed {meta['seed']} (the day engine has no exact counterpart yet); the bands and
  the bars' whiskers are 95&nbsp;% Wilson intervals (a roll type rarely made with its gauge
  empty has a wide one). A gauge at 0 puts every roll of its abilities at disadvantage.
  "{esc(OWN_POLICIES)}" plays the configuration's policies; the others give every character
  the same one.</p>
  <div class="controls" id="controls-day"></div>
  <div class="view" id="view-day"></div>
</section>"""
    profiles = ", ".join(f"{esc(k)} {v:+d}" for k, v in meta["profiles"].items())
    embeds = "\n".join(
        f"    vegaEmbed('#view-{k}', {json.dumps(s)}, opts).then(r => {{ views['{k}'] = r.view; }}),"
        for k, s in specs.items())
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="explodice {esc(meta['version'])}">
<title>{esc(meta['title'])}: the explorer</title>
<style>{_STYLE}</style>
<script>
// Vega, Vega-Lite and vega-embed (bundled by vl-convert-python, Vega-Lite
// {vl_version_for_vl_convert()}), inlined so that the page needs no network.
{bundle}
</script>
</head>
<body>
<header>
  <h1>{esc(meta['title'])}: the explorer</h1>
  <p class="lead">3d6x (three exploding d6, advantage as a 4th die, the rule of 1) beside the
  d20. Change the controls; every number was computed by explodice when this file was written
  and the page only filters and draws them, offline. Single rolls and equivalent DCs come from
  the <b>exact engine</b> (the cut of the infinite explosion leaves out less than 1e-12).</p>
  {_meta_html(meta)}
</header>
<section id="roll-section">
  <h2>1. One roll against the DC table</h2>
  <p class="lead">Choose who rolls (a bare modifier from the slider, or a character's skill or
  save), the advantage state, the reading of disadvantage (<i>subtract</i>: 3 dice minus an
  exploding malus die; <i>drop</i>: 2 dice) and the rule-of-1 policy (<i>keep</i> every 1,
  <i>cancel</i> each 1 against a 6, or <i>best(λ)</i>: the cancellations that maximise
  P(success) − λ·E[drain] for that DC). The d20 reads the same modifier and advantage state.
  E[drain] is the expected number of gauge points one roll costs.</p>
  <div class="controls" id="controls-roll"></div>
  <div class="view" id="view-roll"></div>
</section>
<section id="equivalent-section">
  <h2>2. Equivalent DCs for the configuration's profiles</h2>
  <p class="lead">For each profile ({profiles}), rolling without advantage and keeping its
  1s: which 3d6x DC gives the odds closest to each d20 DC. The colour is the remaining gap in
  percentage points (blue: 3d6x easier; red: harder).</p>
  <div class="view" id="view-equivalent"></div>
</section>{day_section}
<footer>
  <p>Made by explodice {esc(meta['version'])} on {esc(meta['date'])} from {esc(meta['source'])}
  (seed {meta['seed']}), with Vega-Lite through Altair. Share it as it is: one file, no
  server, nothing fetched.</p>
</footer>
<script>
  const views = {{}};
  const opts = {{"actions": false, "renderer": "svg"}};
  window.explodiceViews = views;
  window.explodiceReady = Promise.all([
{embeds}
  ]).catch(err => {{ console.error(err); throw err; }});
</script>
</body>
</html>
"""


def _check_lang(lang: str) -> str:
    if lang not in _LANGS:
        raise ExplodiceError(f"`lang` must be one of {list(_LANGS)}, but {lang!r} was passed.")
    return lang


def write_explorer(config: Any = None, out: str | os.PathLike[str] = EXPLORER_NAME, *,
                   lang: str = "en", date: str | None = None) -> Path:
    """Write the explorer for a report configuration (a ReportConfig, a TOML path, or
    ``None`` for the embedded default) to ``out``, whole or not at all; return its path."""
    from .report import _atomic_write_text

    _check_lang(lang)
    page = explorer_html(explorer_data(config, date=date), lang=lang)
    out = Path(out)
    if out.is_dir():
        raise ExplodiceError(f"`out` must be a file name, but {str(out)!r} is a folder.")
    try:
        _atomic_write_text(out, page)
    except OSError as err:
        raise OSError(f"cannot write the explorer to {out}: {err.strerror}") from None
    return out
