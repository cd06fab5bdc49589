"""Sweeps under faults: a case that did not run is no result. A Dask scheduler killed
mid-sweep, every worker gone, a batch the executor lost: the sweep stops, says so in one line
(exit 2), never replaces the previous output, and writes the cases that ran where
``--partial`` asks (issue 30.1).

The Dask tests run a real scheduler and worker as processes (``dask scheduler``, ``dask
worker``) and kill them with SIGKILL while the sweep runs in this process.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from explodice.present.cli import main
from explodice.sweeps import SweepIncomplete, sweep

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
TASK = "tests.sweep_faults_tasks:mark"


def _wait_for(condition, timeout: float, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()


def _start(args: list[str], log: Path) -> subprocess.Popen:
    env = os.environ | {"PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    with open(log, "wb") as out:
        return subprocess.Popen(
            [str(DASK), *args], stdout=out, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,  # its own process group: the nanny and its worker die together
        )  # fmt: skip


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


@pytest.fixture
def dask_cluster(tmp_path):
    """A scheduler and one worker of one thread, as processes: (address, scheduler, worker)."""
    pytest.importorskip("distributed")
    if not DASK.exists():
        pytest.skip(f"no `dask` command beside {sys.executable}")
    info = tmp_path / "scheduler.json"
    scheduler = _start(
        ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(info)],
        tmp_path / "scheduler.log",
    )  # fmt: skip
    worker = None
    try:
        assert _wait_for(lambda: info.exists() and info.stat().st_size > 0, 30)
        address = json.loads(info.read_text())["address"]
        worker = _start(
            ["worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard"],
            tmp_path / "worker.log",
        )
        from distributed import Client

        with Client(address, timeout="20s") as client:  # the worker is there before the sweep
            client.wait_for_workers(1, timeout=30)
        yield address, scheduler, worker
    finally:
        for proc in (worker, scheduler):
            if proc is not None:
                _kill(proc)


def _grid(tmp_path: Path, n: int = 24) -> tuple[Path, Path]:
    marks = tmp_path / "marks"
    marks.mkdir()
    grid = tmp_path / "grid.toml"
    grid.write_text(
        f'task = "{TASK}"\nseed = 1\nbatch_seconds = 0.1\n'
        f"[grid]\nmarks = {json.dumps(str(marks))}\nsleep = 0.2\na = {list(range(n))}\n"
    )
    return grid, marks


class _Killer(threading.Thread):
    """Kills ``proc``'s process group once ``n`` cases have left their mark; ``at`` is when."""

    def __init__(self, marks: Path, proc: subprocess.Popen, n: int = 4) -> None:
        super().__init__(daemon=True)
        self.marks, self.proc, self.n, self.at = marks, proc, n, None
        self.start()

    def run(self) -> None:
        if _wait_for(lambda: len(os.listdir(self.marks)) >= self.n, 60):
            time.sleep(0.5)  # a batch done reaches the sweep
            _kill(self.proc)
            self.at = time.monotonic()

    def seconds_since(self) -> float:
        self.join(5)
        assert self.at is not None, "the cases never ran"
        return time.monotonic() - self.at


def test_a_killed_scheduler_leaves_the_previous_output_and_keeps_the_partial(
    dask_cluster, tmp_path, capsys
):
    address, scheduler, _ = dask_cluster
    grid, marks = _grid(tmp_path)
    out, partial = tmp_path / "old.csv", tmp_path / "partial.csv"
    out.write_text("the previous results\n")
    killer = _Killer(marks, scheduler)
    status = main(
        ["sweep", str(grid), "--scheduler", address, "--out", str(out),
         "--partial", str(partial), "--no-progress"]
    )  # fmt: skip
    stopped_after = killer.seconds_since()
    err = capsys.readouterr().err
    assert status == 2 and stopped_after < 10  # at once, not after Dask's 20 s of reconnecting
    assert out.read_text() == "the previous results\n"  # never replaced
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line: no Dask log, no asyncio traceback
    assert "the connection to the Dask scheduler was lost" in lines[0]
    assert f"{out} was left as it was" in lines[0] and str(partial) in lines[0]
    table = pd.read_csv(partial)
    ran = table[table.error.isna()]
    assert len(table) == 24 and len(ran) >= 1  # every case: the others say they did not run
    assert (ran.twice == 2 * ran.a).all()
    assert table.error.dropna().str.startswith("not run: ").all()
    assert set(ran.a) <= {int(name) for name in os.listdir(marks)}


