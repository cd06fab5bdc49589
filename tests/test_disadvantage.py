"""Disadvantage: the two readings of 'soustraire un d6' (subtract a malus die, or drop a die)."""

import itertools

import pytest

from explodice import Roll, Rules, exact


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


def test_subtract_reading_by_linearity_and_the_malus_die_never_drains():
    # 3 exploding dice minus one (the malus die): E = 3 * 4.2 - 4.2; the malus die is rolled
    # after the choice and takes no part in the rule of 1, so the drain is that of 3 dice: 2.1
    d = exact(Roll(0, advantage="disadvantage"))
    assert d.mean == pytest.approx(2 * 4.2, abs=1e-9)
    assert d.drain_mean == pytest.approx(0.5 * 4.2, abs=1e-9)
    assert d.ones_mean == pytest.approx(0.5, abs=1e-12)
