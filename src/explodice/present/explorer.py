"""The designer's explorer: one HTML file to play with the numbers, offline, in any browser.

:func:`write_explorer` computes every number of a report configuration when the file is
written (the exact engine for single rolls and equivalent DCs; the day engine, seeded from the
configuration, for the party's day) and hands them to Vega-Lite charts built with Altair. The
page is self-contained: Vega, Vega-Lite and vega-embed are inlined (from ``vl-convert-python``'s
bundle), the data sit in the specifications, and nothing is fetched when it opens. The controls
(Vega-Lite parameters bound to inputs) only filter and redraw precomputed tables. ``lang="fr"``
writes it in the game's own words (:mod:`explodice.present.i18n`).

>>> from explodice.present.explorer import explorer_data
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
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.compare import equivalent_dc
from explodice.core.errors import ExplodiceError
from explodice.core.files import atomic_write_text
from explodice.core.version import __version__
from explodice.day.simulate import simulate_day
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.game.character import ABILITIES, SKILLS_FR, ProficiencyWarning
from explodice.game.reroll import Reroll
from explodice.game.rules import ADVANTAGE_STATES, Best, Policy, Roll, Rules
from explodice.game.tables import DC_TABLES, DIFFICULTY_FR
from explodice.present import i18n
from explodice.present.labels import ABILITY

__all__ = [
    "EXPLORER_NAME",
    "LAMBDAS",
    "ExplorerData",
    "explorer_charts",
    "explorer_data",
    "explorer_html",
    "policy_choices",
    "roll_type_label",
    "shown_percent",
    "test_label",
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
_SYSTEM_COLOURS = {"3d6x": "#1f5fa8", "d20": "#d2691e"}
_GAUGE_STATES = ("gauge full", "gauge empty")
#: A character's reroll trait as the page names it (its rows' class ends with the trigger).
_TRAITS = {"one": "Lucky", "failure": "reroll on failure"}


def _noop(text: str) -> str:
    """Marks an English label for the catalogue where it is defined; translated where shown."""
    return text


N_ = _noop
# Labels defined as data keys, translated when shown (listed here for the catalogue).
_KEY_LABELS = (
    N_("the modifier of the slider"),
    N_("each character's own"),
    N_("normal"),
    N_("advantage"),
    N_("disadvantage"),
    N_("subtract"),
    N_("drop"),
    N_("keep"),
    N_("cancel"),
    N_("gauge full"),
    N_("gauge empty"),
    N_("check"),
    N_("save"),
    N_("attack"),
    N_("very easy"),
    N_("easy"),
    N_("moderate"),
    N_("hard"),
    N_("very hard"),
    N_("nearly impossible"),
    N_("embedded default"),
    N_("certain in d20"),
    N_("a day"),  # the name of a day the configuration leaves unnamed
    N_("impossible in d20"),
    N_("Lucky"),
    N_("reroll on failure"),
)


def policy_choices() -> dict[str, Policy]:
    """The rule-of-1 policies of the controls, by key; ``Best`` gets its DC per row.

    >>> list(policy_choices())
    ['keep', 'cancel', 'best(λ=0)', 'best(λ=0.05)', 'best(λ=0.2)']
    """
    out: dict[str, Policy] = {"keep": "keep", "cancel": "cancel"}
    out |= {f"best(λ={w:g})": Best(0, w) for w in LAMBDAS}
    return out


def _policy_label(key: str, lang: str) -> str:
    _ = i18n.translator(lang)
    if key.startswith("best(λ="):
        weight = float(key[len("best(λ=") : -1])
        return _("best(λ={weight})").format(weight=i18n.number(weight, lang, None))
    return _(key)


def shown_percent(p: float, lang: str = "en") -> str:
    """A probability as the explorer prints it: one decimal, never a false 0 % or 100 %.

    >>> shown_percent(0.49123), shown_percent(0.0002), shown_percent(0.99996)
    ('49.1 %', '< 0.1 %', '> 99.9 %')
    """
    return i18n.percent(p, lang)


def _js(text: str) -> str:
    """A Python string as a string literal of Vega's expression language."""
    return json.dumps(text, ensure_ascii=False)


def _vega_percent(field: str, lang: str) -> str:
    """:func:`shown_percent` in Vega's expression language (the page's locale does the rest)."""
    d = f"datum.{field}"
    return (
        f"{d} > 0 && {d} < 0.0005 ? {_js(i18n.percent(1e-9, lang))} : "
        f"{d} >= 0.9995 && {d} < 1 ? {_js(i18n.percent(1 - 1e-9, lang))} : "
        f"format({d}, '.1%')"
    )


