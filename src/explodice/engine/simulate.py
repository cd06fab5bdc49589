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

from typing import Any, Literal, get_args

import numpy as np

from explodice.core.errors import ExplodiceError, check_choice, check_flag, check_int
from explodice.core.words import Phrase
from explodice.engine import cuda as cuda_backend
from explodice.engine.chunks import lanes, progress_bar, resolve_threads, run_chunks
from explodice.engine.compiled import compile_roll, throw_table
from explodice.engine.distribution import Distribution, histogram_distribution
from explodice.engine.histogram import HIST_D, HIST_T, HIST_T_LO, N_ONES
from explodice.engine.reroll import simulate_reroll
from explodice.engine.seeding import (
    DEFAULT_CHUNK,
    MAX_ROLLS,
    chunk_sizes,
    resolve_seed,
    stream_seeds,
)
from explodice.game.checks import check_roll, check_rules
from explodice.game.rules import Roll, Rules

__all__ = ["BACKENDS", "MAX_ROLLS", "Backend", "histogram_distribution", "simulate"]

#: Where the Monte Carlo runs: the CPU kernels, the CUDA ones, or CUDA where a GPU answers.
Backend = Literal["cpu", "cuda", "auto"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)

# The throw tables of the kernel _kernels.chunk_throws, by pool size: 6**5 entries give 4 rolls
# per 64-bit output, 6**6 entries 3; the depth trades the throws it leaves open (3.6 % for 3
# dice at depth 5, 20 % for 4) against rolls per output.
STATE_DEPTH = {2: 5, 3: 5, 4: 6}


def simulate(
    roll: Roll,
    rules: Rules | None = None,
    *,
    n: int = 1_000_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool | None = None,
    backend: Backend = "cpu",
) -> Distribution:
    """Simulate ``n`` rolls and return their histogram as a :class:`Distribution`.

    ``seed`` fixes every number: the same seed (and ``chunk_size``) gives the same counts
    whatever ``threads`` is. ``progress`` shows a bar moving per chunk (by default only for
    runs of 2e8 rolls or more); Ctrl-C stops the run between chunks.

    ``backend`` is ``"cpu"`` (the numba kernels on ``threads`` threads, one per core by
    default), ``"cuda"`` (an NVIDIA GPU through numba-cuda, :mod:`explodice.engine.cuda`;
    ``threads`` and ``chunk_size`` do not apply, and its numbers differ from the CPU's for the
    same seed) or ``"auto"`` (the GPU when there is one and ``n`` >= 5e7, else the CPU).

    >>> from explodice import Roll, simulate
    >>> a = simulate(Roll(2, advantage="advantage"), n=10_000, seed=7, threads=1)
    >>> b = simulate(Roll(2, advantage="advantage"), n=10_000, seed=7, threads=2)
    >>> bool((a.counts == b.counts).all())
    True
    """
    roll, rules = check_roll(roll), check_rules(rules)
    n = check_int("n", n, lo=1, hi=MAX_ROLLS)
    chunk_size = check_int("chunk_size", chunk_size, lo=1, hi=1 << 40)
    check_choice("backend", backend, BACKENDS, ExplodiceError)
    progress = check_flag("progress", progress, none=True)
    if roll.reroll_dc is not None:  # a reroll on failure: the numpy Monte Carlo, die by die
        if backend == "cuda":
            raise ExplodiceError(
                Phrase(
                    "`backend` 'cuda' cannot play a reroll on failure: use 'cpu' (a "
                    "numpy simulation, die by die) or the exact engine."
                )
            )
        return simulate_reroll(roll, rules, n=n, seed=seed)
    if backend != "cpu":
        if backend == "cuda" or n >= cuda_backend.AUTO_CUDA_ROLLS and cuda_backend.cuda_available():
            return cuda_backend.simulate_cuda(roll, rules, n=n, seed=seed, progress=progress)
    ss = resolve_seed(seed)
    n_threads = resolve_threads(threads)

    sizes = chunk_sizes(n, chunk_size)
    seeds = stream_seeds(ss, sizes.size)
    work, hists, clamped = _chunk_work(roll, rules, seeds, sizes, lanes(sizes.size, n_threads))
    run_chunks(work, sizes, threads=n_threads, bar=progress_bar(n, progress))
    return histogram_distribution(
        hists.sum(axis=0),
        HIST_T_LO,
        n=n,
        seed=ss,
        clamped=int(clamped.sum()),
        roll=roll,
        rules=rules,
    )


def _chunk_work(
    roll: Roll, rules: Rules, seeds: Any, sizes: np.ndarray, n_lanes: int
) -> tuple[Any, np.ndarray, np.ndarray]:
    """The work of one chunk for :func:`run_chunks`, and the lanes' histograms it fills.

    Picks the kernel for the case (the throw table, or face by face for the lucky reroll at
    either timing), so each is compiled only when first used.
    """
    # numba and the kernels are imported here, not with the package: exact() never waits for them
    from explodice.engine import _kernels

    hists = np.zeros((n_lanes, N_ONES, HIST_D, HIST_T), dtype=np.int64)  # totals -160..319
    clamped = np.zeros(n_lanes, dtype=np.int64)
    r = compile_roll(roll, rules)
    flags = r.flags()
    if r.lucky:

        def work(c: int, t: int) -> None:
            clamped[t] += _kernels.chunk_face_by_face(
                hists[t],
                seeds[c],
                sizes[c],
                r.face_n1,
                r.face_n6,
                r.face_s,
                r.k_table,
                flags,
                HIST_T_LO,
            )
    else:
        table = throw_table(roll, rules, depth=STATE_DEPTH[r.pool])
        per_draw = 4 if table.size <= 6**5 else 3
        threshold = _kernels.digits_threshold(table.size, per_draw)

        def work(c: int, t: int) -> None:
            clamped[t] += _kernels.chunk_throws(
                hists[t],
                seeds[c],
                sizes[c],
                table,
                per_draw,
                threshold,
                flags,
                HIST_T_LO,
            )

    return work, hists, clamped
