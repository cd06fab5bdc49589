"""Characters: scores, level, proficiencies and gauges, read from the seeds' rules.

A :class:`Character` is frozen and validated once; it turns a skill, a save or an attack into
a :class:`~explodice.Roll` for either system. Parties load from TOML with
:func:`load_characters`; a bad file raises one :class:`CharacterFileError` naming the file,
the key and the problem.

>>> from explodice import Character
>>> gudulf = Character("Gudulf", {"FOR": 14, "DEX": 12, "CON": 14, "INT": 8, "SAG": 10, "CHA": 10},
...                    skills={"Athlétisme": 1})
>>> gudulf.skill_modifier("athletics"), gudulf.roll("Athlétisme").modifier
(4, 4)
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from explodice.core.errors import (
    ExplodiceTypeError,
    check_choice,
    check_flag,
    check_text,
    clip,
    fail,
    message_of,
    recast,
    shown,
)
from explodice.core.files import parse_toml, read_text
from explodice.core.words import Phrase
from explodice.game.defence import (
    ATTACK_KINDS,
    AttackKind,
    armour_class,
    defence_value,
)
from explodice.game.reroll import as_reroll
from explodice.game.rules import (
    ACTORS,
    ADVANTAGE_STATES,
    KINDS,
    Actor,
    Advantage,
    Best,
    ExplodiceError,
    Policy,
    Reroll,
    Roll,
    RollKind,
    Rules,
    RulesError,
    check_int,
    check_real,
    net_advantage,
)
from explodice.game.tables import (
    D20_SAVE_DC_BASE,
    MAX_DC,
    MAX_GAUGE,
    MAX_GAUGE_PER_LEVEL,
    SAVE_DC_BASE_3D6X,
    System,
    check_system,
    fold_name,
    resolve_armour,
)

__all__ = [
    "ABILITIES",
    "ABILITY_GAUGE",
    "GAUGES",
    "GAUGE_ABILITY",
    "SKILLS",
    "SKILLS_FR",
    "Character",
    "CharacterError",
    "CharacterFileError",
    "CharacterTypeError",
    "ProficiencyWarning",
    "ability_modifier",
    "characters_from_tables",
    "characters_from_toml",
    "check_policy",
    "drain_gauge",
    "load_characters",
    "proficiency_bonus",
    "read_tables",
    "resolve_ability",
    "resolve_skill",
]

ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
GAUGES = ("PA", "PM", "PF", "PH")
ABILITY_GAUGE = {"STR": "PA", "DEX": "PA", "CON": "PA", "INT": "PM", "WIS": "PF", "CHA": "PH"}
GAUGE_ABILITY = {"PA": "CON", "PM": "INT", "PF": "WIS", "PH": "CHA"}  # score that sets the max

#: canonical English skill -> (ability, French name of seed 000); CON has no skill.
_SKILL_TABLE: dict[str, tuple[str, str]] = {
    "Athletics": ("STR", "Athlétisme"),
    "Acrobatics": ("DEX", "Acrobaties"),
    "Sleight of Hand": ("DEX", "Escamotage"),
    "Stealth": ("DEX", "Discrétion"),
    "Arcana": ("INT", "Arcanes"),
    "History": ("INT", "Histoire"),
    "Investigation": ("INT", "Investigation"),
    "Nature": ("INT", "Nature"),
    "Religion": ("INT", "Religion"),
    "Animal Handling": ("WIS", "Dressage"),
    "Insight": ("WIS", "Perspicacité"),
    "Medicine": ("WIS", "Médecine"),
    "Perception": ("WIS", "Perception"),
    "Survival": ("WIS", "Survie"),
    "Deception": ("CHA", "Supercherie"),
    "Intimidation": ("CHA", "Intimidation"),
    "Performance": ("CHA", "Représentation"),
    "Persuasion": ("CHA", "Persuasion"),
}
SKILLS: dict[str, str] = {name: ability for name, (ability, _) in _SKILL_TABLE.items()}
SKILLS_FR: dict[str, str] = {name: fr for name, (_, fr) in _SKILL_TABLE.items()}
# other spellings met in the seeds (004 says Tromperie, 001 Arcane)
_SKILL_ALIASES = {
    "Tromperie": "Deception",
    "Arcane": "Arcana",
    "Acrobatie": "Acrobatics",
    "Athletisme": "Athletics",
    "Animal handling": "Animal Handling",
}

_ABILITY_NAMES: dict[str, tuple[str, ...]] = {
    "STR": ("FOR", "Force", "Strength"),
    "DEX": ("Dextérité", "Dexterity"),
    "CON": ("Constitution",),
    "INT": ("Intelligence",),
    "WIS": ("SAG", "Sagesse", "Wisdom"),
    "CHA": ("Charisme", "Charisma"),
}


_SKILL_LOOKUP = (
    {fold_name(n): n for n in SKILLS}
    | {fold_name(fr): n for n, fr in SKILLS_FR.items()}
    | {fold_name(a): n for a, n in _SKILL_ALIASES.items()}
)
_ABILITY_LOOKUP = {fold_name(a): a for a in ABILITIES} | {
    fold_name(alias): a for a, names in _ABILITY_NAMES.items() for alias in names
}


class CharacterError(ExplodiceError):
    """A character was given a value the rules do not allow; ``field`` names the key."""


class CharacterTypeError(CharacterError, ExplodiceTypeError):
    """A character was given a value of the wrong type (a number for its name, say)."""


class CharacterFileError(ExplodiceError):
    """A TOML file of characters is malformed: the message names the file, key and problem."""


class ProficiencyWarning(UserWarning):
    """A character's proficiency that a d20 roll reads otherwise than 3d6x does, said aloud.

    A save proficient twice (``saves`` multiplier 2, a 3d6x choice) adds PB once in d20, where
    proficiency is added at most once (docs/rules.md, d20), unless the character has the
    ``save_expertise`` feature. The number follows the rules; the warning says so, since the
    file says "twice".
    """


def _fail(
    field_name: str, value: Any, allowed: str | Phrase, *, wrong_type: bool = False
) -> ExplodiceError:
    return fail(field_name, value, allowed, CharacterError, wrong_type=wrong_type)


def _int(field_name: str, value: Any, lo: int, hi: int | None = None) -> int:
    return check_int(field_name, value, lo=lo, hi=hi, error=CharacterError)


def resolve_skill(name: str, *, field_name: str = "skill") -> str:
    """The canonical English name of a skill given in French or English (any case/accents).

    >>> resolve_skill("discrétion"), resolve_skill("SLEIGHT OF HAND"), resolve_skill("Survie")
    ('Stealth', 'Sleight of Hand', 'Survival')
    """
    found = _SKILL_LOOKUP.get(fold_name(name)) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(f"{n} ({SKILLS_FR[n]})" for n in SKILLS)
        raise _fail(
            field_name,
            name,
            Phrase("a skill of the seeds, in English or French: {names}", names=names),
            wrong_type=not isinstance(name, str),
        )
    return found


def resolve_ability(name: str, *, field_name: str = "ability") -> str:
    """The ability code of a name or abbreviation, in English or French.

    >>> resolve_ability("FOR"), resolve_ability("sagesse"), resolve_ability("Dexterity")
    ('STR', 'WIS', 'DEX')
    """
    found = _ABILITY_LOOKUP.get(fold_name(name)) if isinstance(name, str) else None
    if found is None:
        raise _fail(
            field_name,
            name,
            Phrase(
                "an ability: one of {ABILITIES} (or FOR, SAG, or a full English/French name)",
                ABILITIES=list(ABILITIES),
            ),
            wrong_type=not isinstance(name, str),
        )
    return found


#: Features that change a roll's numbers (d20): half PB on checks without proficiency (5e
#: "Jack of All Trades"), a save proficient twice counting twice.
Feature = Literal["half_proficiency", "save_expertise"]
FEATURES: tuple[Feature, ...] = get_args(Feature)


def _tool_name(name: Any, *, field_name: str = "tool") -> str:
    """A tool's name, folded (case and accents) so that files and calls agree."""
    if not isinstance(name, str) or not name.strip():
        raise _fail(
            field_name,
            name,
            Phrase("the name of a tool (a non-empty string)"),
            wrong_type=not isinstance(name, str),
        )
    return fold_name(name)


