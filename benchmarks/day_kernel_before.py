"""The day kernel as it was before issue 13's part 3 (main at 1ac4f23), kept for
`bench_day.py`'s side-by-side runs. Its original docstring follows.

Numba kernel of the adventuring day: many days of rolls draining gauges. Arrays in and out.

The dice come from :mod:`explodice.engine._kernels`, the same code as the single-roll kernel, so a
day's roll cannot disagree with :func:`explodice.simulate`: each roll is read from its throw
table (:func:`explodice.engine.compiled.throw_table`, the policy's choice already made) by
``table_roll_drain`` / ``table_roll``; only the lucky reroll, which comes between the throw and
the choice, goes face by face through ``one_roll`` and ``drain_of``.
:mod:`explodice.day.simulate` compiles a Scenario into the arrays below; nothing here validates.

Roll types ``r`` have two *variants* ``2 r`` (its gauge has points) and ``2 r + 1`` (its gauge
is at 0: one more disadvantage source, netted in Python when the tables were built). Each
variant carries its throw table (row ``throws[v_tab[v]]`` of 6**6 entries; variants with equal
tables share a row), its pool (index into the face tables) and policy table for the lucky
path (``t_lucky[r]``: the roll carries Reroll("one")), and its flags. Roll type ``r``
drains gauge ``t_gauge[r]`` and has disadvantage while gauge ``t_check[r]`` is at 0 (they differ for a skill rolled with another ability). Gauges are numbered ``4 c + j`` for character
``c`` and gauge ``j`` in PA, PM, PF, PH. A mix draws two roll types per 64-bit output, read
through ``mix_lut`` (type of each integer weight unit) when the weights total at most
:data:`MAX_LUT`, else by a search of the cumulative weights ``mix_cum``.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from explodice.engine._kernels import drain_of, one_roll, seed_state, table_roll_drain, uniform2

N_GAUGES = 4  # per character
MAX_LUT = 1 << 16  # largest integer weight total read through a lookup table
NEVER = 1 << 40  # first[g] of a gauge not yet at 0


@njit(inline="always", cache=True)
def _take(level, pts, g, amount, first, t):
    """Remove up to ``amount`` points from gauge ``g`` (and from its owner's total ``pts``);
    returns what it could not absorb.

    ``first[g]`` becomes ``t`` if the gauge is now at 0 and was not before (it holds
    :data:`NEVER` until then). No branch: whether a roll drains is a coin toss the CPU
    cannot predict.
    """
    got = min(amount, level[g])
    level[g] -= got
    pts[g // N_GAUGES] -= got
    first[g] = min(first[g], t + (level[g] > 0) * NEVER)
    return amount - got


@njit(inline="always", cache=True)
def _overflow(level, pts, g, excess, first, t):
    """Pour ``excess`` into the owner's fullest non-empty gauges (ties: lowest index)."""
    c0 = (g // N_GAUGES) * N_GAUGES
    while excess > 0:
        h = -1
        for j in range(c0, c0 + N_GAUGES):
            if level[j] > 0 and (h < 0 or level[j] > level[h]):
                h = j
        if h < 0:
            break
        excess = _take(level, pts, h, excess, first, t)
    return excess


@njit(inline="always", cache=True)
def _pick(u, mix_lut, mix_cum):
    """The roll type of weight unit ``u``."""
    if mix_lut.size > 0:
        return int64(mix_lut[u])
    r = 0
    while mix_cum[r] <= u:
        r += 1
    return r


@njit(inline="always", cache=True)
def _table_roll(st, v, drains, throws, v_tab, v_malus, v_expl):
    """Variant ``v`` read from its throw table: ``(dice total, drain, st)``.

    The drain is drawn whatever ``drains`` and then zeroed: cheaper than a branch on the type.
    """
    total, ones, drain, st = table_roll_drain(st, throws[v_tab[v]], v_malus[v], v_expl[v])
    return total, drain if drains else 0, st


@njit(cache=True, nogil=True)
def day_chunk(
    seed_row,
    size,
    out,
    throws,
    v_tab,
    n_faces,
    face_n1,
    face_n6,
    face_s,
    v_pool,
    k_tables,
    v_malus,
    v_rule,
    v_expl,
    t_lucky,
    t_gauge,
    t_check,
    t_drains,
    t_need,
    sequence,
    mix_cum,
    mix_lut,
    gauge_start,
    overflow_fullest,
    t_owner,
    t_policy,
    policy_var,
    c_strides,
):
    """Run ``size`` days on the stream ``seed_row`` (uint64[4]), adding into ``out`` (one lane's
    accumulators, see :func:`accumulators`). Releases the GIL: lanes run on Python threads.

    A state-dependent policy: roll type ``r`` with ``t_policy[r]`` plays, at roll ``t``, the
    extra variant ``2 n_types + policy_var[t, r, i]`` (when >= 0), ``i`` the flat index of
    its character's (``t_owner[r]``) levels by ``c_strides``."""
    st = seed_state(seed_row)
    first_h, roll_h, type_h, caused_h, end_h, lost_h, sums_h, lost_sum_h = out
    n_rolls = sequence.size
    n_g = gauge_start.size
    n_c = n_g // N_GAUGES
    n_bins = caused_h.shape[1]
    w_total = mix_cum[-1]
    # one more gauge, index n_g: the scratch gauge of the rolls of NPCs, never empty
    level = np.empty(n_g + 1, dtype=np.int64)
    first = np.empty(n_g + 1, dtype=np.int64)
    caused = np.empty(n_g + 1, dtype=np.int64)
    lost = np.empty(n_c + 1, dtype=np.int64)  # by character (and the scratch's, always 0)
    pts = np.empty(n_c + 1, dtype=np.int64)  # points left to each character (and the scratch)
    level[n_g] = 1 << 62
    first[n_g] = NEVER
    pts[n_c] = 1 << 62
    for _ in range(size):
        for g in range(n_g):
            level[g] = gauge_start[g]
            first[g] = 0 if level[g] == 0 else NEVER
        for c in range(n_c):
            pts[c] = level[N_GAUGES * c : N_GAUGES * c + N_GAUGES].sum()
        caused[:] = 0
        lost[:] = 0
        u_next = -1  # the second roll type of the last pair drawn for a mix
        for t in range(n_rolls):
            r = sequence[t]
            if r < 0:  # drawn from the mix by integer weight, two per 64-bit output
                if u_next >= 0:
                    u, u_next = u_next, -1
                else:
                    u, u_next, st = uniform2(w_total, w_total, st)
                r = _pick(u, mix_lut, mix_cum)
            g = t_gauge[r]  # the gauge drained (rules.drain_gauge) ...
            h = t_check[r]  # ... and the one whose 0 gives disadvantage (the rolled ability's)
            drains = t_drains[r]
            w = -1
            if t_policy[r]:
                c = t_owner[r]
                i = 0
                for j in range(N_GAUGES):
                    i += level[N_GAUGES * c + j] * c_strides[c, j]
                w = policy_var[t, r, i]
            if t_lucky[r]:  # Reroll("one") comes between the throw and the choice: face by face
                empty = 1 if level[h] == 0 else 0
                v = 2 * r + empty if w < 0 else 2 * t_gauge.size + w
                p = v_pool[v]
                total, ones, st = one_roll(
                    st,
                    n_faces[p],
                    face_n1[p],
                    face_n6[p],
                    face_s[p],
                    k_tables[v],
                    v_malus[v],
                    True,
                    v_rule[v],
                    v_expl[v],
                )
                drain = 0
                if drains:
                    drain, st = drain_of(ones, st)
            # A branch, not a select: the CPU predicts it (a gauge stays full, then empty) and
            # starts the next roll before this one's drain is known.
            elif w >= 0:
                empty = 1 if level[h] == 0 else 0
                total, drain, st = _table_roll(
                    st, 2 * t_gauge.size + w, drains, throws, v_tab, v_malus, v_expl
                )
            elif level[h] > 0:
                empty = 0
                total, drain, st = _table_roll(st, 2 * r, drains, throws, v_tab, v_malus, v_expl)
            else:
                empty = 1
                total, drain, st = _table_roll(
                    st, 2 * r + 1, drains, throws, v_tab, v_malus, v_expl
                )
            ok = 1 if total >= t_need[r] else 0
            roll_h[t, 0] += ok
            roll_h[t, 1] += drain
            type_h[r, empty, 0] += 1
            type_h[r, empty, 1] += ok
            type_h[r, empty, 2] += drain
            type_h[r, empty, 3] += drain * drain
            caused[g] += drain
            excess = _take(level, pts, g, drain, first, t + 1)
            # tested in this order, the branch is predictable until some gauge is at 0
            if pts[g // N_GAUGES] > 0 and excess > 0 and overflow_fullest:
                excess = _overflow(level, pts, g, excess, first, t + 1)
            lost[g // N_GAUGES] += excess
        for g in range(n_g):
            first_h[g, min(first[g], n_rolls + 1)] += 1
            caused_h[g, min(caused[g], n_bins - 1)] += 1
            end_h[g, level[g]] += 1
            sums_h[g, 0] += caused[g]
            sums_h[g, 1] += gauge_start[g] - level[g]
        for c in range(n_c):
            lost_h[c, min(lost[c], n_bins - 1)] += 1
            lost_sum_h[c] += lost[c]


def accumulators(n_g: int, n_rolls: int, n_types: int, n_bins: int, top: int) -> tuple:
    """One lane's zeroed accumulators for :func:`day_chunk`; lanes are added at the end.

    - ``first[g, i]``: days where gauge ``g`` first reached 0 after roll ``i`` (0: at the start;
      ``T + 1``: never);
    - ``per_roll[t, 0..1]``: successes and summed drain of roll ``t``;
    - ``by_type[r, e, 0..3]``: rolls, successes, summed drain, summed squared drain of roll
      type ``r`` with its gauge non-empty (``e = 0``) or empty (``e = 1``);
    - ``caused[g, b]``: days by drain caused on gauge ``g`` (clamped to ``n_bins - 1``);
    - ``end[g, level]``: days by the gauge's level at the end of the day (``top`` its maximum);
    - ``lost[c, b]``: days by points lost by character ``c`` (clamped);
    - ``sums[g, 0..1]``: exact totals of points caused and absorbed by gauge ``g``;
      ``lost_sum[c]``: exact total of points character ``c`` lost.
    """
    n_c = n_g // N_GAUGES
    shapes = [
        (n_g, n_rolls + 2),
        (n_rolls, 2),
        (n_types, 2, 4),
        (n_g, n_bins),
        (n_g, top + 1),
        (n_c, n_bins),
        (n_g, 2),
        (n_c,),
    ]
    return tuple(np.zeros(shape, dtype=np.int64) for shape in shapes)
