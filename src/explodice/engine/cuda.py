"""The CUDA backend of :func:`explodice.simulate` (numba-cuda, optional: ``pip install .[cuda]``).

``numba.cuda`` is imported lazily, on the first call that needs it, so ``import explodice``
works on any machine. :func:`cuda_status` says whether a GPU can be used and why not.

The ``n`` rolls are cut into chunks of :data:`CHUNK` (2**30) rolls, one kernel launch each, with
one key per chunk drawn from a ``SeedSequence`` child. Inside a chunk the layout (threads, and
rolls per thread) is a fixed function of the chunk's size, never of the device, so a given seed
gives the same counts on any GPU, and under numba's CUDA simulator. Counts stay on the GPU in
an int64 histogram (4.9 MB) until the end: 10**11 rolls are about a hundred launches.

>>> from explodice import Roll
>>> from explodice.engine.cuda import chunk_layouts
>>> [(l.blocks, l.base_rolls, l.extra) for l in chunk_layouts(3_000)]
[(1, 11, 184)]
"""

from __future__ import annotations

import math
import os
import warnings
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from explodice.core.words import Phrase
from explodice.engine.chunks import progress_bar
from explodice.engine.compiled import compile_roll
from explodice.engine.distribution import Distribution, histogram_distribution
from explodice.engine.histogram import HIST_D, HIST_T, HIST_T_LO, N_ONES
from explodice.engine.seeding import resolve_seed
from explodice.game.rules import ExplodiceError, Roll, Rules

__all__ = [
    "cuda_status",
    "cuda_available",
    "simulate_cuda",
    "chunk_layouts",
    "ChunkLayout",
    "chi_square",
    "AUTO_CUDA_ROLLS",
    "CHUNK",
]

CHUNK = 1 << 30  # rolls per kernel launch
THREADS_PER_BLOCK = 256
MAX_BLOCKS = 1024  # about 8 blocks of 256 threads per SM on a 132-SM H200
MIN_ROLLS_PER_THREAD = 16
AUTO_CUDA_ROLLS = 50_000_000  # backend="auto" uses the GPU from this many rolls


class ChunkLayout(NamedTuple):
    """One launch: ``blocks`` x 256 threads, ``base_rolls`` each, one more for the first
    ``extra`` threads (``rolls`` in all)."""

    rolls: int
    blocks: int
    base_rolls: int
    extra: int


def chunk_layouts(n: int) -> list[ChunkLayout]:
    """The launches for ``n`` rolls: full chunks of :data:`CHUNK`, then the rest.

    A small chunk uses fewer threads (at least 16 rolls each), so a tiny job is one block.
    """
    out = []
    full, rest = divmod(n, CHUNK)
    for size in [CHUNK] * full + ([rest] if rest else []):
        per_thread = max(MIN_ROLLS_PER_THREAD, math.ceil(size / (MAX_BLOCKS * THREADS_PER_BLOCK)))
        blocks = min(MAX_BLOCKS, math.ceil(math.ceil(size / per_thread) / THREADS_PER_BLOCK))
        base, extra = divmod(size, blocks * THREADS_PER_BLOCK)
        out.append(ChunkLayout(size, blocks, base, extra))
    return out


def chunk_keys(ss: np.random.SeedSequence, n_chunks: int) -> np.ndarray:
    """One 128-bit key per chunk (uint64[n_chunks, 2]), each from a spawned stream."""
    out = np.empty((n_chunks, 2), dtype=np.uint64)
    for i, child in enumerate(ss.spawn(n_chunks)):
        out[i] = child.generate_state(2, np.uint64)
    return out


def hot_lo(roll: Roll, rules: Rules) -> int:
    """First dice total of the shared-memory window (64 totals): most rolls land in it."""
    return -16 if roll.has_malus_die(rules) else 0


@lru_cache(maxsize=1)
def _load() -> tuple[ModuleType | None, str]:
    """Import numba.cuda and the kernels once: ``(kernels module or None, reason if None)``."""
    if not hasattr(np, "row_stack"):  # removed in numpy 2.5, still used by numba-cuda's import
        # numpy's stubs drop it in 2.5 too: an ignore that may be unused before then
        np.row_stack = np.vstack  # type: ignore[attr-defined, unused-ignore]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba-cuda's own import-time deprecations
            from numba import cuda

            if not cuda.is_available():
                return None, "no CUDA GPU or driver was found (numba.cuda.is_available() is False)"
            from explodice.engine import _cuda_kernels
    except Exception as err:  # ImportError, or a driver/toolkit problem
        return None, f"numba.cuda could not be loaded ({type(err).__name__}: {err})"
    return _cuda_kernels, ""


def _simulator() -> bool:
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def cuda_status() -> tuple[bool, str]:
    """``(usable, reason)``: whether ``backend="cuda"`` can run here, and why not.

    >>> usable, reason = cuda_status()
    >>> isinstance(usable, bool) and (usable or reason != "")
    True
    """
    kernels, reason = _load()
    return kernels is not None, reason


def cuda_available(*, allow_simulator: bool = False) -> bool:
    """True when a real CUDA GPU can be used (the simulator counts only when allowed)."""
    return cuda_status()[0] and (allow_simulator or not _simulator())


