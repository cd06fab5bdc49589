"""Working together and group tests (docs/rules.md): a helper's advantage
(:func:`working_together`) and the chance that enough of a group succeed
(:func:`group_success`, :func:`count_successes`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.resolutions.common import Shown, label_of, prepare, provenance
from explodice.core.errors import ExplodiceTypeError, check_items, fail, shown
from explodice.core.words import Phrase
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.checks import check_roll
from explodice.game.rules import ExplodiceError, Roll, Rules, check_int
from explodice.game.tables import System

__all__ = [
    "Group",
    "Together",
    "count_successes",
    "group_success",
    "working_together",
]


_HELPED = {"normal": "advantage", "advantage": "advantage", "disadvantage": "normal"}


@dataclass(frozen=True)
class Together(Shown):
    """Working together: the leader rolls with advantage (netted with its own state).
    ``p`` and ``p_alone`` are P(success) with and without the help, when a DC is given."""

    roll: Roll
    distribution: Distribution = field(repr=False)
    leader: int
    dc: int | None = None
    p: float | None = None
    p_alone: float | None = None

    def summary(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "roll": label_of(self.distribution),
            "dc": self.dc,
            "p": self.p,
            "p_alone": self.p_alone,
            **provenance([self.distribution]),
        }


def working_together(
    rolls: Sequence[Roll],
    dc: int | None = None,
    *,
    leader: int | None = None,
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Together:
    """The helped roll: the ``leader`` (by default the best modifier) rolls with advantage.

    An advantage source nets with the roll's own state: a roll at disadvantage becomes normal.

    >>> t = working_together([Roll(1), Roll(3)], dc=16)
    >>> t.leader, t.roll.advantage, round(t.p, 4) > round(t.p_alone, 4)
    (1, 'advantage', True)
    """
    rolls = check_items("rolls", rolls, what=Phrase("Roll objects"))
    for i, r in enumerate(rolls):
        check_roll(r, f"rolls[{i}]")
    if leader is None:
        leader = max(range(len(rolls)), key=lambda i: rolls[i].modifier)
    leader = check_int("leader", leader, lo=0, hi=len(rolls) - 1)
    helped = rolls[leader].replace(advantage=_HELPED[rolls[leader].advantage])
    d, alone = prepare(
        [helped, rolls[leader]],
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    if dc is None:
        return Together(helped, d, leader)
    dc = check_int("dc", dc)
    return Together(helped, d, leader, dc, float(d.p_success(dc)), float(alone.p_success(dc)))


# -- group tests ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Group(Shown):
    """A group test: every member rolls; it succeeds when at least ``need`` = ceil(n/2)
    succeed. ``p_each`` is each member's P(success), ``count_pmf[k]`` P(k successes)."""

    p: float
    need: int
    p_each: tuple[float, ...]
    count_pmf: tuple[float, ...] = field(repr=False)
    system: System = "3d6x"
    method: str = "exact"
    n: int | None = None
    seed: Any = None

    def summary(self) -> dict[str, Any]:
        return {
            "p": self.p,
            "members": len(self.p_each),
            "need": self.need,
            "p_each": ", ".join(f"{p:.3f}" for p in self.p_each),
            "p_all": self.count_pmf[-1],
            "p_none": self.count_pmf[0],
            "system": self.system,
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
        }

    def to_frame(self) -> pd.DataFrame:
        """P(k successes) for k = 0..members, and whether the group succeeds."""
        k = np.arange(len(self.count_pmf))
        return pd.DataFrame({"successes": k, "p": self.count_pmf, "group_succeeds": k >= self.need})


def count_successes(p_each: Iterable[float]) -> np.ndarray:
    """P(exactly k successes) of independent trials (the Poisson-binomial PMF), k = 0..n."""
    pmf = np.array([1.0])
    for p in p_each:
        pmf = np.convolve(pmf, [1.0 - p, p])
    return pmf


def group_success(
    rolls: Sequence[Roll | Distribution],
    *,
    dc: int | Sequence[int],
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Group:
    """P(at least half of the group succeeds), members with their own rolls; exact.

    ``dc`` is one DC for all, or one per member.

    >>> from explodice import exact
    >>> g = group_success([Roll(5), Roll(0), Roll(-1)], dc=16)
    >>> a, b, c = (exact(Roll(m)).p_success(16) for m in (5, 0, -1))
    >>> g.need, abs(g.p - (a * b + a * c + b * c - 2 * a * b * c)) < 1e-12   # 2 of 3, by hand
    (2, True)
    """
    rolls = check_items("rolls", rolls, what=Phrase("rolls"))
    if isinstance(dc, (str, bytes, Mapping)):
        raise fail("dc", dc, Phrase("one DC or one per member"), ExplodiceTypeError)
    if isinstance(dc, np.ndarray) and dc.ndim == 0:
        dc = dc.item()
    dcs = list(dc) if isinstance(dc, Iterable) else [dc] * len(rolls)
    if len(dcs) != len(rolls):
        raise ExplodiceError(
            Phrase(
                "`dc` must be one DC or one per member ({n_rolls}), but {dc} was passed.",
                n_rolls=len(rolls),
                dc=shown(dc),
            )
        )
    dists = prepare(
        rolls,
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    p_each = tuple(float(d.p_success(check_int("dc", x))) for d, x in zip(dists, dcs))
    counts = count_successes(p_each)
    need = math.ceil(len(rolls) / 2)
    return Group(
        p=float(counts[need:].sum()),
        need=need,
        p_each=p_each,
        count_pmf=tuple(float(c) for c in counts),
        **provenance(dists),
    )
