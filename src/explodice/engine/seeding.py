"""Seeds: what a user passes, the streams the chunks draw from, and what results record.

A run of ``n`` rolls is cut into fixed-size chunks, each with its own xoshiro256** stream
spawned from the seed, so the numbers of a seed never depend on the number of threads. The
streams are derived when a chunk is taken (not all up front), so a run of 10**13 rolls starts
at once and holds no table of millions of seeds.

>>> len(stream_seeds(resolve_seed(7), 3)), stream_seeds(resolve_seed(7), 3)[2].shape
(3, (4,))
>>> chunk_sizes(10, 4).tolist()
[4, 4, 2]
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError, fail
from explodice.core.words import Phrase

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_CHUNKS",
    "MAX_ROLLS",
    "StreamSeeds",
    "chunk_children",
    "chunk_sizes",
    "resolve_seed",
    "seed_record",
    "stream_seeds",
]

DEFAULT_CHUNK = 1 << 22  # rolls per chunk: a few MiB of work, far below a second
#: The most rolls one simulation may draw (hours of a many-core machine; memory stays flat).
MAX_ROLLS = 10**13
#: The most chunks one run is cut into (10**13 rolls in the default chunks are 2.4 million):
#: a smaller chunk size for a large run is refused rather than listing billions of chunks.
MAX_CHUNKS = 1 << 22


def resolve_seed(seed: Any) -> np.random.SeedSequence:
    """An ``int`` >= 0, a ``SeedSequence`` or ``None`` (fresh entropy, recorded on results)."""
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    wrong_type = isinstance(seed, bool) or not isinstance(seed, numbers.Integral)
    if wrong_type or seed < 0:  # a bool is a wrong type, though Python counts it an integer
        allowed = Phrase("an integer >= 0, a numpy SeedSequence or None")
        raise fail("seed", seed, allowed, ExplodiceError, wrong_type=wrong_type)
    return np.random.SeedSequence(int(seed))


def seed_record(ss: np.random.SeedSequence) -> Any:
    """What results record as their seed: the entropy, with the spawn key when there is one.

    >>> seed_record(np.random.SeedSequence(7)), seed_record(np.random.SeedSequence(7, spawn_key=(2,)))
    (7, (7, (2,)))
    """
    return ss.entropy if not ss.spawn_key else (ss.entropy, ss.spawn_key)


class StreamSeeds:
    """The xoshiro256** state (uint64[4]) of each chunk, derived when the chunk asks for it.

    ``seeds[c]`` is the state of the ``c``-th child of ``ss`` (the child ``ss.spawn`` would
    give), so the numbers are those of spawning every child up front, without the time and
    memory of millions of ``SeedSequence`` objects. ``ss`` itself is not advanced.
    """

    def __init__(self, ss: np.random.SeedSequence, n_chunks: int) -> None:
        self.entropy, self.key, self.pool = ss.entropy, tuple(ss.spawn_key), ss.pool_size
        self.first, self.n_chunks = ss.n_children_spawned, int(n_chunks)

    def __len__(self) -> int:
        return self.n_chunks

    def child(self, c: int) -> np.random.SeedSequence:
        """The ``c``-th child sequence (what ``ss.spawn(n)[c]`` returns)."""
        if not 0 <= c < self.n_chunks:
            raise IndexError(f"chunk {c} of {self.n_chunks}")
        return np.random.SeedSequence(
            self.entropy, spawn_key=(*self.key, self.first + c), pool_size=self.pool
        )

    def __getitem__(self, c: int) -> np.ndarray:
        state = self.child(int(c)).generate_state(4, np.uint64)
        if not state.any():  # the one state xoshiro cannot leave; never seen in practice
            state[0] = 1
        return state


def stream_seeds(ss: np.random.SeedSequence, n_chunks: int) -> StreamSeeds:
    """The xoshiro256** states of ``n_chunks`` chunks, one spawned stream each (lazily)."""
    return StreamSeeds(ss, n_chunks)


def chunk_children(ss: np.random.SeedSequence, n_chunks: int) -> Iterator[np.random.SeedSequence]:
    """The children of ``ss`` for ``n_chunks`` chunks, one at a time (as ``ss.spawn`` lists them).

    >>> a = [c.spawn_key for c in chunk_children(np.random.SeedSequence(7), 2)]
    >>> a == [c.spawn_key for c in np.random.SeedSequence(7).spawn(2)]
    True
    """
    seeds = StreamSeeds(ss, n_chunks)
    return (seeds.child(c) for c in range(n_chunks))


def chunk_sizes(n: int, chunk_size: int, *, what: str = "chunk_size") -> np.ndarray:
    """Rolls per chunk: full chunks of ``chunk_size`` and one last partial chunk.

    More than :data:`MAX_CHUNKS` chunks are refused (the error names the smallest size).
    """
    if -(-n // chunk_size) > MAX_CHUNKS:
        least = -(-n // MAX_CHUNKS)
        raise ExplodiceError(
            Phrase(
                "`{what}` {chunk_size:,} cuts {n:,} into more than {MAX_CHUNKS:,} "
                "chunks; give {what} >= {least:,} (or keep the default).",
                what=what,
                chunk_size=chunk_size,
                n=n,
                MAX_CHUNKS=MAX_CHUNKS,
                least=least,
            )
        )
    full, rest = divmod(n, chunk_size)
    sizes = [chunk_size] * full + ([rest] if rest else [])
    return np.asarray(sizes, dtype=np.int64)
