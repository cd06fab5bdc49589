"""CUDA kernels (numba-cuda): the single-roll histogram on the GPU. Plain arrays in and out.

Import this module only through :mod:`explodice.engine.cuda`, which patches numpy for
numba-cuda and imports ``numba.cuda`` lazily, so ``import explodice`` never needs a GPU.

The generator is xoroshiro128** (Blackman & Vigna), one stream per thread and per chunk, its
state kept in registers and seeded on the device by SplitMix64 from the chunk's key (drawn from
a spawned ``SeedSequence``) and the thread's index. Each 64-bit output gives two 32-bit words;
one word becomes a uniform integer below 6**6 by Lemire's multiply-shift with rejection (exact),
and that integer is a reservoir of six independent d6 faces, taken one base-6 digit at a time.
So one generator step feeds twelve dice: the initial throw, lucky reroll (before or after the
rule of 1's choice), explosions, malus die (exploding or plain) and drains all read the same
reservoir.

Counts go to per-block shared-memory histograms of the hot region, merged atomically into the
global int64 histogram ``hist[kept 1s, drain, total - t_lo]`` at the end of the block:

- region A, rolls with no kept 1 (so no drain), totals ``hot_lo .. hot_lo + HOT_T - 1``: one
  counter per warp lane (``A[t * 32 + lane]``), so a warp's lanes never collide on an address
  or a bank, whatever the total;
- region B, rolls with 1..HOT_ONES kept 1s and a drain below HOT_D, same totals;
- anything else (rare: a long explosion, three 1s...) goes straight to the global histogram,
  clamped into its edge bins like the CPU kernel, and counted in ``clamped`` when clamped.
"""

from __future__ import annotations

import numpy as np
from numba import cuda, int64, uint64

WARP = 32
HOT_T = 64  # totals kept in shared memory
HOT_D = 32  # drains kept in shared memory (region B)
HOT_ONES = 2  # kept 1s kept in shared memory (region B: 1..HOT_ONES)
N_A = HOT_T * WARP
N_B = HOT_ONES * HOT_D * HOT_T
K_SIZE = 5 * 5 * 21  # the policy table k[n1, n6, s], flattened
DIGITS = 6  # d6 faces per reservoir: 6**6 < 2**32

