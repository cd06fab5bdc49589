"""The cold report (issue 34): ``explodice report`` of the embedded default configuration with
the cache of answers empty (numba's cache warm), versions alternated round by round, each run
its own process tree; prints its wall seconds and the CPU seconds of the whole tree (the
report's process and its helpers: steadier than the wall on a shared machine), then the
medians and the ratios to the first version.

    python benchmarks/bench_cold.py A=/tmp/main-src B=/tmp/cold-src \\
        B1=/tmp/cold-src:EXPLODICE_DATA_HELPER=1 --rounds 2

Each version is ``NAME=SRC`` with ``:VAR=VALUE`` settings after it. Run a report of each
version first if numba's cache of its ``src`` may be empty.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def cold_report(src: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one cold report with ``src`` on the path; its first stderr line."""
    with tempfile.TemporaryDirectory() as tmp:
        full = dict(os.environ, PYTHONPATH=str(src.resolve()), **env)
        full["EXPLODICE_ANSWER_CACHE"] = f"{tmp}/answers"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-m", "explodice.present.cli", "report", "--no-progress"]
            + ["--out", f"{tmp}/out"],
            env=full,
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, (out.stderr.strip().splitlines() or [""])[0]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("versions", nargs="+", help="NAME=SRC[:VAR=VALUE...], the first the baseline")
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args(argv)
    versions = []
    for v in args.versions:
        name, _, rest = v.partition("=")
        src, *settings = rest.split(":")
        versions.append((name, Path(src), dict(s.split("=", 1) for s in settings)))
    walls: dict[str, list[float]] = {name: [] for name, _, _ in versions}
    for _ in range(args.rounds):
        for name, src, env in versions:
            load = os.getloadavg()[0]
            wall, cpu, said = cold_report(src, env)
            walls[name].append(wall)
            print(
                f"{name:10s} {wall:6.1f} s  CPU {cpu:5.1f} s  load {load:4.1f}  {said}", flush=True
            )
    base = statistics.median(walls[versions[0][0]])
    print("\nmedians and ratios to the first (below 1: faster):")
    for name, runs in walls.items():
        m = statistics.median(runs)
        print(f"  {name:10s} {m:6.1f} s  {m / base:5.2f}  ({', '.join(f'{r:.1f}' for r in runs)})")


if __name__ == "__main__":
    main()
