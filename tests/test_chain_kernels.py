"""The chain's kernels against plain references: the vector Horner schemes against the
convolution of the drain's PMF (explodice.day.rolls.drain_pmf), and a whole roll of the chain
against the overflow rule applied state by state and drain by drain (the vectorised rule of
explodice.day.overflow, and docs/rules.md's rule written literally in test_exact_day.py), on gauges
large enough for every path of the kernels: tiles read in place and through a copy, whole
groups of eight columns and the columns left one by one, several tiles, levels that go
straight to the result, columns that lose their excess at once, two lanes; and days played in
several threads at once against the same days one after the other. The Horner schemes are
tested on each of their paths: the plain twin (explodice.day._plain) and the vector sweeps at
both widths, 4 and 8, whatever the CPU; and the exact day on the plain twin
(EXPLODICE_KERNELS=plain) against the same day on the vector sweeps."""

from __future__ import annotations

import functools
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import explodice as ex
from explodice.day import _plain
from explodice.day._vector import STEPS, WIDTHS, columns_kernel, stage_kernel
from explodice.day.chain import LevelChain
from explodice.day.overflow import pour
from explodice.day.rolls import drain_pmf
from tests.day_helpers import SCORES
from tests.test_exact_day import pour as literal_pour


def _law_pmf(c_mass: np.ndarray) -> np.ndarray:
    """P(drain = d) of a law given by its c-mass, every d it reaches (a plain convolution)."""
    rows = [w * drain_pmf(c) for c, w in enumerate(c_mass)]
    out = np.zeros(max(r.size for r in rows))
    for r in rows:
        out[: r.size] += r
    return out


def _correlate(x: np.ndarray, pmf: np.ndarray, lo: int) -> np.ndarray:
    """``y[lo + j] = sum_d pmf[d] x[j + d]`` for ``j = -lo .. len(x) - 1`` (x is 0 above)."""
    m = x.shape[0]
    pmf = np.pad(pmf, (0, max(0, lo + m + 1 - pmf.size)))
    y = np.zeros((lo + m,) + x.shape[1:])
    for j in range(-lo, m):
        for d in range(max(0, -j), m - j):
            y[lo + j] += pmf[d] * x[j + d]
    return y


