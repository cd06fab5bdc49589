"""The numbers of the day's surfaces, two versions side by side in one run: the data of the
report's pages ``day`` and ``readings`` and the explorer's party day (``explorer_data``), on the
embedded default configuration, each version in its own process (its ``src`` on PYTHONPATH),
alternating A, B, A, B. Reports CPU seconds (less sensitive than wall time to a loaded
machine) and wall seconds.

    python benchmarks/bench_day_pages.py /work/main/src src --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import json, time, resource
from explodice.present.config import load_config
from explodice.present.report.kit import Context
from explodice.present.report.pages import day, readings
from explodice.present.explorer.data import explorer_data
ctx = Context(load_config(), "x", "2026-12-05")
wall, cpu = time.perf_counter(), time.process_time()
day.data(ctx)
readings.data(ctx)
explorer_data(ctx.config)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}))
"""


def run(src: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args(argv)
    got: dict[str, list[dict[str, float]]] = {args.a: [], args.b: []}
    for src in (args.a, args.b):  # warm-up: numba's cache
        run(src)
    for _ in range(args.rounds):
        for src in (args.a, args.b):
            t = run(src)
            got[src].append(t)
            print(f"{src}: cpu {t['cpu']:.1f} s, wall {t['wall']:.1f} s", flush=True)
    for what in ("cpu", "wall"):
        a, b = (statistics.median(t[what] for t in got[s]) for s in (args.a, args.b))
        print(f"{what}: median A {a:.1f} s, B {b:.1f} s; B/A = {b / a:.2f}")


if __name__ == "__main__":
    main()
