"""Numba kernels: random dice and the single-roll histogram. Plain arrays in, plain arrays out.

Nothing here knows a rules object or validates anything: :mod:`explodice.engine.simulate` turns a
``Roll`` and ``Rules`` into the integers and tables these functions take.

The generator is xoshiro256** (Blackman & Vigna), one stream per chunk, seeded from a
``numpy.random.SeedSequence``. Its state travels as a tuple of four uint64 *values* (``st``)
through small inlined functions: keeping it out of arrays lets LLVM hold it in registers,
which is several times faster than a state array. Each output's upper 32 bits become a uniform
integer below ``n`` by Lemire's multiply-shift with rejection (exact, no modulo bias). A roll
is one draw below 6**L read through its throw table (:func:`explodice.engine.compiled.throw_table`:
the initial throw, the policy's choice and the first explosion faces), then the explosions
still going (:data:`EXPLODE_TABLE`, five faces a draw) and the malus die (exploding, or
plain under ``Rules.malus_die="plain"``); the lucky reroll comes between the throw and the
choice (or after the choice, under ``Rules.lucky_timing="after_choice"``), so that path
(:func:`face_roll`) draws the throw below 6**pool and reads its 1s, 6s and other faces' sum
from face tables.

The simulate kernel (:func:`chunk_throws`) goes further: each output gives 3 or 4 table
digits (:func:`digits3`, :func:`digits4`), its inner loop only counts table entries, and what
a table entry leaves open (drains, the malus die, long explosions) is rolled afterwards, for
those rolls alone (:func:`finish_states`).

Every draw follows the pattern ``x, st = uniform(6, st)``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import int64, njit, types, uint64
from numba.extending import intrinsic

from explodice.engine.dice import face_sequences
from explodice.engine.histogram import HIST_D, HIST_T, HIST_T_LO, N_ONES  # noqa: F401
from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py

MASK32 = uint64(0xFFFFFFFF)


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
    """The state tuple from a uint64[4] row of :func:`explodice.engine.seeding.stream_seeds`."""
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


def drain_table(depth: int, max_ones: int = 4) -> np.ndarray:
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


DRAIN_TABLE = drain_table(EXPLODE_DEPTH)  # 5 x 7776 int16


@njit(inline="always", cache=True)
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


@njit(inline="always", cache=True)
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


@njit(inline="always", cache=True)
def face_roll_sixes(st, n_faces, face_n1, face_n6, face_s, k_table, flags):
    """One 3d6x roll read face by face, under either timing of Lucky and either malus die:
    ``(dice total, kept 1s, kept 6s of the initial throw, st)``; the drain is rolled by the
    caller. The kept 6s are those a critical hit counts (``Rules.critical``): the initial
    throw's (with Lucky's new face before the choice), less those cancelled against a 1; the
    malus die and the explosions never count.

    ``flags`` is the roll's :class:`~explodice.engine.compiled.RollFlags` (its ``drains`` is
    the caller's). With ``lucky`` and not ``lucky_after`` one initial 1 is rerolled before the
    choice (the new face joins the throw); with ``lucky_after`` one *kept* 1 is rerolled after
    it and becomes a fresh exploding die, summed, which is no kept 1 (its own 1s drain
    nothing). ``plain_malus`` subtracts a plain d6 (1..6) instead of an exploding one.
    """
    malus, plain_malus, lucky = flags.malus, flags.plain_malus, flags.lucky
    lucky_after, rule_applies = flags.lucky_after, flags.rule_applies
    explosion_ones = flags.explosion_ones
    idx, st = uniform(n_faces, st)
    n1 = int64(face_n1[idx])
    n6 = int64(face_n6[idx])
    s = int64(face_s[idx])
    if lucky and not lucky_after and n1 > 0:
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
    if lucky_after and a > 0:  # the kept 1 rerolled: a fresh exploding die instead of 1
        a -= 1
        v, last, st = exploding(st)
        s += v
    total, ones, st = explode_then_malus(
        s + a + 6 * b, a, b, st, malus and not plain_malus, explosion_ones
    )
    if malus and plain_malus:
        f, st = uniform(6, st)
        total -= f + 1
    if not rule_applies:
        ones = 0
    return total, ones, b, st


@njit(inline="always", cache=True)
def face_roll(st, n_faces, face_n1, face_n6, face_s, k_table, flags):
    """:func:`face_roll_sixes` without the kept 6s: ``(dice total, kept 1s, st)``."""
    total, ones, sixes, st = face_roll_sixes(st, n_faces, face_n1, face_n6, face_s, k_table, flags)
    return total, ones, st


@njit(inline="always", cache=True)
def finish_throw(e, st, malus, explosion_ones):
    """Complete a throw-table entry ``e``: its remaining explosions and the malus die.

    An entry packs ``total | kept 1s << 8 | dice still to roll << 11`` (see
    :func:`explodice.engine.compiled.throw_table`). Returns ``(total, kept 1s, st)``.
    """
    return explode_then_malus(e & 0xFF, (e >> 8) & 0x7, e >> 11, st, malus, explosion_ones)


@njit(inline="always", cache=True)
def table_roll(st, throw_table, malus, explosion_ones):
    """One roll read from a throw table: the same law as :func:`face_roll` without the lucky
    reroll and with an exploding malus die, from one draw in the common case. Returns ``(total, kept 1s, st)``."""
    u, st = uniform(throw_table.size, st)
    return finish_throw(int64(throw_table[u]), st, malus, explosion_ones)


@njit(inline="always", cache=True)
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


@njit(inline="always", cache=True)
def drain_of(ones, st):
    """The drain of ``ones`` kept 1s: one exploding d6 each."""
    drain = 0
    for _ in range(ones):
        v, last, st = exploding(st)
        drain += v
    return drain, st


@njit(inline="always", cache=True)
def record(h, total, ones, drain, t_lo):
    """Count one roll in ``h[kept 1s, drain, total - t_lo]``; returns 1 if it was clamped."""
    n_d, n_t = h.shape[1], h.shape[2]
    t = total - t_lo
    if t < 0 or t >= n_t or drain >= n_d:
        h[ones, min(drain, n_d - 1), min(max(t, 0), n_t - 1)] += 1
        return 1
    h[ones, drain, t] += 1
    return 0


# -- many rolls per output: uniform digits from one 64-bit draw --------------------------------


@intrinsic
def mul_wide(typingctx, a, b):
    """``(high, low)`` 64-bit halves of the 128-bit product ``a * b`` of two uint64 values.

    One ``mulx`` instruction on x86-64; numba has no 128-bit integers, so this is written in
    LLVM IR.
    """
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        hi = builder.trunc(builder.lshr(p, ir.Constant(i128, 64)), ir.IntType(64))
        lo = builder.trunc(p, ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return sig, codegen


def digits_threshold(n: int, k: int) -> np.uint64:
    """The rejection threshold of :func:`digits3` / :func:`digits4`: ``2**64 mod n**k``.

    Refuses ``n**k`` above 2**54, where a draw would be rejected more than once in 1024.

    >>> int(digits_threshold(6, 2)) == 2**64 % 36
    True
    """
    if n**k > 1 << 54:
        raise ValueError(f"{k} digits below {n} do not fit in 54 bits (n**k = {n**k})")
    return np.uint64((1 << 64) % n**k)


@njit(inline="always", cache=True)
def digits3(n, threshold, st):
    """Three independent uniform integers below ``n`` from one 64-bit output (in the common case).

    Lemire's method for one integer below ``n**3``, read digit by digit: each multiplication
    by ``n`` moves the next base-``n`` digit into the high half, and the low half after the
    last one is the remainder Lemire compares with ``threshold = 2**64 mod n**3``
    (:func:`digits_threshold`). So the digits are exactly uniform; a rejection (probability
    below ``n**3 / 2**64``) draws again. ``n`` and ``threshold`` are uint64.
    """
    while True:
        r, st = next_u64(st)
        a, r = mul_wide(r, n)
        b, r = mul_wide(r, n)
        c, r = mul_wide(r, n)
        if r >= threshold:
            return a, b, c, st


@njit(inline="always", cache=True)
def digits4(n, threshold, st):
    """Four independent uniform integers below ``n`` from one 64-bit output; see :func:`digits3`."""
    while True:
        r, st = next_u64(st)
        a, r = mul_wide(r, n)
        b, r = mul_wide(r, n)
        c, r = mul_wide(r, n)
        d, r = mul_wide(r, n)
        if r >= threshold:
            return a, b, c, d, st


def mixed_threshold(*radices: int) -> np.uint64:
    """The rejection threshold of :func:`digits_mixed3`: ``2**64 mod`` the product of the
    radices. Refuses a product above 2**54, as :func:`digits_threshold` does.

    >>> int(mixed_threshold(6**6, 6**5, 6**5)) == 2**64 % 6**16
    True
    """
    n = int(np.prod([int(r) for r in radices], dtype=object))
    if n > 1 << 54:
        raise ValueError(f"digits below {radices} do not fit in 54 bits (product {n})")
    return np.uint64((1 << 64) % n)


@njit(inline="always", cache=True)
def digits_mixed3(n1, n2, n3, threshold, st):
    """Three independent uniform integers below ``n1``, ``n2`` and ``n3`` (uint64) from one
    64-bit output in the common case: :func:`digits3` with a different base for each digit
    (Lemire's method for one integer below ``n1 n2 n3`` read in mixed radix;
    ``threshold`` from :func:`mixed_threshold`)."""
    while True:
        r, st = next_u64(st)
        a, r = mul_wide(r, n1)
        b, r = mul_wide(r, n2)
        c, r = mul_wide(r, n3)
        if r >= threshold:
            return a, b, c, st


# -- the chunk kernels: one per case, each compiled only when first used --------------------
# They release the GIL: explodice.simulate runs chunks on Python threads, one private
# histogram per thread, and adds the histograms at the end.

STATE_STRIDE = 1 << 15  # throw-table entries are int16 >= 0: one counter row per slot
COUNT_BLOCK = 1 << 31  # draws between two flushes of the uint32 state counters
COMPLETE = 2048  # entries below this have no exploding dice left to roll
DRAIN_W = DRAIN_TABLE.shape[1]
DRAIN_THRESHOLD4 = digits_threshold(DRAIN_W, 4)


@njit(cache=True, nogil=True)
def count_states(counts, st, draws, throw_table, per_draw, threshold):
    """Count the throw-table entries of ``draws * per_draw`` rolls in ``counts``.

    ``counts`` is uint32[per_draw * STATE_STRIDE]: roll j of each output goes to row j, so the
    same entry drawn twice in a row never waits on one counter. This is the whole inner loop of
    the fast path: one output, ``per_draw`` (3 or 4) table reads and counter increments; no
    branch depends on the dice. Returns ``st``.
    """
    n = uint64(throw_table.size)
    if per_draw == 4:
        for _ in range(draws):
            u1, u2, u3, u4, st = digits4(n, threshold, st)
            counts[uint64(throw_table[u1])] += 1
            counts[uint64(STATE_STRIDE) + uint64(throw_table[u2])] += 1
            counts[uint64(2 * STATE_STRIDE) + uint64(throw_table[u3])] += 1
            counts[uint64(3 * STATE_STRIDE) + uint64(throw_table[u4])] += 1
    else:
        for _ in range(draws):
            u1, u2, u3, st = digits3(n, threshold, st)
            counts[uint64(throw_table[u1])] += 1
            counts[uint64(STATE_STRIDE) + uint64(throw_table[u2])] += 1
            counts[uint64(2 * STATE_STRIDE) + uint64(throw_table[u3])] += 1
    return st


@njit(inline="always", cache=True)
def drain_from(entry, st):
    """The drain from a :data:`DRAIN_TABLE` entry: its sum, plus its dice still exploding
    (rolled by :func:`drain_rest`, a call rather than inlined code: it is rare, and inlining it
    everywhere tripled the first compile). Returns ``(drain, st)``."""
    d = int64(entry)
    if d < 256:
        return d, st
    return drain_rest(d, st)


@njit(cache=True)
def drain_rest(d, st):
    """The drain of a :data:`DRAIN_TABLE` entry ``d`` whose dice are still exploding."""
    drain = d & 0xFF
    for _ in range(d >> 8):
        v, last, st = exploding(st)
        drain += v
    return drain, st


@njit(cache=True)
def finish_one(e, st, malus, explosion_ones):
    """:func:`finish_throw` as a call, for the rare rolls the throw table leaves open."""
    return finish_throw(e, st, malus, explosion_ones)


@njit(cache=True)
def add_drains(flat, scratch, k, ones, t, st):
    """Add ``k`` rolls with ``ones`` kept 1s and histogram column ``t``, each with its own drain.

    Four drains per output (:func:`digits4` below 6**5, :data:`DRAIN_TABLE` for their first
    faces), counted in four scratch rows (``scratch``: int64[4, HIST_D + 1], zero on entry and
    on return) so that equal drains in a row do not wait on one counter. Returns
    ``(rolls clamped, st)``: a drain beyond the histogram counts in its last row.
    """
    m = uint64(DRAIN_W)
    for _ in range(k // 4):
        w1, w2, w3, w4, st = digits4(m, DRAIN_THRESHOLD4, st)
        d, st = drain_from(DRAIN_TABLE[ones, w1], st)
        scratch[0, min(d, HIST_D)] += 1
        d, st = drain_from(DRAIN_TABLE[ones, w2], st)
        scratch[1, min(d, HIST_D)] += 1
        d, st = drain_from(DRAIN_TABLE[ones, w3], st)
        scratch[2, min(d, HIST_D)] += 1
        d, st = drain_from(DRAIN_TABLE[ones, w4], st)
        scratch[3, min(d, HIST_D)] += 1
    for _ in range(k % 4):
        w, st = uniform(DRAIN_W, st)
        d, st = drain_from(DRAIN_TABLE[ones, w], st)
        scratch[0, min(d, HIST_D)] += 1
    clamped = 0
    for d in range(HIST_D + 1):
        c = scratch[0, d] + scratch[1, d] + scratch[2, d] + scratch[3, d]
        if c:
            flat[(ones * HIST_D + min(d, HIST_D - 1)) * HIST_T + t] += c
            if d == HIST_D:
                clamped += c
        scratch[0, d] = 0
        scratch[1, d] = 0
        scratch[2, d] = 0
        scratch[3, d] = 0
    return clamped, st


@njit(cache=True)
def add_rolls(h, k, ones, total, st, malus, plain_malus, drain_active, t_lo):
    """Add ``k`` rolls whose throw ended at ``total`` with ``ones`` kept 1s to ``h``, each with
    its own malus die (when ``malus``; a plain d6 when ``plain_malus``) and drain (when
    ``drain_active``).

    Each exploding die or drain starts from one digit below 6**5 read through
    :data:`DRAIN_TABLE` (a malus die is the drain of one die; a plain one is the digit's
    lowest base-6 digit, exactly uniform since 6 divides 6**5): one output gives the malus
    die's and the drain's digits of two rolls (the drain's go unused when it is not rolled).
    The drain alone goes through :func:`add_drains` (measured faster). Returns
    ``(rolls clamped, st)``.
    """
    flat = h.reshape(N_ONES * HIST_D * HIST_T)
    if not malus:
        scratch = np.zeros((4, HIST_D + 1), dtype=np.int64)
        return add_drains(flat, scratch, k, ones, total - t_lo, st)
    clamped = 0
    m = uint64(DRAIN_W)
    for i in range(0, k, 2):
        u1, w1, u2, w2, st = digits4(m, DRAIN_THRESHOLD4, st)
        for j in range(min(2, k - i)):  # written out here: an inlined helper taking the
            u = u1 if j == 0 else u2  # arrays paid two reference counts a roll (10x slower)
            w = w1 if j == 0 else w2
            if plain_malus:
                v = u % 6 + 1
            else:
                v, st = drain_from(DRAIN_TABLE[1, u], st)
            value = total - v
            drain = 0
            if drain_active:
                drain, st = drain_from(DRAIN_TABLE[ones, w], st)
            t = value - t_lo
            if uint64(t) < uint64(HIST_T) and drain < HIST_D:
                flat[(ones * HIST_D + drain) * HIST_T + t] += 1
            else:
                clamped += record(h, value, ones, drain, t_lo)
    return clamped, st


@njit(cache=True)
def finish_states(
    h, counts, slots, n_states, st, malus, plain_malus, explosion_ones, drain_active, t_lo
):
    """Turn the counted throw-table entries into rolls in ``h[kept 1s, drain, total - t_lo]``.

    An entry with no dice left is a thrown roll: with no malus die and no drain to roll (no
    kept 1s, or a roll that does not drain) its count goes straight to its bin; otherwise
    :func:`add_rolls` rolls those for each roll. The entries with exploding dice left (under
    4% of rolls) are finished one roll at a time, as :func:`finish_throw` does. Zeroes
    ``counts``. A ``plain_malus`` is a plain d6 (1..6). Returns ``(rolls clamped, st)``.
    """
    flat = h.reshape(N_ONES * HIST_D * HIST_T)
    clamped = 0
    exploding_malus = malus and not plain_malus
    for e in range(n_states):
        k = int64(0)
        for s in range(slots):
            k += int64(counts[s * STATE_STRIDE + e])
            counts[s * STATE_STRIDE + e] = 0
        if k == 0:
            continue
        if e < COMPLETE:
            ones, total = e >> 8, e & 0xFF
            if malus or (drain_active and ones > 0):
                c, st = add_rolls(h, k, ones, total, st, malus, plain_malus, drain_active, t_lo)
                clamped += c
            else:
                flat[ones * HIST_D * HIST_T + total - t_lo] += k
            continue
        for _ in range(k):
            total, ones, st = finish_one(e, st, exploding_malus, explosion_ones)
            if malus and plain_malus:
                f, st = uniform(6, st)
                total -= f + 1
            drain = 0
            if drain_active:
                u, st = uniform(DRAIN_W, st)
                drain, st = drain_from(DRAIN_TABLE[ones, u], st)
            t = total - t_lo
            if uint64(t) < uint64(HIST_T) and drain < HIST_D:
                flat[(ones * HIST_D + drain) * HIST_T + t] += 1
            else:
                clamped += record(h, total, ones, drain, t_lo)
    return clamped, st


@njit(cache=True, nogil=True)
def chunk_throws(h, seed_row, size, throw_table, per_draw, threshold, flags, t_lo):
    """Add ``size`` throw-table rolls (and their drain when ``flags.drains``) to ``h``; the
    malus die, when ``flags.malus``, is a plain d6 when ``flags.plain_malus`` (``flags``: the
    roll's :class:`~explodice.engine.compiled.RollFlags`; the table holds the rest).

    Two stages. :func:`count_states` reads ``per_draw`` rolls from each 64-bit output (3 from
    a table of 6**6 entries, 4 from one of 6**5; ``threshold`` from :func:`digits_threshold`)
    and only counts how often each table entry came up, in small uint32 counters that stay in
    the L1 cache. Then :func:`finish_states` rolls what the table left open (explosions past
    its faces, the malus die, the drain of the kept 1s) for those rolls alone, per entry.
    Every roll still gets its own dice, so the law is that of :func:`table_roll_drain`, and the
    counts depend only on the chunk's seed. Returns how many rolls were clamped.
    """
    malus, plain_malus, explosion_ones = flags.malus, flags.plain_malus, flags.explosion_ones
    drain_active = flags.drains
    st = seed_state(seed_row)
    n_states = int64(0)  # not the literal 0: a literal argument compiles the callee twice
    for e in throw_table:
        n_states = max(n_states, int64(e) + 1)
    counts = np.zeros(per_draw * STATE_STRIDE, dtype=np.uint32)
    clamped = 0
    left = size // per_draw
    while True:  # one call site of finish_states: one compile
        block = min(left, COUNT_BLOCK)
        st = count_states(counts, st, block, throw_table, per_draw, threshold)
        left -= block
        if left == 0:  # the last rolls, fewer than per_draw, one output each
            for _ in range(size % per_draw):
                u, st = uniform(throw_table.size, st)
                counts[throw_table[u]] += 1
        c, st = finish_states(
            h,
            counts,
            per_draw,
            n_states,
            st,
            malus,
            plain_malus,
            explosion_ones,
            drain_active,
            t_lo,
        )
        clamped += c
        if left == 0:
            return clamped


@njit(cache=True, nogil=True)
def chunk_face_by_face(h, seed_row, size, face_n1, face_n6, face_s, k_table, flags, t_lo):
    """Add ``size`` rolls made by :func:`face_roll` (needed for the lucky reroll, drawn between
    the throw and the choice, or after it) and their drain (when ``flags.drains``) to ``h[kept
    1s, drain, total - t_lo]``. ``flags``: the roll's
    :class:`~explodice.engine.compiled.RollFlags`."""
    drain_active = flags.drains
    st = seed_state(seed_row)
    flat = h.reshape(N_ONES * HIST_D * HIST_T)
    clamped = 0
    for _ in range(size):
        total, ones, st = face_roll(st, face_n1.size, face_n1, face_n6, face_s, k_table, flags)
        drain = 0
        if drain_active:
            drain, st = drain_of(ones, st)
        t = total - t_lo
        if uint64(t) < uint64(HIST_T) and drain < HIST_D:
            flat[(ones * HIST_D + drain) * HIST_T + t] += 1
        else:
            clamped += record(h, total, ones, drain, t_lo)
    return clamped


@njit(cache=True)
def chunk_attack(h, seed_row, size, face_n1, face_n6, face_s, k_table, flags, min_sixes, t_lo):
    """Add ``size`` attacks made by :func:`face_roll_sixes` to ``h[critical, total - t_lo]``:
    ``critical`` is 1 when the roll keeps ``min_sixes`` or more 6s of its initial throw
    (``Rules.critical`` "two_sixes": 2, "three_sixes": 3); ``flags``: the roll's
    :class:`~explodice.engine.compiled.RollFlags`. A total beyond the histogram is counted in
    its edge bin; returns how many were."""
    st = seed_state(seed_row)
    n_t = h.shape[1]
    clamped = 0
    for _ in range(size):
        total, ones, sixes, st = face_roll_sixes(
            st, face_n1.size, face_n1, face_n6, face_s, k_table, flags
        )
        c = 1 if sixes >= min_sixes else 0
        t = total - t_lo
        if t < 0 or t >= n_t:
            clamped += 1
            t = min(max(t, 0), n_t - 1)
        h[c, t] += 1
    return clamped
