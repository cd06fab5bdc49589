"""The frontier between success and drain that the rule of 1's choice traces.

``best(λ)`` cancels the k pairs (one 1 with one 6) that maximise
P(success | kept dice) - λ · E[drain | kept dice]. In each state of the initial throw the value
of every k is a line in λ, so the table (and the roll's P(success), E[drain]) only changes at
the finitely many λ where the upper envelope of those lines switches. :func:`breakpoints` finds
them exactly; :func:`frontier` evaluates the exact engine once per segment between them, with
``keep`` and ``cancel`` at the two ends.

Reading λ: it is a price, in probability of success per point of gauge. A player on
``best(0.01)`` gives up 1 % of success to save one point of expected drain. Between two
neighbouring vertices of the frontier the exchange rate ΔP / ΔE[drain] equals the breakpoint λ
that separates them (the frontier is the concave envelope of a Lagrangian).

The *implied* λ of a sensible player, as this module documents it, is the frontier's chord
slope: λ* = (P_best(0) - P_cancel) / (E_best(0)[drain] - E_cancel[drain]), the average price of
a point of drain over the whole frontier. ``best(λ*)`` is the knee: the vertex farthest above
the chord once both axes are scaled to [0, 1] (the Kneedle rule).

>>> df = frontier(2, 16)
>>> list(df.policy.iloc[[0, -1]])
['keep', 'cancel']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import check_choice
from explodice.core.words import Phrase
from explodice.engine.exact import exact
from explodice.engine.rule_of_one import choice_states, choice_value
from explodice.game.checks import check_rules
from explodice.game.rules import (
    ADVANTAGE_STATES,
    KINDS,
    Advantage,
    Best,
    ExplodiceError,
    Roll,
    RollKind,
    Rules,
    check_int,
)
from explodice.game.tables import MAX_DC

__all__ = ["frontier", "breakpoints", "implied_lambda"]

_SAME = 1e-12  # breakpoints closer than this (relative) are one


def _base_roll(modifier: int | Roll, advantage: Advantage, kind: RollKind) -> Roll:
    state = check_choice("advantage", advantage, ADVANTAGE_STATES)
    roll_kind = check_choice("kind", kind, KINDS)
    if isinstance(modifier, Roll):
        if modifier.reroll_dc is not None:
            raise ExplodiceError(
                Phrase(
                    "`roll` must not carry a reroll on failure: the frontier reads one "
                    "throw's choice (Reroll('one') is allowed)."
                )
            )
        return modifier.replace(actor="pc", policy="keep")
    return Roll(modifier, advantage=state, kind=roll_kind)


def _state_lines(roll: Roll, dc: int, rules: Rules):
    """For each reachable initial throw with a choice: the (P, E[drain]) of k = 0..min(n1, n6),
    as the best(λ) tables weigh them (Lucky's timing and the malus die included)."""
    need = dc - roll.modifier
    for n1, n6, s in choice_states(roll, rules):
        m = min(n1, n6)
        if m == 0:
            continue
        values = np.array([choice_value(roll, rules, n1, n6, s, k, need) for k in range(m + 1)])
        yield values[:, 0], values[:, 1]


def _envelope_switches(p: np.ndarray, d: np.ndarray) -> list[float]:
    """The λ > 0 where argmax_k p_k - λ d_k (ties to the larger k) changes; d falls with k."""
    out: list[float] = []
    lam = 0.0
    k = int(np.flatnonzero(p >= p.max() - 1e-12)[-1])  # λ = 0: best p, ties to larger k
    while k < p.size - 1:
        later = np.arange(k + 1, p.size)
        cross = (p[k] - p[later]) / (d[k] - d[later])
        nxt = cross.min()
        k = int(later[cross <= nxt * (1 + _SAME) + 1e-300][-1])
        if nxt > lam:
            out.append(float(nxt))
        lam = max(lam, float(nxt))
    return out


def breakpoints(
    modifier: int | Roll,
    dc: int,
    *,
    advantage: Advantage = "normal",
    kind: RollKind = "check",
    rules: Rules | None = None,
) -> np.ndarray:
    """The sorted λ > 0 at which ``Best(dc, λ)``'s table changes, for this roll.

    Beyond the last one ``best`` equals ``cancel``; before the first it is ``best(0)``.

    >>> bool((breakpoints(2, 16) > 0).all())
    True
    """
    rules = check_rules(rules)
    dc = check_int("dc", dc, lo=-MAX_DC, hi=MAX_DC)
    roll = _base_roll(modifier, advantage, kind)
    if not roll.rule_of_one_applies(rules):
        return np.zeros(0)
    found = sorted({x for p, d in _state_lines(roll, dc, rules) for x in _envelope_switches(p, d)})
    merged: list[float] = []
    for x in found:
        if not merged or x > merged[-1] * (1 + _SAME):
            merged.append(x)
    return np.asarray(merged)


def frontier(
    modifier: int | Roll,
    dc: int,
    *,
    advantage: Advantage = "normal",
    kind: RollKind = "check",
    rules: Rules | None = None,
) -> pd.DataFrame:
    """Tidy table of (P(success), E[drain]) along the frontier, exact, one row per policy.

    Rows: ``keep``; then ``best`` on each λ segment ``[lambda_lo, lambda_hi)`` between the
    exact breakpoints; then ``cancel`` (``lambda_lo`` = the last breakpoint, where best becomes
    cancel). ``modifier`` may be a :class:`Roll` (its advantage and kind are used). Columns:
    policy, lambda_lo, lambda_hi, p_success, drain_mean, ones_mean, price (ΔP/ΔE[drain] from
    the previous row), knee (the row of the implied λ, see the module docstring), and the
    roll's description, dc, method and rules. ``df.attrs["implied_lambda"]`` holds λ*.

    >>> df = frontier(0, 12)
    >>> bool(df.p_success.is_monotonic_decreasing), bool(df.drain_mean.is_monotonic_decreasing)
    (True, True)
    """
    rules = check_rules(rules)
    roll = _base_roll(modifier, advantage, kind)
    cuts = breakpoints(roll, dc, rules=rules)
    rows: list[dict[str, Any]] = []

    def add(policy_name: str, policy: Any, lo: float, hi: float) -> None:
        d = exact(roll.replace(policy=policy), rules)
        rows.append(
            {
                "policy": policy_name,
                "lambda_lo": lo,
                "lambda_hi": hi,
                "p_success": d.p_success(dc),
                "drain_mean": d.drain_mean,
                "ones_mean": d.ones_mean,
            }
        )

    add("keep", "keep", np.nan, np.nan)
    edges = np.concatenate([[0.0], cuts])
    for lo, hi in zip(edges, np.append(cuts, np.inf)):
        mid = lo + 1.0 if np.isinf(hi) else (lo + hi) / 2
        add("best" if np.isfinite(hi) else "cancel", Best(dc, mid), float(lo), float(hi))
    df = pd.DataFrame(rows)
    dp, dd = -df.p_success.diff(), -df.drain_mean.diff()
    df["price"] = np.where(dd > 0, np.maximum(dp / dd.where(dd > 0, 1.0), 0.0), np.nan)
    lam = _chord_slope(df)
    df["knee"] = (df.lambda_lo <= lam) & (lam < df.lambda_hi) & (df.policy != "keep")
    for key, value in (
        ("roll", roll.describe()),
        ("dc", dc),
        ("method", "exact"),
        ("rules", rules.describe()),
    ):
        df[key] = value
    df.attrs["implied_lambda"] = lam
    return df


def _chord_slope(df: pd.DataFrame) -> float:
    ends = df[df.policy != "keep"].iloc[[0, -1]]
    dp = float(ends.p_success.iloc[0] - ends.p_success.iloc[1])
    dd = float(ends.drain_mean.iloc[0] - ends.drain_mean.iloc[1])
    return dp / dd if dd > 0 else 0.0


def implied_lambda(
    modifier: int | Roll,
    dc: int,
    *,
    advantage: Advantage = "normal",
    kind: RollKind = "check",
    rules: Rules | None = None,
) -> float:
    """λ* of a sensible player: the frontier's chord slope (its knee), in success per point.

    >>> from explodice import Roll, exact   # 3d6x+2 against DC 16: keep's and cancel's chord
    >>> keep, cancel = exact(Roll(2)), exact(Roll(2, policy="cancel"))
    >>> chord = (keep.p_success(16) - cancel.p_success(16)) / (keep.drain_mean - cancel.drain_mean)
    >>> abs(implied_lambda(2, 16) - chord) < 1e-12
    True
    """
    return float(
        frontier(modifier, dc, advantage=advantage, kind=kind, rules=rules).attrs["implied_lambda"]
    )
