"""The rules model: the switches of docs/rules.md and the description of one roll.

Everything here is a frozen dataclass validated when it is built, so an engine never sees a
value that the rules do not allow.

>>> from explodice import Roll, Rules, Best
>>> Roll(modifier=4, advantage="advantage", policy=Best(dc=16, weight=0.05)).pool_size(Rules())
4
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from explodice.core.words import N_, Phrase
from explodice.game.reroll import Reroll, as_reroll
from explodice.game.switch import Switch, read_switches, switch
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


#: The values the readings table tries for ``Rules.defence_base``: its neighbours.
DEFENCE_BASE_READINGS = (DEFENCE_BASE - 2, DEFENCE_BASE - 1, DEFENCE_BASE + 1, DEFENCE_BASE + 2)
#: Where the rules are read (``read_by``): the roll asks them its pool and its malus die
#: (:meth:`Roll.pool_size`, :meth:`Roll.has_malus_die`), which every engine reads.
_ROLL = "game/rules.py"
#: The engines of a single 3d6x roll: exact, the flags of the kernels (CPU, CUDA) and the
#: day's rolls.
_ROLL_ENGINES = (
    "engine/compiled.py",
    "engine/exact.py",
    "engine/reroll.py",
    "engine/rule_of_one.py",
    "day/rolls.py",
)
_SEE_READINGS = "see [Readings that are switches](#readings-that-are-switches)"


@dataclass(frozen=True)
class Rules:
    """The switches of docs/rules.md, each declared once, on its field.

    A field's type says its values (a ``Literal`` alias, ``bool``, a set of kinds, an
    integer); its :func:`~explodice.game.switch.switch` declares its default, where it is read
    (``scope``, ``read_by``), its option's help, its words (label, values, the designer's
    question and each value's answer, marked for the French catalogue) and why the default is
    the default. :func:`switches` reads them back: the command line's options, the TOML keys
    of ``[rules]``, :meth:`describe`, the footers, the readings table and docs/rules.md's
    table of switches all come from there (CONTRIBUTING.md, "A rules switch").

    The defaults are the readings explodice always played (docs/rules.md, "Readings that are
    switches"), so default rules give today's numbers. There is no ``lucky`` switch: a reroll
    belongs to a roll or a character, ``Roll(..., reroll=Reroll("one"))`` (docs/rules.md,
    Rerolls).

    >>> Rules(disadvantage="drop").disadvantage
    'drop'
    """

    disadvantage: Disadvantage = switch(
        "subtract",
        help="reading of disadvantage: subtract an exploding malus die, or drop a die from "
        "the pool",
        label=N_("disadvantage"),
        question=N_("a roll at disadvantage"),
        words={"subtract": N_("subtract"), "drop": N_("drop")},
        answers={
            "subtract": N_("3 dice minus an exploding malus die"),
            "drop": N_("2 dice: the pool loses a die"),
        },
        shown="always",
        read_by=(_ROLL, "engine/dice.py"),
        why='the literal reading of "soustraire un d6"',
    )
    rule_of_one_kinds: frozenset[RollKind] = switch(
        frozenset({"check", "save"}),
        help="kinds of roll the rule of 1 applies to",
        label=N_("rule_of_one_kinds"),
        question=N_("the kinds of roll the rule of 1 applies to"),
        shown="always",
        footer=N_("rule of 1 on {value}"),
        flag="--rule-of-one",
        read_by=(_ROLL, "engine/rule_of_one.py"),
        why='the seed limits the rule to "les tests de compétences et les jets de sauvegarde": '
        'a check without a skill (`ability`) is not a "test de compétence"',
    )
    ones_on_explosions: bool = switch(
        False,
        help="a 1 shown by an explosion die drains as well",
        label=N_("ones_on_explosions"),
        question=N_("a 1 shown by an explosion die"),
        answers={True: N_("drains as well"), False: N_("drains nothing")},
        shown="always",
        footer=N_("ones_on_explosions={value}"),
        read_by=_ROLL_ENGINES,
        why="the seed ties the rule of 1 to the first throw, where the choice is made",
    )
    overflow: Overflow = switch(
        "fullest",
        help="where drain beyond an empty gauge goes",
        label=N_("overflow"),
        question=N_("drain beyond an empty gauge"),
        words={"fullest": N_("fullest"), "lost": N_("lost"), "best": N_("player's choice")},
        answers={
            "fullest": N_("moves to the fullest gauge"),
            "lost": N_("is lost"),
            "best": N_("goes to the gauge the player chooses"),
        },
        scope="day",
        shown="always",
        read_by=("day/overflow.py", "day/compiled.py", "day/exact.py", "day/optimal.py"),
        why='the player picks the receiving gauge ("au choix du joueur"), and the fullest '
        "gauge is the sensible pick",
    )
    drain_gauge: DrainGauge = switch(
        "skill",
        help="gauge a skill check drains: its skill's, or the rolled ability's",
        label=N_("drain_gauge"),
        question=N_("the gauge a skill check drains"),
        words={"skill": N_("the skill's"), "roll": N_("the roll's")},
        answers={"skill": N_("the skill's gauge"), "roll": N_("the rolled ability's gauge")},
        scope="day",
        shown="always",
        read_by=("game/character.py", "day/scenario.py", "day/compiled.py"),
        why='the seed: the gauge of "la caractéristique liée à la compétence" (Dressage is '
        "WIS, so PF); so FOR (Intimidation) drains PH",
    )
    close_contest: bool = switch(
        False,
        help="lutte serrée: a total equal to the DC goes to bids (tables add p_tie)",
        label=N_("close_contest"),
        question=N_("a total equal to its DC, or an opposed tie"),
        answers={
            True: N_("goes to bids of HP (lutte serrée)"),
            False: N_("succeeds against a DC; an opposed tie keeps the status quo"),
        },
        shown="when_on",
        footer="{name}",
        read_by=("analysis/success.py", "analysis/close_contest.py", "day/compiled.py"),
        why='lutte serrée is an optional rule of seed 001 ("règle optionnelle")',
    )
    lucky_timing: LuckyTiming = switch(
        "before_choice",
        help="when Lucky rerolls a 1: before the rule of 1's choice (the new die joins the "
        "throw), or after it (one kept 1 is rerolled, summed, and drains nothing: the seed's "
        "literal reading)",
        label=N_("lucky_timing"),
        question=N_("Lucky rerolls a 1"),
        words={
            "before_choice": N_("before the choice"),
            "after_choice": N_("after the choice"),
        },
        answers={
            "before_choice": N_("before the rule of 1's choice"),
            "after_choice": N_("after the rule of 1's choice: a kept 1, draining nothing"),
        },
        read_by=(*_ROLL_ENGINES, "engine/_kernels.py", "day/_kernel.py"),
        why=f"today's reading; {_SEE_READINGS}",
    )
    malus_die: MalusDie = switch(
        "exploding",
        help="the die that disadvantage subtracts (--disadvantage subtract): exploding like "
        "every die of the game, or a plain d6",
        label=N_("malus_die"),
        question=N_("the malus die of disadvantage (subtract)"),
        words={"exploding": N_("exploding"), "plain": N_("plain")},
        answers={
            "exploding": N_("it explodes, like every die"),
            "plain": N_("a plain d6 (1 to 6)"),
        },
        read_by=(*_ROLL_ENGINES, "engine/dice.py", "engine/_kernels.py", "day/_kernel.py"),
        why=f"every die of the game explodes; {_SEE_READINGS}",
    )
    hiding_ties: HidingTies = switch(
        "hider",
        help="a Stealth total equal to the Perception: the hider stays hidden, or the "
        "observer sees them",
        label=N_("hiding_ties"),
        question=N_("a Stealth total equal to the Perception"),
        words={"hider": N_("to the hider"), "observer": N_("to the observer")},
        answers={
            "hider": N_("the hider stays hidden"),
            "observer": N_("the observer sees them"),
        },
        scope="hiding",
        read_by=("analysis/hiding.py",),
        why=f"a passive value is a DC, and a total equal to a DC succeeds; {_SEE_READINGS}",
    )
    deception_noticed: DeceptionNoticed = switch(
        "on_failure",
        help="haggling past 25%: the seller notices the trick when the Deception fails, or "
        "always, later, when cheated",
        label=N_("deception_noticed"),
        question=N_("past 25% in haggling, the seller notices"),
        words={"on_failure": N_("on a failure"), "when_cheated": N_("when cheated")},
        answers={
            "on_failure": N_("when the Deception fails"),
            "when_cheated": N_("always, later, when cheated"),
        },
        scope="haggle",
        read_by=("analysis/resolutions/haggling.py",),
        why=f"today's reading; {_SEE_READINGS}",
    )
    defence_base: int = switch(
        DEFENCE_BASE,
        help="the base of the defence value (VD = base + DEX + WIS + armour + shield; from a "
        "5e AC: AC - 10 + base + WIS)",
        label=N_("defence_base"),
        question=N_("the base of the defence value (VD)"),
        range=DEFENCE_BASE_RANGE,
        readings=DEFENCE_BASE_READINGS,
        scope="attack",
        read_by=("game/defence.py", "game/monster.py"),
        why=f"the seeds give no VD formula; {DEFENCE_BASE} (`DEFENCE_BASE`) is the base that "
        "`fit_defence_base` finds on the reference builds and the SRD's typical monsters; see "
        "[Combat](#combat-attacks-against-the-defence-value-vd)",
    )
    wisdom_in_defence: WisdomInDefence = switch(
        "modifier",
        help="how WIS enters the VD: its whole modifier, only a positive one, or not at all",
        label=N_("wisdom_in_defence"),
        question=N_("WIS in the defence value"),
        words={
            "modifier": N_("its whole modifier"),
            "positive": N_("a bonus only"),
            "none": N_("not at all"),
        },
        answers={
            "modifier": N_("its modifier enters, negative too"),
            "positive": N_("only a positive modifier (the seed's bonus)"),
            "none": N_("it does not enter"),
        },
        scope="attack",
        read_by=("game/defence.py", "game/monster.py"),
        why='"Le bonus de sagesse entre dans le calcul de la VD": the modifier whole, as '
        'DEX\'s; `"positive"` reads "bonus" as only a positive one',
    )
    armour_dex_cap: ArmourDexCap = switch(
        "5e",
        help="DEX in the VD: capped by armour as in 5e (medium +2, heavy 0), or always whole",
        label=N_("armour_dex_cap"),
        question=N_("DEX in the defence value, in armour"),
        words={"5e": N_("capped as in 5e"), "none": N_("never capped")},
        answers={
            "5e": N_("capped by armour as in 5e (medium +2, heavy 0)"),
            "none": N_("always added whole"),
        },
        scope="attack",
        read_by=("game/defence.py", "game/character.py"),
        why="the armour is 5e's, so is its cap of DEX",
    )
    critical: Critical = switch(
        "none",
        help="a critical hit in 3d6x: none, two or three 6s kept on the initial throw, or an "
        "integer margin (total >= VD + margin)",
        label=N_("critical"),
        question=N_("a critical hit in 3d6x"),
        words={
            "none": N_("no critical"),
            "two_sixes": N_("two 6s"),
            "three_sixes": N_("three 6s"),
        },
        answers={
            "none": N_("none"),
            "two_sixes": N_("two 6s or more kept on the initial throw"),
            "three_sixes": N_("three 6s or more kept on the initial throw"),
        },
        number=N_("margin {margin}"),
        range=CRITICAL_MARGINS,
        readings=(5, 10),
        scope="attack",
        read_by=("engine/attack.py", "engine/exact.py", "engine/_kernels.py"),
        why="the seeds give 3d6x no critical hit",
    )

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
                "rule_of_one_kinds",
                given,
                Phrase("a set of kinds from {KINDS}", KINDS=list(KINDS)),
                wrong_type=True,
            )
        try:
            items = list(given)
        except TypeError:  # a 0-d array
            raise fail(
                "rule_of_one_kinds",
                given,
                Phrase("a set of kinds from {KINDS}", KINDS=list(KINDS)),
                wrong_type=True,
            ) from None
        kinds = frozenset(check_choice("rule_of_one_kinds", kind, KINDS) for kind in items)
        object.__setattr__(self, "rule_of_one_kinds", kinds)

    def describe(self) -> str:
        """One line naming the switches, for figure captions and report pages: each as its
        declaration's ``footer`` says it, when its ``shown`` says so (the readings of
        docs/rules.md's "Readings that are switches" only where they are not the default, so
        today's captions read as before).

        >>> Rules(malus_die="plain").describe().endswith(", malus_die=plain")
        True
        """
        return ", ".join(
            sw.footer.format(name=sw.name, value=sw.text(getattr(self, sw.name)))
            for sw in switches()
            if sw.named(getattr(self, sw.name))
        )


@cache
def switches() -> tuple[Switch, ...]:
    """Every switch of :class:`Rules`, in field order, read from its field: its values from
    the annotation (a value added to a ``Literal`` alias appears here, and in every check,
    without another edit), its default and the rest from its declaration
    (:func:`~explodice.game.switch.switch`).

    >>> [(s.name, s.values, s.scope) for s in switches() if s.name == "malus_die"]
    [('malus_die', ('exploding', 'plain'), 'roll')]
    """
    return read_switches(Rules)


#: The switches :meth:`Rules.describe` names only when they differ from the default: docs/
#: rules.md's "Readings that are switches" and its "Combat" (``shown="off_default"``).
READING_SWITCHES = tuple(sw.name for sw in switches() if sw.shown == "off_default")
#: The switches of docs/rules.md's "Combat": read by attacks alone (``scope="attack"``).
COMBAT_SWITCHES = tuple(sw.name for sw in switches() if sw.scope == "attack")


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
            raise fail("reroll", reroll, Phrase("Reroll('failure', dc=...) with the roll's DC"))
        object.__setattr__(self, "reroll", reroll)
        check_choice("advantage", self.advantage, ADVANTAGE_STATES)
        check_choice("kind", self.kind, KINDS)
        check_choice("actor", self.actor, ACTORS)
        if not isinstance(self.policy, Best):
            allowed = Phrase("'keep', 'cancel' or Best(dc=..., weight=λ)")
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


POLICY_GRAMMAR = Phrase(
    "'keep', 'cancel', 'best:λ' or 'best:λ@DC' (λ >= 0), or Best(dc=..., weight=λ)"
)


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
            raise fail(field_name, value, Phrase("a table {{dc = ..., weight = λ}}"))
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
            Phrase(
                "`{field_name}` {value} needs a DC: give the roll's DC, or best:λ@DC.",
                field_name=field_name,
                value=shown(value),
            )
        )
    weight = check_real(f"{field_name} weight λ", weight, lo=0)
    return Best(check_int(f"{field_name} DC", given_dc, lo=-MAX_DC, hi=MAX_DC), weight)
