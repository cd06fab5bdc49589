"""First-run compile time: numba compiles the roll and day kernels once (then caches them).

The day kernel compiles in a second process while this one compiles the roll kernel and draws
the exact pages, so the two compilations overlap on two cores. That process is a plain
interpreter that imports explodice alone: a multiprocessing child would import the caller's
main script again (a script that writes a report without ``if __name__ == "__main__":`` ran
twice, its warm-up child failing with multiprocessing's "bootstrapping phase" traceback).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from explodice.day.exact import exact_day
from explodice.day.scenario import DayRoll, Scenario
from explodice.day.simulate import simulate_day
from explodice.engine.simulate import simulate
from explodice.game.character import Character
from explodice.game.rules import Roll

__all__ = ["start_day_warm_up", "stop", "wait_for", "warm_day_kernel", "warm_roll_kernel"]


#: What the warm-up process runs.
_WARM_UP = "from explodice.present.report.warmup import warm_day_kernel; warm_day_kernel()"


def start_day_warm_up() -> Any:
    """The warm-up process (a ``subprocess.Popen``), or None on one core."""
    if (os.cpu_count() or 1) < 2:
        return None
    package_root = str(Path(__file__).resolve().parents[3])  # where `import explodice` works
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
    try:
        return subprocess.Popen(
            [sys.executable, "-c", _WARM_UP],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ | {"PYTHONPATH": path},
        )
    except OSError:  # pragma: no cover - no processes allowed: compile in-line instead
        return None


def warm_day_kernel() -> None:
    """Run the day kernel and the exact day's chain once on a tiny scenario (compiling them,
    or loading them from cache): the report's day pages are exact, and a configuration may
    ask for the simulated day.

    Only a warm-up: it ignores Ctrl-C (the parent stops it) and any failure (the parent then
    compiles the kernel itself).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        hero = Character("warm-up", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        day = Scenario([hero], [DayRoll("warm-up", ability="STR")])
        exact_day(day)
        simulate_day(day, n_days=1, seed=0, threads=1)
    except Exception:  # noqa: BLE001 - a warm-up that fails costs only time
        pass


def warm_roll_kernel() -> None:
    simulate(Roll(0), n=1, seed=0, threads=1)


def wait_for(ctx: Any) -> None:
    """Wait until the warm-up process has the day's kernels compiled and cached."""
    proc = ctx.cache.pop("warm-up", None)
    if proc is not None:
        try:
            proc.wait(timeout=300)
        except subprocess.TimeoutExpired:  # pragma: no cover - the parent compiles it
            pass
        stop(proc)


def stop(proc: Any) -> None:
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