def test_no_worker_left_stops_after_the_stated_time(dask_cluster, tmp_path, capsys):
    address, _, worker = dask_cluster
    grid, marks = _grid(tmp_path)
    out = tmp_path / "old.csv"
    out.write_text("the previous results\n")
    killer = _Killer(marks, worker)  # the only worker: the scheduler waits forever
    status = main(
        ["sweep", str(grid), "--scheduler", address, "--out", str(out),
         "--no-worker-timeout", "1", "--no-progress"]
    )  # fmt: skip
    stopped_after = killer.seconds_since()
    err = capsys.readouterr().err
    assert status == 2 and stopped_after < 12  # the 1 s stated, and a few looks
    assert out.read_text() == "the previous results\n"
    assert len(err.strip().splitlines()) == 1, err
    assert "no Dask worker for 1 s" in err and "--partial FILE" in err


class _LosesABatch(concurrent.futures.ThreadPoolExecutor):
    """An executor whose second batch is lost, as a pool whose worker was killed."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        if self.calls == 2:
            lost: concurrent.futures.Future = concurrent.futures.Future()
            lost.set_exception(concurrent.futures.process.BrokenProcessPool("a worker died"))
            return lost
        return super().submit(fn, *args, **kwargs)


def _twice(case: dict, seed) -> dict:
    return {"twice": 2 * case["a"]}


def test_a_lost_batch_raises_with_the_cases_that_ran():
    with _LosesABatch() as pool, pytest.raises(SweepIncomplete) as info:
        sweep({"a": range(6)}, _twice, executor=pool, workers=1, batch_seconds=1e-9,
              progress=False)  # fmt: skip
    err = info.value
    assert "cases did not run (BrokenProcessPool: a worker died)" in str(err)
    frame = err.frame
    ran = frame[frame.error.isna()]
    assert err.n_lost == 6 - len(ran) >= 1 and len(ran) >= 1
    assert (ran.twice == 2 * ran.a).all()  # the cases that ran keep their results


def test_partial_is_checked_before_any_work(tmp_path, capsys):
    grid, _ = _grid(tmp_path)
    out = tmp_path / "old.csv"
    status = main(["sweep", str(grid), "--out", str(out), "--partial", str(out)])
    err = capsys.readouterr().err
    assert status == 2 and "`--partial`" in err and "is the file of --out" in err
    assert not out.exists()
    status = main(["sweep", str(grid), "--no-worker-timeout", "5"])
    assert status == 2 and "applies with --scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("grid", ["", "/", ".", ".."])
def test_a_grid_without_a_name_is_one_line(grid, capsys):
    assert main(["sweep", grid]) == 2  # was PosixPath('.') has an empty name (a traceback)
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "GRID" in err


@pytest.mark.parametrize("unguarded", [True, False])
def test_a_pool_broken_before_a_batch_is_submitted_names_the_missing_guard(unguarded, monkeypatch):
    # the workers of an unguarded script may end before the second batch is submitted: the
    # pool is then seen broken by submit, not by a batch's result (a fresh clone's CI run
    # said "36 of 36 cases did not run (BrokenProcessPool ...)" without naming the guard)
    import types

    import numpy as np

    from explodice.sweeps import run
    from explodice.sweeps.tasks import SweepError, SweepIncomplete

    def broken(*args, **kwargs):
        raise concurrent.futures.process.BrokenProcessPool("a child process terminated")

    pool = types.SimpleNamespace(executor=types.SimpleNamespace(submit=broken), slots=2, dask=None)
    monkeypatch.setattr(run, "_unguarded_script", lambda: unguarded)
    runner = run._Runner(
        pool, None, {}, [{"x": 1}, {"x": 2}], [0.1, 0.1], np.random.SeedSequence(1), 2.0
    )
    if unguarded:
        with pytest.raises(SweepError, match="__main__") as caught:
            runner._fill()
        assert not isinstance(caught.value, SweepIncomplete)
    else:
        runner._fill()  # a pool broken otherwise: the cases are lost, the sweep says so
        assert runner.lost is not None and "BrokenProcessPool" in runner.lost