# each path of the Horner schemes: (horner_columns, horner_stage)
PATHS = {
    "plain": (_plain.horner_columns, _plain.horner_stage),
    **{f"vector{w}": (columns_kernel(w), stage_kernel(w)) for w in WIDTHS},
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("C", range(STEPS + 1))
def test_horner_columns_matches_the_convolution(C, path):
    horner_columns = PATHS[path][0]
    rng = np.random.default_rng(C)
    for m, nb in ((0, 8), (1, 8), (7, 5), (30, 13), (40, 24), (9, 0)):
        B, s0 = nb + 3, 11  # the tile's row is wider than its columns, and starts further on
        x = rng.random(s0 + m * B)
        cols = x[s0:].reshape(m, B)
        coef = rng.random((C + 1, B)) / (C + 1)
        want = np.zeros((m, nb))
        for b in range(nb):
            want[:, b] = _correlate(cols[:, b], _law_pmf(coef[:, b]), 0)
        for rows_a in (0, m // 2, m):
            for overwrite in (True, False):
                a = np.full(m * B, -7.0)
                out = rng.random(m * B + 5)
                before = out.copy()
                horner_columns(x, s0, B, m, coef, a, B, out, 5, B, rows_a, overwrite, nb, C)
                kept = a.reshape(m, B)
                assert kept[:rows_a, :nb] == pytest.approx(want[:rows_a], abs=1e-14)
                assert (kept[rows_a:] == -7).all() and (kept[:, nb:] == -7).all()
                got, was = out[5:].reshape(m, B), before[5:].reshape(m, B)
                base = 0.0 if overwrite else was[rows_a:, :nb]
                assert got[rows_a:, :nb] == pytest.approx(base + want[rows_a:], abs=1e-14)
                assert (got[:rows_a] == was[:rows_a]).all()  # the levels kept in ``a``
                assert (got[:, nb:] == was[:, nb:]).all()  # and the columns of no group
                assert (out[:5] == before[:5]).all()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("C", range(STEPS + 1))
def test_horner_stage_matches_the_convolution(C, path):
    horner_stage = PATHS[path][1]
    rng = np.random.default_rng(10 + C)
    Z = 23
    for K, X, zl1 in ((19, 9, 11), (3, 0, 0), (8, 4, Z), (9, 20, 1)):
        F = rng.random((3, Z, K))
        F[1, zl1:] = 1e6  # law 1's sources stop at zl1: nothing beyond may be read
        F[2] = np.nan  # nor the slot of what the columns kept
        pis = rng.random((2, C + 1)) / (C + 1)
        Phi = np.full((X + Z) * K, -3.0)
        horner_stage(F.reshape(-1), Z, K, X, zl1, pis, Phi, C)
        law1 = np.where(np.arange(Z)[:, None] < zl1, F[1], 0.0)
        want = _correlate(F[0], _law_pmf(pis[0]), X) + _correlate(law1, _law_pmf(pis[1]), X)
        assert Phi.reshape(X + Z, K) == pytest.approx(want, abs=1e-13)


@pytest.mark.parametrize("path", PATHS)
def test_the_kernels_refuse_what_they_cannot_read(path):
    horner_columns, horner_stage = PATHS[path]
    x, coef, a = np.zeros(64), np.zeros((4, 8)), np.zeros(64)
    with pytest.raises(ValueError, match="out of range"):
        horner_columns(x, 0, 8, 8, coef, a, 8, a, 0, 8, 8, False, 8, -1)
    with pytest.raises(ValueError, match="out of range"):
        horner_columns(x, 0, 8, 8, coef, a, 8, a, 0, 8, 8, False, 8, 4)  # 4 dice, 3 laws' rows
    with pytest.raises(ValueError, match="past its arrays"):
        horner_columns(x, 0, 8, 9, coef, a, 8, a, 0, 8, 9, False, 8, 3)
    with pytest.raises(ValueError, match="out of range"):
        horner_stage(np.zeros(3 * 4 * 5), 4, 5, 2, 5, np.zeros((2, 4)), np.zeros(30), 3)


def _reference_move(sizes, P, g, h, laws, weight, rule):
    """``weight`` times ``P`` after one roll of gauge ``g``, state by state and drain by drain
    (law 1 where gauge ``h`` is at 0; ``rule`` an overflow rule, or ``pour(levels, g, d)``
    itself); the expected points lost."""
    levels = np.indices(sizes).reshape(4, -1).T
    law = (levels[:, h] == 0).astype(int) if h >= 0 else np.zeros(len(levels), int)
    top = int(np.sum(sizes))  # a drain past every point a state holds empties it all
    pmfs = [np.pad(q, (0, max(0, top + 2 - q.size))) for q in map(_law_pmf, laws)]
    poured = rule if callable(rule) else (lambda lv, d: pour(lv, g, d, rule))
    out, lost = np.zeros(P.size), 0.0
    for d in range(top + 2):  # top + 1 stands for every drain past top
        q = np.array([pmfs[v][d:].sum() if d > top else pmfs[v][d] for v in law])
        new, gone = poured(levels, np.full(len(levels), d))
        np.add.at(out, np.ravel_multi_index(tuple(new.T), sizes), weight * P * q)
        lost += float(weight * P @ (q * gone))
    for v in (0, 1):  # past top + 1: the points beyond are lost too
        d = np.arange(pmfs[v].size)
        beyond = float(pmfs[v][top + 2 :] @ (d[top + 2 :] - (top + 1)))
        lost += weight * float(P[law == v].sum()) * beyond
    return out, lost


def _random_laws(rng, C):
    laws = rng.random((2, C + 1))
    return laws / laws.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("rule", ["fullest", "lost", "PM"])
@pytest.mark.parametrize(
    "sizes", [(10, 12, 8, 6), (3, 9, 2, 40), (5, 7, 11, 5)], ids=["wide", "tall", "odd"]
)
def test_a_roll_matches_the_overflow_state_by_state(sizes, rule):
    rng = np.random.default_rng(sum(sizes))
    chain = LevelChain(tuple(s - 1 for s in sizes), rule)
    P = rng.random(chain.n)
    P /= P.sum()
    for g in range(4):
        for h, C, lane in ((-1, 1, None), (g, 3, 0), ((g + 1) % 4, 8, 1)):
            laws = _random_laws(rng, C)
            want, want_lost = _reference_move(sizes, P, g, h, laws, 0.7, rule)
            out = rng.random(chain.n)
            before = out.copy()
            mass, lost = chain.move(P, out, g, h, laws, 0.7, lane=lane)
            assert out - before == pytest.approx(want, abs=1e-13), (g, h)
            assert lost == pytest.approx(want_lost, rel=1e-12, abs=1e-13)
            at_zero = (np.indices(sizes)[h].reshape(-1) == 0) if h >= 0 else np.zeros(P.size, bool)
            assert mass == pytest.approx(0.7 * np.array([P[~at_zero].sum(), P[at_zero].sum()]))
            written = np.zeros(chain.n)
            chain.move(P, written, g, h, laws, 0.7, overwrite=True, lane=lane)
            assert written == pytest.approx(want, abs=1e-13)


def test_a_roll_matches_the_literal_overflow():
    sizes = (5, 7, 11, 5)  # the first axis's tiles: 384 columns, then one
    rng = np.random.default_rng(5)
    chain = LevelChain(tuple(s - 1 for s in sizes), "fullest")
    P = rng.random(chain.n)
    P /= P.sum()
    for g in range(4):

        @functools.cache
        def one(levels, d, g=g):
            return literal_pour(levels, g, d, "fullest")

        def literal(levels, drains):
            pairs = [one(tuple(int(v) for v in lv), int(d)) for lv, d in zip(levels, drains)]
            return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])

        laws = _random_laws(rng, 3)
        want, want_lost = _reference_move(sizes, P, g, g, laws, 1.0, literal)
        out = np.zeros(chain.n)
        _, lost = chain.move(P, out, g, g, laws, 1.0)
        assert out == pytest.approx(want, abs=1e-13)
        assert lost == pytest.approx(want_lost, rel=1e-12)