def simulate_cuda(
    roll: Roll, rules: Rules, *, n: int, seed: Any = None, progress: bool | None = None
) -> Distribution:
    """``n`` rolls on the GPU, as ``simulate(roll, rules, n=n, seed=seed, backend="cuda")``.

    The arguments are those already validated by :func:`explodice.simulate`.
    """
    kernels, reason = _load()
    if kernels is None:
        raise ExplodiceError(
            Phrase(
                "`backend` 'cuda' needs an NVIDIA GPU and numba-cuda (pip install "
                "'explodice[cuda]'), but {reason}. Pass backend='cpu', or 'auto' to "
                "use the GPU only when there is one.",
                reason=reason,
            )
        )
    from numba import cuda

    ss = resolve_seed(seed)
    layouts = chunk_layouts(n)
    keys = chunk_keys(ss, len(layouts))
    r = compile_roll(roll, rules)
    d_k = cuda.to_device(np.ascontiguousarray(r.k_table, dtype=np.int8).ravel())
    d_hist = cuda.to_device(np.zeros((N_ONES, HIST_D, HIST_T), dtype=np.int64))
    d_clamped = cuda.to_device(np.zeros(1, dtype=np.int64))
    lo = hot_lo(roll, rules)
    bar = progress_bar(n, progress)
    with warnings.catch_warnings():
        if _simulator():  # numpy scalars stand for the GPU's wrapping uint64 arithmetic
            warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
        counts, clamped = _launch(
            kernels,
            layouts,
            keys,
            bar,
            d_hist,
            d_clamped,
            (r.pool, d_k, r.flags(), lo),
        )
    return histogram_distribution(
        counts, HIST_T_LO, n=n, seed=ss, clamped=clamped, roll=roll, rules=rules, backend="cuda"
    )


def _launch(
    kernels: ModuleType,
    layouts: list[ChunkLayout],
    keys: np.ndarray,
    bar: Any,
    d_hist: Any,
    d_clamped: Any,
    roll_args: tuple[Any, ...],
) -> tuple[np.ndarray, int]:
    """Run the chunks' launches in order and bring the histogram back. ``roll_args`` are the
    kernel's arguments after the chunk's: the pool, the policy table on the device, the roll's
    flags (:meth:`~explodice.engine.compiled.CompiledRoll.flags`) and the shared-memory
    window's first total."""
    from numba import cuda

    try:
        for layout, key in zip(layouts, keys):
            kernels.roll_histogram[layout.blocks, THREADS_PER_BLOCK](
                d_hist,
                d_clamped,
                key[0],
                key[1],
                layout.base_rolls,
                layout.extra,
                *roll_args,
                HIST_T_LO,
            )
            if bar is not None:
                cuda.synchronize()
                bar.update(layout.rolls)
        return d_hist.copy_to_host(), int(d_clamped.copy_to_host()[0])
    finally:
        if bar is not None:
            bar.close()


def chi_square(
    sim: Distribution, reference: Distribution, *, min_expected: float = 5.0
) -> tuple[float, int, float]:
    """Pearson's chi-square of a simulated histogram against a reference distribution.

    Bins are the joint ``(total, drain, kept 1s)``; bins expecting fewer than ``min_expected``
    rolls are pooled into one. Returns ``(statistic, degrees of freedom, z)``, ``z`` being the
    Wilson-Hilferty normal score of the statistic: above 5 means disagreement.

    >>> from explodice import Roll, exact, simulate
    >>> e = exact(Roll(0))
    >>> z = chi_square(simulate(Roll(0), n=20_000, seed=3), e)[2]
    >>> bool(z < 5)
    True
    """
    if sim.counts is None or sim.n is None:
        raise ExplodiceError(
            Phrase(
                "`sim` must be a simulated Distribution (with counts), but an "
                "{method!r} one was passed.",
                method=sim.method,
            )
        )
    lo = min(sim.lo, reference.lo)
    shape = [
        max(a.pmf.shape[i] + (a.lo - lo if i == 0 else 0) for a in (sim, reference))
        for i in range(3)
    ]
    counts = np.zeros(shape)
    expected = np.zeros(shape)
    for dest, dist, values in ((counts, sim, sim.counts), (expected, reference, reference.pmf)):
        t0 = dist.lo - lo
        dest[t0 : t0 + values.shape[0], : values.shape[1], : values.shape[2]] = values
    expected *= sim.n
    big = expected >= min_expected
    stat = float((((counts - expected) ** 2)[big] / expected[big]).sum())
    rest_c, rest_e = counts[~big].sum(), expected[~big].sum()
    bins = int(big.sum())
    if rest_e > 0:
        stat += float((rest_c - rest_e) ** 2 / rest_e)
        bins += 1
    elif rest_c > 0:  # rolls where the reference has no mass at all
        stat = math.inf
    dof = max(bins - 1, 1)
    c = 2.0 / (9.0 * dof)
    z = ((stat / dof) ** (1.0 / 3.0) - (1.0 - c)) / math.sqrt(c)
    return stat, dof, z
