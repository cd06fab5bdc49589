"""First-run compile time: numba compiles the roll and day kernels once (then caches them).

The report's day is exact: its kernels are the exact day's chain (``day/_chain_kernel.py``)
and the optimal player's (``day/_optimal_kernel.py``), not the simulated day's. They compile
in a second process while this one compiles the roll kernel and draws the first pages, so the
compilations overlap on two cores; the pages that need them wait for that process
(:func:`wait_for`). A report with its data helper (:mod:`.ahead`) starts no warm-up: the
helper computes the day's pages, compiling their kernels as it goes. A report whose pages are all kept (:mod:`.reuse`) starts none. That process is a plain
interpreter that imports explodice alone: a multiprocessing child would import the caller's
main script again (a script that writes a report without ``if __name__ == "__main__":`` ran
twice, its warm-up child failing with multiprocessing's "bootstrapping phase" traceback).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from explodice.day.exact import exact_day
from explodice.day.scenario import DayRoll, Scenario
from explodice.engine.simulate import simulate
from explodice.game.character import Character
from explodice.game.rules import Roll
from explodice.present.report.reuse import dumps

__all__ = ["start_day_warm_up", "stop", "wait_for", "warm_day_kernel", "warm_roll_kernel"]


#: What the warm-up process runs.
_WARM_UP = (
    "import sys; from explodice.present.report.warmup import warm_day_kernel; "
    "warm_day_kernel(sys.argv[1])"
)


def compiled(modules: tuple[str, ...] = ("_chain_kernel", "_optimal_kernel")) -> bool:
    """Whether numba's cache holds kernels of each of the day's ``modules`` (their index
    files, under ``NUMBA_CACHE_DIR`` if set, else next to the source; numba looks there
    first): then nothing is warmed up. A stale index (another numba) costs only time."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    places = [
        Path(chosen) if chosen else Path(__file__).resolve().parents[2] / "day" / "__pycache__"
    ]
    found: set[str] = set()
    for place in places:
        if place.is_dir():
            found.update(m for m in modules if next(place.rglob(f"{m}.*.nbi"), None))
    return len(found) == len(modules)


def start_day_warm_up(day: Any = None, rules: Any = None, *, simulated: bool = False) -> Any:
    """The warm-up process (a ``subprocess.Popen``), or None on one core or when numba's
    cache holds the day's kernels (:func:`compiled`): it plays the exact ``day`` under
    ``rules`` (the report's: a tiny day compiles only some of the chain's kernels), the
    optimal player on a tiny day, and the simulated day if ``simulated``."""
    if (os.cpu_count() or 1) < 2 or (compiled() and not simulated):
        return None
    package_root = str(Path(__file__).resolve().parents[3])  # where `import explodice` works
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
    try:
        what = dumps((day, rules, simulated)).hex()
    except Exception:  # noqa: BLE001 - a day that cannot be sent: a tiny one warms up
        what = ""
    try:
        return subprocess.Popen(
            [sys.executable, "-c", _WARM_UP, what],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ | {"PYTHONPATH": path},
        )
    except OSError:  # pragma: no cover - no processes allowed: compile in-line instead
        return None


def warm_day_kernel(what: str = "") -> None:
    """Play the exact day (the report's, ``what``: its day, rules and whether it is simulated,
    pickled, in hex; else a tiny one), the optimal player on a tiny day and, if asked, the
    simulated day once, compiling their kernels or loading them from numba's cache.

    Only a warm-up: it ignores Ctrl-C (the parent stops it) and any failure (the parent then
    compiles the kernels itself).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        from explodice.day.optimal import optimal_policy

        day, rules, simulated = pickle.loads(bytes.fromhex(what)) if what else (None,) * 3
        hero = Character("warm-up", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
        tiny = Scenario([hero], [DayRoll("warm-up", ability="STR")])
        exact_day(tiny if day is None else day, rules)
        # the optimal player on the day's first rolls: its backward pass (the chain's pull
        # kernels, `decide`) runs only where a roll drains a gauge, which a tiny day may not
        # (and `decide`, in the comparison and thresholds the day-policies page reads)
        short = tiny if day is None else _first_rolls(day)
        best = optimal_policy(short) if rules is None else optimal_policy(short, rules)
        best.compare(lambdas=(0.0,))
        best.to_frame("thresholds")
        if simulated:
            from explodice.day.simulate import simulate_day

            simulate_day(tiny, n_days=1, seed=0, threads=1)
    except Exception:  # noqa: BLE001 - a warm-up that fails costs only time
        pass


def _first_rolls(day: Scenario, n: int = 3) -> Scenario:
    """``day`` cut to its first ``n`` rolls, each once (its party and gauges as they are): the
    same kernels as the whole day, in a fraction of its time."""
    try:
        rolls = tuple(dataclasses.replace(r, repeat=1) for r in day.rolls[:n])
        return day.replace(rolls=rolls, rolls_per_day=None)
    except Exception:  # noqa: BLE001 - a day that cannot be cut: played whole
        return day


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
    """End the warm-up process, if any (:func:`.drawing.stop`: terminated, killed if it
    lingers; harmless on one already ended)."""
    if proc is not None:
        from explodice.present.report.drawing import stop as stop_helper

        stop_helper(proc)
