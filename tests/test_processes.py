"""Processes as the subject: a sweep killed mid-run leaves no process behind (issue 26.15), its
workers print no progress bar of their own (26.16), and the kernels compile where neither the
package nor HOME can be written (26.10). Each runs real processes through the console
script's launcher or ``python -c``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import explodice as ex
from explodice.engine import chunks

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
LAUNCHER = [sys.executable, str(SRC / "explodice_launch.py")]


def _env(**extra: str) -> dict[str, str]:
    return os.environ | {"MPLBACKEND": "Agg", "PYTHONPATH": f"{SRC}{os.pathsep}{ROOT}"} | extra


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``, read from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state != "Z":
            out.append(int(entry.name))
    return out


def _wait_for(condition, timeout: float, step: float = 0.2) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()


LONG_GRID = """
task = "success"
seed = 1
[grid]
modifier = [0, 1, 2, 3, 4, 5, 6, 7]
dc = [10, 12, 14, 16]
method = "simulate"
n = 200000000
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_sweep_leaves_no_worker_forkserver_or_tracker_behind(tmp_path, sig):
    grid = tmp_path / "grid.toml"
    grid.write_text(LONG_GRID, encoding="utf-8")
    argv = [*LAUNCHER, "sweep", str(grid), "--out", str(tmp_path / "o.csv"), "--workers", "2"]
    proc = subprocess.Popen(
        [*argv, "--no-progress"],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: every child it makes is in it
    )
    pgid = proc.pid
    try:
        # the sweep, its resource tracker, the forkserver and two workers
        assert _wait_for(lambda: len(_group(pgid)) >= 4, timeout=120), _group(pgid)
        time.sleep(1.0)  # the workers are inside their first batch
        proc.send_signal(sig)
        proc.wait(timeout=30)
        assert _wait_for(lambda: not _group(pgid), timeout=10), (
            f"still alive {len(_group(pgid))} processes after the sweep's {sig.name}"
        )
        if sig == signal.SIGTERM:
            assert proc.returncode == 128 + signal.SIGTERM  # a clean stop, not a crash
        assert not (tmp_path / "o.csv").exists()  # nothing written
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _group(pgid):  # what this test started, by id: never left running
            os.kill(pid, signal.SIGKILL)


NOISY_GRID = """
task = "tests.test_processes:noisy_task"
seed = 2
[grid]
a = [1, 2, 3]
"""


def noisy_task(case: dict, seed) -> dict:
    """A callable task that asks for a progress bar itself."""
    d = ex.simulate(ex.Roll(0), n=2000, seed=seed, threads=1, chunk_size=500, progress=True)
    return {"mean": d.mean}


def test_sweep_no_progress_shows_no_worker_bars(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(NOISY_GRID, encoding="utf-8")
    out = subprocess.run(
        [*LAUNCHER, "sweep", str(grid), "--out", str(tmp_path / "o.csv"), "--no-progress"],
        env=_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "simulate" not in out.stderr and "roll/s" not in out.stderr, out.stderr[-500:]


def test_named_tasks_ask_for_no_bar_even_on_long_runs(monkeypatch, capsys):
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(chunks, "AUTO_PROGRESS_UNITS", 1)  # every run counts as a long one
    grid = {"method": "simulate", "n": 2000, "modifier": [0, 1]}
    ex.sweep(grid, "success", executor=ThreadPoolExecutor(1), progress=False, seed=3)
    ex.sweep({**grid, "gauge": 3}, "empty", executor=ThreadPoolExecutor(1), progress=False)
    err = capsys.readouterr().err
    assert "simulate" not in err and "roll/s" not in err, err[-500:]


# -- numba's cache where nothing can be written ---------------------------------------------
def _read_only_copy(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the package where numba can write no cache, and an environment whose HOME
    cannot hold one either.

    Read-only folders are still writable by root (the tests may run as root), and no
    read-only mount is available here: so every ``__pycache__`` of the copy is a plain *file*
    and HOME lies under a file. ``os.makedirs`` then fails with ENOTDIR or EEXIST for anyone,
    root included, which is what numba meets on a read-only install (its locators try
    exactly that)."""
    copy = tmp_path / "site"
    shutil.copytree(
        SRC / "explodice", copy / "explodice", ignore=shutil.ignore_patterns("__pycache__")
    )
    for folder in [copy / "explodice", *(p for p in (copy / "explodice").rglob("*") if p.is_dir())]:
        (folder / "__pycache__").write_text("")
    (tmp_path / "home-is-a-file").write_text("")
    env = {k: v for k, v in _env().items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env |= {
        "PYTHONPATH": str(copy),
        "HOME": str(tmp_path / "home-is-a-file" / "home"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return copy, env


SIMULATE = """
import explodice as ex
d = ex.simulate(ex.Roll(0), n=3000, seed=1, threads=1)
assert ex.__file__.startswith({copy!r}), ex.__file__
print("simulated", d.n)
"""


def test_kernels_compile_with_a_read_only_package_and_home(tmp_path):
    copy, env = _read_only_copy(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", SIMULATE.format(copy=str(copy))],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-1500:]  # was "cannot cache function ..."
    assert "simulated 3000" in out.stdout
    assert out.stderr.count("CacheWarning") == 1, out.stderr  # said once, not per kernel
    assert "no locator" not in out.stderr


DAY = """
import explodice as ex
hero = ex.Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
day = ex.Scenario([hero], [ex.DayRoll("Hero", ability="STR", repeat=3)])
r = ex.simulate_day(day, n_days=200, seed=1, threads=1)
e = ex.exact_day(day)
print("days", r.n_days)
"""


@pytest.mark.slow
def test_the_day_kernels_compile_with_a_read_only_package_and_home(tmp_path):
    _, env = _read_only_copy(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", DAY], env=env, capture_output=True, text=True, timeout=900
    )
    assert out.returncode == 0, out.stderr[-1500:]
    assert "days 200" in out.stdout and out.stderr.count("CacheWarning") == 1, out.stderr
