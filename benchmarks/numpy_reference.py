"""A straightforward vectorised numpy simulation of 3d6x, the baseline the kernel is measured against.

It draws whole arrays of faces with numpy's Generator, explodes the rows that showed 6s until
none is left, and histograms the totals (and the drain of the kept 1s, under ``keep``).
Work goes in batches so memory stays bounded.
"""

from __future__ import annotations

import numpy as np


def _explode(rng: np.random.Generator, pending: np.ndarray, out: np.ndarray) -> None:
    """Add to ``out`` one exploding d6 per pending die, rerolling 6s until none is left."""
    pending = pending.copy()
    while True:
        idx = np.nonzero(pending)[0]
        if idx.size == 0:
            return
        new = rng.integers(1, 7, size=idx.size)
        np.add.at(out, idx, new)
        pending[idx] -= (new != 6).astype(pending.dtype)
        # rows with several pending dice: one die per row per round, the rest next round


def numpy_rolls(
    n: int, *, pool: int = 3, drain: bool = False, seed: int = 0, batch: int = 1_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """Histograms of the dice total and of the drain (zeros unless ``drain``) of n rolls."""
    rng = np.random.default_rng(seed)
    totals = np.zeros(512, dtype=np.int64)
    drains = np.zeros(512, dtype=np.int64)
    for start in range(0, n, batch):
        m = min(batch, n - start)
        faces = rng.integers(1, 7, size=(m, pool), dtype=np.int8)
        total = faces.sum(axis=1, dtype=np.int64)
        _explode(rng, (faces == 6).sum(axis=1), total)
        totals += np.bincount(np.minimum(total, 511), minlength=512)
        if drain:
            d = np.zeros(m, dtype=np.int64)
            _explode(rng, (faces == 1).sum(axis=1), d)
            drains += np.bincount(np.minimum(d, 511), minlength=512)
    return totals, drains
