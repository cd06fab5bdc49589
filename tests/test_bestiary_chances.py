"""A dozen SRD monsters against the level-matched fighter, by hand: the monster's numbers read
from the SQLite file (tests/srd.py), the fighter's from docs/rules.md's reference build and
docs/rules.md's armour, P(hit) and P(save) from a hand PMF of 3d6x (tests/hand.py; an NPC's save
cancels its pairs under the rule of 1, enumerated here) and 5e's d20 formula."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from explodice import Rules, bestiary
from tests import srd
from tests.hand import HAND, die, sf

MONSTERS = [
    "Kobold", "Goblin", "Orc", "Ogre", "Owlbear", "Troll", "Stone Giant", "Young Red Dragon",
    "Aboleth", "Adult Red Dragon", "Lich", "Kraken",
]  # fmt: skip
ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
KEYS = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")


def mod(score: int) -> int:
    return (score - 10) // 2


def fighter(level: int) -> dict:
    """The reference fighter (data/builds.toml) by hand: STR 16 +2 at 4 and 8; CON 14 +2 at
    12, 16, 19; DEX 13, WIS 12; chain mail (heavy: +6, no DEX) and a shield (+2); STR melee,
    proficient; STR and CON saves."""
    pb = 2 + (level - 1) // 4
    strength = 16 + 2 * sum(level >= lv for lv in (4, 8))
    con = 14 + 2 * sum(level >= lv for lv in (12, 16, 19))
    saves = {
        "STR": mod(strength) + pb,
        "DEX": 1,
        "CON": mod(con) + pb,
        "INT": -1,
        "WIS": 1,
        "CHA": 0,
    }
    return {
        "attack": mod(strength) + pb,
        "ac": 18,
        "vd_gear": 8,
        "wis": 1,
        "saves": saves,
        "dc": pb + mod(strength),
    }


def npc_pool() -> tuple[np.ndarray, int]:
    """3d6x of an NPC under the rule of 1: every 1 and 6 of the initial throw that can pair up
    is set aside; the kept 6s explode. Enumerated over the 216 initial throws."""
    width = 6 * 40
    out = np.zeros(width)
    one = die()
    for throw in itertools.product(range(1, 7), repeat=3):
        k = min(throw.count(1), throw.count(6))
        sixes = throw.count(6) - k
        rest = sum(f for f in throw if f not in (1, 6)) + (throw.count(1) - k)
        p = np.array([1.0])
        for _ in range(sixes):
            p = np.convolve(p, one)
        shift = rest + 6 * sixes
        n = min(p.size, width - shift)
        out[shift : shift + n] += p[:n] / 216
    return out, 0


NPC = npc_pool()


def d20(target: int, modifier: int, naturals: bool) -> float:
    """5e: d20 + modifier >= target; an attack's natural 1 misses and natural 20 hits."""
    p = (21 - (target - modifier)) / 20
    return min(max(p, 0.05), 0.95) if naturals else min(max(p, 0.0), 1.0)


def three(target: int, modifier: int, npc: bool = False) -> float:
    return sf(NPC if npc else HAND["normal"], target - modifier)


def raw(name: str) -> dict:
    return next(m for m in srd.monsters() if m["name"] == name)


def dcs_of(m: dict) -> list[tuple[str | None, int]]:
    found = [
        (d["dc_type"]["index"].upper(), d["dc_value"])
        for d in srd.every(m, "dc")
        if isinstance(d, dict)
    ]
    found += [(None, s["dc"]) for s in srd.every(m, "spellcasting") if "dc" in s]
    return found


@pytest.fixture(scope="module")
def rows():
    srd.wheel()  # skips, saying why, without the wheel
    return bestiary(name=None, per_build=True).query("build == 'fighter'")


def test_the_npc_pool_is_a_pmf():
    assert NPC[0].sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("name", MONSTERS)
def test_a_monster_against_the_level_matched_fighter(rows, name):
    m, rules = raw(name), Rules()
    mine = rows[rows.name == name]
    level = min(max(int(m["challenge_rating"]), 1), 20)
    f = fighter(level)
    scores = {a: m[k] for a, k in zip(ABILITIES, KEYS)}
    ac = m["armor_class"][0]["value"]
    vd = ac - 10 + rules.defence_base + mod(scores["WIS"])
    hits = mine[mine.chance == "build_hits"].iloc[0]
    assert (mine.level.iloc[0], hits.vd) == (level, vd)
    assert hits.p_d20 == pytest.approx(d20(ac, f["attack"], True), abs=1e-12)
    assert hits.p_3d6x == pytest.approx(three(vd, f["attack"]), abs=1e-9)
    # each attack, as the prose prints its bonus
    fighter_vd = rules.defence_base + f["vd_gear"] + f["wis"]
    hand = []
    for action in m["actions"]:
        found = re.search(r"([+-]\d+) to hit", action["desc"])
        if found:
            b = int(found.group(1))
            hand.append((action["name"], d20(f["ac"], b, True), three(fighter_vd, b)))
    got = mine[mine.chance == "monster_hits"]
    assert sorted(got.item) == sorted(n for n, _, _ in hand)
    for n, p20, p3 in hand:
        row = got[got.item == n].iloc[0]
        assert (row.p_d20, row.p_3d6x) == pytest.approx((p20, p3), abs=1e-9)
    # each save DC: 5e's DC, and DC - 8 + 9 in 3d6x; a spell's DC averages the six saves
    hand_saves = []
    for ability, dc in dcs_of(m):
        saves = [ability] if ability else list(ABILITIES)
        p20 = np.mean([d20(dc, f["saves"][a], False) for a in saves])
        p3 = np.mean([three(dc - 8 + 9, f["saves"][a]) for a in saves])
        hand_saves.append((round(p20, 9), round(p3, 9)))
    got = mine[mine.chance == "build_saves"]
    assert set(zip(got.p_d20.round(9), got.p_3d6x.round(9))) == set(hand_saves)
    assert len(got) >= 1 or not hand_saves
    # the monster saves against the fighter's DC (8 + PB + STR; 9 + PB + STR), as an NPC
    saves = {
        a: next(
            (
                p["value"]
                for p in m["proficiencies"]
                if p["proficiency"]["index"] == f"saving-throw-{a.lower()}"
            ),
            mod(scores[a]),
        )
        for a in ABILITIES
    }
    for a in ABILITIES:
        row = mine[(mine.chance == "monster_saves") & (mine.item == a)].iloc[0]
        assert row.p_d20 == pytest.approx(d20(8 + f["dc"], saves[a], False), abs=1e-12)
        assert row.p_3d6x == pytest.approx(three(9 + f["dc"], saves[a], npc=True), abs=1e-9)
