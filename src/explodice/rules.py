"""The rules model: the switches of RULES.md and the description of one roll.

Everything here is a frozen dataclass validated when it is built, so an engine never sees a
value that the rules do not allow.

>>> from explodice import Roll, Rules, Best
>>> Roll(modifier=4, advantage="advantage", policy=Best(dc=16, weight=0.05)).pool_size(Rules())
4
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union

__all__ = [
    "ADVANTAGE_STATES",
    "KINDS",
    "ACTORS",
    "Best",
    "ExplodiceError",
    "Policy",
    "Roll",
    "Rules",
    "RulesError",
    "net_advantage",
]

ADVANTAGE_STATES = ("advantage", "normal", "disadvantage")
KINDS = ("check", "save", "attack")
ACTORS = ("pc", "npc")
DISADVANTAGE_READINGS = ("subtract", "drop")
OVERFLOW_MODES = ("fullest", "lost")
POLICY_NAMES = ("keep", "cancel")


class ExplodiceError(ValueError):
    """Base class of every error explodice raises for bad input."""


class RulesError(ExplodiceError):
    """A rules switch, a roll or a policy was given a value the rules do not allow."""


def _fail(field_name: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"`{field_name}` must be {allowed}, but {value!r} was passed.")


def _check_choice(field_name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise _fail(field_name, value, f"one of {list(choices)}")
    return value


def check_int(field_name: str, value: Any, *, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an ``int``, or raise a :class:`RulesError` naming ``field_name``.

    Booleans and non-integral numbers are refused; ``lo``/``hi`` are inclusive bounds.
    """
    if lo is None and hi is None:
        allowed = "an integer"
    elif hi is None:
        allowed = f"an integer >= {lo}"
    elif lo is None:
        allowed = f"an integer <= {hi}"
    else:
        allowed = f"an integer in {lo}..{hi}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _fail(field_name, value, allowed)
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _fail(field_name, value, allowed)
    return value


def net_advantage(advantages: int = 0, disadvantages: int = 0) -> str:
    """Net counts of advantage and disadvantage sources into one state, as RULES.md says.

    Any advantage with any disadvantage gives neither; otherwise one or more sources give one
    step, never more.

    >>> net_advantage(2, 0), net_advantage(3, 1), net_advantage(0, 1)
    ('advantage', 'normal', 'disadvantage')
    """
    advantages = check_int("advantages", advantages, lo=0)
    disadvantages = check_int("disadvantages", disadvantages, lo=0)
    if advantages and disadvantages:
        return "normal"
    if advantages:
        return "advantage"
    if disadvantages:
        return "disadvantage"
    return "normal"


@dataclass(frozen=True)
class Rules:
    """The switches of RULES.md.

    - ``disadvantage``: ``"subtract"`` (3 dice, minus one exploding malus die) or ``"drop"``
      (the pool loses a die: 2 dice).
    - ``rule_of_one_kinds``: the kinds of roll the rule of 1 applies to.
    - ``ones_on_explosions``: a 1 shown by a die added by an explosion drains too.
    - ``overflow``: where drain beyond an empty gauge goes (``"fullest"`` gauge, or ``"lost"``).
    - ``lucky``: one initial 1 is rerolled once before the rule of 1's choice.

    >>> Rules(disadvantage="drop").disadvantage
    'drop'
    """

    disadvantage: Literal["subtract", "drop"] = "subtract"
    rule_of_one_kinds: frozenset[str] = field(default_factory=lambda: frozenset({"check", "save"}))
    ones_on_explosions: bool = False
    overflow: Literal["fullest", "lost"] = "fullest"
    lucky: bool = False

    def __post_init__(self) -> None:
        _check_choice("disadvantage", self.disadvantage, DISADVANTAGE_READINGS)
        _check_choice("overflow", self.overflow, OVERFLOW_MODES)
        kinds = self.rule_of_one_kinds
        if isinstance(kinds, str) or not hasattr(kinds, "__iter__"):
            raise _fail("rule_of_one_kinds", kinds, f"a set of kinds from {list(KINDS)}")
        kinds = frozenset(kinds)
        for kind in kinds:
            _check_choice("rule_of_one_kinds", kind, KINDS)
        object.__setattr__(self, "rule_of_one_kinds", kinds)
        for name in ("ones_on_explosions", "lucky"):
            if not isinstance(getattr(self, name), bool):
                raise _fail(name, getattr(self, name), "True or False")

    def describe(self) -> str:
        """One line naming every switch, for figure captions and report pages."""
        kinds = ",".join(k for k in KINDS if k in self.rule_of_one_kinds) or "none"
        return (
            f"disadvantage={self.disadvantage}, rule of 1 on {kinds}, "
            f"ones_on_explosions={self.ones_on_explosions}, overflow={self.overflow}, "
            f"lucky={self.lucky}"
        )


