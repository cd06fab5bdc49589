"""Running a sweep: batches of cases on a process pool, an Executor or a Dask cluster,
seeded per case, with progress and Ctrl-C (see :mod:`explodice.sweeps`)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import multiprocessing as mp
import numbers
import os
import pickle
import signal
import statistics
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import check_flag, fail, one_line, shown
from explodice.core.words import Phrase
from explodice.engine import chunks
from explodice.engine.seeding import resolve_seed
from explodice.sweeps.grid import grid_cases
from explodice.sweeps.tasks import (
    DEFAULT_BATCH_SECONDS,
    TASKS,
    SweepError,
    SweepIncomplete,
    SweepTypeError,
    SweepWarning,
    Task,
    resolve_task,
)

__all__ = ["MAX_WORKERS", "NO_WORKER_TIMEOUT", "WORKERS_PER_CORE", "sweep"]

#: Seconds a sweep on Dask waits with no worker (or no scheduler) before it stops.
NO_WORKER_TIMEOUT = 60.0
#: Seconds between two looks at a Dask cluster's workers while the batches run.
POLL_SECONDS = 0.5


# -- running batches (in the workers) --------------------------------------------------------
def _run_batch(
    task: Any,
    defaults: Mapping[str, Any],
    items: list[tuple[int, dict[str, Any]]],
    entropy: int,
    root_key: tuple[int, ...],
) -> tuple[list[tuple[Any, ...]], float]:
    """Run cases ``(index, params)``; returns ``(index, rows | None, error | None)`` each and
    the seconds spent. Runs in a worker: a named task travels by name, a callable by pickle."""
    run = TASKS[task].run if isinstance(task, str) else task
    began = time.perf_counter()
    out: list[tuple[int, list[dict[Any, Any]] | None, str | None]] = []
    for index, params in items:
        seed = np.random.SeedSequence(entropy, spawn_key=(*root_key, index))
        try:
            result = run({**defaults, **params}, seed)
            if isinstance(result, pd.DataFrame):
                rows = result.to_dict("records")
            elif isinstance(result, Mapping):
                rows = [dict(result)]
            else:
                raise SweepError(
                    Phrase(
                        "a task must return a dict or a DataFrame, but {name} was returned.",
                        name=type(result).__name__,
                    )
                )
            out.append((index, rows, None))
        except Exception as err:  # noqa: BLE001 - reported per case, with its parameters
            out.append((index, None, one_line(err)))
    return out, time.perf_counter() - began


def _worker_init(watch: Any) -> None:
    """Local pool workers: Ctrl-C is the parent's to handle (the tasks pass ``threads=1``),
    no progress bars (the sweep shows its own), and an end with the sweep's process.

    ``watch`` is the read end of a pipe whose only write end the sweep's process holds: when
    that process ends, even by SIGKILL, the read end sees EOF and the worker exits at once
    (a worker's parent is the forkserver, which outlives the sweep: PR_SET_PDEATHSIG would
    watch the wrong process). The forkserver and the resource tracker end when the last
    worker does, since each worker holds their pipes open."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    chunks.SHOW_BARS = False
    threading.Thread(
        target=_exit_with_sweep, args=(watch,), name="explodice-sweep-watch", daemon=True
    ).start()


def _exit_with_sweep(watch: Any) -> None:
    try:
        while True:
            watch.recv_bytes()
    except (EOFError, OSError):
        os._exit(143)  # the sweep is gone: its batches would be read by no one


# -- executors ------------------------------------------------------------------------------
#: What a script that starts a sweep at its top level must do (each local worker imports the
#: script again as it starts, and would start the sweep again).
MAIN_GUARD = Phrase(
    'a script that calls sweep() must do so under `if __name__ == "__main__":` (each worker '
    "process imports the script again as it starts, and would start the sweep again)"
)


