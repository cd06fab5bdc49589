"""The exact day (:func:`explodice.exact_day`) and the optimal policy
(:func:`explodice.optimal_policy`), side by side with another version, in one run.

    python benchmarks/bench_exact_day.py 0170875           # that commit against the working tree
    python benchmarks/bench_exact_day.py 0170875 --rounds 2 --levels 10 20
    python benchmarks/bench_exact_day.py main --kernels plain  # the tree on the plain twin

The case of issue 22: one character whose four gauges all grow with its level (level 10:
PA 44, PM 20, PF 22, PH 20; level 20: PA 74, PM 30, PF 32, PH 30), a day of 40 rolls drawn
from five skill checks over the four gauges (Athletics 3, Acrobatics 2, Arcana, Perception,
Persuasion 1 each, DC 15: every roll drains, every drain can overflow into the three other
gauges). Each version is checked out into a temporary git worktree (as
``bench_versions.py`` does) and each timing runs in a fresh process of that version (numba's
cache warmed by a small day first), rounds alternating A, B, A, B, so the machine's noise
falls on both alike; wall and process CPU seconds are kept (best of the rounds); the
version after runs on one thread and on two (``threads=``, where it takes them). Each process
also saves what it computed, and the two versions' answers are compared: the largest
difference over every array of the exact day and over the optimal values (absolute for
probabilities, relative for expected counts and points above 1). Prints markdown
tables for ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_versions import checkout, remove_worktrees  # noqa: E402

GAUGES_AT = {  # the levels: PA, PM, PF, PH maxima
    10: (44, 20, 22, 20),
    20: (74, 30, 32, 30),
}

# One timing, run inside the version's own interpreter (public names only).
PROBE = r"""
import json, sys, time
import numpy as np
import explodice as ex

what, gauges, rolls, out = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
threads = int(sys.argv[5])
import inspect
kw = {"threads": threads} if "threads" in inspect.signature(ex.exact_day).parameters else {}
SCORES = {"STR": 16, "DEX": 14, "CON": 14, "INT": 12, "WIS": 12, "CHA": 10}
SKILLS = (("Athletics", 3), ("Acrobatics", 2), ("Arcana", 1), ("Perception", 1), ("Persuasion", 1))

def day(g, n):
    who = ex.Character("Solo", SCORES, gauge_max=dict(zip(("PA", "PM", "PF", "PH"), g)))
    types = [ex.DayRoll("Solo", skill=k, dc=15, weight=w) for k, w in SKILLS]
    return ex.Scenario([who], types, rolls_per_day=n)

warm = day((3, 2, 2, 2), 3)
ex.exact_day(warm, **kw), ex.optimal_policy(warm, **kw)  # numba's cache, or compile
s = day(gauges, rolls)
wall, cpu = time.perf_counter(), time.process_time()
if what == "exact_day":
    r = ex.exact_day(s, **kw)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    np.savez(out, **{k: getattr(r, k) for k in ("first", "succ_t", "drain_t", "by_type", "end",
                                               "sums", "lost_sum")}, omitted=r.omitted)
else:
    best = ex.optimal_policy(s, **kw)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    np.savez(out, value=np.array([best.value["Solo"]]))
