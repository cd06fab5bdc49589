"""Hiding (seed 000, Se cacher): one Stealth total against every observer.

A hider makes one DEX (Stealth) check. An observer who searches actively makes a WIS
(Perception) check: an opposed test whose tie keeps the status quo, so the hider stays hidden
when Stealth >= Perception. One who does not search has a passive Perception, which is the DC:
hidden when Stealth >= passive. Under ``Rules(hiding_ties="observer")`` (the reading many
tables use: a tie is a spot) both ties reveal the hider instead: hidden when Stealth >
Perception, and when Stealth > passive. The hider is hidden from a group when hidden from each; the
one Stealth total is compared with every observer, so these events are *not* independent
(a high roll hides from everyone at once). Exact: condition on the Stealth total.

>>> from explodice import Roll
>>> h = hide(Roll(3), passive=[12, 15])
>>> from explodice import exact
>>> bool(abs(h.p_hidden - exact(Roll(3)).p_success(15)) < 1e-12)  # the higher passive rules
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.resolutions import count_successes, passive
from explodice.analysis.success import (
    as_distribution,
    check_system,
    refuse_failure_reroll,
)
from explodice.core.errors import ExplodiceTypeError, fail
from explodice.core.words import Phrase
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.character import Character
from explodice.game.checks import check_rules
from explodice.game.rules import ExplodiceError, Roll, Rules, check_int
from explodice.game.tables import MAX_DC, System

__all__ = ["Hiding", "hide"]


@dataclass(frozen=True)
class Hiding:
    """The result of :func:`hide`. ``p_hidden``: hidden from every observer; ``p_each``: from
    each alone (observer label -> p); ``p_if_independent``: the product of ``p_each``, which a
    designer multiplying per-observer odds would get (wrong: the events share one roll);
    ``spotted``: P(exactly k observers notice the hider), k = 0..observers."""

    p_hidden: float
    p_each: dict[str, float]
    spotted: tuple[float, ...] = field(repr=False)
    system: System = "3d6x"
    method: str = "exact"

    @property
    def p_if_independent(self) -> float:
        """The product of the per-observer probabilities (what independence would give)."""
        return float(np.prod(list(self.p_each.values())))

    def to_frame(self) -> pd.DataFrame:
        """One row per observer (``p_hidden_from``), and a last row for the whole group."""
        rows = [{"observer": k, "p_hidden_from": v} for k, v in self.p_each.items()]
        rows.append({"observer": "all", "p_hidden_from": self.p_hidden})
        return pd.DataFrame(rows).assign(system=self.system, method=self.method)

    def _repr_html_(self) -> str:
        return (
            f"<div><b>Hiding</b>: P(hidden from all) = {self.p_hidden:.4f} (if independent: "
            f"{self.p_if_independent:.4f}){self.to_frame().to_html(index=False)}</div>"
        )


def _roll_of(
    who: Any, skill: str, system: System, field_name: str, dc: int | None = None
) -> Roll | Distribution:
    if isinstance(who, Character):
        reroll = who.reroll
        if reroll is not None and reroll.trigger == "failure" and dc is None:
            raise ExplodiceError(
                Phrase(
                    "`{field_name}`: {name}'s reroll on failure needs a DC, which a test "
                    "against an active observer does not have; pass their Roll instead.",
                    field_name=field_name,
                    name=who.name,
                )
            )
        return who.roll(skill, system=system, dc=dc)
    if isinstance(who, (Roll, Distribution)):
        if dc is None:  # a roll against an active observer's roll
            refuse_failure_reroll(who, field_name, "a test against an active observer")
        return who
    raise fail(field_name, who, Phrase("a Character, a Roll or a Distribution"), ExplodiceTypeError)


def _passive_value(who: Any, system: System, i: int) -> tuple[str, int]:
    if isinstance(who, Character):
        value = passive(who.roll("Perception", system=system, reroll_on_failure=False)).value
        return f"{who.name} (passive {value})", value
    value = check_int(f"passive[{i}]", who, lo=-MAX_DC, hi=MAX_DC)
    return f"passive {value}", value


def _spotted(ps: np.ndarray, h: np.ndarray) -> np.ndarray:
    """P(k observers spot the hider), k = 0 .. n: over the Stealth totals ``i`` of
    ``ps[i] > 0``, ``ps[i]`` times the count's law given ``i`` (``h[j, i]``: P(hidden from
    ``j``)), added total by total (``np.cumsum`` adds in that order, as a loop would: the
    same number to the last bit)."""
    nz = np.nonzero(ps)[0]
    seen = 1.0 - h[:, nz]  # [j, i]: P(observer j spots the hider | total i)
    if len(h) == 1:  # one observer: its count's law is [1 - p, p] (count_successes')
        counts = np.stack([1.0 - seen[0], seen[0]], axis=1)
    else:
        counts = np.array([count_successes(seen[:, c]) for c in range(nz.size)])
    counts = counts.reshape(nz.size, len(h) + 1)
    terms = np.vstack([np.zeros((1, len(h) + 1)), ps[nz, None] * counts])
    return np.cumsum(terms, axis=0)[-1]


def hide(
    stealth: Any,
    *,
    active: Sequence[Any] = (),
    passive: Sequence[Any] = (),
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> Hiding:
    """P(``stealth`` stays hidden) from ``active`` observers (Perception rolls: a Roll, a
    Distribution or a Character) and ``passive`` ones (passive Perception values, or
    Characters: 10 + their Perception modifier).

    >>> from explodice import Roll, opposed
    >>> h = hide(Roll(2), active=[Roll(1)])
    >>> o = opposed(Roll(2), Roll(1))
    >>> bool(abs(h.p_hidden - (o.win + o.tie)) < 1e-12)  # a tie keeps the hider hidden
    True
    """
    rules = check_rules(rules)
    system = check_system(system)
    for name, observers in (("active", active), ("passive", passive)):
        if isinstance(observers, (str, bytes)) or not isinstance(observers, Sequence):
            raise fail(name, observers, Phrase("a list of observers"), ExplodiceTypeError)
    if not active and not passive:
        raise ExplodiceError(
            Phrase("`active` and `passive` are both empty: give at least one observer.")
        )
    sampling = resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads)
    streams = sampling.streams()
    tie = 1 if rules.hiding_ties == "observer" else 0  # a tie reveals the hider: beat it by 1
    # against passive observers alone, failing means falling under the highest passive value
    # (or reaching it, when a tie reveals the hider)
    dc = (
        max(_passive_value(w, system, i)[1] for i, w in enumerate(passive)) + tie
        if not active
        else None
    )
    s = as_distribution(_roll_of(stealth, "Stealth", system, "stealth", dc), system, rules, streams)
    totals = s.totals
    ps = s.total_pmf / s.total_pmf.sum()
    labels, hidden_from = [], []  # hidden_from[j][i]: P(hidden from j | Stealth total i)
    for i, who in enumerate(passive):
        label, value = _passive_value(who, system, i)
        labels.append(label)
        hidden_from.append((totals >= value + tie).astype(float))
    for i, who in enumerate(active):
        d = as_distribution(
            _roll_of(who, "Perception", system, f"active[{i}]"), system, rules, streams
        )
        q = d.total_pmf / d.total_pmf.sum()
        cdf = np.cumsum(q)  # P(Perception <= lo + k)
        k = np.clip(totals - tie - d.lo, -1, q.size - 1)
        labels.append(f"{who.name} (active)" if isinstance(who, Character) else f"active {i}")
        hidden_from.append(np.where(k < 0, 0.0, cdf[np.maximum(k, 0)]))
    labels = [f"{x} #{i}" if labels.count(x) > 1 else x for i, x in enumerate(labels)]
    h = np.array(hidden_from)
    p_hidden = float(ps @ h.prod(axis=0))
    p_each = {lab: float(ps @ row) for lab, row in zip(labels, h)}
    spotted = _spotted(ps, h)
    sim = s.simulated
    return Hiding(
        p_hidden,
        p_each,
        tuple(float(x) for x in spotted),
        system,
        "simulate" if sim or method == "simulate" else "exact",
    )
