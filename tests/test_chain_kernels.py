"""The chain's kernels against plain references: the vector Horner schemes against the
convolution of the drain's PMF (explodice.day.rolls.drain_pmf), and a whole roll of the chain
against the overflow rule applied state by state and drain by drain (explodice.day.overflow.
pour), on gauges large enough for every path of the kernels: tiles read in place and through a
copy, whole groups of eight columns and the columns left one by one, several tiles, levels
that go straight to the result, columns that lose their excess at once."""

from __future__ import annotations

import numpy as np
import pytest

from explodice.day._vector import STEPS, horner_columns, horner_stage
from explodice.day.chain import LevelChain
from explodice.day.overflow import pour
from explodice.day.rolls import drain_pmf


def _law_pmf(c_mass: np.ndarray, size: int) -> np.ndarray:
    """P(drain = d), d < size, of a law given by its c-mass (a plain convolution)."""
    out = np.zeros(size)
    for c, w in enumerate(c_mass):
        q = drain_pmf(c)[:size]
        out[: q.size] += w * q
    return out


def _correlate(x: np.ndarray, pmf: np.ndarray, lo: int) -> np.ndarray:
    """``y[lo + j] = sum_d pmf[d] x[j + d]`` for ``j = -lo .. len(x) - 1`` (x is 0 above)."""
    m = x.shape[0]
    y = np.zeros((lo + m,) + x.shape[1:])
    for j in range(-lo, m):
        for d in range(max(0, -j), m - j):
            y[lo + j] += pmf[d] * x[j + d]
    return y


@pytest.mark.parametrize("C", range(STEPS + 1))
def test_horner_columns_matches_the_convolution(C):
    rng = np.random.default_rng(C)
    for m, nb in ((1, 8), (7, 5), (30, 13), (40, 24)):
        B = nb + 3  # the tile's row is wider than its columns
        x = rng.random((m, B))
        coef = rng.random((C + 1, B)) / (C + 1)
        want = np.zeros((m, nb))
        for b in range(nb):
            want[:, b] = _correlate(x[:, b], _law_pmf(coef[:, b], m + 1), 0)
        for rows_a in (0, m // 2, m):
            for overwrite in (True, False):
                a = np.full(m * B, -7.0)
                out = rng.random(m * B + 5)
                before = out.copy()
                horner_columns(x.reshape(-1), 0, B, m, coef, a, B, out, 5, B, rows_a, overwrite,
                               nb, C)  # fmt: skip
                assert a.reshape(m, B)[:rows_a, :nb] == pytest.approx(want[:rows_a], abs=1e-14)
                got, was = out[5:].reshape(m, B), before[5:].reshape(m, B)
                base = 0.0 if overwrite else was[rows_a:, :nb]
                assert got[rows_a:, :nb] == pytest.approx(base + want[rows_a:], abs=1e-14)
                assert (got[:rows_a] == was[:rows_a]).all()  # the levels kept in ``a``
                assert (got[:, nb:] == was[:, nb:]).all()  # and the columns of no group


@pytest.mark.parametrize("C", range(STEPS + 1))
def test_horner_stage_matches_the_convolution(C):
    rng = np.random.default_rng(10 + C)
    Z, K, X, zl1 = 23, 19, 9, 11
    F = rng.random((3, Z, K))
    F[1, zl1:] = 0.0  # law 1 has sources below zl1 only
    pis = rng.random((2, C + 1)) / (C + 1)
    Phi = np.full((X + Z) * K, -3.0)
    horner_stage(F.reshape(-1), Z, K, X, zl1, pis, Phi, C)
    want = sum(_correlate(F[v], _law_pmf(pis[v], X + Z + 1), X) for v in (0, 1))
    assert Phi.reshape(X + Z, K) == pytest.approx(want, abs=1e-13)


def _reference_move(sizes, P, g, h, laws, weight, rule):
    """``weight`` times ``P`` after one roll of gauge ``g``, state by state and drain by drain
    (law 1 where gauge ``h`` is at 0); the expected points lost."""
    levels = np.indices(sizes).reshape(4, -1).T
    law = (levels[:, h] == 0).astype(int) if h >= 0 else np.zeros(len(levels), int)
    top = int(np.sum(sizes))  # a drain past every point a state holds empties it all
    pmfs = [_law_pmf(row, 12 * top) for row in laws]
    out, lost = np.zeros(P.size), 0.0
    for d in range(top + 1):
        q = np.array([pmfs[v][d] for v in law])
        new, gone = pour(levels, g, np.full(len(levels), d), rule)
        at = np.ravel_multi_index(tuple(new.T), sizes)
        np.add.at(out, at, weight * P * q)
        lost += float(weight * P @ (q * gone))
    for v in (0, 1):  # the tail past ``top``: the state it empties to, and the points lost
        tail = pmfs[v][top + 1 :]
        d = np.arange(top + 1, top + 1 + tail.size)
        mask = law == v
        new, gone = pour(levels[mask], g, np.full(mask.sum(), top + 1), rule)
        at = np.ravel_multi_index(tuple(new.T), sizes)
        np.add.at(out, at, weight * P[mask] * tail.sum())
        extra = float(tail @ (d - (top + 1)))  # points past top + 1, lost as well
        lost += float(weight * P[mask] @ (gone * tail.sum() + extra))
    return out, lost


@pytest.mark.parametrize("rule", ["fullest", "lost", "PM"])
@pytest.mark.parametrize("sizes", [(10, 12, 8, 6), (3, 9, 2, 40)], ids=["wide", "tall"])
def test_a_roll_matches_the_overflow_state_by_state(sizes, rule):
    rng = np.random.default_rng(sum(sizes))
    chain = LevelChain(tuple(s - 1 for s in sizes), rule)
    P = rng.random(chain.n)
    P /= P.sum()
    for g in range(4):
        for h in (-1, g, (g + 1) % 4):
            laws = rng.random((2, 4))
            laws /= laws.sum(axis=1, keepdims=True)
            want, want_lost = _reference_move(sizes, P, g, h, laws, 0.7, rule)
            out = rng.random(chain.n)
            before = out.copy()
            mass, lost = chain.move(P, out, g, h, laws, 0.7)
            assert out - before == pytest.approx(want, abs=1e-13), (g, h)
            assert lost == pytest.approx(want_lost, rel=1e-12, abs=1e-13)
            at_zero = (np.indices(sizes)[h].reshape(-1) == 0) if h >= 0 else np.zeros(P.size, bool)
            assert mass == pytest.approx(0.7 * np.array([P[~at_zero].sum(), P[at_zero].sum()]))
            written = np.zeros(chain.n)
            chain.move(P, written, g, h, laws, 0.7, overwrite=True)
            assert written == pytest.approx(want, abs=1e-13)
