"""First-run compile time: numba compiles the roll and day kernels once (then caches them).

The day kernel compiles in a second process while this one compiles the roll kernel and draws
the exact pages, so the two compilations overlap on two cores.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Any

from explodice.day.scenario import DayRoll, Scenario
from explodice.day.simulate import simulate_day
from explodice.engine.simulate import simulate
from explodice.game.character import Character
from explodice.game.rules import Roll

__all__ = ["start_day_warm_up", "stop", "wait_for", "warm_roll_kernel"]


def start_day_warm_up() -> Any:
    if (os.cpu_count() or 1) < 2:
        return None
    try:
        proc = multiprocessing.get_context("spawn").Process(target=_warm_day_kernel, daemon=True)
        proc.start()
    except OSError:  # pragma: no cover - no processes allowed: compile in-line instead
        return None
    return proc


def _warm_day_kernel() -> None:
    """Run the day kernel once on a tiny scenario (compiling it, or loading it from cache).

    Only a warm-up: it ignores Ctrl-C (the parent stops it) and any failure (the parent then
    compiles the kernel itself).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        hero = Character("warm-up", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        simulate_day(
            Scenario([hero], [DayRoll("warm-up", ability="STR")]), n_days=1, seed=0, threads=1
        )
    except Exception:  # noqa: BLE001 - a warm-up that fails costs only time
        pass


def warm_roll_kernel() -> None:
    simulate(Roll(0), n=1, seed=0, threads=1)


def wait_for(ctx: Any) -> None:
    """Wait until the warm-up process has the day kernel compiled and cached."""
    proc = ctx.cache.pop("warm-up", None)
    if proc is not None:
        proc.join(timeout=300)
        stop(proc)


def stop(proc: Any) -> None:
    if proc is not None and proc.is_alive():
        proc.terminate()
        proc.join(timeout=10)
