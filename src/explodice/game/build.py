"""Builds: one character across levels 1 to 20 (docs/rules.md, "Levels").

A :class:`Build` states how a character grows, as a designer writes it: its scores at level 1,
the ability score increases it takes and at which levels (by default 5e's custom: +2 to its
main score at levels 4, 8, 12, 16 and 19), its proficiencies in skills, saves and tools, each
from the level it is gained, and a path's gauge points per level. ``build.at(level)`` is an
ordinary :class:`~explodice.Character`, so every analysis takes it. Builds load from TOML
``[[build]]`` tables (:func:`load_builds`); the reference builds of docs/rules.md ship with the
package (:func:`reference_builds`).

A score never goes above 20 by an increase (docs/rules.md): the points an increase would add past
20 are lost, not moved to another score (5e's player would take a feat instead); the table of
:meth:`Build.to_frame` shows them in its ``capped`` column. A score above 20 at level 1 (a
creature's) stays as it is, and an increase to it is lost the same way.

>>> from explodice import Build
>>> fighter = Build("fighter", {"FOR": 16, "DEX": 12, "CON": 14, "INT": 8, "SAG": 10, "CHA": 10},
...                 skills={"Athlétisme": 1}, saves={"STR": 1, "CON": 1},
...                 gauge_per_level={"PA": 3})
>>> [fighter.at(level).skill_modifier("Athletics") for level in (1, 4, 5, 8, 17)]
[5, 6, 7, 8, 11]
>>> fighter.at(12).scores["STR"], int(fighter.to_frame().capped.sum())
(20, 6)
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast, get_args

import pandas as pd

from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_items,
    check_text,
    clip,
    fail,
    recast,
)
from explodice.core.files import parse_toml, read_text
from explodice.core.numbers import read_int
from explodice.core.words import Phrase
from explodice.game.character import (
    ABILITIES,
    GAUGES,
    SKILLS,
    Character,
    CharacterError,
    CharacterFileError,
    Feature,
    ability_modifier,
    check_policy,
    proficiency_bonus,
    read_tables,
    resolve_ability,
    resolve_skill,
)
from explodice.game.defence import AttackKind
from explodice.game.reroll import Reroll
from explodice.game.rules import Actor, Advantage, Best, Policy, Roll, check_int
from explodice.game.tables import MAX_GAUGE_PER_LEVEL, System, fold_name

__all__ = [
    "DEFAULT_INCREASE",
    "DEFAULT_INCREASE_LEVELS",
    "LEVELS",
    "SCORE_CAP",
    "Build",
    "BuildError",
    "BuildFileError",
    "BuildTypeError",
    "BuildTest",
    "TestChoice",
    "builds_from_tables",
    "builds_from_toml",
    "check_level",
    "check_levels",
    "load_builds",
    "parse_test",
    "reference_builds",
]

#: The levels of a character's career.
LEVELS = tuple(range(1, 21))
#: 5e's levels of an ability score increase, the default of a build...
DEFAULT_INCREASE_LEVELS = (4, 8, 12, 16, 19)
#: ...and the points each adds to the build's main score.
DEFAULT_INCREASE = 2
#: No increase takes a score above this (docs/rules.md, "Levels").
SCORE_CAP = 20
#: The most points one increase adds to one score (5e's is 2).
MAX_INCREASE = 10
#: The most a proficiency multiplier can be, by table: 3d6x adds PB at most twice; a tool once.
_MULTIPLIER_MAX = {"skills": 2, "saves": 2, "tools": 1}
#: Words that mark a save, or an ability check without a skill, in a test's name (EN, FR).
_SAVE_MARKS = {"save", "saving", "js", "jds", "sauvegarde"}
_SAVE_WORDS = _SAVE_MARKS | {"throw", "jet", "de"}
_CHECK_WORDS = {"check", "ability", "test", "caracteristique", "de"}


class BuildError(CharacterError):
    """A build was given a value the rules do not allow; ``field`` names the key."""


class BuildFileError(CharacterFileError):
    """A TOML file of builds is malformed: the message names the file, the key and the problem."""


class BuildTypeError(BuildError, ExplodiceTypeError):
    """A build was given a value of the wrong type (a number for its name, say)."""


def _fail(
    field_name: str, value: Any, allowed: str | Phrase, *, wrong_type: bool = False
) -> ExplodiceError:
    return fail(field_name, value, allowed, BuildError, wrong_type=wrong_type)


def _int(field_name: str, value: Any, lo: int, hi: int) -> int:
    return check_int(field_name, value, lo=lo, hi=hi, error=BuildError)


def _level(field_name: str, key: Any, lo: int = 1) -> int:
    """A level given as an int, or as the digits TOML keys are (``{ 4 = "STR" }``)."""
    if isinstance(key, str):
        try:
            key = read_int(key, signed=False)
        except ValueError:  # not ASCII digits ("²", "٥", "four"): refused below, as written
            pass
    return _int(field_name, key, lo, LEVELS[-1])


def check_level(level: Any, field_name: str = "level") -> int:
    """``level`` as an int in 1..20, or the error naming it (the digits of a TOML key, such
    as ``"4"``, are read as a level only inside a build's tables)."""
    return _int(field_name, level, 1, LEVELS[-1])


def check_levels(levels: Any, field_name: str = "levels") -> list[int]:
    """Levels (an int or a list of them, each 1..20), unique, in the order given.

    >>> check_levels(5), check_levels(range(1, 4))
    ([5], [1, 2, 3])
    """
    if isinstance(levels, numbers.Integral) and not isinstance(levels, bool):
        levels = [levels]
    items = check_items(field_name, levels, what=Phrase("levels in 1..20"), error=BuildError)
    out = [check_level(v, field_name) for v in items]
    if len(set(out)) != len(out):
        raise _fail(field_name, out, Phrase("levels in 1..20, each given once"))
    return out


# -- what a build is tested on --------------------------------------------------------------
TestKind = Literal["check", "ability", "save"]
TEST_KINDS: tuple[TestKind, ...] = get_args(TestKind)


@dataclass(frozen=True)
class BuildTest:
    """One test a build is measured on: a skill check, an ability check or a save.

    ``kind`` is ``"check"`` (with ``skill``), ``"ability"`` (an ability check without a
    skill) or ``"save"``; :func:`parse_test` reads one from its name.

    >>> BuildTest("save", "DEX").label, parse_test("Discrétion").label, parse_test("FOR").label
    ('DEX save', 'Stealth', 'STR check')
    """

    kind: TestKind
    ability: str
    skill: str | None = None

    def __post_init__(self) -> None:
        check_choice("test.kind", self.kind, TEST_KINDS, BuildError)
        object.__setattr__(self, "ability", resolve_ability(self.ability))
        if (self.kind == "check") != (self.skill is not None):
            raise _fail(
                "test.skill", self.skill, Phrase("a skill for a check, and only for a check")
            )
        if self.skill is not None:
            skill = resolve_skill(self.skill)
            if SKILLS[skill] != self.ability:
                raise _fail(
                    "test.ability",
                    self.ability,
                    Phrase("{SKILLS}, {skill}'s ability", SKILLS=SKILLS[skill], skill=skill),
                )
            object.__setattr__(self, "skill", skill)

    @property
    def label(self) -> str:
        """The test's name in tables: the skill, ``"DEX save"`` or ``"STR check"``."""
        if self.skill is not None:
            return self.skill
        return f"{self.ability} {'save' if self.kind == 'save' else 'check'}"

    def roll(
        self,
        character: Character,
        *,
        dc: int,
        system: System = "3d6x",
        advantage: Advantage = "normal",
    ) -> Roll:
        """The character's :class:`Roll` of this test against ``dc``: a ``Best`` policy is
        played against that DC, and a reroll on failure spent against it."""
        roll = character.roll(
            self.skill,
            ability=None if self.skill is not None else self.ability,
            kind=self.kind,
            dc=dc,
            system=system,
            advantage=advantage,
        )
        if isinstance(roll.policy, Best) and roll.policy.dc != dc:
            roll = roll.replace(policy=Best(dc, roll.policy.weight))
        return roll

    def proficiency(self, character: Character) -> int:
        """The character's proficiency multiplier in this test (0 for an ability check)."""
        if self.skill is not None:
            return character.skills.get(self.skill, 0)
        return character.saves.get(self.ability, 0) if self.kind == "save" else 0


#: Which tests of each build a levels question measures: ``"main"`` (each build's main test),
#: ``None`` (every test of each build) or the tests named.
TestChoice = Literal["main"] | tuple[BuildTest, ...] | None


def parse_test(spec: Any, field_name: str = "test") -> BuildTest:
    """A :class:`BuildTest` from its name, in English or French: a skill (``"Stealth"``,
    ``"Discrétion"``), a save (``"DEX save"``, ``"JS DEX"``, ``"save: SAG"``) or an ability
    check without a skill (``"STR"``, ``"STR check"``, ``"test de FOR"``).

    >>> parse_test("JS SAG"), parse_test("athletics").kind
    (BuildTest(kind='save', ability='WIS', skill=None), 'check')
    """
    if isinstance(spec, BuildTest):
        return spec
    if isinstance(spec, str):
        try:
            skill = resolve_skill(spec)
        except CharacterError:
            skill = None
        if skill is not None:
            return BuildTest("check", SKILLS[skill], skill)
        words = fold_name(spec.replace(":", " ").replace("(", " ").replace(")", " ")).split()
        abilities = [a for a in (_ability_or_none(w) for w in words) if a is not None]
        rest = {w for w in words if _ability_or_none(w) is None}
        if len(abilities) == 1:
            if rest & _SAVE_MARKS and rest <= _SAVE_WORDS:
                return BuildTest("save", abilities[0])
            if rest <= _CHECK_WORDS:
                return BuildTest("ability", abilities[0])
    raise _fail(
        field_name,
        spec,
        Phrase(
            "a skill (Stealth, Discrétion...), a save (DEX save, JS DEX) or an "
            "ability check (STR, STR check)"
        ),
        wrong_type=not isinstance(spec, str),
    )


def _ability_or_none(word: str) -> str | None:
    try:
        return resolve_ability(word)
    except CharacterError:
        return None


# -- the build --------------------------------------------------------------------------------
def _steps(field_name: str, value: Any, resolve: Any, hi: int) -> Mapping[str, Mapping[int, int]]:
    """``{name: multiplier}`` or ``{name: {level: multiplier}}`` as ``{name: {level: m}}``
    (a plain multiplier holds from level 1), names resolved, levels sorted; a list of names
    is proficient once each from level 1, as in TOML (``saves = ["DEX", "INT"]``)."""
    allowed = Phrase("a table of names to multipliers (or to {{level = m}}), or a list of names")
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise _fail(field_name, value, allowed, wrong_type=True)
    else:
        try:
            items = [(key, 1) for key in value]
        except TypeError:  # a 0-d array
            raise _fail(field_name, value, allowed, wrong_type=True) from None
    out: dict[str, Mapping[int, int]] = {}
    for key, steps in items:
        where = f"{field_name}.{key}" if isinstance(key, str) else field_name
        name = resolve(key, field_name=where)
        if name in out:
            raise _fail(where, key, Phrase("given once (it repeats {name})", name=name))
        out[name] = _step_table(where, steps, hi)
    return MappingProxyType(out)


def _step_table(where: str, steps: Any, hi: int) -> Mapping[int, int]:
    """A multiplier 0..hi from level 1, or a table ``{level: multiplier}``, as
    ``{level: multiplier}`` with its levels sorted."""
    if isinstance(steps, Mapping):
        if not steps:
            raise _fail(where, steps, Phrase("a multiplier, or a table {{level = multiplier}}"))
        table = {}
        for lv, m in steps.items():
            level = _level(f"{where}.{lv}", lv)
            if level in table:
                raise _fail(f"{where}.{lv}", lv, Phrase("a level given once"))
            table[level] = _int(f"{where}.{lv}", m, 0, hi)
    else:
        table = {1: _int(where, steps, 0, hi)}
    return MappingProxyType(dict(sorted(table.items())))


def _at(steps: Mapping[int, int], level: int) -> int:
    """The multiplier a step table gives at ``level`` (0 before its first level)."""
    held = 0
    for lv, m in steps.items():
        if lv > level:
            break
        held = m
    return held


def _gauge(name: Any, *, field_name: str) -> str:
    if not isinstance(name, str) or name.upper() not in GAUGES:
        allowed = Phrase("a gauge: one of {GAUGES}", GAUGES=list(GAUGES))
        raise _fail(field_name, name, allowed, wrong_type=not isinstance(name, str))
    return name.upper()


@dataclass(frozen=True, repr=False)
class Build:
    """A character across levels 1 to 20: ``build.at(level)`` is a :class:`Character`.

    - ``scores``: the six scores at level 1 (English or French names).
    - ``main``: the build's main ability (default: its highest score at level 1; a tie must
      be settled by giving it); it takes the default increases, and it is the caster's
      ability of :func:`~explodice.fit_save_dc`.
    - ``increases``: ``{level: ability}`` (+2 to it) or ``{level: {ability: points}}``, at
      levels 2..20; ``None`` (the default) is +2 to ``main`` at 4, 8, 12, 16 and 19, and
      ``{}`` none. No increase takes a score above 20: the excess is lost (``to_frame``'s
      ``capped`` column).
    - ``skills``, ``saves``: ``{name: multiplier}`` from level 1, or ``{name: {level:
      multiplier}}`` for a proficiency gained later (``{"Perception": {1: 1, 6: 2}}``: trained
      at 1, twice from 6); ``tools`` the same, multiplier 0 or 1.
    - ``gauge_per_level``: a path's points per level of each gauge; a gauge's maximum at level
      L is its ability's score at L plus points x L (docs/rules.md, Gauges).
    - ``actor``, ``policy``, ``reroll``, ``load``, ``features``: as :class:`Character`'s.
    - ``armour``, ``shield``, ``attack``, ``attack_bonus``, ``spell_ability``: as
      :class:`Character`'s (docs/rules.md, "Combat"); ``spell_ability`` defaults to ``main``;
      ``attack_proficiency`` is 0, 1 or 2, or ``{level: multiplier}`` for one gained later.
      ``build.at(level).vd(rules)`` and ``.attack_modifier()`` give the VD and the attack.

    >>> rogue = Build("rogue", dict(STR=8, DEX=16, CON=14, INT=12, WIS=12, CHA=10),
    ...               skills={"Stealth": 2, "Perception": {1: 1, 6: 2}}, saves=["DEX", "INT"],
    ...               gauge_per_level={"PA": 2})
    >>> rogue.main, rogue.at(6).skill_modifier("Perception"), rogue.at(20).gauges()["PA"]
    ('DEX', 7, 54)
    """

    name: str
    scores: Mapping[str, int]
    _: KW_ONLY
    main: str | None = None
    increases: Mapping[Any, Any] | None = None
    skills: Mapping[str, Any] = field(default_factory=dict)
    saves: Mapping[str, Any] | Iterable[str] = field(default_factory=dict)
    tools: Mapping[str, Any] = field(default_factory=dict)
    gauge_per_level: Mapping[str, int] = field(default_factory=dict)
    actor: Actor = "pc"
    policy: Policy = "keep"
    reroll: Reroll | None = None
    load: float = 0.0
    features: frozenset[Feature] = frozenset()
    armour: str | None = None
    shield: bool = False
    attack: AttackKind = "melee"
    attack_proficiency: Any = 1
    attack_bonus: int = 0
    spell_ability: str | None = None
    # set by _validate: each level's (scores, points capped) and its Character
    _rows: tuple[tuple[dict[str, int], int], ...] = field(init=False, repr=False, compare=False)
    _characters: tuple[Character, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            self._validate()
        except CharacterError as err:  # a character's check (an ability, the actor...)
            if isinstance(err, BuildError):
                raise
            raise recast(err, BuildError) from None

    def _validate(self) -> None:
        set_ = object.__setattr__
        check_text("name", self.name, error=BuildError)
        if not isinstance(self.scores, Mapping):
            raise _fail(
                "scores",
                self.scores,
                Phrase("a table of the six abilities to scores"),
                wrong_type=True,
            )
        scores: dict[str, int] = {}
        for key, value in self.scores.items():
            ability = resolve_ability(key, field_name=f"scores.{key}")
            if ability in scores:
                raise _fail(
                    f"scores.{key}",
                    key,
                    Phrase("given once (it repeats {ability})", ability=ability),
                )
            scores[ability] = _int(f"scores.{key}", value, 1, 30)
        missing = [a for a in ABILITIES if a not in scores]
        if missing:
            raise _fail(
                "scores",
                dict(self.scores),
                Phrase(
                    "a score for each of {ABILITIES} (missing {missing})",
                    ABILITIES=list(ABILITIES),
                    missing=missing,
                ),
            )
        set_(self, "scores", MappingProxyType({a: scores[a] for a in ABILITIES}))
        if self.main is None:
            top = max(scores.values())
            tied = [a for a in ABILITIES if scores[a] == top]
            if len(tied) > 1:
                raise _fail(
                    "main",
                    None,
                    Phrase(
                        "the build's main ability: its highest scores tie ({tied})",
                        tied=", ".join(tied),
                    ),
                )
            set_(self, "main", tied[0])
        else:
            set_(self, "main", resolve_ability(self.main, field_name="main"))
        if self.increases is not None:
            set_(self, "increases", self._increases(self.increases))
        for table in ("skills", "saves", "tools"):
            value = getattr(self, table)
            resolve = {"skills": resolve_skill, "saves": resolve_ability, "tools": _tool}[table]
            set_(self, table, _steps(table, value, resolve, _MULTIPLIER_MAX[table]))
        set_(self, "policy", check_policy("policy", self.policy))
        set_(
            self,
            "attack_proficiency",
            _step_table("attack_proficiency", self.attack_proficiency, 2),
        )
        if self.spell_ability is None and self.attack == "spell":
            set_(self, "spell_ability", self.main)
        if not isinstance(self.gauge_per_level, Mapping):
            raise _fail(
                "gauge_per_level",
                self.gauge_per_level,
                Phrase("a table of gauges to points"),
                wrong_type=True,
            )
        per_level = {}
        for key, value in self.gauge_per_level.items():
            g = _gauge(key, field_name=f"gauge_per_level.{key}")
            if g in per_level:  # {PA = 1, pa = 2}: as a character, never the last one wins
                raise _fail(
                    f"gauge_per_level.{key}", key, Phrase("given once (it repeats {g})", g=g)
                )
            per_level[g] = _int(f"gauge_per_level.{key}", value, 0, MAX_GAUGE_PER_LEVEL)
        set_(self, "gauge_per_level", MappingProxyType(per_level))
        rows, characters = [], []
        held = dict(scores)
        for level in LEVELS:
            capped = 0
            for ability, points in self.ability_increases.get(level, {}).items():
                new = max(held[ability], min(SCORE_CAP, held[ability] + points))
                capped += points - (new - held[ability])
                held[ability] = new
            rows.append((dict(held), capped))
            characters.append(self._character(level, held))
        first = characters[0]  # the fields Character validates, as it normalised them
        set_(self, "reroll", first.reroll)
        set_(self, "load", first.load)
        set_(self, "features", first.features)
        set_(self, "armour", first.armour)
        set_(self, "shield", first.shield)
        set_(self, "spell_ability", first.spell_ability)
        set_(self, "_rows", tuple(rows))
        set_(self, "_characters", tuple(characters))

    @staticmethod
    def _increases(value: Any) -> Mapping[int, Mapping[str, int]]:
        if not isinstance(value, Mapping):
            raise _fail(
                "increases",
                value,
                Phrase("a table {{level = ability}} or {{level = {{ability = n}}}}"),
                wrong_type=True,
            )
        out: dict[int, Mapping[str, int]] = {}
        for key, what in value.items():
            where = f"increases.{key}"
            level = _level(where, key, lo=2)
            if level in out:
                raise _fail(where, key, Phrase("a level given once"))
            if isinstance(what, str):
                what = {what: DEFAULT_INCREASE}
            if not isinstance(what, Mapping) or not what:
                allowed = Phrase("an ability (+2 to it) or a table {{ability = points}}")
                raise _fail(where, what, allowed, wrong_type=not isinstance(what, Mapping))
            points: dict[str, int] = {}
            for ab, n in what.items():
                ability = resolve_ability(ab, field_name=f"{where}.{ab}")
                if ability in points:
                    raise _fail(
                        f"{where}.{ab}",
                        ab,
                        Phrase("given once (it repeats {ability})", ability=ability),
                    )
                points[ability] = _int(f"{where}.{ab}", n, 1, MAX_INCREASE)
            out[level] = MappingProxyType(points)
        return MappingProxyType(dict(sorted(out.items())))

    @property
    def _saves(self) -> Mapping[str, Mapping[int, int]]:
        # _validate stores ``saves`` as {ability: {level: multiplier}}; the field's type is what
        # the constructor accepts (a list of names too), which a dataclass cannot tell apart
        return cast(Mapping[str, Mapping[int, int]], self.saves)

    def _character(self, level: int, scores: Mapping[str, int]) -> Character:
        def held(table: Mapping[str, Mapping[int, int]]) -> dict[str, int]:
            return {k: m for k, steps in table.items() if (m := _at(steps, level))}

        return Character(
            self.name,
            dict(scores),
            level=level,
            skills=held(self.skills),
            saves=held(self._saves),
            gauge_per_level=dict(self.gauge_per_level),
            actor=self.actor,
            policy=self.policy,
            reroll=self.reroll,
            load=self.load,
            tools=held(self.tools),
            features=self.features,
            armour=self.armour,
            shield=self.shield,
            attack=self.attack,
            attack_proficiency=_at(self.attack_proficiency, level),
            attack_bonus=self.attack_bonus,
            spell_ability=self.spell_ability,
        )

    # -- the build at a level ----------------------------------------------------------------
    @property
    def ability_increases(self) -> Mapping[int, Mapping[str, int]]:
        """The increases the build takes, ``{level: {ability: points}}``: the stated ones, or
        the default (+2 to ``main`` at 4, 8, 12, 16 and 19)."""
        if self.increases is not None:
            return self.increases
        main = self.main
        assert main is not None
        return MappingProxyType({lv: {main: DEFAULT_INCREASE} for lv in DEFAULT_INCREASE_LEVELS})

    def at(self, level: int) -> Character:
        """The build at ``level`` (1..20): an ordinary :class:`Character`.

        >>> Build("Bo", dict(STR=10, DEX=10, CON=10, INT=17, WIS=10, CHA=10)).at(8).scores["INT"]
        20
        """
        return self._characters[check_level(level) - 1]

    def scores_at(self, level: int) -> dict[str, int]:
        """The six scores at ``level``, increases applied."""
        return dict(self._rows[check_level(level) - 1][0])

    def tests(self) -> tuple[BuildTest, ...]:
        """The tests a build is measured on by default: every skill and every save it is
        proficient in at some level, then its main ability's check (without a skill)."""
        skills = [
            BuildTest("check", SKILLS[s], s) for s, st in self.skills.items() if any(st.values())
        ]
        saves = [BuildTest("save", a) for a, st in self._saves.items() if any(st.values())]
        main = self.main
        assert main is not None
        return (*skills, *saves, BuildTest("ability", main))

    def main_test(self) -> BuildTest:
        """The build's test on its main ability: its most proficient skill of that ability at
        level 1 (the first given, on a tie), else the ability's check without a skill.

        >>> Build("Bo", dict(STR=16, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
        ...       skills={"Intimidation": 1, "Athletics": 1}).main_test().label
        'Athletics'
        """
        main = self.main
        assert main is not None
        best: BuildTest | None = None
        held = 0
        for skill, steps in self.skills.items():
            if SKILLS[skill] == main and _at(steps, 1) > held:
                best, held = BuildTest("check", main, skill), _at(steps, 1)
        return best or BuildTest("ability", main)

    def to_frame(self, levels: Iterable[int] = LEVELS) -> pd.DataFrame:
        """One row per level: ``level``, ``pb``, the six scores and their modifiers
        (``STR_mod`` ...), ``capped`` (points an increase lost to the cap of 20 at that
        level) and the gauge maxima ``PA PM PF PH``.

        >>> Build("Bo", dict(STR=19, DEX=10, CON=10, INT=10, WIS=10, CHA=10)).to_frame(
        ...     [3, 4]).loc[:, ["level", "STR", "STR_mod", "capped", "PA"]].values.tolist()
        [[3, 19, 4, 0, 10], [4, 20, 5, 1, 10]]
        """
        rows = []
        for level in check_levels(levels):
            scores, capped = self._rows[level - 1]
            row: dict[str, Any] = {"build": self.name, "level": level}
            row["pb"] = proficiency_bonus(level)
            row.update(scores)
            row.update({f"{a}_mod": ability_modifier(scores[a]) for a in ABILITIES})
            row["capped"] = capped
            row.update(self.at(level).gauges())
            rows.append(row)
        out = pd.DataFrame(rows)
        out.attrs.update({"build": self.name, "main": self.main})
        return out

    def replace(self, **changes: Any) -> Build:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    # -- as data ------------------------------------------------------------------------------
    def to_table(self) -> dict[str, Any]:
        """The build as a ``[[build]]`` table (plain dicts, lists and scalars, as TOML reads
        them): :func:`builds_from_tables` gives it back.

        >>> b = Build("Bo", dict(STR=16, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        >>> builds_from_tables([b.to_table()])[0] == b
        True
        """

        def steps(table: Mapping[str, Mapping[int, int]]) -> dict[str, Any]:
            return {
                k: (st[1] if list(st) == [1] else {str(lv): m for lv, m in st.items()})
                for k, st in table.items()
            }

        out: dict[str, Any] = {"name": self.name, "main": self.main, "scores": dict(self.scores)}
        if self.increases is not None:
            out["increases"] = {str(lv): dict(pts) for lv, pts in self.increases.items()}
        for key in ("skills", "saves", "tools"):
            if getattr(self, key):
                out[key] = steps(getattr(self, key))
        if self.gauge_per_level:
            out["gauge_per_level"] = dict(self.gauge_per_level)
        out["actor"] = self.actor
        out["policy"] = (
            {"dc": self.policy.dc, "weight": self.policy.weight}
            if isinstance(self.policy, Best)
            else self.policy
        )
        if self.reroll is not None:
            rr = self.reroll
            out["reroll"] = (
                "one"
                if rr.trigger == "one"
                else {
                    k: v
                    for k, v in (("trigger", "failure"), ("dc", rr.dc), ("per_day", rr.per_day))
                    if v is not None
                }
            )
        if self.load:
            out["load"] = self.load
        if self.features:
            out["features"] = sorted(self.features)
        if self.armour is not None:
            out["armour"] = self.armour
        if self.shield:
            out["shield"] = True
        out["attack"] = self.attack
        held = self.attack_proficiency
        out["attack_proficiency"] = (
            held[1] if list(held) == [1] else {str(lv): m for lv, m in held.items()}
        )
        if self.attack_bonus:
            out["attack_bonus"] = self.attack_bonus
        if self.spell_ability is not None:
            out["spell_ability"] = self.spell_ability
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        # the validated mappings are read-only proxies, which pickle refuses: go through the
        # table (a Build travels to a sweep's worker processes or a Dask cluster)
        return (_from_table, (self.to_table(),))

    def __hash__(self) -> int:
        return hash(_frozen(self.to_table()))

    def __repr__(self) -> str:
        scores = " ".join(f"{a} {self.scores[a]}" for a in ABILITIES)
        inc = (
            "default" if self.increases is None else {k: dict(v) for k, v in self.increases.items()}
        )
        return (
            f"Build({self.name!r}, main {self.main}, {scores}, increases={inc}, "
            f"skills={_plain(self.skills)}, saves={_plain(self._saves)}, "
            f"gauge_per_level={dict(self.gauge_per_level)}, policy={self.policy}"
            + (f", reroll={self.reroll!r}" if self.reroll is not None else "")
            + (f", tools={_plain(self.tools)}" if self.tools else "")
            + ")"
        )

    def _repr_html_(self) -> str:
        frame = self.to_frame().drop(columns=["build"]).set_index("level")
        skills = ", ".join(f"{s} {_plain_steps(st)}" for s, st in self.skills.items())
        saves = ", ".join(f"{a} {_plain_steps(st)}" for a, st in self._saves.items())
        head = (
            f"<b>{html.escape(self.name)}</b> — main {self.main}, {self.actor}, policy "
            f"{html.escape(str(self.policy))}<br>skills: {html.escape(skills or '—')}<br>"
            f"saves: {html.escape(saves or '—')}<br>gauge points per level: "
            f"{html.escape(str(dict(self.gauge_per_level)) if self.gauge_per_level else '—')}"
        )
        return f"<div>{head}{frame.to_html()}</div>"


def _tool(name: Any, *, field_name: str) -> str:
    check_text(
        field_name, name, what=Phrase("the name of a tool (a non-empty string)"), error=BuildError
    )
    return fold_name(name)


def _plain_steps(steps: Mapping[int, int]) -> Any:
    return steps[1] if list(steps) == [1] else dict(steps)


def _plain(table: Mapping[str, Mapping[int, int]]) -> dict[str, Any]:
    return {k: _plain_steps(st) for k, st in table.items()}


def _frozen(value: Any) -> Any:
    """A hashable copy of a table of plain values."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _from_table(table: dict[str, Any]) -> Build:
    return builds_from_tables([table], source="<pickle>")[0]


# -- TOML -------------------------------------------------------------------------------------
_TOML_KEYS = (
    "name",
    "main",
    "scores",
    "increases",
    "skills",
    "saves",
    "tools",
    "gauge_per_level",
    "actor",
    "policy",
    "reroll",
    "load",
    "features",
    "armour",
    "shield",
    "attack",
    "attack_proficiency",
    "attack_bonus",
    "spell_ability",
)
_NOT_FOR_BUILDS = {
    "level": Phrase("absent: a build spans levels 1-20 (build.at(level) is the character at one)"),
    "gauge_max": Phrase(
        "absent: a build's maxima grow with level (score + gauge_per_level x level)"
    ),
}


def builds_from_tables(tables: Any, *, source: str = "<tables>") -> list[Build]:
    """Builds from parsed ``[[build]]`` tables (a list of dicts, as ``tomllib`` reads them);
    errors name ``source``, the table, the key and the problem.

    >>> [b.main for b in builds_from_tables([{"name": "Bo", "scores": dict(
    ...     FOR=10, DEX=14, CON=10, INT=10, SAG=10, CHA=10), "skills": ["Discrétion"]}])]
    ['DEX']
    """
    check_text("source", source, what=Phrase("a name for the tables in messages"), error=BuildError)
    return read_tables(
        tables,
        source=source,
        table="build",
        keys=_TOML_KEYS,
        make=lambda kw: Build(kw.pop("name"), kw.pop("scores"), **kw),
        error=BuildFileError,
        refused=_NOT_FOR_BUILDS,
    )


def builds_from_toml(text: str, *, source: str = "<string>") -> list[Build]:
    """Builds from TOML text of ``[[build]]`` tables (see :func:`load_builds`)."""
    data = parse_toml(text, source=source, error=BuildFileError)
    extra = [k for k in data if k != "build"]
    if extra:
        raise BuildFileError(
            Phrase(
                "{source}: `{extra}`: unknown top-level key; the file holds [[build]] tables.",
                source=source,
                extra=clip(extra[0]),
            )
        )
    return builds_from_tables(data.get("build"), source=source)


def load_builds(path: str | Path) -> list[Build]:
    """Read builds from a TOML file of ``[[build]]`` tables. Keys as a ``[[character]]``
    table's (English; scores, skills and saves named in English or French), less ``level``
    and ``gauge_max``, plus ``main`` and ``increases``; a proficiency gained later is a table
    ``{level = multiplier}``. Errors name the file, the table, the key and the problem::

        [[build]]
        name = "rogue"
        main = "DEX"
        scores = { FOR = 8, DEX = 16, CON = 14, INT = 12, SAG = 12, CHA = 10 }
        increases = { 4 = "DEX", 8 = "DEX", 12 = { CON = 2 }, 16 = "CON", 19 = "SAG" }
        skills = { "Discrétion" = 2, Perception = { 1 = 1, 6 = 2 }, Acrobatics = 1 }
        saves = ["DEX", "INT"]
        gauge_per_level = { PA = 2 }
        policy = "cancel"
    """
    return builds_from_toml(read_text(path, error=BuildFileError), source=str(path))


def reference_builds() -> list[Build]:
    """The reference builds of docs/rules.md, as shipped in ``explodice/data/builds.toml``: a
    fighter (STR; PA), a rogue (DEX; expert Stealth; PA), a mage (INT; PM), a priest (WIS; PF)
    and an envoy (CHA; PH). Examples to copy and edit, not rules of the game.

    >>> [(b.name, b.main) for b in reference_builds()]
    [('fighter', 'STR'), ('rogue', 'DEX'), ('mage', 'INT'), ('priest', 'WIS'), ('envoy', 'CHA')]
    """
    text = resources.files("explodice").joinpath("data/builds.toml").read_text("utf-8")
    return builds_from_toml(text, source="explodice/data/builds.toml")