def _mp_context() -> Any:
    # the stdlib's own test for "a process started while this one imports its main module"
    if getattr(mp.current_process(), "_inheriting", False):
        raise SweepError(
            Phrase(
                "sweep() was called by a worker process as it started: {MAIN_GUARD}.",
                MAIN_GUARD=MAIN_GUARD,
            )
        )
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["explodice.sweeps.tasks"])  # numba imported once, in the server
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
    watch: Any = None  # the write end of the local workers' watch pipe (see _worker_init)
    dask: Any = None  # the Dask Client behind the executor (its workers are watched)

    def close(self, *, cancel: bool = False) -> None:
        if not self.owned:
            return
        if isinstance(self.executor, concurrent.futures.ProcessPoolExecutor) and cancel:
            # queued batches are dropped; closing the watch pipe ends the running ones now
            self.executor.shutdown(wait=False, cancel_futures=True)
            self._release()
        else:
            self.executor.shutdown(wait=not cancel)
            self._release()
        if self.client is not None:
            if cancel:  # a lost scheduler: no long goodbyes
                self.client.close(timeout=2)
            else:
                self.client.close()

    def _release(self) -> None:
        if self.watch is not None:
            self.watch.close()
            self.watch = None


#: Local worker processes per core at most: more only adds processes waiting for a core.
WORKERS_PER_CORE = 4
#: The most batches in flight on an executor or a cluster (a cluster of 4096 cores is rare).
MAX_WORKERS = 4096


def _pool(executor: Any, workers: int | None) -> _Pool:
    local = WORKERS_PER_CORE * (os.cpu_count() or 1)
    hi = local if executor is None else MAX_WORKERS
    if workers is not None:
        wrong_type = isinstance(workers, bool) or not isinstance(workers, numbers.Integral)
        if wrong_type or not 1 <= workers <= hi:
            where = (
                Phrase("{per_core} per core on this machine", per_core=WORKERS_PER_CORE)
                if executor is None
                else Phrase("the most batches in flight")
            )
            allowed = Phrase("an integer in 1..{hi} ({where}) or None", hi=hi, where=where)
            raise fail("workers", workers, allowed, SweepError, wrong_type=wrong_type)
        workers = int(workers)
    if executor is None:
        n = workers or os.cpu_count() or 1
        ctx = _mp_context()
        watch_r, watch_w = ctx.Pipe(duplex=False)
        pool = concurrent.futures.ProcessPoolExecutor(
            n, mp_context=ctx, initializer=_worker_init, initargs=(watch_r,)
        )
        return _Pool(pool, n, True, watch=watch_w)
    client = None
    if isinstance(executor, str):  # a scheduler address
        try:
            from dask.distributed import Client
        except ImportError:
            raise SweepError(
                Phrase(
                    "a scheduler address ({executor}) needs dask.distributed: pip "
                    "install 'explodice[dask]'.",
                    executor=shown(executor),
                )
            ) from None
        try:
            executor = client = Client(executor, timeout="20s")
        except Exception as err:  # noqa: BLE001 - dask's ValueError, OSError, TimeoutError...
            raise SweepError(
                Phrase(
                    "`executor` {executor} must be the address of a running Dask "
                    "scheduler (such as 'tcp://host:8786'), but it cannot be reached: "
                    "{one_line}",
                    executor=shown(executor),
                    one_line=one_line(err),
                )
            ) from None
    if _is_dask_client(executor):
        slots = workers or sum(executor.nthreads().values()) or 1
        return _Pool(executor.get_executor(pure=False), slots, True, client, dask=executor)
    if isinstance(executor, concurrent.futures.Executor):
        slots = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
        return _Pool(executor, int(slots), False)
    raise SweepTypeError(
        Phrase(
            "`executor` must be None (a local process pool), a "
            "concurrent.futures Executor, a dask.distributed Client or a "
            "scheduler address, but {name} was passed.",
            name=type(executor).__name__,
        )
    )


# -- the sweep ------------------------------------------------------------------------------
def _root_seed(seed: Any) -> np.random.SeedSequence:
    """The sweep's root: one integer, which the table's ``seed`` column records (so a
    SeedSequence of several words, or with a spawn key, is refused: typed back, the recorded
    integer would not give the same numbers)."""
    if seed is None:  # a fresh root, short enough to print and to type back
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    root = resolve_seed(seed)
    if not isinstance(root.entropy, numbers.Integral) or root.spawn_key:
        allowed = Phrase(
            "an integer >= 0, None, or a SeedSequence of one integer without a spawn key"
        )
        raise fail("seed", seed, allowed, SweepError)
    return root


def _entropy(root: np.random.SeedSequence) -> int:
    """The root's one integer (:func:`_root_seed` made sure of it)."""
    assert isinstance(root.entropy, numbers.Integral)
    return int(root.entropy)


