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
from functools import cached_property
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from explodice.analysis.success import (
    as_distribution,
    check_system,
    refuse_failure_reroll,
)
from explodice.core.errors import check_choice, fail, shown
from explodice.core.words import Phrase
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.checks import check_rules
from explodice.game.rules import ExplodiceError, Rules, check_int
from explodice.game.tables import System

__all__ = [
    "HP_TAIL",
    "MAX_HP_ROWS",
    "MAX_TIE_HP",
    "CloseContest",
    "ClosedTie",
    "bid_model",
    "close_contest",
    "close_opposed",
    "settle",
]

#: The two sides of an opposed close contest.
Side = Literal["a", "b"]
SIDES: tuple[Side, ...] = get_args(Side)
MAX_BID = 1000


def bid_model(spec: Any, field_name: str = "bids") -> np.ndarray:
    """A bid distribution over 0..B from its description: an integer (a fixed bid),
    ``"uniform:B"`` or ``("uniform", B)`` (each of 0..B equally likely), or a sequence of
    probabilities for bids 0, 1, 2, ... (summing to 1).

    >>> bid_model(2).tolist(), bid_model("uniform:2").round(3).tolist()
    ([0.0, 0.0, 1.0], [0.333, 0.333, 0.333])
    """
    allowed = Phrase(
        "a bid (an integer 0..{MAX_BID}), 'uniform:B', ('uniform', B) or a "
        "probability vector over bids 0..B",
        MAX_BID=MAX_BID,
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
            raise fail(field_name, spec, allowed, ExplodiceError) from None
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
            raise fail(field_name, spec, allowed, ExplodiceError) from None
        if (
            p.ndim != 1
            or p.size > MAX_BID + 1
            or not np.isfinite(p).all()
            or (p < 0).any()
            or abs(p.sum() - 1.0) > 1e-9
        ):
            raise ExplodiceError(
                Phrase(
                    "`{field_name}` must be {allowed} (non-negative, summing to 1), but "
                    "{spec} was passed.",
                    field_name=field_name,
                    allowed=allowed,
                    spec=shown(spec),
                )
            )
        return p / p.sum()
    raise fail(field_name, spec, allowed, ExplodiceError)


def settle(bids_a: Sequence[int], bids_b: Sequence[int]) -> tuple[str, int, int]:
    """Play given bids round by round: ``(winner 'a' or 'b', HP paid by a, HP paid by b)``.

    >>> settle([2], [5])
    ('b', 0, 5)
    """
    if len(bids_a) != len(bids_b) or not len(bids_a):
        raise ExplodiceError(
            Phrase(
                "`bids_a` and `bids_b` must be non-empty and of the same length (one "
                "bid each per round), but {bids_a} and {bids_b} were passed.",
                bids_a=shown(bids_a),
                bids_b=shown(bids_b),
            )
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
        Phrase(
            "the bids end on equal bids ({bids_a} and {bids_b}): bidding starts "
            "again, so give the next round too.",
            bids_a=bids_a[-1],
            bids_b=bids_b[-1],
        )
    )


#: The most HP one side may pay in equal bids before the HP table is cut (its tail beyond
#: this must be below :data:`HP_TAIL`): bids that tie that often are refused.
MAX_TIE_HP = 100_000
#: The most rows of the joint HP table (hp_a, hp_b, p): about 24 bytes each.
MAX_HP_ROWS = 2_000_000
#: The mass of the HP table that may be left out (the tail of very long runs of ties).
HP_TAIL = 1e-13


@dataclass(frozen=True)
class CloseContest:
    """One tie settled by bids: who wins and the HP each side pays.

    ``p_win_a``, ``p_win_b``, ``hp_a_mean``, ``hp_b_mean`` and ``rounds_mean`` are exact
    closed forms, for any bids that do not always tie (the rounds of equal bids are a
    geometric run). ``hp`` is the joint PMF of the HP paid (a tidy frame hp_a, hp_b, p),
    computed on first use; ``omitted`` the mass it leaves out (below :data:`HP_TAIL`).
    """

    p_win_a: float
    p_win_b: float
    hp_a_mean: float
    hp_b_mean: float
    rounds_mean: float
    p_equal_bids: float
    bids_a: np.ndarray = field(repr=False, compare=False)
    bids_b: np.ndarray = field(repr=False, compare=False)

    @cached_property
    def _runs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        return _tie_runs(self.bids_a, self.bids_b)

    @cached_property
    def hp(self) -> pd.DataFrame:
        """The joint PMF of the HP paid by each side: columns hp_a, hp_b, p (at most
        :data:`MAX_HP_ROWS` rows)."""
        return _hp_table(*self._runs[:3])

    @property
    def omitted(self) -> float:
        """The mass the HP tables leave out (runs of equal bids too long to list)."""
        return self._runs[3]

    def hp_pmf(self, side: Side) -> pd.Series:
        """The PMF of the HP paid by ``side`` (``"a"`` or ``"b"``), indexed by HP: the
        run of equal bids' cost, plus the winning bid when ``side`` wins."""
        check_choice("side", side, SIDES, ExplodiceError)
        visit, win_a, win_b, _ = self._runs
        mine, theirs = (win_a, win_b) if side == "a" else (win_b, win_a)
        pmf = np.convolve(visit, mine)
        pmf[: visit.size] += visit * theirs.sum()
        hp = np.flatnonzero(pmf)
        return pd.Series(pmf[hp], index=pd.Index(hp, name=f"hp_{side}"), name="p")

    def summary(self) -> dict[str, float]:
        return {
            "p_win_a": self.p_win_a,
            "p_win_b": self.p_win_b,
            "hp_a_mean": self.hp_a_mean,
            "hp_b_mean": self.hp_b_mean,
            "rounds_mean": self.rounds_mean,
        }


def _round(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """One round of bids: P(both bid v), P(A wins bidding x), P(B wins bidding y), and
    P(the round ends), summed from the winning cases (not 1 - P(tie): no cancellation)."""
    size = max(a.size, b.size)
    a, b = np.pad(a, (0, size - a.size)), np.pad(b, (0, size - b.size))
    tie = a * b  # both bid v: both pay v, and bid again
    win_a = a * (np.cumsum(b) - b)  # A bids x, B bids less
    win_b = b * (np.cumsum(a) - a)
    return tie, win_a, win_b, float(win_a.sum() + win_b.sum())


def close_contest(bids_a: Any, bids_b: Any) -> CloseContest:
    """Settle one tie with bids drawn independently each round from the two models
    (see :func:`bid_model`).

    The number of rounds of equal bids is geometric: with q = P(a round ends), A wins with
    P(A wins a round) / q, and each side pays on average E[cost of a round of equal bids] / q
    plus its winning bid: closed forms, as quick for bids that tie 99.99999999 % of the
    time as for any. The joint table of the HP paid, :attr:`CloseContest.hp`, is a renewal
    sum built when first read (refused beyond :data:`MAX_TIE_HP` or :data:`MAX_HP_ROWS`).

    >>> c = close_contest("uniform:3", "uniform:3")
    >>> round(c.p_win_a, 6), round(c.hp_a_mean, 6) == round(c.hp_b_mean, 6)
    (0.5, True)
    """
    a, b = bid_model(bids_a, "bids_a"), bid_model(bids_b, "bids_b")
    tie, win_a, win_b, q = _round(a, b)
    if q < 1e-12:
        raise ExplodiceError(
            Phrase(
                "the two bid models always bid the same: equal bids start again "
                "forever. Give one side another bid or a distribution."
            )
        )
    bids = np.arange(tie.size)
    tie_cost = float(bids @ tie) / q  # E[rounds of equal bids] x E[their bid]
    return CloseContest(
        p_win_a=float(win_a.sum()) / q,
        p_win_b=float(win_b.sum()) / q,
        hp_a_mean=tie_cost + float(bids @ win_a) / q,
        hp_b_mean=tie_cost + float(bids @ win_b) / q,
        rounds_mean=1.0 / q,
        p_equal_bids=float(tie.sum()),
        bids_a=a,
        bids_b=b,
    )


def _tie_runs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The HP a run of equal bids costs: ``visit[v]`` = P(the run passes through a cost of
    v), the last round's P(A wins bidding x) and P(B wins bidding y), and the mass of the
    runs costing more than the last v listed.

    Rounds where both bid 0 cost nothing: leave them out (every P is then given a round that
    is not 0 against 0), and the equal bids that cost HP form a renewal process on the HP
    paid so far, each adding u >= 1 to both sides: ``visit[v] = sum_u step[u] visit[v - u]``.
    The run then ends with A winning at bid x (``visit[v] win_a[x]``: hp = (v + x, v)) or B
    at bid y. Costs are listed until P(the run passes the last one) is below :data:`HP_TAIL`.
    """
    tie, win_a, win_b, q = _round(a, b)
    moving = q + float(tie[1:].sum())  # P(a round is not 0 against 0)
    step = tie / moving
    step[0] = 0.0
    win_a, win_b = win_a / moving, win_b / moving
    width = step.size
    beyond = np.append(np.cumsum(step[::-1])[::-1], 0.0)  # beyond[s]: P(a costly tie >= s)
    visit = np.zeros(1024)
    visit[0] = 1.0
    v = 0
    while True:
        # P(the run jumps past v from a cost u <= v): a sum of positive terms
        lo = max(0, v - width + 2)
        tail = float(visit[lo : v + 1] @ beyond[v - np.arange(lo, v + 1) + 1])
        if tail <= HP_TAIL:
            break
        if v >= MAX_TIE_HP:
            raise ExplodiceError(
                Phrase(
                    "the bids tie so often that the HP paid in equal bids passes "
                    "{MAX_TIE_HP:,} with P = {tail:.2g}: the HP table is refused beyond "
                    "that (p_win_a, the means and rounds_mean are exact without it). "
                    "Give the sides bids that differ more often.",
                    MAX_TIE_HP=MAX_TIE_HP,
                    tail=tail,
                )
            )
        v += 1
        if v >= visit.size:
            visit = np.pad(visit, (0, visit.size))
        k = min(v, width - 1)
        visit[v] = step[1 : k + 1] @ visit[v - k : v][::-1]
    return visit[: v + 1], win_a, win_b, tail


def _hp_table(visit: np.ndarray, win_a: np.ndarray, win_b: np.ndarray) -> pd.DataFrame:
    """The joint PMF of the HP paid: a run costing v, then A wins at x (hp = (v + x, v))
    or B at y (hp = (v, v + y))."""
    costs = np.flatnonzero(visit)
    xa, xb = np.flatnonzero(win_a), np.flatnonzero(win_b)
    rows = costs.size * (xa.size + xb.size)
    if rows > MAX_HP_ROWS:
        raise ExplodiceError(
            Phrase(
                "the joint HP table of these bids would hold {rows:,} rows (at most "
                "{MAX_HP_ROWS:,}): p_win_a, the means, rounds_mean and hp_pmf() are "
                "exact without it; give smaller bids.",
                rows=rows,
                MAX_HP_ROWS=MAX_HP_ROWS,
            )
        )
    ca, cb = np.repeat(costs, xa.size), np.repeat(costs, xb.size)
    frame = pd.DataFrame(
        {
            "hp_a": np.concatenate([ca + np.tile(xa, costs.size), cb]),
            "hp_b": np.concatenate([ca, cb + np.tile(xb, costs.size)]),
            "p": np.concatenate(
                [
                    np.outer(visit[costs], win_a[xa]).ravel(),
                    np.outer(visit[costs], win_b[xb]).ravel(),
                ]
            ),
        }
    )
    return frame.groupby(["hp_a", "hp_b"], as_index=False)[["p"]].sum()


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
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
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
    sampling = resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads)
    streams = sampling.streams()
    da = as_distribution(roll_a, system, rules, streams)
    pa = da.total_pmf / da.total_pmf.sum()
    if (roll_b is None) == (dc is None):
        raise ExplodiceError(Phrase("give either `roll_b` (an opposed test) or `dc`, not both."))
    if dc is not None:
        dc = check_int("dc", dc)
        p_above = float(pa[da.totals > dc].sum())
        p_tie = float(pa[da.totals == dc].sum())
    else:
        assert roll_b is not None  # one of roll_b and dc, checked above
        refuse_failure_reroll(roll_a, "roll_a", "an opposed test")
        refuse_failure_reroll(roll_b, "roll_b", "an opposed test")
        db = as_distribution(roll_b, system, rules, streams)
        pb = db.total_pmf / db.total_pmf.sum()
        diff = np.convolve(pa, pb[::-1])
        margins = np.arange(diff.size) + da.lo - (db.lo + pb.size - 1)
        p_above, p_tie = float(diff[margins > 0].sum()), float(diff[margins == 0].sum())
    contest = close_contest(bids_a, bids_b)
    return ClosedTie(p_above + p_tie * contest.p_win_a, p_tie, contest)
