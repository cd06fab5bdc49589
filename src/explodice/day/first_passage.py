"""The time a gauge takes to empty: after how many rolls one gauge first reaches 0.

:func:`rolls_to_empty` answers it exactly (the first passage of the sum of the rolls' drains
past the gauge, from the exact drain PMF) or by simulating days
(:func:`explodice.day.simulate.simulate_day`).

>>> r = rolls_to_empty(modifier=2, gauge=1, dc=16)   # exact: 216/91 rolls on average
>>> round(r.mean * 91, 6)
216.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from explodice.core.errors import check_choice, check_int, shown
from explodice.core.words import Phrase
from explodice.day.compiled import check_day_rules
from explodice.day.results import EmptyTime
from explodice.day.scenario import DayRoll, Scenario
from explodice.day.simulate import simulate_day
from explodice.engine.exact import exact
from explodice.engine.sampling import METHODS, Method
from explodice.game.character import Character
from explodice.game.reroll import Reroll, as_reroll
from explodice.game.rules import Advantage, Best, ExplodiceError, Policy, Roll, RollKind, Rules
from explodice.game.tables import MAX_GAUGE

__all__ = ["rolls_to_empty"]


def _first_passage(drain_pmf: np.ndarray, gauge: int, tol: float) -> tuple[np.ndarray, float]:
    """P(T = t) for T = first t with (sum of t drains) >= gauge, until P(T > t) < tol."""
    below = np.zeros(gauge)  # P(S_t = s, S_t < gauge), s = 0..gauge-1
    below[0] = 1.0
    q = drain_pmf[:gauge]
    pmf = [0.0]
    while below.sum() >= tol and len(pmf) < 1_000_000:
        nxt = np.convolve(below, q)[:gauge]
        pmf.append(float(below.sum() - nxt.sum()))
        below = nxt
    return np.asarray(pmf), float(below.sum())


def rolls_to_empty(
    modifier: int = 0,
    gauge: int = 20,
    dc: int = 16,
    *,
    policy: Policy | float = "keep",
    advantage: Advantage = "normal",
    kind: RollKind = "check",
    rules: Rules | None = None,
    method: Method = "exact",
    n_days: int = 100_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    reroll: Reroll | str | None = None,
) -> EmptyTime:
    """After how many rolls does one gauge of ``gauge`` points first reach 0?

    One PC repeats one roll (``modifier``, ``dc``, ``advantage``, ``kind``) under ``policy``
    (``"keep"``, ``"cancel"``, a weight λ for ``Best(dc, λ)``, or a ``Best``), with its
    ``reroll``: ``Reroll("one")`` (Lucky: fewer 1s, a slower drain) or ``Reroll("failure")``
    (spent against ``dc`` on each failed roll: its drain adds to the first's).
    ``method="exact"`` sums the exact drain PMF (an absorbing chain: disadvantage at 0 cannot
    matter before the first passage); ``"simulate"`` runs :func:`simulate_day` (with
    ``progress``).

    Wald's identity checks the mean: the drain dealt by the roll that empties the gauge is
    E[T] E[drain], at least the gauge and (Lorden's bound on the overshoot) at most the gauge
    plus E[drain²] / E[drain]:

    >>> r = rolls_to_empty(modifier=2, gauge=20, dc=16)
    >>> q = exact(Roll(2)).drain_pmf
    >>> m, m2 = q @ np.arange(q.size), q @ np.arange(q.size) ** 2
    >>> bool(20 <= r.mean * m <= 20 + m2 / m), bool(r.pmf[: r.median + 1].sum() >= 0.5)
    (True, True)
    """
    rules = check_day_rules(rules)  # close_contest refused: no bids of HP on a day
    gauge = check_int("gauge", gauge, lo=1, hi=MAX_GAUGE)
    if isinstance(policy, (int, float)) and not isinstance(policy, bool):
        policy = Best(dc, policy)
    reroll = as_reroll(reroll)
    if reroll is not None and reroll.trigger == "failure":
        if reroll.dc not in (None, dc):
            raise ExplodiceError(
                Phrase(
                    "`reroll` {reroll} is spent against the roll's DC ({dc}): give "
                    "Reroll('failure') without a DC, or with that one.",
                    reroll=shown(reroll),
                    dc=dc,
                )
            )
        reroll = reroll.with_dc(dc)
    roll = Roll(modifier, advantage=advantage, kind=kind, policy=policy, reroll=reroll)  # type: ignore[arg-type]
    check_choice("method", method, METHODS, ExplodiceError)
    q = exact(roll, rules).drain_pmf
    if not roll.drains(rules):
        raise ExplodiceError(
            Phrase(
                "`kind` {kind!r} drains nothing under these rules ({describe}): the "
                "gauge never empties.",
                kind=kind,
                describe=rules.describe(),
            )
        )
    pmf, beyond = _first_passage(q, gauge, 1e-12)
    if method == "exact":
        return EmptyTime(pmf, beyond, roll, gauge, dc, rules, "exact")
    survival = 1.0 - np.cumsum(pmf)
    horizon = int(np.argmax(survival < 1e-7)) if (survival < 1e-7).any() else pmf.size
    scenario = _one_gauge_day(roll, gauge, dc, horizon)
    res = simulate_day(
        scenario, rules, n_days=n_days, seed=seed, threads=threads, progress=progress
    )
    counts = res.first[0, : horizon + 1]
    return EmptyTime(
        counts / n_days,
        float(res.first[0, -1]) / n_days,
        roll,
        gauge,
        dc,
        rules,
        "simulate",
        n_days=n_days,
        seed=res.seed,
        counts=counts,
    )


def _one_gauge_day(roll: Roll, gauge: int, dc: int, horizon: int) -> Scenario:
    """The day :func:`rolls_to_empty` simulates: one PC with one gauge of ``gauge`` points (PA,
    its other gauges empty) making ``roll`` against ``dc``, ``horizon`` times."""
    hero = Character(
        "pc",
        dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10),
        gauge_max={"PA": gauge, "PM": 0, "PF": 0, "PH": 0},
        policy=roll.policy,
        reroll=roll.reroll,  # a trait: a reroll on failure is spent against each roll's DC
    )
    what: dict[str, Any] = {"skill": "Athletics"} if roll.kind == "check" else {"ability": "STR"}
    advantage = roll.advantage
    day_roll = DayRoll(
        "pc",
        **what,
        kind=roll.kind,
        dc=dc,
        bonus=roll.modifier,
        advantages=int(advantage == "advantage"),
        disadvantages=int(advantage == "disadvantage"),
        repeat=horizon,
    )
    return Scenario([hero], [day_roll], name="rolls_to_empty")