def sweep(
    grid: Mapping[str, Any] | pd.DataFrame,
    task: str | Task | Callable[..., Any],
    *,
    executor: Any = None,
    workers: int | None = None,
    seed: Any = None,
    batch_seconds: float = DEFAULT_BATCH_SECONDS,
    progress: bool | None = None,
    no_worker_timeout: float = NO_WORKER_TIMEOUT,
) -> pd.DataFrame:
    """Run ``task`` on every case of ``grid``; one tidy DataFrame (see the module docstring).

    ``executor``: None (a local process pool of ``workers`` processes, default all cores),
    a ``concurrent.futures.Executor`` (left open), a ``dask.distributed.Client`` or a
    scheduler address. ``seed``: the root seed (int or SeedSequence). ``progress``: a
    tqdm bar per finished batch (default: when the sweep should take over 5 seconds).
    ``df.attrs`` holds ``task``, ``seed``, ``n_cases``, ``n_failed``, ``batches``,
    ``workers``, ``seconds`` (wall) and ``compute_seconds`` (spent inside the cases).

    Every case runs, or :class:`SweepIncomplete` is raised (its ``frame``: the cases that ran,
    and the others marked as not run): when the executor loses a batch (a Dask scheduler
    gone, a local worker killed), or when a Dask cluster has had no worker for
    ``no_worker_timeout`` seconds (default :data:`NO_WORKER_TIMEOUT`).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> df = sweep({"modifier": 2, "dc": [12, 16], "method": "simulate", "n": 1000}, "success",
    ...            seed=7, executor=ThreadPoolExecutor(1), progress=False)
    >>> df[["case", "dc", "n", "seed"]].values.tolist()
    [[0, 12, 1000, 7], [1, 16, 1000, 7]]
    """
    spec = resolve_task(task)
    names, cases = grid_cases(grid, spec)
    progress = check_flag("progress", progress, none=True, error=SweepError)
    batch_seconds = _batch_seconds(batch_seconds)
    no_worker_timeout = _seconds("no_worker_timeout", no_worker_timeout)
    root = _root_seed(seed)
    priors = [_prior(spec, c) for c in cases]
    pool = _pool(executor, workers)
    carried = spec.name if spec.name in TASKS and TASKS[spec.name] is spec else spec.run
    if isinstance(pool.executor, concurrent.futures.ProcessPoolExecutor) and not isinstance(
        carried, str
    ):
        try:
            pickle.dumps(carried)
        except Exception as err:  # noqa: BLE001
            pool.close()
            raise SweepError(
                Phrase(
                    "`task` must be picklable to run in worker processes (a module-level "
                    "function, not a lambda or a local function): {err}",
                    err=err,
                )
            ) from None
    show = sum(priors) > 5.0 if progress is None else progress
    runner = _Runner(pool, carried, dict(spec.defaults), cases, priors, root, batch_seconds)
    runner.no_worker_timeout = no_worker_timeout
    began = time.perf_counter()
    with _sigterm_stops():
        results = runner.run(show, f"sweep {spec.name}")
    if runner.lost is not None:
        raise _incomplete(names, cases, results, root, runner.lost)
    frame = _assemble(names, cases, results, root)
    failed = frame.drop_duplicates("case").error.notna()
    frame.attrs.update(
        {
            "task": spec.name,
            "seed": _seed_label(root),
            "n_cases": len(cases),
            "n_failed": int(failed.sum()),
            "batches": runner.n_batches,
            "workers": pool.slots,
            "seconds": time.perf_counter() - began,
            "compute_seconds": runner.busy,
        }
    )
    if failed.any():
        first = int(frame.case[frame.error.notna()].iloc[0])
        warnings.warn(
            f"{int(failed.sum())} of {len(cases)} cases failed; their rows carry "
            f"`error`. First: case {first} {cases[first]}: {results[first][1]}",
            SweepWarning,
            stacklevel=2,
        )
    return frame


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM while the batches run stops the sweep as Ctrl-C does (pending batches
    cancelled, the local workers ended through their watch pipe, the pool shut down), then
    exits with status 143; the previous handler comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _batch_seconds(value: Any) -> float:
    """``batch_seconds``: a number of seconds > 0 (at most 10^6)."""
    return _seconds("batch_seconds", value)


