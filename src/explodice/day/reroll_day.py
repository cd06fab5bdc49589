"""The adventuring day with rerolls on failure, played die by die with numpy.

A character whose trait is ``Reroll("failure", per_day=N)`` spends up to N rerolls a day, one
on each failed roll until they run out (``per_day=None``: every failed roll may be rerolled
once). The numba day kernel reads each roll from a precomputed table and cannot replay one
die, so :func:`explodice.simulate_day` hands such a scenario to :func:`day_histograms`,
which plays every rule of the day (the drained gauge of ``rules.drain_gauge``, disadvantage
while the rolled ability's gauge is at 0, overflow, NPCs without gauges) on all the days of a
chunk at once, and fills the same histograms as the kernel.

Seeds: one stream spawned per chunk of ``chunk_days`` days, so the numbers depend on the
seed and the chunk size only.
"""

from __future__ import annotations

import numpy as np

from explodice.day.scenario import Scenario
from explodice.engine.reroll import play
from explodice.engine.seeding import chunk_sizes
from explodice.game.character import GAUGES
from explodice.game.rules import Rules

__all__ = ["day_histograms"]

_NEVER = 1 << 40


def _pour(
    level: np.ndarray, rows: np.ndarray, g: int, amount: np.ndarray, first: np.ndarray, t: int
) -> np.ndarray:
    """Take ``amount`` from gauge ``g`` of ``rows``; returns what it could not absorb."""
    got = np.minimum(amount, level[rows, g])
    level[rows, g] -= got
    first[rows, g] = np.minimum(first[rows, g], np.where(level[rows, g] > 0, _NEVER, t))
    return amount - got


def day_histograms(
    scenario: Scenario,
    rules: Rules,
    *,
    n_days: int,
    seed: np.random.SeedSequence,
    chunk_days: int,
    n_bins: int,
) -> dict[str, np.ndarray]:
    """The day's histograms (the kernel's accumulators, by name) over ``n_days`` days."""
    names = [c.name for c in scenario.characters]
    n_c, n_types, n_t = len(names), len(scenario.rolls), scenario.n_rolls
    n_g = 4 * n_c
    start = scenario.gauge_start()
    gauge_start = np.array([start[c][g] for c in names for g in GAUGES], dtype=np.int64)
    rolls = [[scenario.roll_of(r, gauge_empty=bool(e)) for e in (0, 1)] for r in range(n_types)]
    drained = np.full(n_types, n_g)  # the gauge drained; n_g: the scratch gauge of NPCs
    checked = np.full(n_types, n_g)  # the gauge whose 0 gives disadvantage
    owner = np.zeros(n_types, dtype=np.int64)
    for r, day_roll in enumerate(scenario.rolls):
        owner[r] = names.index(day_roll.character)
        if rolls[r][0].actor == "pc":
            drained[r] = 4 * owner[r] + GAUGES.index(day_roll.drain_gauge(rules))
            checked[r] = 4 * owner[r] + GAUGES.index(day_roll.gauge)
    budget = np.array(
        [
            (c.reroll.per_day if c.reroll is not None and c.reroll.per_day is not None else 1 << 30)
            for c in scenario.characters
        ],
        dtype=np.int64,
    )
    seq = scenario.sequence()
    weights = np.array([r.weight for r in scenario.rolls], dtype=float)
    weights /= weights.sum()
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
        level = np.empty((d, n_g + 1), dtype=np.int64)
        level[:, :n_g] = gauge_start
        level[:, n_g] = 1 << 50
        first = np.where(level == 0, 0, _NEVER)
        caused = np.zeros((d, n_g + 1), dtype=np.int64)
        lost = np.zeros((d, n_c), dtype=np.int64)
        left = np.tile(budget, (d, 1))
        for t in range(n_t):
            types = (
                np.full(d, seq[t]) if seq is not None else rng.choice(n_types, size=d, p=weights)
            )
            for r in np.unique(types):
                g, h, c = int(drained[r]), int(checked[r]), int(owner[r])
                of_r = np.nonzero(types == r)[0]
                empty = level[of_r, h] == 0
                for e in (0, 1):
                    rows = of_r[empty == bool(e)]
                    if rows.size == 0:
                        continue
                    roll = rolls[r][e]
                    total, drain, _, spent = play(
                        rng, rows.size, roll, rules, may_reroll=left[rows, c] > 0
                    )
                    left[rows, c] -= spent
                    ok = total >= scenario.rolls[r].dc
                    out["per_roll"][t] += (int(ok.sum()), int(drain.sum()))
                    out["by_type"][r, e] += (
                        rows.size,
                        int(ok.sum()),
                        int(drain.sum()),
                        int((drain * drain).sum()),
                    )
                    caused[rows, g] += drain
                    excess = _pour(level, rows, g, drain, first, t + 1)
                    if g < n_g and rules.overflow == "fullest":
                        for _ in range(4):  # the fullest non-empty gauge, then the next
                            mine = level[rows, 4 * c : 4 * c + 4]
                            pick = np.argmax(mine, axis=1)  # ties: the first, PA PM PF PH
                            room = (excess > 0) & (mine.max(axis=1) > 0)
                            if not room.any():
                                break
                            for j in range(4):
                                sel = room & (pick == j)
                                if sel.any():
                                    excess[sel] = _pour(
                                        level, rows[sel], 4 * c + j, excess[sel], first, t + 1
                                    )
                    if g < n_g:
                        np.add.at(lost, (rows, c), excess)
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
    out["sequence"] = np.asarray(seq if seq is not None else [-1] * n_t, dtype=np.int64)
    out["gauge_start"] = gauge_start
    return out
