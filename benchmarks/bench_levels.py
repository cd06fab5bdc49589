"""Benchmark of the levels workbench (issue 24): the four questions on the reference builds,
part by part, the exact day's share, and how the time grows with builds, rolls and levels.

    python benchmarks/bench_levels.py            # about two minutes on the 2-core machine
    python benchmarks/bench_levels.py --quick    # the workbench only

The workbench, as a designer runs it once in a fresh session (every cache of the exact engine
and of the level analyses empty; numba's kernels loaded beforehand, timed on their own):
progression for every reference build, level 1-20, band and both systems; the level-based DC
table of every build; gauge sizing for 20 levels on the default day (``build_day``: 12 rolls
of the build's own tests at DC 16) and on the report's party day (each build in Gudulf's
place); the save-DC fit. Target: at most 60 s. Prints markdown tables for
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba

import explodice as ex
from explodice.analysis import levels as analysis_levels
from explodice.day import exact as day_exact
from explodice.day.scenario import default_scenario
from explodice.engine.exact import _joint
from explodice.engine.rule_of_one import policy_table


def clear() -> None:
    """Empty every cache the questions fill (a fresh session), numba's kernels aside."""
    analysis_levels.clear_caches()
    _joint.cache_clear()
    policy_table.cache_clear()


class DayClock:
    """Counts the seconds spent inside the exact day (``exact_day``) while it is installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self._real = day_exact.exact_day

    def __enter__(self) -> DayClock:
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return self._real(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - began
                self.calls += 1

        day_exact.exact_day = timed
        return self

    def __exit__(self, *exc: Any) -> None:
        day_exact.exact_day = self._real


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - began, out


def renamed(builds: list[ex.Build], copies: int) -> list[ex.Build]:
    """``copies`` times the builds, each copy under its own name."""
    return [b.replace(name=f"{b.name}-{i}") for i in range(copies) for b in builds]


def workbench(builds: list[ex.Build]) -> list[tuple[str, float, str]]:
    """Each part of the workbench, cold: (part, seconds, what it gave)."""
    party = default_scenario()
    rows = []
    clear()
    sec, t = timed(ex.progression, builds)
    rows.append(
        (
            "progression (5 builds x 20 levels x tests x 6 bands x 2 systems)",
            sec,
            f"{len(t):,} rows",
        )
    )
    sec, t = timed(ex.level_dcs, build=builds)
    rows.append(("level_dcs (5 builds, 6 bands, 20 levels)", sec, f"{len(t):,} rows"))
    with DayClock() as clock:
        sec, t = timed(ex.size_gauges, builds)
    rows.append(
        (
            "size_gauges, default day (build_day), 20 levels",
            sec,
            f"{len(t)} rows; exact day {clock.seconds:.2f} s in {clock.calls} calls",
        )
    )
    with DayClock() as clock:
        sec, t = timed(ex.size_gauges, builds, party, character="Gudulf")
    rows.append(
        (
            "size_gauges, the report's party day (in Gudulf's place), 20 levels",
            sec,
            f"{len(t)} rows; exact day {clock.seconds:.2f} s in {clock.calls} calls",
        )
    )
    sec, fit = timed(ex.fit_save_dc, builds)
    rows.append(
        ("fit_save_dc (5 casters x 5 targets x 6 saves x 20 levels)", sec, f"B = {fit.base}")
    )
    return rows


def growth(builds: list[ex.Build]) -> list[tuple[str, float]]:
    rows = []
    for copies in (1, 2, 4):
        many = renamed(builds, copies)
        clear()
        rows.append((f"progression, {len(many)} builds, cold", timed(ex.progression, many)[0]))
        rows.append((f"progression, {len(many)} builds, warm", timed(ex.progression, many)[0]))
    fighter = builds[0]
    for per_day in (12, 24, 48, 96):
        clear()
        day = ex.build_day(fighter, rolls_per_day=per_day)
        with DayClock() as clock:
            sec = timed(ex.size_gauges, fighter, day)[0]
        rows.append(
            (
                f"size_gauges, fighter, {per_day} rolls a day, 20 levels (exact day {clock.seconds:.2f} s)",
                sec,
            )
        )
    party = default_scenario()
    for level in (1, 10, 20):  # what sizing against the whole day (four gauges, overflow) costs
        placed, _ = analysis_levels.placed_day(fighter, level, party, "Gudulf")
        clear()
        sec = timed(ex.exact_day, placed)[0]
        rows.append(
            (
                f"one exact day of the fighter's own four gauges in Gudulf's place, level {level}",
                sec,
            )
        )
    for n_levels in (5, 10, 20):
        clear()
        sec = timed(ex.size_gauges, builds, levels=range(1, n_levels + 1))[0]
        rows.append((f"size_gauges, 5 builds, {n_levels} levels", sec))
    return rows


def executors(builds: list[ex.Build]) -> list[tuple[str, float]]:
    """The same grid in this process, on threads and on a local pool of 2 (its start counted)."""
    many = renamed(builds, 4)
    rows = []
    for label, executor in (
        ("serial (this process)", "serial"),
        ("threads (2)", ThreadPoolExecutor(2)),
        ("local process pool (2 workers)", "local"),
    ):
        clear()  # progression runs no grid (computed directly): the exact days only
        kw = {"workers": 2} if executor == "local" else {}
        rows.append(
            (
                f"size_gauges, 20 builds: {label}",
                timed(ex.size_gauges, many, executor=executor, progress=False, **kw)[0],
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the workbench only")
    args = parser.parse_args(argv)
    print(
        f"# levels workbench, {datetime.datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} CPUs, "
        f"numba {numba.__version__}, load average {os.getloadavg()[0]:.1f}"
    )
    builds = ex.reference_builds()
    load, _ = timed(ex.exact_day, ex.build_day(builds[0])(1))  # numba's kernels, from the cache
    print(f"\nnumba's day kernels loaded in {load:.2f} s (once a session, not counted below)\n")
    print("| part | seconds | result |")
    print("|---|---:|---|")
    parts = workbench(builds)
    for part, sec, what in parts:
        print(f"| {part} | {sec:.2f} | {what} |")
    print(f"| **workbench total** | **{sum(s for _, s, _ in parts):.2f}** | target 60 s |")
    if args.quick:
        return 0
    print("\n| growth | seconds |")
    print("|---|---:|")
    for label, sec in growth(builds):
        print(f"| {label} | {sec:.2f} |")
    print("\n| executor | seconds |")
    print("|---|---:|")
    for label, sec in executors(builds):
        print(f"| {label} | {sec:.2f} |")
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
