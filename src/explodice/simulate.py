"""The Monte Carlo engine: the numba kernel behind the same result type as :func:`exact`.

The ``n`` rolls are cut into fixed-size chunks (``chunk_size``, 2**22 by default), each with
its own stream spawned from the seed, and the integer histograms of the chunks are added.
So the same seed gives the same counts on 1 thread or 16, and memory stays bounded (a few MiB
per thread) however large ``n`` is.

>>> from explodice import Roll, simulate
>>> d = simulate(Roll(0), n=100_000, seed=1)
>>> d.n, d.seed, abs(d.mean - 12.6) < 0.1
(100000, 1, True)
"""

from __future__ import annotations

import numbers
from functools import lru_cache
from typing import Any

import numpy as np

from . import _kernels
from .chunks import lanes, progress_bar, resolve_threads, run_chunks
from .dice import face_sequences, throw_counts
from .distribution import Distribution
from .policy import policy_table
from .rules import ExplodiceError, Roll, Rules, check_int

__all__ = ["simulate", "stream_seeds", "resolve_seed", "resolve_threads", "seed_record",
           "DEFAULT_CHUNK"]

DEFAULT_CHUNK = 1 << 22
T_LO, N_T, N_D = _kernels.HIST_T_LO, _kernels.HIST_T, _kernels.HIST_D  # totals -160..319, drains 0..255


