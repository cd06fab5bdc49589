"""The bestiary converted (docs/rules.md, "The bestiary"): each monster's chances against the
level-matched reference builds in both systems, and the table of each power factor.

A monster of FP f meets the builds at level L = f clamped to 1..20 (:func:`level_sides`). Four
chances are read, each in 5e (d20, the printed numbers) and in 3d6x (the flat conversion of
docs/rules.md: VD = AC - 10 + ``defence_base`` + the WIS term; the attack bonus as printed; a
save DC of DC - 8 + the 3d6x save base):

- ``build_hits``: the build's attack hits the monster (its AC in d20, its VD in 3d6x);
- ``monster_hits``: each of the monster's attacks hits the build (its AC, its VD);
- ``build_saves``: the build saves against each of the monster's save DCs (a DC whose save
  depends on the spell: the mean over the build's six saves);
- ``monster_saves``: the monster saves with each ability against the build's own DC
  (8 + PB + its main modifier in d20, the 3d6x save base + PB + modifier in 3d6x).

:func:`monster_rows` gives one monster's rows (every build, or their mean and the largest
change); :func:`explodice.bestiary` runs them over a bestiary through the sweeps layer.
:func:`fp_table` gives, per FP, the typical monster and the 3d6x VD, attack bonus and save DC
that give the level-matched builds the same chances as 5e, beside the flat conversion.

>>> from explodice import srd_monsters, reference_builds
>>> goblin = next(m for m in srd_monsters() if m.name == "Goblin")
>>> rows = monster_rows(goblin, level_sides(reference_builds(), 1))
>>> [(r["chance"], r["item"], round(r["p_d20"], 3)) for r in rows][:2]
[('build_hits', '', 0.555), ('monster_hits', 'Scimitar', 0.51)]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from explodice.analysis.levels import check_builds, odds_of
from explodice.core.errors import ExplodiceError, check_real
from explodice.engine.attack import attack_odds
from explodice.game.bestiary import (
    SRD_ATTRIBUTION,
    SRD_SOURCE,
    check_monsters,
    dc_ability,
    fp_stats,
    typical_of,
)
from explodice.game.build import Build, BuildTest, reference_builds
from explodice.game.character import ABILITIES, Character
from explodice.game.checks import check_rules
from explodice.game.monster import Monster, fp_label, matched_level
from explodice.game.rules import Best, Roll, Rules
from explodice.game.tables import SAVE_DC_BASE_3D6X, System

__all__ = [
    "CHANCES",
    "DEFAULT_THRESHOLD",
    "Chance",
    "Side",
    "check_threshold",
    "clear_caches",
    "fp_table",
    "fp_table_from_parts",
    "fp_table_part",
    "level_sides",
    "monster_rows",
    "p_attack",
    "p_save",
    "with_attribution",
]

Chance = Literal["build_hits", "monster_hits", "build_saves", "monster_saves"]
CHANCES: tuple[Chance, ...] = get_args(Chance)
#: A chance that moves by more than this (10 points) is flagged, by default.
DEFAULT_THRESHOLD = 0.10
_SYSTEMS: tuple[System, ...] = ("d20", "3d6x")
#: The needs (target - modifier) an attack's table spans; beyond them P is that of the edge.
_NEED_LO, _NEED_HI = -60, 200


# -- one attack, one save ----------------------------------------------------------------------
def _shape(roll: Roll, rules: Rules) -> Roll | None:
    """The roll at modifier 0 when its law does not depend on its target (else ``None``): a
    best(λ) policy is read only where the rule of 1 applies to attacks."""
    shape = roll.replace(modifier=0)
    if isinstance(shape.policy, Best):
        if shape.rule_of_one_applies(rules):
            return None
        shape = shape.replace(policy="keep")
    if shape.reroll_dc is not None:
        return None
    return shape


@functools.lru_cache(maxsize=1024)
def _attack_table(shape: Roll, rules: Rules, system: System) -> np.ndarray:
    """P(hit) of ``shape`` (modifier 0) at every need ``_NEED_LO.._NEED_HI``."""
    needs = np.arange(_NEED_LO, _NEED_HI + 1)
    return attack_odds(shape, needs, rules, system=system).p_hit


@functools.lru_cache(maxsize=65536)
def p_attack(roll: Roll, target: int, rules: Rules, system: System) -> float:
    """P(``roll`` hits ``target``: a VD in 3d6x, an AC in d20, naturals as 5e's), exact
    (cached: a bestiary asks the same attack against the same target again and again).

    >>> round(p_attack(Roll(5, kind="attack"), 13, Rules(), "d20"), 2)
    0.65
    """
    shape = _shape(roll, rules)
    if shape is None:
        return float(attack_odds(roll, target, rules, system=system).p_hit[0])
    need = min(max(int(target) - roll.modifier, _NEED_LO), _NEED_HI)
    return float(_attack_table(shape, rules, system)[need - _NEED_LO])


@functools.lru_cache(maxsize=65536)
def p_save(roll: Roll, dc: int, rules: Rules, system: System) -> float:
    """P(a save ``roll`` reaches ``dc``), exact (no naturals: 5e's saves have none; cached)."""
    return float(odds_of(roll, rules, system).p(dc - roll.modifier))


def clear_caches() -> None:
    """Empty the caches of chances and level-matched builds (a fresh session's timing)."""
    for f in (p_attack, p_save, _attack_table, _sides):
        f.cache_clear()


# -- the level-matched builds --------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    """A reference build at a level, as a monster meets it: its 5e ``ac`` and 3d6x ``vd``,
    its attack's and saves' rolls by system, and its own DC by system."""

    build: str
    level: int
    ac: int
    vd: int
    attack: Mapping[str, Roll]
    saves: Mapping[str, Mapping[str, Roll]]
    dc: Mapping[str, int]


def _side(build: Build, level: int, rules: Rules) -> Side:
    c: Character = build.at(level)
    return Side(
        build=build.name,
        level=level,
        ac=c.ac,
        vd=c.vd(rules),
        attack={s: c.attack_roll(system=s) for s in _SYSTEMS},
        saves={
            a: {s: BuildTest("save", a).roll(c, dc=0, system=s) for s in _SYSTEMS}
            for a in ABILITIES
        },
        dc={s: c.spell_dc(s) for s in _SYSTEMS},
    )


def level_sides(
    builds: Build | Sequence[Build] | None, level: int, rules: Rules | None = None
) -> list[Side]:
    """The builds (default the reference builds) at ``level``, as a monster meets them."""
    rules = check_rules(rules)
    chosen = check_builds(reference_builds() if builds is None else builds)
    return list(_sides(tuple(chosen), level, rules))


@functools.lru_cache(maxsize=256)
def _sides(builds: tuple[Build, ...], level: int, rules: Rules) -> tuple[Side, ...]:
    return tuple(_side(b, level, rules) for b in builds)


# -- one monster --------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Rolls:
    """A monster's numbers and rolls, read once for every side it meets."""

    ac: int
    vd: int
    attacks: tuple[tuple[str, int, Mapping[str, Roll]], ...]
    dcs: tuple[tuple[str, tuple[str, ...], str, tuple[int, int]], ...]
    saves: tuple[tuple[str, int, Mapping[str, Roll]], ...]


def _rolls(monster: Monster, rules: Rules) -> _Rolls:
    dcs = []
    for name in monster.save_dcs:
        ability = dc_ability(name)
        pair = tuple(monster.save_dc(name, system=s) for s in _SYSTEMS)
        dcs.append((name, ABILITIES if ability is None else (ability,), ability or "", pair))
    return _Rolls(
        ac=monster.armour_class(rules),
        vd=monster.vd(rules),
        attacks=tuple(
            (name, bonus, {s: monster.attack_roll(name, system=s) for s in _SYSTEMS})
            for name, bonus in monster.attacks.items()
        ),
        dcs=tuple(dcs),  # type: ignore[arg-type]
        saves=tuple(
            (a, monster.save_modifier(a), {s: monster.save_roll(a, system=s) for s in _SYSTEMS})
            for a in ABILITIES
        ),
    )


def _items(m: _Rolls, side: Side, rules: Rules) -> list[tuple[Any, ...]]:
    """(chance, item, ability, target_d20, target_3d6x, bonus, P d20, P 3d6x) for one side."""
    out: list[tuple[Any, ...]] = []
    p: tuple[float, ...] = (
        p_attack(side.attack["d20"], m.ac, rules, "d20"),
        p_attack(side.attack["3d6x"], m.vd, rules, "3d6x"),
    )
    out.append(("build_hits", "", "", m.ac, m.vd, None, *p))
    for name, bonus, rolls in m.attacks:
        p = (
            p_attack(rolls["d20"], side.ac, rules, "d20"),
            p_attack(rolls["3d6x"], side.vd, rules, "3d6x"),
        )
        out.append(("monster_hits", name, "", side.ac, side.vd, bonus, *p))
    for name, abilities, ability, dcs in m.dcs:
        p = tuple(
            float(np.mean([p_save(side.saves[a][s], dc, rules, s) for a in abilities]))
            for s, dc in zip(_SYSTEMS, dcs)
        )
        out.append(("build_saves", name, ability, *dcs, None, *p))
    for a, modifier, rolls in m.saves:
        p = tuple(p_save(rolls[s], side.dc[s], rules, s) for s in _SYSTEMS)
        out.append(("monster_saves", a, a, side.dc["d20"], side.dc["3d6x"], modifier, *p))
    return out


def _text(items: Mapping[str, int], signed: bool = True) -> str:
    return "; ".join(f"{k} {v:+d}" if signed else f"{k} {v}" for k, v in items.items())


def monster_summary(monster: Monster, rules: Rules | None = None) -> dict[str, Any]:
    """The monster converted, in words: FP, level met, AC and VD, attacks, save DCs in both
    systems, saves and skills.

    >>> from explodice import srd_monsters
    >>> dragon = next(m for m in srd_monsters() if m.name == "Adult Red Dragon")
    >>> s = monster_summary(dragon, Rules(defence_base=10))  # AC 19, WIS 13
    >>> s["vd"], s["save_dcs_3d6x"].split("; ")[1]
    (20, 'Fire Breath (DEX) 22')
    """
    rules = check_rules(rules)
    return {
        "name": monster.name,
        "fp": fp_label(monster.fp),
        "fp_value": float(monster.fp),
        "level": matched_level(monster.fp),
        "type": monster.creature_type,
        "source": monster.source,
        "ac": monster.armour_class(rules),
        "vd": monster.vd(rules),
        "attacks": _text(monster.attacks),
        "save_dcs_d20": _text(monster.save_dcs, signed=False),
        "save_dcs_3d6x": _text(
            {n: monster.save_dc(n, system="3d6x") or 0 for n in monster.save_dcs}, signed=False
        ),
        "saves": _text({a: monster.save_modifier(a) for a in ABILITIES}),
        "skills": _text({k: monster.skill_modifier(k) for k in monster.skills}),
    }


def monster_rows(
    monster: Monster,
    sides: Sequence[Side],
    *,
    rules: Rules | None = None,
    per_build: bool = False,
) -> list[dict[str, Any]]:
    """One monster's chances against ``sides`` (:func:`level_sides` at its level), both
    systems: one row per chance and item with ``p_d20``, ``p_3d6x`` and ``change`` (their mean
    over the builds), ``largest_change`` (the build's change farthest from 0) and
    ``worst_build``; or, with ``per_build``, one row per build as well."""
    rules = check_rules(rules)
    head = monster_summary(monster, rules)
    rolls = _rolls(monster, rules)
    per: dict[tuple[str, str], list[tuple[Side, tuple[Any, ...]]]] = {}
    for side in sides:
        for item in _items(rolls, side, rules):
            per.setdefault((item[0], item[1]), []).append((side, item))
    rows = []
    for (chance, name), group in per.items():
        _, first = group[0]
        common = {
            **head,
            "chance": chance,
            "item": name,
            "ability": first[2],
            "bonus": first[5],
        }
        if per_build:
            for side, it in group:
                rows.append(
                    {
                        **common,
                        "build": side.build,
                        "target_d20": it[3],
                        "target_3d6x": it[4],
                        "p_d20": it[6],
                        "p_3d6x": it[7],
                        "change": it[7] - it[6],
                    }
                )
            continue
        changes = np.array([it[7] - it[6] for _, it in group])
        worst = int(np.argmax(np.abs(changes)))
        targets = {it[3:5] for _, it in group}
        rows.append(
            {
                **common,
                "target_d20": first[3] if len(targets) == 1 else None,
                "target_3d6x": first[4] if len(targets) == 1 else None,
                "p_d20": float(np.mean([it[6] for _, it in group])),
                "p_3d6x": float(np.mean([it[7] for _, it in group])),
                "change": float(changes.mean()),
                "largest_change": float(changes[worst]),
                "worst_build": group[worst][0].build,
                "builds": len(group),
            }
        )
    return rows


def check_threshold(threshold: Any) -> float:
    """A threshold of change in P, 0..1 (0.10: ten points)."""
    return check_real("threshold", threshold, lo=0.0, hi=1.0, error=ExplodiceError)


# -- per FP -------------------------------------------------------------------------------------
def _best(values: np.ndarray, error: np.ndarray, flat: int) -> int:
    """The value whose error (summed squares) is least; ties go to the one nearest ``flat``."""
    keys = [(round(float(e), 12), abs(int(v) - flat)) for v, e in zip(values, error)]
    return int(values[min(range(len(keys)), key=keys.__getitem__)])


#: A part of a row of the FP table: one chance's 5e P per side (a build, or a build's save)
#: and 3d6x P per side at each value tried (a VD, an attack bonus, a save DC).
FpPart = tuple[np.ndarray, np.ndarray]


def _fp_parts(t: Monster, sides: Sequence[Side], rules: Rules, span: int) -> dict[str, FpPart]:
    """What the typical monster ``t``'s row reads of ``sides``: for each chance, 5e's P of
    each side and 3d6x's at each value tried (``build_saves`` absent where ``t`` has no save
    DC). The parts of several groups of sides put end to end are the parts of all of them."""
    ac, vd = t.armour_class(rules), t.vd(rules)
    atk, dc = t.attack_bonus(), t.save_dc()
    dc3 = t.save_dc(system="3d6x")
    # the build hits: P_d20 at the AC; P_3d6x at every VD
    vds = np.arange(vd - span, vd + span + 1)
    d20 = np.array([p_attack(s.attack["d20"], ac, rules, "d20") for s in sides])
    three = np.array([[p_attack(s.attack["3d6x"], v, rules, "3d6x") for v in vds] for s in sides])
    parts = {"build_hits": (d20, three)}
    # the monster hits
    bonuses = np.arange(atk - span, atk + span + 1)
    attack = t.attack_roll(system="3d6x")
    d20 = np.array([p_attack(t.attack_roll(system="d20"), s.ac, rules, "d20") for s in sides])
    three = np.array(
        [
            [p_attack(attack.replace(modifier=int(b)), s.vd, rules, "3d6x") for b in bonuses]
            for s in sides
        ]
    )
    parts["monster_hits"] = (d20, three)
    # the builds save (each of their six saves)
    if dc is None or dc3 is None:
        return parts
    dcs = np.arange(dc3 - span, dc3 + span + 1)
    saves = [s.saves[a] for s in sides for a in ABILITIES]
    d20 = np.array([p_save(r["d20"], dc, rules, "d20") for r in saves])
    three = np.array([[p_save(r["3d6x"], int(d), rules, "3d6x") for d in dcs] for r in saves])
    parts["build_saves"] = (d20, three)
    return parts


def _fp_row(t: Monster, parts: Mapping[str, FpPart], rules: Rules, span: int) -> dict[str, Any]:
    """The typical monster ``t``'s flat and matched VD, attack bonus and save DC, least
    squares over the sides its ``parts`` read (:func:`_fp_parts`), with the mean chances."""
    vd, atk, dc3 = t.vd(rules), t.attack_bonus(), t.save_dc(system="3d6x")
    row: dict[str, Any] = {"vd_flat": vd, "attack_flat": atk}
    vds = np.arange(vd - span, vd + span + 1)
    d20, three = parts["build_hits"]
    row["vd_matched"] = _best(vds, ((three - d20[:, None]) ** 2).sum(axis=0), vd)
    row |= _ps("build_hits", d20, three, vds, vd, row["vd_matched"])
    bonuses = np.arange(atk - span, atk + span + 1)
    d20, three = parts["monster_hits"]
    row["attack_matched"] = _best(bonuses, ((three - d20[:, None]) ** 2).sum(axis=0), atk)
    row |= _ps("monster_hits", d20, three, bonuses, atk, row["attack_matched"])
    row["save_dc_flat"] = dc3
    if "build_saves" not in parts:
        row |= {"save_dc_matched": None, "p_d20_build_saves": None}
        row |= {"p_3d6x_flat_build_saves": None, "p_3d6x_matched_build_saves": None}
        return row
    assert dc3 is not None
    dcs = np.arange(dc3 - span, dc3 + span + 1)
    d20, three = parts["build_saves"]
    row["save_dc_matched"] = _best(dcs, ((three - d20[:, None]) ** 2).sum(axis=0), dc3)
    row |= _ps("build_saves", d20, three, dcs, dc3, row["save_dc_matched"])
    return row


def _ps(
    chance: str, d20: np.ndarray, three: np.ndarray, values: np.ndarray, flat: int, matched: int
) -> dict[str, float]:
    j_flat = int(np.searchsorted(values, flat))
    j_match = int(np.searchsorted(values, matched))
    return {
        f"p_d20_{chance}": float(d20.mean()),
        f"p_3d6x_flat_{chance}": float(three[:, j_flat].mean()),
        f"p_3d6x_matched_{chance}": float(three[:, j_match].mean()),
    }


def fp_table(
    monsters: Iterable[Monster] | None = None,
    *,
    fps: Iterable[Any] | None = None,
    builds: Build | Sequence[Build] | None = None,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """Per FP, the typical monster of the bestiary (``monsters``: default the SRD's) and the
    3d6x numbers that give the level-matched builds (default the reference builds at level
    FP, clamped to 1..20) the same chances as 5e, beside the flat conversion.

    ``fps`` defaults to every FP of 5e's ladder (0..30, FP 18 read between its neighbours)
    where the SRD's monsters are among ``monsters``, else to the FPs ``monsters`` have. Columns: ``fp``, ``level``, ``count`` (monsters of that FP; 0
    where it is read between its neighbours), the medians ``ac``, ``attack``, ``save_dc``, ``hp``, and ``pb``; then
    ``vd_flat`` (AC - 10 + ``defence_base`` + the WIS term of the median WIS) and
    ``vd_matched`` (the VD whose P(build hits) is closest to 5e's at the median AC: least
    squares over the builds), ``attack_flat`` and ``attack_matched`` (P(it hits the builds)),
    ``save_dc_flat`` (DC - 8 + the 3d6x save base) and ``save_dc_matched`` (P(the builds save),
    their six saves); and for each chance ``p_d20_<chance>``, ``p_3d6x_flat_<chance>``,
    ``p_3d6x_matched_<chance>`` (the mean over the builds). ``method``, ``n``, ``seed``:
    exact.

    >>> t = fp_table(fps=[1, 10], rules=Rules(defence_base=10))
    >>> t[["fp", "ac", "vd_flat", "vd_matched", "attack", "attack_matched"]].values.tolist()
    [['1', 12.0, 12, 15, 4.0, 4], ['10', 17.5, 20, 20, 9.5, 10]]
    """
    rules = check_rules(rules)
    pool = None if monsters is None else check_monsters(monsters)
    builds = check_builds(reference_builds() if builds is None else builds)
    stats = _fp_stats(pool, fps, rules)
    parts = [_fp_parts(typical_of(s, pool), level_sides(builds, matched_level(s.fp), rules),
                       rules, _SPAN) for s in stats]  # fmt: skip
    return _fp_frame(pool, stats, parts, builds, rules)


#: The FP table tries each VD, attack bonus and save DC within this of the flat one.
_SPAN = 12
#: The columns of an FP part's table (:func:`fp_table_part`): 3d6x's P at each value tried.
_TRIED = [f"p_3d6x {k:+d}" for k in range(-_SPAN, _SPAN + 1)]


def _fp_stats(pool: tuple[Monster, ...] | None, fps: Any, rules: Rules) -> list[Any]:
    """The FPs of the table: every FP of 5e's ladder where the SRD's monsters are in
    ``pool``, else the FPs ``pool`` has (or ``fps``), each one's medians."""
    # the SRD's table has every FP of the ladder (its FP 18, which has no monster, read
    # between 17 and 19); a designer's bestiary alone shows the FPs it has
    with_srd = pool is None or any(m.source == SRD_SOURCE for m in pool)
    return fp_stats(pool, fps=fps, rules=rules, fill=fps is None and with_srd)


def _fp_frame(
    pool: tuple[Monster, ...] | None,
    stats: Sequence[Any],
    parts: Sequence[Mapping[str, FpPart]],
    builds: Sequence[Build],
    rules: Rules,
) -> pd.DataFrame:
    """The FP table of the FPs ``stats`` from each FP's ``parts`` over ``builds``."""
    rows = []
    for s, part in zip(stats, parts):
        typical = typical_of(s, pool)  # typical_monster(s.fp, pool), the bestiary read once
        row = {
            "fp": fp_label(s.fp),
            "fp_value": float(s.fp),
            "level": matched_level(s.fp),
            "count": s.count,
            "ac": s.ac,
            "attack": s.attack,
            "save_dc": s.save_dc,
            "hp": s.hp,
            "pb": typical.pb,
        }
        row |= _fp_row(typical, part, rules, span=_SPAN)
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["method"], frame["n"], frame["seed"] = "exact", None, None
    frame.attrs.update(_provenance("fp_table", pool, builds, rules))
    return frame


def fp_table_part(
    monsters: Iterable[Monster] | None = None,
    *,
    fps: Iterable[Any] | None = None,
    build: Build,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """One build's part of :func:`fp_table`, what each FP's fit reads of it: one row per FP,
    chance and side (the build; each of its six saves for ``build_saves``), 5e's P
    (``p_d20``) and 3d6x's at each value tried (``p_3d6x -12`` .. ``p_3d6x +12``, from the
    flat one). :func:`fp_table_from_parts` puts the builds' parts together.

    >>> from explodice.game.build import reference_builds
    >>> part = fp_table_part(fps=[1], build=reference_builds()[0])
    >>> part.groupby("chance", sort=False).size().to_dict()
    {'build_hits': 1, 'monster_hits': 1, 'build_saves': 6}
    """
    rules = check_rules(rules)
    pool = None if monsters is None else check_monsters(monsters)
    (build,) = check_builds(build)
    rows = []
    for s in _fp_stats(pool, fps, rules):
        sides = level_sides([build], matched_level(s.fp), rules)
        for chance, (d20, three) in _fp_parts(typical_of(s, pool), sides, rules, _SPAN).items():
            for p, ps in zip(d20, three):
                rows.append({"fp": fp_label(s.fp), "chance": chance, "p_d20": float(p),
                             **dict(zip(_TRIED, map(float, ps)))})  # fmt: skip
    return pd.DataFrame(rows, columns=["fp", "chance", "p_d20", *_TRIED])


def fp_table_from_parts(
    monsters: Iterable[Monster] | None = None,
    *,
    parts: Sequence[pd.DataFrame],
    fps: Iterable[Any] | None = None,
    builds: Build | Sequence[Build] | None = None,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """:func:`fp_table` from each build's part (:func:`fp_table_part` of the same monsters,
    FPs and rules, in the builds' order): each FP's sides put end to end, in the order
    :func:`fp_table` reads them, and fitted; the same table."""
    rules = check_rules(rules)
    pool = None if monsters is None else check_monsters(monsters)
    builds = check_builds(reference_builds() if builds is None else builds)
    stats = _fp_stats(pool, fps, rules)
    groups = [dict(tuple(p.groupby(["fp", "chance"], sort=False))) for p in parts]
    joined: list[dict[str, FpPart]] = []
    for s in stats:
        label, part = fp_label(s.fp), dict[str, FpPart]()
        for chance in CHANCES:
            blocks = [g[label, chance] for g in groups if (label, chance) in g]
            if blocks:
                d20 = np.concatenate([b.p_d20.to_numpy(dtype=float) for b in blocks])
                three = np.vstack([b[_TRIED].to_numpy(dtype=float) for b in blocks])
                part[chance] = (d20, np.ascontiguousarray(three))
        joined.append(part)
    return _fp_frame(pool, stats, joined, builds, rules)


def _provenance(
    question: str, pool: tuple[Monster, ...] | None, builds: Sequence[Build], rules: Rules
) -> dict[str, Any]:
    sources = sorted({m.source for m in pool} if pool is not None else {SRD_SOURCE})
    return {
        "question": question,
        "rules": rules.describe(),
        "method": "exact",
        "n": None,
        "seed": None,
        "builds": [b.name for b in builds],
        "sources": sources,
        "attribution": SRD_ATTRIBUTION if SRD_SOURCE in sources else "",
        "save_dc_base_3d6x": SAVE_DC_BASE_3D6X,
    }


def with_attribution(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with an ``attribution`` column: the SRD 5.1's (its licence asks for it
    wherever its monsters are shown) on the rows of SRD monsters, empty on the others."""
    out = frame.copy()
    if "source" in out.columns:
        out["attribution"] = [SRD_ATTRIBUTION if s == SRD_SOURCE else "" for s in out["source"]]
    else:
        out["attribution"] = SRD_ATTRIBUTION if frame.attrs.get("attribution") else ""
    return out
