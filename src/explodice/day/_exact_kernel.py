"""Numba kernel of the exact day: one roll moves a character's level probabilities. Arrays only.

The levels of one character's gauges are a flat C-order array ``P`` (see
:mod:`explodice.day.exact`). A roll of gauge ``g`` reads, for each combination ``o`` of the
other gauges' levels (flat offset ``base[o]``), the ``m1`` levels of ``g`` at stride
``stride``. State ``i``'s drain law is row ``law[i]`` of ``qs`` (a gauge with points and a
gauge at 0 have different laws; a state-dependent policy has one law per choice table), with
its tails ``t0[j] = P(d >= j)`` and ``t1[j] = E[d; d >= j]``. Excess past 0 is poured through
``dest``/``lost_amt`` (``pour``), or lost.

>>> import numpy as np
>>> P = np.array([0.0, 1.0]); out = np.zeros(2); mass = np.zeros(2)
>>> qs = np.array([[0.5, 0.5, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
>>> t0 = np.cumsum(qs[:, ::-1], axis=1)[:, ::-1].copy()
>>> t1 = np.cumsum((qs * np.arange(4))[:, ::-1], axis=1)[:, ::-1].copy()
>>> lost = move(P, out, np.zeros(1, np.int64), 1, 2, np.array([1, 0]), qs, t0, t1,
...             np.zeros((1, 0), np.int64), np.zeros((1, 0)), np.zeros(1, np.int64), 0,
...             False, 1.0, mass)
>>> out.tolist(), lost, mass.tolist()
([0.5, 0.5], 0.0, [1.0, 0.0])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py


@njit(cache=True)
def move(
    P, out, base, stride, m1, law, qs, t0, t1, dest, lost_amt, others, top, pour, weight, mass
):
    """Add ``weight`` times the array after one roll of the gauge into ``out``; add each
    law's probability (before the roll, times ``weight``) into ``mass``; return the expected
    points lost (times ``weight``).

    ``pour``: an excess ``x`` below the others' points ``others[o]`` goes through
    ``dest[o, x - 1]`` (index of the others' new levels) and ``lost_amt[o, x - 1]``; more
    empties every gauge (flat index 0). Otherwise the excess is lost. ``qs`` rows hold at
    least ``m1 + top + 1`` entries (``top``: the others' largest total).
    """
    lost = 0.0
    # the state where every gauge is at 0 gathers most of the late mass: its additions are
    # summed apart, compensated (Neumaier), so rounding does not pass for lost probability
    zero, zero_c = 0.0, 0.0
    e = np.zeros(top + 1)
    col = np.empty(m1)  # this column's probabilities, gathered once
    acc = np.empty(m1)  # what the roll leaves at each level of the column
    for o in range(base.size):
        b = base[o]
        # drains past the others' points empty them all (into flat index 0), or, without a
        # pour, leave this gauge at 0 (index b): that lump, and its points lost
        so = others[o] if pour else 0
        lump = 0.0
        for x in range(so):
            e[x] = 0.0
        for lv in range(m1):
            col[lv] = P[b + lv * stride]
            acc[lv] = 0.0
        for lv in range(m1):
            p = col[lv]
            if p == 0.0:
                continue
            p *= weight
            k = law[b + lv * stride]
            mass[k] += p
            for d in range(lv + 1):
                acc[lv - d] += p * qs[k, d]
            for x in range(1, so):
                e[x] += p * qs[k, lv + x]
            j = lv + max(so, 1)
            lump += p * t0[k, j]
            lost += p * (t1[k, j] - (lv + so) * t0[k, j])
        for lv in range(m1):
            out[b + lv * stride] += acc[lv]
        for x in range(1, so):
            to = base[dest[o, x - 1]]
            if to == 0:
                zero, zero_c = _add(zero, zero_c, e[x])
            else:
                out[to] += e[x]
            lost += e[x] * lost_amt[o, x - 1]
        if pour:
            zero, zero_c = _add(zero, zero_c, lump)
        else:
            out[b] += lump
    out[0] += zero + zero_c
    return lost


@njit(inline="always", cache=True)
def _add(s, c, x):
    """Neumaier's compensated sum: ``(s, c)`` plus ``x``."""
    t = s + x
    if abs(s) >= abs(x):
        c += (s - t) + x
    else:
        c += (x - t) + s
    return t, c


@njit(cache=True)
def marginals(P, sizes):
    """P(level = l) for each of the four gauges: ``out[g, l]`` (levels up to the largest)."""
    n0, n1, n2, n3 = sizes[0], sizes[1], sizes[2], sizes[3]
    out = np.zeros((4, max(n0, n1, n2, n3)))
    i = 0
    for a in range(n0):
        for b in range(n1):
            for c in range(n2):
                for d in range(n3):
                    p = P[i]
                    out[0, a] += p
                    out[1, b] += p
                    out[2, c] += p
                    out[3, d] += p
                    i += 1
    return out


@njit(cache=True)
def move_sum(
    P,
    out,
    n_bins,
    level,
    o_of,
    base,
    stride,
    law,
    qs,
    t0,
    t1,
    dest,
    lost_amt,
    others,
    pour,
    track,
    weight,
    mass,
):
    """:func:`move` for a chain whose state also holds a running sum ``S`` (``0 .. n_bins -
    1``, the last meaning "that many or more"): ``P[i * n_bins + S]``. ``track`` 1 adds each
    roll's drain to ``S``, 2 the points it loses, 0 nothing. State ``i`` is at level
    ``level[i]`` of the gauge, the others at ``o_of[i]`` (offset ``base[o]``). ``qs``, ``t0``
    and ``t1`` rows hold at least ``n_bins`` + the character's points + 2 entries: every drain
    past the row's last entries lands in one cell, read from the tails. Returns the expected
    points lost (times ``weight``)."""
    lost = 0.0
    top = n_bins - 1
    for i in range(level.size):
        lv = level[i]
        o = o_of[i]
        b = base[o]
        k = law[i]
        so = others[o] if pour else 0
        far = 0 if pour else b  # where a drain past every point leaves the character
        past = lv + max(so, 1) if pour else lv + 1  # from here every drain goes to ``far``
        for S in range(n_bins):
            p = P[i * n_bins + S]
            if p == 0.0:
                continue
            p *= weight
            mass[k] += p
            # from ``end`` on, every drain lands in one cell: (far, S) untracked, or (far,
            # the last sum) once the sum is clamped; that lump is read from the tails
            end = past
            if track == 1:
                end = max(past, top - S)
            elif track == 2:
                end = max(past, lv + so + top - S)
            for d in range(end):
                q = qs[k, d]
                if q == 0.0:
                    continue
                if d <= lv:
                    j, gone = b + (lv - d) * stride, 0
                else:
                    x = d - lv
                    if x < so:
                        j, gone = base[dest[o, x - 1]], lost_amt[o, x - 1]
                    else:
                        j, gone = far, x - so
                inc = d if track == 1 else (gone if track == 2 else 0)
                out[j * n_bins + min(S + inc, top)] += p * q
                lost += p * q * gone
            tail = t0[k, end]
            if tail > 0.0:
                out[far * n_bins + (top if track else S)] += p * tail
                lost += p * (t1[k, end] - (lv + so) * tail)
    return lost
