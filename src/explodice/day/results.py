"""The results of a day: :class:`DayResult` (many days' histograms, or one exact day's
probabilities) and :class:`EmptyTime` (the rolls until one gauge empties).

Both engines of the day fill the same arrays (:func:`explodice.simulate_day` counts days,
:func:`explodice.exact_day` holds probabilities and expected counts for one day), so the
tidy tables of :meth:`DayResult.to_frame` read alike; :func:`histogram_bins` is the size of
their day-total histograms.

>>> from explodice import Character, DayRoll, Scenario, exact_day
>>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
...                  gauge_max={"PA": 3, "PM": 0, "PF": 0, "PH": 0})
>>> day = exact_day(Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=12, repeat=4)]))
>>> list(day.to_frame("gauges").columns[:4])
['character', 'gauge', 'start', 'p_empty']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, check_choice, shown
from explodice.core.words import Phrase
from explodice.day.scenario import Scenario
from explodice.engine.distribution import wilson_interval
from explodice.game.character import GAUGES
from explodice.game.rules import Roll, Rules

__all__ = ["DAY_TABLES", "DayResult", "DayTable", "EmptyTime", "histogram_bins"]

#: The tables of :meth:`DayResult.to_frame`.
DayTable = Literal["gauges", "first_empty", "empty", "success", "roll_types", "drain", "lost"]
DAY_TABLES: tuple[DayTable, ...] = (
    "gauges",
    "first_empty",
    "empty",
    "success",
    "roll_types",
    "drain",
    "lost",
)


def histogram_bins(scenario: Scenario) -> int:
    """Bins of a day-total histogram (drain caused, points lost): the last one means "that
    many or more"."""
    return int(min(1 << 16, 64 + 16 * scenario.n_rolls))


