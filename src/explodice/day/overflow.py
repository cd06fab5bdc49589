"""The overflow rules: where a drain past an empty gauge goes (``Rules.overflow``).

Written here once for every engine that reads gauge levels in Python (the chain on gauge
levels of the exact day and the optimal player, :mod:`explodice.day.chain`; the numpy day of
:mod:`explodice.day.reroll_day`), as an *order*: the other gauges the excess empties, one
after the other (:data:`OVERFLOW_ORDERS`); the day kernel has its own, in numba
(:func:`explodice.day._kernel.pour_fullest`).

- ``"fullest"``: the non-empty gauge with the most points first, then the next (ties in PA,
  PM, PF, PH order), each emptied before the next is touched; what none absorbs is lost;
- ``"lost"``: no gauge: the excess is lost at once;
- a gauge name (``"PA"``, ``"PM"``, ``"PF"``, ``"PH"``): that gauge alone; the excess is lost
  if it is empty, or is the drained gauge itself;
- ``"best"`` ("au choix du joueur"): the optimal player picks where the excess goes, knowing
  it (:func:`best_pour`, read by :mod:`explodice.day.optimal`); every other engine, and a
  fixed policy, pours into the fullest: its order is :func:`fullest_order`.

A new rule is one function added to :data:`OVERFLOW_ORDERS` (and one to the day kernel). The
one condition the chain puts on it: after the first gauge of the order, the rest of it may
depend only on the levels of the gauges not yet named (true of both rules above, and of a
named gauge: ``"PA"``, the order ``[PA]`` whenever the drained gauge is not PA).

>>> new, lost = pour(np.array([[0, 5, 9, 9]]), 0, np.array([12]), "fullest")
>>> new.tolist(), lost.tolist()   # PF and PH tie at 9: PF first, then PH takes 3
([[0, 5, 0, 6]], [0])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from explodice.core.errors import ExplodiceError, check_choice
from explodice.game.character import GAUGES

__all__ = [
    "OVERFLOW_ORDERS",
    "Order",
    "best_pour",
    "fullest_order",
    "lost_order",
    "named_order",
    "order_of",
    "pour",
]

#: ``order(levels, gauges)``: for the levels ``(n, k)`` of the ``k`` other gauges (their
#: indices in PA, PM, PF, PH: ``gauges``), the positions (columns of ``levels``) that take an
#: excess, in turn: ``(n, L)``, ``L <= k``.
Order = Callable[[np.ndarray, tuple[int, ...]], np.ndarray]


def fullest_order(levels: np.ndarray, gauges: tuple[int, ...]) -> np.ndarray:
    """``"fullest"``: the fullest gauge first, then the next; ties to the lower index (PA,
    PM, PF, PH). A gauge at 0 may come last: it takes nothing.

    >>> fullest_order(np.array([[3, 5, 5]]), (0, 1, 2)).tolist()
    [[1, 2, 0]]
    """
    return np.argsort(-np.asarray(levels), axis=1, kind="stable")


def lost_order(levels: np.ndarray, gauges: tuple[int, ...]) -> np.ndarray:
    """``"lost"``: no gauge takes the excess."""
    return np.zeros((np.asarray(levels).shape[0], 0), dtype=np.int64)


def named_order(gauge: int) -> Order:
    """A gauge's name (``"PM"``: ``named_order(1)``): that gauge alone, unless it is the drained
    one (then the excess is lost). An empty gauge comes first and takes nothing.

    >>> named_order(1)(np.array([[3, 5, 5]]), (0, 1, 2)).tolist(), named_order(1)(
    ...     np.array([[3, 5, 5]]), (0, 2, 3)).shape
    ([[1]], (1, 0))
    """

    def order(levels: np.ndarray, gauges: tuple[int, ...]) -> np.ndarray:
        n = np.asarray(levels).shape[0]
        if gauge not in gauges:
            return np.zeros((n, 0), dtype=np.int64)
        return np.full((n, 1), gauges.index(gauge), dtype=np.int64)

    order.__doc__ = f"``{GAUGES[gauge]!r}``: the excess goes to {GAUGES[gauge]} alone."
    return order


OVERFLOW_ORDERS: dict[str, Order] = {
    "fullest": fullest_order,
    "lost": lost_order,
    **{name: named_order(j) for j, name in enumerate(GAUGES)},
    "best": fullest_order,  # a fixed policy pours into the fullest; see best_pour
}


def order_of(rule: str) -> Order:
    """The order function of an overflow rule (refused if it is none)."""
    return OVERFLOW_ORDERS[check_choice("overflow", rule, tuple(OVERFLOW_ORDERS), ExplodiceError)]


def pour(levels: np.ndarray, g: int, drain: np.ndarray, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """docs/rules.md's drain and overflow on whole arrays: each row of ``levels`` (``(n, 4)``,
    one character's gauges) loses ``drain`` points from gauge ``g``, the excess going where
    the rule says. Returns the new levels and the points lost.

    >>> new, lost = pour(np.array([[0, 5, 9, 9]]), 0, np.array([12]), "fullest")
    >>> new.tolist(), lost.tolist()   # PF and PH tie at 9: PF first, then PH takes 3
    ([[0, 5, 0, 6]], [0])
    """
    levels = np.array(levels, dtype=np.int64, copy=True)
    drain = np.asarray(drain, dtype=np.int64)
    rows = np.arange(levels.shape[0])
    got = np.minimum(drain, levels[:, g])
    levels[:, g] -= got
    excess = drain - got
    others = tuple(j for j in range(4) if j != g)
    order = np.asarray(order_of(rule)(levels[:, others], others), dtype=np.int64)
    for step in range(order.shape[1]):
        j = np.asarray(others)[order[:, step]]
        take = np.minimum(excess, levels[rows, j])
        levels[rows, j] -= take
        excess = excess - take
    return levels, excess


def best_pour(
    sizes: tuple[int, ...], g: int, V: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``overflow="best"``: where the optimal player pours an excess past gauge ``g``, knowing
    it and ``V``, the value of each state after the roll (flat, C order over ``sizes``, the
    gauges' levels + 1). Each time an excess remains the player picks the next gauge to take
    it, so a choice is an order of the three other gauges (the fullest's on a tie, within
    1e-12). Returns ``(dest, reach, column)``: ``dest[x - 1, col]`` the state an excess ``x``
    leaves from column ``col`` (the others' levels, C order, with ``g`` at 0), for
    ``x < reach[col]``, the points the column holds; an excess of ``reach[col]`` or more
    empties every gauge (the rest is lost); ``column[s]`` each state's column.

    >>> V = np.zeros(2 * 3 * 3 * 1)
    >>> V[np.ravel_multi_index((0, 0, 2, 0), (2, 3, 3, 1))] = 1.0  # keeping PF at 2 pays
    >>> dest, reach, column = best_pour((2, 3, 3, 1), 0, V)
    >>> col = np.ravel_multi_index((2, 2, 0), (3, 3, 1))  # PM 2, PF 2: fullest would take PM
    >>> np.unravel_index(dest[1, col], (2, 3, 3, 1)), int(reach[col])   # 2 past PA: into PM
    ((np.int64(0), np.int64(0), np.int64(2), np.int64(0)), 4)
    """
    sizes = tuple(int(x) for x in sizes)
    others = tuple(j for j in range(4) if j != g)
    strides = np.array([int(np.prod(sizes[j + 1 :])) for j in range(4)], dtype=np.int64)
    levels = np.indices([sizes[j] for j in others]).reshape(3, -1).T  # each column's levels
    base = levels @ strides[list(others)]  # its state with g at 0
    reach = levels.sum(axis=1)
    n_x = max(int(reach.max(initial=0)) - 1, 0)
    orders = [fullest_order(levels, others)] + [
        np.broadcast_to(np.array(p), levels.shape) for p in itertools.permutations(range(3))
    ]
    cols = np.arange(levels.shape[0])
    dest = np.zeros((n_x, levels.shape[0]), dtype=np.int64)
    for x in range(1, n_x + 1):
        best_v = np.full(levels.shape[0], -np.inf)
        for order in orders:
            left, state = np.full(levels.shape[0], x), base.copy()
            for step in range(3):
                pos = order[:, step]
                take = np.minimum(left, levels[cols, pos])
                state -= take * strides[np.asarray(others)[pos]]
                left -= take
            v = V[state]
            better = v > best_v + 1e-12
            dest[x - 1] = np.where(better, state, dest[x - 1])
            best_v = np.where(better, v, best_v)
    idx = np.unravel_index(np.arange(int(np.prod(sizes))), sizes)
    column = np.ravel_multi_index(tuple(idx[j] for j in others), [sizes[j] for j in others])
    return dest, reach, np.asarray(column, dtype=np.int64)
