"""The tables printed in the seeds, each written once: DCs, difficulty names, profiles, items.

Every other module reads these; none writes its own copy.

>>> DC_TABLES["3d6x"]["moderate"], DC_TABLES["d20"]["moderate"], DIFFICULTY_FR["hard"]
(16, 15, 'Difficile')
>>> dc_bands("d20")[0]
('very easy', 5)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

from explodice.core.errors import ExplodiceError, check_choice, fail

__all__ = [
    "DC_TABLE",
    "DC_TABLES",
    "DEFAULT_TARGETS",
    "TARGET_RANGES",
    "DIFFICULTIES",
    "DIFFICULTY_FR",
    "D20_DCS",
    "D20_SAVE_DC_BASE",
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
        "magic components": "Composante magique",
        "common items": "Objets courants",
        "magic items": "Objets magiques",
        "legendary magic items": "Objets magiques légendaires",
        "sacred magic items": "Objets magiques sacrés",
        "works of art": "Oeuvre d'art",
        "gems": "Pierres précieuses",
    }
)


def check_system(system: str) -> System:
    """``system`` validated: ``"3d6x"`` or ``"d20"``."""
    return check_choice("system", system, SYSTEMS, ExplodiceError)


def dc_bands(system: System = "3d6x") -> tuple[tuple[str, int], ...]:
    """The typical DC table of a system as ``(difficulty, DC)`` pairs, easiest first."""
    return tuple(DC_TABLES[check_system(system)].items())


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
#: The most points a gauge may gain per level (20 levels of it stay under MAX_GAUGE).
MAX_GAUGE_PER_LEVEL = 100


def fold_name(text: str) -> str:
    """Fold case, accents, hyphens and spaces, so French and English names match as typed.

    >>> fold_name("Discrétion"), fold_name("Objets_magiques  Sacrés")
    ('discretion', 'objets magiques sacres')
    """
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.replace("-", " ").replace("_", " ").casefold().split())


_ITEM_LOOKUP = {fold_name(k): k for k in HAGGLE_DCS} | {
    fold_name(v): k for k, v in HAGGLE_DCS_FR.items()
}


def resolve_item(item: str) -> str:
    """An item type of the seed's haggling table, given in English or French.

    >>> resolve_item("Pierres précieuses")
    'gems'
    """
    found = _ITEM_LOOKUP.get(fold_name(item)) if isinstance(item, str) else None
    if found is None:
        names = ", ".join(f"{k} ({HAGGLE_DCS_FR[k]})" for k in HAGGLE_DCS)
        allowed = f"an item type of the seed: {names}"
        raise fail("item", item, allowed, ExplodiceError, wrong_type=not isinstance(item, str))
    return found
