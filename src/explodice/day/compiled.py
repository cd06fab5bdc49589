"""One compiled description of a day, read by the three engines of the day.

:func:`compile_day` turns a :class:`~explodice.Scenario` under :class:`~explodice.Rules` into
a :class:`CompiledDay`, as :func:`explodice.engine.compiled.compile_roll` does for one roll:
each character (:class:`CompiledCharacter`: PC or NPC, the starting level of its gauges, the
rerolls on failure it holds) and each roll type (:class:`CompiledRollType`: its owner, its
share of a mix or its places in the sequence, the gauge its kept 1s drain and the gauge whose
0 hinders it, and its two :class:`RollVariant` s, that gauge with points and at 0). A variant
carries the roll's laws, built on first use and cached by roll, rules and DC: its throws and
choices (:func:`~explodice.day.rolls.roll_choices`, the exact day and the optimal player),
its success and drain law under the character's own policy, with a reroll on failure in hand
or not, and its :class:`~explodice.engine.compiled.CompiledRoll` (the day kernel).

:func:`explodice.simulate_day`, :func:`explodice.exact_day` and
:func:`explodice.optimal_policy` read this object only; none of them reads the scenario's
facts again.

>>> from explodice import Character, DayRoll, Rules, Scenario
>>> hero = Character("Hero", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8),
...                  gauge_max={"PA": 5, "PM": 0, "PF": 2, "PH": 3})
>>> day = compile_day(Scenario([hero], [DayRoll("Hero", skill="Intimidation", ability="STR")]))
>>> r = day.roll_types[0]   # STR (Intimidation): its 1s drain PH, PA at 0 gives disadvantage
>>> GAUGES[r.drained], GAUGES[r.hindering], r.variants[1].roll.advantage
('PH', 'PA', 'disadvantage')
>>> round(r.variants[0].fixed[1].moments()[1], 9)   # E[drain] of 3 dice, keep: 3 x 1/6 x 4.2
2.1
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, shown
from explodice.core.words import Phrase
from explodice.day.rolls import DrainLaw, RollChoices, roll_choices
from explodice.day.scenario import Scenario
from explodice.engine.compiled import CompiledRoll, compile_roll
from explodice.engine.exact import exact
from explodice.game.character import GAUGES
from explodice.game.checks import check_rules
from explodice.game.rules import Roll, Rules

__all__ = [
    "CompiledCharacter",
    "CompiledDay",
    "CompiledRollType",
    "DayPolicy",
    "RerollLaw",
    "RollVariant",
    "check_day_policy",
    "check_day_rules",
    "compile_day",
    "optimal_unsupported",
]


@dataclass(frozen=True, eq=False)
class RerollLaw:
    """A roll with a reroll on failure in hand: ``success`` with it, and its drain in two
    parts that add up to the roll's whole law: ``kept`` (the first throw succeeded: the
    reroll stays) and ``used`` (it failed and the reroll was spent)."""

    success: float
    kept: DrainLaw
    used: DrainLaw

    @property
    def whole(self) -> DrainLaw:
        """The roll's whole drain law with the reroll in hand."""
        return DrainLaw.mix([self.kept, self.used], [1.0, 1.0])


@dataclass(frozen=True, eq=False)
class RollVariant:
    """A roll type with its hindering gauge not empty (``empty=False``) or at 0: one more
    disadvantage source. Its laws are built on first use and cached by roll, rules and DC."""

    roll: Roll
    rules: Rules
    dc: int
    empty: bool

    @property
    def need(self) -> int:
        """The dice total that succeeds: the DC minus the modifier."""
        return self.dc - self.roll.modifier

    @property
    def choices(self) -> RollChoices:
        """Every initial throw and, for each choice of pairs, what follows (exact)."""
        return roll_choices(self.roll, self.rules, self.need)

    @property
    def fixed(self) -> tuple[float, DrainLaw]:
        """``(P(success), drain law)`` under the roll's own policy, no reroll on failure."""
        return _fixed_law(self.roll, self.rules, self.need)

    @property
    def rerolled(self) -> RerollLaw | None:
        """The roll with its reroll on failure in hand (``None`` when it carries none)."""
        return _reroll_law(self.roll, self.rules, self.dc)

    def moments(self, reroll: bool = False) -> tuple[float, float, float]:
        """``(P(success), E[drain], E[drain^2])``, with a reroll on failure in hand or not."""
        rr = self.rerolled if reroll else None
        if rr is not None:
            return (rr.success, *rr.whole.moments()[1:])
        success, law = self.fixed
        return (success, *law.moments()[1:])

    @property
    def kernel(self) -> CompiledRoll:
        """The roll as the day kernel reads it."""
        return compile_roll(self.roll, self.rules)


@functools.lru_cache(maxsize=512)
def _fixed_law(roll: Roll, rules: Rules, need: int) -> tuple[float, DrainLaw]:
    ch = roll_choices(roll, rules, need)
    return ch.law(ch.k_fixed)


