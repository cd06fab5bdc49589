"""Numba kernels of the chain on gauge levels (:mod:`explodice.day.chain`). Arrays only.

A character's level probabilities are a flat C-order array over (PA, PM, PF, PH). A roll of
gauge ``g`` reads it as *columns*: for each combination of the other gauges' levels (column
``col``), the ``m`` levels of ``g`` at stride ``inner`` from ``start(col)``. A drain law is
a mixture of sums of ``c`` exploding d6, ``sum_c pi[c] D^{*c}`` (``pi``: the law's c-mass),
and one exploding d6 is a short recursion:

    (R y)(j) = sum_{n >= 1} P(D = n) y(j + n) = (y(j+1) + ... + y(j+5) + (R y)(j+6)) / 6,

so a roll's move along a column is a Horner scheme in ``R``: about seven operations per level
and per ``c``, whatever the gauge's size, played on a vector register's worth of columns at
once by the vector code of :mod:`explodice.day._vector` (or its plain twin,
:mod:`explodice.day._plain`: :mod:`explodice.day._horner` picks). Past 0 the excess pours into the
other gauges in the order the overflow rule gives (:mod:`explodice.day.chain`): a column's
sources and its first other gauge ``j1`` make one *combined* level ``z = level of g + level of
j1``, along which the drain is again the same Horner scheme, on arrays of each about a tenth
of the states at level 20 (three slots: 0.3-0.4 of them; 0.4-0.55 at level 10,
:func:`stage_push`):

- :func:`push_columns` plays the drain inside each column, tile by tile, and adds its
  sources and what it keeps, by combined level, into the stage arrays ``F`` (``F[v]``:
  sources of law ``v``; ``F[n_var]``: what the columns kept, at the levels the stage reads);
- :func:`stage_push` plays the drain along the combined level, extended below 0 (an excess
  past ``j1``, poured into the next gauges of the order), and subtracts what the columns kept.

:func:`pull_columns` and :func:`stage_pull` are the same operator transposed: the expected
value of ``V`` after the roll, for the optimal player's backward pass.

The kernels take a roll's arrays as named records (numba reads a ``NamedTuple`` as a struct:
no cost): :class:`Columns` (a gauge's columns, built once per gauge), :class:`Stage` (one class
of columns) and :class:`Drain` (the roll's drain laws), and unpack them on entry.

>>> import numpy as np
>>> u = np.zeros((8, 1)); u[6, 0] = 1.0   # index 0 (row 6) worth 1
>>> r, S = np.zeros((8, 1)), np.zeros(1)
>>> _r_pull(u, r, S, 2, 1)                # one die from level 1: to 0 with P(D = 1) = 1/6
>>> round(float(r[7, 0]) * 6, 12), float(r[6, 0])
(1.0, 0.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, uint64

from explodice.day._horner import KERNELS, horner_columns, horner_stage
from explodice.day._vector import FASTMATH, SIXTH
from explodice.engine.numba_cache import prepare_cache

# before the first @njit(cache=True): see engine/numba_cache.py; the kernels built on the plain
# Horner schemes are cached apart from the vector ones
prepare_cache(__file__, variant="" if KERNELS == "vector" else KERNELS)

# reassociation lets the loops run on vectors; the sums stay sums of positive terms. A helper
# with such arithmetic that a cached kernel calls is inline="always": compiled apart, numba may
# run one copy of it in the first run and another, compiled inside the caller, from the cache,
# and the two may regroup the sums differently (tests/test_chain_kernels.py checks both runs).
_FAST = FASTMATH
_SIXTH = SIXTH
BLOCK = 384  # columns of a tile: its rows of 384 doubles stay in the L1/L2 caches
NARROW = 64  # columns of a tile when each column is a run (the last axis: a transposed copy)


class Columns(NamedTuple):
    """The columns of a roll of one gauge (:class:`~explodice.day.chain.MovePlan`'s arrays):
    ``m`` levels of the gauge at stride ``inner``. ``base[col]`` places column ``col`` in the
    stage buffer ``F`` (combined level 0 of law 0, ``zstep`` per level, ``vstep`` per law;
    ``< 0``: the column loses its excess at once), ``t_base``, ``t_zstep`` in the pull's stage
    values ``T``; ``b_lim[col]``: the levels of what the column keeps that its stage reads,
    ``V[b_base + lv b_step]`` in the pull."""

    m: int
    inner: int
    base: np.ndarray
    zstep: np.ndarray
    vstep: np.ndarray
    t_base: np.ndarray
    t_zstep: np.ndarray
    b_base: np.ndarray
    b_step: np.ndarray
    b_lim: np.ndarray


class Stage(NamedTuple):
    """One class of columns (first gauge of the pour ``j1``;
    :class:`~explodice.day.chain.PourClass`): ``K`` planes (the levels of the two other
    gauges), ``Z`` combined levels, an excess past ``j1`` of at most ``X`` points poured on.
    What the drain leaves at combined level ``y < ylim`` lands on ``j1`` (state ``tbase[k] + y
    tstep``; ``tbase < 0``: no column); an excess ``x = 1 .. R[k]`` past ``j1`` lands on
    ``pour_to[pour_at[k] + x - 1]``, more than ``R[k]`` on ``lump_to[k]`` (the rest lost)."""

    Z: int
    K: int
    X: int
    ylim: int
    tbase: np.ndarray
    tstep: int
    pour_at: np.ndarray
    pour_to: np.ndarray
    R: np.ndarray
    lump_to: np.ndarray


class Drain(NamedTuple):
    """A roll's drain: ``pis[v]`` the c-mass of law ``v`` (two laws,
    :data:`~explodice.day.chain.N_LAWS`; ``C`` the largest c), ``tau[v, j]`` = P(d > j) and
    ``lam[v, j]`` = E[(d - j)^+] of each; column ``col`` plays law ``vcol[col]``, except its
    level 0 when ``row0 >= 0`` (a roll at disadvantage when its own gauge is empty)."""

    pis: np.ndarray
    C: int
    tau: np.ndarray
    lam: np.ndarray
    row0: int
    vcol: np.ndarray


# -- one exploding d6 along an axis, transposed (the pull) ---------------------------------------
@njit(cache=True, boundscheck=False, fastmath=_FAST)
def _r_pull(u, r, S, rows, K):
    """``r[6 + j] = (R^T u)[j]`` for ``j = 0 .. rows - 1``, causal: ``(u[j-1] + ... + u[j-5]
    + r[j-6]) / 6`` (row ``6 + j`` holds index ``j``; rows 0..5 of both hold zeros)."""
    for j in range(6, rows + 6):
        u1 = u[j - 1]
        u2 = u[j - 2]
        u3 = u[j - 3]
        u4 = u[j - 4]
        u5 = u[j - 5]
        for i in range(K):
            S[i] = u1[i] + u2[i] + u3[i] + u4[i] + u5[i]
        r0 = r[j]
        r6 = r[j - 6]
        for i in range(K):
            r0[i] = (S[i] + r6[i]) * _SIXTH


# -- push: the probabilities after a roll -------------------------------------------------------
@njit(cache=True, boundscheck=False)
def _block(col0, n_cols, inner, contiguous, m, start, B):
    """The tile starting at column ``col0``: its width, each column's first state in
    ``start``. A contiguous tile stays in one row of the outer axes (its rows are runs)."""
    nb = min(B, n_cols - col0)
    if contiguous:
        o = col0 // inner
        nb = min(nb, (o + 1) * inner - col0)
    for b in range(nb):
        col = col0 + b
        o = col // inner
        start[b] = uint64(o * m * inner + (col - o * inner))
    return nb


@njit(cache=True, boundscheck=False, fastmath=_FAST)
def _gather(P, Pt, m, inner, contiguous, start, nb, B):
    """Copy the tile's columns of ``P`` into ``Pt`` (flat, level ``lv`` of column ``b`` at
    ``lv B + b``)."""
    iu = uint64(inner)
    if inner == 1:  # each column is a run of m entries
        for b in range(nb):
            s = start[b]
            for lv in range(m):
                Pt[lv * B + b] = P[s + uint64(lv)]
        return
    for lv in range(m):
        row = Pt[lv * B : lv * B + nb]
        off = uint64(lv) * iu
        if contiguous:
            s0 = start[0] + off
            for b in range(nb):
                row[b] = P[s0 + uint64(b)]
        else:
            for b in range(nb):
                row[b] = P[start[b] + off]


@njit(cache=True, boundscheck=False)
def _tile_empty(P, m, inner, start, nb):
    """True when the tile holds no mass (read from the top level down: the mass of a day's
    first rolls sits there, so a tile with some is known after a row)."""
    iu = uint64(inner)
    for jj in range(m):
        off = uint64(m - 1 - jj) * iu
        for b in range(nb):
            if P[start[b] + off] != 0.0:
                return False
    return True


@njit(cache=True, boundscheck=False, fastmath=_FAST)
def _scatter(out, a, m, inner, contiguous, start, nb, overwrite):
    """Add the tile ``a[lv, b]`` into the columns of ``out`` (or write it there)."""
    if inner == 1:  # each column is a run
        for b in range(nb):
            s = start[b]
            for lv in range(m):
                if overwrite:
                    out[s + uint64(lv)] = a[lv, b]
                else:
                    out[s + uint64(lv)] += a[lv, b]
        return
    iu = uint64(inner)
    for lv in range(m):
        if contiguous:  # the tile's row is a run
            _into(out, start[0] + uint64(lv) * iu, a[lv], nb, overwrite)
        else:
            row = a[lv]
            off = uint64(lv) * iu
            for b in range(nb):
                if overwrite:
                    out[start[b] + off] = row[b]
                else:
                    out[start[b] + off] += row[b]


@njit(cache=True, boundscheck=False, fastmath=_FAST)
def _into(out, at, values, n, overwrite):
    """``out[at : at + n]`` += ``values`` (or = with ``overwrite``)."""
    dst = out[at : at + uint64(n)]
    if overwrite:
        for i in range(n):
            dst[i] = values[i]
    else:
        for i in range(n):
            dst[i] += values[i]


@njit(boundscheck=False, fastmath=_FAST, inline="always")
def _to_stage(F, src, s0, step, weight, a, m, runs, n_runs):
    """Add the tile's sources (row ``lv``: ``src[s0 + lv step ..]``, times ``weight``) and what
    its columns keep (``a``, levels below ``runs_k``: the stage reads no more) into the stage
    arrays, by combined level: ``runs`` (:func:`push_columns`' scratch) of columns whose
    entries are consecutive add as vectors. ``run_sum[k]``: run ``k``'s sources, summed."""
    pv, pn, zs, runs_b, runs_n, runs_k, run_sum = runs
    for k in range(n_runs):
        run_sum[k] = 0.0
    for lv in range(m):
        at = s0 + uint64(lv) * step
        orow = a[lv]
        lu = uint64(lv)
        for k in range(n_runs):
            b0 = runs_b[k]
            n = runs_n[k]
            d = lu * zs[b0]
            fp = F[pv[b0] + d : pv[b0] + d + n]
            xs = src[at + b0 : at + b0 + n]
            acc = 0.0
            for i in range(n):
                x = weight * xs[i]
                fp[i] += x
                acc += x
            run_sum[k] += acc
            if lv >= runs_k[k]:
                continue
            fq = F[pn[b0] + d : pn[b0] + d + n]
            ok = orow[b0 : b0 + n]
            for i in range(n):
                fq[i] += ok[i]


@njit(cache=True, boundscheck=False, fastmath=_FAST, nogil=True)
def push_columns(P, out, weight, cols, drain, F, mass, overwrite, col_lo, col_hi):
    """Add ``weight`` times ``P`` after one roll of the columns' gauge into ``out``: the drain
    within each column, and each column's sources and kept mass into ``F`` for the stages.

    ``cols``: the :class:`Columns`, ``drain`` the roll's :class:`Drain`. Column ``col`` goes
    into ``F`` at ``cols.base[col]`` (slot ``n_var`` = the number of laws: what the column
    kept, at its levels below ``cols.b_lim[col]``, the only ones the stage reads); a column
    with ``base < 0`` loses its excess at once, into its level 0. ``mass[v]`` gathers the
    mass of each law. With ``overwrite`` the columns are written into ``out``, not added (the
    first roll type of a lane: ``out`` need not be zeroed). Only columns ``col_lo .. col_hi -
    1`` are played (the GIL is released: two halves of a roll, or two lanes of rolls, run on
    two threads). Returns the expected points lost.

    A tile whose levels are runs of ``P`` (``inner`` at least a tile's width) is read in
    place; the weight goes into the laws' coefficients."""
    m, inner, base, keep = cols.m, cols.inner, cols.base, cols.b_lim
    pis, C, row0, vcol = drain.pis, drain.C, drain.row0, drain.vcol
    n_cols = col_hi
    B = BLOCK if inner > 1 else NARROW
    contiguous = inner >= B
    Pt = np.zeros(m * B)
    a = np.zeros((m, B))  # the levels a tile keeps for the stages (and level 0's law)
    a_flat = a.reshape(-1)
    coef = np.zeros((C + 1, B))
    start = np.zeros(B, np.uint64)
    pv = np.zeros(B, np.uint64)
    pn = np.zeros(B, np.uint64)
    zs = np.zeros(B, np.uint64)
    vb = np.zeros(B, np.int64)
    runs_b = np.zeros(B, np.uint64)
    runs_n = np.zeros(B, np.uint64)
    runs_k = np.zeros(B, np.int64)
    run_sum = np.zeros(B)
    lost = 0.0
    col0 = col_lo
    while col0 < n_cols:
        nb = _block(col0, n_cols, inner, contiguous, m, start, B)
        if _tile_empty(P, m, inner, start, nb):  # nothing here yet (the first rolls of a day)
            if overwrite:
                for lv in range(m):
                    for b in range(nb):
                        a[lv, b] = 0.0
                _scatter(out, a, m, inner, contiguous, start, nb, True)
            col0 += nb
            continue
        for b in range(nb):
            v = vcol[col0 + b]
            vb[b] = v
            for c in range(C + 1):
                coef[c, b] = weight * pis[v, c]
        rows_a = m  # the levels kept in ``a`` (for the stages, and level 0's law)
        if contiguous:  # the tile's levels are runs of P: read in place
            src, s0, step = P, start[0], uint64(inner)
            if C > 0:  # the levels the stages do not read go straight to ``out``
                rows_a = 1
                for b in range(nb):
                    rows_a = max(rows_a, keep[col0 + b] if base[col0 + b] >= 0 else m)
        else:
            _gather(P, Pt, m, inner, contiguous, start, nb, B)
            src, s0, step = Pt, uint64(0), uint64(B)
        horner_columns(src, s0, step, m, coef, a_flat, B, out, start[0], inner, rows_a, overwrite,
                       nb, C)  # fmt: skip
        if row0 >= 0:  # level 0 plays the empty gauge's law: only d = 0 stays
            k0 = weight * pis[row0, 0]
            for b in range(nb):
                a[0, b] += (k0 - coef[0, b]) * src[s0 + uint64(b)]
        _scatter(out, a, rows_a, inner, contiguous, start, nb, overwrite)
        runs = (pv, pn, zs, runs_b, runs_n, runs_k, run_sum)
        lost += _stage_sources(F, src, s0, step, weight, a, nb, col0, cols, drain, vb, runs, out,
                               start, mass)  # fmt: skip
        col0 += nb
    return lost


@njit(boundscheck=False, fastmath=_FAST, inline="always")
def _stage_sources(F, src, s0, step, weight, a, nb, col0, cols, drain, vb, runs, out, start, mass):
    """The tile's part of the stages (or, for columns without a pour, their lumps), and the
    mass of each law (``runs``: :func:`push_columns`' scratch of the tile's runs)."""
    m, base, zstep, vstep, keep = cols.m, cols.base, cols.zstep, cols.vstep, cols.b_lim
    n_var, row0, tau, lam = drain.pis.shape[0], drain.row0, drain.tau, drain.lam
    pv, pn, zs, runs_b, runs_n, runs_k, run_sum = runs
    n_runs = 0
    lumps = False
    for b in range(nb):
        col = col0 + b
        bs = base[col]
        if bs < 0:
            lumps = True
            continue
        zs[b] = uint64(zstep[col])
        pv[b] = uint64(bs + vb[b] * vstep[col])
        pn[b] = uint64(bs + n_var * vstep[col])
        if n_runs > 0 and b > 0 and base[col - 1] >= 0 and pv[b] == pv[b - 1] + 1:
            if pn[b] == pn[b - 1] + 1 and zs[b] == zs[b - 1] and vb[b] == vb[b - 1]:
                runs_n[n_runs - 1] += 1
                runs_k[n_runs - 1] = max(runs_k[n_runs - 1], keep[col])
                continue
        runs_b[n_runs] = b
        runs_n[n_runs] = 1
        runs_k[n_runs] = keep[col]
        n_runs += 1
    _to_stage(F, src, s0, step, weight, a, m, runs, n_runs)
    for k in range(n_runs):
        mass[vb[runs_b[k]]] += run_sum[k]
    if row0 >= 0:  # level 0 is a source of the empty gauge's law
        for b in range(nb):
            x = weight * src[s0 + uint64(b)]
            mass[vb[b]] -= x
            mass[row0] += x
            bs = base[col0 + b]
            if bs >= 0 and row0 != vb[b]:
                F[pv[b]] -= x
                F[uint64(bs + row0 * vstep[col0 + b])] += x
    lost = 0.0
    if lumps:
        for b in range(nb):
            if base[col0 + b] >= 0:
                continue
            lump = 0.0
            for lv in range(m):
                v = row0 if (lv == 0 and row0 >= 0) else vb[b]
                x = weight * src[s0 + uint64(lv) * step + uint64(b)]
                mass[vb[b]] += x
                lump += x * tau[v, lv]
                lost += x * lam[v, lv]
            out[start[b]] += lump
    return lost


@njit(cache=True, boundscheck=False, fastmath=_FAST, nogil=True)
def stage_push(F, stage, drain, zlim, out, Phi):
    """The drain along the combined level of one class of columns (its :class:`Stage`),
    ``drain`` the roll's :class:`Drain`.

    ``F`` (flat ``(n_var + 1, Z, K)``, ``n_var`` the number of laws): the sources by law, and
    in slot ``n_var`` what the columns kept. Everything the sources leave at combined level
    ``y >= 0`` minus what the columns kept lands on ``j1`` at ``y``; an excess past ``j1``
    where the stage pours it, the rest lost. ``zlim[v]``: the combined levels law ``v`` has
    sources at (law 0 at all of them); the two laws (:data:`~explodice.day.chain.N_LAWS`)
    played by :func:`~explodice.day._vector.horner_stage`. ``Phi`` (``X + Z`` rows of ``K``)
    is scratch. Returns the expected points lost."""
    Z, K, X, ylim, tbase, tstep = stage.Z, stage.K, stage.X, stage.ylim, stage.tbase, stage.tstep
    pour_at, pour_to, R, lump_to = stage.pour_at, stage.pour_to, stage.R, stage.lump_to
    pis, C, tau, lam = drain.pis, drain.C, drain.tau, drain.lam
    n_var = pis.shape[0]
    if n_var != 2:
        raise ValueError("stage_push plays two laws (explodice.day.chain.N_LAWS)")
    F3 = F.reshape(n_var + 1, Z, K)
    horner_stage(F, Z, K, X, zlim[1], pis, Phi, C)
    values = Phi.reshape(X + Z, K)
    step = uint64(tstep)
    for y in range(ylim):
        pj = values[X + y]
        fj = F3[n_var, y]
        yu = uint64(y) * step
        for k in range(K):
            if tbase[k] >= 0:
                out[uint64(tbase[k]) + yu] += pj[k] - fj[k]
    for k in range(K):
        p0 = pour_at[k]
        for x in range(1, R[k] + 1):
            out[pour_to[p0 + x - 1]] += values[X - x, k]
    lost = 0.0
    acc = np.zeros(K)
    for v in range(n_var):
        for z in range(zlim[v]):
            fz = F3[v, z]
            for k in range(K):
                zz = z + R[k]
                acc[k] += fz[k] * tau[v, zz]
                lost += fz[k] * lam[v, zz]
    for k in range(K):
        if lump_to[k] >= 0:
            out[lump_to[k]] += acc[k]
    for i in range(F.size):  # the buffer is clean for the next roll
        F[i] = 0.0
    return lost


@njit(cache=True, boundscheck=False, fastmath=_FAST, nogil=True)
def merge(F, F2):
    """``F += F2``, then ``F2`` zeroed (a second half's stage sources)."""
    for i in range(F.size):
        F[i] += F2[i]
        F2[i] = 0.0


@njit(cache=True, boundscheck=False, nogil=True)
def plane_to_level(block, out, slots, K, Z):
    """``out[s, z, k] = block[s, k, z]`` (flat), then ``block`` zeroed: a class that keeps
    each plane's levels together, read by the stage level by level."""
    B = 16
    for s in range(slots):
        src = block[s * K * Z : (s + 1) * K * Z]
        dst = out[s * K * Z : (s + 1) * K * Z]
        for k0 in range(0, K, B):
            k1 = min(K, k0 + B)
            for z0 in range(0, Z, B):
                z1 = min(Z, z0 + B)
                for k in range(k0, k1):
                    for z in range(z0, z1):
                        dst[z * K + k] = src[k * Z + z]
    for i in range(block.size):
        block[i] = 0.0


# -- pull: the expected value after a roll (the optimal player's backward pass) -------------------
@njit(cache=True, boundscheck=False, fastmath=_FAST)
def stage_pull(V, stage, Cmax, tau, T, u, r, S):
    """The transpose of :func:`stage_push` for the laws of ``c = 1 .. Cmax`` dice on one
    class of columns (its :class:`Stage`): ``T[c - 1, z, k]`` = E[V after a drain of c dice,
    from combined level ``z`` of plane ``k``] for the part past the column (landing on ``j1``
    or beyond). ``u``, ``r``: scratch of ``6 + X + Z`` rows (the first six hold zeros), ``S``
    of ``K``; ``tau[c, j]`` = P(c dice > j)."""
    Z, K, X, ylim, tbase, tstep = stage.Z, stage.K, stage.X, stage.ylim, stage.tbase, stage.tstep
    pour_at, pour_to, R, lump_to = stage.pour_at, stage.pour_to, stage.R, stage.lump_to
    for j in range(6):
        uj = u[j]
        rj = r[j]
        for i in range(K):
            uj[i] = 0.0
            rj[i] = 0.0
    for j in range(X + Z):
        uj = u[6 + j]
        for i in range(K):
            uj[i] = 0.0
    step = uint64(tstep)
    for k in range(K):
        tb = tbase[k]
        if tb >= 0:
            for y in range(ylim):
                u[6 + X + y, k] = V[uint64(tb) + uint64(y) * step]
        p0 = pour_at[k]
        for x in range(1, R[k] + 1):
            u[6 + X - x, k] = V[pour_to[p0 + x - 1]]
    lump_v = np.zeros(K)
    for k in range(K):
        if lump_to[k] >= 0:
            lump_v[k] = V[lump_to[k]]
    src, dst = u, r
    for c in range(1, Cmax + 1):
        _r_pull(src, dst, S, X + Z, K)
        for z in range(Z):
            dz = dst[6 + X + z]
            tz = T[c - 1, z]
            for k in range(K):
                tz[k] = dz[k] + tau[c, z + R[k]] * lump_v[k]
        src, dst = dst, src


@njit(cache=True, boundscheck=False, fastmath=_FAST, nogil=True)
def pull_columns(V, W, cols, Cmax, tau, T, col_lo, col_hi):
    """``W[c - 1, i]`` = E[V after one roll of the columns' gauge whose drain is ``c``
    exploding d6, from state ``i``], ``c = 1 .. Cmax``, columns ``col_lo .. col_hi - 1`` of
    the :class:`Columns` ``cols``. A column's combined levels read the stage values ``T[c -
    1]`` (flat; its last entry holds 0) at ``t_base[col]``; the part the stage counted but
    the column keeps, ``V[b_base[col] + lv b_step[col]]`` for ``lv < b_lim[col]``, is taken
    off first. A column with ``base < 0`` loses its excess at once: its level 0's value,
    times P(c dice > lv) (``tau[c, lv]``)."""
    m, inner, base, t_base, t_zstep = cols.m, cols.inner, cols.base, cols.t_base, cols.t_zstep
    bbase, bstep, blim = cols.b_base, cols.b_step, cols.b_lim
    n_cols = V.size // m
    B = BLOCK if inner > 1 else NARROW
    u = np.zeros((m + 6, B))
    u_flat = u.reshape(-1)  # its levels from row 6, as _gather writes them
    r = np.zeros((m + 6, B))
    S = np.zeros(B)
    start = np.zeros(B, np.uint64)
    tb = np.zeros(B, np.uint64)
    zs = np.zeros(B, np.uint64)
    zero = uint64(T.shape[1] - 1)
    contiguous = inner >= B
    col0 = col_lo
    while col0 < n_cols:
        nb = _block(col0, n_cols, inner, contiguous, m, start, B)
        _gather(V, u_flat[6 * B :], m, inner, contiguous, start, nb, B)
        lumps = False
        for b in range(nb):
            col = col0 + b
            if base[col] >= 0:
                tb[b] = uint64(t_base[col])
                zs[b] = uint64(t_zstep[col])
                bb = bbase[col]
                bs = bstep[col]
                for lv in range(blim[col]):  # what the stage counted but the column keeps
                    u[6 + lv, b] -= V[uint64(bb + lv * bs)]
            else:
                lumps = True
                tb[b] = zero
                zs[b] = uint64(0)
        src, dst = u, r
        for c in range(1, Cmax + 1):
            _r_pull(src, dst, S, m, nb)
            _pull_out(W[c - 1], dst, m, inner, contiguous, start, nb, tb, zs, T[c - 1])
            if lumps:
                for b in range(nb):
                    if base[col0 + b] < 0:
                        v0 = V[start[b]]
                        for lv in range(m):
                            W[c - 1, start[b] + uint64(lv) * uint64(inner)] += tau[c, lv] * v0
            src, dst = dst, src
        col0 += nb


@njit(cache=True, boundscheck=False, fastmath=_FAST)
def _pull_out(Wc, d, m, inner, contiguous, start, nb, tb, zs, Tc):
    """Write one c's tile ``d`` (rows from 6) plus the stage's part into ``Wc``."""
    iu = uint64(inner)
    if inner == 1:
        for b in range(nb):
            s = start[b]
            for lv in range(m):
                lu = uint64(lv)
                Wc[s + lu] = d[6 + lv, b] + Tc[tb[b] + lu * zs[b]]
        return
    for lv in range(m):
        row = d[6 + lv]
        lu = uint64(lv)
        off = lu * iu
        if contiguous:
            s0 = start[0] + off
            for b in range(nb):
                Wc[s0 + uint64(b)] = row[b] + Tc[tb[b] + lu * zs[b]]
        else:
            for b in range(nb):
                Wc[start[b] + off] = row[b] + Tc[tb[b] + lu * zs[b]]


# -- marginals, and the chain with a running sum in its state ------------------------------------
@njit(cache=True)
def marginals(P, sizes):
    """P(level = l) for each of the four gauges: ``out[g, l]`` (levels up to the largest)."""
    n0, n1, n2, n3 = sizes[0], sizes[1], sizes[2], sizes[3]
    out = np.zeros((4, max(n0, n1, n2, n3)))
    i = 0
    for a in range(n0):
        for b in range(n1):
            for c in range(n2):
                for d in range(n3):
                    p = P[i]
                    out[0, a] += p
                    out[1, b] += p
                    out[2, c] += p
                    out[3, d] += p
                    i += 1
    return out


class SumMoves(NamedTuple):
    """Where a roll of one gauge moves each state of a chain with a running sum
    (:func:`move_sum`): state ``i`` is at level ``level[i]`` of the gauge (``stride`` apart),
    the others at ``o_of[i]`` (offset ``base[o]``); an excess ``x < cap[o]`` (the points the
    overflow can reach) goes to ``base[dest[o, x - 1]]`` losing ``lost_amt[o, x - 1]``, more
    to ``base[far_of[o]]``, losing ``x - cap[o]``."""

    level: np.ndarray
    o_of: np.ndarray
    base: np.ndarray
    stride: int
    dest: np.ndarray
    lost_amt: np.ndarray
    cap: np.ndarray
    far_of: np.ndarray


class SumLaws(NamedTuple):
    """The drain laws of a roll for :func:`move_sum`: state ``i`` plays law ``law[i]``, its
    row of ``qs`` (P(d = j)), ``t0`` (P(d >= j)) and ``t1`` (E[d; d >= j]); each row holds at
    least ``n_bins`` + the character's points + 2 entries (every drain past them lands in one
    cell, read from the tails)."""

    law: np.ndarray
    qs: np.ndarray
    t0: np.ndarray
    t1: np.ndarray


@njit(cache=True)
def move_sum(P, out, n_bins, moves, laws, track, weight, mass):
    """One roll for a chain whose state also holds a running sum ``S`` (``0 .. n_bins - 1``,
    the last meaning "that many or more"): ``P[i * n_bins + S]``, moved as ``moves``
    (:class:`SumMoves`) says under ``laws`` (:class:`SumLaws`). ``track`` 1 adds each roll's
    drain to ``S``, 2 the points it loses, 0 nothing. Returns the expected points lost (times
    ``weight``)."""
    level, o_of, base, stride = moves.level, moves.o_of, moves.base, moves.stride
    dest, lost_amt, cap, far_of = moves.dest, moves.lost_amt, moves.cap, moves.far_of
    law, qs, t0, t1 = laws
    lost = 0.0
    top = n_bins - 1
    for i in range(level.size):
        lv = level[i]
        o = o_of[i]
        b = base[o]
        k = law[i]
        so = cap[o]
        far = base[far_of[o]]  # where a drain past every point the overflow reaches goes
        past = lv + max(so, 1)  # from here every drain goes to ``far``
        for s in range(n_bins):
            p = P[i * n_bins + s]
            if p == 0.0:
                continue
            p *= weight
            mass[k] += p
            end = past
            if track == 1:
                end = max(past, top - s)
            elif track == 2:
                end = max(past, lv + so + top - s)
            for d in range(end):
                q = qs[k, d]
                if q == 0.0:
                    continue
                if d <= lv:
                    j, gone = b + (lv - d) * stride, 0
                else:
                    x = d - lv
                    if x < so:
                        j, gone = base[dest[o, x - 1]], lost_amt[o, x - 1]
                    else:
                        j, gone = far, x - so
                inc = d if track == 1 else (gone if track == 2 else 0)
                out[j * n_bins + min(s + inc, top)] += p * q
                lost += p * q * gone
            tail = t0[k, end]
            if tail > 0.0:
                out[far * n_bins + (top if track else s)] += p * tail
                lost += p * (t1[k, end] - (lv + so) * tail)
    return lost
