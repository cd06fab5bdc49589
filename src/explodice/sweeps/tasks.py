"""The tasks a sweep runs on each case: their parameters, defaults, runner and prior cost."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.frontier import frontier
from explodice.analysis.sensitivity import day_blind_spot
from explodice.analysis.success import roll_distribution
from explodice.core.errors import ExplodiceError, ExplodiceTypeError, message_of, one_line, shown
from explodice.core.words import Phrase
from explodice.day.first_passage import rolls_to_empty
from explodice.day.scenario import default_scenario, load_scenario
from explodice.day.simulate import simulate_day
from explodice.game.character import GAUGES
from explodice.game.rules import Roll, Rules, parse_policy

__all__ = [
    "TASKS",
    "SweepError",
    "SweepFileError",
    "SweepIncomplete",
    "SweepTypeError",
    "SweepWarning",
    "Task",
    "resolve_task",
    "sweep_parameters",
]

DEFAULT_BATCH_SECONDS = 2.0
RESERVED = ("case", "seed", "error")  # columns sweep() writes itself
RULES_DEFAULTS = {f: getattr(Rules(), f) for f in Rules.__dataclass_fields__}
_ROLL_DEFAULTS = {"modifier": 0, "dc": 16, "advantage": "normal", "kind": "check"}
# single-thread rates measured on the development machine (prior costs; measured times win)
_ROLLS_PER_SECOND = 3e7
_DAY_ROLLS_PER_SECOND = 1.5e7


class SweepError(ExplodiceError):
    """A grid, a task or an option of :func:`sweep` is not allowed."""


class SweepTypeError(SweepError, ExplodiceTypeError):
    """A grid, a task or an option of :func:`sweep` is of the wrong type."""


class SweepFileError(SweepError):
    """A grid TOML file is malformed: the message names the file, the key and the problem."""


class SweepIncomplete(SweepError):
    """Some cases of a sweep did not run: the executor lost them (a Dask scheduler gone, no
    worker left for ``no_worker_timeout`` seconds, a local worker killed). ``frame`` is the
    table of every case, those that ran with their results and the others with ``error``
    saying they did not run (``None`` once pickled); ``n_lost`` counts the cases lost."""

    def __init__(self, message: str, frame: Any = None, n_lost: int = 0) -> None:
        super().__init__(message)
        self.frame = frame
        self.n_lost = n_lost


class SweepWarning(UserWarning):
    """Some cases of a sweep failed; their rows carry ``error``."""


# -- the tasks ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """A named analysis: its parameters with defaults, how to run a case, its prior cost."""

    name: str
    defaults: Mapping[str, Any]
    run: Callable[[dict[str, Any], np.random.SeedSequence], Any]
    cost: Callable[[dict[str, Any]], float]
    doc: str = ""


def rules_of(case: Mapping[str, Any]) -> Rules:
    kw = {f: case[f] for f in RULES_DEFAULTS}
    kinds = kw["rule_of_one_kinds"]
    kw["rule_of_one_kinds"] = frozenset([kinds] if isinstance(kinds, str) else kinds)
    return Rules(**kw)


def policy_of(policy: Any, dc: int) -> Any:
    """'keep', 'cancel', a Best, a weight λ (Best at the case's DC) or 'best:λ'."""
    try:
        return parse_policy(policy, dc=dc)
    except ExplodiceError as err:
        raise SweepError(message_of(err)) from None


def _n_or_none(method: str, n: Any) -> Any:
    return n if method == "simulate" else None


def _success(case: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    rules, dc = rules_of(case), case["dc"]
    roll = Roll(
        case["modifier"],
        advantage=case["advantage"],
        kind=case["kind"],
        actor=case["actor"],
        policy=policy_of(case["policy"], dc),
    )
    dist = roll_distribution(
        roll,
        system=case["system"],
        rules=rules,
        method=case["method"],
        n=case["n"],
        seed=seed,
        threads=1,
        progress=False,  # the sweep shows one bar for all its cases
    )
    lo, hi = dist.ci(dc)
    return {
        "method": dist.method,
        "n": _n_or_none(dist.method, dist.n),
        "p": float(dist.p_success(dc)),
        "ci_low": float(lo),
        "ci_high": float(hi),
        "p_complication": float(1.0 - dist.ones_pmf[0] / dist.ones_pmf.sum()),
        "drain_mean": float(dist.drain_mean),
        "mean": float(dist.mean),
        "roll": roll.describe(),
        "rules": rules.describe() if dist.system == "3d6x" else "d20",
    }


def _frontier(case: dict[str, Any], seed: np.random.SeedSequence) -> pd.DataFrame:
    df = frontier(
        case["modifier"],
        case["dc"],
        advantage=case["advantage"],
        kind=case["kind"],
        rules=rules_of(case),
    )
    df = df.drop(columns=["dc", "method"]).assign(implied_lambda=df.attrs["implied_lambda"])
    return df.assign(method="exact", n=None)


def _playable(day: Any, rules: Rules) -> None:
    """Refuse a case whose rules the day engines would not read (its row gets the error)."""
    spot = day_blind_spot(day, rules)
    if spot is not None:
        raise SweepError(Phrase("this case's day cannot be played yet: {spot}.", spot=spot))


def _empty(case: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    if case["method"] == "simulate":  # the exact path sums the roll's exact drain law
        _playable(
            Roll(case["modifier"], advantage=case["advantage"], kind=case["kind"]), rules_of(case)
        )
    r = rolls_to_empty(
        case["modifier"],
        case["gauge"],
        case["dc"],
        policy=policy_of(case["policy"], case["dc"]),
        advantage=case["advantage"],
        kind=case["kind"],
        rules=rules_of(case),
        method=case["method"],
        n_days=case["n"],
        seed=seed,
        threads=1,
        progress=False,
    )
    return {
        "method": r.method,
        "n": _n_or_none(r.method, r.n_days),
        "mean": r.mean,
        "median": r.median,
        "p90": r.quantile(0.9),
        "p_beyond": r.p_beyond,
        "roll": r.roll.describe(),
        "rules": r.rules.describe(),
    }


@functools.lru_cache(maxsize=32)
def _load_day(scenario: str) -> Any:
    """The Scenario of a TOML path, or the embedded default party and day for 'default'."""
    return default_scenario() if scenario == "default" else load_scenario(scenario)


def _day_scenario(case: Mapping[str, Any]) -> Any:
    """The case's scenario with its overrides: every PC's level, gauges and policy, DCs."""
    base = _load_day(str(case["scenario"]))
    chars = []
    for c in base.characters:
        if c.actor == "pc":
            if case["level"] is not None:
                c = replace(c, level=case["level"])
            if case["gauge_max"] is not None:
                c = replace(c, gauge_max=dict.fromkeys(GAUGES, case["gauge_max"]))
            if case["policy"] is not None:
                c = replace(c, policy=policy_of(case["policy"], 16))  # Best: each roll's DC
        chars.append(c)
    rolls = (
        [replace(r, dc=r.dc + case["dc_shift"]) for r in base.rolls]
        if case["dc_shift"]
        else base.rolls
    )
    per_day = base.rolls_per_day if case["rolls_per_day"] is None else case["rolls_per_day"]
    return base.replace(characters=chars, rolls=rolls, rolls_per_day=per_day)


def _day(case: dict[str, Any], seed: np.random.SeedSequence) -> pd.DataFrame:
    scenario, rules = _day_scenario(case), rules_of(case)
    _playable(scenario, rules)
    res = simulate_day(scenario, rules, n_days=case["n"], seed=seed, threads=1, progress=False)
    df = res.to_frame("gauges").drop(columns=["n_days", "seed", "method", "scenario"])
    df = df.rename(columns={"policy": "character_policy"})
    return df.assign(scenario_name=scenario.name, method="simulate", n=case["n"])


def _success_cost(c: Mapping[str, Any]) -> float:
    return 0.002 + (c["n"] / _ROLLS_PER_SECOND if c["method"] == "simulate" else 0.0)


def _empty_cost(c: Mapping[str, Any]) -> float:
    if c["method"] != "simulate":
        return 0.01
    return 0.005 + c["n"] * 2 * c["gauge"] / _DAY_ROLLS_PER_SECOND


def _day_cost(c: Mapping[str, Any]) -> float:
    return 0.005 + c["n"] * (c["rolls_per_day"] or 40) / _DAY_ROLLS_PER_SECOND


_SAMPLING = {"method": "exact", "n": 200_000}
TASKS: dict[str, Task] = {
    "success": Task(
        "success",
        {
            **_ROLL_DEFAULTS,
            "actor": "pc",
            "policy": "keep",
            "system": "3d6x",
            **_SAMPLING,
            **RULES_DEFAULTS,
        },
        _success,
        _success_cost,
        "P(total >= dc) of one roll: p, ci_low, ci_high, p_complication, "
        "drain_mean, mean, roll, rules",
    ),
    "frontier": Task(
        "frontier",
        {**_ROLL_DEFAULTS, **RULES_DEFAULTS},
        _frontier,
        lambda c: 0.05,
        "the cancel frontier of one roll (exact): one row per policy",
    ),
    "empty": Task(
        "empty",
        {
            **_ROLL_DEFAULTS,
            "gauge": 20,
            "policy": "keep",
            "method": "exact",
            "n": 20_000,
            **RULES_DEFAULTS,
        },
        _empty,
        _empty_cost,
        "rolls until one gauge of `gauge` points empties: mean, median, p90",
    ),
    "day": Task(
        "day",
        {
            "scenario": "default",
            "n": 20_000,
            "level": None,
            "gauge_max": None,
            "policy": None,
            "dc_shift": 0,
            "rolls_per_day": None,
            **RULES_DEFAULTS,
        },
        _day,
        _day_cost,
        "`n` simulated days of a scenario ('default': the report's party and day, or "
        "a scenario TOML path); level/gauge_max/policy override every PC, dc_shift moves "
        "every DC: one row per PC gauge",
    ),
}


def sweep_parameters(task: str) -> dict[str, Any]:
    """The parameters of a named task and their defaults.

    >>> sweep_parameters("frontier")["dc"]
    16
    """
    return dict(resolve_task(task).defaults)


def resolve_task(task: Any) -> Task:
    if isinstance(task, Task):
        return task
    if isinstance(task, str) and task in TASKS:
        return TASKS[task]
    if isinstance(task, str) and ":" in task:  # "package.module:function"
        module, _, name = task.partition(":")
        if not module or module.startswith(".") or not name.isidentifier():
            raise SweepError(
                Phrase(
                    "`task` must be 'package.module:function' (an absolute module path "
                    "and a function name), but {task} was passed.",
                    task=shown(task),
                )
            )
        try:
            task = getattr(importlib.import_module(module), name)
        except Exception as err:  # noqa: BLE001 - whatever the module raises while imported
            raise SweepError(
                Phrase(
                    "`task` {task} cannot be imported ({one_line}).",
                    task=shown(task),
                    one_line=one_line(err),
                )
            ) from None
    if callable(task):
        return Task(getattr(task, "__qualname__", repr(task)), {}, task, lambda c: 0.05)
    kind = SweepError if isinstance(task, str) else SweepTypeError
    raise kind(
        Phrase(
            "`task` must be one of {TASKS}, 'module:function' or a callable "
            "(case, seed) -> dict | DataFrame, but {task} was passed.",
            TASKS=list(TASKS),
            task=shown(task),
        )
    )
