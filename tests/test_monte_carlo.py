"""The Monte Carlo engine against the exact engine, for every combination of switches."""

import itertools

import numpy as np
import pytest
from scipy import stats

from explodice import Best, ExplodiceError, Roll, Rules, exact, simulate

DCS = [8, 12, 16, 22, 28, 35]
ADVANTAGES = [
    ("normal", "subtract"),
    ("advantage", "subtract"),
    ("disadvantage", "subtract"),
    ("disadvantage", "drop"),
]
POLICIES = ["keep", "cancel", Best(16, 0.05)]
LUCKY = [None, "before_choice", "after_choice"]  # no Lucky, or Lucky at either timing
MALUS_DICE = ["exploding", "plain"]
# every combination of switches, the readings of issue 25 included: the malus die only where
# there is one (disadvantage under "subtract"), so no combination is a copy of another
COMBOS = [
    combo
    for combo in itertools.product(
        ADVANTAGES,
        POLICIES,
        ["pc", "npc"],
        ["check", "attack"],
        [False, True],
        LUCKY,
        MALUS_DICE,
    )
    if combo[-1] == "exploding" or combo[0] == ("disadvantage", "subtract")
]


def _grouped_chi2(counts: np.ndarray, probs: np.ndarray, n: int) -> float:
    """p-value of a chi-square test, neighbouring bins merged until each expects >= 5."""
    expected = probs * n
    obs, exp = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(counts, expected):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs.append(acc_o)
            exp.append(acc_e)
            acc_o = acc_e = 0.0
    if exp:
        obs[-1] += acc_o
        exp[-1] += acc_e
    obs, exp = np.array(obs), np.array(exp)
    exp *= obs.sum() / exp.sum()  # the exact engine leaves out < 1e-12
    if len(exp) < 2:
        return 1.0
    return float(stats.chisquare(obs, exp).pvalue)


def assert_agrees(sim, ex, *, z=5.0, p_min=1e-6):
    n = sim.n
    # P(success) at every DC within z standard errors (of the exact p) plus one count
    p = ex.p_success(DCS)
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(sim.p_success(DCS) - p) <= z * se + 1 / n), (sim.p_success(DCS), p)
    # the drain and kept 1s means within z standard errors
    for attr, axis in (("drain_mean", 1), ("ones_mean", 2)):
        values = np.arange(ex.pmf.shape[axis])
        marg = ex.pmf.sum(axis=tuple(i for i in range(3) if i != axis))
        var = float(marg @ values**2) - getattr(ex, attr) ** 2
        assert abs(getattr(sim, attr) - getattr(ex, attr)) <= z * np.sqrt(var / n) + 1e-12, attr
    # nothing where the exact engine puts nothing, and the shape of each marginal
    for get in (lambda d: d.total_pmf, lambda d: d.drain_pmf, lambda d: d.ones_pmf):
        s, e = get(sim), get(ex)
        offset = (sim.lo - ex.lo) if get(sim) is sim.total_pmf else 0
        full = np.zeros(max(e.size, s.size + offset) + 1)
        full[offset : offset + s.size] = s
        assert (
            offset >= 0 and not np.any((full[: e.size] > 0) & (e == 0)) and not full[e.size :].any()
        )
        assert _grouped_chi2(full[: e.size] * n, e, n) > p_min


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: str(c))
def test_simulation_agrees_with_exact(combo):
    (advantage, reading), policy, actor, kind, ooe, lucky, malus_die = combo
    roll = Roll(
        2,
        advantage=advantage,
        policy=policy,
        actor=actor,
        kind=kind,
        reroll="one" if lucky else None,
    )
    rules = Rules(
        disadvantage=reading,
        ones_on_explosions=ooe,
        lucky_timing=lucky or "before_choice",
        malus_die=malus_die,
    )
    seed = COMBOS.index(combo)
    sim = simulate(roll, rules, n=20_000, seed=seed)
    assert sim.method == "simulate" and sim.n == 20_000 and sim.seed == seed
    assert sim.counts.sum() == 20_000 and sim.omitted == 0
    assert_agrees(sim, exact(roll, rules))


@pytest.mark.slow
@pytest.mark.parametrize(
    "roll, rules",
    [
        (Roll(0), Rules()),
        (Roll(4, advantage="advantage", policy=Best(22, 0.02)), Rules(ones_on_explosions=True)),
        (Roll(1, advantage="disadvantage", policy="cancel", reroll="one"), Rules()),
        (  # issue 25's readings, face by face (Lucky after the choice) and by the throw table
            Roll(1, advantage="disadvantage", policy="cancel", reroll="one"),
            Rules(lucky_timing="after_choice", malus_die="plain"),
        ),
        (
            Roll(2, advantage="disadvantage", policy=Best(16, 0.05)),
            Rules(malus_die="plain", ones_on_explosions=True),
        ),
    ],
)
def test_large_simulation_agrees_with_exact(roll, rules):
    sim = simulate(roll, rules, n=200_000_000, seed=2026)
    assert_agrees(sim, exact(roll, rules), p_min=1e-4)


def test_same_seed_same_counts_on_one_or_two_threads():
    roll, rules = Roll(3, policy=Best(16, 0.1), advantage="advantage", reroll="one"), Rules()
    a = simulate(roll, rules, n=50_000, seed=11, threads=1, chunk_size=3_000)
    b = simulate(roll, rules, n=50_000, seed=11, threads=2, chunk_size=3_000)
    c = simulate(roll, rules, n=50_000, seed=12, threads=2, chunk_size=3_000)
    assert a.lo == b.lo and np.array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, c.counts)


def test_confidence_intervals_are_wilson_and_cover():
    sim = simulate(Roll(0), n=10_000, seed=5)
    lo, hi = sim.ci(16)
    k = sim.counts[16 - sim.lo :].sum()
    # Wilson by hand for k successes in n
    z, n = 1.959963984540054, 10_000
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert (lo, hi) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert lo < exact(Roll(0)).p_success(16) < hi
    frame = sim.success_frame(DCS)
    assert {"dc", "p", "ci_low", "ci_high", "n", "seed", "method"} <= set(frame.columns)
    tidy = sim.to_frame()
    assert {"total", "count", "p", "ci_low", "ci_high"} <= set(tidy.columns)
    assert tidy["count"].sum() == 10_000


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"n": 0}, "n"),
        ({"n": 2.5}, "n"),
        ({"seed": -1}, "seed"),
        ({"seed": "abc"}, "seed"),
        ({"threads": 0}, "threads"),
        ({"chunk_size": 0}, "chunk_size"),
    ],
)
def test_bad_input_is_refused(kwargs, field):
    kwargs = {"n": 100, **kwargs}
    with pytest.raises(ExplodiceError, match=f"`{field}`"):
        simulate(Roll(0), **kwargs)


def test_a_result_says_which_machine_made_it():
    s = simulate(Roll(0), n=1000, seed=1)
    assert s.backend == "cpu" and s.summary()["backend"] == "cpu" and "on cpu" in repr(s)
    e = exact(Roll(0))
    assert e.backend is None and e.summary()["backend"] is None
