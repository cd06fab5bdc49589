"""One roll of a day, exactly: every initial throw, every choice of pairs, and what follows.

For one roll (a :class:`~explodice.Roll` against a DC) :func:`roll_choices` lists the states of
the initial throw (its 1s, its 6s and the sum of the other faces, after Lucky's reroll when
it comes before the choice, ``Rules.lucky_timing``) and, for each number ``k`` of pairs of one
1 and one 6 set aside: the probability of success and the distribution of the 1s that drain
(the kept 1s, plus the 1s that end explosion chains when those count). Lucky after the choice
turns one kept 1 into a fresh exploding die, summed, that drains nothing; the malus die of
``disadvantage="subtract"`` is exploding or plain (``Rules.malus_die``), as for one roll
(:func:`explodice.engine.rule_of_one.kept_dice`, :func:`~explodice.engine.dice.malus_pmf`). Given ``c`` draining 1s the drain is the sum of
``c`` exploding d6 (:func:`drain_pmf`).

A fixed policy picks one ``k`` per throw state (:func:`explodice.engine.rule_of_one.policy_table`);
:func:`explodice.optimal_policy` picks it knowing the day. The exact day
(:func:`explodice.exact_day`) reads these arrays only, and a drain law as its *c-mass*
(:class:`DrainLaw`: P(c draining 1s), the drain being the sum of c exploding d6), which is
how the chain on gauge levels plays it (:mod:`explodice.day.chain`). Both are cached by roll,
rules and target, so days that share their rolls build them once.

Explosions are followed to :data:`DEPTH` explosions per die, which leaves out less than
(1/6)**41 < 1e-31 per die: a day of 100 000 rolls of nine exploding dice each stays far below
the 1e-12 the exact engine allows itself for one roll.

>>> from explodice import Roll, Rules
>>> ch = roll_choices(Roll(0), Rules(), need=8)
>>> p, drain = ch.under(ch.k_fixed)
>>> round(p * 216, 9), round(float(drain @ np.arange(drain.size)), 9)  # 181/216; 3 x 1/6 x 4.2
(181.0, 2.1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import numpy as np

from explodice.engine.dice import plain_die
from explodice.engine.rule_of_one import choice_states, kept_dice, policy_table
from explodice.game.rules import Roll, Rules

__all__ = [
    "DEPTH",
    "MAX_DICE",
    "MAX_ONES",
    "DrainLaw",
    "RollChoices",
    "deep_die",
    "dice_tails",
    "drain_pmf",
    "roll_choices",
]

DEPTH = 40
MAX_ONES = 4  # a throw keeps at most 4 draining 1s: n1 - k kept, n6 - k chains
MAX_DICE = 2 * MAX_ONES  # a failed roll thrown again: both throws' drains


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@cache
def deep_die() -> np.ndarray:
    """P(v) of one exploding d6 for v = 0, 1, ..., followed to :data:`DEPTH` explosions."""
    p = np.zeros(6 * (DEPTH + 1))
    for j in range(DEPTH + 1):
        p[6 * j + 1 : 6 * j + 6] = 6.0 ** -(j + 1)
    return _frozen(p)


@cache
def drain_pmf(c: int) -> np.ndarray:
    """P(d) of the drain of ``c`` draining 1s: the sum of ``c`` exploding d6 (0 for c = 0).

    >>> round(float(drain_pmf(2) @ np.arange(drain_pmf(2).size)), 9)
    8.4
    """
    out = np.ones(1)
    for _ in range(c):
        out = np.convolve(out, deep_die())
    return _frozen(out)


@lru_cache(maxsize=8)
def dice_tails(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(tau, lam)`` of the sums of ``c = 0 .. MAX_DICE`` exploding d6, for ``j < n``:
    ``tau[c, j]`` = P(d > j) and ``lam[c, j]`` = E[(d - j)^+] (the points past ``j``).

    >>> tau, lam = dice_tails(3)
    >>> round(float(tau[1, 0]), 12), round(float(lam[1, 0]), 12)   # one die: always > 0, mean 4.2
    (1.0, 4.2)
    """
    tau, lam = np.zeros((MAX_DICE + 1, n)), np.zeros((MAX_DICE + 1, n))
    j = np.arange(n)
    for c in range(1, MAX_DICE + 1):
        q = drain_pmf(c)
        size = max(q.size, n + 1) + 1
        pmf = np.zeros(size)
        pmf[: q.size] = q
        t0 = np.cumsum(pmf[::-1])[::-1]  # P(d >= i)
        t1 = np.cumsum((pmf * np.arange(size))[::-1])[::-1]  # E[d; d >= i]
        tau[c] = t0[j + 1]
        lam[c] = t1[j + 1] - j * t0[j + 1]
    for a in (tau, lam):
        a.setflags(write=False)
    return tau, lam


