"""The explorer's numbers: every table the page shows, computed when the file is written (the
exact engine for single rolls and equivalent DCs, the day engine seeded from the configuration
for the party's day); the page only filters and draws them.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.sensitivity import day_blind_spot
from explodice.core.version import __version__
from explodice.game.build import LEVELS
from explodice.game.character import ABILITIES, ProficiencyWarning
from explodice.game.rules import Roll, Rules, switches
from explodice.game.tables import DC_TABLES
from explodice.present import i18n
from explodice.present.answers import day_inputs
from explodice.present.builds import shown_builds
from explodice.present.config import ReportConfig, in_language, load_config
from explodice.present.explorer.keys import (
    POLICY_CHOICES,
    SLIDER_CLASS,
    STATES,
    PolicyChoice,
    RollClass,
    own_choice,
)
from explodice.present.i18n import Lang
from explodice.present.labels import (
    MODIFIER_CHOICE,
    OWN_POLICIES,
    REROLL,
    blind_spot_text,
    build_test_label,
    changed_readings,
    difficulty_label,
    roll_type_label,
    test_label,
)
from explodice.questions.bestiary import BestiaryInputs
from explodice.questions.combat import AttackInputs
from explodice.questions.compare import CompareInputs
from explodice.questions.day import emptying
from explodice.questions.registry import ask
from explodice.questions.roll_classes import RollClassInputs

__all__ = ["CURVE_DCS", "SLIDER", "ExplorerData", "Subject", "explorer_data"]

#: DCs drawn on the "at least" curves.
CURVE_DCS = range(1, 51)
#: The modifiers the slider offers (a character's tests may add others).
SLIDER = (-5, 15)
#: The attack view's modifiers and 5e ACs.
ATTACK_MODIFIERS = range(0, 13)
ATTACK_ACS = range(10, 25)
#: The readings of the 3d6x critical the attack view offers (``Rules.critical``).
CRITICALS: tuple[Any, ...] = ("none", "two_sixes", "three_sixes", 5, 10)
#: The day of each best(λ) choice plays Best against each roll's own DC (this one is a stand-in).
DAY_DC = 16


@dataclass(frozen=True)
class ExplorerData:
    """Every number the explorer shows, as tidy tables (precomputed; the page only filters).

    - ``subjects``: who rolls: ``who`` (a key), ``label`` (shown), ``mod3`` and ``mod20`` (the
      modifier in each system), ``modifier_text`` (both, as the disabled slider shows them),
      ``cls`` (the :class:`RollClass` key, ``kind/actor[/trigger]``, which sets the rule of 1
      and the reroll);
    - ``roll``: P(success) and the expected drain of one roll against ``need`` = DC - modifier,
      per ``system``, ``cls``, advantage ``state`` (a :class:`State` key) and ``policy`` (a
      :class:`PolicyChoice` key; d20 rows: ``"-"``);
    - ``dcs``: the typical DC tables of both systems;
    - ``equivalent``: for each profile, the 3d6x DC closest in odds to each d20 DC;
    - ``day_empty``, ``day_types``, ``day_gauges``: the party's day per policy (simulated);
    - ``meta``: title, version, date, seed, rules, language and method notes;
    - ``build_levels``: the modifiers of each build's subjects at every level, ``who``,
      ``level``, ``mod3``, ``mod20`` (the page's level control picks the row; the subjects
      table holds level 1's);
    - ``bestiary``: each monster (the configuration's ``[[monster]]`` and the SRD 5.1's)
      converted, one row per chance and item: ``name``, ``fp``, ``source``, ``ac``, ``vd``,
      ``chance``, ``item``, ``p_d20``, ``p_3d6x``, ``largest_change``, ``worst_build``
      (:func:`~explodice.bestiary` against the reference builds at level FP);
    - ``attack``: P(hit) and P(critical) of an attack (:func:`~explodice.attack_table`) per
      ``modifier`` (:data:`ATTACK_MODIFIERS`), 5e ``ac`` and the ``vd`` it reads, advantage
      ``state``, ``system`` and 3d6x ``critical`` reading (:data:`CRITICALS`; d20 rows ``"-"``:
      the natural 20).
    """

    subjects: pd.DataFrame
    roll: pd.DataFrame
    dcs: pd.DataFrame
    equivalent: pd.DataFrame
    day_empty: pd.DataFrame
    day_types: pd.DataFrame
    day_gauges: pd.DataFrame
    meta: dict[str, Any]
    build_levels: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)
    bestiary: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)
    attack: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)


@dataclass(frozen=True)
class Subject:
    """Who rolls: a key, a label, the modifier in each system and the class of its rolls;
    ``modifier_text`` is the modifier as the page shows it (``+11 (d20 +7)``)."""

    who: str
    label: str
    mod3: int
    mod20: int
    cls: RollClass
    modifier_text: str = ""


def _subjects(party: Sequence[Any], lang: Lang) -> tuple[list[Subject], list[str]]:
    """A modifier (the slider), then each character's proficient skills and saves; and the
    notes the page shows about them (a reroll trait, a save the d20 reads otherwise).

    A character with a reroll trait gives its subjects a class with that trigger: their rows
    in the roll table carry the reroll (a reroll on failure spent against each DC)."""
    _ = i18n.translator(lang)
    subjects = [Subject(MODIFIER_CHOICE, _(MODIFIER_CHOICE), 0, 0, SLIDER_CLASS)]
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
            shown = f"{r3.modifier:+d}"
            if r20.modifier != r3.modifier:
                shown = _("{modifier} (d20 {modifier_d20})").format(
                    modifier=shown, modifier_d20=f"{r20.modifier:+d}"
                )
            subjects.append(
                Subject(
                    who=f"{c.name}: {test} ({mods})",
                    label=label + (f", {_(REROLL[trait])}" if trait else ""),
                    mod3=r3.modifier,
                    mod20=r20.modifier,
                    cls=RollClass(r3.kind, r3.actor, trait, own_choice(c.policy).key),
                    modifier_text=shown,
                )
            )
    return subjects, notes


def _build_subjects(builds: Sequence[Any], lang: Lang) -> tuple[list[Subject], pd.DataFrame]:
    """Each build's tests (its proficient skills and saves; its main ability's check if it
    has none), a subject per test at level 1, and the table of their modifiers at every
    level (``who, level, mod3, mod20``). A build's rolls keep one class at every level (its
    kind, actor and reroll trait do not change with level)."""
    _ = i18n.translator(lang)
    subjects: list[Subject] = []
    rows: list[dict[str, Any]] = []
    for b in builds:
        tests = [t for t in b.tests() if t.kind != "ability"] or [b.tests()[-1]]
        trait = b.reroll.trigger if b.reroll is not None else None
        for test in tests:
            name = build_test_label(test.label, test.kind, test.ability, lang)
            label = _("{name} (build): {test}").format(name=b.name, test=name)
            who = f"{b.name} (build): {test.label}"
            cls = None
            for level in LEVELS:
                c = b.at(level)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ProficiencyWarning)  # noted per character
                    r3 = test.roll(c, dc=DAY_DC)
                    r20 = test.roll(c, dc=DAY_DC, system="d20")
                cls = RollClass(r3.kind, r3.actor, trait, own_choice(b.policy).key)
                rows.append(
                    {"who": who, "level": level, "mod3": r3.modifier, "mod20": r20.modifier}
                )
            first = rows[-len(LEVELS)]
            assert cls is not None
            subjects.append(
                Subject(
                    who=who,
                    label=label + (f", {_(REROLL[trait])}" if trait else ""),
                    mod3=first["mod3"],
                    mod20=first["mod20"],
                    cls=cls,
                )
            )
    return subjects, pd.DataFrame(rows, columns=["who", "level", "mod3", "mod20"])


def _subjects_frame(subjects: Sequence[Subject]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "who": s.who,
                "label": s.label,
                "mod3": s.mod3,
                "mod20": s.mod20,
                "modifier_text": s.modifier_text,
                "cls": s.cls.key,
            }
            for s in subjects
        ]
    )


def _needs(subjects: Sequence[Subject], cls: RollClass) -> np.ndarray:
    """The needs (DC - modifier) the page reads for a class: every DC of the curve for the
    slider's whole range and each subject's modifier in both systems."""
    of = [s for s in subjects if s.cls == cls]
    mods = {m for s in of for m in (s.mod3, s.mod20)}
    if cls == SLIDER_CLASS:  # the slider's subject: every modifier it offers
        mods |= set(range(SLIDER[0], SLIDER[1] + 1))
    needs = {dc - int(m) for dc in CURVE_DCS for m in mods}
    return np.arange(min(needs), max(needs) + 1)


def _roll_table(subjects: Sequence[Subject], rules: Rules) -> pd.DataFrame:
    """P(success) and E[drain] against need = DC - modifier, for every choice of the controls:
    the ``roll_classes`` question's table of each class of the subjects' rolls (kept in memory
    and, while a session of the cache is open, on disk: an edit that leaves a class's needs as
    they were reads it back)."""
    states = tuple((s.key, s.advantage, s.reading) for s in STATES)
    tables = []
    for cls in dict.fromkeys(s.cls for s in subjects):
        needs = tuple(int(n) for n in _needs(subjects, cls))
        inputs = RollClassInputs(cls, needs, _tried(cls), states, rules)
        tables.append(ask("roll_classes", inputs).tables["roll"])
    return pd.concat(tables, ignore_index=True)


def _tried(cls: RollClass) -> tuple[tuple[str, PolicyChoice], ...]:
    """The policies of the controls, each under its key, and the owner's own (which may be
    none of them) under :data:`OWN_POLICIES`, the control's default."""
    choices = list(POLICY_CHOICES)
    if cls.own not in {c.key for c in choices}:
        weight = float(cls.own.removeprefix("best(λ=").removesuffix(")"))
        choices.append(PolicyChoice("best", weight))
    shown = {c.key for c in POLICY_CHOICES}
    tried: list[tuple[str, PolicyChoice]] = []
    for choice in choices:
        if choice.key in shown:
            tried.append((choice.key, choice))
        if choice.key == cls.own:
            tried.append((OWN_POLICIES, choice))
    return tuple(tried)


