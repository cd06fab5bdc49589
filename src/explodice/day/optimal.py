"""The player who plays the day well: the rule-of-1 choice that maximises a day's successes.

After seeing the initial throw, knowing the roll's index in the day and every gauge level, the
player sets aside ``k`` pairs of one 1 and one 6. :func:`optimal_policy` finds, by backward
dynamic programming over the exact day's states (:mod:`explodice.day.exact`), the choices
that maximise the expected number of successes over the day (each roll type weighted by
``values``, default 1). Characters do not interact, so each PC's choices are its own.

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

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, shown
from explodice.day import _optimal_kernel
from explodice.day.exact import _Chain, _choices, _gauge_index, _laws, check_states, exact_day
from explodice.day.rolls import MAX_ONES, RollChoices, drain_pmf
from explodice.day.scenario import Scenario
from explodice.engine.rule_of_one import policy_table
from explodice.game.character import GAUGES
from explodice.game.checks import check_rules
from explodice.game.rules import Best, Rules

__all__ = ["DEFAULT_LAMBDAS", "OptimalPolicy", "optimal_policy"]

DEFAULT_LAMBDAS = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
TABLE_LIMIT = 50_000_000  # entries of the lookup table simulate_day needs


# -- a roll type's choices, in the kernel's layout -----------------------------------------------
@dataclass(frozen=True, eq=False)
class _Throws:
    """Both variants of one roll type for :func:`explodice._optimal_kernel.decide`."""

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


def _throws(pair: tuple[RollChoices, RollChoices]) -> _Throws:
    s0, pi0 = np.zeros(2), np.zeros((2, MAX_ONES + 1))
    first, last = np.zeros(2, np.int64), np.zeros(2, np.int64)
    rows: list[tuple[float, int, np.ndarray, np.ndarray, tuple[int, int, int]]] = []
    for v, ch in enumerate(pair):
        first[v] = len(rows)
        idx = np.arange(ch.p.size)
        kmax = ch.k_max
        for i in idx:
            if ch.free and kmax[i] > 0:
                rows.append(
                    (
                        ch.p[i],
                        int(kmax[i]),
                        ch.succ[i],
                        ch.ones[i],
                        (int(ch.n1[i]), int(ch.n6[i]), int(ch.s[i])),
                    )
                )
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
    return _Throws(s0, pi0, first, last, p, kmax, succ, ones, state, (pair[0].free, pair[1].free))


# -- one character's day, backward and forward -------------------------------------------------------
class _Player:
    """The geometry of one PC's levels, the drain laws of c draining 1s, and its day's
    values ``V[t]`` (the expected weighted successes of rolls t+1..T from each state)."""

    def __init__(self, levels: list[int], fullest: bool):
        self.chain = _Chain(levels, fullest)
        self.tables = {}
        for g in range(4):
            w = self.chain.width(g)
            self.tables[g] = [_laws([drain_pmf(c)], w) for c in range(MAX_ONES + 1)]
        self.moments = np.array(
            [
                [
                    float(drain_pmf(c) @ np.arange(drain_pmf(c).size) ** j)
                    for c in range(MAX_ONES + 1)
                ]
                for j in (1, 2)
            ]
        )

    def after(self, V: np.ndarray, g: int) -> np.ndarray:
        """``W[c]``: the value of ``V`` after a roll of gauge ``g`` with c draining 1s."""
        ch = self.chain
        pour = ch.pours[g]
        W = np.empty((MAX_ONES + 1, ch.n))
        W[0] = V
        for c in range(1, MAX_ONES + 1):
            qs, t0, _ = self.tables[g][c]
            _optimal_kernel.pull(
                V,
                W[c],
                ch.base[g],
                int(ch.strides[g]),
                ch.sizes[g],
                qs[0],
                t0[0],
                pour.dest,
                pour.others,
                ch.fullest and pour.top > 0,
            )
        return W

    def decide(
        self, W: np.ndarray, g: int, th: _Throws, weight: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(Q, P(success), P(c draining 1s), choice keys)`` in every state, for a roll that
        has disadvantage when gauge ``g`` is at 0 (``W``: :meth:`after` of the gauge it
        drains)."""
        n = self.chain.n
        Q, s, key = np.empty(n), np.empty(n), np.empty(n, np.int64)
        pi = np.empty((n, MAX_ONES + 1))
        _optimal_kernel.decide(
            W,
            self.chain.empty_law[g],
            float(weight),
            th.s0,
            th.pi0,
            th.first,
            th.last,
            th.p,
            th.kmax,
            th.succ,
            th.ones,
            Q,
            s,
            pi,
            key,
        )
        return Q, s, pi, key