@functools.lru_cache(maxsize=512)
def _reroll_law(roll: Roll, rules: Rules, dc: int) -> RerollLaw | None:
    """Without advantage or disadvantage a failed roll is thrown again whole: its drain adds
    a second throw's and it succeeds with ``p + (1 - p) p``. With either, one die is rerolled
    and the first throw's drain stands; P(success) is the single-roll engine's."""
    if roll.reroll_dc is None:
        return None
    ch = roll_choices(roll, rules, dc - roll.modifier)
    p_ok, won, failed = ch.split_law(ch.k_fixed)
    if roll.advantage == "normal":
        success, whole = ch.law(ch.k_fixed)
        return RerollLaw(p_ok + (1.0 - p_ok) * success, won, failed.then(whole))
    return RerollLaw(exact(roll, rules).p_success(dc), won, failed)


@dataclass(frozen=True, eq=False)
class CompiledRollType:
    """One roll type of the day: whose, which gauges, and its two variants."""

    index: int
    label: str
    owner: int  # index of its character
    pc: bool
    drained: int  # the gauge its kept 1s drain (0..3: PA, PM, PF, PH)
    hindering: int  # the gauge whose 0 gives it disadvantage
    dc: int
    weight: float  # its share of a mix's draws (1.0 in a sequence)
    drains: bool  # its kept 1s drain a gauge (a PC's roll under the rule of 1)
    variants: tuple[RollVariant, RollVariant]

    @property
    def reroll_on_failure(self) -> bool:
        """The roll carries a reroll on failure."""
        return self.variants[0].roll.reroll_dc is not None


@dataclass(frozen=True, eq=False)
class CompiledCharacter:
    """One character of the day: its gauges' starting levels and its rerolls on failure."""

    index: int
    name: str
    pc: bool
    start: tuple[int, int, int, int]
    roll_types: tuple[int, ...]
    slots: int  # counts of rerolls on failure it may hold: 0 .. slots - 1
    unlimited: bool  # every failed roll is rerolled (no count to keep)
    policy: str

    @property
    def plays(self) -> bool:
        """It has gauges that move: a PC with rolls in the day."""
        return self.pc and bool(self.roll_types)


@dataclass(frozen=True, eq=False)
class CompiledDay:
    """A scenario under rules, as the day's engines read it (see the module docstring)."""

    scenario: Scenario
    rules: Rules
    characters: tuple[CompiledCharacter, ...]
    roll_types: tuple[CompiledRollType, ...]
    sequence: np.ndarray  # the roll type of each roll; -1 in a mix
    gauge_start: np.ndarray  # 4 c + g: character c's gauge g at the start

    @property
    def n_rolls(self) -> int:
        """Rolls in one day."""
        return int(self.sequence.size)

    @property
    def overflow(self) -> str:
        """Where a drain past an empty gauge goes (``Rules.overflow``)."""
        return self.rules.overflow

    @property
    def is_mix(self) -> bool:
        """Each roll is drawn from the types by weight."""
        return bool(self.n_rolls) and int(self.sequence[0]) < 0

    def shares_at(self, t: int, character: int) -> dict[int, float]:
        """The roll types of ``character`` roll ``t`` may be, with their probabilities (the
        other characters' types leave its gauges as they are)."""
        return _shares(self, t, character)

    def character(self, name: str) -> CompiledCharacter:
        """The character of that name."""
        return next(c for c in self.characters if c.name == name)

    def owner_name(self, r: int) -> str:
        """The name of roll type ``r``'s character."""
        return self.characters[self.roll_types[r].owner].name


def _shares(day: CompiledDay, t: int, character: int) -> dict[int, float]:
    shares = day.scenario.shares_at(t)
    return {r: w for r, w in shares.items() if day.roll_types[r].owner == character}


def check_day_rules(rules: Rules | None) -> Rules:
    """``rules`` (the default ``Rules()`` for ``None``) when the day's engines can play them;
    else the error that names the switch they cannot: ``close_contest`` (lutte serrée), whose
    ties go to bids of HP that the day does not play (it would count a total equal to the DC
    as a success, and no HP spent).

    >>> check_day_rules(Rules(close_contest=True))
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceError: `close_contest`: the day's engines (simulate_day, exact_day, optimal_policy, rolls_to_empty) do not play lutte serrée's bids of HP: a total equal to its DC would count as a success and no HP be paid. Play the day with close_contest=False, and the ties with close_contest() or close_opposed().
    """
    rules = check_rules(rules)
    if rules.close_contest:
        err = ExplodiceError(
            Phrase(
                "`close_contest`: the day's engines (simulate_day, exact_day, "
                "optimal_policy, rolls_to_empty) do not play lutte serrée's bids of "
                "HP: a total equal to its DC would count as a success and no HP be "
                "paid. Play the day with close_contest=False, and the ties with "
                "close_contest() or close_opposed()."
            )
        )
        err.field = "close_contest"
        raise err
    return rules


def compile_day(scenario: Scenario, rules: Rules | None = None) -> CompiledDay:
    """The :class:`CompiledDay` of ``scenario`` under ``rules`` (cached: built once per pair;
    the laws of its rolls are cached by roll, so another scenario that shares them reuses
    them). Rules the day cannot play are refused (:func:`check_day_rules`)."""
    rules = check_day_rules(rules)
    if not isinstance(scenario, Scenario):
        err = ExplodiceTypeError(
            Phrase(
                "`scenario` must be a Scenario, but {scenario} was passed.",
                scenario=shown(scenario),
            )
        )
        err.field = "scenario"
        raise err
    return _compile_day(scenario, rules)


