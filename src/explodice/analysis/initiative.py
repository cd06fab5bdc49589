"""Initiative (RULES.md): who acts when, exactly, in either system.

Every creature makes a DEX ability check (kind ``ability``); creatures act in decreasing
total. Ties go to the higher DEX modifier, then to a fair coin (a group still tied is put in
a uniformly random order). :func:`initiative` gives the probability of each creature's rank,
of every turn order for small groups, and that one side acts entirely before another.

The totals of different creatures are independent, so everything is exact sums over the
totals' PMFs: a rank is a count of creatures ahead and tied (a polynomial product), an order
a chain of non-increasing (total, DEX) keys, a side-before-side the level where the last
creature of the first side sits.

>>> from explodice import Roll
>>> r = initiative({"A": Roll(2), "B": Roll(2)}, system="d20")
>>> round(r.p_first("A"), 6)  # same modifier and DEX: a fair race
0.5
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.success import DEFAULT_N, Sampling, as_distribution, check_system
from explodice.core.errors import check_choice, clip, listed, shown
from explodice.engine.distribution import Distribution
from explodice.game.character import Character
from explodice.game.checks import check_rules
from explodice.game.rules import ExplodiceError, Roll, Rules, check_int

__all__ = ["Initiative", "initiative"]

MAX_ORDERS = 7  # every turn order is listed for groups up to this size (5040 orders)


@dataclass(frozen=True)
class _Creature:
    name: str
    dist: Distribution
    dex: int


@dataclass(frozen=True)
class Initiative:
    """The result of :func:`initiative`: ``ranks`` (tidy: creature, rank, p; rank 1 acts
    first), ``orders`` (order, p: every turn order, for groups up to :data:`MAX_ORDERS`) and
    ``sides`` (first, second, p: the first side acts entirely before the second)."""

    ranks: pd.DataFrame = field(repr=False)
    orders: pd.DataFrame | None = field(repr=False)
    sides: pd.DataFrame | None = field(repr=False)
    system: str = "3d6x"
    method: str = "exact"

    def p_first(self, name: str) -> float:
        """P(``name`` acts first)."""
        r = self.ranks
        check_choice("name", name, tuple(r.creature.unique()), ExplodiceError)
        return float(r.p[(r.creature == name) & (r["rank"] == 1)].iloc[0])

    def to_frame(self) -> pd.DataFrame:
        """The ranks: one row per creature and rank."""
        return self.ranks

    def _repr_html_(self) -> str:
        wide = self.ranks.pivot(index="creature", columns="rank", values="p")
        html = f"<div><b>Initiative</b> ({self.system}, {self.method}){wide.to_html()}"
        if self.sides is not None:
            html += self.sides.to_html(index=False)
        return html + "</div>"


def _creatures(creatures: Any, system: str, rules: Rules, sampling: Sampling) -> list[_Creature]:
    if isinstance(creatures, Mapping):
        items = list(creatures.items())
    elif isinstance(creatures, Sequence) and all(isinstance(c, Character) for c in creatures):
        items = [(c.name, c) for c in creatures]
    else:
        raise ExplodiceError(
            "`creatures` must be a mapping name -> Character, Roll or "
            f"modifier, or a list of Characters, but {shown(creatures)} was passed."
        )
    if len(items) < 2:
        raise ExplodiceError(
            f"`creatures` must hold at least two creatures, but {len(items)} was passed."
        )
    out = []
    for name, who in items:
        if isinstance(who, Character):
            # no DC to fail in initiative: a reroll on failure cannot be spent (Lucky can)
            roll = who.roll(ability="DEX", system=system, reroll_on_failure=False)
            dex = who.modifier("DEX")
        elif isinstance(who, Roll):
            roll, dex = who, who.modifier
        else:
            mod = check_int(f"creatures[{shown(name)}]", who, lo=-100, hi=100)
            roll, dex = Roll(mod, kind="ability"), mod
        out.append(_Creature(str(name), as_distribution(roll, system, rules, sampling), dex))
    names = [c.name for c in out]
    if len(set(names)) != len(names):
        raise ExplodiceError(f"`creatures` must have unique names, but {shown(names)} was passed.")
    return out


def _grid(cs: list[_Creature]) -> tuple[np.ndarray, int]:
    """P[i, t]: creature i's total is lo + t, on one common grid."""
    lo = min(c.dist.lo for c in cs)
    hi = max(c.dist.lo + c.dist.total_pmf.size for c in cs)
    p = np.zeros((len(cs), hi - lo + 2))  # one spare column: P(total > hi) = 0
    for i, c in enumerate(cs):
        q = c.dist.total_pmf
        p[i, c.dist.lo - lo : c.dist.lo - lo + q.size] = q / q.sum()
    return p, lo


def _ranks(cs: list[_Creature], p: np.ndarray) -> np.ndarray:
    """rank_p[i, r]: P(creature i acts in place r + 1)."""
    n = len(cs)
    above = np.cumsum(p[:, ::-1], axis=1)[:, ::-1] - p  # P(total > t)
    out = np.zeros((n, n))
    for i, me in enumerate(cs):
        poly = np.zeros((p.shape[1], n, n))  # [t, ahead, tied]
        poly[:, 0, 0] = 1.0
        for j, other in enumerate(cs):
            if j == i:
                continue
            ahead = above[j] + p[j] * (other.dex > me.dex)
            tied = p[j] * (other.dex == me.dex)
            behind = 1.0 - ahead - tied
            new = poly * behind[:, None, None]
            new[:, 1:, :] += poly[:, :-1, :] * ahead[:, None, None]
            new[:, :, 1:] += poly[:, :, :-1] * tied[:, None, None]
            poly = new
        weighted = (poly * p[i][:, None, None]).sum(axis=0)  # [ahead, tied]
        for a in range(n):
            for b in range(n - a):
                if weighted[a, b]:
                    out[i, a : a + b + 1] += weighted[a, b] / (b + 1)
    return out