@dataclass(frozen=True, eq=False, repr=False)
class DayResult:
    """Histograms of many simulated days, read as tidy tables with :meth:`to_frame`.

    Tables: ``"gauges"`` (one row per PC gauge: start, P(ever empty), first-empty roll mean
    and median, drain caused and absorbed, end level), ``"first_empty"`` (the roll after which
    a gauge first reached 0; ``roll`` 0 = empty at the start, NA with ``never`` = never),
    ``"empty"`` (P(gauge at 0 after roll t)), ``"success"`` (success rate and mean drain of
    roll t), ``"roll_types"`` (each roll type, its gauge not empty or empty), ``"drain"`` (distribution
    of a day's drain caused per gauge) and ``"lost"`` (points no gauge could absorb, per
    character). Every table carries ``n_days``, ``seed``, ``method`` and ``rules``.

    A result of :func:`explodice.exact_day` has ``method="exact"``: its arrays hold
    probabilities and expected counts for one day (``n_days`` is 1, shown as NA); its tables
    give ``p`` and leave out what only a sample has (the ``count`` that would be p itself,
    ``ci_low``/``ci_high``, ``drain_se``), and ``omitted`` is the probability its cut left out;
    ``caused`` and ``lost`` are ``None`` when their distributions were not computed.
    """

    scenario: Scenario
    rules: Rules
    n_days: int
    seed: Any
    chunk_days: int
    seconds: float
    sequence: np.ndarray
    gauge_start: np.ndarray
    first: np.ndarray
    succ_t: np.ndarray
    drain_t: np.ndarray
    by_type: np.ndarray
    caused: np.ndarray | None
    end: np.ndarray
    lost: np.ndarray | None
    sums: np.ndarray
    lost_sum: np.ndarray
    method: str = "simulate"
    omitted: float = 0.0

    @property
    def exact(self) -> bool:
        """True for a result of the exact day (no sampling noise)."""
        return self.method == "exact"

    def _num(self, x: Any) -> Any:
        """A count as an int (simulated) or an expected count as a float (exact)."""
        return float(x) if self.exact else int(x)

    @property
    def n_rolls(self) -> int:
        """Rolls per day."""
        return int(self.sequence.size)

    @property
    def rolls_per_second(self) -> float:
        """The kernel's rate in this run (compilation included on a first call)."""
        return self.n_days * self.n_rolls / max(self.seconds, 1e-9)

    def _gauges(self) -> list[tuple[int, str, str]]:
        """``(index, character, gauge)`` of every PC gauge."""
        return [
            (4 * i + j, c.name, g)
            for i, c in enumerate(self.scenario.characters)
            if c.actor == "pc"
            for j, g in enumerate(GAUGES)
        ]

    def _stamp(self, df: pd.DataFrame) -> pd.DataFrame:
        df["n_days"] = pd.NA if self.exact else self.n_days
        df["seed"] = None if self.seed is None else str(self.seed)  # exact: no seed, no "None"
        df["method"] = self.method
        df["rules"] = self.rules.describe()
        df["scenario"] = self.scenario.name
        return df

    def _with_ci(self, df: pd.DataFrame, count: str, n: Any, level: float) -> pd.DataFrame:
        """``p`` from the counts, with its Wilson interval; an exact day's "count" is p
        itself, and it has no interval: both are left out."""
        df["p"] = df[count] / n
        if self.exact:
            return df.drop(columns=[count])
        df["ci_low"], df["ci_high"] = wilson_interval(df[count].to_numpy(), n, level)
        return df

    def to_frame(self, what: DayTable = "gauges", *, level: float = 0.95) -> pd.DataFrame:
        """One of the tidy tables named in the class docstring."""
        check_choice("what", what, DAY_TABLES, ExplodiceError)
        tables = {
            "gauges": self._gauges_frame,
            "first_empty": self._first_frame,
            "empty": self._empty_frame,
            "success": self._success_frame,
            "roll_types": self._types_frame,
            "drain": self._drain_frame,
            "lost": self._lost_frame,
        }
        if getattr(self, {"drain": "caused", "lost": "lost"}.get(what, "first")) is None:
            raise ExplodiceError(
                Phrase(
                    "`what`: this exact day was computed without the {what} table (a "
                    "distribution over days of a day's total: the running sum in the "
                    "chain's state); ask exact_day(..., distributions=True) for it "
                    "(`explodice day --exact --table drain`), or read its mean in the "
                    "'gauges' table.",
                    what=shown(what),
                )
            )
        return self._stamp(tables[what](level))

    def _first_frame(self, level: float) -> pd.DataFrame:
        rows = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            for i in np.flatnonzero(self.first[g]):
                rows.append(
                    {
                        "character": who,
                        "gauge": name,
                        "roll": pd.NA if i == T + 1 else int(i),
                        "never": bool(i == T + 1),
                        "count": self._num(self.first[g, i]),
                    }
                )
        df = pd.DataFrame(rows, columns=["character", "gauge", "roll", "never", "count"])
        df["roll"] = df["roll"].astype("Int64")
        return self._with_ci(df, "count", self.n_days, level)

    def _empty_frame(self, level: float) -> pd.DataFrame:
        frames = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            frames.append(
                pd.DataFrame(
                    {
                        "character": who,
                        "gauge": name,
                        "roll": np.arange(T + 1),
                        "count": np.cumsum(self.first[g, : T + 1]),
                    }
                )
            )
        frames = frames or [_no_rows("character", "gauge", "roll", "count")]  # an all-NPC party
        return self._with_ci(pd.concat(frames, ignore_index=True), "count", self.n_days, level)

    def _success_frame(self, level: float) -> pd.DataFrame:
        seq = self.sequence
        labels = [self.scenario.rolls[r].label if r >= 0 else "mix" for r in seq]
        df = pd.DataFrame(
            {
                "roll": np.arange(1, self.n_rolls + 1),
                "type": labels,
                "successes": self.succ_t,
                "drain_mean": self.drain_t / self.n_days,
            }
        )
        return self._with_ci(df, "successes", self.n_days, level)

    def _types_frame(self, level: float) -> pd.DataFrame:
        rows = []
        for r, day_roll in enumerate(self.scenario.rolls):
            for e, state in enumerate(("gauge not empty", "gauge empty")):
                n, succ, dsum, dsq = (self._num(x) for x in self.by_type[r, e])
                mean = dsum / n if n else np.nan
                var = dsq / n - mean * mean if n else np.nan
                rows.append(
                    {
                        "type": day_roll.label,
                        "gauge": day_roll.gauge,
                        "state": state,
                        "advantage": self.scenario.roll_of(r, gauge_empty=bool(e)).advantage,
                        "rolls": n,
                        "successes": succ,
                        "drain_mean": mean,
                        "drain_se": (0.0 if self.exact else math.sqrt(max(var, 0.0) / n))
                        if n
                        else np.nan,
                    }
                )
        df = pd.DataFrame(rows)
        n = df["rolls"].to_numpy()
        df["p"] = np.where(n > 0, df["successes"] / np.where(n > 0, n, 1), np.nan)
        lo, hi = zip(
            *(
                (s / m, s / m)
                if self.exact and m
                else wilson_interval(s, m, level)
                if m
                else (np.nan, np.nan)
                for s, m in zip(df["successes"], n)
            )
        )
        df["ci_low"], df["ci_high"] = lo, hi
        if self.exact:  # expected rolls and successes per day: no interval, no error
            return df.drop(columns=["ci_low", "ci_high", "drain_se"])
        return df

    def _drain_frame(self, level: float) -> pd.DataFrame:
        assert self.caused is not None  # to_frame says how to ask for it
        frames = []
        for g, who, name in self._gauges():
            nz = np.flatnonzero(self.caused[g])
            frames.append(
                pd.DataFrame(
                    {"character": who, "gauge": name, "drain": nz, "count": self.caused[g, nz]}
                )
            )
        frames = frames or [_no_rows("character", "gauge", "drain", "count")]  # an all-NPC party
        df = self._with_ci(pd.concat(frames, ignore_index=True), "count", self.n_days, level)
        df["clamped"] = df["drain"] == self.caused.shape[1] - 1  # "this many or more"
        return df

    def _lost_frame(self, level: float) -> pd.DataFrame:
        assert self.lost is not None  # to_frame says how to ask for it
        rows = []
        for i, c in enumerate(self.scenario.characters):
            if c.actor != "pc":
                continue
            for b in np.flatnonzero(self.lost[i]):
                rows.append(
                    {
                        "character": c.name,
                        "lost": int(b),
                        "count": self._num(self.lost[i, b]),
                        "lost_mean": self.lost_sum[i] / self.n_days,
                        "clamped": bool(b == self.lost.shape[1] - 1),
                    }
                )
        df = pd.DataFrame(rows, columns=["character", "lost", "count", "lost_mean", "clamped"])
        return self._with_ci(df, "count", self.n_days, level)

    def _gauges_frame(self, level: float) -> pd.DataFrame:
        rows = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            f = self.first[g]
            emptied = self._num(f[: T + 1].sum())
            idx = np.arange(T + 1)
            cdf = np.cumsum(f[: T + 1])
            lo, hi = (
                (emptied, emptied) if self.exact else wilson_interval(emptied, self.n_days, level)
            )
            rows.append(
                {
                    "character": who,
                    "gauge": name,
                    "start": int(self.gauge_start[g]),
                    "p_empty": emptied / self.n_days,
                    "ci_low": lo,
                    "ci_high": hi,
                    "first_empty_mean": (f[: T + 1] * idx).sum() / emptied if emptied else np.nan,
                    "first_empty_median": int(np.searchsorted(cdf, self.n_days / 2))
                    if emptied * 2 >= self.n_days
                    else pd.NA,
                    "caused_mean": self.sums[g, 0] / self.n_days,
                    "absorbed_mean": self.sums[g, 1] / self.n_days,
                    "end_mean": (self.end[g] * np.arange(self.end.shape[1])).sum() / self.n_days,
                    "lost_mean": self.lost_sum[g // 4] / self.n_days,
                    "policy": str(self.scenario.characters[g // 4].policy),
                }
            )
        columns = [c for c in _GAUGE_COLUMNS if not (self.exact and c in ("ci_low", "ci_high"))]
        return pd.DataFrame(rows, columns=columns)  # the columns even with no gauge

    def __repr__(self) -> str:
        how = (
            f"exact, omitted={self.omitted:.1e}"
            if self.exact
            else f"n_days={self.n_days:,}, seed={self.seed}"
        )
        return f"DayResult({self.scenario.describe()}; {how}; {self.rules.describe()})"

    def _repr_html_(self) -> str:
        table = self.to_frame("gauges").drop(columns=["seed", "method", "rules", "scenario"])
        return (
            f"<div><b>{self!r}</b>"
            f"{table.to_html(index=False, float_format='{:.4f}'.format, na_rep='—')}</div>"
        )


# -- the simple question --------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class EmptyTime:
    """Rolls until one gauge first reaches 0: ``pmf[t]`` = P(empty after roll t), t >= 1.

    ``p_beyond`` is the mass past the last roll tracked (``pmf.size - 1``); ``counts`` and
    ``n_days`` are set when simulated.
    """

    pmf: np.ndarray
    p_beyond: float
    roll: Roll
    gauge: int
    dc: int
    rules: Rules
    method: str
    n_days: int | None = None
    seed: Any = None
    counts: np.ndarray | None = None

    @property
    def mean(self) -> float:
        """E[rolls until the gauge is empty] (over the rolls tracked)."""
        return float((self.pmf * np.arange(self.pmf.size)).sum() / self.pmf.sum())

    def quantile(self, q: float) -> int:
        """The smallest t with P(empty by roll t) >= q."""
        if isinstance(q, bool) or not isinstance(q, (int, float, np.floating)) or not 0 <= q <= 1:
            raise ExplodiceError(
                Phrase("`q` must be a probability in [0, 1], but {q} was passed.", q=shown(q))
            )
        cdf = np.cumsum(self.pmf)
        if cdf[-1] < q - 1e-12:
            raise ExplodiceError(
                Phrase(
                    "`q` = {q} lies beyond the rolls computed: the gauge is empty by "
                    "roll {value} with probability {cdf:.6g} (P(later) = {p_beyond:.3g}).",
                    q=shown(q),
                    value=cdf.size - 1,
                    cdf=cdf[-1],
                    p_beyond=self.p_beyond,
                )
            )
        return int(np.searchsorted(cdf, q - 1e-12))

    @property
    def median(self) -> int:
        """The median number of rolls."""
        return self.quantile(0.5)

    def to_frame(self, *, level: float = 0.95) -> pd.DataFrame:
        """Tidy: one row per number of rolls, ``p``, ``cdf`` (and counts, CIs when simulated)."""
        t = np.flatnonzero(self.pmf)
        df = pd.DataFrame({"rolls": t, "p": self.pmf[t], "cdf": np.cumsum(self.pmf)[t]})
        if self.counts is not None and self.n_days is not None:
            df["count"] = self.counts[t]
            df["ci_low"], df["ci_high"] = wilson_interval(
                df["count"].to_numpy(), self.n_days, level
            )
        for key, value in (
            ("gauge", self.gauge),
            ("roll_desc", self.roll.describe()),
            ("dc", self.dc),
            ("method", self.method),
            ("n_days", self.n_days),
            ("seed", None if self.seed is None else str(self.seed)),
            ("rules", self.rules.describe()),
        ):
            df[key] = value
        return df

    def __repr__(self) -> str:
        how = self.method if self.n_days is None else f"{self.method}, n_days={self.n_days:,}"
        return (
            f"EmptyTime(gauge {self.gauge}, {self.roll.describe()}, DC {self.dc}; {how}; "
            f"mean={self.mean:.4f}, median={self.median}, p_beyond={self.p_beyond:.1e})"
        )

    def _repr_html_(self) -> str:
        return f"<div><b>{self!r}</b>{self.to_frame().head(40).to_html(index=False)}</div>"


_GAUGE_COLUMNS = [
    "character",
    "gauge",
    "start",
    "p_empty",
    "ci_low",
    "ci_high",
    "first_empty_mean",
    "first_empty_median",
    "caused_mean",
    "absorbed_mean",
    "end_mean",
    "lost_mean",
    "policy",
]


def _no_rows(*columns: str) -> pd.DataFrame:
    """A table with these integer columns and no row (a party without a PC drains nothing)."""
    return pd.DataFrame({c: np.zeros(0, dtype=np.int64) for c in columns})