@functools.lru_cache(maxsize=16)
def _compile_day(scenario: Scenario, rules: Rules) -> CompiledDay:
    owners = scenario.owners
    weights = scenario.mix_weights if scenario.rolls_per_day is not None else None
    types = []
    for r, day_roll in enumerate(scenario.rolls):
        variants = tuple(
            RollVariant(scenario.roll_of(r, gauge_empty=e), rules, day_roll.dc, e)
            for e in (False, True)
        )
        first = variants[0].roll
        types.append(
            CompiledRollType(
                index=r,
                label=str(day_roll.label),
                owner=owners[r],
                pc=first.actor == "pc",
                drained=GAUGES.index(day_roll.drain_gauge(rules)),
                hindering=GAUGES.index(day_roll.gauge),
                dc=day_roll.dc,
                weight=1.0 if weights is None else weights[r],
                drains=first.drains(rules),
                variants=variants,  # type: ignore[arg-type]
            )
        )
    start = scenario.gauge_start()
    characters = []
    for c, who in enumerate(scenario.characters):
        slots, unlimited = _budget(who.reroll, scenario.n_rolls)
        characters.append(
            CompiledCharacter(
                index=c,
                name=who.name,
                pc=who.actor == "pc",
                start=tuple(int(start[who.name][g]) for g in GAUGES),  # type: ignore[arg-type]
                roll_types=tuple(r for r in range(len(types)) if owners[r] == c),
                slots=slots,
                unlimited=unlimited,
                policy=str(who.policy),
            )
        )
    seq = scenario.sequence()
    sequence = np.asarray(seq if seq is not None else [-1] * scenario.n_rolls, dtype=np.int64)
    gauge_start = np.array([lv for c in characters for lv in c.start], dtype=np.int64)
    for a in (sequence, gauge_start):
        a.setflags(write=False)
    return CompiledDay(scenario, rules, tuple(characters), tuple(types), sequence, gauge_start)


def _budget(reroll: Any, n_rolls: int) -> tuple[int, bool]:
    """``(slots, unlimited)``: a character's counts of rerolls on failure left (0 .. slots -
    1, at most one per roll it makes) and whether it has no daily cap."""
    if reroll is None or reroll.trigger != "failure":
        return 1, False
    if reroll.per_day is None:
        return 1, True
    return min(reroll.per_day, n_rolls) + 1, False


def optimal_unsupported(scenario: Scenario) -> str | None:
    """Why the optimal player cannot play ``scenario``, or ``None`` when it can: it does not
    choose around a PC's reroll on failure (whether to spend it is a choice of its own);
    :func:`~explodice.exact_day` and :func:`~explodice.simulate_day` play that day under
    fixed policies."""
    for r, day_roll in enumerate(scenario.rolls):
        pc = scenario.character(day_roll.character).actor == "pc"  # an NPC chooses nothing
        if pc and scenario.roll_of(r).reroll_dc is not None:
            return (
                f"`rolls[{r}]` ({day_roll.label}): the optimal player does not choose around "
                f"a reroll on failure; exact_day and simulate_day play the day under fixed "
                f"policies (or give {day_roll.character} Reroll('failure', per_day=0))."
            )
    return None


class DayPolicy(ABC):
    """A state-dependent rule-of-1 policy of one scenario under one set of rules (the
    optimal player's, :class:`~explodice.OptimalPolicy`): what the day's engines ask of it."""

    scenario: Scenario
    rules: Rules

    def check(self, day: CompiledDay) -> None:
        """Refuse a day other than the policy's own."""
        if day.scenario != self.scenario or day.rules != self.rules:
            raise ExplodiceError(
                Phrase(
                    "`policy`: this OptimalPolicy was computed for another scenario or "
                    "other rules ({describe}; {describe2}).",
                    describe=self.scenario.describe(),
                    describe2=self.rules.describe(),
                )
            )

    @abstractmethod
    def deciders(self, day: CompiledDay) -> dict[str, Any]:
        """Per character it plays: the object that moves the exact day's chain."""

    @abstractmethod
    def lookup(
        self, day: CompiledDay
    ) -> tuple[list[tuple[int, np.ndarray]], np.ndarray, np.ndarray]:
        """The day kernel's tables (see :meth:`explodice.OptimalPolicy.lookup`)."""


def check_day_policy(policy: Any, day: CompiledDay) -> DayPolicy | None:
    """``policy`` when it is ``None`` or a policy of this day; else the error that names it."""
    if policy is None:
        return None
    if not isinstance(policy, DayPolicy):
        err = ExplodiceTypeError(
            Phrase(
                "`policy` must be an OptimalPolicy of this scenario and rules (from "
                "optimal_policy(scenario, rules)) or None, but {policy} was passed.",
                policy=shown(policy),
            )
        )
        err.field = "policy"
        raise err
    policy.check(day)
    return policy
