"""The analysis layer against values derived independently of the engine.

The 3d6x PMFs here come from RULES.md directly (one exploding die is 6k + r with probability
(1/6)**(k+1), convolved by hand), not from explodice's dice module.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import explodice as ex
from explodice.game.character import ABILITIES
from explodice import Best, Character, ExplodiceError, Roll, Rules

DEPTH = 25  # explosions kept per die: leaves out (1/6)**25 ~ 1e-20


def die() -> np.ndarray:
    """PMF of one exploding d6 over values 0..6*DEPTH+5 (RULES.md's formula)."""
    p = np.zeros(6 * DEPTH + 6)
    for k in range(DEPTH):
        for r in range(1, 6):
            p[6 * k + r] = (1 / 6) ** (k + 1)
    return p


def pool(n: int, minus: bool = False) -> tuple[np.ndarray, int]:
    """(PMF, lowest total) of n exploding dice, minus one more when ``minus``."""
    p, lo = np.array([1.0]), 0
    for _ in range(n):
        p = np.convolve(p, die())
    if minus:
        d = die()[::-1]
        p, lo = np.convolve(p, d), -(d.size - 1)
    return p, lo


def sf(pmf_lo: tuple[np.ndarray, int], need: int) -> float:
    p, lo = pmf_lo
    return float(p[max(need - lo, 0):].sum())


HAND = {"normal": pool(3), "advantage": pool(4), "disadvantage (subtract)": pool(3, True),
        "disadvantage (drop)": pool(2)}


# -- success tables -------------------------------------------------------------------------
def test_success_table_default_shape_and_columns():
    t = ex.success_table()
    assert list(t.columns[:9]) == ["system", "modifier", "dc", "difficulty", "advantage",
                                   "disadvantage", "policy", "method", "p"]
    assert len(t) == 16 * 6 * 3  # the rules' own reading of disadvantage only
    assert len(ex.success_table(readings="both")) == 16 * 6 * 4
    assert sorted(t.modifier.unique()) == list(range(-5, 11))
    assert t.drop_duplicates("dc").set_index("dc").difficulty.to_dict() == {
        8: "very easy", 12: "easy", 16: "moderate", 22: "hard", 28: "very hard",
        35: "nearly impossible"}
    assert set(t.advantage) == set(HAND) - {"disadvantage (drop)"}


def test_the_reading_of_disadvantage_comes_from_the_rules():
    # one source for the reading: Rules(disadvantage="drop") is 2d6x (hand PMF), not subtract
    t = ex.success_table([0], [8, 16], advantages=["disadvantage"],
                         rules=ex.Rules(disadvantage="drop"))
    assert t.advantage.tolist() == ["disadvantage (drop)"] * 2
    assert t.disadvantage.tolist() == ["drop"] * 2
    assert t.p.tolist() == pytest.approx([sf(HAND["disadvantage (drop)"], d) for d in (8, 16)],
                                         abs=1e-12)


def test_success_table_against_hand_convolution():
    t = ex.success_table(readings="both")
    for row in t.itertuples():
        assert row.p == pytest.approx(sf(HAND[row.advantage], row.dc - row.modifier), abs=1e-10)
    # rule of 1 under keep: at least one kept 1 among the initial dice
    comp = t.drop_duplicates("advantage").set_index("advantage").p_complication
    assert comp["normal"] == pytest.approx(1 - (5 / 6) ** 3)
    assert comp["advantage"] == pytest.approx(1 - (5 / 6) ** 4)
    assert comp["disadvantage (drop)"] == pytest.approx(1 - (5 / 6) ** 2)
    assert comp["disadvantage (subtract)"] == pytest.approx(1 - (5 / 6) ** 3)  # malus die: no 1s
    drain = t.drop_duplicates("advantage").set_index("advantage").drain_mean
    assert drain["normal"] == pytest.approx(3 / 6 * 4.2)  # E[kept 1s] x E[exploding d6]
    assert drain["disadvantage (drop)"] == pytest.approx(2 / 6 * 4.2)


def test_simulated_table_within_error_and_reproducible():
    kw = dict(modifiers=[0, 4], method="simulate", n=20_000, seed=5)
    a, b = ex.success_table(**kw), ex.success_table(**kw)
    assert {"ci_low", "ci_high", "n", "seed"} <= set(a.columns)
    assert (a.n == 20_000).all() and (a.seed == 5).all() and (a.method == "simulate").all()
    pd.testing.assert_frame_equal(a, b)
    for row in a.itertuples():
        truth = sf(HAND[row.advantage], row.dc - row.modifier)
        assert abs(row.p - truth) <= 4.5 * math.sqrt(truth * (1 - truth) / 20_000) + 1e-4
        assert row.ci_low - 1e-12 <= row.p <= row.ci_high + 1e-12


def test_best_policy_reads_each_rows_dc():
    t = ex.success_table(modifiers=[0, 3], dcs=[12, 16], advantages=["normal"],
                         policy=Best(0, 0.1))
    for row in t.itertuples():
        direct = ex.exact(Roll(row.modifier, policy=Best(row.dc, 0.1))).p_success(row.dc)
        assert row.p == pytest.approx(direct, abs=1e-12)
    assert set(t.policy) == {"best(λ=0.1)"}


def test_pivot_round_trips():
    t = ex.success_table(dcs=[8, 16, 28], readings="both")
    wide = ex.pivot_success(t)
    assert wide.shape == (16, 4 * 3)
    assert wide.loc[2, ("advantage", 16)] == pytest.approx(sf(HAND["advantage"], 14))
    back = ex.unpivot_success(wide)
    merged = t.merge(back, on=["modifier", "advantage", "dc"], suffixes=("", "_back"))
    assert len(merged) == len(t) and (merged.p == merged.p_back).all()
    twice = pd.concat([t, t.assign(policy="cancel")])
    with pytest.raises(ExplodiceError, match="filter"):
        ex.pivot_success(twice)


def test_character_table():
    c = Character("Aelis", {"STR": 8, "DEX": 16, "CON": 12, "INT": 10, "WIS": 14, "CHA": 12},
                  level=5, skills={"Stealth": 2, "Perception": 1}, saves={"DEX": 1})
    t = ex.success_table(characters=[c], advantages=["normal"])
    assert list(t.columns[:3]) == ["character", "test", "kind"]
    assert set(t.test) == {f"save {a}" for a in ABILITIES} | {"Stealth", "Perception"}
    stealth = t[t.test == "Stealth"]
    assert (stealth.modifier == 3 + 2 * 3).all()
    assert stealth.set_index("dc").p[16] == pytest.approx(sf(HAND["normal"], 16 - 9))
    assert (t[t.test == "save DEX"].kind == "save").all()
    t2 = ex.success_table(characters=[c], tests=["Discrétion", "WIS", ("save", "CON")],
                          advantages=["normal"])
    assert t2.drop_duplicates("test").modifier.tolist() == [9, 2, 1]
    with pytest.raises(ExplodiceError):
        ex.success_table(characters=[c], tests=["Jonglage"])


def test_bad_table_arguments():
    with pytest.raises(ExplodiceError, match="system"):
        ex.success_table(system="d100")
    with pytest.raises(ExplodiceError, match="advantages"):
        ex.success_table(advantages=["lucky"])
    with pytest.raises(ExplodiceError, match="method"):
        ex.success_table(method="guess")


# -- opposed --------------------------------------------------------------------------------
def _enumerate_opposed(da, db) -> tuple[float, float, float]:
    """Double sum over both supports (a second method to the cross-correlation)."""
    win = tie = loss = 0.0
    for i, pa in enumerate(da.total_pmf):
        for j, pb in enumerate(db.total_pmf):
            ta, tb = da.lo + i, db.lo + j
            if ta > tb:
                win += pa * pb
            elif ta == tb:
                tie += pa * pb
            else:
                loss += pa * pb
    return win, tie, loss


def test_opposed_d20_by_hand():
    o = ex.opposed(Roll(0), Roll(0), system="d20")
    assert (o.win, o.tie, o.loss) == pytest.approx((0.475, 0.05, 0.475))
    o = ex.opposed(Roll(1), Roll(0), system="d20")
    assert o.tie == pytest.approx(19 / 400) and o.win == pytest.approx(210 / 400)


def test_opposed_3d6x_by_enumeration():
    a = Roll(2, advantage="advantage")
    b = Roll(0, advantage="disadvantage", policy="cancel")
    o = ex.opposed(a, b)
    expected = _enumerate_opposed(ex.exact(a), ex.exact(b))
    assert (o.win, o.tie, o.loss) == pytest.approx(expected, abs=1e-12)
    assert o.win + o.tie + o.loss == pytest.approx(1.0)
    assert "<table>" in o._repr_html_()
    mixed = ex.opposed(ex.d20(Roll(0)), ex.exact(Roll(0)))
    assert mixed.system == "d20/3d6x"
    assert (mixed.win, mixed.tie, mixed.loss) == pytest.approx(
        _enumerate_opposed(ex.d20(Roll(0)), ex.exact(Roll(0))), abs=1e-12)


def test_opposed_against_an_independent_simulation():
    rng = np.random.default_rng(3)
    n = 40_000

    def throw(k: int) -> np.ndarray:
        total = np.zeros(n, dtype=int)
        live = np.full((n, k), True)
        while live.any():
            faces = rng.integers(1, 7, size=(n, k))
            total += np.where(live, faces, 0).sum(axis=1)
            live &= faces == 6
        return total

    a, b = throw(3) + 1, throw(3)  # 3d6x+1 against 3d6x, both keeping their 1s
    o = ex.opposed(Roll(1), Roll(0))
    for p, hits in ((o.win, a > b), (o.tie, a == b)):
        assert abs(hits.mean() - p) < 4.5 * math.sqrt(p * (1 - p) / n)


# -- group tests ----------------------------------------------------------------------------
@pytest.mark.parametrize("mods", [[4], [4, -1], [5, 0, -1], [3, 3, 0, -2], [6, 2, 1, 0, -3]])
def test_group_by_brute_force(mods):
    rolls = [Roll(m) for m in mods]
    g = ex.group_success(rolls, dc=16)
    p = [sf(HAND["normal"], 16 - m) for m in mods]
    need = math.ceil(len(mods) / 2)
    brute = 0.0
    for outcome in itertools.product([0, 1], repeat=len(mods)):
        if sum(outcome) >= need:
            brute += math.prod(pi if o else 1 - pi for pi, o in zip(p, outcome))
    assert g.need == need and g.p == pytest.approx(brute, abs=1e-12)
    assert g.p_each == pytest.approx(p, abs=1e-12)
    assert g.to_frame().p.sum() == pytest.approx(1.0)


def test_group_by_hand_and_per_member_dcs():
    # d20+0 vs DC 11 is 1/2 each: 2 members need 1 -> 3/4; 4 need 2 -> 11/16
    assert ex.group_success([Roll(0)] * 2, dc=11, system="d20").p == pytest.approx(0.75)
    assert ex.group_success([Roll(0)] * 4, dc=11, system="d20").p == pytest.approx(11 / 16)
    g = ex.group_success([Roll(0), Roll(0)], dc=[11, 21], system="d20")
    assert g.p == pytest.approx(1 - 0.5 * 1.0)  # the second always fails
    with pytest.raises(ExplodiceError, match="dc"):
        ex.group_success([Roll(0)] * 2, dc=[11])
    with pytest.raises(ExplodiceError, match=r"`dc` must be an integer.*16\.5"):
        ex.group_success([Roll(0)] * 2, dc=16.5)
    assert ex.group_success([Roll(0)] * 2, dc=np.int64(11), system="d20").p == pytest.approx(0.75)


# -- working together -----------------------------------------------------------------------
def test_working_together():
    t = ex.working_together([Roll(1), Roll(4), Roll(2)], dc=16)
    assert t.leader == 1 and t.roll == Roll(4, advantage="advantage")
    assert t.p == pytest.approx(sf(HAND["advantage"], 12), abs=1e-12)
    assert t.p_alone == pytest.approx(sf(HAND["normal"], 12), abs=1e-12)
    hindered = ex.working_together([Roll(3, advantage="disadvantage")], dc=16)
    assert hindered.roll.advantage == "normal"  # one advantage source nets a disadvantage
    assert ex.working_together([Roll(3), Roll(0)], leader=1).roll.modifier == 0
    sim = ex.working_together([Roll(4)], dc=16, method="simulate", n=20_000, seed=4).summary()
    assert (sim["method"], sim["n"]) == ("simulate", 20_000) and sim["seed"] is not None


# -- passive --------------------------------------------------------------------------------
def test_passive():
    p = ex.passive(Roll(0))
    hand = HAND["normal"]
    cdf = np.cumsum(hand[0])
    median = int(np.searchsorted(cdf, 0.5))
    assert p.value == 10 and p.median == median and p.mean == pytest.approx(12.6)
    assert p.gap_mean == pytest.approx(2.6) and p.base_for_median == median
    assert p.p_roll_at_least == pytest.approx(sf(hand, 10))
    assert ex.passive(Roll(3, advantage="advantage")).value == 18
    assert ex.passive(Roll(3, advantage="disadvantage")).value == 8
    # the base that puts 10 + 3 + 5 at the median of 4 dice + 3
    adv_median = int(np.searchsorted(np.cumsum(HAND["advantage"][0]), 0.5))
    assert ex.passive(Roll(3, advantage="advantage")).base_for_median == adv_median + 3 - 3 - 5
    d = ex.passive(Roll(0), system="d20")
    assert (d.median, d.mean, d.base_for_median) == (10, pytest.approx(10.5), 10)
    t = ex.passive_table([0, 2])
    assert len(t) == 2 * 4 and set(t.advantage) == set(HAND)


# -- haggling -------------------------------------------------------------------------------
def _hand_change(margin: int) -> int:
    if margin > 0:
        return min(10 * margin, 25)
    if margin < 0:
        return max(10 * margin, -25)
    return 0


def test_haggle_d20_by_hand():
    h = ex.haggle(Roll(0), dc=10, system="d20")
    # faces 1-7: -25; 8: -20; 9: -10; 10: 0; 11: +10; 12: +20; 13-20: +25
    assert h.pmf.to_dict() == pytest.approx({-25: 7 / 20, -20: 0.05, -10: 0.05, 0: 0.05,
                                             10: 0.05, 20: 0.05, 25: 8 / 20})
    assert h.mean == pytest.approx(1.25)


def test_haggle_3d6x_against_engine_pmf():
    for roll, dc in ((Roll(0), 16), (Roll(4, advantage="advantage"), 22)):
        h = ex.haggle(roll, dc=dc)
        d = ex.exact(roll)
        mean = sum(p * _hand_change(t - dc) for t, p in zip(d.totals, d.total_pmf))
        assert h.mean == pytest.approx(mean, abs=1e-10)
        assert h.p_better == pytest.approx(d.p_success(dc + 1))


def test_haggle_items_of_the_seed():
    assert ex.HAGGLE_DCS == {"weapons": 16, "armour": 16, "magic components": 16,
                             "common items": 16, "magic items": 22, "legendary magic items": 35,
                             "sacred magic items": 28, "works of art": 22, "gems": 22}
    assert ex.haggle(Roll(0), item="Oeuvre d'art").dc == 22
    assert ex.haggle(Roll(0), item="objets magiques légendaires").dc == 35
    assert ex.haggle(Roll(0)).dc == 16
    with pytest.raises(ExplodiceError, match="item"):
        ex.haggle(Roll(0), item="chaussettes")
    # the seed's DCs are minima ("DD 22 ou plus"): higher is fine, lower is refused
    assert ex.haggle(Roll(0), item="gems", dc=25).dc == 25
    with pytest.raises(ExplodiceError, match=r"`dc` must be at least 22 for gems.*16"):
        ex.haggle(Roll(0), item="gems", dc=16)
    t = ex.haggle_table([0, 4])
    assert len(t) == 2 * 9 and t.groupby("item")["mean"].apply(lambda s: s.is_monotonic_increasing).all()


def test_haggle_simulated_within_error():
    h = ex.haggle(Roll(0), dc=16, method="simulate", n=40_000, seed=2)
    hand, lo = HAND["normal"]
    change = np.array([_hand_change(lo + i - 16) for i in range(hand.size)])
    mean = float(change @ hand)
    sd = math.sqrt(float(change**2 @ hand) - mean**2)
    assert h.method == "simulate" and h.n == 40_000
    assert abs(h.mean - mean) < 4.5 * sd / math.sqrt(40_000)


# -- comparing the systems ------------------------------------------------------------------
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


def d20_hand(mod: int, dc: int, advantage: str = "normal") -> float:
    """P(d20 + mod >= dc) by counting faces; 2d20 keep high/low as 1 - q**2 / p**2."""
    p = sum(1 for face in range(1, 21) if face + mod >= dc) / 20
    return {"normal": p, "advantage": 1 - (1 - p) ** 2}.get(advantage, p**2)


def _hand_equivalent(mod: int, d20_dc: int) -> int:
    """The 3d6x DC of RULES.md's hand PMF closest to d20's odds (ties: the higher DC), or
    within 0.005 of 1 (of 0) when the d20 DC is certain (impossible)."""
    hand, p = HAND["normal"], d20_hand(mod, d20_dc)
    dcs = range(mod - 5, mod + 200)
    if p == 1.0:
        return max(dc for dc in dcs if sf(hand, dc - mod) >= 0.995)
    if p == 0.0:
        return min(dc for dc in dcs if sf(hand, dc - mod) <= 0.005)
    return min(dcs, key=lambda dc: (abs(sf(hand, dc - mod) - p), -dc))


def test_equivalent_dc_table_and_divergence():
    t = ex.equivalent_dc_table()
    assert len(t) == 6 * 3
    mods = {"untrained": 0, "trained": 4, "expert": 8}
    for row in t.itertuples():
        assert row.dc_3d6x == _hand_equivalent(4, row.d20_dc)  # the reference: trained +4
        assert row.modifier == mods[row.profile]
        assert row.p_d20 == pytest.approx(d20_hand(row.modifier, row.d20_dc), abs=1e-12)
        assert row.p_3d6x == pytest.approx(sf(HAND["normal"], row.dc_3d6x - row.modifier),
                                           abs=1e-12)
    d = ex.divergence()
    assert d.abs_gap.is_monotonic_decreasing and len(d) == 3 * 4 * 6
    assert set(d.advantage) == set(HAND)
    for row in d.itertuples():  # each profile maps the d20 table with its own modifier
        assert row.dc_3d6x == _hand_equivalent(row.modifier, row.d20_dc)
        adv = row.advantage.split(" ")[0]
        assert row.p_d20 == pytest.approx(d20_hand(row.modifier, row.d20_dc, adv), abs=1e-12)
        assert row.p_3d6x == pytest.approx(sf(HAND[row.advantage], row.dc_3d6x - row.modifier),
                                           abs=1e-12)


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


def test_public_names():
    for name in ("Character", "success_table", "opposed", "group_success", "haggle", "passive",
                 "equivalent_dc"):
        assert name in ex.__all__ and hasattr(ex, name)
    assert isinstance(Rules(), Rules)
