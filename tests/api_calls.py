"""A quick, valid call of every public callable of ``explodice`` (and of its results' methods),
for the tests that feed each argument wrong values: ``CALLS[name] = (function, kwargs)``.

Each call is small (exact engines, or a few hundred simulated rolls on one thread), so a test
may replace one argument at a time and call it hundreds of times. ``STRING_OPTIONS`` lists
the arguments that take a string (a choice, a name, a label); ``NONE_OK`` those where ``None``
is a valid value too.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import explodice as ex

SCORES = dict(STR=12, DEX=14, CON=10, INT=10, WIS=10, CHA=10)
HERO = ex.Character("Hero", SCORES, skills={"Stealth": 1, "Perception": 1})
DIST = ex.exact(ex.Roll(0))
SIM = ex.simulate(ex.Roll(0), n=500, seed=1, threads=1)
TABLE = ex.success_table(modifiers=[0, 1], dcs=[12, 16], advantages=["normal"])
WIDE = ex.pivot_success(TABLE)
DAY = ex.Scenario([HERO], [ex.DayRoll("Hero", ability="STR", repeat=3)])
INITIATIVE = ex.initiative({"A": 1, "B": 2})
DAY_RESULT = ex.simulate_day(DAY, n_days=50, seed=1, threads=1)
CONTEST = ex.close_contest(2, "uniform:3")
BUILD = ex.Build("Bo", SCORES, skills={"Stealth": 1}, saves=["DEX"], gauge_per_level={"PA": 2})
BUILD_DAY = ex.build_day(BUILD, rolls_per_day=3)
ARMED = ex.Character("Al", SCORES, armour="chain shirt", shield=True, attack="ranged")
MONSTER = ex.Monster(
    "Goblin",
    "1/4",
    dict(STR=8, DEX=14, CON=10, INT=10, WIS=8, CHA=8),
    ac=15,
    attacks={"Scimitar": 4},
    save_dcs={"Net": 11},
    skills={"Stealth": 6},
)
#: which readings matter, on a grid of one cell and one switch (a tenth of a second)
SENSITIVE = {
    "modifiers": [0],
    "dcs": [16],
    "advantages": ["normal"],
    "kinds": ["check"],
    "policies": ["keep"],
    "rerolls": [None],
}
SENSITIVITY = ex.sensitivity(**SENSITIVE, switches=["malus_die"], parts=["dc_table"])

QUICK_SIM = {"n": 300, "seed": 1, "threads": 1}

#: a party, and a day for it, in TOML files for the loaders
_FILES = Path(tempfile.mkdtemp(prefix="explodice-api-calls-"))
atexit.register(shutil.rmtree, _FILES, ignore_errors=True)
PARTY_FILE, DAY_FILE = _FILES / "party.toml", _FILES / "day.toml"
BUILDS_FILE = _FILES / "builds.toml"
MONSTERS_FILE = _FILES / "monsters.toml"
MONSTERS_FILE.write_text(
    '[[monster]]\nnom = "Gobelin"\nFP = "1/4"\nCA = 15\ncaracteristiques = { FOR = 8, '
    "DEX = 14, CON = 10, INT = 10, SAG = 8, CHA = 8 }\nattaques = { Cimeterre = 4 }\n",
    encoding="utf-8",
)
PARTY_FILE.write_text(
    '[[character]]\nname = "Hero"\nscores = { STR = 12, DEX = 14, CON = 10, INT = 10, '
    "WIS = 10, CHA = 10 }\n",
    encoding="utf-8",
)
DAY_FILE.write_text(
    'characters = "party.toml"\n[day]\n[[day.roll]]\ncharacter = "Hero"\nability = "STR"\n',
    encoding="utf-8",
)
BUILDS_FILE.write_text(
    '[[build]]\nname = "Bo"\nscores = { STR = 12, DEX = 14, CON = 10, INT = 10, WIS = 10, '
    'CHA = 10 }\nskills = ["Stealth"]\n',
    encoding="utf-8",
)

#: name -> (callable, the keyword arguments of a quick valid call)
CALLS: dict[str, tuple[Any, dict[str, Any]]] = {
    # rules and engines
    "Roll": (ex.Roll, {"modifier": 2, "advantage": "normal", "kind": "check", "actor": "pc"}),
    "Roll.policy": (ex.Roll, {"policy": "keep"}),
    "Best": (ex.Best, {"dc": 16, "weight": 0.1}),
    "Rules": (
        ex.Rules,
        {
            "disadvantage": "subtract",
            "overflow": "fullest",
            "drain_gauge": "skill",
            "ones_on_explosions": False,
            "close_contest": False,
        },
    ),
    "Reroll": (ex.Reroll, {"trigger": "failure", "dc": 16}),
    "exact": (ex.exact, {"roll": ex.Roll(0)}),
    "simulate": (
        ex.simulate,
        {"roll": ex.Roll(0), **QUICK_SIM, "backend": "cpu", "progress": False},
    ),
    "net_advantage": (ex.net_advantage, {"advantages": 1, "disadvantages": 0}),
    "parse_policy": (ex.parse_policy, {"value": "best:0.1", "dc": 16, "field_name": "policy"}),
    "wilson_interval": (ex.wilson_interval, {"successes": 3, "n": 10, "level": 0.95}),
    "Sampling": (ex.Sampling, {"method": "simulate", "n": 100, "seed": 1, "threads": 1}),
    "d20": (ex.d20, {"roll": ex.Roll(0), "method": "exact", "naturals": None}),
    # distributions
    "Distribution.p_success": (DIST.p_success, {"dc": 16}),
    "Distribution.ci": (SIM.ci, {"dc": 16, "level": 0.95}),
    "Distribution.quantile": (DIST.quantile, {"q": 0.5}),
    "Distribution.sf": (DIST.sf, {"x": 16}),
    "Distribution.p_drain_at_least": (DIST.p_drain_at_least, {"x": 2}),
    "Distribution.to_frame": (SIM.to_frame, {"by": "total", "level": 0.95}),
    "Distribution.success_frame": (DIST.success_frame, {"dcs": [12, 16], "level": 0.95}),
    # characters
    "Character": (
        ex.Character,
        {
            "name": "Bo",
            "scores": SCORES,
            "level": 3,
            "skills": {"Stealth": 1},
            "saves": ["DEX"],
            "actor": "pc",
            "policy": "keep",
            "load": 10.0,
            "tools": ["thieves' tools"],
            "features": ["half_proficiency"],
            "armour": "leather",
            "shield": True,
            "attack": "finesse",
            "attack_proficiency": 2,
            "attack_bonus": 1,
            "spell_ability": "WIS",
        },
    ),
    "Character.vd": (ARMED.vd, {"rules": ex.Rules(defence_base=10)}),
    "Character.attack_modifier": (ARMED.attack_modifier, {"system": "d20"}),
    "Character.attack_roll": (
        ARMED.attack_roll,
        {"vd": 14, "system": "3d6x", "advantage": "normal", "advantages": 1, "disadvantages": 0},
    ),
    "Character.roll": (
        HERO.roll,
        {
            "skill": "Stealth",
            "kind": "check",
            "advantage": "normal",
            "system": "3d6x",
            "bonus": 1,
            "dc": 15,
        },
    ),
    "Character.skill_modifier": (HERO.skill_modifier, {"skill": "Stealth", "system": "d20"}),
    "Character.save_modifier": (HERO.save_modifier, {"ability": "DEX", "system": "3d6x"}),
    "Character.modifier": (HERO.modifier, {"ability": "DEX"}),
    "ability_modifier": (ex.ability_modifier, {"score": 12}),
    "proficiency_bonus": (ex.proficiency_bonus, {"level": 5}),
    # analysis
    "success_table": (
        ex.success_table,
        {
            "modifiers": [0, 2],
            "dcs": [12, 16],
            "system": "3d6x",
            "advantages": ["normal", "advantage"],
            "readings": "both",
            "kind": "check",
            "actor": "pc",
            "policy": "keep",
            "method": "exact",
        },
    ),
    "success_table.characters": (
        ex.success_table,
        {"characters": [HERO], "tests": ["Stealth", "save DEX"], "dcs": [12]},
    ),
    "roll_distribution": (
        ex.roll_distribution,
        {"roll": ex.Roll(0), "system": "3d6x", "method": "simulate", **QUICK_SIM},
    ),
    "dc_table": (ex.dc_table, {"system": "d20"}),
    "pivot_success": (
        ex.pivot_success,
        {"table": TABLE, "index": "modifier", "columns": ["advantage", "dc"], "values": "p"},
    ),
    "unpivot_success": (ex.unpivot_success, {"wide": WIDE, "values": "p"}),
    "dc_for_probability": (
        ex.dc_for_probability,
        {"roll": ex.Roll(0), "target": 0.5, "system": "3d6x", "mode": "closest"},
    ),
    "equivalent_dc": (ex.equivalent_dc, {"roll": 2, "d20_dcs": [10, 15], "tolerance": 0.01}),
    "equivalent_dc_table": (
        ex.equivalent_dc_table,
        {"profiles": {"a": 0, "b": 4}, "reference": "b", "d20_dcs": {"x": 15}},
    ),
    "divergence": (
        ex.divergence,
        {
            "profiles": {"a": 0, "b": 4},
            "reference": "a",
            "advantages": ["advantage"],
            "readings": ["drop"],
            "d20_dcs": {"x": 15},
        },
    ),
    "suggest_dcs": (
        ex.suggest_dcs,
        {
            "targets": {"easy": 0.75},
            "reference": "trained",
            "system": "d20",
            "mode": "at_least",
        },
    ),
    "opposed": (
        ex.opposed,
        {"roll_a": ex.Roll(1), "roll_b": ex.Roll(0), "system": "3d6x", "method": "exact"},
    ),
    "passive": (ex.passive, {"roll": ex.Roll(1), "system": "d20"}),
    "passive_table": (
        ex.passive_table,
        {"modifiers": [0, 1], "system": "3d6x", "advantages": ["normal"], "readings": ["drop"]},
    ),
    "working_together": (
        ex.working_together,
        {"rolls": [ex.Roll(0), ex.Roll(2)], "dc": 16, "leader": 1, "system": "3d6x"},
    ),
    "group_success": (
        ex.group_success,
        {"rolls": [ex.Roll(0), ex.Roll(1)], "dc": 14, "system": "3d6x", "method": "exact"},
    ),
    "haggle": (
        ex.haggle,
        {"roll": ex.Roll(2), "item": "gems", "system": "3d6x", "method": "exact", "step": 10},
    ),
    "haggle_table": (
        ex.haggle_table,
        {"modifiers": [0], "items": ["gems"], "system": "3d6x", "advantage": "normal"},
    ),
    "initiative": (
        ex.initiative,
        {
            "creatures": {"A": 1, "B": 2, "C": 0},
            "sides": {"x": ["A"], "y": ["B", "C"]},
            "system": "3d6x",
            "method": "exact",
        },
    ),
    "Initiative.p_first": (INITIATIVE.p_first, {"name": "A"}),
    "hide": (
        ex.hide,
        {"stealth": ex.Roll(2), "active": [ex.Roll(0)], "passive": [12], "system": "3d6x"},
    ),
    "close_contest": (ex.close_contest, {"bids_a": 2, "bids_b": "uniform:3"}),
    "CloseContest.hp_pmf": (CONTEST.hp_pmf, {"side": "a"}),
    "close_opposed": (
        ex.close_opposed,
        {"roll_a": ex.Roll(0), "dc": 12, "bids_a": 2, "bids_b": "uniform:3", "system": "3d6x"},
    ),
    "reroll_worth": (
        ex.reroll_worth,
        {
            "modifiers": [0],
            "dcs": [16],
            "system": "3d6x",
            "trigger": "failure",
            "advantages": ["normal"],
            "policy": "keep",
        },
    ),
    "frontier": (ex.frontier, {"modifier": 0, "dc": 16, "advantage": "normal", "kind": "check"}),
    "breakpoints": (
        ex.breakpoints,
        {"modifier": 0, "dc": 16, "advantage": "advantage", "kind": "save"},
    ),
    "implied_lambda": (
        ex.implied_lambda,
        {"modifier": 0, "dc": 16, "advantage": "normal", "kind": "check"},
    ),
    "drain_frame": (ex.drain_frame, {"rolls": ex.Roll(0), "upto": 10}),
    "drain_summary": (ex.drain_summary, {"rolls": {"a": ex.Roll(0)}, "tail": (1, 5)}),
    # the day
    "DayRoll": (
        ex.DayRoll,
        {
            "character": "Hero",
            "skill": "Stealth",
            "kind": "check",
            "dc": 14,
            "weight": 2.0,
            "repeat": 2,
            "label": "sneaking",
            "tool": "thieves' tools",
        },
    ),
    "Scenario": (
        ex.Scenario,
        {
            "characters": [HERO],
            "rolls": [{"character": "Hero", "ability": "STR"}],
            "rolls_per_day": 5,
            "start": {"Hero": {"PA": 3}},
            "name": "a day",
        },
    ),
    "Scenario.character": (DAY.character, {"name": "Hero"}),
    "rolls_to_empty": (
        ex.rolls_to_empty,
        {
            "modifier": 1,
            "gauge": 4,
            "dc": 14,
            "advantage": "normal",
            "kind": "check",
            "method": "exact",
        },
    ),
    "simulate_day": (
        ex.simulate_day,
        {"scenario": DAY, "n_days": 50, "seed": 1, "threads": 1, "chunk_days": 16},
    ),
    "exact_day": (ex.exact_day, {"scenario": DAY, "distributions": False}),
    "DayResult.to_frame": (DAY_RESULT.to_frame, {"what": "gauges", "level": 0.95}),
    "sweep": (
        ex.sweep,
        {
            "grid": {"modifier": [0, 1]},
            "task": "success",
            "executor": ThreadPoolExecutor(1),
            "workers": 1,
            "seed": 3,
            "batch_seconds": 1.0,
            "progress": False,
        },
    ),
    # which readings matter
    "sensitivity": (
        ex.sensitivity,
        {
            "party": [HERO],
            "day": DAY,
            "rules": None,
            "switches": ["overflow"],
            **SENSITIVE,
            "parts": ["dc_table", "party", "day"],
            "day_method": "simulate",
            "n_days": 50,
            "seed": 1,
        },
    ),
    "Sensitivity.to_frame": (SENSITIVITY.to_frame, {"what": "detail"}),
    # across levels: builds and the designer's four questions (two levels, few tests)
    "Build": (
        ex.Build,
        {
            "name": "Bo",
            "scores": SCORES,
            "main": "DEX",
            "increases": {4: "DEX", 8: {"DEX": 1, "CON": 1}},
            "skills": {"Stealth": 1, "Perception": {1: 1, 6: 2}},
            "saves": ["DEX"],
            "tools": {"thieves' tools": 1},
            "gauge_per_level": {"PA": 2},
            "actor": "pc",
            "policy": "keep",
            "reroll": None,
            "load": 10.0,
            "features": ["half_proficiency"],
        },
    ),
    "Build.at": (BUILD.at, {"level": 3}),
    # combat: monsters by power factor
    "Monster": (
        ex.Monster,
        {
            "name": "Goblin",
            "fp": "1/4",
            "scores": dict(STR=8, DEX=14, CON=10, INT=10, WIS=8, CHA=8),
            "ac": 15,
            "hp": 7,
            "creature_type": "humanoid",
            "attacks": {"Scimitar": 4},
            "save_dcs": {"Net": 11},
            "saves": ["DEX"],
            "skills": {"Stealth": 6},
            "source": "SRD 5.1",
        },
    ),
    "Monster.vd": (MONSTER.vd, {"rules": ex.Rules()}),
    "Monster.save_dc": (MONSTER.save_dc, {"name": "Net", "system": "3d6x"}),
    "Monster.attack_roll": (
        MONSTER.attack_roll,
        {"attack": "Scimitar", "advantage": "normal", "system": "d20"},
    ),
    "Monster.save_roll": (MONSTER.save_roll, {"ability": "DEX", "advantage": "advantage"}),
    "Monster.skill_modifier": (MONSTER.skill_modifier, {"skill": "Stealth"}),
    "monsters_from_tables": (
        ex.monsters_from_tables,
        {"tables": [MONSTER.to_table()], "source": "monsters.toml", "tag": "SRD 5.1"},
    ),
    "load_monsters": (ex.load_monsters, {"path": MONSTERS_FILE}),
    "attack_odds": (
        ex.attack_odds,
        {
            "roll": ex.Roll(3, kind="attack"),
            "targets": [12, 16],
            "rules": ex.Rules(critical="two_sixes"),
            "system": "3d6x",
            "method": "simulate",
            "n": 300,
            "seed": 1,
            "threads": 1,
        },
    ),
    "attack_table": (
        ex.attack_table,
        {
            "modifiers": [2],
            "acs": [14],
            "wis": 1,
            "advantages": ["normal"],
            "readings": "both",
            "rules": ex.Rules(),
            "method": "exact",
        },
    ),
    "combat_progression": (
        ex.combat_progression,
        {
            "builds": BUILD,
            "monsters": [MONSTER],
            "levels": [1],
            "offsets": [-1],
            "saves": ["DEX"],
            "rules": ex.Rules(),
        },
    ),
    "critical_table": (
        ex.critical_table,
        {"modifier": 3, "vd": 15, "margins": [5], "advantages": ["normal"], "rules": ex.Rules()},
    ),
    "fit_defence_base": (
        ex.fit_defence_base,
        {
            "builds": BUILD,
            "monsters": {"1/4": MONSTER},
            "levels": [1],
            "offsets": [-2],
            "criterion": "minimax",
            "bases": [10, 11],
            "rules": ex.Rules(),
        },
    ),
    "srd_monsters": (ex.srd_monsters, {}),
    "typical_monster": (
        ex.typical_monster,
        {"fp": "1/4", "monsters": [MONSTER], "rules": ex.Rules()},
    ),
    "fp_table": (
        ex.fp_table,
        {"monsters": [MONSTER], "fps": ["1/4"], "builds": BUILD, "rules": ex.Rules()},
    ),
    "bestiary": (
        ex.bestiary,
        {
            "monsters": [MONSTER],
            "fp": "1/4",
            "types": None,
            "name": "gob",
            "flagged": False,
            "threshold": 0.2,
            "builds": BUILD,
            "rules": ex.Rules(),
            "per_build": True,
            "executor": "serial",
            "workers": None,
            "progress": False,
        },
    ),
    "Build.scores_at": (BUILD.scores_at, {"level": 3}),
    "Build.to_frame": (BUILD.to_frame, {"levels": [1, 4]}),
    "Build.replace": (BUILD.replace, {"name": "Al", "main": "DEX", "actor": "npc"}),
    "builds_from_tables": (
        ex.builds_from_tables,
        {"tables": [BUILD.to_table()], "source": "builds.toml"},
    ),
    "load_builds": (ex.load_builds, {"path": BUILDS_FILE}),
    "reference_builds": (ex.reference_builds, {}),
    "level_dcs": (
        ex.level_dcs,
        {
            "targets": {"moderate": 0.5, "hard": (0.3, 0.5)},
            "build": BUILD,
            "test": "Stealth",
            "levels": [1, 5],
            "system": "3d6x",
            "rules": None,
            "advantage": "normal",
        },
    ),
    "fit_save_dc": (
        ex.fit_save_dc,
        {
            "builds": [BUILD],
            "levels": [1, 5],
            "casters": ["Bo"],
            "saves": ["DEX"],
            "criterion": "least_squares",
            "bases": [8, 9, 10],
            "d20_base": 8,
            "rules": None,
        },
    ),
    "build_day": (
        ex.build_day,
        {
            "build": BUILD,
            "rolls_per_day": 3,
            "difficulty": "moderate",
            "skill_weight": 3.0,
            "save_weight": 1.0,
        },
    ),
    "build_day.__call__": (BUILD_DAY, {"level": 3}),
    "progression": (
        ex.progression,
        {
            "builds": BUILD,
            "levels": [1, 5],
            "tests": ["Stealth"],
            "targets": {"moderate": (0.5, 0.9)},
            "dcs": {"moderate": 16},
            "systems": ["3d6x"],
            "advantage": "normal",
            "rules": None,
        },
    ),
    "size_gauges": (
        ex.size_gauges,
        {
            "builds": BUILD,
            "day": BUILD_DAY,
            "risk": 0.1,
            "levels": [1],
            "character": None,
            "gauges": ["PA"],
            "rules": None,
            "executor": "serial",
            "workers": None,
            "progress": False,
        },
    ),
    "load_characters": (ex.load_characters, {"path": PARTY_FILE}),
    "load_scenario": (ex.load_scenario, {"path": DAY_FILE}),
}

#: callable name -> its arguments that take a string (a choice, a name, a label)
STRING_OPTIONS: dict[str, tuple[str, ...]] = {
    "Roll": ("advantage", "kind", "actor"),
    "Roll.policy": ("policy",),
    "Rules": ("disadvantage", "overflow", "drain_gauge"),
    "Reroll": ("trigger",),
    "simulate": ("backend",),
    "d20": ("method",),
    "Distribution.to_frame": ("by",),
    "Character": ("name", "actor", "policy", "armour", "attack", "spell_ability"),
    "Character.attack_modifier": ("system",),
    "Character.attack_roll": ("system", "advantage"),
    "Monster": ("name", "creature_type", "source"),
    "Monster.save_dc": ("name", "system"),
    "Monster.attack_roll": ("attack", "advantage", "system"),
    "Monster.save_roll": ("ability", "advantage"),
    "Monster.skill_modifier": ("skill",),
    "monsters_from_tables": ("source", "tag"),
    "attack_odds": ("system", "method"),
    "attack_table": ("readings", "method"),
    "combat_progression": ("saves",),
    "fit_defence_base": ("criterion",),
    "bestiary": ("name",),
    "critical_table": (),
    "Character.roll": ("skill", "kind", "advantage", "system"),
    "Character.skill_modifier": ("skill", "system"),
    "Character.save_modifier": ("ability", "system"),
    "Character.modifier": ("ability",),
    "success_table": ("system", "readings", "kind", "actor", "policy", "method"),
    "success_table.characters": ("tests",),
    "roll_distribution": ("system", "method"),
    "dc_table": ("system",),
    "pivot_success": ("index", "columns", "values"),
    "unpivot_success": ("values",),
    "dc_for_probability": ("system", "mode"),
    "equivalent_dc_table": ("reference",),
    "divergence": ("reference",),
    "suggest_dcs": ("reference", "system", "mode"),
    "opposed": ("system", "method"),
    "passive": ("system",),
    "passive_table": ("system",),
    "working_together": ("system", "method"),
    "group_success": ("system", "method"),
    "haggle": ("item", "system", "method"),
    "haggle_table": ("system", "advantage"),
    "initiative": ("system", "method"),
    "Initiative.p_first": ("name",),
    "hide": ("system", "method"),
    "CloseContest.hp_pmf": ("side",),
    "close_opposed": ("system", "method"),
    "reroll_worth": ("system", "trigger", "policy"),
    "frontier": ("advantage", "kind"),
    "breakpoints": ("advantage", "kind"),
    "implied_lambda": ("advantage", "kind"),
    "DayRoll": ("character", "skill", "kind", "label", "tool"),
    "Scenario": ("name",),
    "Scenario.character": ("name",),
    "rolls_to_empty": ("advantage", "kind", "method"),
    "DayResult.to_frame": ("what",),
    "Sampling": ("method",),
    "sensitivity": ("switches", "advantages", "kinds", "parts", "day_method"),
    "Sensitivity.to_frame": ("what",),
    "Build": ("name", "main", "actor", "policy"),
    "Build.replace": ("name", "main", "actor"),
    "builds_from_tables": ("source",),
    "level_dcs": ("test", "system", "advantage"),
    "fit_save_dc": ("casters", "saves", "criterion"),
    "build_day": ("difficulty",),
    "progression": ("tests", "systems", "advantage"),
    "size_gauges": ("character", "gauges"),
}

#: (callable name, argument) where None is a valid value (it means "the default")
NONE_OK = {
    ("d20", "naturals"),
    ("Character.roll", "skill"),
    ("Character.roll", "kind"),
    ("success_table", "readings"),
    ("success_table.characters", "tests"),
    ("divergence", "reference"),
    ("haggle", "item"),
    ("DayRoll", "skill"),
    ("DayRoll", "label"),
    ("DayRoll", "tool"),
    ("sweep", "workers"),
    ("Sampling", "seed"),
    ("Sampling", "threads"),
    ("sensitivity", "party"),
    ("sensitivity", "day"),
    ("sensitivity", "rules"),
    ("sensitivity", "switches"),
    ("sensitivity", "modifiers"),
    ("sensitivity", "dcs"),
    ("sensitivity", "parts"),
    ("sensitivity", "n_days"),
    ("sensitivity", "seed"),
    ("Build", "main"),
    ("Build", "increases"),
    ("Character", "armour"),
    ("Character", "spell_ability"),
    ("Character.attack_roll", "vd"),
    ("Monster.save_dc", "name"),
    ("Monster.attack_roll", "attack"),
    ("monsters_from_tables", "tag"),
    ("attack_odds", "rules"),
    ("attack_odds", "seed"),
    ("attack_odds", "threads"),
    *(("attack_table", a) for a in ("modifiers", "acs", "readings", "rules", "method")),
    *(("combat_progression", a) for a in ("builds", "monsters", "rules")),
    *(("fit_defence_base", a) for a in ("builds", "monsters", "bases", "rules")),
    *(("typical_monster", a) for a in ("monsters", "rules")),
    *(("fp_table", a) for a in ("monsters", "fps", "builds", "rules")),
    *(
        ("bestiary", a)
        for a in ("monsters", "fp", "types", "name", "builds", "rules", "executor", "workers")
    ),
    ("bestiary", "progress"),
    ("critical_table", "vd"),
    ("critical_table", "rules"),
    ("Build", "reroll"),
    ("Build.replace", "main"),
    ("level_dcs", "targets"),
    ("level_dcs", "build"),
    ("level_dcs", "test"),
    ("level_dcs", "rules"),
    ("fit_save_dc", "builds"),
    ("fit_save_dc", "casters"),
    ("fit_save_dc", "bases"),
    ("fit_save_dc", "rules"),
    ("progression", "rules"),
    *(("size_gauges", arg) for arg in ("rules", "executor", "workers", "progress")),
    ("progression", "tests"),
    ("progression", "targets"),
    ("progression", "dcs"),
    ("size_gauges", "day"),
    ("size_gauges", "character"),
    ("size_gauges", "gauges"),
    # the analyses that sample: method None is the default (exact), as in Sampling
    *(
        (name, "method")
        for name in (
            "success_table",
            "roll_distribution",
            "opposed",
            "working_together",
            "group_success",
            "haggle",
            "initiative",
            "hide",
            "close_opposed",
        )
    ),
}


#: (callable name, argument) that takes a list of strings as well as a string: a list, a set or
#: an array of strings there is the right type (its items are checked as values)
LIST_OK = {
    ("Distribution.to_frame", "by"),
    ("success_table", "readings"),
    ("success_table.characters", "tests"),
    ("pivot_success", "index"),
    ("pivot_success", "columns"),
    *(
        ("sensitivity", arg)
        for arg in ("switches", "advantages", "kinds", "parts")  # a list of them only
    ),
    ("fit_save_dc", "casters"),
    ("fit_save_dc", "saves"),
    ("attack_table", "readings"),
    ("combat_progression", "saves"),
    ("progression", "tests"),
    ("progression", "systems"),
    ("size_gauges", "gauges"),
}

#: (callable name, argument) that takes a table as well as a string (a policy {dc, weight})
MAPPING_OK = {
    ("Character", "policy"),
    ("Build", "policy"),
    ("size_gauges", "character"),  # {build: character}
}


def call(which: str, /, **changes: Any) -> Any:
    """The quick call of ``which`` with some arguments changed."""
    function, kwargs = CALLS[which]
    return function(**{**kwargs, **changes})
