"""Opposed tests (seed 000): win, tie (the status quo) and loss, against hand values and enumeration.

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import explodice as ex
from explodice import Roll
from explodice.core.errors import ExplodiceError


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
        _enumerate_opposed(ex.d20(Roll(0)), ex.exact(Roll(0))), abs=1e-12
    )


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


def test_an_opposed_test_refuses_a_reroll_on_failure_on_either_side():
    failing = Roll(0, reroll=ex.Reroll("failure", dc=16))
    for a, b in [(Roll(0), failing), (failing, Roll(0))]:
        with pytest.raises(ExplodiceError, match="no DC to fail"):
            ex.opposed(a, b)
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.opposed(Roll(0), ex.exact(failing))  # its distribution carries the roll
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.close_opposed(Roll(0), failing)
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.hide(failing, active=[Roll(0)])
    lucky = ex.opposed(Roll(0), Roll(0, reroll=ex.Reroll("one")))  # Lucky is allowed
    assert lucky.win + lucky.tie + lucky.loss == pytest.approx(1.0)
