"""A scenario: the rolls of an adventuring day (between two long rests) for a party.

A :class:`Scenario` holds characters and roll types (:class:`DayRoll`). Either the roll types
are the day's sequence, in order (``repeat`` copies each), or, with ``rolls_per_day``, each of
that many rolls is drawn from them by ``weight``. Both are frozen and validated when built;
:func:`load_scenario` reads one from TOML (the party in the same file or another) and names
the file, the key and the problem.

>>> from explodice import Character
>>> hero = Character("Hero", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8))
>>> s = Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=16, repeat=3)])
>>> s.n_rolls, s.rolls[0].gauge, s.roll_of(0).modifier
(3, 'PA', 2)
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from explodice.core.errors import (
    ExplodiceTypeError,
    check_choice,
    check_text,
    clip,
    fail,
    listed,
    message_of,
    recast,
    shown,
)
from explodice.core.files import check_path, parse_toml, read_toml
from explodice.core.words import Phrase
from explodice.game.character import (
    ABILITY_GAUGE,
    GAUGES,
    SKILLS,
    Character,
    CharacterFileError,
    characters_from_tables,
    drain_gauge,
    load_characters,
    resolve_ability,
    resolve_skill,
)
from explodice.game.rules import (
    KINDS,
    Best,
    ExplodiceError,
    Roll,
    RollKind,
    Rules,
    check_int,
    net_advantage,
)
from explodice.game.tables import MAX_GAUGE

__all__ = [
    "DayRoll",
    "Scenario",
    "ScenarioError",
    "ScenarioFileError",
    "ScenarioTypeError",
    "default_scenario",
    "load_scenario",
    "scenario_from_tables",
]

#: The largest weight of a roll type in a mix (weights are relative: 1e9 to 1 is plenty).
MAX_WEIGHT = 1e9


class ScenarioError(ExplodiceError):
    """A scenario or one of its rolls was given a value that is not allowed."""


class ScenarioTypeError(ScenarioError, ExplodiceTypeError):
    """A scenario or one of its rolls was given a value of the wrong type."""


class ScenarioFileError(ExplodiceError):
    """A scenario TOML file is malformed: the message names the file, the key and the problem."""


def _fail(
    field_name: str, value: Any, allowed: str | Phrase, *, wrong_type: bool = False
) -> ExplodiceError:
    return fail(field_name, value, allowed, ScenarioError, wrong_type=wrong_type)


def _iterable(value: Any) -> bool:
    """A list-like value (not a string, not a mapping, not a 0-d array)."""
    if isinstance(value, (str, bytes, Mapping)):
        return False
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _int(field_name: str, value: Any, lo: int, hi: int | None = None) -> int:
    return check_int(field_name, value, lo=lo, hi=hi, error=ScenarioError)


@dataclass(frozen=True)
class DayRoll:
    """One type of roll in a day: who rolls, what (skill or ability, kind), against which DC.

    ``skill`` (French or English) sets the ability unless ``ability`` is given; a save or an
    attack needs ``ability``. ``advantages``/``disadvantages`` count the roll's own sources
    (a gauge at 0 adds one disadvantage). ``weight`` is its frequency in a mix; ``repeat`` its
    consecutive copies in a sequence. The ability's gauge is :attr:`gauge`.

    >>> DayRoll("Hero", skill="Discrétion", dc=12).ability
    'DEX'
    """

    character: str
    skill: str | None = None
    ability: str | None = None
    kind: RollKind = "check"
    dc: int = 16
    advantages: int = 0
    disadvantages: int = 0
    bonus: int = 0
    weight: float = 1.0
    repeat: int = 1
    label: str | None = None
    tool: str | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        what = "the name of a character of the scenario"
        check_text("character", self.character, what=what, error=ScenarioError)
        check_choice("kind", self.kind, KINDS, ScenarioError)
        check_text(
            "label", self.label, what=Phrase("a non-empty string"), none=True, error=ScenarioError
        )
        try:
            if self.skill is not None:
                set_(self, "skill", resolve_skill(self.skill))
            if self.ability is not None:
                set_(self, "ability", resolve_ability(self.ability))
        except ExplodiceError as err:
            raise recast(err, ScenarioError) from None
        if self.skill is not None and self.kind != "check":
            raise _fail(
                "skill", self.skill, Phrase("absent for a {kind} (give `ability`)", kind=self.kind)
            )
        if self.skill is None and self.ability is None:
            raise _fail("ability", None, Phrase("an ability, or a skill, for every roll"))
        if self.kind == "check" and self.skill is None:  # a check without a skill (docs/rules.md)
            set_(self, "kind", "ability")
        if self.ability is None:
            set_(self, "ability", SKILLS[str(self.skill)])
        set_(self, "dc", _int("dc", self.dc, -100, 200))
        for name in ("advantages", "disadvantages"):
            set_(self, name, _int(name, getattr(self, name), 0, 100))
        set_(self, "bonus", _int("bonus", self.bonus, -100, 100))
        set_(self, "repeat", _int("repeat", self.repeat, 1, 100_000))
        what = "the name of a tool (a non-empty string)"
        check_text("tool", self.tool, what=what, none=True, error=ScenarioError)
        w = self.weight
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise _fail(
                "weight",
                w,
                Phrase("a number > 0 and <= {MAX_WEIGHT:.0e}", MAX_WEIGHT=MAX_WEIGHT),
                wrong_type=True,
            )
        if not 0 < w <= MAX_WEIGHT or w == float("inf"):
            raise _fail(
                "weight", w, Phrase("a number > 0 and <= {MAX_WEIGHT:.0e}", MAX_WEIGHT=MAX_WEIGHT)
            )
        if self.label is None:
            set_(self, "label", self.default_label)

    @property
    def default_label(self) -> str:
        """The label built from the roll itself: ``"Hero: Stealth check DC 12"``."""
        return f"{self.character}: {self.skill or self.ability} {self.kind} DC {self.dc}"

    @property
    def label_is_default(self) -> bool:
        """Whether :attr:`label` is :attr:`default_label` (the scenario gave none of its own).

        >>> DayRoll("Hero", skill="Stealth").label_is_default
        True
        >>> DayRoll("Hero", ability="STR", label="a shove").label_is_default
        False
        """
        return self.label == self.default_label

    @property
    def gauge(self) -> str:
        """The gauge that pays for this roll's ability: at 0, the roll has disadvantage."""
        return ABILITY_GAUGE[str(self.ability)]

    def drain_gauge(self, rules: Rules | None = None) -> str:
        """The gauge this roll's kept 1s drain (``rules.drain_gauge``): a skill check drains
        its skill's gauge by default, so STR (Intimidation) drains PH while PA at 0 gives it
        disadvantage."""
        return drain_gauge(str(self.ability), self.skill, rules)

    def advantage(self, gauge_empty: bool = False) -> str:
        """The net advantage state; an empty gauge adds one disadvantage source."""
        return net_advantage(self.advantages, self.disadvantages + int(gauge_empty))


