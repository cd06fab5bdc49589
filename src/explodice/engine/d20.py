"""The d20 reference system (seeds 001 and 004): 1d20 + modifier against a DC.

Advantage throws 2d20 and keeps the higher, disadvantage keeps the lower. On an attack a
natural 1 always misses and a natural 20 always hits. The result is a :class:`Distribution`
like the 3d6x engines' (so every analysis is one code path), with no drain; its ``kept_ones``
axis counts the natural 1 of the kept die, the complication of seed 001's optional rule.

>>> from explodice import Roll, d20
>>> round(d20(Roll(3)).p_success(15), 12) == (21 - 15 + 3) / 20   # faces 12..20: 9 of 20
True
>>> round(d20(Roll(3, advantage="advantage")).p_success(15), 6) == round(1 - 0.55**2, 6)
True
>>> d20(Roll(12, kind="attack")).p_success(40)  # a natural 20 always hits
0.05
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from explodice.core.errors import check_choice, check_flag
from explodice.engine.d20_reroll import kept_face_pmf_with_reroll, simulate_faces
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import METHODS, Method
from explodice.engine.seeding import (
    DEFAULT_CHUNK,
    MAX_ROLLS,
    chunk_children,
    chunk_sizes,
    resolve_seed,
    seed_record,
)
from explodice.game.checks import check_roll
from explodice.game.rules import ADVANTAGE_STATES, Advantage, ExplodiceError, Roll, check_int
from explodice.game.tables import D20_DCS

__all__ = ["D20_DCS", "D20Distribution", "d20", "kept_face_pmf"]

_FACES = np.arange(1, 21)


def kept_face_pmf(advantage: Advantage) -> np.ndarray:
    """P(kept die = f) for f = 1..20: 1/20; (2f - 1)/400 with advantage; (41 - 2f)/400 with
    disadvantage.

    >>> float(kept_face_pmf("advantage")[19] * 400), float(kept_face_pmf("disadvantage")[0] * 400)
    (39.0, 39.0)
    """
    check_choice("advantage", advantage, ADVANTAGE_STATES, ExplodiceError)
    if advantage == "advantage":
        return (2 * _FACES - 1) / 400.0
    if advantage == "disadvantage":
        return (41 - 2 * _FACES) / 400.0
    return np.full(20, 1 / 20)


@dataclass(frozen=True, eq=False, repr=False)
class D20Distribution(Distribution):
    """A d20 roll's distribution: totals ``lo .. lo + 19`` (``lo = 1 + modifier``).

    With ``naturals`` (attacks), :meth:`p_success` applies the natural 1 (always misses) and
    the natural 20 (always hits); the totals themselves are untouched.
    """

    naturals: bool = False

    @property
    def modifier(self) -> int:
        """The roll's modifier (``lo - 1``)."""
        return self.lo - 1

    @property
    def p_natural_1(self) -> float:
        """P(the kept die shows 1): the complication of seed 001's optional rule."""
        return float(self.ones_pmf[1]) / self._mass if self.ones_pmf.size > 1 else 0.0

    @property
    def p_natural_20(self) -> float:
        """P(the kept die shows 20)."""
        return float(self.total_pmf[19]) / self._mass

    def success_threshold(self, dc: int | Iterable[int]) -> np.ndarray:
        """The total from which the roll succeeds; on an attack a natural 1 misses and a 20
        hits: success iff face == 20 or (face != 1 and face + modifier >= dc)."""
        need = super().success_threshold(dc)
        if not self.naturals:
            return need
        return np.clip(need - self.modifier, 2, 20) + self.modifier

    @property
    def label(self) -> str:
        """What was rolled, in words: 'd20+3, advantage, check'."""
        if self.roll is None:
            return f"d20{self.modifier:+d}"
        return f"d20{self.roll.modifier:+d}, {self.roll.advantage}, {self.roll.kind}"

    def __repr__(self) -> str:
        what = self.label
        how = (
            self.method if not self.simulated else f"{self.method}, n={self.n:,}, seed={self.seed}"
        )
        return (
            f"D20Distribution({what}; {how}; mean={self.mean:.4f}, "
            f"P(natural 1)={self.p_natural_1:.4f})"
        )


def d20(
    roll: Roll,
    *,
    method: Method = "exact",
    n: int = 1_000_000,
    seed: int | np.random.SeedSequence | None = None,
    naturals: bool | None = None,
) -> D20Distribution:
    """The d20 system's distribution for ``roll`` (its modifier, advantage and kind).

    ``naturals`` (natural 1 misses, 20 hits) defaults to ``roll.kind == "attack"``. ``method``
    is ``"exact"`` or ``"simulate"`` (``n`` rolls in fixed chunks, each with a stream spawned
    from ``seed``: the numbers depend on the seed only).

    The lower of two d20 shows a 1 unless both dice are above 1, and its mean is the sum
    over k of P(min >= k) = ((21 - k) / 20)**2:

    >>> d = d20(Roll(0, advantage="disadvantage"))
    >>> round(d.p_natural_1, 12) == round(1 - (19 / 20) ** 2, 12)
    True
    >>> round(d.mean, 12) == round(sum(((21 - k) / 20) ** 2 for k in range(1, 21)), 12)
    True
    """
    roll = check_roll(roll)
    check_choice("method", method, METHODS, ExplodiceError)
    naturals = check_flag("naturals", naturals, none=True)
    naturals = roll.kind == "attack" if naturals is None else naturals
    face = (
        kept_face_pmf(roll.advantage)
        if roll.reroll is None
        else kept_face_pmf_with_reroll(roll, naturals=naturals)
    )  # Reroll: Lucky, failure
    common: dict[str, Any] = dict(roll=roll, system="d20", naturals=naturals)
    if method == "exact":
        pmf = np.zeros((20, 1, 2))
        pmf[:, 0, 0] = face
        pmf[0, 0, 0], pmf[0, 0, 1] = 0.0, face[0]
        return D20Distribution(pmf, 1 + roll.modifier, method="exact", **common)
    n = check_int("n", n, lo=1, hi=MAX_ROLLS)
    ss = resolve_seed(seed)
    sizes = chunk_sizes(n, DEFAULT_CHUNK)
    hist = np.zeros(20, dtype=np.int64)
    for size, child in zip(sizes, chunk_children(ss, sizes.size)):
        rng = np.random.Generator(np.random.PCG64(child))
        if roll.reroll is not None:
            kept = simulate_faces(roll, rng, int(size), naturals=naturals)
        else:
            dice = rng.integers(1, 21, size=(2 if roll.advantage != "normal" else 1, int(size)))
            kept = dice.max(axis=0) if roll.advantage == "advantage" else dice.min(axis=0)
        hist += np.bincount(kept, minlength=21)[1:]
    counts = np.zeros((20, 1, 2), dtype=np.int64)
    counts[1:, 0, 0] = hist[1:]
    counts[0, 0, 1] = hist[0]
    counts.setflags(write=False)
    entropy = seed_record(ss)
    return D20Distribution(
        counts / n, 1 + roll.modifier, method="simulate", n=n, seed=entropy, counts=counts, **common
    )
