"""The other resolutions of docs/rules.md: opposed tests, passive values, working together,
group tests and haggling, in both systems, computed exactly from the rolls' PMFs.

Each takes :class:`~explodice.Roll` objects (or ready :class:`~explodice.Distribution`
objects, exact or simulated) and returns a small result that displays itself in Jupyter.

>>> from explodice import Roll, opposed, group_success, haggle
>>> o = opposed(Roll(2), Roll(0))
>>> round(o.win + o.tie + o.loss, 12)
1.0
>>> round(group_success([Roll(0)] * 2, dc=12).p, 6)  # 1 of 2 must succeed
0.740655
>>> round(haggle(Roll(0), dc=16).mean, 3)
-13.133
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.success import (
    MODIFIERS,
    as_distribution,
    check_system,
    refuse_failure_reroll,
    states,
)
from explodice.core.errors import ExplodiceTypeError, check_items, fail, shown
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.checks import check_roll, check_rules
from explodice.game.rules import Advantage, ExplodiceError, Roll, Rules, check_int
from explodice.game.tables import (
    HAGGLE_BASE_DC,
    HAGGLE_CAP_PCT,
    HAGGLE_DCS,
    HAGGLE_DCS_FR,
    HAGGLE_DECEPTION_CAP_PCT,
    HAGGLE_STEP_PCT,
    MAX_DC,
    resolve_item,
)

__all__ = [
    "Group",
    "Haggle",
    "Opposed",
    "Passive",
    "Together",
    "group_success",
    "haggle",
    "haggle_table",
    "opposed",
    "passive",
    "passive_table",
    "working_together",
]


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


class _Shown:
    """Mixin: a result that shows its :meth:`summary` (and :meth:`to_frame`) in Jupyter."""

    def summary(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy one-row (or per-outcome) DataFrame."""
        return pd.DataFrame([self.summary()])

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th style='text-align:left'>{k}</th><td>{_fmt(v)}</td></tr>"
            for k, v in self.summary().items()
        )
        return f"<div><b>{type(self).__name__}</b><table>{rows}</table>{self._extra_html()}</div>"

    def _extra_html(self) -> str:
        return ""


def _prepare(
    items: Iterable[Roll | Distribution],
    system: str,
    rules: Rules | None,
    sampling: Sampling,
) -> list[Distribution]:
    """The distributions of one call's rolls (a Distribution passes through)."""
    system = check_system(system)
    rules = check_rules(rules)
    streams = sampling.streams()
    return [as_distribution(item, system, rules, streams) for item in items]


def _provenance(dists: Sequence[Distribution]) -> dict[str, Any]:
    sims = [d for d in dists if d.simulated]
    return {
        "system": "/".join(dict.fromkeys(d.system for d in dists)),
        "method": "simulate" if sims else "exact",
        "n": min(d.n for d in sims if d.n is not None) if sims else None,
        "seed": sims[0].seed if sims else None,
    }


def _label(d: Distribution) -> str:
    return repr(d).split("(", 1)[1].split(";", 1)[0] if d.roll is not None else d.system


def _total_pmf(d: Distribution) -> np.ndarray:
    p = d.total_pmf
    return p / p.sum()