@dataclass(frozen=True)
class Scenario:
    """The rolls of a day for a party: a fixed sequence, or a mix drawn ``rolls_per_day`` times.

    ``start`` optionally sets starting levels, ``{character: {gauge: points}}`` (default: each
    gauge's maximum from :meth:`Character.gauges`). A character's policy applies to all its
    rolls; a ``Best`` policy is played against each roll's own DC.

    >>> from explodice import Character
    >>> hero = Character("Hero", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8))
    >>> mix = Scenario([hero], [DayRoll("Hero", ability="STR", weight=3),
    ...                         DayRoll("Hero", ability="WIS", kind="save")], rolls_per_day=20)
    >>> mix.n_rolls, mix.sequence() is None
    (20, True)
    """

    characters: Sequence[Character]
    rolls: Sequence[DayRoll]
    rolls_per_day: int | None = None
    start: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    name: str = "scenario"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        chars = (self.characters,) if isinstance(self.characters, Character) else self.characters
        chars = tuple(chars) if _iterable(chars) else ()
        if not chars or not all(isinstance(c, Character) for c in chars):
            raise _fail("characters", self.characters, Phrase("one or more Character objects"))
        names = [c.name for c in chars]
        if len(set(names)) != len(names):
            raise _fail("characters", names, Phrase("characters with unique names"))
        set_(self, "characters", chars)
        rolls = tuple(
            _day_roll(i, r) if isinstance(r, Mapping) else r
            for i, r in enumerate(self.rolls if _iterable(self.rolls) else ())
        )
        if not rolls or not all(isinstance(r, DayRoll) for r in rolls):
            raise _fail(
                "rolls", self.rolls, Phrase("one or more DayRoll (or tables of their fields)")
            )
        for i, r in enumerate(rolls):
            if r.character not in names:
                raise _fail(
                    f"rolls[{i}].character",
                    r.character,
                    Phrase("one of {names}", names=listed(names)),
                )
        set_(self, "rolls", rolls)
        for i in range(len(rolls)):  # each roll must be one its character can make
            try:
                self.roll_of(i)
            except ExplodiceError as err:
                raise recast(
                    err, ScenarioError, Phrase("`rolls[{i}]`: {err}", i=i, err=err)
                ) from None
        if self.rolls_per_day is not None:
            set_(self, "rolls_per_day", _int("rolls_per_day", self.rolls_per_day, 1, 100_000))
        if self.n_rolls > 100_000:
            raise _fail("rolls", self.n_rolls, Phrase("at most {most} rolls a day", most=100_000))
        start: dict[str, Mapping[str, int]] = {}
        if not isinstance(self.start, Mapping):
            raise _fail("start", self.start, Phrase("a table {{character: {{gauge: points}}}}"))
        for who, levels in self.start.items():
            if who not in names:
                raise _fail(f"start.{who}", who, Phrase("one of {names}", names=listed(names)))
            if not isinstance(levels, Mapping):
                raise _fail(f"start.{who}", levels, Phrase("a table {{gauge: points}}"))
            out = {}
            for g, v in levels.items():
                if g not in GAUGES:
                    raise _fail(
                        f"start.{who}.{g}",
                        g,
                        Phrase("a gauge: one of {GAUGES}", GAUGES=list(GAUGES)),
                    )
                out[g] = _int(f"start.{who}.{g}", v, 0, MAX_GAUGE)
            start[who] = MappingProxyType(out)
        set_(self, "start", MappingProxyType(start))
        check_text("name", self.name, what=Phrase("a string"), error=ScenarioError)

    def __hash__(self) -> int:
        return hash(
            (
                self.characters,
                self.rolls,
                self.rolls_per_day,
                self.name,
                tuple((k, tuple(v.items())) for k, v in self.start.items()),
            )
        )

    @property
    def n_rolls(self) -> int:
        """Rolls in one day."""
        if self.rolls_per_day is not None:
            return self.rolls_per_day
        return sum(r.repeat for r in self.rolls)

    def sequence(self) -> list[int] | None:
        """The roll type of each roll of the day, in order; ``None`` for a mix."""
        if self.rolls_per_day is not None:
            return None
        return [i for i, r in enumerate(self.rolls) for _ in range(r.repeat)]

    def character(self, name: str) -> Character:
        """The character of that name."""
        names = tuple(c.name for c in self.characters)
        return self.characters[names.index(check_choice("name", name, names, ScenarioError))]

    @functools.cached_property
    def owners(self) -> tuple[int, ...]:
        """The index in :attr:`characters` of each roll type's character."""
        names = [c.name for c in self.characters]
        return tuple(names.index(r.character) for r in self.rolls)

    @functools.cached_property
    def mix_weights(self) -> tuple[float, ...]:
        """Each roll type's share of a mix's draws: its weight over the weights' sum."""
        total = math.fsum(r.weight for r in self.rolls)
        return tuple(r.weight / total for r in self.rolls)

    def shares_at(self, t: int) -> dict[int, float]:
        """The roll types roll ``t`` (0-based) may be, with their probabilities: its one
        type in a sequence, every type by its :attr:`mix_weights` in a mix.

        >>> from explodice import Character
        >>> hero = Character("Hero", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8))
        >>> Scenario([hero], [DayRoll("Hero", ability="STR", weight=3),
        ...                   DayRoll("Hero", ability="DEX")], rolls_per_day=4).shares_at(0)
        {0: 0.75, 1: 0.25}
        """
        if not 0 <= t < self.n_rolls:
            raise _fail("t", t, Phrase("a roll of the day, 0..{value}", value=self.n_rolls - 1))
        seq = self._sequence
        if seq is not None:
            return {seq[t]: 1.0}
        return dict(enumerate(self.mix_weights))

    @functools.cached_property
    def _sequence(self) -> tuple[int, ...] | None:
        seq = self.sequence()
        return None if seq is None else tuple(seq)

    def roll_of(self, i: int, *, gauge_empty: bool = False) -> Roll:
        """The :class:`Roll` of roll type ``i`` (with its gauge at 0 if ``gauge_empty``)."""
        r = self.rolls[i]
        who = self.character(r.character)
        # the counts are netted once, with the character's own sources (load, tool)
        roll = who.roll(
            r.skill,
            ability=r.ability,
            kind=r.kind,
            advantages=r.advantages,
            disadvantages=r.disadvantages + int(gauge_empty),
            bonus=r.bonus,
            dc=r.dc,
            tool=r.tool,
        )
        if isinstance(roll.policy, Best):
            roll = roll.replace(policy=Best(r.dc, roll.policy.weight))
        return roll

    def gauge_start(self) -> dict[str, dict[str, int]]:
        """Starting level of each gauge, by character."""
        out = {}
        for c in self.characters:
            levels = dict(c.gauges())
            levels.update(self.start.get(c.name, {}))
            out[c.name] = levels
        return out

    def replace(self, **changes: Any) -> Scenario:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def describe(self) -> str:
        """One line: name, party, rolls (:meth:`said`'s English)."""
        return str(self.said())

    def said(self) -> Phrase:
        """:meth:`describe`'s line as a phrase, for a header in the user's language."""
        how = (
            Phrase(
                "{rolls} rolls drawn from {types} types",
                rolls=self.rolls_per_day,
                types=len(self.rolls),
            )
            if self.rolls_per_day is not None
            else Phrase("a sequence of {rolls} rolls", rolls=self.n_rolls)
        )
        party = ", ".join(c.name for c in self.characters)
        return Phrase("{name}: {party}; {how}", name=self.name, party=party, how=how)


