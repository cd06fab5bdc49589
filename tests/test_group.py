"""Group tests (half the group must succeed) and working together (advantage for the leader).

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import explodice as ex
from explodice import ExplodiceError, Roll
from tests.hand import HAND, sf


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
