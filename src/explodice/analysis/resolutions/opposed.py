"""Opposed tests (docs/rules.md, "Opposed tests"): P(win), P(tie), P(loss) of one roll
against another, from their exact PMFs (:func:`opposed`).

>>> from explodice import Roll
>>> o = opposed(Roll(2), Roll(0))
>>> round(o.win + o.tie + o.loss, 12)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.resolutions.common import Shown, label_of, prepare, provenance, total_pmf
from explodice.analysis.success import (
    refuse_failure_reroll,
)
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.rules import Roll, Rules
from explodice.game.tables import System

__all__ = [
    "Opposed",
    "opposed",
]


@dataclass(frozen=True)
class Opposed(Shown):
    """An opposed test: P(A wins), P(tie: the status quo holds), P(A loses); ``margin`` is
    the PMF of total A - total B (a Series indexed by the margin)."""

    win: float
    tie: float
    loss: float
    margin: pd.Series = field(repr=False)
    a: str = ""
    b: str = ""
    system: System = "3d6x"
    method: str = "exact"
    n: int | None = None
    seed: Any = None

    def summary(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
            "mean margin": float(self.margin.index.to_numpy() @ self.margin.to_numpy()),
            "system": self.system,
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
        }


def opposed(
    roll_a: Roll | Distribution,
    roll_b: Roll | Distribution,
    *,
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Opposed:
    """Both sides roll their own test; the higher total wins, a tie keeps the status quo.

    Each side has its own modifier, advantage and policy (a :class:`Roll`), or is a ready
    :class:`Distribution` (of either system). Exact from the two PMFs: the margin's PMF is
    their cross-correlation.

    >>> o = opposed(Roll(0), Roll(0), system="d20")
    >>> round(o.win, 6), round(o.tie, 6)
    (0.475, 0.05)

    A reroll on failure is refused on either side (an opposed test has no DC to fail).
    """
    refuse_failure_reroll(roll_a, "roll_a", "an opposed test")
    refuse_failure_reroll(roll_b, "roll_b", "an opposed test")
    da, db = prepare(
        [roll_a, roll_b],
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    pa, pb = total_pmf(da), total_pmf(db)
    diff = np.convolve(pa, pb[::-1])
    lo = da.lo - (db.lo + pb.size - 1)
    margins = np.arange(lo, lo + diff.size)
    keep = diff > 0
    return Opposed(
        win=float(diff[margins > 0].sum()),
        tie=float(diff[margins == 0].sum()),
        loss=float(diff[margins < 0].sum()),
        margin=pd.Series(diff[keep], index=pd.Index(margins[keep], name="margin"), name="p"),
        a=label_of(da),
        b=label_of(db),
        **provenance([da, db]),
    )