def drain_gauge(ability: str, skill: str | None = None, rules: Rules | None = None) -> str:
    """The gauge a roll's kept 1s drain (docs/rules.md, the rule of 1, step 4).

    Under ``drain_gauge="skill"`` (the default) a skill check drains the gauge of the skill's
    own ability, even rolled with another one; under ``"roll"`` the rolled ability's gauge.
    Saves and ability checks (no skill) drain the gauge of their ability.

    >>> drain_gauge("STR", "Intimidation"), drain_gauge("STR", "Intimidation", Rules(drain_gauge="roll"))
    ('PH', 'PA')
    """
    rules = Rules() if rules is None else rules
    rolled = resolve_ability(ability)
    if skill is None or rules.drain_gauge == "roll":
        return ABILITY_GAUGE[rolled]
    return ABILITY_GAUGE[SKILLS[resolve_skill(skill)]]


def ability_modifier(score: int) -> int:
    """floor((score - 10) / 2), for a score in 1..30.

    >>> ability_modifier(1), ability_modifier(11), ability_modifier(30)
    (-5, 0, 10)
    """
    return (_int("score", score, 1, 30) - 10) // 2


def proficiency_bonus(level: int) -> int:
    """2 + (level - 1) // 4, for a level in 1..20 (+2 .. +6).

    >>> proficiency_bonus(1), proficiency_bonus(5), proficiency_bonus(20)
    (2, 3, 6)
    """
    return 2 + (_int("level", level, 1, 20) - 1) // 4


