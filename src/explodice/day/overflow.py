"""The overflow rules: where a drain past an empty gauge goes (``Rules.overflow``).

Written here once for every engine that reads gauge levels in Python (the chain on gauge
levels of the exact day and the optimal player, :mod:`explodice.day.chain`; the numpy day of
:mod:`explodice.day.reroll_day`), as an *order*: the other gauges the excess empties, one
after the other (:data:`OVERFLOW_ORDERS`); the day kernel has its own, in numba
(:func:`explodice.day._kernel.pour_fullest`).

- ``"fullest"``: the non-empty gauge with the most points first, then the next (ties in PA,
  PM, PF, PH order), each emptied before the next is touched; what none absorbs is lost;
- ``"lost"``: no gauge: the excess is lost at once.

A new rule is one function added to :data:`OVERFLOW_ORDERS` (and one to the day kernel). The
one condition the chain puts on it: after the first gauge of the order, the rest of it may
depend only on the levels of the gauges not yet named (true of both rules above, and of a
named gauge: ``"PA"``, the order ``[PA]`` whenever the drained gauge is not PA).

>>> new, lost = pour(np.array([[0, 5, 9, 9]]), 0, np.array([12]), "fullest")
>>> new.tolist(), lost.tolist()   # PF and PH tie at 9: PF first, then PH takes 3
([[0, 5, 0, 6]], [0])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from explodice.core.errors import ExplodiceError, check_choice

__all__ = ["OVERFLOW_ORDERS", "Order", "fullest_order", "lost_order", "order_of", "pour"]

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


OVERFLOW_ORDERS: dict[str, Order] = {"fullest": fullest_order, "lost": lost_order}


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