def _seconds(name: str, value: Any) -> float:
    """A number of seconds > 0 (at most 10^6), or the error naming ``name``."""
    allowed = Phrase("a number > 0 (seconds, at most 10^6)")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(name, value, allowed, SweepError, wrong_type=True)
    try:
        seconds = float(value)
    except OverflowError:
        seconds = math.inf
    if not 0 < seconds <= 1e6:  # NaN fails too
        raise fail(name, value, allowed, SweepError)
    return seconds


def _incomplete(
    names: list[str],
    cases: list[dict[str, Any]],
    results: dict[int, tuple[Any, str | None]],
    root: np.random.SeedSequence,
    why: str,
) -> SweepIncomplete:
    """The error of a sweep whose cases did not all run, with the table of those that did."""
    lost = [i for i in range(len(cases)) if i not in results]
    not_run = f"not run: {why}"
    frame = _assemble(names, cases, {**results, **{i: (None, not_run) for i in lost}}, root)
    message = f"the sweep stopped: {len(lost)} of {len(cases)} cases did not run ({why})"
    return SweepIncomplete(message, frame, len(lost))


def _prior(spec: Task, case: Mapping[str, Any]) -> float:
    """The task's prior cost of a case in seconds (bad values fail later, in the worker)."""
    try:
        return max(float(spec.cost({**spec.defaults, **case})), 1e-6)
    except Exception:  # noqa: BLE001
        return 0.05