def _day_roll(i: int, table: Mapping[str, Any]) -> DayRoll:
    """``DayRoll(**table)`` for a roll given as a table; an unknown key is named."""
    unknown = [k for k in table if k not in DayRoll.__dataclass_fields__]
    if unknown:
        allowed = Phrase(
            "absent: it is not a key of a roll ({dataclass_fields})",
            dataclass_fields=", ".join(DayRoll.__dataclass_fields__),
        )
        raise _fail(f"rolls[{i}].{clip(unknown[0])}", table[unknown[0]], allowed)
    return DayRoll(**table)


_DAY_KEYS = ("name", "rolls_per_day", "start", "roll")
_TOP_KEYS = ("character", "characters", "day", *_DAY_KEYS)
_ROLL_KEYS = tuple(DayRoll.__dataclass_fields__)


def load_scenario(path: str | Path, *, characters: Sequence[Character] | None = None) -> Scenario:
    """Read a scenario from TOML. Errors name the file, the key and the problem::

        name = "A day in the mines"
        rolls_per_day = 30          # optional: draw 30 rolls from the types by weight
        start = { Gudulf = { PA = 12 } }   # optional starting levels

        [[character]]               # the party in this file (see load_characters) ...
        name = "Gudulf"
        scores = { FOR = 16, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }

        [[roll]]
        character = "Gudulf"
        skill = "Athlétisme"        # or ability = "FOR"; kind = "save" / "attack"
        dc = 16
        advantages = 0              # disadvantages, bonus, weight, repeat, label

    ... or in another: ``characters = "party.toml"`` (relative to this file). The day's keys
    may also sit in a ``[day]`` table with ``[[day.roll]]`` tables, as in the report's
    configuration (``explodice report --write-default-config``); the shipped example
    ``explodice/data/day_example.toml`` is written so. ``characters=`` gives the party in
    Python instead.
    """
    path = check_path(path)
    data = read_toml(path, error=ScenarioFileError)
    for key in data:
        if key not in _TOP_KEYS:
            raise ScenarioFileError(
                Phrase(
                    "{path}: `{key}`: unknown key; allowed: {TOP_KEYS}.",
                    path=path,
                    key=clip(key),
                    TOP_KEYS=", ".join(_TOP_KEYS),
                )
            )
    return scenario_from_tables(
        data, characters=characters, source=str(path), base=path.parent, default_name=path.stem
    )