def _shares(
    scenario: Scenario,
    t: int,
    c: int,
    owner: np.ndarray,
    seq: list[int] | None,
    weights: np.ndarray,
) -> dict[int, float]:
    """Roll types of character ``c`` at roll ``t`` and their probabilities."""
    if seq is not None:
        return {seq[t]: 1.0} if owner[seq[t]] == c else {}
    return {int(r): float(weights[r]) for r in np.flatnonzero(owner == c)}


@dataclass(frozen=True, eq=False, repr=False)
class OptimalPolicy:
    """The best rule-of-1 choices over a day of ``scenario`` under ``rules``.

    ``value[name]``: the expected weighted successes of that PC's rolls over the day, played
    so. ``values``: the weight of each roll type's success. Play it with
    ``exact_day(scenario, rules, policy=...)`` or ``simulate_day(..., policy=...)``.
    """

    scenario: Scenario
    rules: Rules
    values: tuple[float, ...]
    value: dict[str, float]
    seconds: float
    _V: dict[str, np.ndarray] = field(default_factory=dict)
    _players: dict[str, _Player] = field(default_factory=dict)
    _throws: list[_Throws] = field(default_factory=list)

    # -- what exact_day asks ------------------------------------------------------------------
    def _check(self, scenario: Scenario, rules: Rules) -> None:
        if scenario != self.scenario or rules != self.rules:
            raise ExplodiceError(
                "`policy`: this OptimalPolicy was computed for another scenario or other "
                f"rules ({self.scenario.describe()}; {self.rules.describe()})."
            )

    def deciders(self, scenario: Scenario, rules: Rules, choices: Any) -> dict[str, _Decider]:
        """One object per PC that moves exact_day's chain under these choices."""
        self._check(scenario, rules)
        return {name: _Decider(self, name) for name in self._V}

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
                    replace(c, policy=pol) if c.name in self._V else c
                    for c in self.scenario.characters
                )
            )
            scores[label] = _day_values(exact_day(s, self.rules), self.values)
        for name in self._V:
            best_label = max(
                (lab for lab in scores if lab.startswith("best")), key=lambda lab: scores[lab][name]
            )
            for label, pol in (
                ("optimal", None),
                ("keep", "keep"),
                ("cancel", "cancel"),
                ("best fixed λ", best_label),
            ):
                v = self.value[name] if pol is None else scores[pol][name]
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
    def to_frame(self, what: str = "thresholds") -> pd.DataFrame:
        """``"choices"``: for each PC roll type, roll ``t`` (1-based), level of its gauge (the
        others at their start) and initial throw with a choice (``n1`` 1s, ``n6`` 6s, ``s``
        the other faces' sum): the pairs set aside ``k``. ``"thresholds"``: per roll type,
        roll and throw, the highest level of the gauge at which the player still cancels
        (NA: never), and whether every level below cancels too (``monotone``)."""
        if what not in ("choices", "thresholds"):
            raise ExplodiceError(
                f"`what` must be one of ['choices', 'thresholds'], but {shown(what)} was passed."
            )
        rows = []
        s = self.scenario
        seq = s.sequence()
        names = [c.name for c in s.characters]
        owner = np.array([names.index(r.character) for r in s.rolls])
        weights = _mix_weights(s)
        drained, checked = _gauge_index(s, self.rules)
        for name, V in self._V.items():
            pl = self._players[name]
            ch = pl.chain
            c = names.index(name)
            start = list(np.array(ch.sizes) - 1)
            for t in range(s.n_rolls):
                shares = _shares(s, t, c, owner, seq, weights)
                for g in {int(drained[r]) for r in shares}:
                    W = pl.after(V[t + 1], g)
                    line = []
                    for lv in range(ch.sizes[g]):
                        lev = list(start)
                        lev[g] = lv
                        line.append(int(np.ravel_multi_index(tuple(lev), ch.sizes)))
                    for r in shares:
                        if drained[r] != g:
                            continue
                        th = self._throws[r]
                        sub = W[:, line]
                        variant = ch.empty_law[checked[r]][line]
                        n = len(line)
                        Q, sp, pi, key = (
                            np.empty(n),
                            np.empty(n),
                            np.empty((n, MAX_ONES + 1)),
                            np.empty(n, np.int64),
                        )
                        _optimal_kernel.decide(
                            np.ascontiguousarray(sub),
                            variant,
                            self.values[r],
                            th.s0,
                            th.pi0,
                            th.first,
                            th.last,
                            th.p,
                            th.kmax,
                            th.succ,
                            th.ones,
                            Q,
                            sp,
                            pi,
                            key,
                        )
                        for lv in range(n):
                            v = int(variant[lv])
                            ks = _decode(int(key[lv]), th.kmax[th.first[v] : th.last[v]])
                            for j, k in zip(range(th.first[v], th.last[v]), ks):
                                n1, n6, ss = (int(x) for x in th.state[j])
                                rows.append(
                                    {
                                        "character": name,
                                        "type": s.rolls[r].label,
                                        "gauge": GAUGES[drained[r]],
                                        "roll": t + 1,
                                        "level": lv,
                                        "n1": n1,
                                        "n6": n6,
                                        "s": ss,
                                        "k": k,
                                    }
                                )
        df = pd.DataFrame(
            rows, columns=["character", "type", "gauge", "roll", "level", "n1", "n6", "s", "k"]
        )
        if what == "choices":
            return df
        out = []
        for key_, grp in df.groupby(
            ["character", "type", "gauge", "roll", "n1", "n6", "s"], sort=False
        ):
            cancels = grp.loc[grp.k > 0, "level"]
            top = int(cancels.max()) if len(cancels) else None
            mono = top is None or bool((grp.loc[grp.level <= top, "k"] > 0).all())
            out.append(
                dict(
                    zip(["character", "type", "gauge", "roll", "n1", "n6", "s"], key_),
                    cancel_up_to=top,
                    monotone=mono,
                )
            )
        res = pd.DataFrame(out)
        if len(res):
            res["cancel_up_to"] = res["cancel_up_to"].astype("Int64")
        return res

    # -- what simulate_day asks ----------------------------------------------------------------
    def lookup(
        self, scenario: Scenario, rules: Rules
    ) -> tuple[list[tuple[int, np.ndarray]], np.ndarray, np.ndarray]:
        """For the day kernel: ``(extra, table, strides)``. ``extra[i] = (v, k_table)``: a
        variant ``2 r + empty`` played with that choice table; ``table[t, r, state]``: the
        index into ``extra`` (or -1: the roll's own policy) of roll type ``r`` at roll ``t``
        from the flat index ``state`` of its character's levels (``strides[c]``)."""
        self._check(scenario, rules)
        s = scenario
        T, n_types = s.n_rolls, len(s.rolls)
        names = [c.name for c in s.characters]
        owner = np.array([names.index(r.character) for r in s.rolls])
        n_max = max([pl.chain.n for pl in self._players.values()], default=1)
        if T * n_types * n_max > TABLE_LIMIT:
            raise ExplodiceError(
                f"`policy`: simulating this optimal policy needs a table of {T} rolls x "
                f"{n_types} roll types x {n_max:,} gauge states, more than {TABLE_LIMIT:,} "
                "entries; play it with exact_day instead."
            )
        table = np.full((T, n_types, n_max), -1, dtype=np.int32)
        strides = np.zeros((len(names), 4), dtype=np.int64)
        extra: list[tuple[int, np.ndarray]] = []
        index: dict[tuple[int, int, int], int] = {}
        seq = s.sequence()
        weights = _mix_weights(s)
        drained, checked = _gauge_index(s, rules)
        for name, V in self._V.items():
            c = names.index(name)
            pl = self._players[name]
            strides[c] = pl.chain.strides
            for t in range(T):
                shares = _shares(s, t, c, owner, seq, weights)
                for g in {int(drained[r]) for r in shares}:
                    W = pl.after(V[t + 1], g)
                    for r in shares:
                        if drained[r] != g:
                            continue
                        th = self._throws[r]
                        _, _, _, key = pl.decide(W, int(checked[r]), th, self.values[r])
                        variant = pl.chain.empty_law[checked[r]]
                        for v in (0, 1):
                            sel = variant == v
                            for kk in np.unique(key[sel]):
                                ident = (r, v, int(kk))
                                if ident not in index:
                                    index[ident] = len(extra)
                                    extra.append((2 * r + v, _k_table(s, rules, r, v, th, int(kk))))
                                table[t, r, np.flatnonzero(sel & (key == kk))] = index[ident]
        return extra, table, strides

    def __repr__(self) -> str:
        vals = ", ".join(f"{k}: {v:.4f}" for k, v in self.value.items())
        return f"OptimalPolicy({self.scenario.describe()}; value {vals}; {self.rules.describe()})"


