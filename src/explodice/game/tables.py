"""The tables printed in the seeds, each written once: DCs, difficulty names, profiles, items.

Every other module reads these; none writes its own copy.

>>> DC_TABLES["3d6x"]["moderate"], DC_TABLES["d20"]["moderate"], DIFFICULTY_FR["hard"]
(16, 15, 'Difficile')
>>> dc_bands("d20")[0]
('very easy', 5)
"""

from __future__ import annotations

import functools
import math
import numbers
import unicodedata
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Literal, get_args

from explodice.core.errors import ExplodiceError, check_choice, fail
from explodice.core.numbers import read_decimal, read_int
from explodice.core.words import Phrase

__all__ = [
    "DC_TABLE",
    "DC_TABLES",
    "DEFAULT_TARGETS",
    "TARGET_RANGES",
    "DIFFICULTIES",
    "DIFFICULTY_FR",
    "D20_DCS",
    "D20_SAVE_DC_BASE",
    "SAVE_DC_BASE_3D6X",
    "D20_AC_BASE",
    "DEFENCE_BASE",
    "DEFENCE_BASE_RANGE",
    "HIT_MARK_D20",
    "ARMOUR",
    "ARMOUR_DEX_CAP",
    "ARMOUR_FR",
    "SHIELD",
    "SHIELD_BONUS",
    "ArmourCategory",
    "FP_VALUES",
    "fp_proficiency_bonus",
    "parse_fp",
    "resolve_armour",
    "HAGGLE_BASE_DC",
    "HAGGLE_CAP_PCT",
    "HAGGLE_DECEPTION_CAP_PCT",
    "HAGGLE_STEP_PCT",
    "HAGGLE_DCS",
    "HAGGLE_DCS_FR",
    "MODIFIERS",
    "PROFILES",
    "SYSTEMS",
    "Difficulty",
    "System",
    "check_system",
    "dc_bands",
    "difficulty_of",
    "fold_name",
    "resolve_item",
]

#: The two systems modelled side by side.
System = Literal["3d6x", "d20"]
SYSTEMS: tuple[System, ...] = get_args(System)

