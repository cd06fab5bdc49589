"""Numba kernel of the adventuring day: many days of rolls draining gauges. Arrays in and out.

The dice come from :mod:`explodice._kernels` (``one_roll``, ``drain_of``, ``uniform``), the same
code as the single-roll kernel, so a day's roll cannot disagree with :func:`explodice.simulate`.
:mod:`explodice.day` compiles a Scenario into the arrays below; nothing here validates.

Roll types ``r`` have two *variants* ``2 r`` (its gauge has points) and ``2 r + 1`` (its gauge
is at 0: one more disadvantage source, netted in Python when the tables were built). Each
variant carries its pool (index into the face tables), policy table and flags. Gauges are
numbered ``4 c + j`` for character ``c`` and gauge ``j`` in PA, PM, PF, PH.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._kernels import drain_of, one_roll, seed_state, uniform

N_GAUGES = 4  # per character


@njit(inline="always", cache=True)
def _take(level, g, amount, first, t):
    """Remove up to ``amount`` points from gauge ``g``; returns what it could not absorb."""
    got = min(amount, level[g])
    level[g] -= got
    if level[g] == 0 and first[g] < 0:
        first[g] = t
    return amount - got


@njit(inline="always", cache=True)
def _overflow(level, g, excess, first, t):
    """Pour ``excess`` into the owner's fullest non-empty gauges (ties: lowest index)."""
    c0 = (g // N_GAUGES) * N_GAUGES
    while excess > 0:
        h = -1
        for j in range(c0, c0 + N_GAUGES):
            if level[j] > 0 and (h < 0 or level[j] > level[h]):
                h = j
        if h < 0:
            break
        excess = _take(level, h, excess, first, t)
    return excess


@njit(cache=True)
def day_chunk(st, size, out, n_faces, face_n1, face_n6, face_s, v_pool, k_tables, v_malus,
              v_rule, v_expl, lucky, t_gauge, t_drains, t_need, sequence, mix_cum, gauge_start,
              overflow_fullest):
    """Run ``size`` days from state ``st``, adding into ``out`` (one thread's arrays)."""
    first_h, succ_h, drain_h, type_h, caused_h, end_h, lost_h, sums_h, lost_sum_h = out
    n_rolls = sequence.size
    n_g = gauge_start.size
    n_c = n_g // N_GAUGES
    n_bins = caused_h.shape[1]
    level = np.empty(n_g, dtype=np.int64)
    first = np.empty(n_g, dtype=np.int64)
    caused = np.empty(n_g, dtype=np.int64)
    lost = np.empty(n_c, dtype=np.int64)
    for _ in range(size):
        for g in range(n_g):
            level[g] = gauge_start[g]
            first[g] = 0 if level[g] == 0 else -1
        caused[:] = 0
        lost[:] = 0
        for t in range(n_rolls):
            r = sequence[t]
            if r < 0:  # drawn from the mix by integer weight
                u, st = uniform(mix_cum[-1], st)
                r = 0
                while mix_cum[r] <= u:
                    r += 1
            g = t_gauge[r]
            empty = 1 if g >= 0 and level[g] == 0 else 0
            v = 2 * r + empty
            p = v_pool[v]
            total, ones, st = one_roll(st, n_faces[p], face_n1[p], face_n6[p], face_s[p],
                                       k_tables[v], v_malus[v], lucky, v_rule[v], v_expl[v])
            drain = 0
            if t_drains[r]:
                drain, st = drain_of(ones, st)
            ok = 1 if total >= t_need[r] else 0
            succ_h[t] += ok
            drain_h[t] += drain
            type_h[r, empty, 0] += 1
            type_h[r, empty, 1] += ok
            type_h[r, empty, 2] += drain
            type_h[r, empty, 3] += drain * drain
            if drain > 0:
                caused[g] += drain
                excess = _take(level, g, drain, first, t + 1)
                if excess > 0 and overflow_fullest:
                    excess = _overflow(level, g, excess, first, t + 1)
                lost[g // N_GAUGES] += excess
        for g in range(n_g):
            f = first[g] if first[g] >= 0 else n_rolls + 1
            first_h[g, f] += 1
            caused_h[g, min(caused[g], n_bins - 1)] += 1
            end_h[g, level[g]] += 1
            sums_h[g, 0] += caused[g]
            sums_h[g, 1] += gauge_start[g] - level[g]
        for c in range(n_c):
            lost_h[c, min(lost[c], n_bins - 1)] += 1
            lost_sum_h[c] += lost[c]


@njit(parallel=True, cache=True)
def day_histograms(seeds, sizes, n_threads,
                   n_faces, face_n1, face_n6, face_s,
                   v_pool, k_tables, v_malus, v_rule, v_expl, lucky,
                   t_gauge, t_drains, t_need,
                   sequence, mix_cum, gauge_start, overflow_fullest, n_bins):
    """Histograms of ``sizes.sum()`` days; chunk ``c`` runs ``sizes[c]`` days on stream ``seeds[c]``.

    Returns, summed over the private per-thread arrays (so independent of ``n_threads``):

    - ``first[g, i]``: days where gauge ``g`` first reached 0 after roll ``i`` (0: at the start;
      ``T + 1``: never);
    - ``succ_t[t]``, ``drain_t[t]``: successes and summed drain of roll ``t``;
    - ``by_type[r, e, 0..3]``: rolls, successes, summed drain, summed squared drain of roll
      type ``r`` with its gauge non-empty (``e = 0``) or empty (``e = 1``);
    - ``caused[g, b]``: days by drain caused on gauge ``g`` (clamped to ``n_bins - 1``);
    - ``end[g, level]``: days by the gauge's level at the end of the day;
    - ``lost[c, b]``: days by points lost by character ``c`` (clamped);
    - ``sums[g, 0..1]``: exact totals of points caused and absorbed by gauge ``g``;
      ``lost_sum[c]``: exact total of points character ``c`` lost.
    """
    n_chunks = sizes.size
    n_rolls = sequence.size
    n_g = gauge_start.size
    n_c = n_g // N_GAUGES
    n_types = t_gauge.size
    top = 0
    for g in range(n_g):
        top = max(top, gauge_start[g])
    first_h = np.zeros((n_threads, n_g, n_rolls + 2), dtype=np.int64)
    succ_h = np.zeros((n_threads, n_rolls), dtype=np.int64)
    drain_h = np.zeros((n_threads, n_rolls), dtype=np.int64)
    type_h = np.zeros((n_threads, n_types, 2, 4), dtype=np.int64)
    caused_h = np.zeros((n_threads, n_g, n_bins), dtype=np.int64)
    end_h = np.zeros((n_threads, n_g, top + 1), dtype=np.int64)
    lost_h = np.zeros((n_threads, n_c, n_bins), dtype=np.int64)
    sums_h = np.zeros((n_threads, n_g, 2), dtype=np.int64)
    lost_sum_h = np.zeros((n_threads, n_c), dtype=np.int64)
    for th in prange(n_threads):
        # private arrays, allocated by their thread (no false sharing of cache lines)
        out = (np.zeros_like(first_h[th]), np.zeros_like(succ_h[th]), np.zeros_like(drain_h[th]),
               np.zeros_like(type_h[th]), np.zeros_like(caused_h[th]), np.zeros_like(end_h[th]),
               np.zeros_like(lost_h[th]), np.zeros_like(sums_h[th]),
               np.zeros_like(lost_sum_h[th]))
        for c in range(th, n_chunks, n_threads):
            day_chunk(seed_state(seeds[c]), sizes[c], out, n_faces, face_n1, face_n6, face_s,
                      v_pool, k_tables, v_malus, v_rule, v_expl, lucky, t_gauge, t_drains,
                      t_need, sequence, mix_cum, gauge_start, overflow_fullest)
        first_h[th], succ_h[th], drain_h[th] = out[0], out[1], out[2]
        type_h[th], caused_h[th], end_h[th] = out[3], out[4], out[5]
        lost_h[th], sums_h[th], lost_sum_h[th] = out[6], out[7], out[8]
    return (first_h.sum(axis=0), succ_h.sum(axis=0), drain_h.sum(axis=0), type_h.sum(axis=0),
            caused_h.sum(axis=0), end_h.sum(axis=0), lost_h.sum(axis=0), sums_h.sum(axis=0),
            lost_sum_h.sum(axis=0))