# -- the numbers ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ExplorerData:
    """Every number the explorer shows, as tidy tables (precomputed; the page only filters).

    - ``subjects``: who rolls: ``who`` (a key), ``label`` (shown), ``mod3`` and ``mod20`` (the
      modifier in each system), ``cls`` (``kind/actor``, which sets the rule of 1);
    - ``roll``: P(success) and the expected drain of one roll against ``need`` = DC - modifier,
      per ``system``, ``cls``, advantage ``state`` and ``policy`` (d20 rows: policy ``"-"``);
    - ``dcs``: the typical DC tables of both systems;
    - ``equivalent``: for each profile, the 3d6x DC closest in odds to each d20 DC;
    - ``day_empty``, ``day_types``, ``day_gauges``: the party's day per policy (simulated);
    - ``meta``: title, version, date, seed, rules, language and method notes.
    """

    subjects: pd.DataFrame
    roll: pd.DataFrame
    dcs: pd.DataFrame
    equivalent: pd.DataFrame
    day_empty: pd.DataFrame
    day_types: pd.DataFrame
    day_gauges: pd.DataFrame
    meta: dict[str, Any]


def test_label(test: str, lang: str) -> str:
    """'Athletics' or 'save STR' in ``lang`` ('Athlétisme', 'sauvegarde FOR')."""
    _ = i18n.translator(lang)
    if test.startswith("save "):
        return _("save {ability}").format(ability=ABILITY[lang][test.split()[1]])
    if test in ABILITY["en"]:
        return ABILITY[lang][test]
    return SKILLS_FR.get(test, test) if lang == "fr" else test


def _subjects(party: Sequence[Any], lang: str) -> tuple[pd.DataFrame, list[str]]:
    """A modifier (the slider), then each character's proficient skills and saves; and the
    notes the page shows about them (a reroll trait, a save the d20 reads otherwise).

    A subject's class ``cls`` is ``kind/actor``, then ``/one`` or ``/failure`` when the
    character has a reroll trait: its rows in the roll table carry the reroll (a reroll on
    failure spent against each DC)."""
    _ = i18n.translator(lang)
    rows = [
        {
            "who": MODIFIER_CHOICE,
            "label": _(MODIFIER_CHOICE),
            "mod3": 0,
            "mod20": 0,
            "cls": "check/pc",
        }
    ]
    notes: list[str] = []
    for c in party:
        # a reroll on failure needs the DC: it is bound per DC in the roll table, by class
        tests: list[tuple[str, Roll, Roll]] = []
        for skill, prof in c.skills.items():
            if prof:
                tests.append(
                    (
                        skill,
                        c.roll(skill, reroll_on_failure=False),
                        c.roll(skill, system="d20", reroll_on_failure=False),
                    )
                )
        for a in ABILITIES:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ProficiencyWarning)
                r20 = c.roll(ability=a, kind="save", system="d20", reroll_on_failure=False)
            for w in caught:
                if not issubclass(w.category, ProficiencyWarning):
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
                    continue
                notes.append(
                    _(
                        "{name}: {test} is proficient twice; d20 adds the proficiency bonus "
                        "to a save once (5e), where 3d6x adds it twice. The character's "
                        "`save_expertise` feature would count it twice in d20."
                    ).format(name=c.name, test=test_label(f"save {a}", lang))
                )
            tests.append(
                (f"save {a}", c.roll(ability=a, kind="save", reroll_on_failure=False), r20)
            )
        trait = c.reroll.trigger if c.reroll is not None else None
        if trait == "one":
            notes.append(
                _(
                    "{name} has the Lucky trait, counted in these numbers: a die of the first "
                    "throw showing 1 is rerolled once (3d6x: before the rule of 1; d20: the die "
                    "showing 1)."
                ).format(name=c.name)
            )
        elif trait == "failure":
            notes.append(
                _(
                    "{name} has a reroll on failure, counted in these numbers: a failed roll is "
                    "rerolled once, against each DC of the table and of the curve (with "
                    "advantage or disadvantage, the best die only)."
                ).format(name=c.name)
            )
        for test, r3, r20 in tests:
            mods = f"{r3.modifier:+d}" + (
                "" if r20.modifier == r3.modifier else f"; d20 {r20.modifier:+d}"
            )
            label = _("{name}: {test} ({modifiers})").format(
                name=c.name, test=test_label(test, lang), modifiers=mods
            )
            rows.append(
                {
                    "who": f"{c.name}: {test} ({mods})",
                    "label": label + (f", {_(_TRAITS[trait])}" if trait else ""),
                    "mod3": r3.modifier,
                    "mod20": r20.modifier,
                    "cls": f"{r3.kind}/{r3.actor}" + (f"/{trait}" if trait else ""),
                }
            )
    return pd.DataFrame(rows), notes


def _state_rules(state: str, rules: Rules) -> tuple[str, Rules]:
    if state.startswith("disadvantage"):
        reading = state.split("(")[1].rstrip(")")
        return "disadvantage", dataclasses.replace(rules, disadvantage=reading)
    return state, rules


def _needs(subjects: pd.DataFrame, cls: str) -> np.ndarray:
    """The needs (DC - modifier) the page reads for a class: every DC of the curve for the
    slider's whole range and each subject's modifier in both systems."""
    of = subjects[subjects.cls == cls]
    mods = {*of.mod3, *of.mod20}
    if cls == "check/pc":  # the slider's subject: every modifier it offers
        mods |= set(range(SLIDER[0], SLIDER[1] + 1))
    needs = {dc - int(m) for dc in CURVE_DCS for m in mods}
    return np.arange(min(needs), max(needs) + 1)


