"""The chain on gauge levels: one character's day as probabilities over its four gauges' levels.

A PC's state is the level of PA, PM, PF and PH, a flat C-order array of ``prod(size)``
probabilities (:class:`LevelChain`). A roll that drains gauge ``g`` moves mass along ``g``'s
axis; past 0 the excess follows the overflow rule (``Rules.overflow``), read from
:mod:`explodice.day.overflow` as an *order* of the other gauges (the chain only asks that,
after its first gauge, the order depend on the levels of the gauges not yet named).

**How a roll is played, and what it costs.** A drain law is a mixture of sums of ``c``
exploding d6 (:class:`~explodice.day.rolls.DrainLaw`: its c-mass), and one exploding d6
along an axis is a recursion of seven operations per entry, so a roll's drain costs about
``7 c`` operations per state and per law, whatever the gauges' sizes (before: ``level / 2 +
the other gauges' points`` per state); they run on several columns at once (a vector
register's worth), each step's last levels kept in registers (:mod:`explodice.day._vector`).
The excess past 0 is not spread state by state: the sources of one *class* (their first
gauge of the order ``j1``) are summed by combined level ``level of g + level of j1``, the
drain is played along that combined level (its part below 0 is the excess past ``j1``,
poured into the next gauges), and what the columns kept is subtracted
(:mod:`explodice.day._chain_kernel`). Those arrays hold 0.3-0.4 of the states at level 20
(0.4-0.55 at level 10). So one roll costs about ``states x (7 C + 10)`` operations, ``C``
the most dice that drain (3, 4 with advantage, 8 for a reroll's two throws): the day grows
with ``rolls x prod(gauge sizes)``, the fourth power of the gauges' size for four gauges
that grow together. :meth:`LevelChain.pull` is the same operator transposed (the optimal
player's backward pass). Where a roll's time goes, measured, is in ``benchmarks/README.md``.

The plans (the classes, their arrays) are built once per (gauge sizes, drained gauge, rule)
and cached, so repeated days with the same gauges (a sweep of DCs or policies) build none.

>>> chain = LevelChain((1, 0, 0, 0), "fullest")   # one point of PA
>>> out = np.zeros(chain.n)
>>> law = np.array([[0.5, 0.5], [1.0, 0.0]])      # half the time one exploding d6
>>> mass, lost = chain.push(chain.start_probabilities(), out, 0, 0, law, 1.0)
>>> out.round(12).tolist(), float(mass[0]), round(lost, 12)  # lost: 1/2 x (4.2 - 1)
([0.5, 0.5], 1.0, 1.6)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError
from explodice.core.words import Phrase
from explodice.day import _chain_kernel as kernel
from explodice.day.overflow import best_pour, order_of, pour
from explodice.day.rolls import DrainLaw, dice_tails, drain_pmf
from explodice.game.character import GAUGES

__all__ = [
    "N_LAWS",
    "STATE_LIMIT",
    "LevelChain",
    "MovePlan",
    "PourClass",
    "SPLIT_STATES",
    "SumChain",
    "check_states",
    "move_plan",
    "run_parts",
]

STATE_LIMIT = 8_000_000  # gauge-level states per character
#: From this many states a roll of one group of roll types is played in two halves (a roll
#: of several in two lanes, :func:`explodice.day.exact`), on two threads when there are two
#: (a fixed split: the numbers do not depend on the threads).
SPLIT_STATES = 200_000
N_LAWS = 2  # the laws of a fixed-policy roll: its hindering gauge with points (0), at 0 (1)


def check_states(name: str, levels: tuple[int, ...] | list[int], slots: int = 1) -> None:
    """Refuse a character whose gauge levels (times ``slots``, the counts of rerolls it may
    still hold) make more than :data:`STATE_LIMIT` states."""
    n = int(np.prod([lv + 1 for lv in levels])) * slots
    if n > STATE_LIMIT:
        held = Phrase(" x {slots} counts of rerolls left", slots=slots) if slots > 1 else ""
        raise ExplodiceError(
            Phrase(
                "`scenario`: character {name!r} has gauges {dict}{held}, {n:,} "
                "states; the exact day allows at most {STATE_LIMIT:,} per character "
                "(use simulate_day).",
                name=name,
                dict=dict(zip(GAUGES, levels)),
                held=held,
                n=n,
                STATE_LIMIT=STATE_LIMIT,
            )
        )


def _strides(sizes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(np.prod(sizes[j + 1 :])) for j in range(len(sizes)))


# -- one roll's plan: the classes of columns and their arrays --------------------------------------
@dataclass(frozen=True, eq=False)
class PourClass:
    """The columns whose excess goes first to the gauge at position ``first`` of the others:
    ``K`` planes (the other two gauges' levels), ``Z`` combined levels, ``X`` the most an
    excess can go past ``first`` before it is lost; its arrays as the kernels read them."""

    first: int
    offset: int  # in the stage buffer (F): N_LAWS + 1 slots of Z x K
    t_offset: int  # in the pull's stage values (T): one slot of Z x K
    Z: int
    K: int
    X: int
    ylim: int  # 1 + the highest level of ``first`` in the class
    by_plane: bool  # F holds each plane's combined levels together ([slot][k][z], not [z][k])
    tbase: np.ndarray  # state of plane k with g and ``first`` at 0 (-1: no column)
    tstep: int
    pour_at: np.ndarray
    pour_to: np.ndarray
    R: np.ndarray
    lump_to: np.ndarray
    rest: tuple[int, int]  # positions of the plane's two gauges

    @functools.cached_property
    def stage(self) -> kernel.Stage:
        """The class's arrays as the stage kernels read them."""
        return kernel.Stage(
            self.Z, self.K, self.X, self.ylim, self.tbase, self.tstep, self.pour_at,
            self.pour_to, self.R, self.lump_to,
        )  # fmt: skip


@dataclass(frozen=True, eq=False)
class MovePlan:
    """How a roll of gauge ``g`` reads a character's levels of gauge sizes ``sizes`` under an
    overflow rule: its columns (the others' levels, C order), their classes and arrays."""

    sizes: tuple[int, int, int, int]
    g: int
    others: tuple[int, int, int]
    m: int
    inner: int
    levels: np.ndarray  # (n_cols, 3): the others' levels of each column
    base: np.ndarray  # F index of column's combined level 0, law 0 (-1: lost at once)
    zstep: np.ndarray
    vstep: np.ndarray
    t_base: np.ndarray  # T index of the column's combined level 0
    t_zstep: np.ndarray
    b_base: np.ndarray  # the pull's kept part: V[b_base + lv b_step], lv < b_lim (the
    # levels a stage reads of what a column keeps: the push adds no more to its stage)
    b_step: np.ndarray
    b_lim: np.ndarray
    classes: tuple[PourClass, ...]
    f_size: int
    t_size: int
    parts: tuple[tuple[int, int], ...]  # the column ranges played apart (two halves when large)

    @property
    def n_cols(self) -> int:
        return int(self.levels.shape[0])

    @functools.cached_property
    def columns(self) -> kernel.Columns:
        """The columns' arrays as the kernels read them."""
        return kernel.Columns(
            self.m, self.inner, self.base, self.zstep, self.vstep, self.t_base, self.t_zstep,
            self.b_base, self.b_step, self.b_lim,
        )  # fmt: skip

    def law_index(self, h: int) -> tuple[int, np.ndarray]:
        """``(row0, vcol)`` for a roll whose disadvantage comes from gauge ``h`` at 0 (-1:
        none): the law of level 0 of each column (``row0``, when ``h`` is ``g``) or of each
        column (``vcol``)."""
        return _law_index(self, h)

    def zlim(self, cls: PourClass, h: int) -> np.ndarray:
        """The combined levels each law has sources at, in class ``cls``."""
        full = cls.Z
        if h < 0:
            return np.array([full, 0], dtype=np.int64)
        if h == self.g:  # the empty law: level 0 of g, combined level = level of ``first``
            return np.array([full, cls.ylim], dtype=np.int64)
        if self.others[cls.first] == h:  # ``first`` at 0: combined level = level of g
            return np.array([full, self.m], dtype=np.int64)
        return np.array([full, full], dtype=np.int64)


@functools.lru_cache(maxsize=64)
def _law_index(plan: MovePlan, h: int) -> tuple[int, np.ndarray]:
    if h == plan.g:
        return 1, np.zeros(plan.n_cols, dtype=np.int64)
    vcol = np.zeros(plan.n_cols, dtype=np.int64)
    if h >= 0:
        vcol = (plan.levels[:, plan.others.index(h)] == 0).astype(np.int64)
    return -1, vcol


@functools.lru_cache(maxsize=64)
def move_plan(sizes: tuple[int, int, int, int], g: int, rule: str) -> MovePlan:
    """The :class:`MovePlan` of a roll of gauge ``g`` (cached by sizes, gauge and rule)."""
    strides = _strides(sizes)
    others = tuple(j for j in range(4) if j != g)
    ost = np.array([strides[j] for j in others], dtype=np.int64)
    levels = np.indices([sizes[j] for j in others]).reshape(3, -1).T
    n_cols = levels.shape[0]
    order = np.full((levels.shape[0], 3), -1, dtype=np.int64)  # -1: no more gauges
    given = np.asarray(order_of(rule)(levels, others), dtype=np.int64)
    order[:, : given.shape[1]] = given
    cols = {
        "base": np.full(n_cols, -1, np.int64),
        "zstep": np.zeros(n_cols, np.int64),
        "vstep": np.zeros(n_cols, np.int64),
        "t_base": np.zeros(n_cols, np.int64),
        "t_zstep": np.zeros(n_cols, np.int64),
        "b_base": np.zeros(n_cols, np.int64),
        "b_step": np.zeros(n_cols, np.int64),
        "b_lim": np.zeros(n_cols, np.int64),
    }
    classes, f_size, t_size = [], 0, 0
    first = order[:, 0]
    for j1 in range(3):
        members = np.flatnonzero(first == j1)
        if members.size:
            cls = _pour_class(sizes[g], levels, ost, order, members, j1, f_size, t_size, cols)
            classes.append(cls)
            f_size += (N_LAWS + 1) * cls.Z * cls.K
            t_size += cls.Z * cls.K
    for a in cols.values():
        a.setflags(write=False)
    half = n_cols // 2 if n_cols * sizes[g] >= SPLIT_STATES else n_cols
    parts = ((0, half), (half, n_cols)) if half < n_cols else ((0, n_cols),)
    return MovePlan(
        parts=parts,
        sizes=sizes,
        g=g,
        others=others,  # type: ignore[arg-type]
        m=sizes[g],
        inner=strides[g],
        levels=levels,
        classes=tuple(classes),
        f_size=f_size,
        t_size=t_size,
        **cols,
    )


def _pour_class(
    m: int,
    levels: np.ndarray,
    ost: np.ndarray,
    order: np.ndarray,
    members: np.ndarray,
    j1: int,
    offset: int,
    t_offset: int,
    cols: dict[str, np.ndarray],
) -> PourClass:
    """One class's arrays, and its columns' entries in ``cols``."""
    rest = tuple(s for s in range(3) if s != j1)
    lv = levels[members]
    top = int(lv[:, j1].max())
    Z = m + top
    dims = [int(lv[:, s].max()) + 1 for s in rest]
    K = dims[0] * dims[1]
    plane = lv[:, rest[0]] * dims[1] + lv[:, rest[1]]
    # neighbouring columns differ in the innermost other gauge: when it is ``first``, F
    # holds each plane's levels together, so that they land on neighbouring entries too
    by_plane = j1 == 2
    if by_plane:
        cols["base"][members] = offset + plane * Z + lv[:, j1]
        cols["zstep"][members] = 1
    else:
        cols["base"][members] = offset + lv[:, j1] * K + plane
        cols["zstep"][members] = K
    cols["vstep"][members] = Z * K
    cols["t_base"][members] = t_offset + lv[:, j1] * K + plane
    cols["t_zstep"][members] = K
    grid = np.indices(dims).reshape(2, -1).T  # plane k: the levels of the two rest gauges
    tb = grid @ ost[list(rest)]
    cols["b_base"][members] = tb[plane] + lv[:, j1] * ost[j1]
    cols["b_step"][members] = ost[j1]
    cols["b_lim"][members] = np.minimum(top + 1 - lv[:, j1], m)
    R, pour_at, pour_to, lump_to, has = _pour_targets(
        order[members, 1:3], plane, grid, tb, ost, rest
    )
    return PourClass(
        first=j1,
        offset=offset,
        t_offset=t_offset,
        Z=Z,
        K=K,
        X=int(R.max(initial=0)),
        ylim=top + 1,
        by_plane=by_plane,
        tbase=np.where(has, tb, -1).astype(np.int64),
        tstep=int(ost[j1]),
        pour_at=pour_at,
        pour_to=pour_to,
        R=R,
        lump_to=lump_to,
        rest=rest,  # type: ignore[arg-type]
    )


def _pour_targets(
    after: np.ndarray,
    plane: np.ndarray,
    grid: np.ndarray,
    tb: np.ndarray,
    ost: np.ndarray,
    rest: tuple[int, ...],
) -> tuple[np.ndarray, ...]:
    """Where an excess past a class's first gauge goes, plane by plane: ``R[k]`` the points
    the next gauges of the order hold, ``pour_to[pour_at[k] + x - 1]`` the state after an
    excess ``x <= R[k]``, ``lump_to[k]`` the state past them (the rest lost); ``has[k]``: the
    plane has columns. ``after[i]``: the order of member ``i`` after its first gauge (``-1``
    padded)."""
    K = grid.shape[0]
    present, first_of = np.unique(plane, return_index=True)
    seq = after[first_of]
    if not (after == seq[np.searchsorted(present, plane)]).all():
        raise ExplodiceError(
            Phrase("an overflow order must depend, after its first gauge, on the others' levels")
        )
    level = np.zeros((present.size, 2), np.int64)  # the next gauges' levels, in order
    step = np.zeros((present.size, 2), np.int64)  # and their strides
    for i in range(2):
        named = seq[:, i] >= 0
        at = np.array([rest.index(s) if s >= 0 else 0 for s in seq[:, i]], dtype=np.int64)
        level[:, i] = np.where(named, grid[present, at], 0)
        step[:, i] = np.where(named, ost[np.maximum(seq[:, i], 0)], 0)
    reach = level.sum(axis=1)
    R, pour_at, lump_to = np.zeros(K, np.int64), np.zeros(K, np.int64), np.full(K, -1, np.int64)
    R[present] = reach
    starts = np.concatenate([[0], np.cumsum(reach)[:-1]]).astype(np.int64)
    pour_at[present] = starts
    who = np.repeat(np.arange(present.size), reach)
    x = np.arange(int(reach.sum()), dtype=np.int64) - starts[who] + 1
    first_part = np.minimum(x, level[who, 0])
    pour_to = tb[present][who] - first_part * step[who, 0] - (x - first_part) * step[who, 1]
    lump_to[present] = tb[present] - (level * step).sum(axis=1)
    has = np.zeros(K, bool)
    has[present] = True
    return R, pour_at, np.concatenate([pour_to, [0]]).astype(np.int64), lump_to, has


# -- the chain ---------------------------------------------------------------------------------------
class LevelChain:
    """One PC's gauge levels: sizes ``start + 1`` (levels 0 .. start), the overflow rule, and
    the moves of a roll (:meth:`push` forward, :meth:`pull` backward). Probability arrays
    are flat, C order over (PA, PM, PF, PH); the chain holds none itself."""

    def __init__(self, start: tuple[int, ...] | list[int], overflow: str, threads: int = 1):
        self.threads = threads
        self.start = tuple(int(s) for s in start)
        self.sizes: tuple[int, int, int, int] = tuple(s + 1 for s in self.start)  # type: ignore[assignment]
        self.n = int(np.prod(self.sizes))
        self.strides = _strides(self.sizes)
        self.overflow = overflow
        order_of(overflow)
        self._buffers: dict[tuple[int, int, int | str], np.ndarray] = {}
        self._best_key: tuple[int, int] | None = None  # overflow="best": the last choice
        self._best: tuple[np.ndarray, ...] = ()

    n_bins = 1  # no running sum in the state (see SumChain)

    def plan(self, g: int) -> MovePlan:
        """The plan of a roll of gauge ``g``."""
        return move_plan(self.sizes, g, self.overflow)

    def states(self, P: np.ndarray) -> np.ndarray:
        """The probabilities of the gauge levels alone (``P`` itself: no running sum)."""
        return P

    def start_index(self) -> int:
        """The flat index of the starting levels."""
        return int(np.ravel_multi_index(self.start, self.sizes))

    def start_probabilities(self) -> np.ndarray:
        """All the mass at the starting levels."""
        P = np.zeros(self.n)
        P[self.start_index()] = 1.0
        return P

    def index_of(self, levels: tuple[int, ...] | list[int]) -> int:
        """The flat index of one combination of levels."""
        return int(np.ravel_multi_index(tuple(levels), self.sizes))

    def level(self, g: int) -> np.ndarray:
        """Each state's level of gauge ``g`` (flat; built once)."""
        return _levels(self.sizes, g)

    def empty_mass(self, P: np.ndarray) -> np.ndarray:
        """``[g]`` = P(gauge g at 0)."""
        shaped = P.reshape(self.sizes)
        return np.array([float(shaped[(slice(None),) * g + (0,)].sum()) for g in range(4)])

    def marginals(self, P: np.ndarray) -> np.ndarray:
        """``[g, l]`` = P(gauge g at level l)."""
        return kernel.marginals(P, np.array(self.sizes, dtype=np.int64))

    def move(
        self,
        P: np.ndarray,
        out: np.ndarray,
        g: int,
        h: int,
        laws: np.ndarray,
        weight: float,
        overwrite: bool = False,
        lane: int | None = None,
    ) -> tuple[np.ndarray, float]:
        """Add ``weight`` times ``P`` after a roll that drains gauge ``g`` into ``out`` (or,
        with ``overwrite``, write it there: ``out`` need not be zeroed first).

        ``laws[v]`` is the c-mass of the drain law (:data:`N_LAWS` rows): row 0 where gauge
        ``h`` has points, row 1 where it is at 0 (``h = -1``: row 0 everywhere). Returns each
        law's mass (times ``weight``) and the expected points lost.

        ``lane``: moves played at the same time on two threads each play in a lane of their
        own (its buffers), whole; without one, a large move is played in two fixed halves, on
        the chain's threads."""
        laws = np.ascontiguousarray(laws, dtype=float)
        if laws.shape[1] > 1:
            return self._move(P, out, g, h, laws, float(weight), overwrite, lane)
        if overwrite:  # a roll that drains nothing: every state stays
            np.multiply(P, weight, out=out)
        else:
            out += weight * P
        total = weight * float(P.sum())
        empty = float(weight * self.empty_mass(self.states(P))[h]) if h >= 0 else 0.0
        return np.array([total - empty, empty]), 0.0

    def _move(
        self, P: np.ndarray, out: np.ndarray, g: int, h: int, laws: np.ndarray, weight: float,
        overwrite: bool, lane: int | None,
    ) -> tuple[np.ndarray, float]:  # fmt: skip
        """:meth:`move` for a law that drains (the kernels of the module docstring)."""
        C = laws.shape[1] - 1
        plan = self.plan(g)
        parts = plan.parts if lane is None else ((0, plan.n_cols),)
        family = 0 if lane is None else 1 + lane  # whose buffers and scratch
        row0, vcol = plan.law_index(h)
        top = sum(self.sizes) + 8
        tau, lam = dice_tails(top)
        law_tau = laws @ tau[: C + 1]
        law_lam = laws @ lam[: C + 1]
        drain = kernel.Drain(laws, C, law_tau, law_lam, row0, vcol)
        buffers = [self._buffer(plan.f_size, family, i) for i in range(len(parts))]
        masses = [np.zeros(N_LAWS) for _ in parts]

        def half(i: int) -> float:
            lo, hi = parts[i]
            return float(kernel.push_columns(
                P, out, weight, plan.columns, drain, buffers[i], masses[i], overwrite, lo, hi
            ))  # fmt: skip

        lost = sum(run_parts(half, len(parts), self.threads))
        F = buffers[0]
        for i in range(1, len(parts)):
            kernel.merge(F, buffers[i])
        mass = np.sum(masses, axis=0)
        for cls in plan.classes:
            Phi = self._buffer((cls.X + cls.Z) * cls.K, family, "values")
            block = F[cls.offset : cls.offset + (N_LAWS + 1) * cls.Z * cls.K]
            if cls.by_plane:  # to the stage's layout: combined level by combined level
                level_major = self._buffer(block.size, family, "by level")
                kernel.plane_to_level(block, level_major, N_LAWS + 1, cls.K, cls.Z)
                block = level_major
            lost += kernel.stage_push(block, cls.stage, drain, plan.zlim(cls, h), out, Phi)
        return mass, float(lost)

    push = move  # forward, as :meth:`pull` is backward

    def pull(self, V: np.ndarray, g: int, c_max: int) -> np.ndarray:
        """``W[c - 1]`` = E[V after a roll that drains gauge ``g`` by ``c`` exploding d6]
        from each state, ``c = 1 .. c_max`` (the optimal player's backward pass)."""
        plan = self.plan(g)
        tau, _ = dice_tails(sum(self.sizes) + 8)
        T = np.zeros((c_max, plan.t_size + 1))  # the last entry: 0, for lost columns
        for cls in plan.classes:
            u = np.zeros((6 + cls.X + cls.Z, cls.K))
            r = np.zeros_like(u)
            Tc = T[:, cls.t_offset : cls.t_offset + cls.Z * cls.K].reshape(c_max, cls.Z, cls.K)
            kernel.stage_pull(V, cls.stage, c_max, tau, Tc, u, r, np.zeros(cls.K))
        W = np.empty((c_max, self.n))

        def half(i: int) -> None:
            lo, hi = plan.parts[i]
            kernel.pull_columns(V, W, plan.columns, c_max, tau, T, lo, hi)

        run_parts(half, len(plan.parts), self.threads)
        return W

    # -- overflow="best": the player pours each excess where it is worth most ----------------
    def _chosen(self, V: np.ndarray, g: int, c: int) -> Any:
        """For a drain of ``c`` exploding d6 on gauge ``g``, every move of every state as
        ``(sources, destinations, probabilities)`` batches, the excess poured where
        :func:`~explodice.day.overflow.best_pour` says for the values ``V`` after the roll;
        last, ``(P(every gauge emptied), E[points lost])`` per state (state 0 is every gauge
        at 0)."""
        if self.n_bins != 1:
            raise ExplodiceError(
                Phrase(
                    '`overflow`: "best" (the player\'s choice of the gauge that takes an '
                    "excess) is played on gauge levels only: the exact day's "
                    "distributions are not available under it (distributions=False, or "
                    "overflow='fullest')."
                )
            )
        key = (g, hash(V.tobytes()))  # one choice of gauges per roll, whatever c
        if self._best_key != key:
            self._best_key, self._best = key, best_pour(self.sizes, g, V)
        dest, reach, column = self._best
        lg = self.level(g)
        states = np.arange(self.n)
        top = int(lg.max(initial=0) + reach.max(initial=0)) + 2
        q = np.zeros(top + 1)
        pmf = drain_pmf(c)[: top + 1]
        q[: pmf.size] = pmf
        batches = []
        for d in range(int(lg.max(initial=0)) + 1):  # absorbed by g: no choice
            src = states[lg >= d]
            batches.append((src, src - d * self.strides[g], np.full(src.size, q[d])))
        r_s = reach[column]
        for x in range(1, int(reach.max(initial=0))):  # an excess x that the others absorb
            src = states[x < r_s]
            batches.append((src, dest[x - 1, column[src]], q[lg[src] + x]))
        tau, lam = dice_tails(top + 1)
        emptied = tau[c, lg + np.maximum(r_s, 1) - 1]  # P(d >= lg + reach): all at 0
        return batches, emptied, lam[c, lg + r_s]

    def pull_best(self, V: np.ndarray, g: int, c_max: int) -> np.ndarray:
        """:meth:`pull` under ``overflow="best"``: the player, knowing the excess, pours it
        where ``V`` is highest."""
        W = np.zeros((c_max, self.n))
        for c in range(1, c_max + 1):
            batches, emptied, _ = self._chosen(V, g, c)
            for src, to, p in batches:
                W[c - 1, src] += p * V[to]
            W[c - 1] += emptied * V[0]
        return W

    def push_best(
        self, P: np.ndarray, out: np.ndarray, g: int, c: int, weight: float, V: np.ndarray
    ) -> float:
        """:meth:`push` of a drain of ``c`` exploding d6 under ``overflow="best"`` (the
        excess where ``V``, the values after the roll, is highest): ``weight`` times ``P``
        into ``out``; returns the expected points lost."""
        batches, emptied, lost = self._chosen(V, g, c)
        for src, to, p in batches:
            out += weight * np.bincount(to, weights=P[src] * p, minlength=self.n)
        out[0] += weight * float(P @ emptied)
        return weight * float(P @ lost)

    def _buffer(self, size: int, family: int = 0, i: int | str = 0) -> np.ndarray:
        """Stage buffer ``i`` of a lane (``family``), zero (kept between rolls: the stages
        leave it clean), or, named, a stage's scratch array (the kernels overwrite it whole).
        The chain's own: days played at once in other threads keep theirs."""
        buf = self._buffers.get((size, family, i))
        if buf is None:
            buf = self._buffers[(size, family, i)] = np.zeros(max(size, 1))
        return buf


def run_parts(job: Callable[[int], Any], n: int, threads: int) -> list[Any]:
    """``[job(0), ..., job(n - 1)]``, on ``threads`` threads at most (the kernels release the
    GIL; the parts are fixed, so the numbers do not depend on how many threads run them)."""
    if threads < 2 or n < 2:
        return [job(i) for i in range(n)]
    return list(_pool().map(job, range(n)))


@functools.lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="explodice-chain")