@lru_cache(maxsize=None)
def face_tables(pool: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of the 6**pool initial throws: its 1s, its 6s and the sum of its other faces."""
    n1, n6, s = throw_counts(face_sequences(pool))
    return n1.astype(np.int8), n6.astype(np.int8), s.astype(np.int8)


THROW_DEPTH = {2: 5, 3: 6, 4: 6}  # faces read per draw, by pool size


@lru_cache(maxsize=256)
def throw_table(roll: Roll, rules: Rules) -> np.ndarray:
    """The initial throw and the first faces of its explosions, one entry per face sequence.

    Entry ``u`` of the 6**L entries (L = :data:`THROW_DEPTH`) reads u's base-6 digits as faces:
    the first ``pool`` are the initial throw, the policy table sets its pairs aside, and the
    rest feed the kept 6s' explosions in order. It packs the dice total so far, the kept 1s
    (with the explosion 1s when they count) and the exploding dice still to roll:
    ``total | ones << 8 | remaining << 11`` (int16). The lucky reroll is not in the table.
    """
    pool = roll.pool_size(rules)
    depth = THROW_DEPTH[pool]
    faces = face_sequences(depth)
    n1, n6, s = throw_counts(faces[:, :pool])
    k = policy_table(roll, rules)[n1, n6, s].astype(np.int64)
    ones = n1 - k
    total = s + ones + 6 * (n6 - k)
    remaining = n6 - k  # exploding dice still to roll: each 6 read below adds one more
    count_explosion_ones = roll.rule_of_one_applies(rules) and rules.ones_on_explosions
    for j in range(pool, depth):
        f = faces[:, j]
        rolling = remaining > 0
        total += np.where(rolling, f, 0)
        ends = rolling & (f != 6)
        remaining -= ends
        if count_explosion_ones:
            ones += ends & (f == 1)
    if not roll.rule_of_one_applies(rules):
        ones[:] = 0
    assert total.max() < 256 and ones.max() < 8 and remaining.max() < 16
    table = (total | ones << 8 | remaining << 11).astype(np.int16)
    table.setflags(write=False)
    return table


def resolve_seed(seed: Any) -> np.random.SeedSequence:
    """An ``int`` >= 0, a ``SeedSequence`` or ``None`` (fresh entropy, recorded on results)."""
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ExplodiceError(
            f"`seed` must be an integer >= 0, a numpy SeedSequence or None, but {seed!r} was passed."
        )
    return np.random.SeedSequence(int(seed))


def seed_record(ss: np.random.SeedSequence) -> Any:
    """What results record as their seed: the entropy, with the spawn key when there is one.

    >>> seed_record(np.random.SeedSequence(7)), seed_record(np.random.SeedSequence(7, spawn_key=(2,)))
    (7, (7, (2,)))
    """
    return ss.entropy if not ss.spawn_key else (ss.entropy, ss.spawn_key)


def stream_seeds(ss: np.random.SeedSequence, n_chunks: int) -> np.ndarray:
    """``n_chunks`` xoshiro256** states (uint64[n_chunks, 4]), one spawned stream each."""
    out = np.empty((n_chunks, 4), dtype=np.uint64)
    for i, child in enumerate(ss.spawn(n_chunks)):
        out[i] = child.generate_state(4, np.uint64)
        if not out[i].any():  # the one state xoshiro cannot leave; never seen in practice
            out[i, 0] = 1
    return out


def chunk_sizes(n: int, chunk_size: int) -> np.ndarray:
    """Rolls per chunk: full chunks of ``chunk_size`` and one last partial chunk."""
    full, rest = divmod(n, chunk_size)
    sizes = [chunk_size] * full + ([rest] if rest else [])
    return np.asarray(sizes, dtype=np.int64)


def simulate(
    roll: Roll,
    rules: Rules | None = None,
    *,
    n: int = 1_000_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool | None = None,
    backend: str = "cpu",
) -> Distribution:
    """Simulate ``n`` rolls and return their histogram as a :class:`Distribution`.

    ``seed`` fixes every number: the same seed (and ``chunk_size``) gives the same counts
    whatever ``threads`` is. ``progress`` shows a bar moving per chunk (by default only for
    runs of 2e8 rolls or more); Ctrl-C stops the run between chunks.

    ``backend`` is ``"cpu"`` (the numba kernels on ``threads`` threads, one per core by
    default), ``"cuda"`` (an NVIDIA GPU through numba-cuda, :mod:`explodice.cuda_backend`;
    ``threads`` and ``chunk_size`` do not apply, and its numbers differ from the CPU's for the
    same seed) or ``"auto"`` (the GPU when there is one and ``n`` >= 5e7, else the CPU).

    >>> from explodice import Roll, simulate
    >>> a = simulate(Roll(2, advantage="advantage"), n=10_000, seed=7, threads=1)
    >>> b = simulate(Roll(2, advantage="advantage"), n=10_000, seed=7, threads=2)
    >>> bool((a.counts == b.counts).all())
    True
    """
    rules = Rules() if rules is None else rules
    if not isinstance(roll, Roll):
        raise TypeError(f"`roll` must be a Roll, but {type(roll).__name__} was passed.")
    if not isinstance(rules, Rules):
        raise TypeError(f"`rules` must be a Rules, but {type(rules).__name__} was passed.")
    n = check_int("n", n, lo=1, hi=10**13)
    chunk_size = check_int("chunk_size", chunk_size, lo=1, hi=1 << 40)
    if backend not in ("cpu", "cuda", "auto"):
        raise ExplodiceError(
            f"`backend` must be one of ['cpu', 'cuda', 'auto'], but {backend!r} was passed.")
    if backend != "cpu":
        from . import cuda_backend

        if backend == "cuda" or n >= cuda_backend.AUTO_CUDA_ROLLS and cuda_backend.cuda_available():
            return cuda_backend.simulate_cuda(roll, rules, n=n, seed=seed, progress=progress)
    ss = resolve_seed(seed)
    n_threads = resolve_threads(threads)

    sizes = chunk_sizes(n, chunk_size)
    seeds = stream_seeds(ss, sizes.size)
    work, hists, clamped = _chunk_work(roll, rules, seeds, sizes, lanes(sizes.size, n_threads))
    run_chunks(work, sizes, threads=n_threads, bar=progress_bar(n, progress))
    return histogram_distribution(hists.sum(axis=0), T_LO, n=n, seed=ss, clamped=int(clamped.sum()),
                                  roll=roll, rules=rules)


def _chunk_work(roll: Roll, rules: Rules, seeds: np.ndarray, sizes: np.ndarray,
                n_lanes: int) -> tuple[Any, np.ndarray, np.ndarray]:
    """The work of one chunk for :func:`run_chunks`, and the lanes' histograms it fills.

    Picks the kernel for the case (the throw table alone, with its drain, or face by face
    for the lucky reroll), so each is compiled only when first used.
    """
    hists = np.zeros((n_lanes, _kernels.N_ONES, N_D, N_T), dtype=np.int64)
    clamped = np.zeros(n_lanes, dtype=np.int64)
    args = kernel_args(roll, rules)
    malus, lucky, drain_active, explosion_ones = args[4], args[5], args[7], args[8]
    if lucky:
        def work(c: int, t: int) -> None:
            clamped[t] += _kernels.chunk_face_by_face(hists[t], seeds[c], sizes[c], *args, T_LO)
    else:
        table = throw_table(roll, rules)
        kernel = _kernels.chunk_table_drain if drain_active else _kernels.chunk_table

        def work(c: int, t: int) -> None:
            clamped[t] += kernel(hists[t], seeds[c], sizes[c], table, malus, explosion_ones, T_LO)
    return work, hists, clamped


def kernel_args(roll: Roll, rules: Rules) -> tuple[Any, ...]:
    """The plain arguments that describe ``roll`` to the kernels (tables, then flags)."""
    n1, n6, s = face_tables(roll.pool_size(rules))
    return (
        n1, n6, s,
        np.ascontiguousarray(policy_table(roll, rules)),
        roll.has_malus_die(rules),
        rules.lucky,
        roll.rule_of_one_applies(rules),
        roll.drains(rules),
        roll.rule_of_one_applies(rules) and rules.ones_on_explosions,
    )


def histogram_distribution(counts: np.ndarray, t_lo: int, *, n: int, seed: np.random.SeedSequence,
                           clamped: int, roll: Roll, rules: Rules,
                           method: str = "simulate") -> Distribution:
    """Trim a kernel histogram ``[ones, drain, total]`` into a simulated Distribution."""
    counts = np.ascontiguousarray(counts.transpose(2, 1, 0))  # -> [total, drain, ones]
    t_any = np.nonzero(counts.any(axis=(1, 2)))[0]
    d_any = np.nonzero(counts.any(axis=(0, 2)))[0]
    c_any = np.nonzero(counts.any(axis=(0, 1)))[0]
    counts = counts[t_any[0] : t_any[-1] + 1, : d_any[-1] + 1, : c_any[-1] + 1].copy()
    counts.setflags(write=False)
    return Distribution(counts / n, t_lo + int(t_any[0]) + roll.modifier, method=method, n=n,
                        seed=seed_record(seed), omitted=clamped / n, roll=roll, rules=rules,
                        counts=counts)
