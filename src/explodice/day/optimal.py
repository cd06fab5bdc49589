"""The player who plays the day well: the rule-of-1 choice that maximises a day's successes.

After seeing the initial throw, knowing the roll's index in the day and every gauge level, the
player sets aside ``k`` pairs of one 1 and one 6. :func:`optimal_policy` finds, by backward
dynamic programming over the chain on gauge levels (:mod:`explodice.day.chain`, the exact
day's), the choices that maximise the expected number of successes over the day (each roll
type weighted by ``values``, default 1). Characters do not interact, so each PC's choices are
its own.

Backward, roll by roll: for each gauge its roll types drain, the value of the day after a
drain of ``c`` exploding d6 (:meth:`~explodice.day.chain.LevelChain.pull`, ``c = 1 .. 4``),
then each roll type's best choice in every state (:mod:`explodice.day._optimal_kernel`,
vectorised over states). The pull costs what the exact day's roll costs per ``c``; the choice
a few operations per throw with a choice (6 for 3 dice, 18 for 4) and per state; the values
of every roll are kept (``(rolls + 1) x states`` numbers) for playing the policy forward.

The result, an :class:`OptimalPolicy`, is a state-dependent policy that
:func:`explodice.exact_day` and :func:`explodice.simulate_day` both play (``policy=``), its
value per character (:attr:`OptimalPolicy.value`), the comparison with the fixed policies
(:meth:`OptimalPolicy.compare`) and a readable form (:meth:`OptimalPolicy.to_frame`).

>>> from explodice import Character, DayRoll, Scenario
>>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
...                  gauge_max={"PA": 3, "PM": 0, "PF": 0, "PH": 0})
>>> s = Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=14, repeat=5)])
>>> best = optimal_policy(s)
>>> bool(best.value["Hero"] >= exact_day(s).to_frame("success").p.sum() - 1e-12)
True
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, check_choice, shown
from explodice.core.words import Phrase
from explodice.day import _optimal_kernel
from explodice.day.chain import N_LAWS, SPLIT_STATES, LevelChain, check_states, run_parts
from explodice.day.compiled import (
    CompiledCharacter,
    CompiledDay,
    CompiledRollType,
    DayPolicy,
    compile_day,
    optimal_unsupported,
)
from explodice.day.exact import RollStep, Tally, exact_day
from explodice.day.results import DayResult
from explodice.day.rolls import MAX_ONES, DrainLaw
from explodice.day.scenario import Scenario
from explodice.engine.chunks import resolve_threads
from explodice.engine.rule_of_one import STATE_SHAPE, policy_table
from explodice.game.character import GAUGES
from explodice.game.rules import Best, Rules

__all__ = ["DEFAULT_LAMBDAS", "OptimalPolicy", "Player", "Throws", "optimal_policy"]

DEFAULT_LAMBDAS = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
TABLE_LIMIT = 50_000_000  # entries of the lookup table simulate_day needs
#: The readable forms of :meth:`OptimalPolicy.to_frame`.
PolicyTable = Literal["choices", "thresholds"]
POLICY_TABLES: tuple[PolicyTable, ...] = ("choices", "thresholds")


# -- a roll type's choices, in the kernel's layout -----------------------------------------------
@dataclass(frozen=True, eq=False)
class Throws:
    """Both variants of one roll type as :mod:`explodice.day._optimal_kernel` reads them:
    the throws without a choice summed (``s0``, ``pi0``), the choice throws one by one."""

    s0: np.ndarray
    pi0: np.ndarray
    first: np.ndarray
    last: np.ndarray
    p: np.ndarray
    kmax: np.ndarray
    succ: np.ndarray
    ones: np.ndarray
    state: np.ndarray  # [j] = (n1, n6, s) of each choice throw
    free: tuple[bool, bool]
    dice: int  # the most draining 1s any of them has

    @functools.cached_property
    def kernel_view(self) -> _optimal_kernel.Choices:
        """The throws as the kernels read them."""
        return _optimal_kernel.Choices(
            self.s0, self.pi0, self.first, self.last, self.p, self.kmax, self.succ, self.ones
        )

    def choices(self, v: int, key: int) -> list[tuple[int, int, int, int]]:
        """``(n1, n6, s, k)`` of each choice throw of variant ``v`` for the choice ``key``."""
        ks = _decode(key, self.kmax[self.first[v] : self.last[v]])
        return [
            (*(int(x) for x in self.state[j]), k)  # type: ignore[misc]
            for j, k in zip(range(self.first[v], self.last[v]), ks)
        ]


def throws_of(rt: CompiledRollType) -> Throws:
    """The :class:`Throws` of a compiled roll type (its variants' exact choices)."""
    s0, pi0 = np.zeros(2), np.zeros((2, MAX_ONES + 1))
    first, last = np.zeros(2, np.int64), np.zeros(2, np.int64)
    rows: list[tuple[float, int, np.ndarray, np.ndarray, tuple[int, int, int]]] = []
    for v, var in enumerate(rt.variants):
        ch = var.choices
        first[v] = len(rows)
        kmax = ch.k_max
        for i in range(ch.p.size):
            if ch.free and kmax[i] > 0:
                throw = (int(ch.n1[i]), int(ch.n6[i]), int(ch.s[i]))
                rows.append((ch.p[i], int(kmax[i]), ch.succ[i], ch.ones[i], throw))
            else:
                k = 0 if ch.free else int(ch.k_fixed[i])
                s0[v] += ch.p[i] * ch.succ[i, k]
                pi0[v] += ch.p[i] * ch.ones[i, k]
        last[v] = len(rows)
    n = max(len(rows), 1)
    p, kmax = np.zeros(n), np.zeros(n, np.int64)
    succ, ones = np.zeros((n, MAX_ONES + 1)), np.zeros((n, MAX_ONES + 1, MAX_ONES + 1))
    state = np.zeros((n, 3), np.int64)
    for j, (pj, kj, sj, oj, st) in enumerate(rows):
        p[j], kmax[j], succ[j], ones[j], state[j] = pj, kj, sj, oj, st
    used = np.flatnonzero((pi0 != 0).any(axis=0) | (ones != 0).any(axis=(0, 1)))
    dice = int(used[-1]) if used.size else 0
    free = (rt.variants[0].choices.free, rt.variants[1].choices.free)
    return Throws(s0, pi0, first, last, p, kmax, succ, ones, state, free, dice)


def _decode(key: int, kmax: np.ndarray) -> list[int]:
    """The choices packed in ``key`` (mixed radix, first throw most significant)."""
    out = []
    for km in kmax[::-1]:
        out.append(key % (int(km) + 1))
        key //= int(km) + 1
    return out[::-1]


# -- one character's day, backward -----------------------------------------------------------------
class Player:
    """One PC's chain, the throws of its roll types and its day's values ``V[t]`` (the
    expected weighted successes of rolls t+1..T from each state, ``t = 0 .. T``)."""

    def __init__(
        self, day: CompiledDay, ch: CompiledCharacter, throws: list[Throws], threads: int = 1
    ):
        self.name = ch.name
        self.character = ch
        self.chain = LevelChain(ch.start, day.overflow, threads)
        self.throws = throws
        self.dice = max([throws[r].dice for r in ch.roll_types], default=0)
        self.V = np.zeros((day.n_rolls + 1, self.chain.n))
        self._empty: dict[int, np.ndarray] = {}
        #: ``after`` at roll ``t`` along gauge ``g``'s :meth:`line`, kept by the backward
        #: pass for :meth:`OptimalPolicy.to_frame` (a small slice of what it computes)
        self.lines: dict[tuple[int, int], np.ndarray] = {}

    def empty(self, h: int) -> np.ndarray:
        """The states where gauge ``h`` is at 0 (flat indices)."""
        if h not in self._empty:
            self._empty[h] = np.flatnonzero(self.chain.level(h) == 0)
        return self._empty[h]

    def line(self, g: int) -> np.ndarray:
        """The states along gauge ``g``'s levels, the other gauges at their start."""
        ch = self.chain
        return np.array(
            [ch.index_of(ch.start[:g] + (lv,) + ch.start[g + 1 :]) for lv in range(ch.sizes[g])]
        )

    def after(self, V: np.ndarray, g: int) -> np.ndarray:
        """``W[c - 1]``: the value of ``V`` after a roll draining gauge ``g`` by c dice."""
        if self.dice == 0:
            return np.zeros((0, V.size))
        if self.chain.overflow == "best":  # the player also picks where an excess goes
            return self.chain.pull_best(V, g, self.dice)
        return self.chain.pull(V, g, self.dice)

    def values(
        self, W: np.ndarray, V: np.ndarray, h: int, th: Throws, weight: float, share: float,
        into: np.ndarray,
    ) -> None:  # fmt: skip
        """Add ``share`` times the roll's value in every state under the best choices
        (hindered by ``h``) into ``into``."""
        args = (float(weight), th.kernel_view)
        empty = self.empty(h)  # the states that play the roll at disadvantage
        kept = into[empty].copy() if empty.size else into[:0]
        n, cut = V.size, V.size // 2 if V.size >= SPLIT_STATES else V.size
        parts = [(0, cut), (cut, n)] if cut < n else [(0, n)]

        def half(i: int) -> None:
            after = _optimal_kernel.After(V, W, self.dice)
            _optimal_kernel.values(after, 0, *args, into, float(share), *parts[i])

        run_parts(half, len(parts), self.chain.threads)
        if empty.size:
            Qe = np.zeros(empty.size)
            Wh = np.ascontiguousarray(W[:, empty])
            after = _optimal_kernel.After(V[empty], Wh, self.dice)
            _optimal_kernel.values(after, 1, *args, Qe, float(share), 0, Qe.size)
            into[empty] = kept + Qe

    def decide(
        self, W: np.ndarray, V: np.ndarray, variant: np.ndarray, th: Throws, weight: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(Q, P(success), P(c draining 1s), choice keys)`` in the states of ``V`` (``W``
        the same states' values after c dice, ``variant`` theirs)."""
        n = V.size
        Q, s, key = np.empty(n), np.empty(n), np.empty(n, np.int64)
        pi = np.zeros((n, self.dice + 1))
        after = _optimal_kernel.After(V, W, self.dice)
        out = _optimal_kernel.Decisions(Q, s, pi, key)
        _optimal_kernel.decide(after, variant, float(weight), th.kernel_view, out)
        return Q, s, pi, key

    def variant(self, h: int) -> np.ndarray:
        """Each state's variant for a roll hindered by ``h`` (1: ``h`` at 0)."""
        return (self.chain.level(h) == 0).astype(np.int64)


def _backward(day: CompiledDay, pl: Player, values: tuple[float, ...]) -> None:
    """Fill ``pl.V`` from the last roll back."""
    c = pl.character.index
    V = pl.V
    for t in range(day.n_rolls - 1, -1, -1):
        shares = day.shares_at(t, c)
        cur = V[t]
        np.multiply(V[t + 1], 1.0 - sum(shares.values()), out=cur)
        for g in sorted({day.roll_types[r].drained for r in shares}):
            W = pl.after(V[t + 1], g)
            pl.lines[t, g] = np.ascontiguousarray(W[:, pl.line(g)])
            for r, w in shares.items():
                rt = day.roll_types[r]
                if rt.drained == g:
                    pl.values(W, V[t + 1], rt.hindering, pl.throws[r], values[r], w, cur)


# -- the policy ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class OptimalPolicy(DayPolicy):
    """The best rule-of-1 choices over a day of ``scenario`` under ``rules``.

    ``value[name]``: the expected weighted successes of that PC's rolls over the day, played
    so. ``values``: the weight of each roll type's success. Play it with
    ``exact_day(scenario, rules, policy=...)`` or ``simulate_day(..., policy=...)``.
    ``players``: each PC's chain and values (:class:`Player`).
    """

    scenario: Scenario
    rules: Rules
    values: tuple[float, ...]
    value: dict[str, float]
    seconds: float
    players: dict[str, Player]

    # -- what exact_day and simulate_day ask ---------------------------------------------------
    def deciders(self, day: CompiledDay) -> dict[str, Decider]:
        """One object per PC that moves exact_day's chain under these choices."""
        self.check(day)
        return {name: Decider(self, pl, day) for name, pl in self.players.items()}

    def lookup(
        self, day: CompiledDay
    ) -> tuple[list[tuple[int, np.ndarray]], np.ndarray, np.ndarray]:
        """For the day kernel: ``(extra, table, strides)``. ``extra[i] = (v, k_table)``: a
        variant ``2 r + empty`` played with that choice table; ``table[t, r, state]``: the
        index into ``extra`` (or -1: the roll's own policy) of roll type ``r`` at roll ``t``
        from the flat index ``state`` of its character's levels (``strides[c]``)."""
        self.check(day)
        return _lookup(self, day)

    # -- comparisons -------------------------------------------------------------------------
    def compare(self, lambdas: Sequence[float] = DEFAULT_LAMBDAS) -> pd.DataFrame:
        """Per PC: the day's expected weighted successes under the optimum, keep, cancel and
        the best fixed λ of ``lambdas`` (each played all day, at each roll's own DC), with
        the gains of the optimum over them. Tidy: one row per (character, policy)."""
        rows = []
        fixed: dict[str, Any] = {"keep": "keep", "cancel": "cancel"}
        fixed.update({f"best(λ={lam:g})": Best(0, lam) for lam in lambdas})
        scores = {}
        for label, pol in fixed.items():
            s = self.scenario.replace(
                characters=tuple(
                    replace(c, policy=pol) if c.name in self.value else c
                    for c in self.scenario.characters
                )
            )
            scores[label] = _day_values(exact_day(s, self.rules), self.values)
        for name in self.value:
            best_label = max(
                (lab for lab in scores if lab.startswith("best")),
                key=lambda lab: scores[lab].get(name, 0.0),
            )
            for label, pol in (
                ("optimal", None),
                ("keep", "keep"),
                ("cancel", "cancel"),
                ("best fixed λ", best_label),
            ):
                v = self.value[name] if pol is None else scores[pol].get(name, 0.0)
                rows.append(
                    {
                        "character": name,
                        "policy": label,
                        "detail": best_label if label == "best fixed λ" else "",
                        "successes": v,
                        "optimal_gain": self.value[name] - v,
                    }
                )
        columns = ["character", "policy", "detail", "successes", "optimal_gain"]
        df = pd.DataFrame(rows, columns=columns)  # no PC: no row, the same columns
        df["scenario"] = self.scenario.name
        df["rules"] = self.rules.describe()
        df["method"] = "exact"
        return df

    # -- a readable form ----------------------------------------------------------------------
    def to_frame(self, what: PolicyTable = "thresholds") -> pd.DataFrame:
        """``"choices"``: for each PC roll type, roll ``t`` (1-based), level of its gauge (the
        others at their start) and initial throw with a choice (``n1`` 1s, ``n6`` 6s, ``s``
        the other faces' sum): the pairs set aside ``k``. ``"thresholds"``: per roll type,
        roll and throw, the highest level of the gauge at which the player still cancels
        (NA: never), and whether every level below cancels too (``monotone``)."""
        check_choice("what", what, POLICY_TABLES, ExplodiceError)
        df = _choices_frame(self, compile_day(self.scenario, self.rules))
        return df if what == "choices" else _thresholds(df)

    def __repr__(self) -> str:
        vals = ", ".join(f"{k}: {v:.4f}" for k, v in self.value.items())
        return f"OptimalPolicy({self.scenario.describe()}; value {vals}; {self.rules.describe()})"


def _day_values(result: DayResult, values: Sequence[float]) -> dict[str, float]:
    """Expected weighted successes of each character's rolls in an exact day."""
    out: dict[str, float] = {}
    for r, day_roll in enumerate(result.scenario.rolls):
        got = float(result.by_type[r, :, 1].sum()) * values[r]
        out[day_roll.character] = out.get(day_roll.character, 0.0) + got
    return out


_CHOICE_COLUMNS = ["character", "type", "gauge", "roll", "level", "n1", "n6", "s", "k"]


def _choices_frame(policy: OptimalPolicy, day: CompiledDay) -> pd.DataFrame:
    """The ``"choices"`` table: each PC's choices along the levels of each roll's gauge."""
    blocks = []
    for name, pl in policy.players.items():
        for t in range(day.n_rolls):
            shares = day.shares_at(t, pl.character.index)
            for g in sorted({day.roll_types[r].drained for r in shares}):
                line = pl.line(g)
                for r in shares:
                    rt = day.roll_types[r]
                    if rt.drained != g:
                        continue
                    variant = pl.variant(rt.hindering)[line]
                    _, _, _, key = pl.decide(
                        pl.lines[t, g], pl.V[t + 1][line], variant, pl.throws[r],
                        policy.values[r],
                    )  # fmt: skip
                    block = _choice_rows(pl.throws[r], variant, key)
                    blocks.append(((name, rt.label, GAUGES[g], t + 1), block))
    return _blocks_frame(blocks)


def _choice_rows(th: Throws, variant: np.ndarray, key: np.ndarray) -> np.ndarray:
    """``(level, n1, n6, s, k)`` of each choice throw at each level of a line (``variant``
    and choice ``key`` per level), level by level: :meth:`Throws.choices`, by arrays."""
    radix = th.kmax + 1  # the keys' mixed radix, the first throw of a variant most significant
    stride = np.ones(radix.size, np.int64)  # the place of each throw's digit in its key
    for v in (0, 1):
        first, last = th.first[v], th.last[v]
        stride[first:last] = np.cumprod(radix[first:last][::-1])[::-1] // radix[first:last]
    counts = (th.last - th.first)[variant]
    level = np.repeat(np.arange(variant.size), counts)
    begins = np.cumsum(counts) - counts  # each level's first row
    j = th.first[variant][level] + np.arange(level.size) - begins[level]
    k = key[level] // stride[j] % radix[j]
    return np.column_stack([level, th.state[j], k]).astype(np.int64)


def _blocks_frame(blocks: list[tuple[tuple[str, str, str, int], np.ndarray]]) -> pd.DataFrame:
    """The ``"choices"`` table from its blocks: each block's rows with its labels."""
    if not blocks:
        return pd.DataFrame([], columns=_CHOICE_COLUMNS)
    sizes = [len(rows) for _, rows in blocks]
    rows = np.concatenate([rows for _, rows in blocks])
    data: dict[str, Any] = {
        column: np.repeat(np.array([labels[i] for labels, _ in blocks], dtype=object), sizes)
        for i, column in enumerate(_CHOICE_COLUMNS[:3])
    }
    data["roll"] = np.repeat([labels[3] for labels, _ in blocks], sizes).astype(np.int64)
    data |= {column: rows[:, i] for i, column in enumerate(_CHOICE_COLUMNS[4:])}
    return pd.DataFrame(data, columns=_CHOICE_COLUMNS)


def _thresholds(df: pd.DataFrame) -> pd.DataFrame:
    """The ``"thresholds"`` table from the ``"choices"`` one."""
    if df.empty:
        return pd.DataFrame()
    by = [df[key] for key in ("character", "type", "gauge", "roll", "n1", "n6", "s")]
    cancels = df["level"].where(df["k"] > 0).groupby(by, sort=False)  # the levels that cancel
    top = cancels.transform("max")
    keeps = ((df["level"] <= top) & (df["k"] <= 0)).groupby(by, sort=False).any()
    res = keeps.rename("monotone").reset_index()
    res.insert(len(by), "cancel_up_to", cancels.max().astype("Int64").reset_index(drop=True))
    res["monotone"] = ~res["monotone"]  # no level below the top keeps
    return res


def _lookup(
    policy: OptimalPolicy, day: CompiledDay
) -> tuple[list[tuple[int, np.ndarray]], np.ndarray, np.ndarray]:
    """:meth:`OptimalPolicy.lookup`'s tables."""
    T, n_types = day.n_rolls, len(day.roll_types)
    n_max = max([pl.chain.n for pl in policy.players.values()], default=1)
    if T * n_types * n_max > TABLE_LIMIT:
        raise ExplodiceError(
            Phrase(
                "`policy`: simulating this optimal policy needs a table of {T} rolls "
                "x {n_types} roll types x {n_max:,} gauge states, more than "
                "{TABLE_LIMIT:,} entries; play it with exact_day instead.",
                T=T,
                n_types=n_types,
                n_max=n_max,
                TABLE_LIMIT=TABLE_LIMIT,
            )
        )
    table = np.full((T, n_types, n_max), -1, dtype=np.int32)
    strides = np.zeros((len(day.characters), 4), dtype=np.int64)
    extra: list[tuple[int, np.ndarray]] = []
    index: dict[tuple[int, int, int], int] = {}
    for pl in policy.players.values():
        c = pl.character.index
        strides[c] = pl.chain.strides
        for t in range(T):
            shares = day.shares_at(t, c)
            for g in sorted({day.roll_types[r].drained for r in shares}):
                W = pl.after(pl.V[t + 1], g)
                for r in shares:
                    rt = day.roll_types[r]
                    if rt.drained != g:
                        continue
                    variant = pl.variant(rt.hindering)
                    key = pl.decide(W, pl.V[t + 1], variant, pl.throws[r], policy.values[r])[3]
                    for v in (0, 1):
                        sel = variant == v
                        for kk in np.unique(key[sel]):
                            ident = (r, v, int(kk))
                            if ident not in index:
                                index[ident] = len(extra)
                                table_k = _k_table(day, r, v, pl.throws[r], int(kk))
                                extra.append((2 * r + v, table_k))
                            table[t, r, np.flatnonzero(sel & (key == kk))] = index[ident]
    return extra, table, strides


def _k_table(day: CompiledDay, r: int, v: int, th: Throws, key: int) -> np.ndarray:
    """The day kernel's choice table ``k[n1, n6, s]`` of roll type ``r``'s variant ``v``."""
    roll = day.roll_types[r].variants[v].roll
    if not th.free[v]:
        return np.ascontiguousarray(np.array(policy_table(roll, day.rules)).astype(np.int8))
    k = np.zeros(STATE_SHAPE, np.int8)
    for n1, n6, s, kk in th.choices(v, key):
        k[n1, n6, s] = kk
    return np.ascontiguousarray(k)


# -- playing the policy forward in the exact day -------------------------------------------------------
class Decider:
    """Moves exact_day's chain of one PC under the optimal choices."""

    def __init__(self, policy: OptimalPolicy, player: Player, day: CompiledDay):
        self.policy = policy
        self.player = player
        self.day = day
        self._W: dict[tuple[int, int], np.ndarray] = {}
        c = np.arange(player.dice + 1)
        first, second = np.zeros(c.size), np.zeros(c.size)
        for i in c:
            _, first[i], second[i] = DrainLaw(np.eye(c.size)[i]).moments()
        self.moments = (first, second)

    def move(
        self, chain: LevelChain, P: np.ndarray, out: np.ndarray, step: RollStep, tally: Tally
    ) -> None:
        """Roll type ``step.r`` at roll ``step.t``, taken with probability ``step.share``:
        its mass from ``P`` into ``out``, its tables into ``tally``."""
        pl = self.player
        t, g = step.t, step.drained
        if (t, g) not in self._W:
            self._W = {(t, g): pl.after(pl.V[t + 1], g)}
        variant = pl.variant(step.hindering)
        th = pl.throws[step.r]
        _, s, pi, _ = pl.decide(self._W[t, g], pl.V[t + 1], variant, th, self.policy.values[step.r])
        nb = chain.n_bins  # the levels' probabilities, each with its running sum if any
        out += step.share * P * np.repeat(pi[:, 0], nb)
        for c in range(1, pl.dice + 1):
            if not pi[:, c].any():
                continue
            law = np.zeros((N_LAWS, c + 1))
            law[:, c] = 1.0
            part = np.ascontiguousarray(P * np.repeat(pi[:, c], nb))
            if chain.overflow == "best":  # the excess where the day's value is highest
                tally.lost += chain.push_best(part, out, g, c, step.share, pl.V[t + 1])
                continue
            tally.lost += chain.move(part, out, g, -1, law, step.share)[1]
        levels = chain.states(P)
        mean, second = pi @ self.moments[0], pi @ self.moments[1]
        for e in (0, 1):
            sel = variant == e
            Pe = levels[sel]
            row = np.array((Pe.sum(), Pe @ s[sel], Pe @ mean[sel], Pe @ second[sel]))
            tally.by_type[step.r, e] += step.share * row
            tally.succ_t[t] += step.share * row[1]
            tally.drain_t[t] += step.share * row[2]


# -- the dynamic programme ------------------------------------------------------------------------
def optimal_policy(
    scenario: Scenario,
    rules: Rules | None = None,
    *,
    values: Sequence[float] | None = None,
    threads: int | None = None,
) -> OptimalPolicy:
    """The choices of k that maximise each PC's expected weighted successes over the day.

    ``values[r]`` weighs a success of roll type ``r`` (default 1 each). Backward over the
    rolls: the value of a state before roll ``t`` is the expectation, over the roll type and
    the initial throw, of the best choice's ``values[r]`` x P(success) plus the value left
    after its drain (:mod:`explodice.day._optimal_kernel`). ``threads``: 2 play each roll in
    two halves at once (default: one per core, at most 2; the numbers are the same for any).

    >>> from explodice import Character, DayRoll, Scenario
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
    ...                  gauge_max={"PA": 2, "PM": 0, "PF": 0, "PH": 0})
    >>> s = Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=14)])
    >>> round(optimal_policy(s).value["Hero"] - float(exact_day(s).succ_t[0]), 12)  # as keep
    0.0
    """
    day = compile_day(scenario, rules)
    weights = _check_values(values, len(day.roll_types))
    n_threads = resolve_threads(threads)
    reason = optimal_unsupported(scenario)
    if reason is not None:
        raise ExplodiceError(reason)
    began = time.perf_counter()
    throws = [throws_of(rt) for rt in day.roll_types]
    players, value = {}, {}
    for ch in day.characters:
        if not ch.pc:
            continue
        if not ch.roll_types:  # a PC without rolls: nothing to choose, nothing to gain
            value[ch.name] = 0.0
            continue
        check_states(ch.name, ch.start)
        pl = Player(day, ch, throws, n_threads)
        _backward(day, pl, weights)
        players[ch.name] = pl
        value[ch.name] = float(pl.V[0, pl.chain.start_index()])
    return OptimalPolicy(
        day.scenario, day.rules, weights, value, time.perf_counter() - began, players
    )


def _check_values(values: Sequence[float] | None, n_types: int) -> tuple[float, ...]:
    """``values`` as a tuple of one finite number >= 0 per roll type (default 1 each)."""
    if values is None:
        return (1.0,) * n_types
    out: tuple[Any, ...] | None
    try:
        out = tuple(values)
    except TypeError:
        out = None
    if (
        out is None
        or len(out) != n_types
        or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) and v >= 0
            for v in out
        )
    ):
        raise ExplodiceError(
            Phrase(
                "`values` must be {n_types} finite numbers >= 0 (one per roll type), "
                "but {values} was passed.",
                n_types=n_types,
                values=shown(values),
            )
        )
    return tuple(float(v) for v in out)