def _decode(key: int, kmax: np.ndarray) -> list[int]:
    """The choices packed in ``key`` (mixed radix, first throw most significant)."""
    out = []
    for km in kmax[::-1]:
        out.append(key % (int(km) + 1))
        key //= int(km) + 1
    return out[::-1]


def _k_table(scenario: Scenario, rules: Rules, r: int, v: int, th: _Throws, key: int) -> np.ndarray:
    """The day kernel's choice table ``k[n1, n6, s]`` of roll type ``r``'s variant ``v``."""
    roll = scenario.roll_of(r, gauge_empty=bool(v))
    k = np.array(policy_table(roll, rules)) if not th.free[v] else np.zeros((5, 5, 21), np.int8)
    if th.free[v]:
        for j, kk in zip(
            range(th.first[v], th.last[v]), _decode(key, th.kmax[th.first[v] : th.last[v]])
        ):
            n1, n6, s = th.state[j]
            k[n1, n6, s] = kk
    return np.ascontiguousarray(k.astype(np.int8))


class _Decider:
    """Moves exact_day's chain of one PC under the optimal choices."""

    def __init__(self, policy: OptimalPolicy, name: str):
        self.policy = policy
        self.player = policy._players[name]
        self.V = policy._V[name]
        self._W: dict[tuple[int, int], np.ndarray] = {}

    def move(
        self,
        chain: _Chain,
        out: np.ndarray,
        t: int,
        r: int,
        g: int,
        gc: int,
        share: float,
        by_type: np.ndarray,
        succ_t: np.ndarray,
        drain_t: np.ndarray,
    ) -> float:
        """Roll type ``r`` (drains gauge ``g``, disadvantage when ``gc`` is at 0) at roll
        ``t``, taken with probability ``share``: its mass into ``out``; the points lost."""
        pl = self.player
        if (t, g) not in self._W:
            self._W = {(t, g): pl.after(self.V[t + 1], g)}
        _, s, pi, _ = pl.decide(self._W[t, g], gc, self.policy._throws[r], self.policy.values[r])
        P = chain.P  # the levels' probabilities, each with its running sum if the chain has one
        lost = 0.0
        scratch = np.zeros(2)
        zeros = np.zeros(chain.n, np.int64)
        out += share * P * np.repeat(pi[:, 0], chain.n_bins)
        for c in range(1, MAX_ONES + 1):
            lost += chain.move(
                out,
                g,
                zeros,
                chain.laws(("optimal", g, c), g, lambda c=c: [drain_pmf(c)]),
                share,
                scratch,
                P=np.ascontiguousarray(P * np.repeat(pi[:, c], chain.n_bins)),
            )
        P = chain.states(P)
        mean = pi @ pl.moments[0]
        second = pi @ pl.moments[1]
        for e in (0, 1):
            sel = chain.empty_law[gc] == e
            Pe = P[sel]
            row = (Pe.sum(), Pe @ s[sel], Pe @ mean[sel], Pe @ second[sel])
            by_type[r, e] += share * np.array(row)
            succ_t[t] += share * row[1]
            drain_t[t] += share * row[2]
        return lost