def scenario_from_tables(
    data: Mapping[str, Any],
    *,
    characters: Sequence[Character] | None = None,
    source: str = "<tables>",
    base: str | Path | None = None,
    default_name: str = "scenario",
) -> Scenario:
    """A Scenario from parsed TOML tables (the layout of :func:`load_scenario`): the party as
    ``character`` tables or a ``characters`` path (relative to ``base``), the day as top-level
    keys or a ``day`` table. Keys other than those are not looked at.

    >>> hero = dict(name="Bo", scores=dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
    >>> s = scenario_from_tables({"character": [hero],
    ...                           "day": {"roll": [dict(character="Bo", ability="STR")]}})
    >>> s.describe()
    'scenario: Bo; a sequence of 1 rolls'
    """

    def bad(key: str, problem: str | Phrase) -> ScenarioFileError:
        return ScenarioFileError(
            Phrase("{source}: `{key}`: {problem}", source=source, key=clip(key), problem=problem)
        )

    if "day" in data:
        day, prefix = data["day"], "day."
        if not isinstance(day, Mapping):
            raise bad(
                "day",
                Phrase("must be a table of the day's keys, but {day} was passed.", day=shown(day)),
            )
        here = [k for k in _DAY_KEYS if k in data]
        if here:
            raise bad(
                here[0], Phrase("give the day's keys either at the top or in [day], not both.")
            )
        unknown = [k for k in day if k not in _DAY_KEYS]
        if unknown:
            raise bad(
                f"day.{unknown[0]}",
                Phrase("unknown key; allowed: {DAY_KEYS}.", DAY_KEYS=", ".join(_DAY_KEYS)),
            )
    else:
        day, prefix = data, ""
    if characters is None:
        characters = _party(data, bad, source, base)
    tables = day.get("roll")
    if not isinstance(tables, list) or not tables:
        raise bad(f"{prefix}roll", Phrase("no [[{prefix}roll]] table was found.", prefix=prefix))
    rolls = []
    for i, table in enumerate(tables):
        where = f"{prefix}roll[{i}]"
        if not isinstance(table, Mapping):
            raise bad(
                where,
                Phrase(
                    "a [[{prefix}roll]] table was expected, but {table} was passed.",
                    prefix=prefix,
                    table=shown(table),
                ),
            )
        unknown = [k for k in table if k not in _ROLL_KEYS]
        if unknown:
            raise bad(
                f"{where}.{unknown[0]}",
                Phrase("unknown key; allowed: {ROLL_KEYS}.", ROLL_KEYS=", ".join(_ROLL_KEYS)),
            )
        if "character" not in table:
            raise bad(f"{where}.character", Phrase("missing."))
        try:
            rolls.append(DayRoll(**table))
        except ExplodiceError as err:
            raise bad(where, message_of(err)) from None
    try:
        return Scenario(
            characters,
            rolls,
            rolls_per_day=day.get("rolls_per_day"),
            start=day.get("start", {}),
            name=day.get("name", default_name),
        )
    except ExplodiceError as err:
        raise ScenarioFileError(Phrase("{source}: {err}", source=source, err=err)) from None


