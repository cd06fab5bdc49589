"""The one result type: a joint distribution of total x drain x kept 1s.

Both engines return a :class:`Distribution`; so does the d20 system (no drain). Every
analysis reads it the same way, and a simulated one carries its sample size, seed and
confidence intervals.

>>> from explodice import Roll, exact
>>> d = exact(Roll(0))
>>> round(d.mean, 6), round(d.drain_mean, 6)
(12.6, 2.1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_int,
    check_real,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.engine.sampling import Method
from explodice.engine.seeding import seed_record
from explodice.game.tables import DC_TABLES, System

if TYPE_CHECKING:
    from explodice.game.rules import Roll, Rules

__all__ = ["Distribution", "as_dcs", "histogram_distribution", "wilson_interval"]

#: DCs and totals beyond this are clamped: every total of a roll lies far inside it.
DC_LIMIT = 10**9


def as_dcs(dc: Any, field_name: str = "dc") -> np.ndarray:
    """``dc`` (an integer or integers) as an int64 array, clamped to ±:data:`DC_LIMIT`.

    >>> as_dcs(16).item(), as_dcs([8, -2**70]).tolist()
    (16, [8, -1000000000])
    """
    if isinstance(dc, np.ndarray) and dc.dtype.kind in "iu" and dc.size:
        return np.clip(dc, -DC_LIMIT, DC_LIMIT).astype(np.int64)
    allowed = Phrase("an integer or integers")
    try:
        items = np.asarray(dc, dtype=object)
    except ValueError:  # ragged nested lists
        raise fail(field_name, dc, allowed, ExplodiceTypeError) from None
    if items.size == 0:
        raise fail(field_name, dc, Phrase("at least one integer"), ExplodiceError)
    flat = items.reshape(-1)
    for v in flat:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise fail(field_name, dc, allowed, ExplodiceTypeError)
    clamped = [max(-DC_LIMIT, min(DC_LIMIT, int(v))) for v in flat]
    return np.asarray(clamped, dtype=np.int64).reshape(items.shape)


_AXES = ("total", "drain", "kept_ones")
_Z95 = 1.959963984540054


def wilson_interval(successes: np.ndarray | int, n: int, level: float = 0.95) -> tuple[Any, Any]:
    """Wilson score interval for a binomial proportion (vectorised over ``successes``).

    >>> lo, hi = wilson_interval(50, 100)
    >>> z = 1.959963984540054   # the standard normal's 97.5 % quantile
    >>> half = z / (1 + z * z / 100) * math.sqrt(0.5 * 0.5 / 100 + z * z / (4 * 100**2))
    >>> bool(abs(lo - (0.5 - half)) < 1e-12 and abs(hi - (0.5 + half)) < 1e-12)   # centre 1/2
    True
    """
    level = check_real("level", level, error=ExplodiceError)
    if not 0 < level < 1:
        raise ExplodiceError(
            Phrase("`level` must be in (0, 1), but {level} was passed.", level=shown(level))
        )
    n = check_int("n", n, lo=1, hi=2**62, error=ExplodiceError)
    try:
        k = np.asarray(successes, dtype=object if isinstance(successes, int) else None)
    except ValueError:  # ragged nested lists
        raise fail(
            "successes", successes, Phrase("an integer or integers"), ExplodiceTypeError
        ) from None
    if (
        k.dtype.kind not in "iuO"
        or k.dtype.kind == "O"
        and any(
            isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer))
            for v in k.reshape(-1)
        )
    ):
        raise ExplodiceTypeError(
            Phrase(
                "`successes` must be an integer or integers, but {successes} was passed.",
                successes=shown(successes),
            )
        )
    if k.size and (k.min() < 0 or k.max() > n):
        raise ExplodiceError(
            Phrase(
                "`successes` must be in 0..n = 0..{n}, but {successes} was passed.",
                n=n,
                successes=shown(successes),
            )
        )
    from statistics import NormalDist

    z = _Z95 if level == 0.95 else NormalDist().inv_cdf(0.5 + level / 2)
    k = k.astype(float)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the interval always holds the observed proportion (rounding could push p = 1 out)
    lo = np.where(k <= 0, 0.0, np.clip(np.minimum(centre - half, p), 0, 1))
    hi = np.where(k >= n, 1.0, np.clip(np.maximum(centre + half, p), 0, 1))
    if np.ndim(lo) == 0:
        return float(lo), float(hi)
    return lo, hi


class _lo_free(cached_property):  # noqa: N801 - a decorator, as cached_property
    """A cached property that does not depend on ``lo``: kept in the distribution's
    ``shared`` dict when it has one (read-only there), else as a cached property."""

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        shared = None if instance is None else instance.shared
        if shared is None:
            return super().__get__(instance, owner)
        if self.attrname not in shared:
            value = self.func(instance)
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            shared[self.attrname] = value
        return shared[self.attrname]


@dataclass(frozen=True, eq=False, repr=False)
class Distribution:
    """Joint distribution of one roll's total, drain and kept 1s.

    ``pmf[i, d, c]`` is the probability that the total is ``lo + i``, the drain ``d`` and the
    kept 1s ``c``. For a simulated result ``counts`` holds the integer histogram (``pmf`` is
    ``counts / n``). ``omitted`` is, for an exact result, the mass outside the arrays (the cut
    of the infinite explosion, below 1e-12); for a simulated one, the share of rolls whose total
    or drain fell beyond the kernel's histogram and were counted in its edge bins.
    ``backend`` names the machine that simulated it (``"cpu"`` or ``"cuda"``; ``None`` when
    exact).
    """

    pmf: np.ndarray
    lo: int
    method: str = "exact"
    n: int | None = None
    seed: int | None = None
    omitted: float = 0.0
    roll: Roll | None = None
    rules: Rules | None = None
    system: System = "3d6x"
    counts: np.ndarray | None = None
    backend: str | None = None
    #: Where the properties that do not depend on ``lo`` (its marginals, E[drain] ...) are
    #: kept, read-only, when they are shared: the exact engine passes one per law, for all
    #: the distributions of that law (every modifier's); None: on this object alone.
    shared: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pmf.ndim != 3:
            raise ValueError("pmf must be a 3-d array (total, drain, kept_ones)")
        # read-only views: the result cannot change, and the caller's arrays stay writable
        for name in ("pmf", "counts"):
            arr = getattr(self, name)
            if arr is not None:
                view = np.asarray(arr).view()
                view.setflags(write=False)
                object.__setattr__(self, name, view)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and copied) without :attr:`shared`, which other distributions fill as
        they are read: the copy computes those properties again, from the same arrays, and
        the bytes of a page's data do not depend on what other pages read."""
        state = dict(self.__dict__)
        state.pop("shared", None)
        return state

    # -- construction helpers ---------------------------------------------------------------
    @classmethod
    def from_total_pmf(cls, p: np.ndarray, lo: int, **kwargs: Any) -> Distribution:
        """A distribution with no drain and no kept 1s (the d20 system, say)."""
        return cls(np.asarray(p, dtype=float).reshape(-1, 1, 1), lo, **kwargs)

    @property
    def label(self) -> str:
        """What was rolled, in words: '3d6x+4, advantage, check, pc, keep'."""
        return self.roll.describe() if self.roll is not None else self.system

    @property
    def simulated(self) -> bool:
        """True for a Monte Carlo result (it has counts and confidence intervals)."""
        return self.counts is not None

    # -- marginals --------------------------------------------------------------------------
    @cached_property
    def totals(self) -> np.ndarray:
        """The totals that index the first axis."""
        return np.arange(self.lo, self.lo + self.pmf.shape[0])

    @_lo_free
    def total_pmf(self) -> np.ndarray:
        """P(total = t) for t in :attr:`totals`."""
        return self.pmf.sum(axis=(1, 2))

    @_lo_free
    def drain_pmf(self) -> np.ndarray:
        """P(drain = d) for d = 0, 1, ..."""
        return self.pmf.sum(axis=(0, 2))

    @_lo_free
    def ones_pmf(self) -> np.ndarray:
        """P(kept 1s = c) for c = 0, 1, ..."""
        return self.pmf.sum(axis=(0, 1))

    @_lo_free
    def _total_sf(self) -> np.ndarray:
        """P(total >= lo + i), with a trailing 0 for totals past the array.

        A simulated result counts its rolls (k / n, as its interval does); sums of floats are
        kept within [0, 1] (rounding gave 1.0000000000000002 at the lowest totals).
        """
        if self.counts is not None and self.n:
            counts = self.counts.sum(axis=(1, 2))
            return np.append(np.cumsum(counts[::-1])[::-1], 0) / self.n
        return np.clip(np.append(np.cumsum(self.total_pmf[::-1])[::-1], 0.0), 0.0, 1.0)

    @_lo_free
    def _mass(self) -> float:
        return float(self.pmf.sum())

    def _expect(self, values: np.ndarray, pmf: np.ndarray) -> float:
        return float(values @ pmf) / self._mass

    # -- summaries --------------------------------------------------------------------------
    @cached_property
    def mean(self) -> float:
        """E[total]."""
        return self._expect(self.totals, self.total_pmf)

    @cached_property
    def std(self) -> float:
        """Standard deviation of the total."""
        return math.sqrt(
            max(self._expect(self.totals.astype(float) ** 2, self.total_pmf) - self.mean**2, 0.0)
        )

    @_lo_free
    def drain_mean(self) -> float:
        """E[drain] (0 for NPCs, for kinds outside the rule of 1 and for d20)."""
        return self._expect(np.arange(self.pmf.shape[1]), self.drain_pmf)

    @_lo_free
    def ones_mean(self) -> float:
        """E[kept 1s]."""
        return self._expect(np.arange(self.pmf.shape[2]), self.ones_pmf)

    def success_threshold(self, dc: int | Iterable[int]) -> np.ndarray:
        """The total from which a roll succeeds against ``dc``: ``dc`` itself here; the d20's
        attacks move it for their natural 1 and 20. :meth:`p_success` and :meth:`ci` both
        read it, so a probability and its interval always describe the same event."""
        return as_dcs(dc)

    def _at_least(self, x: np.ndarray) -> Any:
        sf = self._total_sf
        out = sf[np.clip(x - self.lo, 0, sf.size - 1)]
        return float(out) if out.ndim == 0 else out

    def p_success(self, dc: int | Iterable[int]) -> Any:
        """P(success against ``dc``); a float, or an array for an array of DCs."""
        return self._at_least(self.success_threshold(dc))

    def sf(self, x: int | Iterable[int]) -> Any:
        """P(total >= x), on the totals."""
        return self._at_least(as_dcs(x, "x"))

    def cdf(self, x: int | Iterable[int]) -> Any:
        """P(total <= x), on the totals."""
        return 1.0 - self.sf(as_dcs(x, "x") + 1)

    def quantile(self, q: float | Iterable[float]) -> Any:
        """The smallest total t with P(total <= t) >= q."""
        try:
            qs = np.asarray(q, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise ExplodiceTypeError(
                Phrase("`q` must be a number in [0, 1], but {q} was passed.", q=shown(q))
            ) from None
        if not np.all((qs >= 0) & (qs <= 1)):  # NaN fails too
            raise ExplodiceError(Phrase("`q` must be in [0, 1], but {q} was passed.", q=shown(q)))
        cdf = np.cumsum(self.total_pmf) / self._mass
        idx = np.searchsorted(cdf, qs - 1e-12, side="left")
        out = self.totals[np.clip(idx, 0, cdf.size - 1)]
        return int(out) if out.ndim == 0 else out

    @property
    def median(self) -> int:
        """The 50 % quantile of the total."""
        return self.quantile(0.5)

    def p_drain_at_least(self, x: int | Iterable[int]) -> Any:
        """P(drain >= x)."""
        sf = np.concatenate([np.cumsum(self.drain_pmf[::-1])[::-1], [0.0]])
        xs = np.clip(as_dcs(x, "x"), 0, sf.size - 1)
        out = sf[xs]
        return float(out) if out.ndim == 0 else out

    # -- uncertainty ------------------------------------------------------------------------
    def ci(self, dc: int | Iterable[int], level: float = 0.95) -> tuple[Any, Any]:
        """Wilson interval on P(success against ``dc``); zero-width for an exact result."""
        p = self.p_success(dc)
        if not self.simulated:
            return p, p
        assert self.n is not None and self.counts is not None
        at_least = np.append(np.cumsum(self.counts.sum(axis=(1, 2))[::-1])[::-1], 0)
        idx = np.clip(self.success_threshold(dc) - self.lo, 0, at_least.size - 1)
        return wilson_interval(at_least[idx], self.n, level)

    def std_error(self, dc: int | Iterable[int]) -> Any:
        """Standard error of P(total >= dc) (0 for an exact result)."""
        if not self.simulated:
            return 0.0 * np.asarray(self.p_success(dc))
        p = np.asarray(self.p_success(dc))
        out = np.sqrt(p * (1 - p) / self.n)
        return float(out) if out.ndim == 0 else out

    # -- tables -----------------------------------------------------------------------------
    def to_frame(self, by: str | tuple[str, ...] = "total", *, level: float = 0.95) -> pd.DataFrame:
        """Tidy PMF: one row per value of ``by`` (any of total, drain, kept_ones), column ``p``.

        Simulated results also get ``count``, ``ci_low`` and ``ci_high``. Rows of zero
        probability are left out.
        """
        allowed = Phrase("an axis or a list of axes from {AXES}", AXES=list(_AXES))
        if isinstance(by, str):
            keys: tuple[Any, ...] = (by,)
        elif isinstance(by, (list, tuple)):
            keys = tuple(by)
        else:
            raise fail("by", by, allowed, ExplodiceTypeError)
        if not all(isinstance(k, str) for k in keys):
            raise fail("by", by, allowed, ExplodiceTypeError)
        if not keys or any(k not in _AXES for k in keys) or len(set(keys)) < len(keys):
            raise fail("by", by, Phrase("{allowed}, each once", allowed=allowed), ExplodiceError)
        level = check_real("level", level, error=ExplodiceError)
        drop = tuple(i for i, a in enumerate(_AXES) if a not in keys)
        counts, n = self.counts, self.n  # both set for a simulated result, neither for exact
        arr = counts if counts is not None else self.pmf
        marg = arr.sum(axis=drop) if drop else arr
        order = [a for a in _AXES if a in keys]
        marg = np.moveaxis(marg, [order.index(k) for k in keys], range(len(keys)))
        nz = np.nonzero(marg)
        cols: dict[str, Any] = {}
        for k, ix in zip(keys, nz):
            cols[k] = ix + (self.lo if k == "total" else 0)
        vals = marg[nz]
        if counts is not None:
            assert n is not None  # a simulated result records its sample size
            cols["count"] = vals
            cols["p"] = vals / n
            cols["ci_low"], cols["ci_high"] = wilson_interval(vals, n, level)
        else:
            cols["p"] = vals
        return pd.DataFrame(cols)

    def success_frame(self, dcs: Iterable[int], *, level: float = 0.95) -> pd.DataFrame:
        """Tidy table of P(total >= dc) for each DC (an integer or integers), with its
        interval."""
        if isinstance(dcs, (str, bytes)) or isinstance(dcs, Mapping):
            raise fail("dcs", dcs, Phrase("an integer or integers"), ExplodiceTypeError)
        if not isinstance(dcs, np.ndarray) and hasattr(dcs, "__iter__"):
            dcs = list(dcs)  # a generator, a range
        dcs = as_dcs(dcs, "dcs").reshape(-1)
        lo, hi = self.ci(dcs, level)
        return pd.DataFrame(
            {
                "dc": dcs,
                "p": self.p_success(dcs),
                "ci_low": lo,
                "ci_high": hi,
                "method": self.method,
                "n": self.n,
                "seed": self.seed,
            }
        )

    def summary(self) -> dict[str, Any]:
        """The headline numbers and the provenance of this result."""
        return {
            "system": self.system,
            "roll": self.roll.describe() if self.roll is not None else None,
            "rules": self.rules.describe() if self.rules is not None else None,
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
            "mean": self.mean,
            "std": self.std,
            "median": self.median,
            "drain_mean": self.drain_mean,
            "ones_mean": self.ones_mean,
            "omitted": self.omitted,
            "backend": self.backend,
        }

    def __repr__(self) -> str:
        what = self.roll.describe() if self.roll is not None else self.system
        how = (
            self.method
            if not self.simulated
            else (f"{self.method} on {self.backend or 'cpu'}, n={self.n:,}, seed={self.seed}")
        )
        return (
            f"Distribution({what}; {how}; mean={self.mean:.4f}, "
            f"drain_mean={self.drain_mean:.4f}, omitted={self.omitted:.1e})"
        )

    def _repr_html_(self) -> str:
        head = pd.Series(self.summary()).to_frame("value").to_html()
        dcs = list(DC_TABLES[self.system].values())
        table = self.success_frame(dcs).drop(columns=["method", "n", "seed"])
        return f"<div><b>{self!r}</b>{head}{table.to_html(index=False, float_format='{:.4f}'.format)}</div>"


def histogram_distribution(
    counts: np.ndarray,
    t_lo: int,
    *,
    n: int,
    seed: np.random.SeedSequence,
    clamped: int,
    roll: Roll,
    rules: Rules,
    method: Method = "simulate",
    backend: str = "cpu",
) -> Distribution:
    """Trim a kernel histogram ``[ones, drain, total]`` into a simulated Distribution."""
    counts = np.ascontiguousarray(counts.transpose(2, 1, 0))  # -> [total, drain, ones]
    t_any = np.nonzero(counts.any(axis=(1, 2)))[0]
    d_any = np.nonzero(counts.any(axis=(0, 2)))[0]
    c_any = np.nonzero(counts.any(axis=(0, 1)))[0]
    counts = counts[t_any[0] : t_any[-1] + 1, : d_any[-1] + 1, : c_any[-1] + 1].copy()
    counts.setflags(write=False)
    return Distribution(
        counts / n,
        t_lo + int(t_any[0]) + roll.modifier,
        method=method,
        n=n,
        seed=seed_record(seed),
        omitted=clamped / n,
        roll=roll,
        rules=rules,
        counts=counts,
        backend=backend,
    )
