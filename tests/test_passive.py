"""Passive values: 10 + modifiers, +5 with advantage, -5 with disadvantage; no dice, no rule of 1.

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import numpy as np
import pytest

import explodice as ex
from explodice import Roll
from tests.hand import HAND, sf


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
