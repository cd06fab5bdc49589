"""Design-space sweeps: one tidy table over a grid of cases, on any executor, Dask included.

:func:`sweep` runs one analysis (a *task*) on every case of a grid and returns one tidy
DataFrame: one row per case (or several, for a task that returns a table), with the case's
parameters, ``method``, ``n``, ``seed`` and ``case``, the task's columns, and ``error``.

- **Grid**: a mapping of parameter names to lists of values (their cartesian product, the last
  name varying fastest; a single value stands for a list of one), or a DataFrame with one
  case per row (an empty cell takes the task's default).
- **Tasks** (:data:`TASKS`): ``"success"`` (the odds of one roll against a DC), ``"frontier"``
  (the cancel frontier of one roll, exact), ``"day"`` (days of a scenario with gauges),
  ``"empty"`` (rolls until one gauge empties), or any picklable callable
  ``task(case: dict, seed: SeedSequence) -> dict | DataFrame`` (a result key named like a
  parameter gives way to the parameter's column). Every named task also takes
  the switches of :class:`~explodice.Rules` (``disadvantage``, ``overflow``, ...) as
  parameters. ``sweep_parameters(task)`` lists a task's parameters and defaults.
- **Seeds**: case ``i`` gets ``SeedSequence(seed, spawn_key=(i,))``, which is
  ``SeedSequence(seed).spawn(n_cases)[i]``: its numbers do not depend on the worker that ran
  it, on the batches or on their order. The ``seed`` column holds the root seed (a fresh
  63-bit one when ``seed=None``), ``case`` the index.
- **Executors**: a local process pool by default (``workers`` processes, ``forkserver``
  start method where it exists, else ``spawn``: forking a process that has run numba's
  threads is unsafe; kernels load from numba's cache in each worker), any
  ``concurrent.futures.Executor``, a ``dask.distributed.Client`` (its executor; the
  ``explodice[dask]`` extra), or a scheduler address such as ``"tcp://host:8786"``.
  Simulations run on one thread per case (``threads=1``): the executor supplies the
  parallelism.
- **Batches**: cases travel in batches of about ``batch_seconds`` of work each. Each task
  type has a prior cost per case (``n`` rolls or days at a measured single-thread rate); the
  first wave of batches is sized for a quarter of ``batch_seconds``, then the sizes follow the
  median of measured/prior times of the finished batches. At most two batches per worker are
  in flight, and the last batches shrink so every worker gets a share of the tail.
- **Failures**: a case that raises gets one row with its parameters and ``error``
  (``"ExplodiceError: ..."``); the other cases are returned and a :class:`SweepWarning` names
  the first failure. Ctrl-C cancels the pending batches (a running one, seconds long, ends
  unread), shuts down an executor that :func:`sweep` made, and re-raises
  :class:`KeyboardInterrupt`.

>>> from concurrent.futures import ThreadPoolExecutor
>>> df = sweep({"modifier": [0, 4], "dc": 16}, "success", executor=ThreadPoolExecutor(1))
>>> df.p.round(4).tolist(), df.method.tolist()
([0.2539, 0.4907], ['exact', 'exact'])
"""

from __future__ import annotations

import concurrent.futures
import functools
import importlib
import itertools
import math
import numbers
import os
import pickle
import statistics
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .rules import Best, ExplodiceError, Roll, Rules
from .tomlfile import read_toml

__all__ = ["TASKS", "SweepError", "SweepFileError", "SweepWarning", "load_grid",
           "sweep", "sweep_parameters", "write_results"]

DEFAULT_BATCH_SECONDS = 2.0
RESERVED = ("case", "seed", "error")  # columns sweep() writes itself
_RULES_DEFAULTS = {f: getattr(Rules(), f) for f in Rules.__dataclass_fields__}
_ROLL_DEFAULTS = {"modifier": 0, "dc": 16, "advantage": "normal", "kind": "check"}
# single-thread rates measured on the development machine (prior costs; measured times win)
_ROLLS_PER_SECOND = 3e7
_DAY_ROLLS_PER_SECOND = 1.5e7


