"""The d20 reference system against odds worked out by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from explodice import (
    Character,
    D20Distribution,
    ExplodiceError,
    ProficiencyWarning,
    Roll,
    d20,
    success_table,
)


def test_check_odds_by_hand():
    assert d20(Roll(3)).p_success(15) == pytest.approx(0.45)  # faces 12..20
    assert d20(Roll(3, advantage="advantage")).p_success(15) == pytest.approx(1 - 0.55**2)
    assert d20(Roll(3, advantage="disadvantage")).p_success(15) == pytest.approx(0.45**2)
    assert d20(Roll(0)).p_success([1, 21, 22]).tolist() == pytest.approx([1.0, 0.0, 0.0], abs=1e-12)
    assert d20(Roll(-2)).mean == pytest.approx(8.5)


def test_kept_die_against_enumeration():
    for adv, keep in (("advantage", max), ("disadvantage", min)):
        counts = np.zeros(20)
        for a, b in itertools.product(range(1, 21), repeat=2):
            counts[keep(a, b) - 1] += 1
        d = d20(Roll(0, advantage=adv))
        assert d.total_pmf == pytest.approx(counts / 400, abs=1e-15)
        assert d.lo == 1 and isinstance(d, D20Distribution) and d.system == "d20"


def test_naturals_on_attacks():
    attack = d20(Roll(10, kind="attack"))
    check = d20(Roll(10))
    # a natural 1 misses even against AC 5; a natural 20 hits even AC 35
    assert attack.p_success(5) == pytest.approx(0.95) and check.p_success(5) == pytest.approx(1.0)
    assert attack.p_success(35) == pytest.approx(0.05) and check.p_success(35) == 0.0
    assert attack.p_success(20) == pytest.approx(0.55)  # faces 10..20: unchanged in between
    adv = d20(Roll(0, kind="attack", advantage="advantage"))
    assert adv.p_success(99) == pytest.approx(1 - (19 / 20) ** 2)
    assert d20(Roll(0), naturals=True).p_success(99) == pytest.approx(0.05)
    assert attack.cdf(29) == pytest.approx(0.95)  # the totals are untouched
    assert attack.sf(30) == pytest.approx(0.05) and attack.sf(35) == 0.0  # face 20 only
    assert attack.sf(11) == pytest.approx(1.0)


def test_natural_one_complication():
    assert d20(Roll(0)).p_natural_1 == pytest.approx(0.05)
    assert d20(Roll(0, advantage="advantage")).p_natural_1 == pytest.approx(1 / 400)
    assert d20(Roll(0, advantage="disadvantage")).p_natural_1 == pytest.approx(1 - 0.95**2)
    assert d20(Roll(4)).ones_mean == pytest.approx(0.05) and d20(Roll(4)).drain_mean == 0.0


def test_simulated_d20_within_its_interval_and_reproducible():
    roll = Roll(3, advantage="advantage")
    a = d20(roll, method="simulate", n=40_000, seed=11)
    b = d20(roll, method="simulate", n=40_000, seed=11)
    assert (a.counts == b.counts).all() and a.n == 40_000 and a.seed == 11
    exact = 1 - 0.55**2
    lo, hi = a.ci(15, level=0.999)
    assert lo <= exact <= hi
    assert abs(a.p_natural_1 - 1 / 400) < 5 * np.sqrt(1 / 400 / 40_000)
    with pytest.raises(ExplodiceError, match="method"):
        d20(roll, method="guess")


def test_d20_success_table():
    t = success_table(system="d20")
    assert t.drop_duplicates("dc").set_index("dc").difficulty.to_dict() == {
        5: "very easy",
        10: "easy",
        15: "moderate",
        20: "hard",
        25: "very hard",
        30: "nearly impossible",
    }
    assert set(t.advantage) == {"normal", "advantage", "disadvantage"}
    assert len(t) == 16 * 6 * 3 and set(t.policy) == {"none"}
    row = t[(t.modifier == 3) & (t.dc == 15)].set_index("advantage").p
    assert row["normal"] == pytest.approx(0.45)
    assert row["advantage"] == pytest.approx(1 - 0.55**2)
    assert row["disadvantage"] == pytest.approx(0.45**2)
    comp = t[(t.modifier == 0) & (t.dc == 5)].set_index("advantage").p_complication
    assert comp["disadvantage"] == pytest.approx(0.0975)


def test_d20_character_table_adds_save_proficiency_once():
    c = Character(
        "S",
        {"STR": 10, "DEX": 16, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10},
        level=5,
        saves={"DEX": 2},
    )
    with pytest.warns(ProficiencyWarning, match="`saves.DEX` is 2"):
        t = success_table(
            characters=[c], tests=["save DEX"], dcs=[15], system="d20", advantages=["normal"]
        )
    # DEX +3, PB +3 once: d20 + 6 >= 15 on faces 9..20
    assert t.modifier.tolist() == [6] and t.p.tolist() == pytest.approx([12 / 20])


def test_simulated_attack_interval_holds_its_estimate_with_naturals():
    # the interval and the probability describe one event: against AC 25 a +0 attack hits only
    # on a natural 20 (1/20), so the interval must sit around 0.05 (its s.e. is 0.0005 at this
    # n; 5 s.e. allowed), not around the totals' 0
    d = d20(Roll(0, kind="attack"), method="simulate", n=200_000, seed=1)
    low, high = d.ci(25)
    assert low <= d.p_success(25) <= high
    assert abs(low - 0.05) < 0.0025 and abs(high - 0.05) < 0.0025
    lows, highs = d.ci([1, 25])  # a natural 1 misses even against AC 1
    assert highs[0] < 1 and lows[1] > 0.04
