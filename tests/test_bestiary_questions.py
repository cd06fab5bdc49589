"""fp_table and bestiary: the per-FP table's fit checked at its neighbours by hand, the
filters, the flag, the sweep's executors, a designer's monsters, bad input."""

from __future__ import annotations

import statistics
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from explodice import ExplodiceError, bestiary, fp_table, reference_builds, srd_monsters
from explodice.analysis.bestiary import level_sides
from explodice.game.monster import monsters_from_toml
from explodice.game.tables import DEFENCE_BASE
from tests import srd
from tests.hand import HAND, sf

ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")


def d20(target: int, modifier: int, naturals: bool) -> float:
    p = (21 - (target - modifier)) / 20
    return min(max(p, 0.05), 0.95) if naturals else min(max(p, 0.0), 1.0)


def three(target: int, modifier: int) -> float:
    return sf(HAND["normal"], target - modifier)


def half_up(x: float) -> int:
    return int(np.floor(x + 0.5))


@pytest.mark.parametrize("fp", [1, 5, 12])
def test_fp_tables_matched_numbers_are_least_squares_at_their_neighbours(fp):
    """With the fighter and the envoy (no reroll; 'keep': their saves are plain 3d6x), the
    matched VD, attack bonus and save DC beat their neighbours on the summed squares."""
    builds = [b for b in reference_builds() if b.name in ("fighter", "envoy")]
    row = fp_table(fps=[fp], builds=builds).iloc[0]
    group = [m for m in srd.monsters() if m["challenge_rating"] == fp]
    ac = half_up(statistics.median(m["armor_class"][0]["value"] for m in group))
    atk = half_up(statistics.median(a for a in map(srd.highest_attack, group) if a is not None))
    dc = half_up(statistics.median(d for d in map(srd.highest_dc, group) if d is not None))
    assert (row["count"], row.level) == (len(group), fp)
    sides = level_sides(builds, fp)

    def vd_error(v):
        return sum(
            (three(v, s.attack["3d6x"].modifier) - d20(ac, s.attack["d20"].modifier, True)) ** 2
            for s in sides
        )

    def atk_error(b):
        return sum((three(s.vd, b) - d20(s.ac, atk, True)) ** 2 for s in sides)

    def dc_error(d):
        return sum(
            (three(d, s.saves[a]["3d6x"].modifier) - d20(dc, s.saves[a]["d20"].modifier, False))
            ** 2
            for s in sides
            for a in ABILITIES
        )

    for error, got in (
        (vd_error, row.vd_matched),
        (atk_error, row.attack_matched),
        (dc_error, row.save_dc_matched),
    ):
        assert error(got) <= error(got - 1) + 1e-12 and error(got) <= error(got + 1) + 1e-12
    assert row.save_dc_flat == dc - 8 + 9 and row.attack_flat == atk
    assert row.p_d20_build_hits == pytest.approx(
        np.mean([d20(ac, s.attack["d20"].modifier, True) for s in sides])
    )
    assert row.p_3d6x_matched_monster_hits == pytest.approx(
        np.mean([three(s.vd, int(row.attack_matched)) for s in sides])
    )


def test_fp_table_covers_every_fp_of_the_srd_with_provenance():
    t = fp_table()
    # every FP of 5e's ladder (0, 1/8, 1/4, 1/2, 1..30), each with the SRD's count of it; the
    # FPs the SRD lacks (18, 25-29) are there with 0, read between their neighbours
    ladder = [0, 0.125, 0.25, 0.5, *range(1, 31)]
    assert list(t["fp_value"]) == ladder
    assert list(t["count"]) == [
        sum(m["challenge_rating"] == cr for m in srd.monsters()) for cr in ladder
    ]
    assert (t.set_index("fp_value").loc[[18, 25, 29], "count"] == 0).all()
    assert {"method", "n", "seed"} <= set(t.columns) and t.attrs["question"] == "fp_table"
    assert "System Reference Document 5.1" in t.attrs["attribution"]


def test_bestiary_flags_sorts_and_filters():
    t = bestiary(fp=[5, 6], threshold=0.15)
    assert set(t.fp) == {"5", "6"} and t.attrs["threshold"] == 0.15
    assert (t.flagged == (t.largest_change.abs() > 0.15)).all()
    assert (np.diff(t.largest_change.abs().to_numpy()) <= 0).all()
    only = bestiary(fp=[5, 6], threshold=0.15, flagged=True)
    assert len(only) == t.flagged.sum() and only.flagged.all()
    dragons = bestiary(types="Dragon", name="red")
    assert set(dragons.name) == {
        m.name for m in srd_monsters() if "Red" in m.name and m.creature_type == "dragon"
    }


def test_bestiary_on_an_executor_is_the_serial_one():
    serial = bestiary(fp=[2, 3], executor="serial")
    with ThreadPoolExecutor(2) as pool:
        threaded = bestiary(fp=[2, 3], executor=pool)
    assert serial.equals(threaded)


OWN = """
[[monster]]
name = "Mine goblin"
fp = "1/4"
ac = 19
scores = { STR = 8, DEX = 14, CON = 10, INT = 10, WIS = 8, CHA = 8 }
attacks = { Pick = 9 }
save_dcs = { "Spore (CON)" = 15 }
"""


def test_a_designers_monster_is_converted_and_flagged():
    (own,) = monsters_from_toml(OWN)
    t = bestiary([own, *srd_monsters()], name="mine goblin")
    assert set(t.name) == {"Mine goblin"}
    spore = t[t.chance == "build_saves"].iloc[0]
    assert (spore["item"], spore.ability, spore.target_d20, spore.target_3d6x) == (
        "Spore (CON)",
        "CON",
        15,
        16,
    )
    hits = t[t.chance == "build_hits"].iloc[0]
    assert (hits.ac, hits.vd) == (19, 19 - 10 + DEFENCE_BASE - 1)  # WIS 8: -1
    assert t.attrs["sources"] == [""] and t.attrs["attribution"] == ""


def test_bad_input_is_refused():
    with pytest.raises(ExplodiceError, match="`threshold`"):
        bestiary(threshold=2)
    with pytest.raises(ExplodiceError, match="`fp`"):
        bestiary(fp="1/3")
    with pytest.raises(ExplodiceError, match="at least one monster"):
        bestiary(name="no such monster")
    with pytest.raises(ExplodiceError, match="`flagged`"):
        bestiary(flagged="yes")


@pytest.mark.slow
def test_bestiary_on_a_local_process_pool_is_the_serial_one():
    """Monsters and builds travel to worker processes (pickled through their tables)."""
    serial = bestiary(fp=[1, 2], executor="serial")
    pooled = bestiary(fp=[1, 2], executor="local", workers=2, progress=False)
    assert serial.equals(pooled)
