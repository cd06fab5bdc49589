"""The rules model: the switches of docs/rules.md and the description of one roll.

Everything here is a frozen dataclass validated when it is built, so an engine never sees a
value that the rules do not allow.

>>> from explodice import Roll, Rules, Best
>>> Roll(modifier=4, advantage="advantage", policy=Best(dc=16, weight=0.05)).pool_size(Rules())
4
"""

from __future__ import annotations

import dataclasses
import numbers
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal, get_args

from explodice.core.errors import (
    ExplodiceError,
    RulesError,
    RulesTypeError,
    check_choice,
    check_flag,
    check_int,
    check_real,
    fail,
    shown,
)
from explodice.core.numbers import read_decimal, read_int
from explodice.game.reroll import Reroll, as_reroll
from explodice.game.tables import DEFENCE_BASE, DEFENCE_BASE_RANGE, MAX_DC

__all__ = [
    "ADVANTAGE_STATES",
    "ARMOUR_DEX_CAPS",
    "ArmourDexCap",
    "CRITICAL_MARGINS",
    "CRITICAL_READINGS",
    "Critical",
    "CriticalReading",
    "WISDOM_IN_DEFENCE",
    "WisdomInDefence",
    "KINDS",
    "ACTORS",
    "Actor",
    "Advantage",
    "Best",
    "DeceptionNoticed",
    "Disadvantage",
    "DrainGauge",
    "ExplodiceError",
    "HidingTies",
    "LuckyTiming",
    "MalusDie",
    "Overflow",
    "Policy",
    "PolicyName",
    "Reroll",
    "Roll",
    "RollKind",
    "Rules",
    "RulesError",
    "RulesTypeError",
    "Switch",
    "net_advantage",
    "switches",
]

# Every string option as a Literal alias, written once (polars' _typing.py); the tuples of
# allowed values below are read from them, and Rules checks each of its Literal fields.
Advantage = Literal["advantage", "normal", "disadvantage"]
RollKind = Literal["check", "ability", "save", "attack"]
Actor = Literal["pc", "npc"]
Disadvantage = Literal["subtract", "drop"]
# a gauge name is written here as in game/character.py's GAUGES (a Literal takes no tuple;
# tests/test_overflow.py checks they agree)
Overflow = Literal["fullest", "lost", "PA", "PM", "PF", "PH", "best"]
DrainGauge = Literal["skill", "roll"]
LuckyTiming = Literal["before_choice", "after_choice"]
MalusDie = Literal["exploding", "plain"]
HidingTies = Literal["hider", "observer"]
DeceptionNoticed = Literal["on_failure", "when_cheated"]
# combat (docs/rules.md, "Combat"): how WIS and DEX enter the VD, and what a critical hit is
WisdomInDefence = Literal["modifier", "positive", "none"]
ArmourDexCap = Literal["5e", "none"]
CriticalReading = Literal["none", "two_sixes", "three_sixes"]
#: A critical hit: a reading of the initial throw's 6s, or an integer margin (a hit whose total
#: reaches VD + margin).
Critical = CriticalReading | int

ADVANTAGE_STATES: tuple[Advantage, ...] = get_args(Advantage)
KINDS: tuple[RollKind, ...] = get_args(RollKind)
ACTORS: tuple[Actor, ...] = get_args(Actor)
DISADVANTAGE_READINGS: tuple[Disadvantage, ...] = get_args(Disadvantage)
OVERFLOW_MODES: tuple[Overflow, ...] = get_args(Overflow)
DRAIN_GAUGES: tuple[DrainGauge, ...] = get_args(DrainGauge)
LUCKY_TIMINGS: tuple[LuckyTiming, ...] = get_args(LuckyTiming)
MALUS_DICE: tuple[MalusDie, ...] = get_args(MalusDie)
HIDING_TIES: tuple[HidingTies, ...] = get_args(HidingTies)
DECEPTION_NOTICED: tuple[DeceptionNoticed, ...] = get_args(DeceptionNoticed)
WISDOM_IN_DEFENCE: tuple[WisdomInDefence, ...] = get_args(WisdomInDefence)
ARMOUR_DEX_CAPS: tuple[ArmourDexCap, ...] = get_args(ArmourDexCap)
CRITICAL_READINGS: tuple[CriticalReading, ...] = get_args(CriticalReading)
#: The margins ``Rules.critical`` may take.
CRITICAL_MARGINS = (1, 20)
PolicyName = Literal["keep", "cancel"]
POLICY_NAMES: tuple[PolicyName, ...] = get_args(PolicyName)


