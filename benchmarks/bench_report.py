"""The whole report, two versions side by side in one run: ``explodice report`` of the
embedded default configuration, timed wall clock, alternating A, B, A, B after one warm-up run
of each (numba's cache filled), each in its own process with its own ``src`` on PYTHONPATH.

    python benchmarks/bench_report.py /work/main/src src      # today's main against this tree
    python benchmarks/bench_report.py /work/main/src src --rounds 3

Prints each version's runs, their medians and the ratio B/A of times (below 1: B is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_report(src: str, out: Path) -> float:
    """Seconds of one ``explodice report --out out`` with ``src`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "explodice.present.cli", "report", "--out", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", help="the src folder of version A (the baseline)")
    p.add_argument("b", help="the src folder of version B")
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args(argv)
    times: dict[str, list[float]] = {args.a: [], args.b: []}
    with tempfile.TemporaryDirectory() as tmp:
        for src in (args.a, args.b):  # warm-up: numba's cache, the explorer's bundle
            run_report(src, Path(tmp) / "warm")
        for i in range(args.rounds):
            for src in (args.a, args.b):
                seconds = run_report(src, Path(tmp) / f"r{i}")
                times[src].append(seconds)
                print(f"{src}: {seconds:.1f} s", flush=True)
    a, b = (statistics.median(times[s]) for s in (args.a, args.b))
    print(f"median A {a:.1f} s, B {b:.1f} s; B/A = {b / a:.2f}")


if __name__ == "__main__":
    main()
