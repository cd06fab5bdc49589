"""The exact engine: one roll's joint distribution by enumeration and convolution.

The initial throw has few states (at most 6**4 faces, grouped by their 1s, 6s and the sum of
the rest). The policy table fixes the pairs cancelled in each state; the kept 6s then add
explosion chains, Lucky after the choice (``Rules.lucky_timing``) turns one kept 1 into a
fresh exploding die, the malus die (exploding or plain, ``Rules.malus_die``) is subtracted,
and each kept 1 drains an exploding d6.
Every step is a convolution of exact PMFs, cut only where (1/6)**17 per die is left out.

>>> from explodice import Roll, exact
>>> round(exact(Roll(0)).p_success(8) * 216, 9)
181.0
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError
from explodice.core.words import Phrase
from explodice.engine.dice import chains, exploding_die, exploding_sum, malus_pmf, negate
from explodice.engine.distribution import Distribution
from explodice.engine.reroll import exact_failure_reroll
from explodice.engine.rule_of_one import STATE_SHAPE, choice_states, kept_dice, policy_table
from explodice.game.checks import check_roll, check_rules
from explodice.game.rules import Best, Roll, Rules

__all__ = ["exact", "exact_kept_sixes", "read_by", "OMITTED_LIMIT"]

OMITTED_LIMIT = 1e-12
_TRIM = 1e-15  # tail mass dropped from each end of an axis, after the cut


def exact(roll: Roll, rules: Rules | None = None) -> Distribution:
    """The exact distribution of ``roll`` under ``rules`` (total x drain x kept 1s).

    >>> from explodice import Roll, exact
    >>> d = exact(Roll(4, advantage="advantage"))
    >>> round(d.mean, 6)
    20.8
    """
    roll, rules = check_roll(roll), check_rules(rules)
    if roll.reroll_dc is not None:  # Reroll("failure"): from the roll without it
        return exact_failure_reroll(roll, rules, exact(roll.replace(reroll=None), rules))
    # Only a best(λ) policy depends on the modifier; otherwise shift one cached result.
    base = roll if isinstance(roll.policy, Best) else roll.replace(modifier=0)
    pmf, lo, omitted, shared = _joint(base, read_by(base, rules))
    return Distribution(
        pmf,
        lo + roll.modifier,
        method="exact",
        omitted=omitted,
        roll=roll,
        rules=rules,
        shared=shared,  # its marginals, E[drain] ...: computed once for every modifier
    )


def read_by(roll: Roll, rules: Rules) -> Rules:
    """``rules`` as ``roll``'s law reads them: the switches it does not read at their
    defaults, so that every rules that differ only there share one cached law (the readings
    table moves each switch in turn: most leave most rolls alone). :func:`_law` reads only
    these: the pool (``disadvantage``, at disadvantage), the malus die, Lucky's timing (with
    Lucky), whether the rule of 1 applies to the roll's kind and, where it does,
    ``ones_on_explosions``.

    >>> read_by(Roll(0), Rules(malus_die="plain", overflow="lost")) == read_by(Roll(0), Rules())
    True
    >>> read_by(Roll(0, advantage="disadvantage"), Rules(malus_die="plain")).malus_die
    'plain'
    """
    applies = roll.rule_of_one_applies(rules)
    return _reading(
        rules.disadvantage if roll.advantage == "disadvantage" else None,
        roll.malus_die(rules),
        rules.lucky_timing if roll.lucky else None,
        roll.kind if applies else None,
        applies and rules.ones_on_explosions,
    )


@cache
def _reading(
    disadvantage: str | None,
    malus_die: str | None,
    lucky_timing: str | None,
    kind: str | None,
    ones_on_explosions: bool,
) -> Rules:
    """The rules of :func:`read_by`: these readings, the others at their defaults."""
    default = Rules()
    return Rules(
        disadvantage=disadvantage or default.disadvantage,  # type: ignore[arg-type]
        malus_die=malus_die or default.malus_die,  # type: ignore[arg-type]
        lucky_timing=lucky_timing or default.lucky_timing,  # type: ignore[arg-type]
        rule_of_one_kinds=frozenset() if kind is None else frozenset({kind}),  # type: ignore
        ones_on_explosions=ones_on_explosions,
    )


@lru_cache(maxsize=512)  # a law takes about 0.5 MB: at most about 250 MB
def _joint(
    roll: Roll, rules: Rules, min_sixes: int = 0
) -> tuple[np.ndarray, int, float, dict[str, Any]]:
    """:func:`_law`, and the dict where the distributions of that law keep what does not
    depend on their ``lo`` (:attr:`Distribution.shared`: their marginals, E[drain] ...,
    computed once for every modifier and every call that reads the same law). Its callers
    pass :func:`read_by`'s rules: what is read of ``rules`` in :func:`_law` must be read
    there."""
    return (*_law(roll, rules, min_sixes), {})


def _law(roll: Roll, rules: Rules, min_sixes: int = 0) -> tuple[np.ndarray, int, float]:
    """``(pmf[total, drain, ones], lo, omitted)`` for the roll's dice total (+ modifier).

    With ``min_sixes`` > 0, only the rolls that keep that many 6s or more of their initial
    throw (the pairs cancelled against 1s set aside; a critical hit's count, ``Rules.critical``)
    are in ``pmf``: its mass is their probability, and ``omitted`` is 0."""
    pool = roll.pool_size(rules)
    k_table = policy_table(roll, rules)
    rule_applies = roll.rule_of_one_applies(rules)
    explosion_ones = rule_applies and rules.ones_on_explosions

    # Group the initial throw by (kept 1s, kept 6s, fresh die): the PMF of the other faces' sum.
    groups: dict[tuple[int, int, bool], np.ndarray] = {}
    for (n1, n6, s), p in choice_states(roll, rules).items():
        k = int(k_table[n1, n6, s])
        if n6 - k < min_sixes:
            continue
        a, fresh = kept_dice(roll, rules, n1, k)
        groups.setdefault((a, n6 - k, fresh), np.zeros(STATE_SHAPE[2]))[s] += p

    if not groups:  # no throw keeps min_sixes 6s (three 6s from a pool of 2)
        empty = np.zeros((1, 1, 1))
        empty.setflags(write=False)
        return empty, 0, 0.0
    n_ones = 5
    die = exploding_die()[0]
    length = max(
        STATE_SHAPE[2] + a + chains(b, explosion_ones).shape[1] + fresh * (die.size - 1)
        for a, b, fresh in groups
    )
    joint = np.zeros((length, n_ones))  # dice total (from 0) x kept 1s
    for (a, b, fresh), mid in groups.items():
        q = chains(b, explosion_ones)
        if fresh:  # Lucky's die, rerolled after the choice: summed, outside the rule of 1
            mid = np.convolve(mid, die)
        for e in range(q.shape[0]):
            if not q[e].any():
                continue
            conv = np.convolve(mid, q[e])
            ones = (a + e) if rule_applies else 0
            joint[a : a + conv.size, ones] += conv
    lo = 0
    kind = roll.malus_die(rules)
    if kind is not None:
        malus, malus_lo = negate(malus_pmf(kind))
        joint = np.stack([np.convolve(joint[:, c], malus) for c in range(n_ones)], axis=1)
        lo = malus_lo

    joint, lo = _trim_rows(joint, lo)
    kept = pool + 1  # the kept-1s columns: a roll keeps at most `pool` ones (no more built)
    if roll.drains(rules):
        drains = [exploding_sum(c)[0] for c in range(n_ones)]
        width = _trimmed_width(drains, joint.sum(axis=0))
        pmf = np.zeros((joint.shape[0], width, kept))
        for c in range(kept):
            d = drains[c][:width]
            pmf[:, : d.size, c] = np.outer(joint[:, c], d)
    else:
        pmf = np.ascontiguousarray(joint[:, None, :kept])
    omitted = max(0.0, 1.0 - float(pmf.sum())) if min_sixes == 0 else 0.0
    if omitted >= OMITTED_LIMIT:  # pragma: no cover - a guard on the cut's arithmetic
        raise AssertionError(f"exact engine left out {omitted:.3g} >= {OMITTED_LIMIT}")
    pmf.setflags(write=False)
    return pmf, lo, omitted


def exact_kept_sixes(roll: Roll, rules: Rules | None, min_sixes: int) -> tuple[np.ndarray, int]:
    """``(pmf, lo)``: P(total = lo + i and the roll keeps ``min_sixes`` or more 6s of its
    initial throw), the pairs cancelled against 1s set aside and the malus die apart; its sum
    is P(critical) under ``Rules.critical`` "two_sixes" (2) or "three_sixes" (3).

    >>> pmf, lo = exact_kept_sixes(Roll(0), Rules(), 2)
    >>> round(float(pmf.sum()) * 216, 9), lo  # 216 - 5**3 - 3 x 5**2 throws; 6 + 6 + 3 at least
    (16.0, 15)
    """
    roll, rules = check_roll(roll), check_rules(rules)
    if roll.reroll_dc is not None:
        raise ExplodiceError(
            Phrase(
                "a critical hit counted on the initial throw's 6s is not modelled "
                "with a reroll on failure (which throw would count?): use "
                "Reroll('one'), no reroll, or a margin."
            )
        )
    base = roll if isinstance(roll.policy, Best) else roll.replace(modifier=0)
    pmf, lo, _, _ = _joint(base, read_by(base, rules), min_sixes)
    total = pmf.sum(axis=(1, 2))
    nonzero = np.nonzero(total)[0]
    if nonzero.size == 0:  # no roll keeps that many 6s (a pool of 2 and three_sixes)
        return np.zeros(1), lo + roll.modifier
    return total[nonzero[0] : nonzero[-1] + 1].copy(), lo + int(nonzero[0]) + roll.modifier


def _trim_rows(joint: np.ndarray, lo: int) -> tuple[np.ndarray, int]:
    """Drop leading and trailing totals whose summed mass is below _TRIM."""
    marg = joint.sum(axis=1)
    head = np.cumsum(marg)
    tail = np.cumsum(marg[::-1])
    start = int(np.searchsorted(head, _TRIM, side="right"))
    stop = marg.size - int(np.searchsorted(tail, _TRIM, side="right"))
    return joint[start:stop], lo + start


def _trimmed_width(drains: list[np.ndarray], weights: np.ndarray) -> int:
    """Drain axis length leaving out a tail of weighted mass below _TRIM."""
    width = max(d.size for d in drains)
    tail = np.zeros(width)
    for d, w in zip(drains, weights):
        tail[: d.size] += w * d
    cum = np.cumsum(tail[::-1])
    return width - int(np.searchsorted(cum, _TRIM, side="right"))