#: The difficulty bands, easiest first (English names used in code).
Difficulty = Literal["very easy", "easy", "moderate", "hard", "very hard", "nearly impossible"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
#: Seed 000's French names of the bands.
DIFFICULTY_FR: Mapping[str, str] = MappingProxyType(
    dict(
        zip(
            DIFFICULTIES,
            (
                "Très facile",
                "Facile",
                "Modérée",
                "Difficile",
                "Très difficile",
                "Presque impossible",
            ),
        )
    )
)
#: The typical DCs of seed 000 (3d6x): difficulty -> DC.
DC_TABLE: Mapping[str, int] = MappingProxyType(dict(zip(DIFFICULTIES, (8, 12, 16, 22, 28, 35))))
#: The typical 5e DCs (seed 001): difficulty -> DC.
D20_DCS: Mapping[str, int] = MappingProxyType(dict(zip(DIFFICULTIES, (5, 10, 15, 20, 25, 30))))
DC_TABLES: Mapping[str, Mapping[str, int]] = MappingProxyType({"3d6x": DC_TABLE, "d20": D20_DCS})
#: 5e's save DC is this base + the caster's proficiency bonus + its modifier (SRD 5.1, "Spell
#: Save DC"): what ``explodice.fit_save_dc`` matches in 3d6x.
D20_SAVE_DC_BASE = 8
#: 3d6x's save DC is this base + PB + the caster's modifier: the base ``explodice.fit_save_dc``
#: finds on the reference builds (least squares over the gaps of levels 1-20: B = 9, error
#: 0.051; tests/test_combat_fit.py fits it again and checks that it is still this one).
SAVE_DC_BASE_3D6X = 9

# -- combat (docs/rules.md, "Combat") -------------------------------------------------------------
#: 5e's armour class starts at this base (10 + DEX + armour + shield); a 3d6x VD is read from a
#: 5e AC as AC - D20_AC_BASE + defence_base + the WIS term.
D20_AC_BASE = 10
#: The default ``Rules.defence_base``: the VD base that keeps a level-matched attack's P(hit) in
#: 3d6x closest (least squares) to 5e's, over the reference builds at levels 1-20 and the SRD's
#: typical monster of FP = level - 3 .. level + 3, both ways (the build hits the monster, the
#: monster hits the build), under the default readings: ``explodice.fit_defence_base()`` finds
#: 11 (root mean square error 0.115 over 1,400 cases, largest 0.297; minimax finds 10, largest
#: 0.249). tests/test_combat_fit.py fits it again and checks that it is still this one.
DEFENCE_BASE = 11
#: The values ``Rules.defence_base`` may take.
DEFENCE_BASE_RANGE = (0, 30)
#: 5e's design mark: a level-matched attacker hits about this often.
HIT_MARK_D20 = 0.65

#: 5e's categories of armour (SRD 5.1, "Armor").
ArmourCategory = Literal["light", "medium", "heavy"]
#: The most of its DEX modifier a wearer adds to AC, by category, in 5e (None: no cap; 0: none).
ARMOUR_DEX_CAP: Mapping[str, int | None] = MappingProxyType(
    {"light": None, "medium": 2, "heavy": 0}
)
#: 5e's armour (SRD 5.1): name -> (its AC minus 10, the bonus it adds to AC or VD; category).
ARMOUR: Mapping[str, tuple[int, ArmourCategory]] = MappingProxyType(
    {
        "padded": (1, "light"),
        "leather": (1, "light"),
        "studded leather": (2, "light"),
        "hide": (2, "medium"),
        "chain shirt": (3, "medium"),
        "scale mail": (4, "medium"),
        "breastplate": (4, "medium"),
        "half plate": (5, "medium"),
        "ring mail": (4, "heavy"),
        "chain mail": (6, "heavy"),
        "splint": (7, "heavy"),
        "plate": (8, "heavy"),
    }
)
#: The French names of 5e's armour (the French SRD's).
ARMOUR_FR: Mapping[str, str] = MappingProxyType(
    {
        "padded": "matelassée",
        "leather": "cuir",
        "studded leather": "cuir clouté",
        "hide": "peau",
        "chain shirt": "chemise de mailles",
        "scale mail": "écailles",
        "breastplate": "cuirasse",
        "half plate": "demi-plate",
        "ring mail": "broigne",
        "chain mail": "cotte de mailles",
        "splint": "clibanion",
        "plate": "harnois",
    }
)
#: A shield (French "bouclier") adds this to AC or VD (SRD 5.1).
SHIELD = "shield"
SHIELD_BONUS = 2

#: 5e's challenge ratings, the seeds' power factors (FP): 0, 1/8, 1/4, 1/2, then 1..30.
FP_VALUES: tuple[Fraction, ...] = (
    Fraction(0),
    Fraction(1, 8),
    Fraction(1, 4),
    Fraction(1, 2),
    *(Fraction(i) for i in range(1, 31)),
)
_FP_SET = frozenset(FP_VALUES)
_FP_ALLOWED = Phrase("a power factor: 0, 1/8, 1/4, 1/2 or an integer 1..30")
#: 5e's proficiency bonus by challenge rating: (highest FP of the step, PB), FP 0-4 +2 ... 29-30 +9.
_FP_PB_STEPS = ((4, 2), (8, 3), (12, 4), (16, 5), (20, 6), (24, 7), (28, 8), (30, 9))

#: The modifiers a table shows by default: every ability modifier the rules allow, -5..+10.
MODIFIERS = tuple(range(-5, 11))

#: Reference profiles: untrained +0, trained level 1 (+2 ability, +2 PB), expert +8.
PROFILES: Mapping[str, int] = MappingProxyType({"untrained": 0, "trained": 4, "expert": 8})
#: Target P(success) of the reference profile per difficulty band (for suggesting DCs).
DEFAULT_TARGETS: Mapping[str, float] = MappingProxyType(
    dict(zip(DIFFICULTIES, (0.95, 0.75, 0.5, 0.25, 0.1, 0.01)))
)

#: The range of P(success) a designer wants per difficulty band across levels 1-20 (for
#: ``explodice.progression``): what 5e gives its trained build on its main skill (score 16 at
#: level 1, 18 at 4, 20 at 8; proficient once) against 5e's DC table, from level 1 (+5) to
#: level 17 (+11), widened by one d20 face (0.05) each side, since a d20 cannot tell closer
#: odds apart. Inside it, 3d6x keeps the feel 5e gives the same build at some level.
TARGET_RANGES: Mapping[str, tuple[float, float]] = MappingProxyType(
    dict(
        zip(
            DIFFICULTIES,
            ((0.95, 1.0), (0.75, 1.0), (0.5, 0.9), (0.25, 0.65), (0.0, 0.4), (0.0, 0.15)),
        )
    )
)

#: Seed 000's base haggling DC (Persuasion).
HAGGLE_BASE_DC = 16
#: The price moves this many percent per point of margin (seed 000)...
HAGGLE_STEP_PCT = 10
#: ...at most this much either way...
HAGGLE_CAP_PCT = 25
#: ...or, aiming higher with a Deception check as well, this much in the buyer's favour.
HAGGLE_DECEPTION_CAP_PCT = 50
#: Seed 000's minimum haggling DCs by item type.
HAGGLE_DCS: Mapping[str, int] = MappingProxyType(
    {
        "weapons": 16,
        "armour": 16,
        "magic components": 16,
        "common items": 16,
        "magic items": 22,
        "legendary magic items": 35,
        "sacred magic items": 28,
        "works of art": 22,
        "gems": 22,
    }
)
#: The seed's French names of the item types.
HAGGLE_DCS_FR: Mapping[str, str] = MappingProxyType(
    {
        "weapons": "Armes",
        "armour": "Armures",
        "magic components": "Composantes magiques",
        "common items": "Objets courants",
        "magic items": "Objets magiques",
        "legendary magic items": "Objets magiques légendaires",
        "sacred magic items": "Objets magiques sacrés",
        "works of art": "Œuvres d'art",
        "gems": "Pierres précieuses",
    }
)


def check_system(system: str) -> System:
    """``system`` validated: ``"3d6x"`` or ``"d20"``."""
    return check_choice("system", system, SYSTEMS, ExplodiceError)


def dc_bands(system: System = "3d6x") -> tuple[tuple[str, int], ...]:
    """The typical DC table of a system as ``(difficulty, DC)`` pairs, easiest first."""
    return tuple(DC_TABLES[check_system(system)].items())


def parse_fp(value: object, field_name: str = "fp") -> Fraction:
    """A power factor (5e's challenge rating) as written: 0, 1/8, 1/4, 1/2 or 1..30, given as a
    number, a fraction or a string ("1/4", "0.25").

    >>> parse_fp("1/4"), parse_fp(0.5), parse_fp(12)
    (Fraction(1, 4), Fraction(1, 2), Fraction(12, 1))
    """
    allowed = _FP_ALLOWED
    fp: Fraction | None = None
    if isinstance(value, bool):
        fp = None
    elif isinstance(value, (Fraction, numbers.Rational)):
        fp = Fraction(int(value.numerator), int(value.denominator))
    elif isinstance(value, numbers.Real):
        if math.isfinite(float(value)):
            fp = Fraction(float(value)).limit_denominator(8)
            fp = fp if float(fp) == float(value) else None
    elif isinstance(value, str):
        try:  # ASCII digits only (core.numbers): Fraction("５") would read a full-width 5
            num, slash, den = value.strip().partition("/")
            fp = Fraction(read_int(num), read_int(den)) if slash else Fraction(read_decimal(num))
        except (ValueError, ZeroDivisionError):
            raise fail(field_name, value, allowed, ExplodiceError) from None
    else:
        raise fail(field_name, value, allowed, ExplodiceError, wrong_type=True)
    if fp is None or fp not in _FP_SET:  # a set: read on every label of every monster
        raise fail(field_name, value, allowed, ExplodiceError, wrong_type=isinstance(value, bool))
    return fp


def fp_proficiency_bonus(fp: object) -> int:
    """A monster's proficiency bonus by its power factor (5e's table): FP 0-4 +2, 5-8 +3,
    9-12 +4, 13-16 +5, 17-20 +6, 21-24 +7, 25-28 +8, 29-30 +9.

    >>> [fp_proficiency_bonus(f) for f in ("1/8", 4, 5, 17, 30)]
    [2, 2, 3, 6, 9]
    """
    value = parse_fp(fp)
    return next(pb for top, pb in _FP_PB_STEPS if value <= top)


def difficulty_of(dc: int, system: System = "3d6x") -> str:
    """The name of a DC in the system's typical table, or ``""``.

    >>> difficulty_of(16), difficulty_of(17)
    ('moderate', '')
    """
    for name, value in DC_TABLES[check_system(system)].items():
        if value == dc:
            return name
    return ""


#: The most points one gauge may hold (a starting level, a maximum, the gauge of rolls_to_empty):
#: a level-20 hero has a few dozen; the limit keeps a day's arrays small.
MAX_GAUGE = 10_000
#: The largest DC (and the smallest, negated) a roll is compared with, on the command line
#: and through the API: far past any roll's reach (P(3d6x >= 1000) is below 10^-300).
MAX_DC = 1000
#: The most points a gauge may gain per level (20 levels of it stay under MAX_GAUGE).
MAX_GAUGE_PER_LEVEL = 100


@functools.lru_cache(maxsize=4096)  # the same few names, read hundreds of thousands of times
def fold_name(text: str) -> str:
    """Fold case, accents, hyphens and spaces, so French and English names match as typed.

    >>> fold_name("Discrétion"), fold_name("Objets_magiques  Sacrés"), fold_name("Œuvres")
    ('discretion', 'objets magiques sacres', 'oeuvres')
    """
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    plain = plain.casefold().replace("œ", "oe").replace("æ", "ae")  # ligatures as typed
    return " ".join(plain.replace("-", " ").replace("_", " ").split())


#: The seed's own spelling of two item types, in the singular beside its plural rows: the
#: report writes every row in the plural (``HAGGLE_DCS_FR``) and reads these too.
HAGGLE_SEED_SPELLINGS_FR: Mapping[str, str] = MappingProxyType(
    {"Composante magique": "magic components", "Oeuvre d'art": "works of art"}
)
_ITEM_LOOKUP = (
    {fold_name(k): k for k in HAGGLE_DCS}
    | {fold_name(v): k for k, v in HAGGLE_DCS_FR.items()}
    | {fold_name(v): k for v, k in HAGGLE_SEED_SPELLINGS_FR.items()}
)


def resolve_item(item: str) -> str:
    """An item type of the seed's haggling table, given in English or French.

    >>> resolve_item("Pierres précieuses")
    'gems'
    """
    found = _ITEM_LOOKUP.get(fold_name(item)) if isinstance(item, str) else None
    if found is None:
        names = ", ".join(f"{k} ({HAGGLE_DCS_FR[k]})" for k in HAGGLE_DCS)
        allowed = Phrase("an item type of the seed: {names}", names=names)
        raise fail("item", item, allowed, ExplodiceError, wrong_type=not isinstance(item, str))
    return found


_ARMOUR_LOOKUP = {fold_name(k): k for k in ARMOUR} | {fold_name(v): k for k, v in ARMOUR_FR.items()}
_ARMOUR_ALIASES = {"studded": "studded leather", "splint mail": "splint", "plate armor": "plate"}
_ARMOUR_LOOKUP |= {fold_name(a): k for a, k in _ARMOUR_ALIASES.items()}


def resolve_armour(name: object, field_name: str = "armour") -> str | None:
    """A piece of armour of 5e's table, named in English or French, or ``None`` (and ``""``,
    ``"none"``, ``"aucune"``) for none.

    >>> resolve_armour("Cotte de mailles"), resolve_armour("studded leather"), resolve_armour("none")
    ('chain mail', 'studded leather', None)
    """
    if name is None:
        return None
    if isinstance(name, str) and fold_name(name) in ("", "none", "aucune", "aucun", "sans"):
        return None
    found = _ARMOUR_LOOKUP.get(fold_name(name)) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(f"{k} ({ARMOUR_FR[k]})" for k in ARMOUR)
        raise fail(
            field_name,
            name,
            Phrase("a piece of 5e's armour, in English or French: {names}, or 'none'", names=names),
            ExplodiceError,
            wrong_type=not isinstance(name, str),
        )
    return found