_U1 = np.uint64(1)
_U6 = np.uint64(6)
_RES = np.uint64(6**DIGITS)
_RES_THRESHOLD = np.uint64((1 << 32) % 6**DIGITS)  # Lemire's rejection bound
_DIV6 = np.uint64(43691)  # ceil(2**18 / 6)
_MASK32 = np.uint64(0xFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
# rng state slots (a local uint64 array, promoted to registers): generator, spare word, reservoir
S0, S1, SPARE, HAS_SPARE, RES, RES_LEFT = 0, 1, 2, 3, 4, 5
RNG_SLOTS = 6


def _device(fn):
    """A device function, inlined at the NVVM level where numba-cuda allows it."""
    try:
        return cuda.jit(device=True, forceinline=True)(fn)
    except TypeError:  # the CUDA simulator (and numba's old numba.cuda) have no forceinline
        return cuda.jit(device=True)(fn)


@_device
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@_device
def splitmix64(x):
    """SplitMix64's output function (a bijection of uint64)."""
    z = x + _GOLDEN
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@_device
def seed_rng(rng, key0, key1, thread):
    """Seed thread ``thread``'s xoroshiro128** state from the chunk key; empty the reservoir."""
    base = splitmix64(key1 ^ uint64(thread))
    rng[S0] = splitmix64(key0 + base)
    rng[S1] = splitmix64(key0 + base + _GOLDEN)
    if rng[S0] == 0 and rng[S1] == 0:  # the one state xoroshiro cannot leave
        rng[S0] = _U1
    rng[HAS_SPARE] = 0
    rng[RES_LEFT] = 0


@_device
def next64(rng):
    """One xoroshiro128** output, advancing the state."""
    s0 = rng[S0]
    s1 = rng[S1]
    out = _rotl(s0 * uint64(5), 7) * uint64(9)
    s1 ^= s0
    rng[S0] = _rotl(s0, 24) ^ s1 ^ (s1 << uint64(16))
    rng[S1] = _rotl(s1, 37)
    return out


@_device
def word32(rng):
    """A uniform 32-bit word (as uint64): the two halves of each output in turn."""
    if rng[HAS_SPARE] != 0:
        rng[HAS_SPARE] = 0
        return rng[SPARE]
    r = next64(rng)
    rng[SPARE] = r >> uint64(32)
    rng[HAS_SPARE] = 1
    return r & _MASK32


@_device
def refill_reservoir(rng):
    """Draw a uniform integer below 6**6 (exact Lemire) into the reservoir: six d6 faces."""
    m = word32(rng) * _RES
    while (m & _MASK32) < _RES_THRESHOLD:
        m = word32(rng) * _RES
    rng[RES] = m >> uint64(32)
    rng[RES_LEFT] = DIGITS


@_device
def face(rng):
    """One d6 face, 0..5 (a die showing ``face + 1``)."""
    if rng[RES_LEFT] == 0:
        refill_reservoir(rng)
    r = rng[RES]
    q = (r * _DIV6) >> uint64(18)  # r // 6, exact for r < 6**6
    rng[RES] = q
    rng[RES_LEFT] -= _U1
    return int64(r - q * _U6)


@_device
def exploding(rng):
    """One exploding d6: ``(value, last face shown 1..6)``."""
    total = 0
    f = face(rng)
    total += f + 1
    while f == 5:
        f = face(rng)
        total += f + 1
    return total, f + 1


@_device
def tally(f, n1, n6, s):
    """Add face ``f`` (0..5) of the initial throw to its 1s, 6s and sum of the other faces."""
    if f == 0:
        return n1 + 1, n6, s
    if f == 5:
        return n1, n6 + 1, s
    return n1, n6, s + f + 1


@_device
def one_roll(rng, pool, k_table, flags):
    """One 3d6x roll and its drain: ``(dice total, kept 1s, drain)``, as the CPU kernel's
    ``face_roll``: Lucky before the choice, or after it (``lucky_after``: one kept 1 becomes
    a fresh exploding die that drains nothing), and an exploding or plain malus die. ``flags``
    is the roll's :class:`~explodice.engine.compiled.RollFlags`."""
    malus, plain_malus, lucky = flags.malus, flags.plain_malus, flags.lucky
    lucky_after, rule_applies = flags.lucky_after, flags.rule_applies
    explosion_ones = flags.explosion_ones
    drain_active = flags.drains
    n1 = 0
    n6 = 0
    s = 0
    for _ in range(pool):
        n1, n6, s = tally(face(rng), n1, n6, s)
    if lucky and not lucky_after and n1 > 0:  # one 1 is rerolled, the new face replaces it
        n1, n6, s = tally(face(rng), n1 - 1, n6, s)
    k = int64(k_table[(n1 * 5 + n6) * 21 + s])
    a = n1 - k
    b = n6 - k
    if lucky_after and a > 0:  # a kept 1 rerolled after the choice: summed, outside the rule
        a -= 1
        v, last = exploding(rng)
        s += v
    total = s + a + 6 * b
    ones = a
    for _ in range(b):
        v, last = exploding(rng)
        total += v
        if explosion_ones and last == 1:
            ones += 1
    if malus and plain_malus:
        total -= face(rng) + 1
    elif malus:
        v, last = exploding(rng)
        total -= v
    if not rule_applies:
        ones = 0
    drain = 0
    if drain_active:
        for _ in range(ones):
            v, last = exploding(rng)
            drain += v
    return total, ones, drain


@cuda.jit
def roll_histogram(
    hist, clamped, key0, key1, base_rolls, extra, pool, k_table, flags, hot_lo, t_lo
):
    """Add one chunk of rolls to ``hist[kept 1s, drain, total - t_lo]`` (int64, on the device).

    Thread ``i`` of the grid (``blockIdx.x * blockDim.x + threadIdx.x``) rolls ``base_rolls``
    rolls, one more when ``i < extra``, from its own stream seeded by ``(key0, key1, i)``.
    Out-of-range totals and drains are clamped into the edge bins and counted in
    ``clamped[0]``. ``k_table`` is the flattened int8 policy table ``k[n1, n6, s]``, ``flags``
    the roll's :class:`~explodice.engine.compiled.RollFlags` (the launcher passes its fields
    as the kernel's parameters, one by one).
    """
    sh_a = cuda.shared.array(N_A, dtype=np.uint32)
    sh_b = cuda.shared.array(N_B, dtype=np.uint32)
    sh_k = cuda.shared.array(K_SIZE, dtype=np.int32)
    tid = cuda.threadIdx.x
    bdim = cuda.blockDim.x
    for i in range(tid, N_A, bdim):
        sh_a[i] = 0
    for i in range(tid, N_B, bdim):
        sh_b[i] = 0
    for i in range(tid, K_SIZE, bdim):
        sh_k[i] = k_table[i]
    cuda.syncthreads()

    n_o, n_d, n_t = hist.shape
    thread = cuda.blockIdx.x * bdim + tid
    lane = tid % WARP
    rng = cuda.local.array(RNG_SLOTS, dtype=np.uint64)
    seed_rng(rng, key0, key1, thread)
    rolls = base_rolls + (1 if thread < extra else 0)
    for _ in range(rolls):
        total, ones, drain = one_roll(rng, pool, sh_k, flags)
        t = total - hot_lo
        if 0 <= t < HOT_T and ones == 0:
            cuda.atomic.add(sh_a, t * WARP + lane, 1)
        elif 0 <= t < HOT_T and ones <= HOT_ONES and drain < HOT_D:
            cuda.atomic.add(sh_b, ((ones - 1) * HOT_D + drain) * HOT_T + t, 1)
        else:
            g = total - t_lo
            if g < 0 or g >= n_t or drain >= n_d:
                cuda.atomic.add(clamped, 0, 1)
                g = min(max(g, 0), n_t - 1)
                drain = min(drain, n_d - 1)
            cuda.atomic.add(hist, (ones, drain, g), 1)

    cuda.syncthreads()
    g0 = hot_lo - t_lo
    for t in range(tid, HOT_T, bdim):
        c = int64(0)
        for j in range(WARP):
            c += sh_a[t * WARP + j]
        if c != 0:
            cuda.atomic.add(hist, (0, 0, g0 + t), c)
    for i in range(tid, N_B, bdim):
        c = int64(sh_b[i])
        if c != 0:
            t = i % HOT_T
            d = (i // HOT_T) % HOT_D
            o = i // (HOT_T * HOT_D) + 1
            cuda.atomic.add(hist, (o, d, g0 + t), c)
