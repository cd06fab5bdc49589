"""The rule of 1 (règle du 1): its choice as a table, shared by the exact engine and the kernels.

Where each part of the rule lives — follow these names from here:

- **scope**: which kinds of roll drain, the switch ``Rules.rule_of_one_kinds`` (and
  ``Roll.rule_of_one_applies``, ``Roll.drains``: a PC's roll under the rule) in
  :mod:`explodice.game.rules`; 1s shown by explosion dice, ``Rules.ones_on_explosions``;
- **choice**: the pairs of one 1 and one 6 a player cancels, :func:`policy_table` below
  (``keep``, ``cancel``, ``best(λ)``; an NPC always cancels); what a choice leads to,
  :func:`choice_value` (which also knows Lucky's timing, ``Rules.lucky_timing``, and the
  malus die, ``Rules.malus_die``);
- **drain**: one exploding d6 per kept 1 — exactly in :mod:`explodice.engine.exact`, drawn in
  :mod:`explodice.engine._kernels` (``drain_of``), summarised by :mod:`explodice.analysis.drain`;
- **gauges**: which gauge an ability drains, ``ABILITY_GAUGE`` in
  :mod:`explodice.game.character`; gauges over a day (overflow, disadvantage at 0) in
  :mod:`explodice.day.simulate`;
- **the price of cancelling**: the best(λ) frontier, :mod:`explodice.analysis.frontier`.

For every state of the initial throw, ``(n1, n6, s)`` (the 1s, the 6s, and the sum of the
other faces), the table gives ``k``: the pairs of one 1 and one 6 set aside. ``keep``,
``cancel``, ``best(λ)``, the NPC's forced cancel and the kinds outside the rule are all just
different tables.

>>> from explodice import Roll, Rules
>>> int(policy_table(Roll(policy="cancel"), Rules())[1, 2, 0])  # one 1, two 6s: one pair
1
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from explodice.engine.dice import (
    EXPLODING_DIE_MEAN,
    P_CHAIN_ENDS_IN_ONE,
    chains,
    convolve,
    exploding_die,
    initial_states,
    malus_pmf,
    negate,
    sf_at,
    survival,
)
from explodice.game.rules import Best, MalusDie, Roll, Rules

__all__ = [
    "STATE_SHAPE",
    "chain_survival",
    "choice_states",
    "choice_value",
    "expected_drain",
    "kept_dice",
    "policy_table",
]

STATE_SHAPE = (5, 5, 21)  # n1 in 0..4, n6 in 0..4, s in 0..20
_TIE = 1e-12


def expected_drain(kept_ones: int, kept_sixes: int, rules: Rules) -> float:
    """E[drain] once the choice is made: 4.2 per kept 1 (and per chain ending on a 1)."""
    ones = kept_ones + (P_CHAIN_ENDS_IN_ONE * kept_sixes if rules.ones_on_explosions else 0.0)
    return EXPLODING_DIE_MEAN * ones


@lru_cache(maxsize=128)
def chain_survival(b: int, malus: MalusDie | None, fresh: bool = False) -> tuple[np.ndarray, int]:
    """Survival ``(sf, lo)`` of what ``b`` kept 6s add (6 + an exploding die each), plus one
    fresh exploding die when ``fresh`` (Lucky's reroll of a kept 1 after the choice), minus
    the malus die if any (``"exploding"`` or ``"plain"``, :func:`~explodice.engine.dice.malus_pmf`):
    ``sf[i] = P(value >= lo + i)``. Read through :func:`choice_value`."""
    pmf = (chains(b, False)[0], 0)
    if fresh:
        pmf = convolve(pmf, exploding_die())
    if malus is not None:
        pmf = convolve(pmf, negate(malus_pmf(malus)))
    return survival(pmf)


def choice_states(roll: Roll, rules: Rules) -> dict[tuple[int, int, int], float]:
    """The states ``(n1, n6, s)`` the rule of 1's choice reads, with their probabilities: the
    initial throw, after Lucky's reroll only when it comes before the choice."""
    return initial_states(roll.pool_size(rules), roll.lucky_before_choice(rules))


def kept_dice(roll: Roll, rules: Rules, n1: int, k: int) -> tuple[int, bool]:
    """``(kept 1s, fresh)`` once ``k`` of the ``n1`` 1s are set aside in pairs: under
    ``lucky_timing="after_choice"`` Lucky rerolls one kept 1 (if any), which then neither
    adds 1 nor drains but adds a fresh exploding die (``fresh``). Rerolling is always right:
    the new die adds at least 1 (what the 1 added) and drains nothing, so the player never
    declines it."""
    a = n1 - k
    fresh = a > 0 and roll.lucky_after_choice(rules)
    return a - int(fresh), fresh


def choice_value(
    roll: Roll, rules: Rules, n1: int, n6: int, s: int, k: int, need: int
) -> tuple[float, float]:
    """``(P(dice total >= need), E[drain])`` in throw state ``(n1, n6, s)`` when ``k`` pairs
    are set aside: what the best(λ) tables and :mod:`explodice.analysis.frontier` weigh.

    Keeping a 1, a 6 and a 3 with Lucky after the choice, needing 16: the 1 is rerolled into
    X and the 6 explodes into 6 + Y, so 3 + 6 + X + Y >= 16 when X + Y >= 7 (21 of the 36
    pairs of faces 1..6; any 6 explodes past it), and nothing drains:

    >>> from explodice import Roll, Rules
    >>> lucky = Roll(policy="cancel", reroll="one")
    >>> p, drain = choice_value(lucky, Rules(lucky_timing="after_choice"), 1, 1, 3, 0, 16)
    >>> round(p * 36, 9), drain
    (21.0, 0.0)
    """
    ones, fresh = kept_dice(roll, rules, n1, k)
    b = n6 - k
    p = sf_at(chain_survival(b, roll.malus_die(rules), fresh), need - s - ones)
    return p, expected_drain(ones, b, rules)


@lru_cache(maxsize=1024)
def policy_table(roll: Roll, rules: Rules) -> np.ndarray:
    """The table ``k[n1, n6, s]`` of pairs cancelled, for this roll under these rules."""
    applies = roll.rule_of_one_applies(rules)
    if applies and (roll.actor == "npc" or roll.policy == "cancel"):  # an NPC has no choice
        n1, n6 = np.indices(STATE_SHAPE)[:2]
        k = np.minimum(n1, n6).astype(np.int8)
    elif applies and isinstance(roll.policy, Best):
        k = _best_table(roll, rules)
    else:  # keep, or a kind outside the rule of 1
        k = np.zeros(STATE_SHAPE, dtype=np.int8)
    k.setflags(write=False)
    return k


def _best_table(roll: Roll, rules: Rules) -> np.ndarray:
    """k per state: the largest k within _TIE of the best P(success) - λ E[drain]."""
    policy = roll.policy
    assert isinstance(policy, Best)
    need_base = policy.dc - roll.modifier
    pool = roll.pool_size(rules)
    k = np.zeros(STATE_SHAPE, dtype=np.int8)
    for n1 in range(pool + 1):
        for n6 in range(pool + 1 - n1):
            if min(n1, n6) == 0:
                continue
            others = pool - n1 - n6
            for s in range(2 * others, 5 * others + 1):
                best_k, best_value = 0, -np.inf
                for kk in range(min(n1, n6) + 1):
                    p, drain = choice_value(roll, rules, n1, n6, s, kk, need_base)
                    value = p - policy.weight * drain
                    if value >= best_value - _TIE:
                        best_k, best_value = kk, max(value, best_value)
                k[n1, n6, s] = best_k
    return k