@dataclass(frozen=True, eq=False)
class DrainLaw:
    """A drain law by its c-mass: ``ones[c]`` = P(``c`` draining 1s); the drain is then the
    sum of ``c`` exploding d6. The masses may add up to less than 1 (a part of a law: the
    rolls that fail, say).

    >>> law = DrainLaw(np.array([0.5, 0.5]))   # no 1 half the time, else one exploding d6
    >>> [round(x, 9) for x in law.moments()]   # mass, E[drain], E[drain^2] (4.2 / 2, 28.28 / 2)
    [1.0, 2.1, 14.14]
    """

    ones: np.ndarray

    def __post_init__(self) -> None:
        ones = np.asarray(self.ones, dtype=float)
        last = np.flatnonzero(ones)
        ones = np.ascontiguousarray(ones[: (last[-1] + 1) if last.size else 1])
        ones.setflags(write=False)
        object.__setattr__(self, "ones", ones)

    @property
    def dice(self) -> int:
        """The most exploding d6 it sums."""
        return int(self.ones.size - 1)

    @cached_property
    def pmf(self) -> np.ndarray:
        """P(drain = d), d = 0, 1, ... (explosions followed to :data:`DEPTH`)."""
        return _drain_law(self.ones)

    def moments(self) -> tuple[float, float, float]:
        """``(mass, E[drain], E[drain^2])`` (each times the mass)."""
        first, second = _dice_moments()
        c = np.arange(self.ones.size)
        return float(self.ones.sum()), float(self.ones @ first[c]), float(self.ones @ second[c])

    def then(self, other: DrainLaw) -> DrainLaw:
        """This drain plus an independent ``other`` (a second throw's)."""
        return DrainLaw(np.convolve(self.ones, other.ones))

    @staticmethod
    def mix(laws: list[DrainLaw], weights: list[float]) -> DrainLaw:
        """``sum(w * law)``: the law of a roll drawn among ``laws`` with these weights."""
        out = np.zeros(max(law.ones.size for law in laws))
        for law, w in zip(laws, weights):
            out[: law.ones.size] += w * law.ones
        return DrainLaw(out)


@cache
def _dice_moments() -> tuple[np.ndarray, np.ndarray]:
    """E[d] and E[d^2] of the sum of c exploding d6, c = 0 .. MAX_DICE."""
    first, second = np.zeros(MAX_DICE + 1), np.zeros(MAX_DICE + 1)
    for c in range(MAX_DICE + 1):
        q = drain_pmf(c)
        d = np.arange(q.size, dtype=float)
        first[c], second[c] = q @ d, q @ d**2
    return first, second


@cache
def _chain_survival(
    b: int, count_ones: bool, malus: str | None, fresh: bool = False
) -> tuple[np.ndarray, int]:
    """``(sf[e, i], lo)``: P(the ``b`` chains add at least ``lo + i``, plus one fresh exploding
    die when ``fresh`` (Lucky's reroll of a kept 1 after the choice: its 1s drain nothing),
    minus the malus die if any (``"exploding"`` or ``"plain"``), and ``e`` of them end on a
    1). A chain is 6 plus an exploding die, and ends on a 1 when that die's value is 1 mod 6;
    ``e`` is always 0 unless ``count_ones``."""
    die = deep_die()
    one = np.zeros((2, 6 + die.size))  # [ends on a 1?, value]
    one[0, 6:] = die
    if count_ones:
        one[1, 7::6] = die[1::6]
        one[0, 7::6] = 0.0
    q = np.zeros((b + 1, 1))
    q[0, 0] = 1.0
    for _ in range(b):
        nxt = np.zeros((b + 1, q.shape[1] + one.shape[1] - 1))
        for e in range(b):
            nxt[e] += np.convolve(q[e], one[0])
            nxt[e + 1] += np.convolve(q[e], one[1])
        q = nxt
    if fresh:
        q = np.stack([np.convolve(row, die) for row in q])
    lo = 0
    if malus is not None:  # minus the malus die: value v - m, m = 0 .. len - 1
        m = die if malus == "exploding" else plain_die()[0]
        q = np.stack([np.convolve(row, m[::-1]) for row in q])
        lo = -(m.size - 1)
    sf = np.cumsum(q[:, ::-1], axis=1)[:, ::-1]
    return _frozen(sf), lo