print(json.dumps({"wall": wall, "cpu": cpu}))
"""


def run(
    tree: Path, what: str, gauges: tuple[int, ...], rolls: int, out: Path, threads: int, cpu: str,
    kernels: str = "",
) -> dict:  # fmt: skip
    """One timing of ``what`` in a fresh process of the version checked out at ``tree``
    (``threads`` for a version whose exact day takes them; ``cpu``, when given: numba compiles
    for that CPU instead of this machine's, e.g. haswell for AVX2 alone; ``kernels``, when
    given: the exact day's Horner schemes, ``EXPLODICE_KERNELS``)."""
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"}
    if kernels:
        env["EXPLODICE_KERNELS"] = kernels
    if cpu:  # numba compiles for that CPU (its instructions only: an older machine's code)
        env["NUMBA_CPU_NAME"] = cpu
    done = subprocess.run(
        [sys.executable, "-c", PROBE, what, json.dumps(gauges), str(rolls), str(out), str(threads)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def largest_gap(a: Path, b: Path) -> tuple[float, str]:
    """The largest difference between two saved answers, and the array it is in: absolute
    for probabilities, relative for the expected counts and points above 1 (``by_type``,
    ``sums``, the values), so that rounding in a sum of 40 rolls is not read as a change."""
    with np.load(a) as x, np.load(b) as y:
        return max(
            (float((np.abs(x[k] - y[k]) / np.maximum(1.0, np.abs(x[k]))).max()), k) for k in x.files
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the version before (a commit)")
    parser.add_argument("b", nargs="?", default=".", help="the version after (default: the tree)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--levels", type=int, nargs="*", default=[10, 20], choices=GAUGES_AT)
    parser.add_argument("--rolls", type=int, default=40)
    parser.add_argument("--cpu", default="", help="numba's target CPU (haswell: AVX2 only)")
    parser.add_argument(
        "--kernels", default="", choices=["", "vector", "plain"],
        help="the Horner schemes of the version after (EXPLODICE_KERNELS; default: its own)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    began = datetime.datetime.now()
    runs = [(args.a, 1), (args.b, 1), (args.b, 2)]  # the version after on one thread and two
    with tempfile.TemporaryDirectory() as tmp:
        trees = {v: checkout(v, Path(tmp)) for v in (args.a, args.b)}
        best: dict[tuple[str, int, int, str], dict[str, float]] = {}
        gaps: dict[tuple[int, str], tuple[float, str]] = {}
        try:
            for _ in range(args.rounds):
                for level in args.levels:
                    for what in ("exact_day", "optimal_policy"):
                        saved = {}
                        for version, threads in runs:
                            name = f"{version.replace('/', '_')}-{threads}-{level}-{what}.npz"
                            saved[version, threads] = Path(tmp) / name
                            kernels = args.kernels if version == args.b else ""
                            t = run(trees[version], what, GAUGES_AT[level], args.rolls,
                                    saved[version, threads], threads, args.cpu, kernels)  # fmt: skip
                            key = (version, threads, level, what)
                            old = best.get(key, {"wall": np.inf, "cpu": np.inf})
                            best[key] = {k: min(old[k], t[k]) for k in old}
                        gaps[level, what] = max(
                            largest_gap(saved[runs[0]], saved[r]) for r in runs[1:]
                        )
        finally:
            remove_worktrees(trees)
    report(args, best, gaps, load, began)
    return 0


def report(
    args: argparse.Namespace, best: dict, gaps: dict, load: float, began: datetime.datetime
) -> None:
    """The markdown table."""
    a, b = args.a, args.b
    print(
        f"# exact day, {began:%Y-%m-%d %H:%M} to {datetime.datetime.now():%H:%M}, "
        f"{os.cpu_count()} CPUs, "
        f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
        f"best of {args.rounds} round(s), {args.rolls} rolls a day"
        + (f", numba compiling for {args.cpu}" if args.cpu else "")
        + (f", {args.b} on EXPLODICE_KERNELS={args.kernels}" if args.kernels else "")
    )
    print(
        f"\n| level (PA, PM, PF, PH) | states | call | {a} s | {b} s, 1 thread | ratio "
        f"| {b} s, 2 threads | ratio | {a} CPU-s | {b} CPU-s, 1 thread | CPU ratio "
        "| largest difference |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    for level in args.levels:
        g = GAUGES_AT[level]
        states = int(np.prod([x + 1 for x in g]))
        for what in ("exact_day", "optimal_policy"):
            ta, t1, t2 = (best[v, th, level, what] for v, th in ((a, 1), (b, 1), (b, 2)))
            gap, where = gaps[level, what]
            print(
                f"| {level} {g} | {states:,} | `{what}` | {ta['wall']:.2f} | {t1['wall']:.2f} | "
                f"**{ta['wall'] / t1['wall']:.1f}x** | {t2['wall']:.2f} | "
                f"**{ta['wall'] / t2['wall']:.1f}x** | {ta['cpu']:.2f} | {t1['cpu']:.2f} | "
                f"{ta['cpu'] / t1['cpu']:.1f}x | {gap:.1e} ({where}) |"
            )


if __name__ == "__main__":
    raise SystemExit(main())
