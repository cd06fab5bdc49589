"""Numba kernels of the optimal day policy: the choice of k in every state. Arrays only.

After a roll that drains ``c`` exploding d6 the day is worth ``W[c - 1, i]`` from state ``i``
(``V[i]`` for c = 0: :meth:`explodice.day.chain.LevelChain.pull`). For each initial throw with
a choice (both a 1 and a 6) the player sets aside the ``k`` pairs that maximise the success's
weight plus the expected value of what is left; :func:`values` gives the roll's value in every
state (the backward pass: vectorised over states, the throws' choices in turn), :func:`decide`
also the choices, P(success) and the law of the draining 1s (the forward pass, the tables).

The throws of the two variants (the roll's hindering gauge with points, at 0) come as one
record, :class:`Choices`; the day's values after the roll as another, :class:`After`, and
:func:`decide`'s four outputs as a third, :class:`Decisions`. Ties go to the larger k, as
:class:`explodice.Best`'s.

>>> import numpy as np
>>> V = np.array([0.0, 1.0]); W = np.array([[0.0, 0.0]])  # one die empties a gauge of 1
>>> Q = np.zeros(2)
>>> none = Choices(np.array([0.5, 0.5]), np.array([[0.5, 0.5], [0.5, 0.5]]),
...                np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(1),
...                np.zeros(1, np.int64), np.zeros((1, 2)), np.zeros((1, 2, 2)))
>>> values(After(V, W, 1), 0, 1.0, none, Q, 1.0, 0, 2)
>>> Q.tolist()   # success 1/2, and from level 1 the day keeps its point with 1/2
[0.5, 1.0]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from explodice.day._vector import FASTMATH
from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py

_FAST = FASTMATH
BLOCK = 256


class Choices(NamedTuple):
    """A roll type's throws as the kernels read them: those without a choice summed in
    ``s0[v]`` (P(success)) and ``pi0[v, c]`` (P(c draining 1s)) for variant ``v``; the
    choice throws of variant ``v``, ``first[v] .. last[v] - 1``, each with its probability
    ``p[j]``, its most pairs ``kmax[j]``, and for ``k`` pairs set aside P(success)
    ``succ[j, k]`` and P(c draining 1s) ``ones[j, k, c]``."""

    s0: np.ndarray
    pi0: np.ndarray
    first: np.ndarray
    last: np.ndarray
    p: np.ndarray
    kmax: np.ndarray
    succ: np.ndarray
    ones: np.ndarray


class After(NamedTuple):
    """The day's value after the roll, in every state: ``V[i]`` when it drains nothing,
    ``W[c - 1, i]`` after ``c`` exploding d6 of drain (``c = 1 .. C``, ``C`` the most)."""

    V: np.ndarray
    W: np.ndarray
    C: int


class Decisions(NamedTuple):
    """What :func:`decide` writes in every state ``i``: the roll's value ``Q[i]``,
    P(success) ``s[i]``, P(c draining 1s) ``pi[i, c]`` and the choices ``key[i]``."""

    Q: np.ndarray
    s: np.ndarray
    pi: np.ndarray
    key: np.ndarray


@njit(cache=True, boundscheck=False, fastmath=_FAST, nogil=True)
def values(after, v, weight, throws, Q, share, lo, hi):
    """``Q[i] += share x`` the roll's value from state ``i`` under the best choices
    (``weight`` x P(success) plus the expected value left, ``after``: :class:`After`), every
    state playing variant ``v`` of ``throws`` (:class:`Choices`); states ``lo .. hi - 1``
    only (the GIL is released: two halves on two threads)."""
    V, W, C = after
    s0, pi0, first, last, p, kmax, succ, ones = throws
    n = hi
    best = np.empty(BLOCK)
    val = np.empty(BLOCK)
    acc = np.empty(BLOCK)
    base = weight * s0[v]
    for i0 in range(lo, n, BLOCK):
        nb = min(BLOCK, n - i0)
        q = acc
        v0 = V[i0 : i0 + nb]
        c0 = pi0[v, 0]
        for i in range(nb):
            q[i] = base + c0 * v0[i]
        for c in range(1, C + 1):
            pc = pi0[v, c]
            if pc != 0.0:
                w = W[c - 1, i0 : i0 + nb]
                for i in range(nb):
                    q[i] += pc * w[i]
        for j in range(first[v], last[v]):
            for k in range(kmax[j] + 1):
                a = weight * succ[j, k]
                o0 = ones[j, k, 0]
                for i in range(nb):
                    val[i] = a + o0 * v0[i]
                for c in range(1, C + 1):
                    oc = ones[j, k, c]
                    if oc != 0.0:
                        w = W[c - 1, i0 : i0 + nb]
                        for i in range(nb):
                            val[i] += oc * w[i]
                if k == 0:
                    for i in range(nb):
                        best[i] = val[i]
                else:
                    for i in range(nb):
                        best[i] = max(best[i], val[i])
            pj = p[j]
            for i in range(nb):
                q[i] += pj * best[i]
        out = Q[i0 : i0 + nb]
        for i in range(nb):
            out[i] += share * q[i]


@njit(cache=True)
def decide(after, variant, weight, throws, out):
    """The best choice in every state ``i`` (``variant[i]``: 0 the hindering gauge has
    points, 1 at 0) among ``throws`` (:class:`Choices`), the day's values after the roll
    ``after`` (:class:`After`). Writes into ``out`` (:class:`Decisions`) ``Q[i]`` (the roll's
    value), ``s[i]`` (P(success)), ``pi[i, c]`` (P(c draining 1s), ``c = 0 .. C``) and
    ``key[i]`` (the choices, in mixed radix over the choice throws, first throw most
    significant)."""
    V, W, C = after
    Q, s_out, pi_out, key_out = out
    s0, pi0, first, last, p, kmax, succ, ones = throws
    n_c = C + 1
    w = np.empty(n_c)
    pi = np.empty(n_c)
    for i in range(V.size):
        v = variant[i]
        w[0] = V[i]
        for c in range(1, n_c):
            w[c] = W[c - 1, i]
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
