"""The day with rerolls on failure (numpy, die by die): by hand, and against the numba day
kernel on days without them."""

import numpy as np
import pytest

import explodice as ex
from explodice.day.compiled import compile_day
from explodice.day.reroll_day import day_histograms
from explodice.engine.seeding import resolve_seed
from tests.day_helpers import hero

Z = 4.5
SCORES = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)
BIG = {"PA": 10_000, "PM": 0, "PF": 0, "PH": 0}
HIGH = {"PA": 150, "PM": 0, "PF": 0, "PH": 0}  # for the exact day: three rolls never drain 150


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


@pytest.mark.parametrize("per_day", [None, 1, 2])
def test_rerolls_on_failure_by_hand(per_day):
    # a gauge no day can empty: each roll is the single roll, with or without its reroll
    who = hero("H", gauges=HIGH, reroll=ex.Reroll("failure", per_day=per_day))
    s = ex.Scenario([who], [ex.DayRoll("H", skill="Athletics", dc=16, repeat=3)])
    r = ex.exact_day(s)
    p = ex.exact(ex.Roll(2)).p_success(16)  # STR 14: +2
    twice = 1 - (1 - p) ** 2
    # P(the reroll is still there at roll t): always (no cap); with one a day, only while
    # no roll failed; with two, while at most one did
    held = {
        None: [1, 1, 1],
        1: [1, p, p * p],
        2: [1, 1, 1 - (1 - p) ** 2],
    }[per_day]
    want = [h * twice + (1 - h) * p for h in held]
    assert r.succ_t == pytest.approx(want, abs=1e-12)
    # a failed roll thrown again drains again: 2.1 (1 + (1 - p)) with the reroll in hand
    want_drain = [2.1 * (h * (2 - p) + (1 - h)) for h in held]
    assert r.drain_t == pytest.approx(want_drain, abs=1e-9)
    assert r.omitted < 1e-12


def test_a_reroll_with_advantage_rerolls_one_die_and_keeps_the_drain():
    who = hero("H", gauges=HIGH, reroll=ex.Reroll("failure", per_day=1))
    s = ex.Scenario([who], [ex.DayRoll("H", skill="Athletics", dc=18, advantages=1, repeat=2)])
    r = ex.exact_day(s)
    first = ex.exact(ex.Roll(2, advantage="advantage"))
    p = first.p_success(18)
    rr = ex.exact(ex.Roll(2, advantage="advantage", reroll=ex.Reroll("failure", dc=18))).p_success(
        18
    )
    assert rr > p
    assert r.succ_t == pytest.approx([rr, p * rr + (1 - p) * p], abs=1e-12)
    assert r.drain_t == pytest.approx([first.drain_mean] * 2, abs=1e-9)  # 4 x 1/6 x 4.2
