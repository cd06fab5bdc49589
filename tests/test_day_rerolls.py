"""The day with rerolls on failure (numpy, die by die): by hand, and against the numba day
kernel on days without them."""

import numpy as np
import pytest

import explodice as ex
from explodice.day.compiled import compile_day
from explodice.day.reroll_day import day_histograms
from explodice.engine.seeding import resolve_seed

Z = 4.5
SCORES = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)
BIG = {"PA": 10_000, "PM": 0, "PF": 0, "PH": 0}


def _rates(per_day, n=60_000):
    hero = ex.Character("H", SCORES, gauge_max=BIG, reroll=ex.Reroll("failure", per_day=per_day))
    s = ex.Scenario([hero], [ex.DayRoll("H", skill="Athletics", dc=16, repeat=2)])
    res = ex.simulate_day(s, n_days=n, seed=7)
    return res.succ_t / n, res.drain_t / n


@pytest.mark.parametrize("per_day", [None, 1])
def test_rerolls_a_day_by_hand(per_day):
    n = 60_000
    p = ex.exact(ex.Roll(2)).p_success(16)  # STR 14, no PB
    twice = 1 - (1 - p) ** 2
    rates, drains = _rates(per_day, n)
    # roll 1 always has its reroll; roll 2 has it again (no cap) or only if roll 1 did not
    # fail (one a day): P = p * twice + (1 - p) * p
    expected = [twice, twice if per_day is None else p * twice + (1 - p) * p]
    for got, want in zip(rates, expected):
        assert abs(got - want) <= Z * np.sqrt(want * (1 - want) / n)
    # the roll thrown again drains again: E = 2.1 (1 + (1 - p)) when the reroll is there
    d = ex.exact(ex.Roll(2)).drain_pmf
    sd = np.sqrt(d @ (np.arange(d.size) - 2.1) ** 2) * np.sqrt(2)
    assert abs(drains[0] - 2.1 * (2 - p)) <= Z * sd / np.sqrt(n)


def test_numpy_day_agrees_with_the_kernel_without_rerolls():
    who = ex.Character("H", SCORES, gauge_max={"PA": 6, "PM": 3, "PF": 0, "PH": 2}, policy="cancel")
    orc = ex.Character("Orc", SCORES, actor="npc")
    s = ex.Scenario(
        [who, orc],
        [
            ex.DayRoll("H", skill="Athletics", dc=14, weight=3),
            ex.DayRoll("H", ability="WIS", kind="save", dc=12),
            ex.DayRoll("H", skill="Intimidation", ability="STR", dc=13, advantages=1),
            ex.DayRoll("Orc", skill="Athletics", dc=12),
        ],
        rolls_per_day=12,
    )
    n = 20_000
    kernel = ex.simulate_day(s, n_days=n, seed=1, threads=1)
    h = day_histograms(
        compile_day(s, ex.Rules()),
        n_days=n,
        seed=resolve_seed(2),
        chunk_days=4096,
        n_bins=64 + 16 * 12,
    )
    for t in range(12):
        p = kernel.succ_t[t] / n
        q = h["per_roll"][t, 0] / n
        assert abs(p - q) <= Z * np.sqrt(2 * p * (1 - p) / n) + 1e-12
    ever_k = 1 - kernel.first[:4, -1] / n  # P(the gauge reached 0 some time)
    ever_h = 1 - h["first"][:4, -1] / n
    for p, q in zip(ever_k, ever_h):
        assert abs(p - q) <= Z * np.sqrt(2 * max(p * (1 - p), 1e-4) / n)
    # the drain each gauge caused, per day, and the points lost
    for a, b in ((kernel.sums[:, 0], h["sums"][:, 0]), (kernel.lost_sum, h["lost_sum"])):
        assert np.allclose(a / n, b / n, atol=0.15, rtol=0.05)
    # the end level of each gauge, level by level
    for g in range(4):
        for level in range(kernel.end.shape[1]):
            p, q = kernel.end[g, level] / n, h["end"][g, level] / n
            assert abs(p - q) <= Z * np.sqrt(2 * max(p * (1 - p), 1e-4) / n)
