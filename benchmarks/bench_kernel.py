"""Side-by-side benchmark of the single-roll CPU kernel: two versions of explodice, one run.

    python benchmarks/bench_kernel.py                          # a216fc1 (before issue 15) vs here
    python benchmarks/bench_kernel.py a216fc1 HEAD --n 100000000 --repeats 3

`python benchmarks/bench_kernel.py [BEFORE [AFTER]]` times ``ex.simulate`` in each version
(checked out into a temporary worktree and run in its own process by ``bench_versions.py``;
BEFORE defaults to a216fc1, main just before issue 15's kernel, AFTER to the working tree)
for plain 3d6x, advantage (4d6x), disadvantage read as "subtract" (a malus die on every roll),
a check under the rule of 1 with its drain, and the same with Lucky (the face-by-face kernel),
on 1 and 2 threads. Calls alternate between
the two versions and the best of ``--repeats`` is kept, since these machines are shared and
noisy. It also checks that both versions give the same mean total and drain within a few
standard errors (the exact engine checks each kernel on its own in the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_versions import versions  # noqa: E402

BEFORE = "a216fc1"  # main before issue 15's kernel (the same kernel as d12d814)

# What each version runs (public names only): the cases, a timed call, and the means.
PROBE = r"""
import time
import explodice as ex

CASES = {
    "plain 3d6x": (ex.Roll(0, kind="attack"), ex.Rules()),
    "advantage (4d6x)": (ex.Roll(0, kind="attack", advantage="advantage"), ex.Rules()),
    "disadvantage, subtract (malus die)": (
        ex.Roll(0, kind="attack", advantage="disadvantage"), ex.Rules()),
    "rule of 1 + drain": (ex.Roll(0, kind="check"), ex.Rules()),
    "Lucky + drain (face by face)": (ex.Roll(0, kind="check", reroll="one"), ex.Rules()),
}

def timed(case, n, threads, seed=1):
    roll, rules = CASES[case]
    t = time.perf_counter()
    ex.simulate(roll, rules, n=n, seed=seed, threads=threads, progress=False)
    return time.perf_counter() - t

def means(case, n, seed):
    roll, rules = CASES[case]
    d = ex.simulate(roll, rules, n=n, seed=seed, progress=False)
    return d.mean, d.drain_mean

def spread(case):  # the variances of one roll's total and drain, by the exact engine
    e = ex.exact(*CASES[case])
    drains = sum(p * k * k for k, p in enumerate(e.drain_pmf.tolist()))
    return e.std**2, drains - e.drain_mean**2
"""
CASES = (
    "plain 3d6x",
    "advantage (4d6x)",
    "disadvantage, subtract (malus die)",
    "rule of 1 + drain",
    "Lucky + drain (face by face)",
)


def measure(before, after, n: int, repeats: int, thread_counts: list[int]) -> list[dict]:
    rows = []
    for case in CASES:
        for threads in thread_counts:
            for version in (before, after):  # compile / load the cache
                version.call("timed", case=case, n=10_000, threads=threads, seed=0)
            t_old, t_new = [], []
            for _ in range(repeats):
                t_old.append(before.call("timed", case=case, n=n, threads=threads))
                t_new.append(after.call("timed", case=case, n=n, threads=threads))
            r_old, r_new = n / min(t_old), n / min(t_new)
            rows.append(
                {
                    "case": case,
                    "threads": threads,
                    "before M rolls/s": r_old / 1e6,
                    "after M rolls/s": r_new / 1e6,
                    "after / before": r_new / r_old,
                }
            )
    return rows


def agreement(before, after, n: int) -> list[dict]:
    """Mean total and drain of both versions on ``n`` rolls, and their gap in standard errors
    (the variances from the exact engine of the version after)."""
    rows = []
    for case in CASES:
        t_old, dr_old = before.call("means", case=case, n=n, seed=3)
        t_new, dr_new = after.call("means", case=case, n=n, seed=2)
        var_t, var_d = after.call("spread", case=case)
        gap_d = (dr_new - dr_old) / np.sqrt(2 * var_d / n) if var_d > 0 else 0.0
        rows.append(
            {
                "case": case,
                "mean total gap (SE)": (t_new - t_old) / np.sqrt(2 * var_t / n),
                "mean drain gap (SE)": gap_d,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", nargs="?", default=BEFORE, help=f"a commit (default {BEFORE})")
    parser.add_argument(
        "after", nargs="?", default=".", help="a commit (default: the working tree)"
    )
    parser.add_argument("--n", type=int, default=200_000_000, help="rolls per timing")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--check-n", type=int, default=20_000_000)
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    args = parser.parse_args()
    with versions([args.before, args.after], PROBE) as (before, after):
        result = {
            "date": time.strftime("%Y-%m-%d %H:%M"),
            "before": args.before,
            "after": args.after,
            "load average": os.getloadavg()[0],
            "rates": measure(before, after, args.n, args.repeats, args.threads),
            "agreement": agreement(before, after, args.check_n),
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"## Single-roll kernel, {args.before} / {args.after}, {result['date']} "
        f"(load average {result['load average']:.1f} at the start)\n"
    )
    for key in ("rates", "agreement"):
        cols = list(result[key][0])
        print("| " + " | ".join(cols) + " |")
        print("|" + "---|" * len(cols))
        for row in result[key]:
            print(
                "| "
                + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row.values())
                + " |"
            )
        print()


if __name__ == "__main__":
    main()