class SweepError(ExplodiceError):
    """A grid, a task or an option of :func:`sweep` is not allowed."""


class SweepFileError(SweepError):
    """A grid TOML file is malformed: the message names the file, the key and the problem."""


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


def _rules_of(case: Mapping[str, Any]) -> Rules:
    kw = {f: case[f] for f in _RULES_DEFAULTS}
    kinds = kw["rule_of_one_kinds"]
    kw["rule_of_one_kinds"] = frozenset([kinds] if isinstance(kinds, str) else kinds)
    return Rules(**kw)


def _policy_of(policy: Any, dc: int) -> Any:
    """'keep', 'cancel', a Best, a weight λ (Best at the case's DC) or 'best:λ'."""
    if isinstance(policy, numbers.Real) and not isinstance(policy, bool):
        return Best(dc, policy)
    if isinstance(policy, str) and policy.strip().lower().startswith("best"):
        text = policy.strip()[4:].strip(":=() ")
        try:
            return Best(dc, float(text))
        except ValueError:
            raise SweepError(f"`policy` must be 'keep', 'cancel', a weight λ >= 0 or "
                             f"'best:λ', but {policy!r} was passed.") from None
    return policy


def _n_or_none(method: str, n: Any) -> Any:
    return n if method == "simulate" else None


