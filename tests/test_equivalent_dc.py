"""3d6x against d20: equivalent DCs, divergence, DCs for a target probability, suggested tables.

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import pytest

import explodice as ex
from explodice import ExplodiceError, Roll
from tests.hand import HAND, sf


def d20_hand(mod: int, dc: int, advantage: str = "normal") -> float:
    """P(d20 + mod >= dc) by counting faces; 2d20 keep high/low as 1 - q**2 / p**2."""
    p = sum(1 for face in range(1, 21) if face + mod >= dc) / 20
    return {"normal": p, "advantage": 1 - (1 - p) ** 2}.get(advantage, p**2)


def _hand_equivalent(mod: int, d20_dc: int) -> int:
    """The 3d6x DC of docs/rules.md's hand PMF closest to d20's odds (ties: the higher DC), or
    within 0.005 of 1 (of 0) when the d20 DC is certain (impossible)."""
    hand, p = HAND["normal"], d20_hand(mod, d20_dc)
    dcs = range(mod - 5, mod + 200)
    if p == 1.0:
        return max(dc for dc in dcs if sf(hand, dc - mod) >= 0.995)
    if p == 0.0:
        return min(dc for dc in dcs if sf(hand, dc - mod) <= 0.005)
    return min(dcs, key=lambda dc: (abs(sf(hand, dc - mod) - p), -dc))


def test_equivalent_dc_is_the_closest():
    for roll in (Roll(0), Roll(4), Roll(8, advantage="advantage")):
        t = ex.equivalent_dc(roll)
        hand = HAND["advantage" if roll.advantage == "advantage" else "normal"]
        for row in t.itertuples():
            assert row.p_3d6x == pytest.approx(sf(hand, row.dc_3d6x - roll.modifier), abs=1e-12)
            if not row.note:
                gaps = [abs(sf(hand, dc - roll.modifier) - row.p_d20) for dc in range(-5, 80)]
                assert abs(row.gap) <= min(gaps) + 1e-12
    t = ex.equivalent_dc(4)
    assert t.set_index("d20_dc").p_d20[15] == pytest.approx(0.5)
    assert t.set_index("d20_dc").note[25] == "impossible in d20"


def test_equivalent_dc_for_any_modifier_and_the_notes():
    # A modifier far outside +-20: every d20 DC is impossible, the 3d6x DC is the easiest one
    # within the tolerance of 0 (by hand: the first DC whose P(success) <= 0.005).
    hand = HAND["normal"]
    for mod in (-100, 0, 4):
        t = ex.equivalent_dc(mod)
        for row in t[t.note == "impossible in d20"].itertuples():
            first = next(dc for dc in range(mod - 10, mod + 200) if sf(hand, dc - mod) <= 0.005)
            assert row.dc_3d6x == first
        for row in t[t.note == "certain in d20"].itertuples():
            last = max(dc for dc in range(mod - 10, mod + 200) if sf(hand, dc - mod) >= 0.995)
            assert row.dc_3d6x == last
    assert (ex.equivalent_dc(-100).note == "impossible in d20").all()
    # a d20 attack always keeps 5 % (natural 20): the closest 3d6x DC, however low the modifier
    t = ex.equivalent_dc(Roll(-100, kind="attack"))
    gaps = {dc: abs(sf(hand, dc + 100) - 0.05) for dc in range(-110, 0)}
    assert set(t.dc_3d6x) == {min(gaps, key=lambda dc: (gaps[dc], -dc))}
    with pytest.raises(ExplodiceError, match="tolerance"):
        ex.equivalent_dc(0, tolerance=-0.1)


def test_equivalent_dc_table_and_divergence():
    t = ex.equivalent_dc_table()
    assert len(t) == 6 * 3
    mods = {"untrained": 0, "trained": 4, "expert": 8}
    for row in t.itertuples():
        # the reference (trained +4) maps each d20 DC it can tell apart; where its d20 odds are
        # certain or impossible, the profile whose odds there are nearest 50 % (by hand:
        # untrained +0 has 80 % at DC 5, expert +8 20 % at DC 25), and at DC 30, out of every
        # profile's reach, the strongest (expert) by the tolerance rule
        on = {5: "untrained", 25: "expert", 30: "expert"}.get(row.d20_dc, "trained")
        assert row.matched_on == on
        assert row.dc_3d6x == _hand_equivalent(mods[on], row.d20_dc)
        assert row.modifier == mods[row.profile]
        assert row.p_d20 == pytest.approx(d20_hand(row.modifier, row.d20_dc), abs=1e-12)
        assert row.p_3d6x == pytest.approx(
            sf(HAND["normal"], row.dc_3d6x - row.modifier), abs=1e-12
        )
    d = ex.divergence()
    assert d.abs_gap.is_monotonic_decreasing and len(d) == 3 * 4 * 6
    assert set(d.advantage) == set(HAND)
    for row in d.itertuples():  # each profile maps the d20 table with its own modifier
        assert row.dc_3d6x == _hand_equivalent(row.modifier, row.d20_dc)
        adv = row.advantage.split(" ")[0]
        assert row.p_d20 == pytest.approx(d20_hand(row.modifier, row.d20_dc, adv), abs=1e-12)
        assert row.p_3d6x == pytest.approx(
            sf(HAND[row.advantage], row.dc_3d6x - row.modifier), abs=1e-12
        )


def test_the_table_gives_each_d20_dc_its_own_3d6x_dc_at_the_top():
    # issue 21: d20 DCs 25 and 30, both impossible at +4, mapped to one 3d6x DC (38)
    t = ex.equivalent_dc_table().drop_duplicates("difficulty")
    assert t.dc_3d6x.is_unique and t.dc_3d6x.is_monotonic_increasing
    top = t.set_index("d20_dc")
    assert top.dc_3d6x[25] == 25 and top.dc_3d6x[30] == 42  # by hand: see the test above
    # the expert's odds at DC 25 now match d20's (20 %): by hand, P(3d6x + 8 >= 25)
    expert = ex.equivalent_dc_table().query("profile == 'expert' and d20_dc == 25").iloc[0]
    assert expert.p_3d6x == pytest.approx(sf(HAND["normal"], 17), abs=1e-12)
    assert abs(expert.gap) < 0.01


def test_dc_for_probability():
    assert ex.dc_for_probability(Roll(3), 0.45, system="d20") == 15
    assert ex.dc_for_probability(Roll(0), 0.5, system="d20", mode="at_least") == 11
    hand = HAND["normal"]
    for target in (0.9, 0.5, 0.1):
        dc = ex.dc_for_probability(Roll(2), target, mode="at_least")
        assert sf(hand, dc - 2) >= target > sf(hand, dc + 1 - 2)
        dc = ex.dc_for_probability(Roll(2), target, mode="at_most")
        assert sf(hand, dc - 2) <= target < sf(hand, dc - 1 - 2)
    with pytest.raises(ExplodiceError, match="target"):
        ex.dc_for_probability(Roll(0), 1.5)
    # a d20 attack spans 5 %..95 % (natural 1 and 20): 99 % is out of reach, clearly
    with pytest.raises(ExplodiceError, match=r"reachable.*0\.05, 0\.95"):
        ex.dc_for_probability(Roll(0, kind="attack"), 0.99, system="d20", mode="at_least")
    assert ex.dc_for_probability(Roll(0, kind="attack"), 0.99, system="d20") == 2


def test_suggest_dcs():
    s = ex.suggest_dcs()
    assert len(s) == 6 * 3
    ref = s[s.profile == "trained"]
    for row in ref.itertuples():
        gaps = [abs(sf(HAND["normal"], dc - 4) - row.target) for dc in range(0, 80)]
        assert abs(row.p - row.target) <= min(gaps) + 1e-12
    easy = s[(s.difficulty == "easy")].set_index("profile")
    assert easy.p["untrained"] < easy.p["trained"] < easy.p["expert"]
    assert (s.table_dc == s.difficulty.map(ex.DC_TABLE)).all()