def _mix_weights(scenario: Scenario) -> np.ndarray:
    w = np.array([r.weight for r in scenario.rolls], dtype=float)
    return w / w.sum()


def _day_values(result: Any, values: Sequence[float]) -> dict[str, float]:
    """Expected weighted successes of each character's rolls in an exact day."""
    out: dict[str, float] = {}
    for r, day_roll in enumerate(result.scenario.rolls):
        got = float(result.by_type[r, :, 1].sum()) * values[r]
        out[day_roll.character] = out.get(day_roll.character, 0.0) + got
    return out


# -- the dynamic programme ------------------------------------------------------------------------
def optimal_policy(
    scenario: Scenario, rules: Rules | None = None, *, values: Sequence[float] | None = None
) -> OptimalPolicy:
    """The choices of k that maximise each PC's expected weighted successes over the day.

    ``values[r]`` weighs a success of roll type ``r`` (default 1 each). Backward over the
    rolls: the value of a state before roll ``t`` is the expectation, over the roll type and
    the initial throw, of the best choice's ``values[r]`` x P(success) plus the value left
    after its drain (:mod:`explodice.day._optimal_kernel`).

    >>> from explodice import Character, DayRoll, Scenario
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
    ...                  gauge_max={"PA": 2, "PM": 0, "PF": 0, "PH": 0})
    >>> s = Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=14)])
    >>> round(optimal_policy(s).value["Hero"] - float(exact_day(s).succ_t[0]), 12)  # as keep
    0.0
    """
    rules = check_rules(rules)
    if not isinstance(scenario, Scenario):
        raise ExplodiceTypeError(
            f"`scenario` must be a Scenario, but {type(scenario).__name__} was passed."
        )
    n_types = len(scenario.rolls)
    if values is None:
        values = (1.0,) * n_types
    values = tuple(values)
    if len(values) != n_types or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) and v >= 0
        for v in values
    ):
        raise ExplodiceError(
            f"`values` must be {n_types} finite numbers >= 0 (one per roll "
            f"type), but {shown(values)} was passed."
        )
    began = time.perf_counter()
    throws = [_throws(pair) for pair in _choices(scenario, rules, optimal=True)]
    drained, checked = _gauge_index(scenario, rules)
    names = [c.name for c in scenario.characters]
    owner = np.array([names.index(r.character) for r in scenario.rolls])
    seq = scenario.sequence()
    weights = _mix_weights(scenario)
    start = scenario.gauge_start()
    T = scenario.n_rolls
    V_all, players, value = {}, {}, {}
    for c, who in enumerate(scenario.characters):
        if who.actor != "pc":
            continue
        levels = [int(start[who.name][g]) for g in GAUGES]
        check_states(who.name, levels)
        pl = _Player(levels, rules.overflow == "fullest")
        V = np.zeros((T + 1, pl.chain.n))
        for t in range(T - 1, -1, -1):
            shares = _shares(scenario, t, c, owner, seq, weights)
            cur = V[t + 1] * (1.0 - sum(shares.values()))
            for g in {int(drained[r]) for r in shares}:
                W = pl.after(V[t + 1], g)
                for r, w in shares.items():
                    if drained[r] == g:
                        Q, _, _, _ = pl.decide(W, int(checked[r]), throws[r], values[r])
                        cur += w * Q
            V[t] = cur
        V_all[who.name], players[who.name] = V, pl
        value[who.name] = float(V[0, np.ravel_multi_index(tuple(levels), pl.chain.sizes)])
    return OptimalPolicy(
        scenario, rules, values, value, time.perf_counter() - began, V_all, players, throws
    )
