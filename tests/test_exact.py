"""The exact engine against values derived by hand from RULES.md and a brute-force enumerator."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

import explodice.engine.dice as dice
import importlib

from explodice import Best, Distribution, Roll, Rules, exact
from tests import brute

exact_mod = importlib.import_module("explodice.engine.exact")
policy_mod = importlib.import_module("explodice.engine.rule_of_one")

DCS = [8, 12, 16, 22, 28, 35]


# -- hand-derived values -----------------------------------------------------------------
def test_gudulf_example():
    # STR +2, PB +2: 3d6+4 thrown 6, 6, 2; the two 6s add a 5 and a 2: total 25.
    assert brute.play([6, 6, 2], [5, 2], 4) == 25
    # That throw is one of the ways to reach 25; P(total = 25) is what the enumerator
    # finds with up to three explosions per die (a fourth would push the dice past 21).
    # (Drain dice are left out: their cut would only thin the enumerator's marginal.)
    no_drain = Rules(rule_of_one_kinds=set())
    d = exact(Roll(4), no_drain)
    by_brute = sum(p for (t, _, _), p in brute.enumerate_roll(Roll(4), no_drain, 3).items() if t == 25)
    assert d.total_pmf[25 - d.lo] == pytest.approx(by_brute, rel=1e-12)
    assert d.total_pmf[25 - d.lo] > (1 / 6) ** 5


def test_self_checks_of_rules_md():
    p, lo = dice.exploding_die()
    assert float(p @ (lo + np.arange(p.size))) == pytest.approx(4.2, abs=1e-11)
    d = exact(Roll(0))
    assert d.mean == pytest.approx(12.6, abs=1e-9)
    assert d.total_pmf[3 - d.lo] == pytest.approx(1 / 216, abs=1e-14)
    assert d.lo == 3 and d.p_success(3) == pytest.approx(1, abs=1e-12)
    assert np.all(d.total_pmf[: 80 - d.lo] > 0)  # every total from 3 up is possible
    assert d.drain_mean == pytest.approx(2.1, abs=1e-9)
    assert d.ones_mean == pytest.approx(0.5, abs=1e-12)


def test_at_least_eight_is_181_over_216():
    assert brute.exact_fraction_at_least(8) == Fraction(181, 216)
    assert exact(Roll(0)).p_success(8) == pytest.approx(181 / 216, abs=1e-12)


def test_drop_is_exactly_2d6x():
    # 2d6x by a direct double sum over P(6k + r) = 6**-(k + 1)
    pmf = {}
    for k1, r1, k2, r2 in itertools.product(range(12), range(1, 6), range(12), range(1, 6)):
        t = 6 * k1 + r1 + 6 * k2 + r2
        pmf[t] = pmf.get(t, 0.0) + 6.0 ** -(k1 + 1) * 6.0 ** -(k2 + 1)
    d = exact(Roll(0, advantage="disadvantage"), Rules(disadvantage="drop"))
    for t in range(2, 60):
        assert d.total_pmf[t - d.lo] == pytest.approx(pmf.get(t, 0.0), rel=1e-9, abs=1e-16)
    assert d.drain_mean == pytest.approx(2 / 6 * 4.2, abs=1e-9)


def test_means_by_linearity():
    assert exact(Roll(0, advantage="advantage")).mean == pytest.approx(4 * 4.2, abs=1e-9)
    assert exact(Roll(0, advantage="advantage")).drain_mean == pytest.approx(4 / 6 * 4.2, abs=1e-9)
    sub = exact(Roll(0, advantage="disadvantage"))
    assert sub.mean == pytest.approx(3 * 4.2 - 4.2, abs=1e-9)
    assert sub.drain_mean == pytest.approx(2.1, abs=1e-9)  # the malus die never drains
    assert sub.lo < 0  # a large malus die can take the total below zero
    # ones shown by explosion dice: 3 dice give 0.5 chains, a chain ends on 1 one time in 5
    ooe = exact(Roll(0), Rules(ones_on_explosions=True))
    assert ooe.drain_mean == pytest.approx((0.5 + 0.5 / 5) * 4.2, abs=1e-9)
    assert ooe.mean == pytest.approx(12.6, abs=1e-9)


def test_cancel_npc_attack_and_lucky_by_counting_throws():
    throws = list(itertools.product(range(1, 7), repeat=3))
    pairs = [min(t.count(1), t.count(6)) for t in throws]
    kept_ones = np.mean([t.count(1) - k for t, k in zip(throws, pairs)])
    # a cancelled pair removes 1 + 6 + an exploding die (4.2) from the total
    mean_cancel = 12.6 - np.mean(pairs) * (1 + 6 + 4.2)
    cancel = exact(Roll(0, policy="cancel"))
    assert cancel.ones_mean == pytest.approx(kept_ones, abs=1e-12)
    assert cancel.drain_mean == pytest.approx(4.2 * kept_ones, abs=1e-9)
    assert cancel.mean == pytest.approx(mean_cancel, abs=1e-9)
    npc = exact(Roll(0, actor="npc"))
    assert npc.drain_mean == 0 and npc.ones_mean == pytest.approx(kept_ones, abs=1e-12)
    assert npc.mean == pytest.approx(mean_cancel, abs=1e-9)
    attack = exact(Roll(0, kind="attack", policy="cancel"))
    assert attack.drain_mean == 0 and attack.ones_mean == 0
    assert attack.mean == pytest.approx(12.6, abs=1e-9)
    # lucky: a throw with a 1 rerolls one of them: E[1s] falls by P(any 1) * 5/6
    lucky = exact(Roll(0), Rules(lucky=True))
    ones = 0.5 - (1 - (5 / 6) ** 3) * 5 / 6
    assert lucky.ones_mean == pytest.approx(ones, abs=1e-12)
    # the rerolled 1 becomes a uniform face: +2.5 on average, and 0.7 more from a new 6's chain
    assert lucky.mean == pytest.approx(12.6 + (1 - (5 / 6) ** 3) * (4.2 - 1), abs=1e-9)


def test_best_policy_ends():
    # λ = 0 only wants success: never worse than keep or cancel at its own DC
    for mod in (-2, 0, 4):
        b0 = exact(Roll(mod, policy=Best(16, 0.0))).p_success(16)
        assert b0 >= exact(Roll(mod)).p_success(16) - 1e-12
        assert b0 >= exact(Roll(mod, policy="cancel")).p_success(16) - 1e-12
        # a huge λ cancels every pair it can: the cancel distribution
        big = exact(Roll(mod, policy=Best(16, 1e6)))
        ref = exact(Roll(mod, policy="cancel"))
        assert np.abs(big.total_pmf - ref.total_pmf).max() < 1e-15


def test_omitted_mass_is_reported_and_below_1e_12():
    for roll in [Roll(0, advantage="advantage"), Roll(0, advantage="disadvantage"), Roll(0)]:
        d = exact(roll, Rules(ones_on_explosions=True))
        assert 0 <= d.omitted < 1e-12
        assert abs(d.pmf.sum() + d.omitted - 1) < 1e-15


def test_modifier_shifts_the_total_only():
    a, b = exact(Roll(0)), exact(Roll(7))
    assert b.lo == a.lo + 7 and b.mean == pytest.approx(a.mean + 7)
    assert b.p_success(DCS) == pytest.approx(a.p_success(np.array(DCS) - 7))


def test_quantiles_and_frames():
    d = exact(Roll(0))
    # totals up to 12 need at most one explosion per die: the enumerator counts them exactly
    low = brute.enumerate_roll(Roll(0), Rules(rule_of_one_kinds=set()), 1)
    cdf = {t: sum(p for (u, _, _), p in low.items() if u <= t) for t in (10, 11, 12)}
    assert cdf[10] < 0.5 <= cdf[11]  # so the median is 11 (3d6 without explosions: 10.5)
    assert d.median == 11 and d.quantile(0.5) == 11
    assert d.cdf(11) == pytest.approx(cdf[11], abs=1e-12)
    assert d.quantile([0.0, 1 - 1e-9]).tolist()[0] == 3
    frame = d.to_frame()
    assert list(frame.columns) == ["total", "p"] and frame.p.sum() == pytest.approx(1, abs=1e-12)
    joint = d.to_frame(("total", "drain", "kept_ones"))
    assert joint.p.sum() == pytest.approx(1, abs=1e-12)
    assert (joint.drain[joint.kept_ones == 0] == 0).all()
    assert d.p_drain_at_least(1) == pytest.approx(1 - (5 / 6) ** 3, abs=1e-12)


# -- the engine against the brute-force enumerator, at the same cut ------------------------
@pytest.fixture
def shallow_cut(monkeypatch):
    """Cut every die after one explosion, in the engine as in the enumerator."""
    caches = [dice.exploding_die, dice.exploding_sum, dice.chains, policy_mod.chain_survival,
              policy_mod.policy_table, exact_mod._joint]

    def clear():
        for c in caches:
            c.cache_clear()

    clear()
    monkeypatch.setattr(dice, "MAX_EXPLOSIONS", 1)
    monkeypatch.setattr(exact_mod, "OMITTED_LIMIT", 1.0)
    monkeypatch.setattr(exact_mod, "_TRIM", 0.0)
    yield 1
    clear()


CASES = [
    (Roll(1), Rules()),
    (Roll(1, advantage="advantage", policy="cancel"), Rules()),
    (Roll(0, advantage="disadvantage"), Rules()),
    (Roll(0, advantage="disadvantage", policy="cancel"), Rules(disadvantage="drop")),
    (Roll(2, actor="npc"), Rules(ones_on_explosions=True)),
    (Roll(2, kind="attack"), Rules(lucky=True)),
    (Roll(2, kind="save", policy="cancel"), Rules(lucky=True, ones_on_explosions=True)),
    (Roll(3, policy=Best(16, 0.0)), Rules()),
    (Roll(3, policy=Best(14, 0.05), advantage="disadvantage"), Rules(ones_on_explosions=True)),
    (Roll(-1, policy=Best(12, 0.02), advantage="advantage"), Rules(lucky=True)),
    (Roll(0, kind="attack"), Rules(rule_of_one_kinds={"attack"})),
]


@pytest.mark.parametrize("roll, rules", CASES, ids=[f"{r.describe()}|{u.describe()}" for r, u in CASES])
def test_engine_equals_brute_force(shallow_cut, roll, rules):
    d = exact(roll, rules)
    ref = brute.enumerate_roll(roll, rules, depth=shallow_cut)
    got = {}
    for (i, dr, c) in zip(*np.nonzero(d.pmf)):
        got[(int(i) + d.lo, int(dr), int(c))] = float(d.pmf[i, dr, c])
    keys = set(got) | set(ref)
    worst = max(abs(got.get(k, 0.0) - ref.get(k, 0.0)) for k in keys)
    assert worst < 1e-15
    assert sum(ref.values()) == pytest.approx(d.pmf.sum(), abs=1e-14)


def test_a_distribution_does_not_freeze_the_callers_array():
    p = np.array([0.25, 0.5, 0.25])
    d = Distribution.from_total_pmf(p, 2)
    p[0] = 0.0  # still the caller's to change
    with pytest.raises(ValueError):
        d.pmf[0, 0, 0] = 1.0  # but the result is read-only
