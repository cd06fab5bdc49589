"""The single-roll chunk kernels as they were before issue 15 (main at commit a216fc1, the same code as d12d814).

Kept only so that ``benchmarks/bench_kernel.py`` can time them side by side with the current
kernels in one run; the package does not use this file. Two rolls per 64-bit output (one per
32-bit half), each counted straight into a flat int64 histogram (two scratch rows for the two
rolls of a pair); the rule of 1 with its drain rolls one throw and one drain per output.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, uint64

from explodice.engine.dice import face_sequences

MASK32 = uint64(0xFFFFFFFF)
N_ONES = 5  # kept 1s 0..4
# The histogram's shape is fixed here, so the kernels index it with compile-time constants
# (measured: about 1.5x faster than reading the shape at run time).
HIST_T = 480  # totals -160..319 (HIST_T_LO ..)
HIST_D = 256  # drains 0..255
HIST_T_LO = -160


@njit(inline="always", cache=False)
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always", cache=False)
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


@njit(cache=False)
def seed_state(seed_row):
    """The state tuple from a uint64[4] row of :func:`explodice.simulate.stream_seeds`."""
    return (seed_row[0], seed_row[1], seed_row[2], seed_row[3])


@njit(inline="always", cache=False)
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


@njit(inline="always", cache=False)
def uniform2(n1, n2, st):
    """Two independent uniform integers below ``n1`` and ``n2`` from one 64-bit output.

    The upper and lower 32-bit halves each go through Lemire's method; a half that falls in
    its (tiny) rejection zone is replaced by a fresh draw, so both stay exactly uniform.
    """
    u1, u2 = uint64(n1), uint64(n2)
    r, st = next_u64(st)
    m1 = (r >> uint64(32)) * u1
    m2 = (r & MASK32) * u2
    if (m1 & MASK32) < u1:
        if (m1 & MASK32) < (uint64(0x100000000) - u1) % u1:
            x, st = uniform(n1, st)
            m1 = uint64(x) << uint64(32)
    if (m2 & MASK32) < u2:
        if (m2 & MASK32) < (uint64(0x100000000) - u2) % u2:
            x, st = uniform(n2, st)
            m2 = uint64(x) << uint64(32)
    return int64(m1 >> uint64(32)), int64(m2 >> uint64(32)), st


def _exploding_table(depth: int) -> np.ndarray:
    """For each sequence of ``depth`` faces: the exploding die it spells (value | last << 8),
    or, when every face is a 6, ``6 * depth | 1 << 12``: the die goes on."""
    faces = face_sequences(depth)
    going = np.ones(len(faces), dtype=bool)
    value = np.zeros(len(faces), dtype=np.int64)
    last = np.zeros(len(faces), dtype=np.int64)
    for j in range(depth):
        value += np.where(going, faces[:, j], 0)
        last = np.where(going, faces[:, j], last)
        going &= faces[:, j] == 6
    return (value | np.where(going, 1 << 12, last << 8)).astype(np.int16)


EXPLODE_DEPTH = 5
EXPLODE_TABLE = _exploding_table(EXPLODE_DEPTH)  # 7776 int16: stays in the L1 cache


def _drain_table(depth: int, max_ones: int = 4) -> np.ndarray:
    """``t[c, u]``: the first faces of c drain dice read from u's ``depth`` base-6 digits.

    Packs the sum so far and the exploding dice still to roll: ``sum | remaining << 8``.
    """
    faces = face_sequences(depth)
    out = np.zeros((max_ones + 1, len(faces)), dtype=np.int16)
    for c in range(max_ones + 1):
        remaining = np.full(len(faces), c)
        total = np.zeros(len(faces), dtype=np.int64)
        for j in range(depth):
            rolling = remaining > 0
            total += np.where(rolling, faces[:, j], 0)
            remaining -= rolling & (faces[:, j] != 6)
        out[c] = total | remaining << 8
    return out


DRAIN_TABLE = _drain_table(EXPLODE_DEPTH)  # 5 x 7776 int16


@njit(inline="always", cache=False)
def exploding(st):
    """One exploding d6: ``(value, last face, st)``.

    Five faces are read from one draw below 6**5 through :data:`EXPLODE_TABLE`; only a run of
    five 6s (one time in 7776) needs another draw.
    """
    total = 0
    while True:
        u, st = uniform(EXPLODE_TABLE.size, st)
        e = int64(EXPLODE_TABLE[u])
        total += e & 0xFF
        if e < 4096:
            return total, e >> 8, st


@njit(inline="always", cache=False)
def explode_then_malus(total, ones, dice, st, malus, explosion_ones):
    """Add ``dice`` exploding dice to ``total`` (the chains of kept 6s), counting the chains
    that end on a 1 as kept 1s when ``explosion_ones``; then subtract the malus die if any.
    Returns ``(total, kept 1s, st)``."""
    for _ in range(dice):
        v, last, st = exploding(st)
        total += v
        if explosion_ones and last == 1:
            ones += 1
    if malus:
        v, last, st = exploding(st)
        total -= v
    return total, ones, st


@njit(inline="always", cache=False)
def one_roll(
    st, n_faces, face_n1, face_n6, face_s, k_table, malus, lucky, rule_applies, explosion_ones
):
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
    total, ones, st = explode_then_malus(s + a + 6 * b, a, b, st, malus, explosion_ones)
    if not rule_applies:
        ones = 0
    return total, ones, st


@njit(inline="always", cache=False)
def finish_throw(e, st, malus, explosion_ones):
    """Complete a throw-table entry ``e``: its remaining explosions and the malus die.

    An entry packs ``total | kept 1s << 8 | dice still to roll << 11`` (see
    :func:`explodice.simulate.throw_table`). Returns ``(total, kept 1s, st)``.
    """
    return explode_then_malus(e & 0xFF, (e >> 8) & 0x7, e >> 11, st, malus, explosion_ones)


@njit(inline="always", cache=False)
def table_roll(st, throw_table, malus, explosion_ones):
    """One roll read from a throw table: the same law as :func:`one_roll` without the lucky
    reroll, from one draw in the common case. Returns ``(total, kept 1s, st)``."""
    u, st = uniform(throw_table.size, st)
    return finish_throw(int64(throw_table[u]), st, malus, explosion_ones)


@njit(inline="always", cache=False)
def table_roll_drain(st, throw_table, malus, explosion_ones):
    """:func:`table_roll` and its drain, from one 64-bit output in the common case.

    The drain draw is made whatever the kept 1s (none drain 0): a draw costs less than the
    branch it saves. Returns ``(total, kept 1s, drain, st)``.
    """
    u, w, st = uniform2(throw_table.size, DRAIN_TABLE.shape[1], st)
    total, ones, st = finish_throw(int64(throw_table[u]), st, malus, explosion_ones)
    if ones < DRAIN_TABLE.shape[0]:
        d = int64(DRAIN_TABLE[ones, w])
        drain = d & 0xFF
        for _ in range(d >> 8):
            v, last, st = exploding(st)
            drain += v
    else:  # never with pools of at most 4 dice; kept for safety
        drain, st = drain_of(ones, st)
    return total, ones, drain, st


@njit(inline="always", cache=False)
def drain_of(ones, st):
    """The drain of ``ones`` kept 1s: one exploding d6 each."""
    drain = 0
    for _ in range(ones):
        v, last, st = exploding(st)
        drain += v
    return drain, st


@njit(inline="always", cache=False)
def record(h, total, ones, drain, t_lo):
    """Count one roll in ``h[kept 1s, drain, total - t_lo]``; returns 1 if it was clamped."""
    n_d, n_t = h.shape[1], h.shape[2]
    t = total - t_lo
    if t < 0 or t >= n_t or drain >= n_d:
        h[ones, min(drain, n_d - 1), min(max(t, 0), n_t - 1)] += 1
        return 1
    h[ones, drain, t] += 1
    return 0


# -- the chunk kernels: one per case, each compiled only when first used --------------------
# They release the GIL: explodice.simulate runs chunks on Python threads, one private
# histogram per thread, and adds the histograms at the end.


@njit(inline="always", cache=False)
def count_into(acc, n_t, total, ones, t_lo):
    """Count one roll in the flat ``acc[ones * n_t + total - t_lo]``; returns 1 if clamped.

    One unsigned comparison checks both ends; the rare roll outside goes to the edge bin.
    """
    t = total - t_lo
    if uint64(t) < uint64(n_t):
        acc[ones * n_t + t] += 1
        return 0
    acc[ones * n_t + min(max(t, 0), n_t - 1)] += 1
    return 1


@njit(cache=False, nogil=True)
def chunk_table(h, seed_row, size, throw_table, malus, explosion_ones, t_lo):
    """Add ``size`` rolls that drain nothing to ``h[kept 1s, 0, total - t_lo]``.

    Two throw-table rolls per 64-bit output, counted in two flat scratch histograms (one per
    roll of the pair, so that two rolls landing on the same total do not wait on each other's
    memory write), added into ``h`` at the end. Returns how many rolls were clamped.
    """
    st = seed_state(seed_row)
    n = throw_table.size
    n_t = HIST_T  # a compile-time constant: the flat index is a multiply-add by a constant
    first = np.zeros(N_ONES * n_t, dtype=np.int64)
    second = np.zeros(N_ONES * n_t, dtype=np.int64)
    clamped = 0
    for _ in range(size // 2):
        u1, u2, st = uniform2(n, n, st)
        total, ones, st = finish_throw(int64(throw_table[u1]), st, malus, explosion_ones)
        clamped += count_into(first, n_t, total, ones, t_lo)
        total, ones, st = finish_throw(int64(throw_table[u2]), st, malus, explosion_ones)
        clamped += count_into(second, n_t, total, ones, t_lo)
    if size % 2:
        total, ones, st = table_roll(st, throw_table, malus, explosion_ones)
        clamped += count_into(first, n_t, total, ones, t_lo)
    for c in range(N_ONES):
        for t in range(n_t):
            h[c, 0, t] += first[c * n_t + t] + second[c * n_t + t]
    return clamped


@njit(cache=False, nogil=True)
def chunk_table_drain(h, seed_row, size, throw_table, malus, explosion_ones, t_lo):
    """Add ``size`` throw-table rolls and their drain to ``h[kept 1s, drain, total - t_lo]``."""
    st = seed_state(seed_row)
    flat = h.reshape(N_ONES * HIST_D * HIST_T)
    clamped = 0
    for _ in range(size):
        total, ones, drain, st = table_roll_drain(st, throw_table, malus, explosion_ones)
        t = total - t_lo  # written out here: an inlined helper that writes an array is slower
        if uint64(t) < uint64(HIST_T) and drain < HIST_D:
            flat[(ones * HIST_D + drain) * HIST_T + t] += 1
        else:
            clamped += record(h, total, ones, drain, t_lo)
    return clamped


@njit(cache=False, nogil=True)
def chunk_face_by_face(
    h,
    seed_row,
    size,
    face_n1,
    face_n6,
    face_s,
    k_table,
    malus,
    lucky,
    rule_applies,
    drain_active,
    explosion_ones,
    t_lo,
):
    """Add ``size`` rolls made by :func:`one_roll` (needed for the lucky reroll, drawn between
    the throw and the choice) and their drain to ``h[kept 1s, drain, total - t_lo]``."""
    st = seed_state(seed_row)
    flat = h.reshape(N_ONES * HIST_D * HIST_T)
    clamped = 0
    for _ in range(size):
        total, ones, st = one_roll(
            st,
            face_n1.size,
            face_n1,
            face_n6,
            face_s,
            k_table,
            malus,
            lucky,
            rule_applies,
            explosion_ones,
        )
        drain = 0
        if drain_active:
            drain, st = drain_of(ones, st)
        t = total - t_lo
        if uint64(t) < uint64(HIST_T) and drain < HIST_D:
            flat[(ones * HIST_D + drain) * HIST_T + t] += 1
        else:
            clamped += record(h, total, ones, drain, t_lo)
    return clamped