def _party(
    data: Mapping[str, Any], bad: Any, source: str, base: str | Path | None
) -> list[Character]:
    """The ``[[character]]`` tables of the file, or the file its ``characters`` key names."""
    inline, ref = data.get("character"), data.get("characters")
    if inline is not None and ref is not None:
        raise bad(
            "characters",
            Phrase(
                "give the party either as [[character]] tables in this file or as "
                "the path of another file, not both."
            ),
        )
    if inline is not None:
        try:
            return characters_from_tables(inline, source=source)
        except CharacterFileError as err:
            raise ScenarioFileError(message_of(err)) from None
    if not isinstance(ref, str):
        raise bad(
            "characters",
            Phrase(
                "missing: give [[character]] tables in this file, or the path of a "
                "TOML file of them (relative to this file)."
            ),
        )
    return load_characters(Path(base or ".") / ref)


@functools.lru_cache(maxsize=1)
def default_scenario() -> Scenario:
    """The embedded default party and its day (``explodice/data/default.toml``), which the
    report and the sweeps' ``scenario = "default"`` use."""
    source = "embedded default"
    text = resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")
    data = parse_toml(text, source=source, error=ScenarioFileError)
    party = characters_from_tables(data.get("character"), source=source)
    return scenario_from_tables(
        {"day": data.get("day", {})}, characters=party, source=source, default_name="a day"
    )
