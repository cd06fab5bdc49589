"""Numba kernels of the optimal day policy: backward steps and the choice of k. Arrays only.

The layout is the exact day's (:mod:`explodice.day._exact_kernel`): a character's levels
flat in C order, a roll of gauge ``g`` read as columns of ``m1`` levels at ``stride`` from
``base[o]``. :func:`pull` is the adjoint of one roll under a single drain law (the
expected value of ``V`` after the roll); :func:`decide` picks, in every state and for every
initial throw, the number of pairs set aside that maximises the success's weight plus the
expected value of what is left.

>>> import numpy as np
>>> V = np.array([0.0, 1.0]); W = np.zeros(2)
>>> q = np.array([0.5, 0.5, 0.0]); t0 = np.array([1.0, 0.5, 0.0])
>>> pull(V, W, np.zeros(1, np.int64), 1, 2, q, t0, np.zeros((1, 0), np.int64),
...      np.zeros(1, np.int64), False)
>>> W.tolist()   # from level 1: stay with 1/2 (worth 1), or empty (worth 0)
[0.0, 0.5]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py


@njit(cache=True)
def pull(V, W, base, stride, m1, q, t0, dest, others, pour):
    """``W[i]`` = E[``V`` after one roll of the gauge from state ``i``], drain law ``q``
    (``t0[j]`` = P(d >= j); ``q`` holds at least ``m1 + top + 1`` entries). Overflow as in
    :func:`explodice.day._exact_kernel.move`."""
    col = np.empty(m1)
    poured = np.empty(dest.shape[1] + 1)
    for o in range(base.size):
        b = base[o]
        so = others[o] if pour else 0
        for lv in range(m1):
            col[lv] = V[b + lv * stride]
        for x in range(1, so):
            poured[x] = V[base[dest[o, x - 1]]]
        target = V[0] if pour else col[0]
        for lv in range(m1):
            acc = 0.0
            for d in range(lv + 1):
                acc += q[d] * col[lv - d]
            for x in range(1, so):
                acc += q[lv + x] * poured[x]
            acc += t0[lv + max(so, 1)] * target
            W[b + lv * stride] = acc


@njit(cache=True)
def decide(
    W, variant, weight, s0, pi0, first, last, p, kmax, succ, ones, Q, s_out, pi_out, key_out
):
    """The best choice in every state ``i`` (columns of ``W[c, i]``: the value left after a
    roll with ``c`` draining 1s).

    ``variant[i]`` (0: the roll's gauge has points, 1: at 0) selects the throws: those with
    no choice are summed in ``s0[v]`` (P(success)) and ``pi0[v, c]``; the choice throws of
    variant ``v`` are ``first[v] .. last[v] - 1`` of ``p``, ``kmax``, ``succ[j, k]`` and
    ``ones[j, k, c]``. Writes ``Q[i]`` (the roll's value: ``weight`` x P(success) plus what
    is left), ``s_out[i]`` (P(success)), ``pi_out[i, c]`` (P(c draining 1s)) and ``key_out[i]``
    (the choices, in mixed radix over the choice throws, first throw most significant).
    Ties go to the larger k, as :class:`explodice.Best`'s.
    """
    n_c = W.shape[0]
    w = np.empty(n_c)
    pi = np.empty(n_c)
    for i in range(W.shape[1]):
        v = variant[i]
        for c in range(n_c):
            w[c] = W[c, i]
        total = weight * s0[v]
        s = s0[v]
        for c in range(n_c):
            total += pi0[v, c] * w[c]
            pi[c] = pi0[v, c]
        key = 0
        for j in range(first[v], last[v]):
            best_k = 0
            best = -1e300
            for k in range(kmax[j] + 1):
                val = weight * succ[j, k]
                for c in range(n_c):
                    val += ones[j, k, c] * w[c]
                if val >= best - 1e-12:
                    best_k = k
                    best = max(val, best)
            key = key * (kmax[j] + 1) + best_k
            pj = p[j]
            total += pj * (weight * succ[j, best_k])
            s += pj * succ[j, best_k]
            for c in range(n_c):
                o = pj * ones[j, best_k, c]
                total += o * w[c]
                pi[c] += o
        Q[i] = total
        s_out[i] = s
        key_out[i] = key
        for c in range(n_c):
            pi_out[i, c] = pi[c]