def net_advantage(advantages: int = 0, disadvantages: int = 0) -> Advantage:
    """Net counts of advantage and disadvantage sources into one state, as docs/rules.md says.

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
    """The switches of docs/rules.md.

    - ``disadvantage``: ``"subtract"`` (3 dice, minus one exploding malus die) or ``"drop"``
      (the pool loses a die: 2 dice).
    - ``rule_of_one_kinds``: the kinds of roll the rule of 1 applies to.
    - ``ones_on_explosions``: a 1 shown by a die added by an explosion drains too.
    - ``overflow``: where drain beyond an empty gauge goes: the ``"fullest"`` other gauge
      (then the next), ``"lost"``, one named gauge (``"PA"``, ``"PM"``, ``"PF"``, ``"PH"``: lost
      if it is empty or is the drained one), or ``"best"`` ("au choix du joueur"): the gauge
      the optimal player (:func:`~explodice.optimal_policy`) picks, knowing the excess;
      fixed policies pour into the fullest.
    - ``drain_gauge``: which gauge a skill check drains: ``"skill"`` (the skill's own ability,
      so STR (Intimidation) drains PH) or ``"roll"`` (the ability actually rolled).
    - ``close_contest``: lutte serrée (seed 001): a total equal to its DC, or an opposed tie,
      is settled by bids of HP. Switched on, success tables add ``p_tie`` (the share of rolls
      that go to the bids); the bids themselves are played by
      :mod:`explodice.analysis.close_contest` (``close_opposed``, ``close_contest``), since
      their outcome depends on a bidding model. Off, a total equal to the DC succeeds and an
      opposed tie keeps the status quo.

    The readings the seeds leave open (docs/rules.md, "Readings that are switches"; the default
    is today's reading, so default rules give today's numbers):

    - ``lucky_timing``: Lucky (``Reroll("one")``) rerolls a 1 of the initial throw
      ``"before_choice"`` (the new face joins the throw: it may be cancelled, a new 1
      drains), or ``"after_choice"`` (the literal "le choix doit être fait avant de relancer
      un quelconque dés"): the pairs are set aside first, then one *kept* 1 is rerolled; its
      new face is summed (a 6 explodes) and neither the old 1 nor the new die drains.
    - ``malus_die``: under ``disadvantage="subtract"`` the subtracted die is ``"exploding"``
      like every die of the game, or a ``"plain"`` d6 (1..6).
    - ``hiding_ties``: a Stealth total equal to a passive Perception, or an active Perception
      tie, leaves the ``"hider"`` hidden, or goes to the ``"observer"`` (revealed).
    - ``deception_noticed``: past 25 % in haggling the seller notices the trick
      ``"on_failure"`` of the Deception check, or ``"when_cheated"``: always, later, when the
      gain past 25 % was taken ("la personne lésée s'en rendra compte ultérieurement").

    Combat (docs/rules.md, "Combat"; read by attacks only):

    - ``defence_base``: the base of the defence value (VD), an integer 0..30 (default
      :data:`~explodice.game.tables.DEFENCE_BASE`, the fitted one); a VD read from a 5e AC is
      AC - 10 + ``defence_base`` + the WIS term.
    - ``wisdom_in_defence``: the WIS modifier enters the VD whole (``"modifier"``), only when
      positive (``"positive"``: "le bonus de sagesse"), or not at all (``"none"``).
    - ``armour_dex_cap``: DEX is capped in armour as 5e caps it (``"5e"``: light none,
      medium +2, heavy 0) or always added whole (``"none"``).
    - ``critical``: ``"none"``; ``"two_sixes"`` or ``"three_sixes"``: that many 6s or more on
      the initial throw, counting only dice that stay (a 6 cancelled against a 1 does not
      count, the malus die never does), a hit whatever the total, as the d20's natural 20;
      or an integer margin 1..20: a hit whose total reaches VD + margin.

    :func:`switches` lists every switch with its values, read from these annotations.

    There is no ``lucky`` switch: a reroll belongs to a roll or a character,
    ``Roll(..., reroll=Reroll("one"))`` (docs/rules.md, Rerolls).

    >>> Rules(disadvantage="drop").disadvantage
    'drop'
    """

    disadvantage: Disadvantage = "subtract"
    rule_of_one_kinds: frozenset[RollKind] = field(
        default_factory=lambda: frozenset({"check", "save"})
    )
    ones_on_explosions: bool = False
    overflow: Overflow = "fullest"
    drain_gauge: DrainGauge = "skill"
    close_contest: bool = False
    lucky_timing: LuckyTiming = "before_choice"
    malus_die: MalusDie = "exploding"
    hiding_ties: HidingTies = "hider"
    deception_noticed: DeceptionNoticed = "on_failure"
    defence_base: int = DEFENCE_BASE
    wisdom_in_defence: WisdomInDefence = "modifier"
    armour_dex_cap: ArmourDexCap = "5e"
    critical: Critical = "none"

    def __post_init__(self) -> None:
        for sw in switches():
            value = getattr(self, sw.name)
            if sw.kind == "choice":
                check_choice(sw.name, value, sw.values)
            elif sw.kind == "flag":
                object.__setattr__(self, sw.name, check_flag(sw.name, value, error=RulesError))
            elif sw.kind in ("integer", "choice_or_integer"):
                object.__setattr__(self, sw.name, _choice_or_int(sw, value))
        given: Any = self.rule_of_one_kinds  # what the caller passed, checked here
        if isinstance(given, (str, bytes, Mapping)) or not hasattr(given, "__iter__"):
            raise fail(
                "rule_of_one_kinds", given, f"a set of kinds from {list(KINDS)}", wrong_type=True
            )
        try:
            items = list(given)
        except TypeError:  # a 0-d array
            raise fail(
                "rule_of_one_kinds", given, f"a set of kinds from {list(KINDS)}", wrong_type=True
            ) from None
        kinds = frozenset(check_choice("rule_of_one_kinds", kind, KINDS) for kind in items)
        object.__setattr__(self, "rule_of_one_kinds", kinds)

    def describe(self) -> str:
        """One line naming every switch, for figure captions and report pages.

        The readings of docs/rules.md's "Readings that are switches" are named only where they
        are not the default, so today's captions read as before.

        >>> Rules(malus_die="plain").describe().endswith(", malus_die=plain")
        True
        """
        kinds = ",".join(k for k in KINDS if k in self.rule_of_one_kinds) or "none"
        readings = "".join(
            f", {name}={getattr(self, name)}"
            for name in READING_SWITCHES
            if getattr(self, name) != _DEFAULTS[name]
        )
        return (
            f"disadvantage={self.disadvantage}, rule of 1 on {kinds}, "
            f"ones_on_explosions={self.ones_on_explosions}, overflow={self.overflow}, "
            f"drain_gauge={self.drain_gauge}"
            + (", close_contest" if self.close_contest else "")
            + readings
        )


#: The switches of docs/rules.md's "Readings that are switches" (and of its "Combat") that
#: :meth:`Rules.describe` names only when they differ from the default.
READING_SWITCHES = (
    "lucky_timing",
    "malus_die",
    "hiding_ties",
    "deception_noticed",
    "defence_base",
    "wisdom_in_defence",
    "armour_dex_cap",
    "critical",
)
#: The switches of docs/rules.md's "Combat": read by attacks alone.
COMBAT_SWITCHES = ("defence_base", "wisdom_in_defence", "armour_dex_cap", "critical")

#: Where each switch is read: ``"roll"`` (a 3d6x roll's law: the single-roll engines, and
#: through them every analysis and the day), ``"day"`` (the day's gauges only), or one
#: resolution (``"hiding"``, ``"haggle"``). A switch missing here counts as ``"roll"``.
SWITCH_SCOPES = {
    "disadvantage": "roll",
    "rule_of_one_kinds": "roll",
    "ones_on_explosions": "roll",
    "overflow": "day",
    "drain_gauge": "day",
    "close_contest": "roll",
    "lucky_timing": "roll",
    "malus_die": "roll",
    "hiding_ties": "hiding",
    "deception_noticed": "haggle",
    "defence_base": "attack",
    "wisdom_in_defence": "attack",
    "armour_dex_cap": "attack",
    "critical": "attack",
}
#: The values the readings table (:func:`~explodice.sensitivity`) moves an integer switch to:
#: its neighbours, and for ``critical`` two margins besides its named readings.
INTEGER_READINGS: Mapping[str, tuple[int, ...]] = {
    "defence_base": (DEFENCE_BASE - 2, DEFENCE_BASE - 1, DEFENCE_BASE + 1, DEFENCE_BASE + 2),
    "critical": (5, 10),
}
#: The range of each integer switch.
INTEGER_RANGES: Mapping[str, tuple[int, int]] = {
    "defence_base": DEFENCE_BASE_RANGE,
    "critical": CRITICAL_MARGINS,
}


@dataclass(frozen=True)
class Switch:
    """One switch of :class:`Rules`, as its annotation declares it.

    ``kind`` is ``"choice"`` (a ``Literal`` alias: ``values`` are its allowed strings),
    ``"flag"`` (a bool: ``values`` is ``(False, True)``), ``"set"`` (a frozenset of a
    ``Literal``: ``values`` are the members it may hold), ``"integer"`` (an int in
    ``lo..hi``: ``values`` are those the readings table tries, :data:`INTEGER_READINGS`) or
    ``"choice_or_integer"`` (a ``Literal`` or an int in ``lo..hi``: ``values`` are its strings
    then the integers the readings table tries); ``default`` is the default value; ``scope``
    where it is read (:data:`SWITCH_SCOPES`).
    """

    name: str
    kind: Literal["choice", "flag", "set", "integer", "choice_or_integer"]
    values: tuple[Any, ...]
    default: Any
    scope: str = "roll"
    lo: int | None = None
    hi: int | None = None

    @property
    def choices(self) -> tuple[str, ...]:
        """The strings it takes (none for an ``"integer"`` switch)."""
        return tuple(v for v in self.values if isinstance(v, str))

    def allowed(self) -> str:
        """What it takes, in words: ``'none', 'two_sixes', 'three_sixes' or an integer 1..20``."""
        if self.kind == "integer":
            return f"an integer {self.lo}..{self.hi}"
        words = ", ".join(repr(c) for c in self.choices)
        return f"{words} or an integer {self.lo}..{self.hi}"


@cache
def switches() -> tuple[Switch, ...]:
    """Every switch of :class:`Rules`, in field order, read from the dataclass's annotations:
    a value added to a ``Literal`` alias appears here (and in every check) without another
    edit.

    >>> [(s.name, s.values) for s in switches() if s.name == "malus_die"]
    [('malus_die', ('exploding', 'plain'))]
    """
    hints = typing.get_type_hints(Rules)
    out = []
    for f in dataclasses.fields(Rules):
        hint = hints[f.name]
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        scope = SWITCH_SCOPES.get(f.name, "roll")
        if typing.get_origin(hint) is Literal:
            out.append(Switch(f.name, "choice", get_args(hint), default, scope))
        elif hint is bool:
            out.append(Switch(f.name, "flag", (False, True), default, scope))
        elif typing.get_origin(hint) is frozenset:
            (member,) = get_args(hint)
            out.append(Switch(f.name, "set", get_args(member), default, scope))
        elif hint is int or int in get_args(hint):
            lo, hi = INTEGER_RANGES[f.name]
            words = tuple(v for a in get_args(hint) if a is not int for v in get_args(a))
            kind: Any = "choice_or_integer" if words else "integer"
            values = (*words, *INTEGER_READINGS[f.name])
            out.append(Switch(f.name, kind, values, default, scope, lo, hi))
        else:  # pragma: no cover - a guard for a new kind of switch
            raise TypeError(f"Rules.{f.name}: switches() does not know the type {hint!r}")
    return tuple(out)


_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _choice_or_int(sw: Switch, value: Any) -> Any:
    """The value of an ``"integer"`` or ``"choice_or_integer"`` switch, checked: one of its
    strings, or an integer in its range (an integer written as text, from an option or a
    file, read as one)."""
    if isinstance(value, str) and sw.kind == "choice_or_integer":
        text = value.strip()
        if text in sw.choices:
            return text
        if not text.lstrip("+-").isdigit():
            raise fail(sw.name, value, sw.allowed())
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise fail(sw.name, value, sw.allowed(), wrong_type=True)
    if not (sw.lo is not None and sw.hi is not None and sw.lo <= int(value) <= sw.hi):
        raise fail(sw.name, value, sw.allowed())
    return int(value)


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
        weight = check_real("Best.weight", self.weight, lo=0)
        object.__setattr__(self, "weight", weight)

    def __str__(self) -> str:
        return f"best(dc={self.dc}, λ={self.weight:g})"


Policy = PolicyName | Best


@dataclass(frozen=True)
class Roll:
    """One 3d6x roll: its modifier, advantage state, kind, actor, rule-of-1 policy and reroll
    (``None``, ``Reroll("one")`` or ``Reroll("failure", dc=...)``).

    >>> Roll(3).modifier, Roll(3).advantage, Roll(3).policy
    (3, 'normal', 'keep')
    >>> Roll.from_sources(1, advantages=2, disadvantages=1).advantage
    'normal'
    """

    modifier: int = 0
    advantage: Advantage = "normal"
    kind: RollKind = "check"
    actor: Actor = "pc"
    policy: Policy = "keep"
    reroll: Reroll | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifier", check_int("modifier", self.modifier, lo=-100, hi=100))
        reroll = as_reroll(self.reroll)
        if reroll is not None and reroll.trigger == "failure" and reroll.dc is None:
            raise fail("reroll", reroll, "Reroll('failure', dc=...) with the roll's DC")
        object.__setattr__(self, "reroll", reroll)
        check_choice("advantage", self.advantage, ADVANTAGE_STATES)
        check_choice("kind", self.kind, KINDS)
        check_choice("actor", self.actor, ACTORS)
        if not isinstance(self.policy, Best):
            allowed = "'keep', 'cancel' or Best(dc=..., weight=λ)"
            if not isinstance(self.policy, str):
                raise fail("policy", self.policy, allowed, wrong_type=True)
            if self.policy not in POLICY_NAMES:
                raise fail("policy", self.policy, allowed)

    @classmethod
    def from_sources(
        cls, modifier: int = 0, *, advantages: int = 0, disadvantages: int = 0, **kwargs: Any
    ) -> Roll:
        """Build a roll from counts of advantage and disadvantage sources (netted)."""
        return cls(modifier, advantage=net_advantage(advantages, disadvantages), **kwargs)

    def replace(self, **changes: Any) -> Roll:
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
        """True when one die is subtracted (disadvantage under "subtract"); it explodes
        unless ``rules.malus_die`` is ``"plain"`` (:meth:`malus_die`)."""
        return self.advantage == "disadvantage" and rules.disadvantage == "subtract"

    def malus_die(self, rules: Rules) -> MalusDie | None:
        """The subtracted die: ``"exploding"`` or ``"plain"`` (``rules.malus_die``), or
        ``None`` when the roll has none.

        >>> Roll(advantage="disadvantage").malus_die(Rules(malus_die="plain"))
        'plain'
        """
        return rules.malus_die if self.has_malus_die(rules) else None

    @property
    def lucky(self) -> bool:
        """True when the roll has Lucky (``Reroll("one")``), whatever its timing
        (:meth:`lucky_before_choice`, :meth:`lucky_after_choice`)."""
        return self.reroll is not None and self.reroll.trigger == "one"

    def lucky_before_choice(self, rules: Rules) -> bool:
        """True when Lucky rerolls a 1 of the initial throw before the rule of 1's choice
        (``rules.lucky_timing == "before_choice"``): the new face joins the throw."""
        return self.lucky and rules.lucky_timing == "before_choice"

    def lucky_after_choice(self, rules: Rules) -> bool:
        """True when Lucky rerolls one *kept* 1 after the choice
        (``rules.lucky_timing == "after_choice"``): the new die is summed, outside the rule
        of 1."""
        return self.lucky and rules.lucky_timing == "after_choice"

    @property
    def reroll_dc(self) -> int | None:
        """The DC of a reroll on failure, else ``None``."""
        return (
            self.reroll.dc if self.reroll is not None and self.reroll.trigger == "failure" else None
        )

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
            f"{self.policy}" + (f", {self.reroll}" if self.reroll is not None else "")
        )


POLICY_GRAMMAR = "'keep', 'cancel', 'best:λ' or 'best:λ@DC' (λ >= 0), or Best(dc=..., weight=λ)"


def parse_policy(value: Any, *, dc: int | None = None, field_name: str = "policy") -> Policy:
    """Read a rule-of-1 policy as people write it, in one grammar for the CLI, TOML and sweeps.

    ``value`` is ``"keep"``, ``"cancel"``, a :class:`Best`, ``"best:λ"`` or ``"best:λ@DC"``,
    a number λ, or a mapping ``{dc = ..., weight = ...}``; ``dc`` is the roll's DC, used when
    the text or number gives none.

    >>> parse_policy("best:0.05", dc=16), parse_policy("best:0.1@12"), parse_policy(" Keep ")
    (Best(dc=16, weight=0.05), Best(dc=12, weight=0.1), 'keep')
    >>> parse_policy("best:")
    Traceback (most recent call last):
    ...
    explodice.core.errors.RulesError: `policy` must be 'keep', 'cancel', 'best:λ' or 'best:λ@DC' (λ >= 0), or Best(dc=..., weight=λ), but 'best:' was passed.
    """
    if isinstance(value, Best):
        return value
    weight: Any
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        weight, given_dc = value, None
    elif isinstance(value, Mapping):
        if set(value) - {"dc", "weight"} or "dc" not in value:
            raise fail(field_name, value, "a table {dc = ..., weight = λ}")
        weight, given_dc = value.get("weight", 0.0), value["dc"]
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in POLICY_NAMES:
            return text
        if not text.startswith("best:"):
            raise fail(field_name, value, POLICY_GRAMMAR)
        weight_text, at, dc_text = text[5:].partition("@")
        try:
            weight = float(read_decimal(weight_text))
            given_dc = read_int(dc_text) if at else None
        except ValueError:
            raise fail(field_name, value, POLICY_GRAMMAR) from None
    else:
        raise fail(field_name, value, POLICY_GRAMMAR, wrong_type=True)
    given_dc = dc if given_dc is None else given_dc
    if given_dc is None:
        raise RulesError(
            f"`{field_name}` {shown(value)} needs a DC: give the roll's DC, or best:λ@DC."
        )
    weight = check_real(f"{field_name} weight λ", weight, lo=0)
    return Best(check_int(f"{field_name} DC", given_dc, lo=-MAX_DC, hi=MAX_DC), weight)