@dataclass(frozen=True)
class Best:
    """The policy that cancels the k pairs maximising P(success) - weight * E[drain].

    ``dc`` is the target the player knows; ties go to the larger k. ``weight=0`` only wants
    to succeed; a large weight behaves like ``"cancel"``.

    >>> Best(dc=16, weight=0.1)
    Best(dc=16, weight=0.1)
    """

    dc: int
    weight: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "dc", check_int("Best.dc", self.dc))
        w = self.weight
        if isinstance(w, bool) or not isinstance(w, numbers.Real) or not math.isfinite(w) or w < 0:
            raise _fail("Best.weight", w, "a finite number >= 0 (the weight λ of the drain)")
        object.__setattr__(self, "weight", float(w))

    def __str__(self) -> str:
        return f"best(dc={self.dc}, λ={self.weight:g})"


Policy = Union[str, Best]


@dataclass(frozen=True)
class Roll:
    """One 3d6x roll: its modifier, advantage state, kind, actor and rule-of-1 policy.

    >>> Roll(3).modifier, Roll(3).advantage, Roll(3).policy
    (3, 'normal', 'keep')
    >>> Roll.from_sources(1, advantages=2, disadvantages=1).advantage
    'normal'
    """

    modifier: int = 0
    advantage: Literal["advantage", "normal", "disadvantage"] = "normal"
    kind: Literal["check", "save", "attack"] = "check"
    actor: Literal["pc", "npc"] = "pc"
    policy: Policy = "keep"

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifier", check_int("modifier", self.modifier, lo=-100, hi=100))
        _check_choice("advantage", self.advantage, ADVANTAGE_STATES)
        _check_choice("kind", self.kind, KINDS)
        _check_choice("actor", self.actor, ACTORS)
        if not isinstance(self.policy, Best):
            if not isinstance(self.policy, str) or self.policy not in POLICY_NAMES:
                raise _fail("policy", self.policy, "'keep', 'cancel' or Best(dc=..., weight=λ)")

    @classmethod
    def from_sources(cls, modifier: int = 0, *, advantages: int = 0, disadvantages: int = 0,
                     **kwargs: Any) -> "Roll":
        """Build a roll from counts of advantage and disadvantage sources (netted)."""
        return cls(modifier, advantage=net_advantage(advantages, disadvantages), **kwargs)

    def replace(self, **changes: Any) -> "Roll":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    # -- how the rules read this roll ------------------------------------------------------
    def pool_size(self, rules: Rules) -> int:
        """Dice in the initial throw: 3, 4 with advantage, 2 with disadvantage under "drop"."""
        if self.advantage == "advantage":
            return 4
        if self.advantage == "disadvantage" and rules.disadvantage == "drop":
            return 2
        return 3

    def has_malus_die(self, rules: Rules) -> bool:
        """True when one exploding die is subtracted (disadvantage under "subtract")."""
        return self.advantage == "disadvantage" and rules.disadvantage == "subtract"

    def rule_of_one_applies(self, rules: Rules) -> bool:
        """True when the roll's kind is under the rule of 1."""
        return self.kind in rules.rule_of_one_kinds

    def drains(self, rules: Rules) -> bool:
        """True when kept 1s drain a gauge: a PC's roll under the rule of 1."""
        return self.actor == "pc" and self.rule_of_one_applies(rules)

    def describe(self) -> str:
        """A short label: '3d6x+4, advantage, check, pc, keep'."""
        sign = "+" if self.modifier >= 0 else "-"
        return (
            f"3d6x{sign}{abs(self.modifier)}, {self.advantage}, {self.kind}, {self.actor}, "
            f"{self.policy}"
        )
