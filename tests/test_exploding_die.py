"""The exploding die and a test's total: the seed's worked example and the self-checks of the rules."""

from fractions import Fraction

import numpy as np
import pytest

import explodice.engine.dice as dice
from explodice import Roll, Rules, exact
from tests import brute

DCS = [8, 12, 16, 22, 28, 35]


def test_gudulf_example():
    # STR +2, PB +2: 3d6+4 thrown 6, 6, 2; the two 6s add a 5 and a 2: total 25.
    assert brute.play([6, 6, 2], [5, 2], 4) == 25
    # That throw is one of the ways to reach 25; P(total = 25) is what the enumerator
    # finds with up to three explosions per die (a fourth would push the dice past 21).
    # (Drain dice are left out: their cut would only thin the enumerator's marginal.)
    no_drain = Rules(rule_of_one_kinds=set())
    d = exact(Roll(4), no_drain)
    by_brute = sum(
        p for (t, _, _), p in brute.enumerate_roll(Roll(4), no_drain, 3).items() if t == 25
    )
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


def test_modifier_shifts_the_total_only():
    a, b = exact(Roll(0)), exact(Roll(7))
    assert b.lo == a.lo + 7 and b.mean == pytest.approx(a.mean + 7)
    assert b.p_success(DCS) == pytest.approx(a.p_success(np.array(DCS) - 7))