# -- opposed --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Opposed(_Shown):
    """An opposed test: P(A wins), P(tie: the status quo holds), P(A loses); ``margin`` is
    the PMF of total A - total B (a Series indexed by the margin)."""

    win: float
    tie: float
    loss: float
    margin: pd.Series = field(repr=False)
    a: str = ""
    b: str = ""
    system: str = "3d6x"
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
    system: str = "3d6x",
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
    da, db = _prepare(
        [roll_a, roll_b],
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    pa, pb = _total_pmf(da), _total_pmf(db)
    diff = np.convolve(pa, pb[::-1])
    lo = da.lo - (db.lo + pb.size - 1)
    margins = np.arange(lo, lo + diff.size)
    keep = diff > 0
    return Opposed(
        win=float(diff[margins > 0].sum()),
        tie=float(diff[margins == 0].sum()),
        loss=float(diff[margins < 0].sum()),
        margin=pd.Series(diff[keep], index=pd.Index(margins[keep], name="margin"), name="p"),
        a=_label(da),
        b=_label(db),
        **_provenance([da, db]),
    )


# -- passive --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Passive(_Shown):
    """A passive value (10 + modifier, +5 with advantage, -5 with disadvantage) against the
    roll it stands for: its median and mean, the gaps, and the base that would match the
    median (``median - modifier - (±5)``, in place of the 10 of the rules)."""

    value: int
    modifier: int
    advantage: str
    median: int
    mean: float
    p_roll_at_least: float  # P(an active roll reaches the passive value)
    system: str = "3d6x"

    @property
    def gap_median(self) -> int:
        """median - passive value: how far the passive value sits below the typical roll."""
        return self.median - self.value

    @property
    def gap_mean(self) -> float:
        """mean - passive value."""
        return self.mean - self.value

    @property
    def base_for_median(self) -> int:
        """The base that would put the passive value at the roll's median (10 in the rules)."""
        return self.median - self.modifier - _PASSIVE_SHIFT[self.advantage]

    def summary(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "modifier": self.modifier,
            "advantage": self.advantage,
            "passive": self.value,
            "median": self.median,
            "mean": self.mean,
            "gap_median": self.gap_median,
            "gap_mean": self.gap_mean,
            "base_for_median": self.base_for_median,
            "p_roll_at_least": self.p_roll_at_least,
        }


_PASSIVE_SHIFT = {"normal": 0, "advantage": 5, "disadvantage": -5}


def passive(roll: Roll, *, system: str = "3d6x", rules: Rules | None = None) -> Passive:
    """The passive value of ``roll`` against the real roll's median and mean.

    >>> p = passive(Roll(0))
    >>> p.value, p.median, round(p.mean, 1), p.base_for_median
    (10, 11, 12.6, 11)
    """
    roll = check_roll(roll)
    (d,) = _prepare([roll], system, rules, Sampling())
    value = 10 + roll.modifier + _PASSIVE_SHIFT[roll.advantage]
    return Passive(
        value=value,
        modifier=roll.modifier,
        advantage=roll.advantage,
        median=d.median,
        mean=d.mean,
        p_roll_at_least=float(d.p_success(value)),
        system=d.system,
    )


def passive_table(
    modifiers: Iterable[int] = MODIFIERS,
    *,
    system: str = "3d6x",
    advantages: Iterable[str] = ("normal", "advantage", "disadvantage"),
    readings: Iterable[str] = ("subtract", "drop"),
    rules: Rules | None = None,
) -> pd.DataFrame:
    """:func:`passive` for each modifier and advantage state, as a tidy DataFrame.

    >>> passive_table([0], advantages=["normal"]).base_for_median.tolist()
    [11]
    """
    system = check_system(system)
    modifiers = check_items("modifiers", modifiers, what="modifiers")
    rows = []
    for label, adv, state_rules in states(system, advantages, readings, check_rules(rules)):
        for m in modifiers:
            row = passive(Roll(m, advantage=adv), system=system, rules=state_rules).summary()
            rows.append(row | {"advantage": label})
    return pd.DataFrame(rows)


# -- working together -----------------------------------------------------------------------
_HELPED = {"normal": "advantage", "advantage": "advantage", "disadvantage": "normal"}


@dataclass(frozen=True)
class Together(_Shown):
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
            "roll": _label(self.distribution),
            "dc": self.dc,
            "p": self.p,
            "p_alone": self.p_alone,
            **_provenance([self.distribution]),
        }