def _success(case: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    from .tables import roll_distribution

    rules, dc = _rules_of(case), case["dc"]
    roll = Roll(case["modifier"], advantage=case["advantage"], kind=case["kind"],
                actor=case["actor"], policy=_policy_of(case["policy"], dc))
    dist = roll_distribution(roll, system=case["system"], rules=rules, method=case["method"],
                             n=case["n"], seed=seed, threads=1)
    lo, hi = dist.ci(dc)
    return {"method": dist.method, "n": _n_or_none(dist.method, dist.n),
            "p": float(dist.p_success(dc)), "ci_low": float(lo), "ci_high": float(hi),
            "p_complication": float(1.0 - dist.ones_pmf[0] / dist.ones_pmf.sum()),
            "drain_mean": float(dist.drain_mean), "mean": float(dist.mean),
            "roll": roll.describe(), "rules": rules.describe() if dist.system == "3d6x" else "d20"}


def _frontier(case: dict[str, Any], seed: np.random.SeedSequence) -> pd.DataFrame:
    from .frontier import frontier

    df = frontier(case["modifier"], case["dc"], advantage=case["advantage"], kind=case["kind"],
                  rules=_rules_of(case))
    df = df.drop(columns=["dc", "method"]).assign(implied_lambda=df.attrs["implied_lambda"])
    return df.assign(method="exact", n=None)


def _empty(case: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    from .day import rolls_to_empty

    r = rolls_to_empty(case["modifier"], case["gauge"], case["dc"],
                       policy=_policy_of(case["policy"], case["dc"]),
                       advantage=case["advantage"], kind=case["kind"], rules=_rules_of(case),
                       method=case["method"], n_days=case["n"], seed=seed, threads=1)
    return {"method": r.method, "n": _n_or_none(r.method, r.n_days), "mean": r.mean,
            "median": r.median, "p90": r.quantile(0.9), "p_beyond": r.p_beyond,
            "roll": r.roll.describe(), "rules": r.rules.describe()}


@functools.lru_cache(maxsize=32)
def _load_day(scenario: str) -> Any:
    """The Scenario of a TOML path, or the report's embedded party and day for 'default'."""
    if scenario == "default":
        from .report import load_config

        return load_config(None).day
    from .scenario import load_scenario

    return load_scenario(scenario)


def _day_scenario(case: Mapping[str, Any]) -> Any:
    """The case's scenario with its overrides: every PC's level, gauges and policy, DCs."""
    from .character import GAUGES

    base = _load_day(str(case["scenario"]))
    chars = []
    for c in base.characters:
        if c.actor == "pc":
            if case["level"] is not None:
                c = replace(c, level=case["level"])
            if case["gauge_max"] is not None:
                c = replace(c, gauge_max=dict.fromkeys(GAUGES, case["gauge_max"]))
            if case["policy"] is not None:
                c = replace(c, policy=_policy_of(case["policy"], 16))  # Best: each roll's DC
        chars.append(c)
    rolls = [replace(r, dc=r.dc + case["dc_shift"]) for r in base.rolls] if case["dc_shift"] \
        else base.rolls
    per_day = base.rolls_per_day if case["rolls_per_day"] is None else case["rolls_per_day"]
    return base.replace(characters=chars, rolls=rolls, rolls_per_day=per_day)


def _day(case: dict[str, Any], seed: np.random.SeedSequence) -> pd.DataFrame:
    from .day import simulate_day

    scenario = _day_scenario(case)
    res = simulate_day(scenario, _rules_of(case), n_days=case["n"], seed=seed, threads=1)
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
    "success": Task("success", {**_ROLL_DEFAULTS, "actor": "pc", "policy": "keep",
                                "system": "3d6x", **_SAMPLING, **_RULES_DEFAULTS},
                    _success, _success_cost,
                    "P(total >= dc) of one roll: p, ci_low, ci_high, p_complication, "
                    "drain_mean, mean, roll, rules"),
    "frontier": Task("frontier", {**_ROLL_DEFAULTS, **_RULES_DEFAULTS}, _frontier,
                     lambda c: 0.05,
                     "the cancel frontier of one roll (exact): one row per policy"),
    "empty": Task("empty", {**_ROLL_DEFAULTS, "gauge": 20, "policy": "keep",
                            "method": "exact", "n": 20_000, **_RULES_DEFAULTS},
                  _empty, _empty_cost,
                  "rolls until one gauge of `gauge` points empties: mean, median, p90"),
    "day": Task("day", {"scenario": "default", "n": 20_000, "level": None, "gauge_max": None,
                        "policy": None, "dc_shift": 0, "rolls_per_day": None,
                        **_RULES_DEFAULTS},
                _day, _day_cost,
                "`n` simulated days of a scenario ('default': the report's party and day, or "
                "a scenario TOML path); level/gauge_max/policy override every PC, dc_shift moves "
                "every DC: one row per PC gauge"),
}


def sweep_parameters(task: str) -> dict[str, Any]:
    """The parameters of a named task and their defaults.

    >>> sweep_parameters("frontier")["dc"]
    16
    """
    return dict(_task(task).defaults)


def _task(task: Any) -> Task:
    if isinstance(task, Task):
        return task
    if isinstance(task, str) and task in TASKS:
        return TASKS[task]
    if isinstance(task, str) and ":" in task:  # "package.module:function"
        module, _, name = task.partition(":")
        try:
            task = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as err:
            raise SweepError(f"`task` {task!r} cannot be imported ({err}).") from None
    if callable(task):
        return Task(getattr(task, "__qualname__", repr(task)), {}, task, lambda c: 0.05)
    raise SweepError(f"`task` must be one of {list(TASKS)}, 'module:function' or a callable "
                     f"(case, seed) -> dict | DataFrame, but {task!r} was passed.")


# -- the grid -------------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    """numpy scalars as Python values; missing (None, NaN, NA) as None."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def _values(name: str, value: Any) -> list[Any]:
    if isinstance(value, (str, bytes, numbers.Number, Best)) or value is None:
        return [value]
    if isinstance(value, (Mapping, set, frozenset)):
        raise SweepError(f"grid `{name}` must be a list of values, but {value!r} was passed.")
    try:
        values = [_plain(v) for v in value]
    except TypeError:
        return [value]
    if not values:
        raise SweepError(f"grid `{name}` must hold at least one value, but [] was passed.")
    return values


def _check_names(names: Iterable[Any], task: Task) -> list[str]:
    names = list(names)
    for name in names:
        if not isinstance(name, str):
            raise SweepError(f"grid parameter names must be strings, but {name!r} was passed.")
        if name in RESERVED:
            raise SweepError(f"grid `{name}` is reserved: sweep() writes the `{name}` column "
                             f"itself (give the root seed as sweep(seed=...)).")
        if task.defaults and name not in task.defaults:
            raise SweepError(f"grid `{name}` is not a parameter of the {task.name!r} task; "
                             f"allowed: {', '.join(task.defaults)}.")
    return names


def _cases(grid: Any, task: Task) -> tuple[list[str], list[dict[str, Any]]]:
    """The parameter names and one dict per case (only the parameters the grid gives)."""
    if isinstance(grid, pd.DataFrame):
        names = _check_names(grid.columns, task)
        if grid.empty:
            raise SweepError("grid must hold at least one case, but an empty DataFrame was "
                             "passed.")
        cols = {}
        for name in names:
            col = [_plain(v) for v in grid[name].tolist()]
            if all(v is None or (isinstance(v, float) and v.is_integer()) for v in col):
                col = [None if v is None else int(v) for v in col]  # ints that met a NaN
            cols[name] = col
        cases = [{k: cols[k][i] for k in names if cols[k][i] is not None}
                 for i in range(len(grid))]
        return names, cases
    if not isinstance(grid, Mapping):
        raise SweepError(f"grid must be a mapping of parameter names to lists of values, or a "
                         f"DataFrame of cases, but {type(grid).__name__} was passed.")
    if not grid:
        raise SweepError("grid must name at least one parameter, but {} was passed.")
    names = _check_names(grid, task)
    lists = [_values(name, grid[name]) for name in names]
    return names, [dict(zip(names, combo)) for combo in itertools.product(*lists)]


# -- running batches (in the workers) --------------------------------------------------------
def _one_line(err: BaseException) -> str:
    return f"{type(err).__name__}: {' '.join(str(err).split())}".rstrip(": ")


def _run_batch(task: Any, defaults: Mapping[str, Any], items: list[tuple[int, dict[str, Any]]],
               entropy: int, root_key: tuple[int, ...]) -> tuple[list[tuple[Any, ...]], float]:
    """Run cases ``(index, params)``; returns ``(index, rows | None, error | None)`` each and
    the seconds spent. Runs in a worker: a named task travels by name, a callable by pickle."""
    run = TASKS[task].run if isinstance(task, str) else task
    began = time.perf_counter()
    out = []
    for index, params in items:
        seed = np.random.SeedSequence(entropy, spawn_key=(*root_key, index))
        try:
            result = run({**defaults, **params}, seed)
            if isinstance(result, pd.DataFrame):
                rows = result.to_dict("records")
            elif isinstance(result, Mapping):
                rows = [dict(result)]
            else:
                raise SweepError(f"a task must return a dict or a DataFrame, but "
                                 f"{type(result).__name__} was returned.")
            out.append((index, rows, None))
        except Exception as err:  # noqa: BLE001 - reported per case, with its parameters
            out.append((index, None, _one_line(err)))
    return out, time.perf_counter() - began


def _worker_init() -> None:
    """Local pool workers: Ctrl-C is the parent's to handle (the tasks pass ``threads=1``)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- executors ------------------------------------------------------------------------------
def _mp_context() -> Any:
    import multiprocessing as mp

    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["explodice.sweep"])  # numba imported once, in the server
        return ctx
    return mp.get_context("spawn")


def _is_dask_client(obj: Any) -> bool:
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


@dataclass
class _Pool:
    executor: concurrent.futures.Executor
    slots: int
    owned: bool  # sweep() made it: sweep() shuts it down
    client: Any = None  # a Client that sweep() opened from an address

    def close(self, *, cancel: bool = False) -> None:
        if not self.owned:
            return
        if isinstance(self.executor, concurrent.futures.ProcessPoolExecutor) and cancel:
            # queued batches are dropped; a running one (seconds) ends on its own, unread
            self.executor.shutdown(wait=False, cancel_futures=True)
        else:
            self.executor.shutdown(wait=not cancel)
        if self.client is not None:
            self.client.close()


def _pool(executor: Any, workers: int | None) -> _Pool:
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise SweepError(f"`workers` must be an integer >= 1 or None, but {workers!r} was passed.")
    if executor is None:
        n = workers or os.cpu_count() or 1
        pool = concurrent.futures.ProcessPoolExecutor(n, mp_context=_mp_context(),
                                                      initializer=_worker_init)
        return _Pool(pool, n, True)
    client = None
    if isinstance(executor, str):  # a scheduler address
        try:
            from dask.distributed import Client
        except ImportError:
            raise SweepError(f"a scheduler address ({executor!r}) needs dask.distributed: "
                             f"pip install 'explodice[dask]'.") from None
        executor = client = Client(executor, timeout="20s")
    if _is_dask_client(executor):
        slots = workers or sum(executor.nthreads().values()) or 1
        return _Pool(executor.get_executor(pure=False), slots, True, client)
    if isinstance(executor, concurrent.futures.Executor):
        slots = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
        return _Pool(executor, int(slots), False)
    raise SweepError(f"`executor` must be None (a local process pool), a concurrent.futures "
                     f"Executor, a dask.distributed Client or a scheduler address, but "
                     f"{type(executor).__name__} was passed.")


# -- the sweep ------------------------------------------------------------------------------
def _root_seed(seed: Any) -> np.random.SeedSequence:
    from .simulate import resolve_seed

    if seed is None:  # a fresh root, short enough to print and to type back
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    return resolve_seed(seed)


def sweep(grid: Mapping[str, Any] | pd.DataFrame, task: str | Callable[..., Any], *,
          executor: Any = None, workers: int | None = None, seed: Any = None,
          batch_seconds: float = DEFAULT_BATCH_SECONDS,
          progress: bool | None = None) -> pd.DataFrame:
    """Run ``task`` on every case of ``grid``; one tidy DataFrame (see the module docstring).

    ``executor``: None (a local process pool of ``workers`` processes, default all cores),
    a ``concurrent.futures.Executor`` (left open), a ``dask.distributed.Client`` or a
    scheduler address. ``seed``: the root seed (int or SeedSequence). ``progress``: a
    tqdm bar per finished batch (default: when the sweep should take over 5 seconds).
    ``df.attrs`` holds ``task``, ``seed``, ``n_cases``, ``n_failed``, ``batches``,
    ``workers``, ``seconds`` (wall) and ``compute_seconds`` (spent inside the cases).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> df = sweep({"modifier": 2, "dc": [12, 16], "method": "simulate", "n": 1000}, "success",
    ...            seed=7, executor=ThreadPoolExecutor(1), progress=False)
    >>> df[["case", "dc", "n", "seed"]].values.tolist()
    [[0, 12, 1000, 7], [1, 16, 1000, 7]]
    """
    spec = _task(task)
    names, cases = _cases(grid, spec)
    if (isinstance(batch_seconds, bool) or not isinstance(batch_seconds, numbers.Real)
            or not 0 < batch_seconds < math.inf):
        raise SweepError(f"`batch_seconds` must be a number > 0, but {batch_seconds!r} was "
                         f"passed.")
    root = _root_seed(seed)
    priors = [_prior(spec, c) for c in cases]
    pool = _pool(executor, workers)
    carried = spec.name if spec.name in TASKS and TASKS[spec.name] is spec else spec.run
    if isinstance(pool.executor, concurrent.futures.ProcessPoolExecutor) and not isinstance(
            carried, str):
        try:
            pickle.dumps(carried)
        except Exception as err:  # noqa: BLE001
            pool.close()
            raise SweepError(f"`task` must be picklable to run in worker processes (a "
                             f"module-level function, not a lambda or a local function): "
                             f"{err}") from None
    show = sum(priors) > 5.0 if progress is None else bool(progress)
    runner = _Runner(pool, carried, dict(spec.defaults), cases, priors, root, batch_seconds)
    began = time.perf_counter()
    results = runner.run(show, f"sweep {spec.name}")
    frame = _assemble(names, cases, results, root)
    failed = frame.drop_duplicates("case").error.notna()
    frame.attrs.update({"task": spec.name, "seed": _seed_label(root),
                        "n_cases": len(cases), "n_failed": int(failed.sum()),
                        "batches": runner.n_batches, "workers": pool.slots,
                        "seconds": time.perf_counter() - began,
                        "compute_seconds": runner.busy})
    if failed.any():
        first = int(frame.case[frame.error.notna()].iloc[0])
        warnings.warn(f"{int(failed.sum())} of {len(cases)} cases failed; their rows carry "
                      f"`error`. First: case {first} {cases[first]}: {results[first][1]}",
                      SweepWarning, stacklevel=2)
    return frame


def _prior(spec: Task, case: Mapping[str, Any]) -> float:
    """The task's prior cost of a case in seconds (bad values fail later, in the worker)."""
    try:
        return max(float(spec.cost({**spec.defaults, **case})), 1e-6)
    except Exception:  # noqa: BLE001
        return 0.05


class _Runner:
    """Submits batches sized by measured cost, at most two per worker in flight."""

    def __init__(self, pool: _Pool, task: Any, defaults: dict[str, Any],
                 cases: list[dict[str, Any]], priors: list[float],
                 root: np.random.SeedSequence, batch_seconds: float) -> None:
        self.pool, self.task, self.defaults, self.cases = pool, task, defaults, cases
        self.priors, self.root, self.batch_seconds = priors, root, float(batch_seconds)
        self.queue = deque(range(len(cases)))
        self.inflight: dict[concurrent.futures.Future[Any], list[int]] = {}
        self.ratios: list[float] = []  # measured / prior seconds of finished batches
        self.results: dict[int, tuple[Any, str | None]] = {}
        self.n_batches = 0
        self.busy = 0.0  # seconds the workers spent in the cases

    def _next_batch(self) -> list[int]:
        """Cases from the queue worth about ``batch_seconds`` (a quarter before any timing)."""
        if self.ratios:  # the budget in prior-cost units
            budget = self.batch_seconds / statistics.median(self.ratios)
        else:
            budget = self.batch_seconds / 4
        cap = max(1, -(-len(self.queue) // self.pool.slots))  # the tail: a share per worker
        batch, cost = [], 0.0
        while self.queue and len(batch) < cap and (not batch or cost < budget):
            i = self.queue.popleft()
            batch.append(i)
            cost += self.priors[i]
        return batch

    def _fill(self) -> None:
        while self.queue and len(self.inflight) < 2 * self.pool.slots:
            batch = self._next_batch()
            items = [(i, self.cases[i]) for i in batch]
            try:
                future = self.pool.executor.submit(_run_batch, self.task, self.defaults, items,
                                                   self.root.entropy, tuple(self.root.spawn_key))
            except Exception as err:  # noqa: BLE001 - e.g. a broken pool: these cases fail
                for i in batch:
                    self.results[i] = (None, _one_line(err))
                continue
            self.inflight[future] = batch
            self.n_batches += 1

    def _collect(self, future: concurrent.futures.Future[Any], batch: list[int]) -> None:
        try:
            out, seconds = future.result()
        except Exception as err:  # noqa: BLE001 - the whole batch was lost (a worker died...)
            for i in batch:
                self.results[i] = (None, _one_line(err))
            return
        for index, rows, error in out:
            self.results[index] = (rows, error)
        prior = sum(self.priors[i] for i in batch)
        self.ratios.append(max(seconds, 1e-6) / prior)
        self.busy += seconds

    def run(self, show: bool, desc: str) -> dict[int, tuple[Any, str | None]]:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(self.cases), unit="case", desc=desc, disable=not show, leave=False)
        try:
            self._fill()
            while self.inflight:
                done, _ = concurrent.futures.wait(self.inflight,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    batch = self.inflight.pop(future)
                    self._collect(future, batch)
                    bar.update(len(batch))
                self._fill()
        except BaseException:  # Ctrl-C above all: cancel what waits, stop what we started
            for future in self.inflight:
                future.cancel()
            self.pool.close(cancel=True)
            raise
        else:
            self.pool.close()
        finally:
            bar.close()
        return self.results


def _seed_label(root: np.random.SeedSequence) -> int | str:
    """The root seed as a column value: an int, or its digits past int64."""
    return int(root.entropy) if int(root.entropy) < 2**63 else str(root.entropy)


def _assemble(names: list[str], cases: list[dict[str, Any]],
              results: Mapping[int, tuple[Any, str | None]],
              root: np.random.SeedSequence) -> pd.DataFrame:
    seed = _seed_label(root)
    params = [n for n in names if n not in ("method", "n")]
    rows = []
    for i, case in enumerate(cases):
        out, error = results[i]
        head = {"case": i, **{k: case.get(k) for k in params}}
        for row in out or [{}]:
            rest = {k: v for k, v in row.items() if k not in names and k not in ("method", "n")}
            rows.append({**head, "method": row.get("method", case.get("method")),
                         "n": row.get("n", case.get("n")), "seed": seed, **rest,
                         "error": error})
    frame = pd.DataFrame(rows)
    frame["n"] = pd.array([None if pd.isna(v) else int(v) for v in frame["n"]], dtype="Int64")
    return frame


# -- files ----------------------------------------------------------------------------------
_GRID_KEYS = ("task", "seed", "batch_seconds", "grid", "case")


@dataclass(frozen=True)
class GridFile:
    """A grid TOML file, read: the task, the grid (mapping or DataFrame) and the options."""

    task: Any
    grid: Any
    seed: Any = None
    batch_seconds: float = DEFAULT_BATCH_SECONDS


def load_grid(path: str | os.PathLike[str]) -> GridFile:
    """Read a grid file: ``task``, optional ``seed`` and ``batch_seconds``, and either a
    ``[grid]`` table (lists of values) or ``[[case]]`` tables (one case each)::

        task = "success"
        seed = 2026
        [grid]
        modifier = [0, 2, 4]
        dc = [12, 16, 22]
        method = "simulate"

    A ``scenario`` path of the ``day`` task is relative to the file. Errors name the file,
    the key and the problem.
    """
    path = Path(path)
    data = read_toml(path, error=SweepFileError)

    def bad(key: str, problem: str) -> SweepFileError:
        return SweepFileError(f"{path}: `{key}`: {problem}")

    for key in data:
        if key not in _GRID_KEYS:
            raise bad(key, f"unknown key; allowed: {', '.join(_GRID_KEYS)}.")
    if "task" not in data:
        raise bad("task", f"missing: one of {', '.join(TASKS)} or 'module:function'.")
    if ("grid" in data) == ("case" in data):
        raise bad("grid", "give either a [grid] table or [[case]] tables, not both or neither.")
    if "grid" in data:
        grid: Any = data["grid"]
        if not isinstance(grid, dict):
            raise bad("grid", "must be a table of parameter = [values].")
        if "scenario" in grid:
            grid = {**grid, "scenario": [_relative(path, s) for s in _values("scenario",
                                                                             grid["scenario"])]}
    else:
        if not isinstance(data["case"], list) or not all(isinstance(c, dict)
                                                         for c in data["case"]):
            raise bad("case", "must be [[case]] tables.")
        grid = pd.DataFrame([{**c, **({"scenario": _relative(path, c["scenario"])}
                                      if "scenario" in c else {})} for c in data["case"]])
    try:
        spec = _task(data["task"])
        _cases(grid, spec)  # names and lists checked now, with the file named
    except SweepError as err:
        raise SweepFileError(f"{path}: {err}") from None
    batch = data.get("batch_seconds", DEFAULT_BATCH_SECONDS)
    return GridFile(data["task"], grid, data.get("seed"), batch)


def _relative(path: Path, scenario: Any) -> Any:
    if isinstance(scenario, str) and scenario != "default" and not Path(scenario).is_absolute():
        return str((path.parent / scenario).resolve())
    return scenario


def write_results(frame: pd.DataFrame, out: str | os.PathLike[str]) -> list[Path]:
    """Write ``frame`` as CSV at ``out``, and as Parquet next to it if pyarrow is installed
    (columns of mixed types as text there). Returns the paths written."""
    out = Path(out)
    frame.to_csv(out, index=False)
    paths = [out]
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return paths
    mixed = [c for c in frame.columns if frame[c].dtype == object
             and len({type(v) for v in frame[c] if v is not None}) > 1]
    parquet = out.with_suffix(".parquet")
    frame.astype({c: str for c in mixed}).to_parquet(parquet, index=False)
    return paths + [parquet]