def check_policy(field_name: str, policy: Any) -> Policy:
    """A character's policy: 'keep', 'cancel', a :class:`Best`, or the table TOML writes for
    one, ``{dc = 16, weight = 0.1}`` (the API takes what a file takes)."""
    allowed = Phrase(
        "'keep', 'cancel', Best(dc=..., weight=λ) or a table {{dc = ..., weight = ...}}"
    )
    if isinstance(policy, Mapping):
        if set(policy) - {"dc", "weight"} or "dc" not in policy:
            raise _fail(field_name, policy, allowed)
        try:
            return Best(policy["dc"], policy.get("weight", 0.0))
        except RulesError as err:
            sub = (err.field or "Best.dc").split(".")[-1]
            message = message_of(err).replace(f"Best.{sub}", f"{field_name}.{sub}")
            raise recast(err, CharacterError, message, f"{field_name}.{sub}") from None
    try:
        Roll(policy=policy)
    except RulesError as err:
        raise _fail(field_name, policy, allowed, wrong_type=isinstance(err, TypeError)) from None
    return policy


@dataclass(frozen=True, repr=False)
class Character:
    """A character or creature: six scores, a level, proficiencies and gauges.

    ``skills`` and ``saves`` map a skill (French or English) or an ability to a proficiency
    multiplier 0, 1 or 2 (3d6x adds the proficiency bonus that many times; in d20 a 2 is
    Expertise: the bonus doubled once). Gauge maxima are ``score + per_level * level``
    unless ``gauge_max`` states them.

    Combat (docs/rules.md, "Combat"): ``armour`` (a piece of 5e's armour, English or French, or
    ``None``), ``shield``, ``attack`` (``"melee"``: STR; ``"ranged"``: DEX; ``"finesse"``: the
    better of the two; ``"spell"``: ``spell_ability``), ``attack_proficiency`` (0, 1 or 2: 3d6x
    adds PB that many times, d20 at most once) and ``attack_bonus`` (a magic weapon's +1) give
    :meth:`vd`, :meth:`ac`, :meth:`attack_modifier` and :meth:`attack_roll`.

    >>> c = Character("Aelis", {"STR": 8, "DEX": 16, "CON": 12, "INT": 10, "WIS": 14, "CHA": 12},
    ...               level=5, skills={"Stealth": 2, "Perception": 1}, saves={"DEX": 1},
    ...               gauge_per_level={"PA": 2})
    >>> c.skill_modifier("Discrétion"), c.save_modifier("DEX"), c.gauges()["PA"]
    (9, 6, 22)
    """

    name: str
    scores: Mapping[str, int]
    level: int = 1
    skills: Mapping[str, int] = field(default_factory=dict)
    saves: Mapping[str, int] = field(default_factory=dict)
    gauge_per_level: Mapping[str, int] = field(default_factory=dict)
    gauge_max: Mapping[str, int] | None = None
    actor: Actor = "pc"
    policy: Policy = "keep"
    reroll: Reroll | None = None
    load: float = 0.0
    tools: Mapping[str, int] = field(default_factory=dict)
    features: frozenset[Feature] = frozenset()
    armour: str | None = None
    shield: bool = False
    attack: AttackKind = "melee"
    attack_proficiency: int = 1
    attack_bonus: int = 0
    spell_ability: str | None = None

    def __post_init__(self) -> None:
        check_text("name", self.name, error=CharacterError)
        set_ = object.__setattr__
        set_(self, "scores", self._mapping("scores", self.scores, resolve_ability, 1, 30))
        missing = [a for a in ABILITIES if a not in self.scores]
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
        set_(self, "level", _int("level", self.level, 1, 20))
        # skills, saves and tools: a table name -> multiplier, or a list of names (1 each)
        set_(self, "skills", self._mapping("skills", self.skills, resolve_skill, 0, 2, True))
        set_(self, "saves", self._mapping("saves", self.saves, resolve_ability, 0, 2, True))
        set_(
            self,
            "gauge_per_level",
            self._mapping(
                "gauge_per_level", self.gauge_per_level, self._gauge, 0, MAX_GAUGE_PER_LEVEL
            ),
        )
        if self.gauge_max is not None:
            set_(
                self,
                "gauge_max",
                self._mapping("gauge_max", self.gauge_max, self._gauge, 0, MAX_GAUGE),
            )
        check_choice("actor", self.actor, ACTORS, CharacterError)
        set_(self, "policy", check_policy("policy", self.policy))
        try:
            set_(self, "reroll", as_reroll(self.reroll))
        except RulesError as err:
            raise recast(err, CharacterError) from None
        set_(self, "load", check_real("load", self.load, lo=0, hi=1e6, error=CharacterError))
        set_(self, "tools", self._mapping("tools", self.tools, _tool_name, 0, 1, True))
        given: Any = self.features  # what the caller passed, checked here
        allowed = Phrase("a list of features from {FEATURES}", FEATURES=list(FEATURES))
        if isinstance(given, (str, bytes, Mapping)) or not hasattr(given, "__iter__"):
            raise _fail("features", given, allowed, wrong_type=True)
        try:
            items = list(given)
        except TypeError:  # a 0-d array
            raise _fail("features", given, allowed, wrong_type=True) from None
        features = frozenset(check_choice("features", f, FEATURES, CharacterError) for f in items)
        set_(self, "features", features)
        self._check_combat()

    def _check_combat(self) -> None:
        set_ = object.__setattr__
        try:
            set_(self, "armour", resolve_armour(self.armour))
        except ExplodiceError as err:
            raise recast(err, CharacterError) from None
        set_(self, "shield", check_flag("shield", self.shield, error=CharacterError))
        check_choice("attack", self.attack, ATTACK_KINDS, CharacterError)
        set_(self, "attack_proficiency", _int("attack_proficiency", self.attack_proficiency, 0, 2))
        set_(self, "attack_bonus", _int("attack_bonus", self.attack_bonus, -20, 20))
        if self.spell_ability is not None:
            set_(
                self,
                "spell_ability",
                resolve_ability(self.spell_ability, field_name="spell_ability"),
            )
        elif self.attack == "spell":
            raise _fail(
                "spell_ability",
                None,
                Phrase(
                    "the spellcasting ability (INT, WIS or CHA ...) of a character whose "
                    "attack is 'spell'"
                ),
            )

    @staticmethod
    def _gauge(name: str, *, field_name: str) -> str:
        if not isinstance(name, str) or name.upper() not in GAUGES:
            allowed = Phrase("a gauge: one of {GAUGES}", GAUGES=list(GAUGES))
            raise _fail(field_name, name, allowed, wrong_type=not isinstance(name, str))
        return name.upper()

    @staticmethod
    def _mapping(
        field_name: str, value: Any, resolve: Any, lo: int, hi: int | None, names: bool = False
    ) -> Mapping[str, int]:
        """A table name -> integer in lo..hi, its names resolved; with ``names``, a list of
        names stands for multiplier 1 each, as in TOML (``saves = ["STR", "CON"]``)."""
        allowed = "a table of names to integers" + (" or a list of names" if names else "")
        if isinstance(value, Mapping):
            items = list(value.items())
        elif names and not isinstance(value, (str, bytes)) and hasattr(value, "__iter__"):
            try:
                items = [(key, 1) for key in value]
            except TypeError:  # a 0-d array
                raise _fail(field_name, value, allowed, wrong_type=True) from None
        else:
            raise _fail(field_name, value, allowed, wrong_type=True)
        out: dict[str, int] = {}
        for key, number in items:
            where = f"{field_name}.{key}" if isinstance(key, str) else field_name
            name = resolve(key, field_name=where)
            if name in out:
                raise _fail(where, key, Phrase("given once (it repeats {name})", name=name))
            out[name] = _int(where, number, lo, hi)
        return MappingProxyType(out)

    def __hash__(self) -> int:
        maps = (self.scores, self.skills, self.saves, self.gauge_per_level, self.gauge_max or {})
        return hash(
            (
                self.name,
                self.level,
                self.actor,
                self.policy,
                self.reroll,
                self.load,
                self.features,
                self.armour,
                self.shield,
                self.attack,
                self.attack_proficiency,
                self.attack_bonus,
                self.spell_ability,
                *(tuple(sorted(m.items())) for m in (*maps, self.tools)),
            )
        )

    def __repr__(self) -> str:
        scores = " ".join(f"{a} {self.scores[a]}" for a in ABILITIES)
        skills = dict(self.skills)
        return (
            f"Character({self.name!r}, level {self.level}, {self.actor}, {scores}, "
            f"skills={skills}, saves={dict(self.saves)}, policy={self.policy})"
        )

    # -- derived numbers --------------------------------------------------------------------
    def modifier(self, ability: str) -> int:
        """The ability modifier: floor((score - 10) / 2)."""
        return ability_modifier(self.scores[resolve_ability(ability)])

    @property
    def proficiency_bonus(self) -> int:
        """The proficiency bonus of the character's level."""
        return proficiency_bonus(self.level)

    @property
    def heavily_encumbered(self) -> bool:
        """Load (kg) over 5 x STR score (docs/rules.md, Encumbrance): disadvantage on STR, DEX and
        CON checks, saves and attacks."""
        return self.load > 5 * self.scores["STR"]

    def skill_modifier(
        self, skill: str, *, system: System = "3d6x", ability: str | None = None
    ) -> int:
        """Ability modifier + multiplier x PB (3d6x: PB added 0-2 times; d20: 2 = Expertise).

        ``ability`` overrides the skill's usual ability (e.g. CON (Athletics), seed 000).
        """
        check_system(system)
        skill = resolve_skill(skill)
        ab = SKILLS[skill] if ability is None else resolve_ability(ability)
        # 3d6x adds PB up to twice; d20 Expertise doubles it once: the same number either way.
        return self.modifier(ab) + self.skills.get(skill, 0) * self.proficiency_bonus

    def save_modifier(self, ability: str, *, system: System = "3d6x") -> int:
        """Ability modifier + save multiplier x PB (3d6x: 0-2 times; d20: at most once, since
        Expertise doubles ability checks only, seed 004, unless the ``save_expertise`` feature
        says twice). A save proficient twice read in d20 without that feature adds PB once and
        says so with a :class:`ProficiencyWarning`.

        >>> import warnings
        >>> c = Character("Bo", dict(STR=10, DEX=10, CON=10, INT=16, WIS=10, CHA=10),
        ...               level=5, saves={"INT": 2})
        >>> c.save_modifier("INT")
        9
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     c.save_modifier("INT", system="d20")
        6
        >>> caught[0].category.__name__
        'ProficiencyWarning'
        """
        check_system(system)
        ab = resolve_ability(ability)
        times = self.saves.get(ab, 0)
        if system == "d20" and times == 2 and "save_expertise" not in self.features:
            times = 1  # a save is proficient once in 5e unless a feature says so: said aloud
            warnings.warn(
                ProficiencyWarning(
                    f"{shown(self.name)}: `saves.{ab}` is 2 (proficient twice), which d20 "
                    f"reads as proficient once: 5e adds the proficiency bonus to a save at "
                    f"most once (+{self.proficiency_bonus}, not +{2 * self.proficiency_bonus}). "
                    "Add 'save_expertise' to the character's `features` to count it twice."
                ),
                stacklevel=2,
            )
        return self.modifier(ab) + times * self.proficiency_bonus

    # -- combat (docs/rules.md, "Combat") ----------------------------------------------------
    def vd(self, rules: Rules | None = None) -> int:
        """The defence value under ``rules``: ``defence_base`` + DEX (capped by armour under
        ``armour_dex_cap="5e"``) + the WIS term + armour + shield.

        >>> c = Character("Bo", dict(STR=16, DEX=14, CON=10, INT=10, WIS=12, CHA=10),
        ...               armour="cotte de mailles", shield=True)
        >>> c.vd(Rules(defence_base=10)), c.vd(Rules(defence_base=10, armour_dex_cap="none")), c.ac
        (19, 21, 18)
        """
        if rules is not None and not isinstance(rules, Rules):
            raise _fail("rules", rules, Phrase("a Rules or None"), wrong_type=True)
        rules = Rules() if rules is None else rules
        return defence_value(
            dex=self.modifier("DEX"),
            wis=self.modifier("WIS"),
            armour=self.armour,
            shield=self.shield,
            rules=rules,
        )

    @property
    def ac(self) -> int:
        """5e's armour class: 10 + DEX (capped as 5e caps it) + armour + shield."""
        return armour_class(dex=self.modifier("DEX"), armour=self.armour, shield=self.shield)

    @property
    def attack_ability(self) -> str:
        """The ability of the attack: STR in melee, DEX at range, the better with a finesse
        weapon (STR on a tie), the spellcasting ability for a spell."""
        if self.attack == "melee":
            return "STR"
        if self.attack == "ranged":
            return "DEX"
        if self.attack == "finesse":
            return "DEX" if self.modifier("DEX") > self.modifier("STR") else "STR"
        assert self.spell_ability is not None
        return self.spell_ability

    def spell_dc(self, system: System = "3d6x") -> int:
        """The save DC of this character's spells and effects: the system's base + PB + the
        spellcasting ability's modifier (else the attack's): 5e's 8, 3d6x's fitted base.

        >>> c = Character("Mia", dict(STR=8, DEX=12, CON=10, INT=16, WIS=10, CHA=10), level=5,
        ...               attack="spell", spell_ability="INT")
        >>> c.spell_dc("d20"), c.spell_dc("3d6x") - c.spell_dc("d20")
        (14, 1)
        """
        base = SAVE_DC_BASE_3D6X if check_system(system) == "3d6x" else D20_SAVE_DC_BASE
        return (
            base + self.proficiency_bonus + self.modifier(self.spell_ability or self.attack_ability)
        )

    def attack_modifier(self, system: System = "3d6x") -> int:
        """The attack's modifier: ability + PB x proficiency + ``attack_bonus``; 3d6x adds PB
        0-2 times, d20 at most once (docs/rules.md, d20).

        >>> c = Character("Bo", dict(STR=16, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
        ...               level=5, attack_proficiency=2)
        >>> c.attack_modifier(), c.attack_modifier("d20")
        (9, 6)
        """
        times = self.attack_proficiency
        if check_system(system) == "d20":
            times = min(times, 1)
        return (
            self.modifier(self.attack_ability) + times * self.proficiency_bonus + self.attack_bonus
        )

    def attack_roll(
        self,
        vd: int | None = None,
        *,
        system: System = "3d6x",
        advantage: Advantage = "normal",
        advantages: int = 0,
        disadvantages: int = 0,
    ) -> Roll:
        """The :class:`Roll` of the character's attack (kind ``attack``), its advantage netted
        with the character's own sources (heavy encumbrance on a STR or DEX attack); ``vd``
        (the target's VD, or AC in d20) is needed only by a reroll on failure."""
        return self.roll(
            ability=self.attack_ability,
            kind="attack",
            bonus=self.attack_modifier(system) - self.modifier(self.attack_ability),
            advantage=advantage,
            advantages=advantages,
            disadvantages=disadvantages,
            system=system,
            dc=vd,
        )

    def gauges(self) -> dict[str, int]:
        """Maxima of PA, PM, PF, PH: score + per-level points x level, or the stated maxima."""
        out = {
            g: self.scores[GAUGE_ABILITY[g]] + self.gauge_per_level.get(g, 0) * self.level
            for g in GAUGES
        }
        out.update(self.gauge_max or {})
        return out

    def roll(
        self,
        skill: str | None = None,
        *,
        ability: str | None = None,
        kind: RollKind | None = None,
        advantage: Advantage = "normal",
        bonus: int = 0,
        policy: Policy | None = None,
        system: System = "3d6x",
        dc: int | None = None,
        advantages: int = 0,
        disadvantages: int = 0,
        tool: str | None = None,
        reroll_on_failure: bool = True,
    ) -> Roll:
        """The :class:`Roll` of a skill check, an ability check, a save or an attack; its
        modifier is the ``system``'s (they differ only for a save proficient twice).

        - ``roll("Perception")``: a skill check, kind ``check`` (ability from the skill, or
          ``ability=``);
        - ``roll(ability="STR")``: an ability check without a skill, kind ``ability`` (outside
          the rule of 1 by default; ``kind="check"`` without a skill reads the same);
        - ``roll(ability="DEX", kind="save")``: a save;
        - ``roll(ability="STR", kind="attack", bonus=pb)``: an attack (``bonus`` for the rest).

        The character's ``reroll`` trait goes with the roll; a reroll on failure is spent
        against ``dc`` (without one it is an error), or left out with
        ``reroll_on_failure=False`` where a roll has no DC to fail (initiative). ``advantage`` (a state) and the counts ``advantages`` /
        ``disadvantages`` are netted with the character's own sources: heavy encumbrance (one
        disadvantage on STR, DEX and CON rolls) and a ``tool`` (its proficiency adds PB to a
        check without it; with the skill's proficiency too, it gives advantage, seed 004).
        In d20 the ``half_proficiency`` feature adds half PB (rounded down) to a check
        without proficiency, and ``save_expertise`` lets a save count its proficiency twice.

        >>> c = Character("Bob", dict(STR=16, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        >>> c.roll(ability="STR", kind="attack", bonus=c.proficiency_bonus).modifier
        5
        """
        bonus = _int("bonus", bonus, -100, 100)
        check_choice("advantage", advantage, ADVANTAGE_STATES, CharacterError)
        check_system(system)
        if kind is not None:
            check_choice("kind", kind, KINDS, CharacterError)
        reroll_on_failure = check_flag("reroll_on_failure", reroll_on_failure, error=CharacterError)
        advantages = _int("advantages", advantages, 0, 100) + (advantage == "advantage")
        disadvantages = _int("disadvantages", disadvantages, 0, 100) + (advantage == "disadvantage")
        if kind is None or kind == "check":  # docs/rules.md: a check names a skill, else "ability"
            kind = "check" if skill is not None else "ability"
        if kind == "save":
            if ability is None or skill is not None:
                raise _fail("ability", ability, Phrase("an ability (and no skill) for a save"))
            mod = self.save_modifier(ability, system=system)
        elif skill is not None:
            if kind != "check":
                raise _fail("kind", kind, Phrase("'check' (or absent) when a skill is given"))
            mod = self.skill_modifier(skill, ability=ability, system=system)
        elif ability is not None:
            check_system(system)
            mod = self.modifier(ability)
        else:
            raise _fail("skill", skill, Phrase("a skill, or an ability given as `ability=`"))
        rolled = (
            SKILLS[resolve_skill(skill)]
            if skill is not None and ability is None
            else (resolve_ability(ability) if ability is not None else None)
        )
        if self.heavily_encumbered and rolled in ("STR", "DEX", "CON"):
            disadvantages += 1
        proficient = self.skills.get(resolve_skill(skill), 0) if skill is not None else 0
        if tool is not None:
            if kind in ("save", "attack"):
                why = Phrase("absent for a {kind} (a tool is used in a check)", kind=kind)
                raise _fail("tool", tool, why)
            if self.tools.get(_tool_name(tool, field_name="tool"), 0):
                if proficient:
                    advantages += 1  # tool and skill: advantage as well (PB once)
                else:
                    mod += self.proficiency_bonus
                    proficient = 1
        if (
            system == "d20"
            and "half_proficiency" in self.features
            and not proficient
            and kind in ("check", "ability")
        ):
            mod += self.proficiency_bonus // 2
        advantage = net_advantage(advantages, disadvantages)
        pol = self.policy if policy is None else check_policy("policy", policy)
        reroll = self.reroll
        if reroll is not None and reroll.trigger == "failure" and not reroll_on_failure:
            reroll = None
        if reroll is not None and reroll.trigger == "failure":
            if dc is None and reroll.dc is None:
                need = Phrase("the roll's DC: {name}'s reroll on failure needs it", name=self.name)
                raise _fail("dc", dc, need)
            reroll = reroll.with_dc(_int("dc", dc, -MAX_DC, MAX_DC)) if dc is not None else reroll
        return Roll(
            mod + bonus, advantage=advantage, kind=kind, actor=self.actor, policy=pol, reroll=reroll
        )

    def ability_of(self, skill: str) -> str:
        """The ability a skill is rolled with (from the seeds)."""
        return SKILLS[resolve_skill(skill)]

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{a}</td><td>{self.scores[a]}</td><td>{self.modifier(a):+d}</td>"
            f"<td>{self.save_modifier(a):+d}</td></tr>"
            for a in ABILITIES
        )
        skills = ", ".join(
            f"{s} {self.skill_modifier(s):+d}" + (" (×2)" if m == 2 else "")
            for s, m in self.skills.items()
            if m
        )
        gauges = ", ".join(f"{g} {v}" for g, v in self.gauges().items())
        return (
            f"<div><b>{self.name}</b> — level {self.level} ({self.actor}), "
            f"PB +{self.proficiency_bonus}, policy {self.policy}<table><tr><th>ability</th>"
            f"<th>score</th><th>mod</th><th>save</th></tr>{rows}</table>"
            f"skills: {skills or '—'}<br>gauges: {gauges}</div>"
        )


