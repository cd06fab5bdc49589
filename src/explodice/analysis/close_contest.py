"""Lutte serrée, close contests (optional rule of seed 001, both systems; ``Rules.close_contest``).

A tie (an opposed test whose totals are equal, or a total equal to its DC) is settled by
secret bids of hit points: each side writes a bid (0 allowed); the higher bid wins and pays
its bid, the loser pays nothing; equal bids are paid by both and bidding starts again.

How people bid is a model: each side's bid is drawn, at every round, from a distribution over
0..B (a fixed bid, uniform, or any probability vector). :func:`close_contest` gives who wins
and the HP each side pays (distribution and mean), exactly: the rounds of equal bids form a
geometric run, each adding the same cost to both sides. :func:`settle` plays given bids.

The seed's example: Aleksandr and a brigand tie; both bid 3, then 4 against 3.

>>> settle([3, 4], [3, 3])
('a', 7, 3)
>>> c = close_contest(3, "uniform:4")  # a fixed 3 against a bid uniform over 0..4
>>> round(c.p_win_a, 6)  # the brigand bids 0-2 (A wins), 4 (B wins) or 3 (again): 3/4
0.75
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.success import (
    DEFAULT_N,
    Sampling,
    as_distribution,
    check_system,
    refuse_failure_reroll,
)
from explodice.core.errors import check_choice, shown
from explodice.game.checks import check_rules
from explodice.game.rules import ExplodiceError, Rules, check_int

__all__ = ["CloseContest", "ClosedTie", "bid_model", "close_contest", "close_opposed", "settle"]

MAX_BID = 1000
_TOL = 1e-15


def bid_model(spec: Any, field_name: str = "bids") -> np.ndarray:
    """A bid distribution over 0..B from its description: an integer (a fixed bid),
    ``"uniform:B"`` or ``("uniform", B)`` (each of 0..B equally likely), or a sequence of
    probabilities for bids 0, 1, 2, ... (summing to 1).

    >>> bid_model(2).tolist(), bid_model("uniform:2").round(3).tolist()
    ([0.0, 0.0, 1.0], [0.333, 0.333, 0.333])
    """
    allowed = (
        "a bid (an integer 0..1000), 'uniform:B', ('uniform', B) or a probability "
        "vector over bids 0..B"
    )
    if isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        bid = check_int(field_name, spec, lo=0, hi=MAX_BID)
        out = np.zeros(bid + 1)
        out[bid] = 1.0
        return out
    if isinstance(spec, str) and spec.strip().lower().startswith("uniform:"):
        spec = ("uniform", spec.split(":", 1)[1].strip())
    if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "uniform":
        try:
            top = int(spec[1])
        except (TypeError, ValueError):
            raise ExplodiceError(
                f"`{field_name}` must be {allowed}, but {shown(spec)} was passed."
            ) from None
        top = check_int(f"{field_name} (uniform's B)", top, lo=0, hi=MAX_BID)
        return np.full(top + 1, 1.0 / (top + 1))
    if isinstance(spec, np.ndarray) and spec.ndim == 0:
        spec = spec.item()  # a 0-d array: its one number
    if isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        return bid_model(spec, field_name)
    if isinstance(spec, (Sequence, np.ndarray)) and not isinstance(spec, str) and len(spec):
        try:
            p = np.asarray(spec, dtype=float)
        except (TypeError, ValueError):
            raise ExplodiceError(
                f"`{field_name}` must be {allowed}, but {shown(spec)} was passed."
            ) from None
        if (
            p.ndim != 1
            or p.size > MAX_BID + 1
            or not np.isfinite(p).all()
            or (p < 0).any()
            or abs(p.sum() - 1.0) > 1e-9
        ):
            raise ExplodiceError(
                f"`{field_name}` must be {allowed} (non-negative, summing to "
                f"1), but {shown(spec)} was passed."
            )
        return p / p.sum()
    raise ExplodiceError(f"`{field_name}` must be {allowed}, but {shown(spec)} was passed.")


def settle(bids_a: Sequence[int], bids_b: Sequence[int]) -> tuple[str, int, int]:
    """Play given bids round by round: ``(winner 'a' or 'b', HP paid by a, HP paid by b)``.

    >>> settle([2], [5])
    ('b', 0, 5)
    """
    if len(bids_a) != len(bids_b) or not len(bids_a):
        raise ExplodiceError(
            "`bids_a` and `bids_b` must be non-empty and of the same length "
            f"(one bid each per round), but {shown(bids_a)} and {shown(bids_b)} were passed."
        )
    hp_a = hp_b = 0
    for r, (x, y) in enumerate(zip(bids_a, bids_b)):
        x = check_int(f"bids_a[{r}]", x, lo=0)
        y = check_int(f"bids_b[{r}]", y, lo=0)
        if x > y:
            return "a", hp_a + x, hp_b
        if y > x:
            return "b", hp_a, hp_b + y
        hp_a, hp_b = hp_a + x, hp_b + y
    raise ExplodiceError(
        f"the bids end on equal bids ({bids_a[-1]} and {bids_b[-1]}): bidding "
        "starts again, so give the next round too."
    )


@dataclass(frozen=True)
class CloseContest:
    """One tie settled by bids: who wins and the HP each side pays. ``hp`` is the joint PMF
    (a tidy frame hp_a, hp_b, p); ``omitted`` the mass of runs of ties cut beyond 1e-15."""

    p_win_a: float
    hp: pd.DataFrame = field(repr=False)
    p_equal_bids: float
    omitted: float = 0.0

    @property
    def p_win_b(self) -> float:
        """P(side B wins the tie)."""
        return 1.0 - self.p_win_a - self.omitted

    @property
    def hp_a_mean(self) -> float:
        """E[HP paid by side A]."""
        return float(self.hp.hp_a @ self.hp.p)

    @property
    def hp_b_mean(self) -> float:
        """E[HP paid by side B]."""
        return float(self.hp.hp_b @ self.hp.p)

    @property
    def rounds_mean(self) -> float:
        """E[rounds of bidding]: 1 / (1 - P(equal bids))."""
        return 1.0 / (1.0 - self.p_equal_bids)

    def hp_pmf(self, side: str) -> pd.Series:
        """The PMF of the HP paid by ``side`` (``"a"`` or ``"b"``), indexed by HP."""
        check_choice("side", side, ("a", "b"), ExplodiceError)
        return self.hp.groupby(f"hp_{side}").p.sum()

    def summary(self) -> dict[str, float]:
        return {
            "p_win_a": self.p_win_a,
            "p_win_b": self.p_win_b,
            "hp_a_mean": self.hp_a_mean,
            "hp_b_mean": self.hp_b_mean,
            "rounds_mean": self.rounds_mean,
        }


def close_contest(bids_a: Any, bids_b: Any) -> CloseContest:
    """Settle one tie with bids drawn independently each round from the two models
    (see :func:`bid_model`).

    >>> c = close_contest("uniform:3", "uniform:3")
    >>> round(c.p_win_a, 6), round(c.hp_a_mean, 6) == round(c.hp_b_mean, 6)
    (0.5, True)
    """
    a, b = bid_model(bids_a, "bids_a"), bid_model(bids_b, "bids_b")
    size = max(a.size, b.size)
    a, b = np.pad(a, (0, size - a.size)), np.pad(b, (0, size - b.size))
    tie = a * b  # both bid v: both pay v, and bid again
    e = float(tie.sum())
    if e > 1 - 1e-12:
        raise ExplodiceError(
            "the two bid models always bid the same: equal bids start again "
            "forever. Give one side another bid or a distribution."
        )
    win_a = a * (np.cumsum(b) - b)  # A bids x, B bids less
    win_b = b * (np.cumsum(a) - a)
    runs = np.zeros(1)
    runs[0] = 1.0
    cost = np.zeros(1)  # C[v]: P(some run of equal bids costing v happened), summed over runs
    mass = 1.0
    while mass > _TOL:
        cost = np.pad(cost, (0, max(0, runs.size - cost.size)))
        cost[: runs.size] += runs
        runs = np.convolve(runs, tie)
        mass = float(runs.sum())
        if runs.size > 10**6:  # pragma: no cover - e below 1 - 1e-12 ends long before
            break
    omitted = mass
    n_hp = cost.size + size
    joint = np.zeros((n_hp, n_hp))
    for v in np.nonzero(cost > 0)[0]:
        joint[v + np.arange(size), v] += cost[v] * win_a
        joint[v, v + np.arange(size)] += cost[v] * win_b
    ha, hb = np.nonzero(joint > 0)
    hp = pd.DataFrame({"hp_a": ha, "hp_b": hb, "p": joint[ha, hb]})
    return CloseContest(float(cost.sum() * win_a.sum()), hp, e, omitted)


@dataclass(frozen=True)
class ClosedTie:
    """An opposed test (or a roll against a DC) with its ties settled by bids:
    ``p_win_a`` overall, ``p_tie`` (how often the bids are needed), and the HP each side pays
    on average per test."""

    p_win_a: float
    p_tie: float
    contest: CloseContest = field(repr=False)

    @property
    def hp_a_mean(self) -> float:
        return self.p_tie * self.contest.hp_a_mean

    @property
    def hp_b_mean(self) -> float:
        return self.p_tie * self.contest.hp_b_mean

    def summary(self) -> dict[str, float]:
        return {
            "p_win_a": self.p_win_a,
            "p_tie": self.p_tie,
            "hp_a_mean": self.hp_a_mean,
            "hp_b_mean": self.hp_b_mean,
        }


def close_opposed(
    roll_a: Any,
    roll_b: Any | None = None,
    *,
    dc: int | None = None,
    bids_a: Any = "uniform:5",
    bids_b: Any = "uniform:5",
    system: str = "3d6x",
    rules: Rules | None = None,
    method: str = "exact",
    n: int = DEFAULT_N,
    seed: Any = None,
    threads: int | None = None,
) -> ClosedTie:
    """Side A's roll against side B's roll (an opposed test) or against ``dc``, with the ties
    settled by bids (the higher total wins outright; a tie goes to the bids).

    >>> from explodice import Roll, exact
    >>> t = close_opposed(Roll(0), dc=12, bids_a=2, bids_b="uniform:3")
    >>> d = exact(Roll(0))
    >>> p_tie = float(d.p_success(12) - d.p_success(13))
    >>> # B bids 0 or 1: A wins; 3: B wins; 2: again. So A takes a tie with (2/4) / (3/4)
    >>> bool(abs(t.p_win_a - (d.p_success(13) + p_tie * 2 / 3)) < 1e-12)
    True
    """
    rules = check_rules(rules)
    system = check_system(system)
    sampling = Sampling(method, n, seed, threads)
    da = as_distribution(roll_a, system, rules, sampling)
    pa = da.total_pmf / da.total_pmf.sum()
    if (roll_b is None) == (dc is None):
        raise ExplodiceError("give either `roll_b` (an opposed test) or `dc`, not both.")
    if dc is not None:
        dc = check_int("dc", dc)
        p_above = float(pa[da.totals > dc].sum())
        p_tie = float(pa[da.totals == dc].sum())
    else:
        refuse_failure_reroll(roll_a, "roll_a", "an opposed test")
        refuse_failure_reroll(roll_b, "roll_b", "an opposed test")
        db = as_distribution(roll_b, system, rules, sampling)
        pb = db.total_pmf / db.total_pmf.sum()
        diff = np.convolve(pa, pb[::-1])
        margins = np.arange(diff.size) + da.lo - (db.lo + pb.size - 1)
        p_above, p_tie = float(diff[margins > 0].sum()), float(diff[margins == 0].sum())
    contest = close_contest(bids_a, bids_b)
    return ClosedTie(p_above + p_tie * contest.p_win_a, p_tie, contest)