class _Runner:
    """Submits batches sized by measured cost, at most two per worker in flight."""

    def __init__(
        self,
        pool: _Pool,
        task: Any,
        defaults: dict[str, Any],
        cases: list[dict[str, Any]],
        priors: list[float],
        root: np.random.SeedSequence,
        batch_seconds: float,
    ) -> None:
        self.pool, self.task, self.defaults, self.cases = pool, task, defaults, cases
        self.priors, self.root, self.batch_seconds = priors, root, float(batch_seconds)
        self.queue = deque(range(len(cases)))
        self.inflight: dict[concurrent.futures.Future[Any], list[int]] = {}
        self.ratios: list[float] = []  # measured / prior seconds of finished batches
        self.results: dict[int, tuple[Any, str | None]] = {}
        self.n_batches = 0
        self.busy = 0.0  # seconds the workers spent in the cases
        self.lost: str | None = None  # why batches were lost: the sweep stops, incomplete
        self.no_worker_timeout = NO_WORKER_TIMEOUT
        self.worker_seen = time.monotonic()  # when a Dask worker was last seen
        self.looked = 0.0  # when the Dask cluster was last asked for its workers

    def _next_batch(self) -> list[int]:
        """Cases from the queue worth about ``batch_seconds`` (a quarter before any timing)."""
        if self.ratios:  # the budget in prior-cost units
            budget = self.batch_seconds / statistics.median(self.ratios)
        else:
            budget = self.batch_seconds / 4
        cap = max(1, -(-len(self.queue) // self.pool.slots))  # the tail: a share per worker
        batch: list[int] = []
        cost = 0.0
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
                future = self.pool.executor.submit(
                    _run_batch,
                    self.task,
                    self.defaults,
                    items,
                    _entropy(self.root),
                    tuple(self.root.spawn_key),
                )
            except Exception as err:  # noqa: BLE001 - e.g. a broken pool: these cases are lost
                self._stop_if_unguarded(err)
                self.lost = self.lost or self._why(err)
                return
            self.inflight[future] = batch
            self.n_batches += 1

    def _stop_if_unguarded(self, err: Exception) -> None:
        """Raise the error that names the missing ``if __name__ == "__main__":`` when the pool
        broke before any batch ran in a script without it (its workers ran the script again
        and ended as they started); the pool is seen broken when a batch is collected or, as
        the workers may end sooner, when the next is submitted."""
        if isinstance(err, BrokenProcessPool) and not self.ratios and _unguarded_script():
            raise SweepError(  # no batch ever ran: the workers ended as they started
                Phrase(
                    "the sweep's worker processes ended as they started, before any case "
                    "ran (their errors are above): {MAIN_GUARD}.",
                    MAIN_GUARD=MAIN_GUARD,
                )
            ) from None

    def _collect(self, future: concurrent.futures.Future[Any], batch: list[int]) -> None:
        try:
            out, seconds = future.result()
        except Exception as err:  # noqa: BLE001 - the whole batch was lost (a worker died...)
            self._stop_if_unguarded(err)
            self.lost = self.lost or self._why(err)  # the batch did not run: the sweep stops
            return
        for index, rows, error in out:
            self.results[index] = (rows, error)
        prior = sum(self.priors[i] for i in batch)
        self.ratios.append(max(seconds, 1e-6) / prior)
        self.busy += seconds

    def run(self, show: bool, desc: str) -> dict[int, tuple[Any, str | None]]:

        from tqdm.auto import tqdm  # the display library loads only when a sweep runs

        bar = tqdm(total=len(self.cases), unit="case", desc=desc, disable=not show, leave=False)
        try:
            self._fill()
            while self.inflight and self.lost is None:
                done, _ = concurrent.futures.wait(
                    self.inflight,
                    timeout=POLL_SECONDS,
                    return_when=concurrent.futures.FIRST_COMPLETED,
                )
                for future in done:
                    batch = self.inflight.pop(future)
                    self._collect(future, batch)
                    bar.update(len(batch))
                self._watch()
                if self.lost is None:
                    self._fill()
        except BaseException:  # Ctrl-C above all: cancel what waits, stop what we started
            self._stop()
            raise
        else:
            if self.lost is None:
                self.pool.close()
            else:
                with contextlib.suppress(Exception):  # a lost cluster may refuse its goodbyes
                    self._stop()
        finally:
            bar.close()
        return self.results

    def _why(self, err: BaseException) -> str:
        """Why a batch was lost, in words: a Dask scheduler gone cancels every batch."""
        client = self.pool.dask
        if client is not None and client.status != "running":
            return "the connection to the Dask scheduler was lost"
        return one_line(err)

    def _stop(self) -> None:
        """Cancel the batches in flight and stop the pool the sweep made."""
        for future in self.inflight:
            with contextlib.suppress(Exception):
                future.cancel()
        self.pool.close(cancel=True)

    def _watch(self) -> None:
        """On Dask, stop the sweep (:attr:`lost`) once no worker has been seen for
        :attr:`no_worker_timeout` seconds: the batches would wait for one forever."""
        client = self.pool.dask
        now = time.monotonic()
        if client is None or now - self.looked < POLL_SECONDS:
            return
        self.looked = now
        if _dask_workers(client) > 0:
            self.worker_seen = now
        elif now - self.worker_seen > self.no_worker_timeout:
            self.lost = (
                f"no Dask worker for {self.no_worker_timeout:g} s: the scheduler has none "
                "left, or cannot be reached"
            )


def _dask_workers(client: Any) -> int:
    """How many workers ``client``'s scheduler has now (0 when it cannot say at once)."""
    if client.status != "running":
        return 0
    try:
        info = client.sync(client.scheduler.identity, n_workers=0, callback_timeout=POLL_SECONDS)
    except Exception:  # noqa: BLE001 - a scheduler gone or stopped: no worker seen
        return 0
    return int(info.get("n_workers", 0))


def _unguarded_script() -> bool:
    """True when the main module is a script file without an ``if __name__ == "__main__":``
    guard (the workers of a local pool import it again as they start)."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if path is None:  # Jupyter, the interpreter's prompt
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "__main__" not in f.read(1 << 20)
    except OSError:
        return False


def _seed_label(root: np.random.SeedSequence) -> int | str:
    """The root seed as a column value: an int, or its digits past int64."""
    entropy = _entropy(root)
    return entropy if entropy < 2**63 else str(entropy)


def _assemble(
    names: list[str],
    cases: list[dict[str, Any]],
    results: Mapping[int, tuple[Any, str | None]],
    root: np.random.SeedSequence,
) -> pd.DataFrame:
    seed = _seed_label(root)
    params = [n for n in names if n not in ("method", "n")]
    rows = []
    for i, case in enumerate(cases):
        out, error = results[i]
        head = {"case": i, **{k: case.get(k) for k in params}}
        for row in out or [{}]:
            rest = {k: v for k, v in row.items() if k not in names and k not in ("method", "n")}
            rows.append(
                {
                    **head,
                    "method": row.get("method", case.get("method")),
                    "n": row.get("n", case.get("n")),
                    "seed": seed,
                    **rest,
                    "error": error,
                }
            )
    frame = pd.DataFrame(rows)
    frame["n"] = pd.array([None if pd.isna(v) else int(v) for v in frame["n"]], dtype="Int64")
    return frame