def _order_p(order: Sequence[int], cs: list[_Creature], p: np.ndarray) -> float:
    """P(the creatures act exactly in ``order``): non-increasing (total, DEX) keys, and each
    group of equal keys in this order by the coin (1/g! for a group of g)."""
    n_t = p.shape[1]
    n = len(order)
    f = np.zeros((n_t, n + 1))  # [total of the last placed, size of its equal-key group]
    f[:, 1] = p[order[0]]
    for prev, j in zip(order, order[1:]):
        new = np.zeros_like(f)
        tot = f.sum(axis=1)
        below = np.cumsum(tot[::-1])[::-1] - tot  # mass of the previous total above t
        new[:, 1] = p[j] * below
        if cs[j].dex < cs[prev].dex:
            new[:, 1] += p[j] * tot
        elif cs[j].dex == cs[prev].dex:
            g = np.arange(1, n)
            new[:, 2:] += p[j][:, None] * f[:, 1:-1] / (g + 1)[None, :]
        f = new
    return float(f.sum())


def _side_before(a: list[int], b: list[int], cs: list[_Creature], p: np.ndarray) -> float:
    """P(every creature of ``a`` acts before every creature of ``b``)."""
    above = np.cumsum(p[:, ::-1], axis=1)[:, ::-1] - p
    below = np.cumsum(p, axis=1) - p
    total = 0.0
    for d in sorted({cs[i].dex for i in a}):
        # level (t, d): the lowest key of side a is (t, d), and no key of b is above it
        pa = np.zeros((p.shape[1], len(a) + 1))
        pa[:, 0] = 1.0
        for i in a:
            gt = above[i] + p[i] * (cs[i].dex > d)
            eq = p[i] * (cs[i].dex == d)
            new = pa * gt[:, None]
            new[:, 1:] += pa[:, :-1] * eq[:, None]
            pa = new
        pb = np.zeros((p.shape[1], len(b) + 1))
        pb[:, 0] = 1.0
        for j in b:
            lt = below[j] + p[j] * (cs[j].dex < d)
            eq = p[j] * (cs[j].dex == d)
            new = pb * lt[:, None]
            new[:, 1:] += pb[:, :-1] * eq[:, None]
            pb = new
        for x in range(1, len(a) + 1):
            for y in range(len(b) + 1):
                total += float((pa[:, x] * pb[:, y]).sum()) / math.comb(x + y, x)
    return total


def initiative(
    creatures: Any,
    *,
    sides: Mapping[str, Sequence[str]] | None = None,
    system: str = "3d6x",
    rules: Rules | None = None,
    method: str = "exact",
    n: int = DEFAULT_N,
    seed: Any = None,
    threads: int | None = None,
) -> Initiative:
    """Initiative for ``creatures``: a mapping name -> :class:`Character` (its DEX ability
    check and DEX modifier), :class:`Roll` (its modifier breaks ties) or a modifier, or a list
    of Characters. ``sides`` maps a side's name to its creatures' names.

    >>> from explodice import Roll
    >>> r = initiative({"Aelis": 3, "Orc": 1, "Wolf": 2},
    ...                sides={"party": ["Aelis"], "monsters": ["Orc", "Wolf"]})
    >>> round(float(r.ranks.groupby("creature").p.sum().min()), 9)  # each has one rank
    1.0
    >>> round(float(r.orders.p.sum()), 9)
    1.0
    """
    rules = check_rules(rules)
    system = check_system(system)
    cs = _creatures(creatures, system, rules, Sampling(method, n, seed, threads))
    p, _ = _grid(cs)
    names = [c.name for c in cs]
    rank_p = _ranks(cs, p)
    ranks = pd.DataFrame(
        [
            {"creature": c.name, "rank": r + 1, "p": float(rank_p[i, r])}
            for i, c in enumerate(cs)
            for r in range(len(cs))
        ]
    )
    orders = None
    if len(cs) <= MAX_ORDERS:
        rows = [
            {"order": " > ".join(names[i] for i in o), "p": _order_p(o, cs, p)}
            for o in itertools.permutations(range(len(cs)))
        ]
        orders = pd.DataFrame(rows).sort_values("p", ascending=False, kind="stable")
        orders = orders.reset_index(drop=True)
    side_frame = None
    if sides is not None:
        index = {name: i for i, name in enumerate(names)}
        if not isinstance(sides, Mapping):
            raise ExplodiceError(
                f"`sides` must be a mapping side -> names, but {shown(sides)} was passed."
            )
        groups = {}
        for side, members in sides.items():
            if (
                isinstance(members, (str, bytes))
                or not isinstance(members, Sequence)
                or not members
            ):
                raise ExplodiceError(
                    f"`sides.{clip(side)}` must be a non-empty list of names,"
                    f" but {shown(members)} was passed."
                )
            unknown = [m for m in members if m not in index]
            if unknown:
                raise ExplodiceError(
                    f"`sides.{clip(side)}` must name creatures of {listed(names)},"
                    f" but {shown(unknown[0])} was passed."
                )
            groups[side] = [index[m] for m in members]
        rows = [
            {"first": x, "second": y, "p": _side_before(groups[x], groups[y], cs, p)}
            for x, y in itertools.permutations(groups, 2)
        ]
        side_frame = pd.DataFrame(rows)
    sim = any(c.dist.simulated for c in cs)
    return Initiative(ranks, orders, side_frame, system, "simulate" if sim else "exact")
