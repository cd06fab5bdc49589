"""The optimal player's kernels (explodice.day._optimal_kernel) against plain references: the
roll's value under the best choices written out with numpy, on random inputs that reach every
path of the kernels (blocks of states, both variants, halves, laws with zeros, ties); and one
backward step on a tiny gauge against the rules played literally (tests/brute.py's throws,
each k tried), with the drain's value after the roll from the PMF of the exploding d6."""

from __future__ import annotations

import numpy as np
import pytest

import explodice as ex
from explodice.day import _optimal_kernel as kernel
from explodice.day.compiled import compile_day
from explodice.day.optimal import throws_of
from explodice.day.rolls import drain_pmf
from tests.day_helpers import hero
from tests.test_optimal import best_throws


def _random_throws(rng, C, n_choice=(3, 4)):
    """Inputs of the kernels for two variants: ``n_choice[v]`` choice throws each."""
    s0 = rng.random(2) * 0.3
    pi0 = rng.random((2, C + 1)) * 0.2
    pi0[0, min(1, C)] = 0.0  # a law with a zero (the kernel skips it)
    first = np.array([0, n_choice[0]], np.int64)
    last = np.array([n_choice[0], sum(n_choice)], np.int64)
    n = sum(n_choice)
    p = rng.random(n) * 0.1
    kmax = rng.integers(0, 4, n).astype(np.int64)
    succ = rng.random((n, 4))
    ones = rng.random((n, 4, C + 1)) / (C + 1)
    ones[0, 1] = ones[0, 0]  # a tie between k = 0 and k = 1: the larger k is chosen
    succ[0, 1] = succ[0, 0]
    kmax[0] = max(kmax[0], 1)
    return kernel.Choices(s0, pi0, first, last, p, kmax, succ, ones)


def _reference(V, W, C, v, weight, s0, pi0, first, last, p, kmax, succ, ones):
    """Per state: the roll's value, P(success), P(c draining 1s) and the choice key, each
    choice throw's every k tried (ties to the larger k), with numpy."""
    w = np.vstack([V[None, :], W[:C]])  # w[c]: the value after c dice
    q = weight * s0[v] + pi0[v, : C + 1] @ w
    s = np.full(V.size, s0[v])
    pi = np.repeat(pi0[v, : C + 1][:, None], V.size, axis=1)
    key = np.zeros(V.size, np.int64)
    for j in range(first[v], last[v]):
        vals = np.array([weight * succ[j, k] + ones[j, k, : C + 1] @ w for k in range(kmax[j] + 1)])
        best = vals.max(axis=0)
        k = np.array([max(np.flatnonzero(col >= b - 1e-12)) for col, b in zip(vals.T, best)])
        q += p[j] * best
        s += p[j] * succ[j, k]
        pi += p[j] * ones[j, k, : C + 1].T
        key = key * (kmax[j] + 1) + k
    return q, s, pi.T, key


@pytest.mark.parametrize("C", [0, 1, 3])
def test_values_and_decide_match_the_choices_written_out(C):
    rng = np.random.default_rng(C)
    n = 700  # three blocks of states, the last one short
    V, W = rng.random(n), rng.random((max(C, 1), n))
    th = _random_throws(rng, C)
    for v in (0, 1):
        want_q, want_s, want_pi, want_key = _reference(V, W, C, v, 1.7, *th)
        Q = rng.random(n)
        before = Q.copy()
        after = kernel.After(V, W, C)
        kernel.values(after, v, 1.7, th, Q, 0.25, 0, 300)  # two halves, as on two threads
        kernel.values(after, v, 1.7, th, Q, 0.25, 300, n)
        assert Q == pytest.approx(before + 0.25 * want_q, abs=1e-13)
        Q, s, pi, key = np.empty(n), np.empty(n), np.zeros((n, C + 1)), np.empty(n, np.int64)
        out = kernel.Decisions(Q, s, pi, key)
        kernel.decide(after, np.full(n, v, np.int64), 1.7, th, out)
        assert Q == pytest.approx(want_q, abs=1e-13)
        assert s == pytest.approx(want_s, abs=1e-13)
        assert pi == pytest.approx(want_pi, abs=1e-13)
        assert np.array_equal(key, want_key)
    # each state its own variant
    variant = rng.integers(0, 2, n).astype(np.int64)
    Q, s, pi, key = np.empty(n), np.empty(n), np.zeros((n, C + 1)), np.empty(n, np.int64)
    kernel.decide(kernel.After(V, W, C), variant, 1.7, th, kernel.Decisions(Q, s, pi, key))
    for v in (0, 1):
        want_q, _, _, want_key = _reference(V, W, C, v, 1.7, *th)
        assert Q[variant == v] == pytest.approx(want_q[variant == v], abs=1e-13)
        assert np.array_equal(key[variant == v], want_key[variant == v])


