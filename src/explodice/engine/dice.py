"""Exact building blocks: the exploding die, the initial throw and their PMFs.

A PMF here is a pair ``(p, lo)``: a float array ``p`` where ``p[i]`` is the probability of the
value ``lo + i``. Explosion is infinite; every die is cut after :data:`MAX_EXPLOSIONS`
explosions, which leaves out (1/6)**(MAX_EXPLOSIONS + 1) < 1e-13 per die. A roll uses at most
nine exploding dice (four chains, one malus die, four drain dice), so the mass a roll omits
stays below 1e-12; the exact engine measures and reports it.

>>> p, lo = exploding_die()
>>> round(float((p * (lo + np.arange(p.size))).sum()), 9)
4.2
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from explodice.game.rules import MalusDie

__all__ = [
    "MAX_EXPLOSIONS",
    "EXPLODING_DIE_MEAN",
    "P_CHAIN_ENDS_IN_ONE",
    "chains",
    "exploding_die",
    "exploding_sum",
    "face_sequences",
    "initial_states",
    "malus_pmf",
    "plain_die",
    "throw_counts",
]

MAX_EXPLOSIONS = 16
EXPLODING_DIE_MEAN = 4.2  # 6/5 * 3.5: E[faces] times the expected number of faces
P_CHAIN_ENDS_IN_ONE = 0.2  # the last face of a chain is uniform on 1..5

Pmf = tuple[np.ndarray, int]


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@cache
def exploding_die() -> Pmf:
    """PMF of one exploding d6: P(6k + r) = (1/6)**(k + 1), r in 1..5, k <= MAX_EXPLOSIONS."""
    p = np.zeros(6 * (MAX_EXPLOSIONS + 1))
    for k in range(MAX_EXPLOSIONS + 1):
        p[6 * k + 1 : 6 * k + 6] = (1 / 6) ** (k + 1)
    return _frozen(p), 0


@cache
def plain_die() -> Pmf:
    """PMF of one plain d6: 1..6, 1/6 each (``p[0] = 0``)."""
    p = np.full(7, 1 / 6)
    p[0] = 0.0
    return _frozen(p), 0


def malus_pmf(kind: MalusDie) -> Pmf:
    """PMF of the malus die that ``disadvantage="subtract"`` subtracts (``Rules.malus_die``):
    an ``"exploding"`` d6 like every die of the game, or a ``"plain"`` d6 (1..6).

    >>> p, lo = malus_pmf("plain")
    >>> lo, p.size, round(float(p.sum()), 12)
    (0, 7, 1.0)
    """
    if kind == "exploding":
        return exploding_die()
    if kind == "plain":
        return plain_die()
    raise ValueError(f"unknown malus die {kind!r}")  # pragma: no cover - checked by Rules


@cache
def exploding_sum(n: int) -> Pmf:
    """PMF of the sum of ``n`` independent exploding d6 (a point mass at 0 for n = 0)."""
    if n == 0:
        return _frozen(np.ones(1)), 0
    p, _ = exploding_die()
    out = np.ones(1)
    for _ in range(n):
        out = np.convolve(out, p)
    return _frozen(out), 0


@cache
def chains(b: int, count_ones: bool) -> np.ndarray:
    """Joint PMF of ``b`` explosion chains started by kept 6s.

    A kept 6 adds one exploding die: the chain is worth 6 + X. Returns ``q[e, v]``: the
    probability that the ``b`` chains add ``v`` to the total and that ``e`` of them end on a 1
    (the only face of a chain that can be a 1 is its last). With ``count_ones=False`` the
    ones are not tracked and ``e`` is always 0.
    """
    x, _ = exploding_die()
    single = np.zeros((2, 6 + x.size))
    single[0, 6:] = x
    if count_ones:
        ends_in_one = np.zeros_like(x)
        ends_in_one[1::6] = x[1::6]
        single[0, 6:] -= ends_in_one
        single[1, 6:] = ends_in_one
    out = np.zeros((b + 1, 1))
    out[0, 0] = 1.0
    for _ in range(b):
        nxt = np.zeros((b + 1, out.shape[1] + single.shape[1] - 1))
        for e in range(b + 1):
            if not out[e].any():
                continue
            for f in range(2):
                if e + f <= b and single[f].any():
                    nxt[e + f] += np.convolve(out[e], single[f])
        out = nxt
    return _frozen(out)


@cache
def initial_states(pool: int, lucky: bool) -> dict[tuple[int, int, int], float]:
    """Distribution of the initial throw's state ``(n1, n6, s)`` by enumeration.

    ``n1`` and ``n6`` count the 1s and 6s of the ``pool`` dice, ``s`` sums the other faces.
    With ``lucky``, one die showing 1 (if any) is rerolled once and its new face replaces it.

    >>> round(initial_states(3, False)[(0, 0, 6)] * 216, 12)  # only (2, 2, 2)
    1.0
    """
    states: dict[tuple[int, int, int], float] = {}

    def add(faces: tuple[int, ...], p: float) -> None:
        n1 = faces.count(1)
        n6 = faces.count(6)
        s = sum(f for f in faces if 1 < f < 6)
        states[(n1, n6, s)] = states.get((n1, n6, s), 0.0) + p

    base = (1 / 6) ** pool
    for faces in itertools.product(range(1, 7), repeat=pool):
        if lucky and 1 in faces:
            rest = list(faces)
            rest.remove(1)
            for new in range(1, 7):
                add((*rest, new), base / 6)
        else:
            add(faces, base)
    return states


def face_sequences(depth: int) -> np.ndarray:
    """Every sequence of ``depth`` d6 faces: row ``u`` spells u's base-6 digits, least
    significant first, as faces 1..6. The kernels' tables map one draw below 6**depth to a row.

    >>> face_sequences(2)[[0, 1, 6, 35]].tolist()
    [[1, 1], [2, 1], [1, 2], [6, 6]]
    """
    u = np.arange(6**depth)
    return np.stack([(u // 6**j) % 6 + 1 for j in range(depth)], axis=1)


def throw_counts(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rows of faces: the 1s, the 6s and the sum of the other faces (the throw's state)."""
    n1 = (faces == 1).sum(axis=1)
    n6 = (faces == 6).sum(axis=1)
    s = np.where((faces > 1) & (faces < 6), faces, 0).sum(axis=1)
    return n1, n6, s


def convolve(a: Pmf, b: Pmf) -> Pmf:
    """PMF of the sum of two independent values."""
    return np.convolve(a[0], b[0]), a[1] + b[1]


def negate(a: Pmf) -> Pmf:
    """PMF of minus the value."""
    p, lo = a
    return p[::-1].copy(), -(lo + p.size - 1)


def survival(a: Pmf) -> tuple[np.ndarray, int]:
    """``(sf, lo)`` with ``sf[i] = P(value >= lo + i)``."""
    p, lo = a
    return np.cumsum(p[::-1])[::-1], lo


def sf_at(sf_lo: tuple[np.ndarray, int], x: int) -> float:
    """P(value >= x) from a survival array."""
    sf, lo = sf_lo
    i = x - lo
    if i <= 0:
        return float(sf[0])
    if i >= sf.size:
        return 0.0
    return float(sf[i])
