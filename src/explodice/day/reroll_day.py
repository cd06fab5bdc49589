"""The adventuring day with rerolls on failure, played die by die with numpy.

A character whose trait is ``Reroll("failure", per_day=N)`` spends up to N rerolls a day, one
on each failed roll until they run out (``per_day=None``: every failed roll may be rerolled
once). The numba day kernel reads each roll from a precomputed table and cannot replay one
die, so :func:`explodice.simulate_day` hands such a day to :func:`day_histograms`, which plays
every rule of the day (the drained gauge of ``rules.drain_gauge``, disadvantage while the
hindering gauge is at 0, the overflow of :func:`explodice.day.overflow.pour`, NPCs without
gauges) on all the days of a chunk at once, and fills the same histograms as the kernel.

Seeds: one stream spawned per chunk of ``chunk_days`` days, so the numbers depend on the
seed and the chunk size only.
"""

from __future__ import annotations

import numpy as np

from explodice.day.compiled import CompiledDay
from explodice.day.overflow import pour
from explodice.engine.reroll import play
from explodice.engine.seeding import chunk_sizes

__all__ = ["day_histograms"]

_NEVER = 1 << 40


def day_histograms(
    day: CompiledDay,
    *,
    n_days: int,
    seed: np.random.SeedSequence,
    chunk_days: int,
    n_bins: int,
) -> dict[str, np.ndarray]:
    """The day's histograms (the kernel's accumulators, by name) over ``n_days`` days."""
    n_c, n_types, n_t = len(day.characters), len(day.roll_types), day.n_rolls
    n_g = 4 * n_c
    gauge_start = np.asarray(day.gauge_start)
    budget = np.array([_per_day(day, c.index) for c in day.characters], dtype=np.int64)
    weights = np.array([rt.weight for rt in day.roll_types])
    top = int(gauge_start.max(initial=0))
    out = {
        "first": np.zeros((n_g, n_t + 2), np.int64),
        "per_roll": np.zeros((n_t, 2), np.int64),
        "by_type": np.zeros((n_types, 2, 4), np.int64),
        "caused": np.zeros((n_g, n_bins), np.int64),
        "end": np.zeros((n_g, top + 1), np.int64),
        "lost": np.zeros((n_c, n_bins), np.int64),
        "sums": np.zeros((n_g, 2), np.int64),
        "lost_sum": np.zeros(n_c, np.int64),
    }
    sizes = chunk_sizes(n_days, chunk_days)
    for size, child in zip(sizes, seed.spawn(sizes.size)):
        rng = np.random.Generator(np.random.PCG64(child))
        d = int(size)
        level = np.tile(gauge_start, (d, 1))
        first = np.where(level == 0, 0, _NEVER)
        caused = np.zeros((d, n_g), dtype=np.int64)
        lost = np.zeros((d, n_c), dtype=np.int64)
        left = np.tile(budget, (d, 1))
        for t in range(n_t):
            r_t = int(day.sequence[t])
            types = np.full(d, r_t) if r_t >= 0 else rng.choice(n_types, size=d, p=weights)
            for r in np.unique(types):
                _play_type(day, int(r), np.nonzero(types == r)[0], t, rng, level, first,
                           caused, lost, left, out)  # fmt: skip
        for gi in range(n_g):
            out["first"][gi] += np.bincount(np.minimum(first[:, gi], n_t + 1), minlength=n_t + 2)
            out["caused"][gi] += np.bincount(
                np.minimum(caused[:, gi], n_bins - 1), minlength=n_bins
            )
            out["end"][gi] += np.bincount(level[:, gi], minlength=top + 1)
            out["sums"][gi] += (
                int(caused[:, gi].sum()),
                int((gauge_start[gi] - level[:, gi]).sum()),
            )
        for ci in range(n_c):
            out["lost"][ci] += np.bincount(np.minimum(lost[:, ci], n_bins - 1), minlength=n_bins)
            out["lost_sum"][ci] += int(lost[:, ci].sum())
    return out


def _per_day(day: CompiledDay, c: int) -> int:
    """Character ``c``'s rerolls on failure a day (a large number: no daily cap)."""
    reroll = day.scenario.characters[c].reroll
    if reroll is None or reroll.per_day is None:
        return 1 << 30
    return int(reroll.per_day)


def _play_type(
    day: CompiledDay,
    r: int,
    of_r: np.ndarray,
    t: int,
    rng: np.random.Generator,
    level: np.ndarray,
    first: np.ndarray,
    caused: np.ndarray,
    lost: np.ndarray,
    left: np.ndarray,
    out: dict[str, np.ndarray],
) -> None:
    """Roll type ``r`` on the days ``of_r`` at roll ``t``: both variants, the drain and the
    overflow into the owner's gauges (``level`` etc.: the chunk's state, by day)."""
    rt = day.roll_types[r]
    c = rt.owner
    gauges = slice(4 * c, 4 * c + 4)
    empty = level[of_r, 4 * c + rt.hindering] == 0 if rt.pc else np.zeros(of_r.size, bool)
    for e in (0, 1):
        rows = of_r[empty == bool(e)]
        if rows.size == 0:
            continue
        roll = rt.variants[e].roll
        total, drain, _, spent = play(rng, rows.size, roll, day.rules, may_reroll=left[rows, c] > 0)
        left[rows, c] -= spent
        ok = total >= rt.dc
        out["per_roll"][t] += (int(ok.sum()), int(drain.sum()))
        out["by_type"][r, e] += (rows.size, int(ok.sum()), int(drain.sum()), int((drain**2).sum()))
        if not rt.pc:  # an NPC has no gauges: its 1s are counted, they drain nothing
            continue
        caused[rows, 4 * c + rt.drained] += drain
        new, excess = pour(level[rows, gauges], rt.drained, drain, day.overflow)
        emptied = (new == 0) & (level[rows, gauges] > 0)
        first[rows, gauges] = np.where(emptied, t + 1, first[rows, gauges])
        level[rows, gauges] = new
        np.add.at(lost, (rows, c), excess)