def working_together(
    rolls: Sequence[Roll],
    dc: int | None = None,
    *,
    leader: int | None = None,
    system: str = "3d6x",
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
    rolls = check_items("rolls", rolls, what="Roll objects")
    for i, r in enumerate(rolls):
        check_roll(r, f"rolls[{i}]")
    if leader is None:
        leader = max(range(len(rolls)), key=lambda i: rolls[i].modifier)
    leader = check_int("leader", leader, lo=0, hi=len(rolls) - 1)
    helped = rolls[leader].replace(advantage=_HELPED[rolls[leader].advantage])
    d, alone = _prepare(
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
class Group(_Shown):
    """A group test: every member rolls; it succeeds when at least ``need`` = ceil(n/2)
    succeed. ``p_each`` is each member's P(success), ``count_pmf[k]`` P(k successes)."""

    p: float
    need: int
    p_each: tuple[float, ...]
    count_pmf: tuple[float, ...] = field(repr=False)
    system: str = "3d6x"
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
    system: str = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Group:
    """P(at least half of the group succeeds), members with their own rolls; exact.

    ``dc`` is one DC for all, or one per member.

    >>> g = group_success([Roll(5), Roll(0), Roll(-1)], dc=16)
    >>> g.need, round(g.p, 4)
    (2, 0.2583)
    """
    rolls = check_items("rolls", rolls, what="rolls")
    if isinstance(dc, (str, bytes, Mapping)):
        raise fail("dc", dc, "one DC or one per member", ExplodiceTypeError)
    if isinstance(dc, np.ndarray) and dc.ndim == 0:
        dc = dc.item()
    dcs = list(dc) if isinstance(dc, Iterable) else [dc] * len(rolls)
    if len(dcs) != len(rolls):
        raise ExplodiceError(
            f"`dc` must be one DC or one per member ({len(rolls)}), but {shown(dc)} was passed."
        )
    dists = _prepare(
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
        **_provenance(dists),
    )


# -- haggling -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Haggle(_Shown):
    """Haggling (Persuasion): the price change in percent in the character's favour, 10 % per
    point of margin (total - DC), capped at ``cap`` % either way; a margin of 0 moves nothing.
    ``pmf`` is a Series indexed by the change; ``mean`` its mean in percent."""

    pmf: pd.Series = field(repr=False)
    dc: int
    item: str | None = None
    p_noticed: float | None = None  # with Deception: the seller notices (Rules.deception_noticed)
    system: str = "3d6x"
    method: str = "exact"
    n: int | None = None
    seed: Any = None

    @property
    def mean(self) -> float:
        """The mean price change, in percent, in the character's favour."""
        return float(self.pmf.index.to_numpy() @ self.pmf.to_numpy())

    @property
    def p_better(self) -> float:
        """P(the price moves in the character's favour)."""
        return float(self.pmf[self.pmf.index > 0].sum())

    @property
    def p_worse(self) -> float:
        """P(the price moves against the character)."""
        return float(self.pmf[self.pmf.index < 0].sum())

    def summary(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "dc": self.dc,
            "mean": self.mean,
            "p_better": self.p_better,
            "p_even": 1.0 - self.p_better - self.p_worse,
            "p_worse": self.p_worse,
            "p_noticed": self.p_noticed,
            "system": self.system,
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per price change (percent, in the character's favour) with its probability."""
        return self.pmf.rename("p").reset_index()

    def _extra_html(self) -> str:
        return self.to_frame().to_html(index=False, float_format="{:.4f}".format)


def haggle(
    roll: Roll | Distribution,
    *,
    dc: int | None = None,
    item: str | None = None,
    system: str = "3d6x",
    rules: Rules | None = None,
    step: int = HAGGLE_STEP_PCT,
    cap: int = HAGGLE_CAP_PCT,
    deception: Roll | Distribution | None = None,
    deception_cap: int = HAGGLE_DECEPTION_CAP_PCT,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Haggle:
    """The price change of a haggling test against ``dc`` (default: the ``item``'s minimum DC
    from the seed, else 16; a ``dc`` below the item's minimum is refused).

    ``deception`` (a Deception roll) plays the seed's option: when the Persuasion margin would
    move the price past ``cap``, the character aims up to ``deception_cap`` and rolls
    Deception against the same DC; on a failure the gain stays at ``cap``. Losses stay capped
    at ``cap`` either way. ``p_noticed`` is the probability that the seller notices the trick,
    as ``rules.deception_noticed`` reads the seed: ``"on_failure"`` (the Deception failed) or
    ``"when_cheated"`` ("la personne lésée s'en rendra compte ultérieurement": the gain past
    ``cap`` was taken, so the seller always notices later).

    >>> h = haggle(Roll(6), dc=16, deception=Roll(2))
    >>> sorted(h.pmf.index.tolist())[-3:], h.p_noticed > 0
    ([30, 40, 50], True)

    >>> h = haggle(Roll(4), item="Objets magiques")
    >>> h.dc, sorted(h.pmf.index.tolist())
    (22, [-25, -20, -10, 0, 10, 20, 25])
    """
    item_name = resolve_item(item) if item is not None else None
    if dc is None:
        dc = HAGGLE_DCS[item_name] if item_name is not None else HAGGLE_BASE_DC
    dc = check_int("dc", dc, lo=-MAX_DC, hi=MAX_DC)
    if item_name is not None and dc < HAGGLE_DCS[item_name]:
        raise ExplodiceError(
            f"`dc` must be at least {HAGGLE_DCS[item_name]} for {item_name} "
            f"(the seed's minimum), but {shown(dc)} was passed."
        )
    step = check_int("step", step, lo=1, hi=100)
    cap = check_int("cap", cap, lo=0, hi=100)
    deception_cap = check_int("deception_cap", deception_cap, lo=cap, hi=100)
    items = [roll] if deception is None else [roll, deception]
    dists = _prepare(
        items,
        system,
        rules,
        resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads),
    )
    d = dists[0]
    margins = d.totals - dc
    change = np.clip(margins * step, -cap, cap)
    weights = _total_pmf(d)
    p_noticed = None
    if deception is not None:  # aiming past the cap needs Deception against the same DC
        q = float(dists[1].p_success(dc)) / float(dists[1].total_pmf.sum())
        beyond = margins * step > cap
        change = np.concatenate([change, np.minimum(margins[beyond] * step, deception_cap)])
        weights = np.concatenate(
            [np.where(beyond, (1 - q) * weights, weights), q * weights[beyond]]
        )
        failed, cheated = weights[: margins.size][beyond], weights[margins.size :]
        noticed = cheated if check_rules(rules).deception_noticed == "when_cheated" else failed
        p_noticed = float(noticed.sum())
    values, inverse = np.unique(change, return_inverse=True)
    probs = np.bincount(inverse, weights=weights, minlength=values.size)
    pmf = pd.Series(probs, index=pd.Index(values, name="change_pct"), name="p")
    return Haggle(pmf[pmf > 0], dc, item_name, p_noticed, **_provenance(dists))


def haggle_table(
    modifiers: Iterable[int] = MODIFIERS,
    *,
    items: Iterable[str] | None = None,
    system: str = "3d6x",
    rules: Rules | None = None,
    advantage: Advantage = "normal",
) -> pd.DataFrame:
    """Mean price change and odds per modifier and item type of the seed's table (exact).

    >>> haggle_table([0], items=["gems"])[["item", "dc"]].values.tolist()
    [['gems', 22]]
    """
    modifiers = check_items("modifiers", modifiers, what="modifiers")
    names = (
        list(HAGGLE_DCS)
        if items is None
        else [resolve_item(i) for i in check_items("items", items, what="item types")]
    )
    rows = []
    for m in modifiers:
        for name in names:
            h = haggle(Roll(m, advantage=advantage), item=name, system=system, rules=rules)
            rows.append({"modifier": m, "item": name, "item_fr": HAGGLE_DCS_FR[name]} | h.summary())
    return pd.DataFrame(rows).drop(columns=["n", "seed"])
