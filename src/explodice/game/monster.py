"""Monsters: a 5e stat block read in 3d6x (docs/rules.md, "Monsters by power factor").

A :class:`Monster` holds what a designer copies from a stat block: its name, its power factor
(FP, 5e's challenge rating: 0, 1/8, 1/4, 1/2, 1..30), its AC (or a VD of 3d6x's own), its six
scores, its HP and creature type, its attacks (name and to-hit bonus as printed), its save DCs
(as printed), its saves and skills (bonuses as printed, or a list of the proficient ones) and
where it comes from. It then reads in 3d6x by the rules' conversions:

- its PB by its FP (5e's table, :func:`~explodice.game.tables.fp_proficiency_bonus`);
- its VD = AC - 10 + ``defence_base`` + the WIS term (:meth:`Monster.vd`);
- an attack adds its printed bonus in both systems (an ability modifier + PB + other);
- a save DC is the printed 5e DC in d20 and DC - 8 + the 3d6x save base in 3d6x, that is
  the fitted base + PB + modifier (:meth:`Monster.save_dc`);
- it rolls as an NPC: under the rule of 1 it cancels every pair it can.

Monsters load from TOML ``[[monster]]`` tables, keys in English or French
(:func:`load_monsters`)::

    [[monster]]
    name = "Goblin"          # nom
    fp = "1/4"               # FP
    ac = 15                  # CA (or vd = ..., VD)
    scores = { FOR = 8, DEX = 14, CON = 10, INT = 10, SAG = 8, CHA = 8 }   # caracteristiques
    hp = 7                   # pv
    type = "humanoid"
    attacks = { Scimitar = 4, Shortbow = 4 }          # attaques
    skills = { Stealth = 6 }                          # competences
    source = "SRD 5.1"

>>> from explodice import Monster, Rules
>>> goblin = Monster("Goblin", "1/4", dict(STR=8, DEX=14, CON=10, INT=10, WIS=8, CHA=8), ac=15,
...                  attacks={"Scimitar": 4}, skills={"Stealth": 6})
>>> goblin.pb, goblin.vd(Rules(defence_base=10)), goblin.attack_bonus(), goblin.skill_modifier("Discrétion")
(2, 14, 4, 6)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_text,
    clip,
    fail,
    recast,
    shown,
)
from explodice.core.files import parse_toml, read_text
from explodice.core.words import Phrase
from explodice.game.character import (
    ABILITIES,
    SKILLS,
    CharacterError,
    CharacterFileError,
    ability_modifier,
    read_tables,
    resolve_ability,
    resolve_skill,
)
from explodice.game.checks import check_rules
from explodice.game.defence import wisdom_term
from explodice.game.rules import Advantage, Roll, Rules, check_int
from explodice.game.tables import (
    D20_AC_BASE,
    D20_SAVE_DC_BASE,
    SAVE_DC_BASE_3D6X,
    System,
    check_system,
    fold_name,
    fp_proficiency_bonus,
    parse_fp,
)

__all__ = [
    "Monster",
    "MonsterError",
    "MonsterFileError",
    "MonsterTypeError",
    "fp_label",
    "load_monsters",
    "matched_level",
    "monsters_from_tables",
    "monsters_from_toml",
]

#: The most a printed bonus or DC may be (the SRD's highest are about +19 and DC 30).
MAX_PRINTED = 60


class MonsterError(CharacterError):
    """A monster was given a value the rules do not allow; ``field`` names the key."""


class MonsterFileError(CharacterFileError):
    """A TOML file of monsters is malformed: the message names the file, the key, the problem."""


class MonsterTypeError(MonsterError, ExplodiceTypeError):
    """A monster was given a value of the wrong type (a list for its scores, say)."""


def _fail(
    field_name: str, value: Any, allowed: str | Phrase, *, wrong_type: bool = False
) -> ExplodiceError:
    return fail(field_name, value, allowed, MonsterError, wrong_type=wrong_type)


def _int(field_name: str, value: Any, lo: int, hi: int) -> int:
    return check_int(field_name, value, lo=lo, hi=hi, error=MonsterError)


def fp_label(fp: Any) -> str:
    """An FP as a stat block writes it: ``0``, ``1/8``, ``1/4``, ``1/2``, ``1`` .. ``30``.

    >>> fp_label(0.25), fp_label(3), fp_label(0)
    ('1/4', '3', '0')
    """
    return str(parse_fp(fp))


def matched_level(fp: Any) -> int:
    """The level of the party a monster of FP ``fp`` meets: its FP, clamped to 1..20
    (docs/rules.md: FP 1/4 meets level 1, FP 25 level 20).

    >>> matched_level("1/2"), matched_level(7), matched_level(30)
    (1, 7, 20)
    """
    return max(1, min(20, int(parse_fp(fp))))


def _named_numbers(field_name: str, value: Any, lo: int, hi: int) -> Mapping[str, int]:
    """A table name -> integer (an attack's bonus, a save DC), its names non-empty."""
    if not isinstance(value, Mapping):
        raise _fail(field_name, value, Phrase("a table of names to integers"), wrong_type=True)
    out: dict[str, int] = {}
    for key, number in value.items():
        where = f"{field_name}.{key}"
        check_text(where, key, what=Phrase("a name (a non-empty string)"), error=MonsterError)
        out[str(key)] = _int(where, number, lo, hi)
    return MappingProxyType(out)


def _proficiencies(field_name: str, value: Any, resolve: Any) -> tuple[Mapping[str, int], bool]:
    """Saves or skills: a table name -> bonus as printed, or a list of the proficient names
    (their bonus: modifier + PB). Returns the table and whether the values are printed
    bonuses (``True``) or proficiencies (``False``: each value 1)."""
    allowed = Phrase("a table of names to bonuses as printed, or a list of the proficient names")
    if isinstance(value, Mapping):
        items, printed = list(value.items()), True
    elif isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise _fail(field_name, value, allowed, wrong_type=True)
    else:
        try:
            items, printed = [(k, 1) for k in value], False
        except TypeError:  # a 0-d array
            raise _fail(field_name, value, allowed, wrong_type=True) from None
    out: dict[str, int] = {}
    for key, number in items:
        where = f"{field_name}.{key}" if isinstance(key, str) else field_name
        name = resolve(key, field_name=where)
        if name in out:
            raise _fail(where, key, Phrase("given once (it repeats {name})", name=name))
        out[name] = _int(where, number, -MAX_PRINTED, MAX_PRINTED)
    return MappingProxyType(out), printed


@dataclass(frozen=True, repr=False)
class Monster:
    """A creature from a 5e stat block, read in 3d6x (see the module's docstring).

    - ``name``; ``fp``: 0, 1/8, 1/4, 1/2 or 1..30 (a number, a Fraction or ``"1/4"``);
    - ``scores``: the six scores (English or French names, 1..30);
    - ``ac``: its 5e AC, or ``defence``: a VD of 3d6x's own (one of the two);
    - ``hp``, ``creature_type``, ``source`` (``"SRD 5.1"``, a file's name);
    - ``attacks``: ``{name: to-hit bonus as printed}``; ``save_dcs``: ``{name: DC as printed}``;
    - ``saves``, ``skills``: ``{name: bonus as printed}``, or a list of the proficient ones
      (modifier + PB each).

    >>> m = Monster("Ogre", 2, dict(STR=19, DEX=8, CON=16, INT=5, WIS=7, CHA=7), ac=11, hp=59,
    ...             attacks={"Greatclub": 6})
    >>> m.vd(Rules(defence_base=10)), m.vd(Rules(defence_base=10, wisdom_in_defence="positive"))
    (9, 11)
    """

    name: str
    fp: Any
    scores: Mapping[str, int]
    _: KW_ONLY
    ac: int | None = None
    defence: int | None = None
    hp: int | None = None
    creature_type: str = ""
    attacks: Mapping[str, int] = field(default_factory=dict)
    save_dcs: Mapping[str, int] = field(default_factory=dict)
    saves: Mapping[str, int] | Iterable[str] = field(default_factory=dict)
    skills: Mapping[str, int] | Iterable[str] = field(default_factory=dict)
    source: str = ""
    # set by __post_init__: whether saves and skills are printed bonuses or proficiencies
    _printed: tuple[bool, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            self._validate()
        except CharacterError as err:  # an ability's or a skill's check
            if isinstance(err, MonsterError):
                raise
            raise recast(err, MonsterError) from None
        except ExplodiceError as err:  # the FP's check
            raise recast(err, MonsterError) from None

    def _validate(self) -> None:
        set_ = object.__setattr__
        check_text("name", self.name, error=MonsterError)
        set_(self, "fp", parse_fp(self.fp))
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
        if (self.ac is None) == (self.defence is None):
            raise _fail(
                "ac",
                self.ac,
                Phrase(
                    "its 5e AC, or else `defence` (a VD of 3d6x's own): one of the two "
                    "(both were given)"
                )
                if self.ac is not None
                else Phrase("its 5e AC, or else `defence` (a VD of 3d6x's own): one of the two"),
            )
        if self.ac is not None:
            set_(self, "ac", _int("ac", self.ac, 0, MAX_PRINTED))
        if self.defence is not None:
            set_(self, "defence", _int("defence", self.defence, 0, 2 * MAX_PRINTED))
        if self.hp is not None:
            set_(self, "hp", _int("hp", self.hp, 1, 10_000))
        for key in ("creature_type", "source"):
            value = getattr(self, key)
            if not isinstance(value, str):
                raise _fail(key, value, Phrase("a string"), wrong_type=True)
        set_(self, "attacks", _named_numbers("attacks", self.attacks, -MAX_PRINTED, MAX_PRINTED))
        set_(self, "save_dcs", _named_numbers("save_dcs", self.save_dcs, 0, MAX_PRINTED))
        saves, saves_printed = _proficiencies("saves", self.saves, resolve_ability)
        skills, skills_printed = _proficiencies("skills", self.skills, resolve_skill)
        set_(self, "saves", saves)
        set_(self, "skills", skills)
        set_(self, "_printed", (saves_printed, skills_printed))

    # -- what the stat block gives ------------------------------------------------------------
    @property
    def pb(self) -> int:
        """The proficiency bonus of its FP (5e's table)."""
        return fp_proficiency_bonus(self.fp)

    @property
    def level(self) -> int:
        """The level of the party it meets: its FP clamped to 1..20."""
        return matched_level(self.fp)

    def modifier(self, ability: str) -> int:
        """An ability modifier: floor((score - 10) / 2)."""
        return ability_modifier(self.scores[resolve_ability(ability)])

    def vd(self, rules: Rules | None = None) -> int:
        """Its VD: ``defence`` when stated, else AC - 10 + ``defence_base`` + the WIS term."""
        rules = check_rules(rules)
        if self.defence is not None:
            return self.defence
        assert self.ac is not None
        return self.ac - D20_AC_BASE + rules.defence_base + wisdom_term(self.modifier("WIS"), rules)

    def armour_class(self, rules: Rules | None = None) -> int:
        """Its 5e AC: ``ac`` when stated, else read back from its VD under ``rules``."""
        if self.ac is not None:
            return self.ac
        rules = check_rules(rules)
        assert self.defence is not None
        return (
            self.defence
            + D20_AC_BASE
            - rules.defence_base
            - wisdom_term(self.modifier("WIS"), rules)
        )

    def attack_bonus(self, attack: str | None = None) -> int:
        """The to-hit bonus of ``attack`` (by name), or its highest; without attacks, its
        better of STR and DEX + PB (a 5e weapon attack)."""
        if attack is not None:
            check_text("attack", attack, what=Phrase("the name of an attack"), error=MonsterError)
            if attack not in self.attacks:
                raise _fail(
                    "attack",
                    attack,
                    Phrase(
                        "one of {name}'s attacks: {attacks}",
                        name=self.name,
                        attacks=list(self.attacks),
                    ),
                )
            return self.attacks[attack]
        if self.attacks:
            return max(self.attacks.values())
        return max(self.modifier("STR"), self.modifier("DEX")) + self.pb

    def save_dc(self, name: str | None = None, *, system: System = "d20") -> int | None:
        """A save DC (``name``, or its highest): as printed in d20; in 3d6x DC - 8 + the 3d6x
        save base (the fitted base + PB + the modifier). ``None`` when it has none.

        >>> m = Monster("Imp", 1, dict(STR=6, DEX=17, CON=13, INT=11, WIS=12, CHA=14), ac=13,
        ...             save_dcs={"Sting": 11})
        >>> m.save_dc(), m.save_dc(system="3d6x")
        (11, 12)
        """
        check_system(system)
        if name is not None:
            check_text("name", name, what=Phrase("the name of a save DC"), error=MonsterError)
            if name not in self.save_dcs:
                raise _fail(
                    "save_dc",
                    name,
                    Phrase(
                        "one of {name}'s save DCs: {save_dcs}",
                        name=self.name,
                        save_dcs=list(self.save_dcs),
                    ),
                )
            dc = self.save_dcs[name]
        elif self.save_dcs:
            dc = max(self.save_dcs.values())
        else:
            return None
        return dc if system == "d20" else dc - D20_SAVE_DC_BASE + SAVE_DC_BASE_3D6X

    def save_modifier(self, ability: str) -> int:
        """Its save: the bonus as printed, else modifier + PB when proficient, else the
        modifier."""
        ab = resolve_ability(ability)
        mod = self.modifier(ab)
        if ab not in self.saves:
            return mod
        saves = cast(Mapping[str, int], self.saves)  # validated: a table
        return saves[ab] if self._printed[0] else mod + self.pb

    def skill_modifier(self, skill: str) -> int:
        """A skill: the bonus as printed, else modifier + PB when proficient, else the
        ability's modifier."""
        name = resolve_skill(skill)
        mod = self.modifier(SKILLS[name])
        if name not in self.skills:
            return mod
        skills = cast(Mapping[str, int], self.skills)  # validated: a table
        return skills[name] if self._printed[1] else mod + self.pb

    # -- its rolls ----------------------------------------------------------------------------
    def attack_roll(
        self, attack: str | None = None, *, advantage: Advantage = "normal", system: System = "3d6x"
    ) -> Roll:
        """The :class:`Roll` of an attack (an NPC's; the bonus is the same in both systems)."""
        check_system(system)
        return Roll(self.attack_bonus(attack), advantage=advantage, kind="attack", actor="npc")

    def save_roll(
        self, ability: str, *, advantage: Advantage = "normal", system: System = "3d6x"
    ) -> Roll:
        """The :class:`Roll` of a save (an NPC's)."""
        check_system(system)
        return Roll(self.save_modifier(ability), advantage=advantage, kind="save", actor="npc")

    # -- as data --------------------------------------------------------------------------------
    def to_table(self) -> dict[str, Any]:
        """The monster as a ``[[monster]]`` table: :func:`monsters_from_tables` gives it back.

        >>> m = Monster("Bo", "1/2", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), ac=12,
        ...             saves=["DEX"])
        >>> monsters_from_tables([m.to_table()])[0] == m
        True
        """
        out: dict[str, Any] = {
            "name": self.name,
            "fp": fp_label(self.fp),
            "scores": dict(self.scores),
        }
        for key in ("ac", "defence", "hp"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.creature_type:
            out["type"] = self.creature_type
        for key in ("attacks", "save_dcs"):
            if getattr(self, key):
                out[key] = dict(getattr(self, key))
        for key, printed in zip(("saves", "skills"), self._printed):
            value = getattr(self, key)
            if value:
                out[key] = dict(value) if printed else list(value)
        if self.source:
            out["source"] = self.source
        return out

    def replace(self, **changes: Any) -> Monster:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def __hash__(self) -> int:
        return hash(repr(sorted(self.to_table().items(), key=lambda kv: kv[0])))

    def __reduce__(self) -> tuple[Any, ...]:
        # read-only proxies do not pickle: go through the table
        return (_from_table, (self.to_table(),))

    def __repr__(self) -> str:
        defence = f"AC {self.ac}" if self.ac is not None else f"VD {self.defence}"
        scores = " ".join(f"{a} {self.scores[a]}" for a in ABILITIES)
        return (
            f"Monster({self.name!r}, FP {fp_label(self.fp)}, {defence}, {scores}, "
            f"attacks={dict(self.attacks)}, save_dcs={dict(self.save_dcs)}"
            + (f", source={self.source!r}" if self.source else "")
            + ")"
        )

    def _repr_html_(self) -> str:
        return f"<div>{html.escape(repr(self))}</div>"


def _from_table(table: dict[str, Any]) -> Monster:
    return monsters_from_tables([table], source="<pickle>")[0]


# -- TOML -----------------------------------------------------------------------------------
#: The keys of a ``[[monster]]`` table, and their French names (folded: case and accents).
_TOML_KEYS = (
    "name",
    "fp",
    "scores",
    "ac",
    "defence",
    "hp",
    "type",
    "attacks",
    "save_dcs",
    "saves",
    "skills",
    "source",
)
_FRENCH_KEYS = {
    "nom": "name",
    "facteur de puissance": "fp",
    "caracteristiques": "scores",
    "valeurs": "scores",
    "ca": "ac",
    "classe d'armure": "ac",
    "vd": "defence",
    "valeur de defense": "defence",
    "pv": "hp",
    "points de vie": "hp",
    "attaques": "attacks",
    "dd": "save_dcs",
    "dd de sauvegarde": "save_dcs",
    "sauvegardes": "saves",
    "jets de sauvegarde": "saves",
    "competences": "skills",
}
_KEY_LOOKUP = {fold_name(k): k for k in _TOML_KEYS} | {"challenge rating": "fp", "cr": "fp"}
_KEY_LOOKUP |= {fold_name(k): v for k, v in _FRENCH_KEYS.items()}


def _english_keys(entry: Any) -> Any:
    """A table's keys in English (a key it does not know is kept, for read_tables to refuse;
    a key given twice, in both languages, is refused)."""
    if not isinstance(entry, Mapping):
        return entry
    out: dict[str, Any] = {}
    for key, value in entry.items():
        english = _KEY_LOOKUP.get(fold_name(key), key) if isinstance(key, str) else key
        if english in out:
            raise MonsterError(
                Phrase(
                    "`{key}`: `{english}` is given twice ({key2}).",
                    key=clip(key),
                    english=english,
                    key2=shown(key),
                )
            )
        out[english] = value
    return out


def _make(kwargs: dict[str, Any]) -> Monster:
    if "type" in kwargs:
        kwargs["creature_type"] = kwargs.pop("type")
    if "fp" not in kwargs:
        raise _fail("fp", None, Phrase("its power factor (FP, 5e's CR): 0, 1/8, 1/4, 1/2 or 1..30"))
    return Monster(kwargs.pop("name"), kwargs.pop("fp"), kwargs.pop("scores"), **kwargs)


def monsters_from_tables(
    tables: Any, *, source: str = "<tables>", tag: str | None = None
) -> list[Monster]:
    """Monsters from parsed ``[[monster]]`` tables (a list of dicts, as ``tomllib`` reads
    them), keys in English or French; a table without ``source`` gets ``tag`` as its source
    when one is given. Errors name ``source``, the table, the key and the problem.

    >>> [m.vd() for m in monsters_from_tables([{"nom": "Gobelin", "FP": "1/4", "CA": 15,
    ...     "caracteristiques": dict(FOR=8, DEX=14, CON=10, INT=10, SAG=8, CHA=8)}])]
    [15]
    """
    check_text(
        "source", source, what=Phrase("a name for the tables in messages"), error=MonsterError
    )
    check_text(
        "tag", tag, what=Phrase("a source tag (a non-empty string)"), none=True, error=MonsterError
    )
    if isinstance(tables, list):
        try:
            tables = [_english_keys(t) for t in tables]
        except MonsterError as err:
            raise MonsterFileError(Phrase("{source}: {err}", source=source, err=err)) from None
        if tag is not None:
            tables = [
                {**t, "source": t.get("source", tag)} if isinstance(t, Mapping) else t
                for t in tables
            ]
    return read_tables(
        tables,
        source=source,
        table="monster",
        keys=_TOML_KEYS,
        make=_make,
        error=MonsterFileError,
    )


def monsters_from_toml(
    text: str, *, source: str = "<string>", tag: str | None = None
) -> list[Monster]:
    """Monsters from TOML text of ``[[monster]]`` tables (see :func:`load_monsters`)."""
    data = parse_toml(text, source=source, error=MonsterFileError)
    extra = [k for k in data if k != "monster"]
    if extra:
        raise MonsterFileError(
            Phrase(
                "{source}: `{extra}`: unknown top-level key; the file holds [[monster]] tables.",
                source=source,
                extra=clip(extra[0]),
            )
        )
    return monsters_from_tables(data.get("monster"), source=source, tag=tag)


def load_monsters(path: str | Path) -> list[Monster]:
    """Read monsters from a TOML file of ``[[monster]]`` tables (keys in English or French,
    see the module's docstring); each monster's ``source`` is the file unless it states one."""
    text = read_text(path, error=MonsterFileError)
    return monsters_from_toml(text, source=str(path), tag=Path(path).name)
