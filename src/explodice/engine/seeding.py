"""Seeds: what a user passes, the streams the chunks draw from, and what results record.

A run of ``n`` rolls is cut into fixed-size chunks, each with its own xoshiro256** stream
spawned from the seed, so the numbers of a seed never depend on the number of threads.

>>> stream_seeds(resolve_seed(7), 3).shape, chunk_sizes(10, 4).tolist()
((3, 4), [4, 4, 2])
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError

__all__ = ["DEFAULT_CHUNK", "chunk_sizes", "resolve_seed", "seed_record", "stream_seeds"]

DEFAULT_CHUNK = 1 << 22  # rolls per chunk: a few MiB of work, far below a second


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