def _class_roll(cls: str, advantage: str, policy: Policy, need: int) -> Roll:
    """The roll at modifier 0 of a class ``kind/actor[/trigger]``, its reroll bound to
    ``need`` when it is a reroll on failure.

    >>> _class_roll("save/pc/failure", "normal", "keep", 12).reroll
    Reroll('failure', dc=12)
    """
    kind, actor, *trait = cls.split("/")
    reroll = None
    if trait:
        reroll = Reroll("failure", dc=need) if trait == ["failure"] else Reroll("one")
    return Roll(0, advantage=advantage, kind=kind, actor=actor, policy=policy, reroll=reroll)


def _roll_table(subjects: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """P(success) and E[drain] against need = DC - modifier, for every choice of the controls.

    A class with a reroll trait (``.../one``, ``.../failure``) rolls with it; a reroll on
    failure is bound to each need (the roll at modifier 0 against DC = need is the roll at
    any modifier against DC = need + modifier: the engines shift)."""
    frames = []
    for cls in subjects.cls.unique():
        needs = _needs(subjects, cls)
        bound = cls.endswith("/failure")  # the roll itself depends on its DC

        for state in _STATES:
            adv, state_rules = _state_rules(state, rules)
            if bound:
                p20 = [d20(_class_roll(cls, adv, "keep", int(n))).p_success(int(n)) for n in needs]
            else:
                p20 = d20(_class_roll(cls, adv, "keep", 0)).p_success(needs)
            frames.append(
                pd.DataFrame(
                    {
                        "system": "d20",
                        "cls": cls,
                        "state": state,
                        "policy": "-",
                        "need": needs,
                        "p": np.asarray(p20, dtype=float),
                        "drain": 0.0,
                    }
                )
            )
            for key, policy in policy_choices().items():
                if isinstance(policy, Best) or bound:
                    p, drain = np.empty(needs.size), np.empty(needs.size)
                    for i, need in enumerate(needs):
                        pol = Best(int(need), policy.weight) if isinstance(policy, Best) else policy
                        d = exact(_class_roll(cls, adv, pol, int(need)), state_rules)
                        p[i], drain[i] = d.p_success(int(need)), d.drain_mean
                else:
                    d = exact(_class_roll(cls, adv, policy, 0), state_rules)
                    p, drain = d.p_success(needs), np.full(needs.size, d.drain_mean)
                frames.append(
                    pd.DataFrame(
                        {
                            "system": "3d6x",
                            "cls": cls,
                            "state": state,
                            "policy": key,
                            "need": needs,
                            "p": p,
                            "drain": drain,
                        }
                    )
                )
    return pd.concat(frames, ignore_index=True)


def _difficulty_label(name: str, lang: str) -> str:
    return DIFFICULTY_FR[name] if lang == "fr" else name


def _dc_frame(lang: str) -> pd.DataFrame:
    rows = [
        {
            "system": system,
            "order": i,
            "difficulty": name,
            "label": _difficulty_label(name, lang),
            "dc": dc,
        }
        for system, table in DC_TABLES.items()
        for i, (name, dc) in enumerate(table.items())
    ]
    return pd.DataFrame(rows)


def _equivalent(profiles: dict[str, int], rules: Rules, lang: str) -> pd.DataFrame:
    frames = []
    for name, mod in profiles.items():
        f = equivalent_dc(Roll(mod), rules=rules)
        f.insert(0, "profile", f"{name} ({mod:+d})")
        f.insert(1, "order", range(len(f)))
        f["label"] = [_difficulty_label(d, lang) for d in f.difficulty]
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def roll_type_label(day_roll: Any, lang: str) -> str:
    """A day's roll type as the page names it (its own label unless it is the default one)."""
    what = day_roll.skill or day_roll.ability
    default = f"{day_roll.character}: {what} {day_roll.kind} DC {day_roll.dc}"
    if lang == "en" or day_roll.label != default:
        return day_roll.label
    _ = i18n.translator(lang)
    test = f"save {day_roll.ability}" if day_roll.kind == "save" else what
    kind = "" if day_roll.kind == "save" else " " + _(day_roll.kind)
    return _("{name}: {test} DC {dc}").format(
        name=day_roll.character, test=test_label(test, lang) + kind, dc=day_roll.dc
    )


def _day_tables(config: Any, lang: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The party's day under each policy: its own, then keep, cancel and each best(λ)."""
    _ = i18n.translator(lang)
    scenario = config.day
    runs: dict[str, Any] = {OWN_POLICIES: scenario}
    for key, policy in policy_choices().items():
        if isinstance(policy, Best):
            policy = Best(16, policy.weight)  # the day plays Best against each roll's own DC
        party = tuple(dataclasses.replace(c, policy=policy) for c in scenario.characters)
        runs[key] = scenario.replace(characters=party)
    type_labels = {r.label: roll_type_label(r, lang) for r in scenario.rolls}
    empties, types, gauges = [], [], []
    for key, sc in runs.items():
        res = simulate_day(sc, config.rules, n_days=config.days, seed=config.seed)
        g = res.to_frame("gauges")
        drained = g[g.caused_mean > 0][["character", "gauge"]]
        e = res.to_frame("empty").merge(drained, on=["character", "gauge"])
        e["series"] = e.character + " " + e.gauge
        empties.append(e[["series", "roll", "p", "ci_low", "ci_high"]].assign(policy=key))
        t = res.to_frame("roll_types")
        t = t[t.rolls > 0].assign(
            type_label=lambda f: f.type.map(type_labels), state_label=lambda f: f.state.map(_)
        )
        types.append(
            t[
                ["type", "type_label", "state", "state_label", "rolls", "p", "ci_low", "ci_high"]
            ].assign(policy=key)
        )
        g = g[g.caused_mean > 0].assign(
            who=lambda f: [
                _("{name} {gauge} ({points} points)").format(
                    name=r.character, gauge=r.gauge, points=r.start
                )
                for r in f.itertuples()
            ]
        )
        gauges.append(
            g[["character", "gauge", "who", "start", "p_empty", "caused_mean"]].assign(policy=key)
        )
    return tuple(
        pd.concat(f, ignore_index=True)  # type: ignore[return-value]
        for f in (empties, types, gauges)
    )


def explorer_data(
    config: Any = None, *, lang: str | None = None, date: str | None = None, day: bool = True
) -> ExplorerData:
    """Compute every table of the explorer for a report configuration (default: embedded),
    with its labels in ``lang`` (default: the configuration's ``lang``).

    ``day=False`` leaves the party's day out (its tables empty): for quick looks and tests.
    """
    # imported here: the report's writer imports this module
    from explodice.present.report.config import ReportConfig, load_config

    if lang is not None:
        i18n.check_lang(lang)
    if not isinstance(config, ReportConfig):
        config = load_config(config)
    lang = i18n.check_lang(config.lang if lang is None else lang)
    subjects, notes = _subjects(config.party, lang)
    empty = pd.DataFrame()
    day_tables = _day_tables(config, lang) if day and config.day is not None else (empty,) * 3
    rules = config.rules
    meta = {
        "title": config.title,
        "version": __version__,
        "lang": lang,
        "date": date or _dt.date.today().isoformat(),
        "seed": config.seed,
        "source": config.source,
        "rules": rules.describe(),
        "switches": {
            "disadvantage": rules.disadvantage,
            "rule_of_one_kinds": sorted(rules.rule_of_one_kinds),
            "ones_on_explosions": rules.ones_on_explosions,
            "overflow": rules.overflow,
            "drain_gauge": rules.drain_gauge,
        },
        "days": config.days,
        "day": config.day.name if config.day is not None else "",
        "party": [c.name for c in config.day.characters] if config.day is not None else [],
        "rolls_per_day": config.day.n_rolls if config.day is not None else 0,
        "profiles": dict(config.profiles),
        "notes": notes,
    }
    return ExplorerData(
        subjects,
        _roll_table(subjects, rules),
        _dc_frame(lang),
        _equivalent(dict(config.profiles), rules, lang),
        *day_tables,
        meta=meta,
    )


# -- the charts -----------------------------------------------------------------------------
def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(frame.to_json(orient="records"))


def _roll_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """One roll: the DC table and the "at least" curve, 3d6x beside d20, with the drain."""
    import altair as alt

    lang = data.meta["lang"]
    here = "#controls-roll"
    who = alt.param(
        name="who",
        value=MODIFIER_CHOICE,
        bind=alt.binding_select(
            options=list(data.subjects.who),
            labels=list(data.subjects.label),
            name=_("who rolls") + " ",
            element=here,
        ),
    )
    mod = alt.param(
        name="mod",
        value=4,
        bind=alt.binding_range(
            min=SLIDER[0], max=SLIDER[1], step=1, name=_("modifier") + " ", element=here
        ),
    )
    adv = alt.param(
        name="adv",
        value="normal",
        bind=alt.binding_radio(
            options=list(ADVANTAGE_STATES),
            labels=[_(a) for a in ADVANTAGE_STATES],
            name=_("advantage") + " ",
            element=here,
        ),
    )
    read = alt.param(
        name="reading",
        value=data.meta["switches"]["disadvantage"],
        bind=alt.binding_radio(
            options=["subtract", "drop"],
            labels=[_("subtract"), _("drop")],
            name=_("disadvantage reading") + " ",
            element=here,
        ),
    )
    policies = list(policy_choices())
    pol = alt.param(
        name="policy",
        value="keep",
        bind=alt.binding_select(
            options=policies,
            labels=[_policy_label(k, lang) for k in policies],
            name=_("rule of 1") + " ",
            element=here,
        ),
    )

    base = (
        alt.Chart(alt.Data(values=_records(data.roll)))
        .transform_calculate(who="who")  # the chosen subject's row, joined by its key
        .transform_lookup(
            lookup="who",
            from_=alt.LookupData(
                alt.Data(values=_records(data.subjects)), "who", ["mod3", "mod20", "cls"]
            ),
            as_=["mod3", "mod20", "subject_cls"],
        )
        .transform_calculate(
            chosen_state="adv == 'disadvantage' ? 'disadvantage (' + reading + ')' : adv",
            modifier=f"who == {_js(MODIFIER_CHOICE)} ? mod : "
            "(datum.system == 'd20' ? datum.mod20 : datum.mod3)",
        )
        .transform_filter(
            "datum.cls == datum.subject_cls && datum.state == datum.chosen_state"
            " && (datum.system == 'd20' || datum.policy == policy)"
        )
        .transform_calculate(dc="datum.need + datum.modifier")
    )

    dc_title = _("DC")
    in_curve = f"datum.dc >= {min(CURVE_DCS)} && datum.dc <= {max(CURVE_DCS)}"
    x_dc = alt.X("dc:Q", title=dc_title, scale=alt.Scale(domain=[0, 50], nice=False))
    system_colour = alt.Color(
        "system:N",
        scale=alt.Scale(domain=list(_SYSTEM_COLOURS), range=list(_SYSTEM_COLOURS.values())),
        legend=alt.Legend(title=None, orient="top-right"),
    )
    curve = (
        base.transform_filter(in_curve)
        .transform_calculate(shown=_vega_percent("p", lang))
        .mark_line(point=alt.OverlayMarkDef(size=14), interpolate="step-after")
        .encode(
            x=x_dc,
            y=alt.Y("p:Q", title=_("P(total ≥ DC)"), axis=alt.Axis(format="%")),
            color=system_colour,
            tooltip=[
                alt.Tooltip("system:N", title=_("system")),
                alt.Tooltip("dc:Q", title=dc_title),
                alt.Tooltip("shown:N", title=_("P(success)")),
            ],
        )
        .properties(width=430, height=400, title=_("Success against every DC ('at least')"))
    )
    drain = (
        base.transform_filter(f"datum.system == '3d6x' && {in_curve}")
        .mark_line(color=_SYSTEM_COLOURS["3d6x"], interpolate="step-after")
        .encode(
            x=x_dc,
            y=alt.Y("drain:Q", title=_("expected drain (points)"), scale=alt.Scale(zero=True)),
            tooltip=[
                alt.Tooltip("dc:Q", title=dc_title),
                alt.Tooltip("drain:Q", title=_("expected drain"), format=".2f"),
            ],
        )
        .properties(
            width=520, height=120, title=_("3d6x: expected drain of one roll (rule of 1), by DC")
        )
    )

    # The DC table as text: rows are the difficulty bands, columns each system's DC and odds.
    names = {"dc_text": _("DC"), "p_text": _("P(success)"), "drain_text": _("E[drain]")}
    columns = [
        f"3d6x {names['dc_text']}",
        f"3d6x {names['p_text']}",
        f"3d6x {names['drain_text']}",
        f"d20 {names['dc_text']}",
        f"d20 {names['p_text']}",
    ]
    dcs = data.dcs.assign(key=data.dcs.system + "|" + data.dcs.dc.astype(str))
    table = (
        base.transform_calculate(key="datum.system + '|' + datum.dc")
        .transform_lookup(
            lookup="key",
            from_=alt.LookupData(alt.Data(values=_records(dcs)), "key", ["label", "order"]),
        )
        .transform_filter("isValid(datum.label)")
        .transform_calculate(
            dc_text="'' + datum.dc",
            p_text=_vega_percent("p", lang),
            drain_text="datum.system == '3d6x' ? format(datum.drain, '.2f') : ''",
        )
        .transform_fold(["dc_text", "p_text", "drain_text"], as_=["part", "text"])
        .transform_filter("datum.text != ''")
        .transform_calculate(
            column=f"datum.system + ' ' + ({json.dumps(names)})[datum.part]",
            cell="datum.column + ' @ ' + datum.label",
        )
    )
    order = list(data.dcs[data.dcs.system == "3d6x"].label)
    text = table.mark_text(fontSize=13).encode(
        x=alt.X(
            "column:N",
            sort=columns,
            title=None,
            axis=alt.Axis(
                orient="top",
                labelAngle=0,
                labelFontWeight="bold",
                domain=False,
                ticks=False,
                labelLimit=200,
            ),
        ),
        y=alt.Y(
            "label:N",
            sort=order,
            title=None,
            axis=alt.Axis(domain=False, ticks=False, labelFontWeight="bold"),
        ),
        text="text:N",
        description="cell:N",
        color=alt.condition("datum.part == 'p_text'", alt.value("black"), alt.value("#555")),
    )
    text = text.properties(width=520, height=220, title=_("The DC table: each band in each system"))
    left = alt.vconcat(text, drain, spacing=25)
    return (
        alt.hconcat(left, curve, spacing=30)
        .add_params(who, mod, adv, read, pol)
        .resolve_legend(color="independent")
    )


def _equivalent_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The equivalent-DC table: per profile, the 3d6x DC closest in odds to each d20 DC."""
    import altair as alt

    lang = data.meta["lang"]
    frame = data.equivalent.assign(
        cell=lambda f: [_("DC {dc}").format(dc=d) for d in f.dc_3d6x],
        odds=lambda f: [
            _("{p3} vs {p20}").format(p3=shown_percent(a, lang), p20=shown_percent(b, lang))
            for a, b in zip(f.p_3d6x, f.p_d20)
        ],
        row=lambda f: [
            _("{band} (d20 DC {dc})").format(band=b, dc=d) for b, d in zip(f.label, f.d20_dc)
        ],
        gap_points=lambda f: (100 * f.gap).round(1),
        note=lambda f: [_(n) if n else "" for n in f.note],
        description=lambda f: "equivalent @ " + f.profile + " @ " + f.difficulty,
    )
    rows = list(frame.drop_duplicates("order").row)
    base = alt.Chart(alt.Data(values=_records(frame))).encode(
        x=alt.X(
            "profile:N",
            title=None,
            sort=list(frame.profile.unique()),
            axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold"),
        ),
        y=alt.Y("row:N", title=None, sort=rows, axis=alt.Axis(labelFontWeight="bold")),
    )
    heat = base.mark_rect(stroke="white").encode(
        color=alt.Color(
            "gap_points:Q",
            title=_("3d6x − d20 (points)"),
            scale=alt.Scale(scheme="redblue", domain=[-15, 15], clamp=True),
        ),
        tooltip=[
            alt.Tooltip("profile:N", title=_("profile")),
            alt.Tooltip("label:N", title=_("difficulty")),
            alt.Tooltip("d20_dc:Q", title=_("d20 DC")),
            alt.Tooltip("dc_3d6x:Q", title=_("3d6x DC")),
            alt.Tooltip("odds:N", title=_("3d6x vs d20")),
            alt.Tooltip("note:N", title=_("note")),
        ],
    )
    dc = base.mark_text(fontSize=14, fontWeight="bold", dy=-8).encode(
        text="cell:N", description="description:N"
    )
    odds = base.mark_text(fontSize=11, dy=10, color="#222").encode(text="odds:N")
    return (heat + dc + odds).properties(
        width=170 * frame.profile.nunique(),
        height=55 * len(rows),
        title=_("d20 DC → the 3d6x DC with the closest odds (3d6x odds vs d20 odds)"),
    )


def _day_chart(data: ExplorerData, _: Callable[[str], str]) -> Any:
    """The party's day per policy: gauge depletion curves and success by roll type."""
    import altair as alt

    lang = data.meta["lang"]
    choices = [OWN_POLICIES, *policy_choices()]
    pol = alt.param(
        name="day_policy",
        value=OWN_POLICIES,
        bind=alt.binding_select(
            options=choices,
            labels=[_(OWN_POLICIES)] + [_policy_label(k, lang) for k in policy_choices()],
            name=_("the party's rule-of-1 policy") + " ",
            element="#controls-day",
        ),
    )
    picked = "datum.policy == day_policy"
    empty = alt.Chart(alt.Data(values=_records(data.day_empty))).transform_filter(picked)
    x = alt.X("roll:Q", title=_("roll of the day"))
    series = alt.Color(
        "series:N",
        title=_("gauge"),
        legend=alt.Legend(
            orient="top-left", symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3
        ),
    )
    band = empty.mark_area(opacity=0.2).encode(
        x=x, y=alt.Y("ci_low:Q", stack=None), y2="ci_high:Q", color=series
    )
    line = empty.mark_line().encode(
        x=x,
        y=alt.Y(
            "p:Q",
            title=_("P(gauge empty after this roll)"),
            axis=alt.Axis(format="%"),
            scale=alt.Scale(domain=[0, 1]),
        ),
        color=series,
        tooltip=[
            alt.Tooltip("series:N", title=_("gauge")),
            alt.Tooltip("roll:Q", title=_("roll of the day")),
            alt.Tooltip("p:Q", format=".1%", title=_("P(empty)")),
        ],
    )
    depletion = (band + line).properties(
        width=430, height=300, title=_("Gauges running dry over the day")
    )

    states = [_(s) for s in _GAUGE_STATES]
    types = (
        alt.Chart(alt.Data(values=_records(data.day_types)))
        .transform_filter(picked)
        .transform_calculate(
            shown=_vega_percent("p", lang), cell="'day @ ' + datum.type + ' @ ' + datum.state"
        )
    )
    y = alt.Y("type_label:N", title=None, axis=alt.Axis(labelLimit=260))
    y_off = alt.YOffset("state_label:N", sort=states)
    colour = alt.Color(
        "state_label:N",
        title=None,
        scale=alt.Scale(domain=states, range=["#1f5fa8", "#c0392b"]),
        legend=alt.Legend(orient="top"),
    )
    bars = types.mark_bar().encode(
        y=y,
        yOffset=y_off,
        x=alt.X(
            "p:Q", title=_("P(success)"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])
        ),
        color=colour,
        tooltip=[
            alt.Tooltip("type_label:N", title=_("roll type")),
            alt.Tooltip("state_label:N", title=_("gauge")),
            alt.Tooltip("rolls:Q", title=_("rolls in all days")),
            alt.Tooltip("shown:N", title=_("P(success)")),
        ],
    )
    whiskers = types.mark_rule(color="#333").encode(
        y=y, yOffset=y_off, x="ci_low:Q", x2="ci_high:Q"
    )
    labels = types.mark_text(align="left", dx=3, fontSize=10).encode(
        y=y, yOffset=y_off, x="ci_high:Q", text="shown:N", description="cell:N"
    )
    success = (bars + whiskers + labels).properties(
        width=330, height=300, title=_("Success by roll type, gauge full or empty")
    )

    names = {"empty_text": _("P(empty by evening)"), "drain_text": _("drain per day")}
    gauges = (
        alt.Chart(alt.Data(values=_records(data.day_gauges)))
        .transform_filter(picked)
        .transform_calculate(
            empty_text=_vega_percent("p_empty", lang), drain_text="format(datum.caused_mean, '.1f')"
        )
        .transform_fold(["empty_text", "drain_text"], as_=["part", "text"])
        .transform_calculate(
            column=f"({json.dumps(names)})[datum.part]",
            cell="'gauge @ ' + datum.who + ' @ ' + datum.part",
        )
    )
    table = (
        gauges.mark_text(fontSize=12)
        .encode(
            x=alt.X(
                "column:N",
                title=None,
                sort=list(names.values()),
                axis=alt.Axis(orient="top", labelAngle=0, labelFontWeight="bold"),
            ),
            y=alt.Y("who:N", title=None, axis=alt.Axis(labelFontWeight="bold", labelLimit=260)),
            text="text:N",
            description="cell:N",
        )
        .properties(
            width=260,
            height=30 * max(1, data.day_gauges.drop_duplicates(["character", "gauge"]).shape[0]),
            title=_("The gauges' fate at the end of the day"),
        )
    )
    # concatenated views share colour scales by default: gauges and states have their own
    top = alt.hconcat(depletion, success, spacing=40).resolve_scale(color="independent")
    return alt.vconcat(top, table, spacing=30).add_params(pol)


def explorer_charts(data: ExplorerData) -> dict[str, Any]:
    """The explorer's views as Altair charts, by section id: ``roll``, ``equivalent``, ``day``."""
    _ = i18n.translator(data.meta["lang"])
    charts = {"roll": _roll_chart(data, _), "equivalent": _equivalent_chart(data, _)}
    if not data.day_empty.empty:
        charts["day"] = _day_chart(data, _)
    return charts


# -- the page -------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1b1b1b; background: #fafafa; }
header, section, footer { max-width: 1180px; margin: 0 auto; padding: 12px 24px; }
header { border-bottom: 1px solid #ddd; }
h1 { font-size: 1.6em; margin: 0.3em 0; } h2 { font-size: 1.25em; margin: 0.6em 0 0.2em; }
p.lead { color: #333; max-width: 75em; line-height: 1.4; }
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
ul.notes { max-width: 75em; margin: 4px 0 10px; padding: 6px 14px 6px 30px; line-height: 1.4;
           background: #fff8e6; border: 1px solid #ecd9a8; border-radius: 6px; }
"""


_OVERFLOW = {"fullest": N_("moves to the fullest gauge"), "lost": N_("is lost")}
_DRAIN_GAUGE = {"skill": N_("the skill's gauge"), "roll": N_("the rolled ability's gauge")}


def _meta_html(meta: dict[str, Any], _: Callable[[str], str]) -> str:
    lang = meta["lang"]
    sw = meta["switches"]
    yes_no = {True: _("yes"), False: _("no")}
    rows = [
        (_("explodice version"), meta["version"]),
        (_("written on"), i18n.date(meta["date"], lang)),
        (_("configuration"), _(meta["source"])),
        (_("seed"), meta["seed"]),
        (
            _("disadvantage"),
            _("{reading} (the page's reading control can change it)").format(
                reading=_(sw["disadvantage"])
            ),
        ),
        (
            _("rule of 1 applies to"),
            ", ".join(_(k) for k in sw["rule_of_one_kinds"]) or _("nothing"),
        ),
        (_("a 1 on an explosion die drains too"), yes_no[sw["ones_on_explosions"]]),
        (_("excess drain"), _(_OVERFLOW[sw["overflow"]])),
        (_("a skill check drains"), _(_DRAIN_GAUGE[sw["drain_gauge"]])),
    ]
    return (
        "<dl class='meta'>"
        + "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows)
        + "</dl>"
    )


def explorer_html(data: ExplorerData) -> str:
    """The explorer page for precomputed ``data``: one HTML string, every script inlined."""
    import vl_convert
    from altair.utils._importers import vl_version_for_vl_convert

    meta = data.meta
    lang = meta["lang"]
    _ = i18n.translator(lang)
    esc = html.escape
    specs = {k: c.to_dict() for k, c in explorer_charts(data).items()}
    vl_version = vl_version_for_vl_convert()
    bundle = vl_convert.javascript_bundle(vl_version=vl_version)
    day_section = ""
    if "day" in specs:
        day_lead = _("{name}: {party}; {rolls} rolls a day.").format(
            name=_(meta["day"]), party=", ".join(meta["party"]), rolls=meta["rolls_per_day"]
        )
        day_method = _(
            "Each policy's day is <b>simulated</b>: {days} days with seed {seed} "
            "(explodice day --exact computes it exactly); the bands and the bars' whiskers are 95 % Wilson "
            "intervals (a roll type rarely made with its gauge empty has a wide one). A gauge at "
            '0 puts every roll of its abilities at disadvantage. "{own}" plays the '
            "configuration's policies; the others give every character the same one."
        ).format(
            days=esc(i18n.number(meta["days"], lang, 0)),
            seed=meta["seed"],
            own=esc(_(OWN_POLICIES)),
        )
        day_heading = _("3. The party's day")
        day_section = f"""
<section id="day-section">
  <h2>{esc(day_heading)}</h2>
  <p class="lead">{esc(day_lead)} {day_method}</p>
  <div class="controls" id="controls-day"></div>
  <div class="view" id="view-day"></div>
</section>"""
    profiles = ", ".join(f"{esc(k)} {v:+d}" for k, v in meta["profiles"].items())
    embeds = "\n".join(
        f"    vegaEmbed('#view-{k}', {json.dumps(s)}, opts).then(r => {{ views['{k}'] = r.view; }}),"
        for k, s in specs.items()
    )
    opts = {"actions": False, "renderer": "svg", "formatLocale": i18n.d3_locale(lang)}
    title = _("{title}: the explorer").format(title=meta["title"])
    intro = _(
        "3d6x (three exploding d6, advantage as a 4th die, the rule of 1) beside the d20. "
        "Change the controls; every number was computed by explodice when this file was "
        "written and the page only filters and draws them, offline. Single rolls and "
        "equivalent DCs come from the <b>exact engine</b> (the cut of the infinite "
        "explosion leaves out less than 1e-12)."
    )
    roll_lead = _(
        "Choose who rolls (a bare modifier from the slider, or a character's skill or "
        "save), the advantage state, the reading of disadvantage (<i>subtract</i>: 3 "
        "dice minus an exploding malus die; <i>drop</i>: 2 dice) and the rule-of-1 "
        "policy (<i>keep</i> every 1, <i>cancel</i> each 1 against a 6, or "
        "<i>best(λ)</i>: the cancellations that maximise P(success) − λ·E[drain] for "
        "that DC). The d20 reads the same modifier and advantage state. E[drain] is "
        "the expected number of gauge points one roll costs."
    )
    equivalent_lead = _(
        "For each profile ({profiles}), rolling without advantage and keeping "
        "its 1s: which 3d6x DC gives the odds closest to each d20 DC. The "
        "colour is the remaining gap in percentage points (blue: 3d6x easier; "
        "red: harder)."
    ).format(profiles=profiles)
    footer = _(
        "Made by explodice {version} on {date} from {source} (seed {seed}), with "
        "Vega-Lite through Altair. Share it as it is: one file, no server, nothing "
        "fetched."
    ).format(
        version=meta["version"],
        date=i18n.date(meta["date"], lang),
        source=_(meta["source"]),
        seed=meta["seed"],
    )
    notes = "".join(f"\n    <li>{esc(n)}</li>" for n in meta.get("notes", ()))
    notes_html = f'\n  <ul class="notes" id="roll-notes">{notes}\n  </ul>' if notes else ""
    headings = (
        _("1. One roll against the DC table"),
        _("2. Equivalent DCs for the configuration's profiles"),
    )
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="explodice {esc(meta["version"])}">
<title>{esc(title)}</title>
<style>{_STYLE}</style>
<script>
// Vega, Vega-Lite and vega-embed (bundled by vl-convert-python, Vega-Lite
// {vl_version}), inlined so that the page needs no network.
{bundle}
</script>
</head>
<body>
<header>
  <h1>{esc(title)}</h1>
  <p class="lead">{intro}</p>
  {_meta_html(meta, _)}
</header>
<section id="roll-section">
  <h2>{esc(headings[0])}</h2>
  <p class="lead">{roll_lead}</p>{notes_html}
  <div class="controls" id="controls-roll"></div>
  <div class="view" id="view-roll"></div>
</section>
<section id="equivalent-section">
  <h2>{esc(headings[1])}</h2>
  <p class="lead">{equivalent_lead}</p>
  <div class="view" id="view-equivalent"></div>
</section>{day_section}
<footer>
  <p>{esc(footer)}</p>
</footer>
<script>
  const views = {{}};
  const opts = {json.dumps(opts, ensure_ascii=False)};
  window.explodiceViews = views;
  window.explodiceReady = Promise.all([
{embeds}
  ]).catch(err => {{ console.error(err); throw err; }});
</script>
</body>
</html>
"""


def write_explorer(
    config: Any = None,
    out: str | os.PathLike[str] = EXPLORER_NAME,
    *,
    lang: str | None = None,
    date: str | None = None,
) -> Path:
    """Write the explorer for a report configuration (a ReportConfig, a TOML path, or
    ``None`` for the embedded default) to ``out``, whole or not at all; return its path.
    ``lang``: ``"en"`` or ``"fr"`` (default: the configuration's ``lang``)."""
    if lang is not None:
        i18n.check_lang(lang)
    out = Path(out)
    if out.is_dir():
        raise ExplodiceError(f"`out` must be a file name, but {str(out)!r} is a folder.")
    page = explorer_html(explorer_data(config, lang=lang, date=date))
    try:
        atomic_write_text(out, page)
    except OSError as err:
        raise OSError(f"cannot write the explorer to {out}: {err.strerror}") from None
    return out
