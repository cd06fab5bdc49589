"""Numba kernels: random dice and the single-roll histogram. Plain arrays in, plain arrays out.

Nothing here knows a rules object or validates anything: :mod:`explodice.simulate` turns a
``Roll`` and ``Rules`` into the integers and tables these functions take.

The generator is xoshiro256** (Blackman & Vigna), one stream per chunk, seeded from a
``numpy.random.SeedSequence``. Each 64-bit output gives two 32-bit words; a word becomes a
uniform integer below ``n`` by Lemire's multiply-shift with rejection (exact, no modulo bias).
The initial throw of ``pool`` dice is one uniform draw below 6**pool, read through tables of
its 1s, 6s and the sum of its other faces.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint32, uint64

BUF = 512  # 32-bit words generated per refill
MASK32 = uint64(0xFFFFFFFF)
N_ONES = 5  # kept 1s 0..4


@njit(inline="always", cache=True)
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True)
def refill(state, buf):
    """Fill ``buf`` (uint32) with xoshiro256** output, advancing ``state`` (uint64[4])."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(0, buf.size, 2):
        r = _rotl(s1 * uint64(5), 7) * uint64(9)
        t = s1 << uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        buf[i] = uint32(r & MASK32)
        buf[i + 1] = uint32(r >> uint64(32))
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit(inline="always", cache=True)
def uniform(n, state, buf, pos):
    """A uniform integer in [0, n) (n < 2**32) and the new buffer position."""
    if pos >= BUF:
        refill(state, buf)
        pos = 0
    un = uint64(n)
    m = uint64(buf[pos]) * un
    pos += 1
    low = m & MASK32
    if low < un:
        threshold = (uint64(0x100000000) - un) % un
        while low < threshold:
            if pos >= BUF:
                refill(state, buf)
                pos = 0
            m = uint64(buf[pos]) * un
            pos += 1
            low = m & MASK32
    return np.int64(m >> uint64(32)), pos


@njit(inline="always", cache=True)
def exploding(state, buf, pos):
    """One exploding d6: ``(value, last face, pos)``."""
    total = 0
    while True:
        f, pos = uniform(6, state, buf, pos)
        total += f + 1
        if f != 5:
            return total, f + 1, pos


@njit(inline="always", cache=True)
def one_roll(state, buf, pos, n_faces, face_n1, face_n6, face_s, k_table, malus, lucky,
             rule_applies, explosion_ones):
    """One 3d6x roll: ``(dice total, kept 1s, pos)``; the drain is rolled by the caller."""
    idx, pos = uniform(n_faces, state, buf, pos)
    n1 = np.int64(face_n1[idx])
    n6 = np.int64(face_n6[idx])
    s = np.int64(face_s[idx])
    if lucky and n1 > 0:
        f, pos = uniform(6, state, buf, pos)
        n1 -= 1
        if f == 0:
            n1 += 1
        elif f == 5:
            n6 += 1
        else:
            s += f + 1
    k = np.int64(k_table[n1, n6, s])
    a = n1 - k
    b = n6 - k
    total = s + a + 6 * b
    ones = a
    for _ in range(b):
        v, last, pos = exploding(state, buf, pos)
        total += v
        if explosion_ones and last == 1:
            ones += 1
    if malus:
        v, last, pos = exploding(state, buf, pos)
        total -= v
    if not rule_applies:
        ones = 0
    return total, ones, pos


@njit(inline="always", cache=True)
def drain_of(ones, state, buf, pos):
    """The drain of ``ones`` kept 1s: one exploding d6 each."""
    drain = 0
    for _ in range(ones):
        v, last, pos = exploding(state, buf, pos)
        drain += v
    return drain, pos


@njit(parallel=True, cache=True)
def roll_histogram(seeds, sizes, n_threads, face_n1, face_n6, face_s, k_table, malus, lucky,
                   rule_applies, drain_active, explosion_ones, t_lo, n_t, n_d):
    """Histogram ``h[kept 1s, drain, total - t_lo]`` of ``sizes.sum()`` rolls.

    Chunk ``c`` draws ``sizes[c]`` rolls from its own stream ``seeds[c]`` (uint64[4]); the
    chunks are shared among ``n_threads`` private histograms and then added, so the counts do
    not depend on the number of threads. Totals and drains beyond the histogram are clamped
    into its edge bins and counted in the returned ``clamped``.
    """
    n_chunks = sizes.size
    n_faces = face_n1.size
    hist = np.zeros((n_threads, N_ONES, n_d, n_t), dtype=np.int64)
    clamped = np.zeros(n_threads, dtype=np.int64)
    for th in prange(n_threads):
        state = np.empty(4, dtype=np.uint64)
        buf = np.empty(BUF, dtype=np.uint32)
        h = hist[th]
        for c in range(th, n_chunks, n_threads):
            state[:] = seeds[c]
            pos = BUF
            for _ in range(sizes[c]):
                total, ones, pos = one_roll(state, buf, pos, n_faces, face_n1, face_n6, face_s,
                                            k_table, malus, lucky, rule_applies, explosion_ones)
                drain = 0
                if drain_active:
                    drain, pos = drain_of(ones, state, buf, pos)
                t = total - t_lo
                if t < 0 or t >= n_t or drain >= n_d:
                    clamped[th] += 1
                    t = min(max(t, 0), n_t - 1)
                    drain = min(drain, n_d - 1)
                h[ones, drain, t] += 1
    out = np.zeros((N_ONES, n_d, n_t), dtype=np.int64)
    for th in range(n_threads):
        out += hist[th]
    return out, clamped.sum()