def test_the_tie_goes_to_the_larger_k():
    rng = np.random.default_rng(9)
    th = _random_throws(rng, 1)
    V, W = rng.random(5), rng.random((1, 5))
    Q, s, pi, key = np.empty(5), np.empty(5), np.zeros((5, 2)), np.empty(5, np.int64)
    out = kernel.Decisions(Q, s, pi, key)
    kernel.decide(kernel.After(V, W, 1), np.zeros(5, np.int64), 1.0, th, out)
    kmax = th.kmax
    radix = int(np.prod(kmax[1:3] + 1))  # throw 0 is the most significant of variant 0's
    chosen = key // radix
    rows = [th.succ[0, k] + th.ones[0, k, 0] * V + th.ones[0, k, 1] * W[0] for k in (0, 1)]
    assert np.array_equal(rows[0], rows[1])  # the tie planted by _random_throws
    assert (chosen >= 1).all()


@pytest.mark.parametrize(
    "rules", [ex.Rules(), (ex.Rules(disadvantage="drop"), "lucky")], ids=["default", "lucky-drop"]
)
@pytest.mark.parametrize("gauge,dc", [(4, 14), (6, 17)])
def test_a_backward_step_on_a_tiny_gauge_is_the_rules_played_literally(rules, gauge, dc):
    # one gauge (the others empty: an excess is lost); the day after the roll is worth V by
    # level; the roll's value from level L: the best k of each throw, P(success) plus
    # E[V(max(L - drain, 0))], at disadvantage at level 0 (docs/rules.md)
    rules, lucky = rules if isinstance(rules, tuple) else (rules, False)
    trait = {"reroll": ex.Reroll("one")} if lucky else {}
    who = hero(gauges={"PA": gauge, "PM": 0, "PF": 0, "PH": 0}, **trait)
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=dc)])
    th = throws_of(compile_day(s, rules).roll_types[0])
    C = max(th.dice, 1)
    V = np.random.default_rng(gauge).random(gauge + 1)
    W = np.zeros((C, gauge + 1))
    for c in range(1, C + 1):  # E[V after c exploding d6], level by level
        pmf = drain_pmf(c)
        for level in range(gauge + 1):
            W[c - 1, level] = sum(q * V[max(level - d, 0)] for d, q in enumerate(pmf))
    args = (th.kernel_view,)
    Q = np.zeros(gauge + 1)
    kernel.values(
        kernel.After(V[1:], W[:, 1:].copy(), th.dice), 0, 1.0, *args, Q[1:], 1.0, 0, gauge
    )
    kernel.values(kernel.After(V[:1], W[:, :1].copy(), th.dice), 1, 1.0, *args, Q[:1], 1.0, 0, 1)
    roll = {True: s.roll_of(0, gauge_empty=True), False: s.roll_of(0)}
    for level in range(gauge + 1):
        want = best_throws(roll[level == 0], dc, rules, lambda d, L=level: V[max(L - d, 0)])
        assert Q[level] == pytest.approx(want, abs=1e-6), level
    # the forward pass's kernel finds the same values
    variant = (np.arange(gauge + 1) == 0).astype(np.int64)
    Qd, sd = np.empty(gauge + 1), np.empty(gauge + 1)
    pi, key = np.zeros((gauge + 1, th.dice + 1)), np.empty(gauge + 1, np.int64)
    kernel.decide(
        kernel.After(V, W, th.dice), variant, 1.0, *args, kernel.Decisions(Qd, sd, pi, key)
    )
    assert Qd == pytest.approx(Q, abs=1e-12)
