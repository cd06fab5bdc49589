"""One compiled description of a roll, read by every engine.

:func:`compile_roll` turns a :class:`~explodice.Roll` under :class:`~explodice.Rules` into a
:class:`CompiledRoll`: plain arrays and flags, built once (cached) and read by the exact
engine's policy, the CPU kernels, the CUDA kernels and the day kernel, so they cannot read
the rules differently.

>>> from explodice import Roll, Rules
>>> c = compile_roll(Roll(2, advantage="advantage"), Rules())
>>> c.pool, c.malus, c.drains, c.throw_table.size == 6**6
(4, False, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from explodice.engine.dice import face_sequences, throw_counts
from explodice.engine.rule_of_one import STATE_SHAPE, policy_table
from explodice.game.rules import Roll, Rules

__all__ = [
    "THROW_DEPTH",
    "CompiledRoll",
    "RollFlags",
    "compile_roll",
    "face_tables",
    "throw_table",
]


class RollFlags(NamedTuple):
    """The rules of one roll as the kernels read them: one value, not seven positional flags
    (:meth:`CompiledRoll.flags`; the fields are :class:`CompiledRoll`'s of the same names).

    numba reads it as a struct of booleans, the CUDA launcher passes its fields one by one, and a
    kernel reads the fields it needs by name at its top (``malus = flags.malus``: the order of
    the fields matters nowhere). The day kernel builds one from a variant's fields
    (:mod:`explodice.day._kernel`).

    >>> RollFlags(*[False] * 7)._fields[:3]
    ('malus', 'plain_malus', 'lucky')
    """

    malus: bool
    plain_malus: bool
    lucky: bool
    lucky_after: bool
    rule_applies: bool
    drains: bool
    explosion_ones: bool


@dataclass(frozen=True, eq=False)
class CompiledRoll:
    """What the kernels need to know of one roll, by name.

    - ``pool``: dice in the initial throw (2, 3 or 4);
    - ``face_n1``, ``face_n6``, ``face_s``: for each of the 6**pool initial throws, its 1s,
      its 6s and the sum of its other faces (int8);
    - ``k_table``: the rule-of-1 policy, pairs cancelled by state (1s, 6s, sum of the rest);
    - ``throw_table``: the initial throw with the policy applied and its first explosions, one
      int16 entry per face sequence (see :func:`throw_table`);
    - ``malus``: a die is subtracted (disadvantage under ``subtract``): an exploding one,
      unless ``plain_malus``;
    - ``plain_malus``: that die is a plain d6, 1..6 (``Rules.malus_die == "plain"``);
    - ``lucky``: the roll has Lucky, so the kernels go face by face: one initial 1 is
      rerolled before the choice, unless ``lucky_after``;
    - ``lucky_after``: Lucky comes after the choice (``Rules.lucky_timing ==
      "after_choice"``): one kept 1 becomes a fresh exploding die, summed, which drains
      nothing (the policy table already knows it);
    - ``rule_applies``: the roll's kind is under the rule of 1 (kept 1s are counted);
    - ``drains``: kept 1s drain a gauge (a PC's roll under the rule);
    - ``explosion_ones``: 1s shown by explosion dice count too.
    """

    pool: int
    face_n1: np.ndarray
    face_n6: np.ndarray
    face_s: np.ndarray
    k_table: np.ndarray
    throw_table: np.ndarray
    malus: bool
    lucky: bool
    rule_applies: bool
    drains: bool
    explosion_ones: bool
    plain_malus: bool = False
    lucky_after: bool = False

    def flags(self) -> RollFlags:
        """The roll's flags in one record, as the kernels take them (``chunk_throws``,
        ``chunk_face_by_face`` and ``chunk_attack`` on the CPU, ``roll_histogram`` on CUDA).

        >>> from explodice import Roll, Rules
        >>> f = compile_roll(Roll(advantage="disadvantage"), Rules(malus_die="plain")).flags()
        >>> f.malus, f.plain_malus, f.lucky
        (True, True, False)
        """
        return RollFlags(
            *map(
                bool,  # one type for all (numba's struct of booleans, one compile)
                (
                    self.malus,
                    self.plain_malus,
                    self.lucky,
                    self.lucky_after,
                    self.rule_applies,
                    self.drains,
                    self.explosion_ones,
                ),
            )
        )


@lru_cache(maxsize=256)
def compile_roll(roll: Roll, rules: Rules) -> CompiledRoll:
    """The :class:`CompiledRoll` of ``roll`` under ``rules`` (cached: built once per pair)."""
    pool = roll.pool_size(rules)
    n1, n6, s = face_tables(pool)
    k = np.ascontiguousarray(policy_table(roll, rules))
    applies = roll.rule_of_one_applies(rules)
    return CompiledRoll(
        pool=pool,
        face_n1=n1,
        face_n6=n6,
        face_s=s,
        k_table=k,
        throw_table=throw_table(roll, rules),
        malus=roll.has_malus_die(rules),
        lucky=roll.lucky,
        rule_applies=applies,
        drains=roll.drains(rules),
        explosion_ones=applies and rules.ones_on_explosions,
        plain_malus=roll.malus_die(rules) == "plain",
        lucky_after=roll.lucky_after_choice(rules),
    )


@cache
def face_tables(pool: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of the 6**pool initial throws: its 1s, its 6s and the sum of its other faces."""
    n1, n6, s = throw_counts(face_sequences(pool))
    return n1.astype(np.int8), n6.astype(np.int8), s.astype(np.int8)


THROW_DEPTH = {2: 5, 3: 6, 4: 6}  # faces read per draw, by pool size


@lru_cache(maxsize=256)
def throw_table(
    roll: Roll, rules: Rules, depth: int | None = None, k_table: bytes | None = None
) -> np.ndarray:
    """The initial throw and the first faces of its explosions, one entry per face sequence.

    Entry ``u`` of the 6**L entries (L = ``depth``, by default :data:`THROW_DEPTH`) reads u's
    base-6 digits as faces:
    the first ``pool`` are the initial throw, the policy table sets its pairs aside, and the
    rest feed the kept 6s' explosions in order. It packs the dice total so far, the kept 1s
    (with the explosion 1s when they count) and the exploding dice still to roll:
    ``total | ones << 8 | remaining << 11`` (int16). Neither the lucky reroll (at either
    timing) nor the malus die is in the table.
    ``k_table`` (the bytes of an int8 choice table like
    :func:`~explodice.engine.rule_of_one.policy_table`'s, hashable for the cache) replaces the
    roll's own policy (a state-dependent policy's choices).
    """
    pool = roll.pool_size(rules)
    depth = THROW_DEPTH[pool] if depth is None else depth
    faces = face_sequences(depth)
    n1, n6, s = throw_counts(faces[:, :pool])
    table = (
        policy_table(roll, rules)
        if k_table is None
        else np.frombuffer(k_table, dtype=np.int8).reshape(STATE_SHAPE)
    )
    k = table[n1, n6, s].astype(np.int64)
    ones = n1 - k
    total = s + ones + 6 * (n6 - k)
    remaining = n6 - k  # exploding dice still to roll: each 6 read below adds one more
    count_explosion_ones = roll.rule_of_one_applies(rules) and rules.ones_on_explosions
    for j in range(pool, depth):
        f = faces[:, j]
        rolling = remaining > 0
        total += np.where(rolling, f, 0)
        ends = rolling & (f != 6)
        remaining -= ends
        if count_explosion_ones:
            ones += ends & (f == 1)
    if not roll.rule_of_one_applies(rules):
        ones[:] = 0
    assert total.max() < 256 and ones.max() < 8 and remaining.max() < 16
    table = (total | ones << 8 | remaining << 11).astype(np.int16)
    table.setflags(write=False)
    return table
