"""The chain's Horner schemes in plain numba loops: the specification of the vector sweeps of
:mod:`explodice.day._vector`, and their fallback (``EXPLODICE_KERNELS=plain``,
:mod:`explodice.day._horner`).

The same arguments, the same checks and the same results to rounding as
:func:`~explodice.day._vector.horner_columns` and :func:`~explodice.day._vector.horner_stage`,
written as the scheme reads (:mod:`explodice.day._vector`): from the top level down, for each
step ``c`` from the most dice down,

    (R a_{c+1})(j) = (a_{c+1}(j+1) + ... + a_{c+1}(j+5) + (R a_{c+1})(j+6)) / 6,
    a_c(j) = y_c(j) + (R a_{c+1})(j),        a_C(j) = y_C(j),

each step's last six levels of ``a`` and of ``R a`` in rings indexed by ``j mod 6`` (level
``j + 6``'s slot is level ``j``'s), the inner loops over the columns of a tile (or the planes
of a class), which numba turns into vector code of the CPU's width by itself.

>>> import numpy as np
>>> x = np.zeros(8 * 9); x[8 * 6] = 1.0          # 9 levels, 8 columns: all at level 6
>>> coef = np.zeros((2, 8)); coef[1] = 1.0       # exactly one die
>>> a = np.zeros(8 * 9)
>>> horner_columns(x, 0, 8, 9, coef, a, 8, a, 0, 8, 9, False, 8, 1)
>>> [round(6 * float(v), 12) for v in a[0:48:8]]   # levels 0-5: a 1-5 from 6 (1/6 each), not a 6
[0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from explodice.day._vector import FASTMATH, SIDES, SIXTH, check_columns, check_stage

__all__ = ["horner_columns", "horner_stage"]

_FAST = FASTMATH
_SIXTH = SIXTH
_RING = SIDES  # levels j + 1 .. j + 6 in slots (j + i) % 6


@njit(inline="always", boundscheck=False, fastmath=_FAST)
def _level(ring_a, ring_r, y, C, j, n):
    """Level ``j`` of every step for ``n`` columns: ``y[c, :n]`` the level's sources of step
    ``c``, the rings holding the levels above (``ring_a[c]``: ``a_c``, ``ring_r[c]``: ``R
    a_{c+1}``); returns ``a_0`` at level ``j`` in ``y[0]`` and moves the rings down."""
    s = j % _RING
    for b in range(n):
        ring_a[C, s, b] = y[C, b]  # a_C = y_C
    for c in range(C - 1, -1, -1):
        up = ring_a[c + 1]
        rr = ring_r[c]
        for b in range(n):
            box = 0.0
            for i in range(1, _RING):
                box += up[(j + i) % _RING, b]
            r = (box + rr[s, b]) * _SIXTH  # rr[s]: R a_{c+1} at level j + 6
            rr[s, b] = r
            ring_a[c, s, b] = y[c, b] + r


@njit(inline="always", boundscheck=False, fastmath=_FAST)
def horner_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, overwrite, nb, C):
    """:func:`explodice.day._vector.horner_columns` in plain loops (its documentation holds)."""
    check_columns(src, s0, step, m, coef, dst, dstep, out, o0, ostep, rows_a, nb, C)
    ring_a = np.zeros((C + 1, _RING, nb))
    ring_r = np.zeros((C + 1, _RING, nb))
    y = np.zeros((C + 1, nb))
    for level in range(m):
        j = m - 1 - level
        at = s0 + j * step
        for c in range(C + 1):
            for b in range(nb):
                y[c, b] = coef[c, b] * src[at + b]
        _level(ring_a, ring_r, y, C, j, nb)
        a0 = ring_a[0, j % _RING]
        if j < rows_a:
            for b in range(nb):
                dst[j * dstep + b] = a0[b]
        elif overwrite:
            for b in range(nb):
                out[o0 + j * ostep + b] = a0[b]
        else:
            for b in range(nb):
                out[o0 + j * ostep + b] += a0[b]


@njit(inline="always", boundscheck=False, fastmath=_FAST)
def horner_stage(F, Z, K, X, zl1, pis, Phi, C):
    """:func:`explodice.day._vector.horner_stage` in plain loops (its documentation holds)."""
    check_stage(F, Z, K, X, zl1, pis, Phi, C)
    ring_a = np.zeros((C + 1, _RING, K))
    ring_r = np.zeros((C + 1, _RING, K))
    y = np.zeros((C + 1, K))
    rows = X + Z
    for level in range(rows):
        row = rows - 1 - level
        z = row - X
        for c in range(C + 1):
            for k in range(K):
                y[c, k] = 0.0
            if z >= 0:  # the sources, at z >= 0; law 1's below zl1 only
                for k in range(K):
                    y[c, k] = pis[0, c] * F[z * K + k]
                if z < zl1:
                    for k in range(K):
                        y[c, k] += pis[1, c] * F[(Z + z) * K + k]
        _level(ring_a, ring_r, y, C, row, K)
        a0 = ring_a[0, row % _RING]
        for k in range(K):
            Phi[row * K + k] = a0[k]