# -- TOML ---------------------------------------------------------------------------------
_TOML_KEYS = (
    "name",
    "scores",
    "level",
    "skills",
    "saves",
    "gauge_per_level",
    "gauge_max",
    "actor",
    "policy",
    "reroll",
    "load",
    "tools",
    "features",
    "armour",
    "shield",
    "attack",
    "attack_proficiency",
    "attack_bonus",
    "spell_ability",
)


def characters_from_toml(text: str, *, source: str = "<string>") -> list[Character]:
    """Characters from TOML text with ``[[character]]`` tables (see :func:`load_characters`)."""
    data = parse_toml(text, source=source, error=CharacterFileError)
    extra = [k for k in data if k != "character"]
    if extra:
        raise CharacterFileError(
            Phrase(
                "{source}: `{extra}`: unknown top-level key; the file holds [[character]] tables.",
                source=source,
                extra=clip(extra[0]),
            )
        )
    return characters_from_tables(data.get("character"), source=source)


def characters_from_tables(tables: Any, *, source: str = "<tables>") -> list[Character]:
    """Characters from parsed ``[[character]]`` tables (a list of dicts, as ``tomllib`` reads
    them), for a file that holds other things too; errors name ``source``, key and problem.

    >>> [c.name for c in characters_from_tables([{"name": "Bo", "scores": dict(
    ...     STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10)}])]
    ['Bo']
    """
    return read_tables(
        tables,
        source=source,
        table="character",
        keys=_TOML_KEYS,
        make=lambda kwargs: Character(**kwargs),
        error=CharacterFileError,
    )