def _dc_frame(lang: Lang) -> pd.DataFrame:
    rows = [
        {
            "system": system,
            "order": i,
            "difficulty": name,
            "label": difficulty_label(name, lang),
            "dc": dc,
        }
        for system, table in DC_TABLES.items()
        for i, (name, dc) in enumerate(table.items())
    ]
    return pd.DataFrame(rows)


def _equivalent(profiles: dict[str, int], rules: Rules, lang: Lang) -> pd.DataFrame:
    """Each profile's equivalent DCs: the ``compare`` question's (the report's page and
    ``explodice compare`` ask it too), each profile named with its modifier."""
    f = ask("compare", CompareInputs(tuple(profiles.items()), rules)).csv_table("equivalent")
    f["profile"] = [f"{name} ({mod:+d})" for name, mod in zip(f.profile, f.modifier)]
    f.insert(1, "order", f.groupby("profile", sort=False).cumcount())
    f["label"] = [difficulty_label(d, lang) for d in f.difficulty]
    return f


def _day_tables(config: Any, lang: Lang) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The party's day under each policy: its own, then each choice of the controls."""
    _ = i18n.translator(lang)
    scenario = config.day
    runs: dict[str, Any] = {OWN_POLICIES: scenario}
    for choice in POLICY_CHOICES:
        # the day plays a best(λ) against each roll's own DC
        party = tuple(
            dataclasses.replace(c, policy=choice.policy(DAY_DC)) for c in scenario.characters
        )
        runs[choice.key] = scenario.replace(characters=party)
    type_labels = {r.label: roll_type_label(r, lang) for r in scenario.rolls}
    empties, types, gauges = [], [], []
    for key, sc in runs.items():
        answer = ask("day", day_inputs(config, scenario=sc))  # the report's page asks it too
        g = answer.csv_table("gauges")
        g = g[g.can_empty]  # every gauge that can empty, its own rolls' drain or an overflow
        e = with_interval(emptying(answer))
        e["series"] = e.character + " " + e.gauge
        empties.append(e[["series", "roll", "p", "ci_low", "ci_high", "method"]].assign(policy=key))
        t = with_interval(answer.csv_table("roll_types"))
        t = t[t.rolls > 0].assign(
            type_label=lambda f: f.type.map(type_labels), state_label=lambda f: f.state.map(_)
        )
        types.append(
            t[
                ["type", "type_label", "state", "state_label", "rolls", "p", "ci_low", "ci_high"]
            ].assign(policy=key)
        )
        g = g.assign(
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


#: The bestiary's columns the explorer's monster picker reads.
BESTIARY_COLUMNS = [
    "name", "fp", "source", "ac", "vd", "chance", "item", "p_d20", "p_3d6x", "largest_change",
    "worst_build",
]  # fmt: skip


def _bestiary(config: Any) -> pd.DataFrame:
    """The configuration's monsters and the SRD's, converted (exact)."""
    from explodice.game.bestiary import srd_monsters

    builds = shown_builds(config).builds  # the report's and `bestiary CONFIG`'s builds
    inputs = BestiaryInputs((*config.monsters, *srd_monsters()), builds=builds, rules=config.rules)
    return ask("bestiary", inputs).tables["bestiary"][BESTIARY_COLUMNS]  # the report's too


def _attack_frame(rules: Rules) -> pd.DataFrame:
    """P(hit) and P(critical) of an attack per modifier, AC (and the VD it reads), advantage
    state and critical reading, 3d6x beside d20 (the d20 rows once: the natural 20)."""
    frames = []
    for critical in CRITICALS:
        inputs = AttackInputs(tuple(ATTACK_MODIFIERS), tuple(ATTACK_ACS), readings="both",
                              rules=dataclasses.replace(rules, critical=critical))  # fmt: skip
        t = ask("attack", inputs).tables["attack"]  # `explodice attack`'s answer
        for system in ("3d6x", "d20"):
            if system == "d20" and critical != CRITICALS[0]:
                continue
            frames.append(
                pd.DataFrame(
                    {
                        "modifier": t.modifier,
                        "state": t.advantage,
                        "ac": t.ac,
                        "vd": t.vd,
                        "system": system,
                        "critical": str(critical) if system == "3d6x" else "-",
                        # full precision: the same doubles as `attack --format csv`
                        "p_hit": t[f"p_hit_{system}"],
                        "p_crit": t[f"p_crit_{system}"],
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def with_interval(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``ci_low`` and ``ci_high``: a simulated answer's Wilson interval, an
    exact answer's ``p`` itself (no band to draw)."""
    if "ci_low" in frame:
        return frame
    return frame.assign(ci_low=frame.p, ci_high=frame.p)


def explorer_data(
    config: Any = None,
    *,
    lang: Lang | None = None,
    date: str | None = None,
    day: bool = True,
    monsters: bool = True,
) -> ExplorerData:
    """Compute every table of the explorer for a report configuration (default: embedded),
    with its labels in ``lang`` (default: the configuration's ``lang``).

    ``day=False`` leaves the party's day out (its tables empty), ``monsters=False`` the
    bestiary: for quick looks and tests.
    """
    if lang is not None:
        i18n.check_lang(lang)
    if not isinstance(config, ReportConfig):
        config = load_config(config)
    lang = i18n.check_lang(config.lang if lang is None else lang)
    config = in_language(config, lang)  # explodice's own names in the page's language
    subjects, notes = _subjects(config.party, lang)
    built, build_levels = _build_subjects(config.builds, lang)
    # every level's modifier of a build's subject is read by the page: the needs cover them all
    at_levels = [
        dataclasses.replace(
            s, who=f"{s.who}|{r['level']}", mod3=int(r["mod3"]), mod20=int(r["mod20"])
        )
        for s in built
        for r in build_levels[build_levels.who == s.who].to_dict("records")
    ]
    empty = pd.DataFrame()
    rules = config.rules
    # a reading the day engines do not read yet: the day is left out, and the page says why
    spot = day_blind_spot(config.day, rules) if day and config.day is not None else None
    day_tables = (
        _day_tables(config, lang)
        if day and config.day is not None and spot is None
        else (empty,) * 3
    )
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
            "close_contest": rules.close_contest,
        },
        # the readings of docs/rules.md that are not the default
        "readings": dict(changed_readings(rules)),
        # every switch's value, in declared order (the header lists them all)
        "rules_values": {sw.name: getattr(rules, sw.name) for sw in switches()},
        "day_not_computed": blind_spot_text(spot, config.day, lang) if spot else "",
        "days": config.days,
        "day_method": config.day_method,
        "day": config.day.name if config.day is not None else "",
        "party": [c.name for c in config.day.characters] if config.day is not None else [],
        "rolls_per_day": config.day.n_rolls if config.day is not None else 0,
        "profiles": dict(config.profiles),
        "notes": notes,
        "builds": [b.name for b in config.builds],
        "defence_base": rules.defence_base,
        "critical": str(rules.critical),
    }
    return ExplorerData(
        _subjects_frame(subjects + built),
        _roll_table(subjects + built + at_levels, rules),
        _dc_frame(lang),
        _equivalent(dict(config.profiles), rules, lang),
        *day_tables,
        meta=meta,
        build_levels=build_levels,
        bestiary=_bestiary(config) if monsters else empty,
        attack=_attack_frame(rules),
    )
