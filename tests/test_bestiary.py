"""The bestiary's game layer against the SQLite file read blindly (tests/srd.py): monsters per
FP, each FP's medians, PB by FP, the typical monster; and a designer's own monsters."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from fractions import Fraction

import pytest

from explodice import ExplodiceError, Monster
from explodice.game.bestiary import (
    SRD_ATTRIBUTION,
    check_monsters,
    dc_ability,
    fp_stats,
    srd_monsters,
    typical_monster,
)
from explodice.game.monster import monsters_from_toml
from tests import srd

#: 5e's proficiency bonus by challenge rating (SRD 5.1, "Proficiency Bonus by Challenge Rating"),
#: written here from the book's table.
PB_TABLE = [(4, 2), (8, 3), (12, 4), (16, 5), (20, 6), (24, 7), (28, 8), (30, 9)]


def pb_by_hand(cr: float) -> int:
    return next(pb for top, pb in PB_TABLE if cr <= top)


def by_fp() -> dict[float, list[dict]]:
    groups: dict[float, list[dict]] = defaultdict(list)
    for m in srd.monsters():
        groups[m["challenge_rating"]].append(m)
    return groups


def test_monsters_per_fp():
    stats = {float(s.fp): s.count for s in fp_stats()}
    assert stats == {cr: len(g) for cr, g in by_fp().items()}
    assert sum(stats.values()) == 334 and len(srd_monsters()) == 334


def test_each_fps_medians():
    stats = {float(s.fp): s for s in fp_stats()}
    for cr, group in by_fp().items():
        s = stats[cr]
        assert s.ac == statistics.median(m["armor_class"][0]["value"] for m in group), cr
        assert s.hp == statistics.median(m["hit_points"] for m in group), cr
        attacks = [a for a in map(srd.highest_attack, group) if a is not None]
        dcs = [d for d in map(srd.highest_dc, group) if d is not None]
        assert s.attack == (statistics.median(attacks) if attacks else None), cr
        assert s.save_dc == (statistics.median(dcs) if dcs else None), cr
        assert (s.with_attack, s.with_dc) == (len(attacks), len(dcs))


def test_pb_by_fp_for_all_334():
    raw = {m["name"]: m for m in srd.monsters()}
    for monster in srd_monsters():
        listed = raw[monster.name]["proficiency_bonus"]
        assert monster.pb == listed == pb_by_hand(raw[monster.name]["challenge_rating"])


def test_typical_monster_rounds_the_medians_half_up():
    groups = by_fp()
    for fp, cr in [("1/4", 0.25), (5, 5.0), (10, 10.0), (17, 17.0)]:
        group = groups[cr]
        t = typical_monster(fp)
        half_up = lambda values: math.floor(statistics.median(values) + 0.5)  # noqa: E731
        assert t.ac == half_up([m["armor_class"][0]["value"] for m in group])
        assert t.attack_bonus() == half_up([a for a in map(srd.highest_attack, group) if a])
        assert t.save_dc() == half_up([d for d in map(srd.highest_dc, group) if d])
        assert t.hp == half_up([m["hit_points"] for m in group])
        assert t.scores["WIS"] == half_up([m["wisdom"] for m in group])
        assert t.pb == pb_by_hand(cr)


def test_an_fp_without_monsters_is_read_between_its_neighbours():
    groups = by_fp()
    assert 18.0 not in groups
    lo, hi = groups[17.0], groups[19.0]
    mid = lambda f: (statistics.median(map(f, lo)) + statistics.median(map(f, hi))) / 2  # noqa: E731
    (s,) = fp_stats(fps=[18])
    assert s.count == 0 and s.interpolated == (17, 19)
    assert s.ac == mid(lambda m: m["armor_class"][0]["value"])
    assert s.attack == mid(srd.highest_attack) and s.save_dc == mid(srd.highest_dc)
    t = typical_monster(18)
    assert t.ac == math.floor(s.ac + 0.5) and "between FP 17 and 19" in t.source
    # FP 25 sits 1/6 of the way from FP 24 to FP 30
    (s25,) = fp_stats(fps=[25])
    a24, a30 = (statistics.median(map(srd.highest_attack, groups[c])) for c in (24.0, 30.0))
    assert s25.attack == pytest.approx(a24 + (a30 - a24) / 6)


def test_srd_monsters_keep_the_stat_block():
    dragon = next(m for m in srd_monsters() if m.name == "Adult Red Dragon")
    assert (dragon.ac, dragon.hp, dragon.fp, dragon.attacks["Bite"]) == (19, 256, 17, 14)
    assert dragon.save_dcs["Fire Breath (DEX)"] == 21 and dragon.save_modifier("CON") == 13
    assert dragon.save_modifier("STR") == 8  # not proficient: (27 - 10) // 2
    assert dragon.skill_modifier("Perception") == 13 and dragon.source == "SRD 5.1"
    assert "Creative Commons Attribution 4.0" in SRD_ATTRIBUTION


def test_dc_ability():
    assert dc_ability("Fire Breath (DEX)") == "DEX"
    assert dc_ability("Souffle (Sagesse)") == "WIS"
    assert dc_ability("Wing Attack (Costs 2 Actions)") is None
    assert dc_ability("Spellcasting") is None


OWN = """
[[monster]]
nom = "Gobelin des mines"
FP = "1/4"
CA = 17
caracteristiques = { FOR = 8, DEX = 14, CON = 10, INT = 10, SAG = 8, CHA = 8 }
pv = 7
attaques = { Cimeterre = 6 }
dd = { "Poison (CON)" = 14 }
"""


def test_a_designers_monsters_beside_the_srds():
    own = monsters_from_toml(OWN, source="mine.toml")
    pool = [*srd_monsters(), *own]
    t = typical_monster("1/4", pool)
    quarter = [m for m in pool if m.fp == Fraction(1, 4)]
    assert len(quarter) == 33
    assert t.ac == math.floor(statistics.median(m.ac for m in quarter) + 0.5)
    alone = typical_monster("1/4", own)
    assert (alone.ac, alone.attack_bonus(), alone.save_dc()) == (17, 6, 14)
    with pytest.raises(ExplodiceError, match="no monster of this FP"):
        typical_monster(2, own)


def test_bad_bestiaries_are_refused():
    with pytest.raises(ExplodiceError, match=r"`monsters\[1\]`"):
        check_monsters([srd_monsters()[0], "goblin"])
    with pytest.raises(ExplodiceError, match="at least one"):
        check_monsters([])
    with pytest.raises(ExplodiceError, match="`fp`"):
        typical_monster("1/3")
    assert isinstance(check_monsters(None)[0], Monster)