def read_tables(
    tables: Any,
    *,
    source: str,
    table: str,
    keys: tuple[str, ...],
    make: Any,
    error: type[ExplodiceError],
    refused: Mapping[str, str | Phrase] | None = None,
) -> list[Any]:
    """The objects ``make(kwargs)`` of parsed ``[[table]]`` tables of named characters (a
    character, a build): each table's keys checked against ``keys`` (``refused``: keys that
    are not allowed, and why), ``name`` and ``scores`` required, lists of proficiencies and
    policy tables read, names unique. Every error is one ``error`` naming ``source``, the
    table (``character[2]``), the key and the problem; a value that is no list of tables at
    all (``5``, a string) is the type error of ``error``'s domain."""
    if tables is not None and not isinstance(tables, (list, tuple)):
        raise fail(
            f"{source}: {table}",
            tables,
            Phrase("a list of [[{table}]] tables", table=table),
            error,
            wrong_type=True,
        )
    if not tables:
        raise error(
            Phrase(
                "{source}: `{table}`: no [[{table}]] table was found.", source=source, table=table
            )
        )
    out = []
    for i, entry in enumerate(tables):
        where = f"{table}[{i}]"
        if not isinstance(entry, Mapping):
            raise error(
                Phrase(
                    "{source}: `{where}`: a [[{table}]] table was expected, but {entry} "
                    "was passed.",
                    source=source,
                    where=where,
                    table=table,
                    entry=shown(entry),
                )
            )
        try:
            for key in entry:
                if refused and key in refused:
                    raise _fail(key, entry[key], refused[key])
                if key not in keys:
                    raise _fail(
                        key,
                        entry[key],
                        Phrase("absent: it is not a known key ({keys})", keys=", ".join(keys)),
                    )
            for required in ("name", "scores"):
                if required not in entry:
                    missing = CharacterError(Phrase("`{required}` is missing.", required=required))
                    missing.field = required
                    raise missing
            out.append(make(dict(entry)))  # the API reads a table as the file writes it
        except CharacterError as err:
            who = f" ({shown(entry['name'])})" if isinstance(entry.get("name"), str) else ""
            msg = message_of(err).replace(
                f"`{clip(err.field)}`", f"`{clip(f'{where}.{err.field}')}`{who}", 1
            )
            raise error(Phrase("{source}: {msg}", source=source, msg=msg)) from None
    names = [c.name for c in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise error(
            Phrase(
                "{source}: `{table}.name`: {dupes} is used twice; names must be unique.",
                source=source,
                table=table,
                dupes=shown(dupes[0]),
            )
        )
    return out


def load_characters(path: str | Path) -> list[Character]:
    """Read a party from a TOML file of ``[[character]]`` tables.

    Each table has ``name``, ``scores`` (six abilities, English or French keys), and
    optionally ``level``, ``skills`` and ``saves`` (a table name -> multiplier, or a list of
    names for multiplier 1), ``gauge_per_level``, ``gauge_max``, ``actor`` and ``policy``
    (``"keep"``, ``"cancel"`` or ``{dc = 16, weight = 0.1}``). Errors name file, key, problem::

        [[character]]
        name = "Gudulf"
        level = 3
        scores = { FOR = 14, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }
        skills = { "Athlétisme" = 1, Intimidation = 1 }
        saves = ["STR", "CON"]
        gauge_per_level = { PA = 3 }
    """
    text = read_text(path, error=CharacterFileError)
    return characters_from_toml(text, source=str(path))
