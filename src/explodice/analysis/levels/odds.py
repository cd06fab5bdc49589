"""The odds of one test at every DC: P(success) and E[drain] of a roll *shape* (advantage,
kind, policy, reroll: the modifier is a shift) as functions of the need, dc - modifier, from
one exact distribution per shape, so the builds and levels that share a shape share it
(cached). Every question across levels reads its probabilities here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from explodice.engine.d20 import d20
from explodice.engine.distribution import Distribution
from explodice.engine.exact import exact
from explodice.game.checks import check_rules
from explodice.game.rules import Best, Roll, Rules
from explodice.game.tables import (
    System,
    check_system,
)

__all__ = [
    "Odds",
    "clear_caches",
    "odds_of",
]

#: A DC-dependent roll (a best(λ) policy, a reroll on failure) is searched over the DCs where
#: the same roll without them succeeds with a probability in [_WINDOW_P, 1 - _WINDOW_P] ...
_WINDOW_P = 1e-9
#: ... widened by this many DCs each side.
_WINDOW_PAD = 4


def _dc_dependent(roll: Roll, system: System) -> bool:
    """A roll whose law depends on its DC: a best(λ) policy (3d6x) or a reroll on failure."""
    return roll.reroll_dc is not None or (system == "3d6x" and isinstance(roll.policy, Best))


@functools.lru_cache(maxsize=8192)
def _distribution(roll: Roll, rules: Rules, system: System) -> Distribution:
    """The exact distribution of ``roll`` in ``system`` (cached: its cut, its tables)."""
    return d20(roll) if system == "d20" else exact(roll, rules)


@dataclass(frozen=True)
class Odds:
    """P(success) and E[drain] of one roll shape (modifier 0) as functions of the *need*,
    ``dc - modifier``: a best(λ) policy is played against, and a reroll on failure spent
    against, each DC it is asked about. Get one with :func:`odds_of`.

    >>> from explodice.engine.exact import exact
    >>> o = odds_of(Roll(4), Rules(), "3d6x")   # three dice, each a 1 with 1/6, draining 4.2
    >>> float(o.p(16 - 4)) == exact(Roll(4)).p_success(16), round(o.drain(12), 9)
    (True, 2.1)
    """

    roll: Roll
    rules: Rules
    system: System

    @property
    def dc_dependent(self) -> bool:
        return _dc_dependent(self.roll, self.system)

    def at(self, need: int) -> Distribution:
        """The distribution of the roll against the DC ``need`` (at modifier 0)."""
        roll = self.roll
        if self.system == "3d6x" and isinstance(roll.policy, Best):
            roll = roll.replace(policy=Best(int(need), roll.policy.weight))
        if roll.reroll is not None and roll.reroll.trigger == "failure":
            roll = roll.replace(reroll=roll.reroll.with_dc(int(need)))
        return _distribution(roll, self.rules, self.system)

    def p(self, need: Any) -> Any:
        """P(success) at ``need`` (an int or an array of them)."""
        needs = np.asarray(need, dtype=np.int64)
        if not self.dc_dependent:
            return self.at(0).p_success(needs)
        out = np.array([_p_at(self, n) for n in needs.ravel().tolist()], dtype=float)
        return float(out[0]) if needs.ndim == 0 else out.reshape(needs.shape)

    def drain(self, need: Any) -> Any:
        """E[drain] at ``need`` (0 in d20, for NPCs and kinds outside the rule of 1)."""
        needs = np.asarray(need, dtype=np.int64)
        if not self.dc_dependent:
            value = float(self.at(0).drain_mean)
            return value if needs.ndim == 0 else np.full(needs.shape, value)
        out = np.array([_drain_at(self, n) for n in needs.ravel().tolist()], dtype=float)
        return float(out[0]) if needs.ndim == 0 else out.reshape(needs.shape)

    def needs(self) -> np.ndarray:
        """Every need that matters: from one below the lowest total (P = 1) to one above the
        highest (P = 0); for a DC-dependent roll, the needs where the same roll without its
        DC-bound parts has P in [1e-9, 1 - 1e-9], widened by 4 each side."""
        if not self.dc_dependent:
            dist = self.at(0)
            return np.arange(dist.lo - 1, dist.lo + dist.pmf.shape[0] + 1)
        plain = self.roll.replace(
            policy="keep" if isinstance(self.roll.policy, Best) else self.roll.policy,
            reroll=None if self.roll.reroll_dc is not None else self.roll.reroll,
        )
        dist = _distribution(plain, self.rules, self.system)
        span = np.arange(dist.lo - 1, dist.lo + dist.pmf.shape[0] + 1)
        p = np.asarray(dist.p_success(span))
        inside = np.flatnonzero((p >= _WINDOW_P) & (p <= 1 - _WINDOW_P))
        lo, hi = (inside[0], inside[-1]) if inside.size else (0, span.size - 1)
        return np.arange(span[lo] - _WINDOW_PAD, span[hi] + _WINDOW_PAD + 1)


@functools.lru_cache(maxsize=1 << 16)
def _p_at(odds: Odds, need: int) -> float:
    """P(success) of a DC-dependent shape at one ``need`` (kept: the fit of a save DC asks
    each need of a shape tens of times, once per caster and base)."""
    return float(odds.at(need).p_success(need))


@functools.lru_cache(maxsize=1 << 16)
def _drain_at(odds: Odds, need: int) -> float:
    """E[drain] of a DC-dependent shape at one ``need`` (kept, as :func:`_p_at`)."""
    return float(odds.at(need).drain_mean)


@functools.lru_cache(maxsize=4096)
def _odds(shape: Roll, rules: Rules, system: System) -> Odds:
    return Odds(shape, rules, system)


def clear_caches() -> None:
    """Empty the caches of distributions and odds the level questions fill."""
    _distribution.cache_clear()
    _odds.cache_clear()
    _p_at.cache_clear()
    _drain_at.cache_clear()


def odds_of(roll: Roll, rules: Rules | None = None, system: System = "3d6x") -> Odds:
    """The :class:`Odds` of ``roll``'s shape: its modifier, and the DC of its best(λ) policy
    and of its reroll on failure, set aside (every DC is asked of the shape)."""
    rules, system = check_rules(rules), check_system(system)
    shape = roll.replace(modifier=0)
    if isinstance(shape.policy, Best):
        shape = shape.replace(policy=Best(0, shape.policy.weight))
    if shape.reroll is not None and shape.reroll.trigger == "failure":
        shape = shape.replace(reroll=shape.reroll.with_dc(0))
    return _odds(shape, rules, system)