@dataclass(frozen=True, eq=False)
class RollChoices:
    """The throw states of one roll and, for each ``k`` pairs set aside, what follows.

    Arrays over throw states ``i``: ``n1``, ``n6``, ``s`` and their probability ``p``;
    ``succ[i, k]`` = P(success); ``ones[i, k, c]`` = P(``c`` draining 1s) (all mass at
    ``c = 0`` for a roll that drains nothing); ``won[i, k, c]`` = P(success and ``c``
    draining 1s) (what a reroll on failure needs: it is spent on the rest); ``k`` above
    ``min(n1, n6)`` repeats the last allowed choice. ``k_fixed[i]`` is the roll's own policy's choice (the forced cancel of an
    NPC, none outside the rule of 1) and ``free`` says whether a player chooses at all (a PC's
    roll under the rule of 1).
    """

    n1: np.ndarray
    n6: np.ndarray
    s: np.ndarray
    p: np.ndarray
    succ: np.ndarray
    ones: np.ndarray
    won: np.ndarray
    k_fixed: np.ndarray
    free: bool
    drains: bool

    @property
    def k_max(self) -> np.ndarray:
        """The most pairs each throw state may set aside (0 where no one chooses)."""
        return np.minimum(self.n1, self.n6) if self.free else self.k_fixed

    def under(self, k: np.ndarray) -> tuple[float, np.ndarray]:
        """``(P(success), drain PMF)`` when throw state ``i`` sets aside ``k[i]`` pairs."""
        idx = np.arange(self.p.size)
        succ = float(self.p @ self.succ[idx, k])
        return succ, _drain_law(self.p @ self.ones[idx, k])

    def law(self, k: np.ndarray) -> tuple[float, DrainLaw]:
        """``(P(success), drain law)`` when throw state ``i`` sets aside ``k[i]`` pairs."""
        idx = np.arange(self.p.size)
        return float(self.p @ self.succ[idx, k]), DrainLaw(self.p @ self.ones[idx, k])

    def split_law(self, k: np.ndarray) -> tuple[float, DrainLaw, DrainLaw]:
        """:meth:`split` as drain laws: ``(P(success), drain of the rolls that succeed,
        drain of those that fail)``."""
        idx = np.arange(self.p.size)
        won = self.p @ self.won[idx, k]
        everything = self.p @ self.ones[idx, k]
        return float(won.sum()), DrainLaw(won), DrainLaw(everything - won)

    def split(self, k: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """``(P(success), drain of the rolls that succeed, drain of those that fail)`` when
        throw state ``i`` sets aside ``k[i]`` pairs: the two drain PMFs are parts of the
        law of :meth:`under` (they add up to it), each weighted by its event's probability.

        >>> ch = roll_choices(Roll(0), Rules(), need=16)
        >>> p, won, lost = ch.split(ch.k_fixed)
        >>> bool(abs(won.sum() - p) < 1e-12 and abs(won.sum() + lost.sum() - 1) < 1e-12)
        True
        """
        idx = np.arange(self.p.size)
        won = self.p @ self.won[idx, k]  # P(success, c draining 1s)
        everything = self.p @ self.ones[idx, k]
        return float(won.sum()), _drain_law(won), _drain_law(everything - won)


def _drain_law(c_mass: np.ndarray) -> np.ndarray:
    """The drain PMF when ``c`` 1s drain with probability ``c_mass[c]``."""
    drain = np.zeros(drain_pmf(max(MAX_ONES, len(c_mass) - 1)).size)
    for c, w in enumerate(c_mass):
        if w > 0:
            d = drain_pmf(c)
            drain[: d.size] += w * d
    return drain


@lru_cache(maxsize=512)
def roll_choices(roll: Roll, rules: Rules, need: int) -> RollChoices:
    """The choices of ``roll`` under ``rules``, succeeding when its dice total is >= ``need``
    (the DC minus the modifier); cached, so days that share a roll build it once."""
    applies = roll.rule_of_one_applies(rules)
    count_ones = applies and rules.ones_on_explosions
    malus = roll.malus_die(rules)
    drains = roll.drains(rules)
    states = choice_states(roll, rules)  # after Lucky's reroll only when it comes first
    keys = sorted(states)
    n1, n6, s = (np.array([key[j] for key in keys], dtype=np.int64) for j in range(3))
    p = np.array([states[key] for key in keys])
    n = len(keys)
    succ = np.zeros((n, MAX_ONES + 1))
    ones = np.zeros((n, MAX_ONES + 1, MAX_ONES + 1))
    won = np.zeros((n, MAX_ONES + 1, MAX_ONES + 1))
    for i in range(n):
        top = int(min(n1[i], n6[i]))
        for k in range(MAX_ONES + 1):
            kk = min(k, top)
            a, fresh = kept_dice(roll, rules, int(n1[i]), kk)  # Lucky after: one 1 rerolled
            b = int(n6[i]) - kk
            sf, lo = _chain_survival(b, count_ones, malus, fresh)
            at = need - int(s[i]) - a - lo  # the chains must add at least need - s - a
            per_e = (
                sf[:, min(max(at, 0), sf.shape[1] - 1)]
                if at < sf.shape[1]
                else np.zeros(sf.shape[0])
            )
            succ[i, k] = per_e.sum()
            if drains:
                p_e = sf[:, 0]  # P(e chains end on a 1)
                ones[i, k, a : a + p_e.size] = p_e
                won[i, k, a : a + per_e.size] = per_e
            else:
                ones[i, k, 0] = 1.0
                won[i, k, 0] = succ[i, k]
    k_fixed = policy_table(roll, rules)[n1, n6, s].astype(np.int64)
    free = drains and roll.actor == "pc"
    arrays: tuple[np.ndarray, ...] = (n1, n6, s, p, succ, ones, won, k_fixed)
    for arr in arrays:
        arr.setflags(write=False)
    return RollChoices(n1, n6, s, p, succ, ones, won, k_fixed, free, drains)