def test_days_played_at_once_in_threads_are_the_days_played_alone():
    def day(dc):
        who = ex.Character("Hero", SCORES, gauge_max={"PA": 30, "PM": 12, "PF": 14, "PH": 10})
        skills = ("Athletics", "Arcana", "Persuasion", "Stealth")
        rolls = [ex.DayRoll("Hero", skill=k, dc=dc) for k in skills]
        return ex.Scenario([who], rolls, rolls_per_day=4)

    def tables(dc):
        r = ex.exact_day(day(dc), threads=1)
        return r.lost_sum.copy(), r.end.copy(), r.first.copy()

    dcs = list(range(10, 16))
    alone = {dc: tables(dc) for dc in dcs}
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns as often as they can
    try:
        with ThreadPoolExecutor(4) as pool:
            together = dict(zip(dcs, pool.map(tables, dcs)))
    finally:
        sys.setswitchinterval(switch)
    for dc in dcs:
        for a, b in zip(alone[dc], together[dc]):
            assert np.array_equal(a, b), dc


RUN = """
import sys, numpy as np, explodice as ex
who = ex.Character("Hero", dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8),
                   gauge_max={"PA": 20, "PM": 9, "PF": 11, "PH": 9})
rolls = [ex.DayRoll("Hero", skill=k, dc=14) for k in ("Athletics", "Arcana", "Insight", "Persuasion")]
r = ex.exact_day(ex.Scenario([who], rolls, rolls_per_day=5))
np.save(sys.argv[1], np.concatenate([r.first.ravel(), r.end.ravel(), r.by_type.ravel(), r.lost_sum]))
"""


def _run_day(path, kernels, cache=None):
    """RUN's day in a new process on the Horner schemes ``kernels``; its numbers (saved at
    ``path``)."""
    import os
    import subprocess

    env = dict(os.environ, EXPLODICE_KERNELS=kernels)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    run = RUN + "from explodice.day._horner import KERNELS; print(KERNELS)\n"
    done = subprocess.run(
        [sys.executable, "-c", run, str(path)], env=env, check=True, capture_output=True, text=True
    )
    assert done.stdout.split()[-1] == kernels  # the switch was read
    return np.load(path)


def test_the_exact_day_is_the_same_on_the_plain_horner_schemes(tmp_path):
    vector = _run_day(tmp_path / "vector.npy", "vector")
    plain = _run_day(tmp_path / "plain.npy", "plain")
    assert vector.sum() > 1.0  # a day with numbers in it
    assert np.abs(plain - vector).max() <= 1e-12


def test_a_first_run_compiling_the_kernels_gives_the_numbers_of_later_runs(tmp_path):
    # numba runs the code it compiles and caches it; a later run loads the cache: the two
    # must be the same code (fastmath arithmetic in a kernel's callee may be compiled twice,
    # and differently, unless numba inlines it: day/_chain_kernel.py, inline="always")
    import os
    import subprocess

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    for name in ("first", "later"):
        subprocess.run([sys.executable, "-c", RUN, str(tmp_path / name)], env=env, check=True)
    first, later = np.load(tmp_path / "first.npy"), np.load(tmp_path / "later.npy")
    assert np.array_equal(first, later)


def test_an_unknown_choice_of_kernels_is_refused_in_one_line():
    import os
    import subprocess

    env = dict(os.environ, EXPLODICE_KERNELS="simd")
    cmd = [sys.executable, "-c", "import explodice.day.chain"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "`EXPLODICE_KERNELS` must be one of ['vector', 'plain'], but 'simd' was passed." in last
