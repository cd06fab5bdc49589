"""Numba kernels: random dice and the single-roll histogram. Plain arrays in, plain arrays out.

Nothing here knows a rules object or validates anything: :mod:`explodice.simulate` turns a
``Roll`` and ``Rules`` into the integers and tables these functions take.

The generator is xoshiro256** (Blackman & Vigna), one stream per chunk, seeded from a
``numpy.random.SeedSequence``. Its state travels as a tuple of four uint64 *values* (``st``)
through small inlined functions: keeping it out of arrays lets LLVM hold it in registers,
which is several times faster than a state array. Each output's upper 32 bits become a uniform
integer below ``n`` by Lemire's multiply-shift with rejection (exact, no modulo bias). The
initial throw of ``pool`` dice is one uniform draw below 6**pool, read through tables of its
1s, 6s and the sum of its other faces.

Every draw follows the pattern ``x, st = uniform(6, st)``.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, prange, uint64

MASK32 = uint64(0xFFFFFFFF)
N_ONES = 5  # kept 1s 0..4


@njit(inline="always", cache=True)
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always", cache=True)
def next_u64(st):
    """One xoshiro256** output and the advanced state."""
    s0, s1, s2, s3 = st
    r = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return r, (s0, s1, s2, s3)


@njit(cache=True)
def seed_state(seed_row):
    """The state tuple from a uint64[4] row of :func:`explodice.simulate.stream_seeds`."""
    return (seed_row[0], seed_row[1], seed_row[2], seed_row[3])


@njit(inline="always", cache=True)
def uniform(n, st):
    """A uniform integer in [0, n) (n < 2**32) and the new state."""
    un = uint64(n)
    r, st = next_u64(st)
    m = (r >> uint64(32)) * un
    low = m & MASK32
    if low < un:
        threshold = (uint64(0x100000000) - un) % un
        while low < threshold:
            r, st = next_u64(st)
            m = (r >> uint64(32)) * un
            low = m & MASK32
    return int64(m >> uint64(32)), st


@njit(inline="always", cache=True)
def exploding(st):
    """One exploding d6: ``(value, last face, st)``."""
    total = 0
    while True:
        f, st = uniform(6, st)
        total += f + 1
        if f != 5:
            return total, f + 1, st


@njit(inline="always", cache=True)
def one_roll(st, n_faces, face_n1, face_n6, face_s, k_table, malus, lucky, rule_applies,
             explosion_ones):
    """One 3d6x roll: ``(dice total, kept 1s, st)``; the drain is rolled by the caller."""
    idx, st = uniform(n_faces, st)
    n1 = int64(face_n1[idx])
    n6 = int64(face_n6[idx])
    s = int64(face_s[idx])
    if lucky and n1 > 0:
        f, st = uniform(6, st)
        n1 -= 1
        if f == 0:
            n1 += 1
        elif f == 5:
            n6 += 1
        else:
            s += f + 1
    k = int64(k_table[n1, n6, s])
    a = n1 - k
    b = n6 - k
    total = s + a + 6 * b
    ones = a
    for _ in range(b):
        v, last, st = exploding(st)
        total += v
        if explosion_ones and last == 1:
            ones += 1
    if malus:
        v, last, st = exploding(st)
        total -= v
    if not rule_applies:
        ones = 0
    return total, ones, st


@njit(inline="always", cache=True)
def drain_of(ones, st):
    """The drain of ``ones`` kept 1s: one exploding d6 each."""
    drain = 0
    for _ in range(ones):
        v, last, st = exploding(st)
        drain += v
    return drain, st


@njit(cache=True)
def roll_chunk(h, st, size, face_n1, face_n6, face_s, k_table, malus, lucky, rule_applies,
               drain_active, explosion_ones, t_lo):
    """Add ``size`` rolls from state ``st`` to ``h[kept 1s, drain, total - t_lo]``.

    Totals and drains beyond the histogram are clamped into its edge bins; returns how many.
    """
    n_d, n_t = h.shape[1], h.shape[2]
    n_faces = face_n1.size
    clamped = 0
    for _ in range(size):
        total, ones, st = one_roll(st, n_faces, face_n1, face_n6, face_s, k_table, malus, lucky,
                                   rule_applies, explosion_ones)
        drain = 0
        if drain_active:
            drain, st = drain_of(ones, st)
        t = total - t_lo
        if t < 0 or t >= n_t or drain >= n_d:
            clamped += 1
            t = min(max(t, 0), n_t - 1)
            drain = min(drain, n_d - 1)
        h[ones, drain, t] += 1
    return clamped


@njit(parallel=True, cache=True)
def roll_histogram(seeds, sizes, n_threads, face_n1, face_n6, face_s, k_table, malus, lucky,
                   rule_applies, drain_active, explosion_ones, t_lo, n_t, n_d):
    """Histogram ``h[kept 1s, drain, total - t_lo]`` of ``sizes.sum()`` rolls, and the clamped.

    Chunk ``c`` draws ``sizes[c]`` rolls from its own stream ``seeds[c]`` (uint64[4]); the
    chunks are shared among ``n_threads`` private histograms and then added, so the counts do
    not depend on the number of threads.
    """
    n_chunks = sizes.size
    hist = np.zeros((n_threads, N_ONES, n_d, n_t), dtype=np.int64)
    clamped = np.zeros(n_threads, dtype=np.int64)
    for th in prange(n_threads):
        for c in range(th, n_chunks, n_threads):
            clamped[th] += roll_chunk(hist[th], seed_state(seeds[c]), sizes[c], face_n1, face_n6,
                                      face_s, k_table, malus, lucky, rule_applies, drain_active,
                                      explosion_ones, t_lo)
    out = np.zeros((N_ONES, n_d, n_t), dtype=np.int64)
    for th in range(n_threads):
        out += hist[th]
    return out, clamped.sum()