@functools.lru_cache(maxsize=16)
def _levels(sizes: tuple[int, int, int, int], g: int) -> np.ndarray:
    shape = [1, 1, 1, 1]
    shape[g] = sizes[g]
    out = np.broadcast_to(np.arange(sizes[g]).reshape(shape), sizes).reshape(-1)
    out.setflags(write=False)
    return out


# -- the chain with a running sum in its state (the day's drain and lost distributions) ------------
class SumChain(LevelChain):
    """A :class:`LevelChain` whose state also holds a running sum over the day, ``0 ..
    n_bins - 1`` (the last: that many or more): the drain caused on gauge ``gauge``
    (``track="caused"``) or the points lost (``track="lost"``). ``P`` is flat, ``[state *
    n_bins + sum]``; an excess goes where :func:`~explodice.day.overflow.pour` sends it (a
    map built once per gauge), state by state (:func:`~explodice.day._chain_kernel.move_sum`).
    """

    def __init__(self, start: tuple[int, ...], overflow: str, n_bins: int, track: str, gauge: int):
        super().__init__(start, overflow)
        self.n_bins, self.track, self.gauge = n_bins, track, gauge
        self._pmfs: dict[Any, tuple[np.ndarray, ...]] = {}
        self._laws: dict[int, np.ndarray] = {}

    def start_probabilities(self) -> np.ndarray:
        P = np.zeros(self.n * self.n_bins)
        P[self.start_index() * self.n_bins] = 1.0
        return P

    def states(self, P: np.ndarray) -> np.ndarray:
        """The probabilities of the gauge levels alone."""
        return P.reshape(self.n, self.n_bins).sum(axis=1)

    def sums(self, P: np.ndarray) -> np.ndarray:
        """P(the running sum = S): the table's row."""
        return P.reshape(self.n, self.n_bins).sum(axis=0)

    def width(self, g: int) -> int:
        """Drain entries a roll of gauge ``g`` reads."""
        return self.n_bins + self.sizes[g] + int(_sum_map(self.sizes, g, self.overflow)[4]) + 2

    def _move(
        self, P: np.ndarray, out: np.ndarray, g: int, h: int, laws: np.ndarray, weight: float,
        overwrite: bool, lane: int | None,
    ) -> tuple[np.ndarray, float]:  # fmt: skip
        if overwrite:
            out[:] = 0.0
        level, o_of, base, dest, _, lost_amt, cap, far_of = _sum_map(self.sizes, g, self.overflow)
        qs, t0, t1 = self._tables(laws, g)
        track = {"caused": 1 if g == self.gauge else 0, "lost": 2}[self.track]
        mass = np.zeros(N_LAWS)
        moves = kernel.SumMoves(level, o_of, base, self.strides[g], dest, lost_amt, cap, far_of)
        sum_laws = kernel.SumLaws(self._law_index(h), qs, t0, t1)
        lost = kernel.move_sum(P, out, self.n_bins, moves, sum_laws, track, weight, mass)
        return mass, float(lost)

    def _tables(self, laws: np.ndarray, g: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The laws' PMFs, ``P(d >= j)`` and ``E[d; d >= j]`` over the whole law, as rows of
        the width a roll of ``g`` reads (cached by law)."""
        key = (laws.tobytes(), laws.shape, g)
        if key not in self._pmfs:
            width = self.width(g)
            rows = [DrainLaw(row).pmf for row in laws]
            size = max(width, max(q.size for q in rows)) + 1
            qs = np.zeros((len(rows), size))
            for i, q in enumerate(rows):
                qs[i, : q.size] = q
            t0 = np.cumsum(qs[:, ::-1], axis=1)[:, ::-1]
            t1 = np.cumsum((qs * np.arange(size))[:, ::-1], axis=1)[:, ::-1]
            self._pmfs[key] = tuple(np.ascontiguousarray(a[:, :width]) for a in (qs, t0, t1))
        return self._pmfs[key]  # type: ignore[return-value]

    def _law_index(self, h: int) -> np.ndarray:
        """Each state's law: 1 where gauge ``h`` is at 0."""
        if h not in self._laws:
            self._laws[h] = (
                (self.level(h) == 0).astype(np.int64)
                if h >= 0
                else np.zeros(self.n, dtype=np.int64)
            )
        return self._laws[h]


@functools.lru_cache(maxsize=16)
def _sum_map(sizes: tuple[int, int, int, int], g: int, rule: str) -> tuple[Any, ...]:
    strides = _strides(sizes)
    others = [j for j in range(4) if j != g]
    o_sizes = tuple(sizes[j] for j in others)
    grid = np.indices(o_sizes).reshape(3, -1).T
    n_o = grid.shape[0]
    base = (grid @ np.array([strides[j] for j in others])).astype(np.int64)
    full = np.zeros((n_o, 4), dtype=np.int64)
    full[:, others] = grid
    huge = sum(sizes) + 1
    far, past = pour(full, g, np.full(n_o, huge), rule)  # every point the overflow reaches
    cap = (huge - past).astype(np.int64)
    far_of = np.ravel_multi_index(tuple(far[:, j] for j in others), o_sizes).astype(np.int64)
    n_x = max(int(cap.max(initial=0)) - 1, 0)
    rows = np.repeat(full, n_x, axis=0)
    excess = np.tile(np.arange(1, n_x + 1), n_o)
    new, lost = pour(rows, g, excess, rule)
    dest = np.ravel_multi_index(tuple(new[:, j] for j in others), o_sizes).reshape(n_o, n_x)
    lost_amt = lost.reshape(n_o, n_x).astype(np.int64)
    level = np.indices(sizes)[g].reshape(-1).astype(np.int64)
    o_of = np.empty(int(np.prod(sizes)), np.int64)
    for lv in range(sizes[g]):
        o_of[base + lv * strides[g]] = np.arange(n_o)
    return level, o_of, base, dest.astype(np.int64), int(cap.max(initial=0)), lost_amt, cap, far_of
