"""Side-by-side benchmark of the engine (issue 2): run `make bench` or `python benchmarks/bench_engine.py`.

Everything is measured in one run, interleaved, and reported as rates and ratios, since
these machines are shared and noisy:
- the numba kernel (``simulate``) for plain 3d6x, advantage, and a check under the rule of 1
  with its drain, on 1 and 2 threads, against a vectorised numpy implementation;
- the exact engine on the full DC table and on one ``best(λ)`` policy;
- the peak memory of one call of 10**9 rolls (in a fresh process).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from numpy_reference import numpy_rolls  # noqa: E402

import explodice as ex  # noqa: E402
from explodice.engine.exact import _joint  # noqa: E402

CASES = {
    "plain 3d6x": (ex.Roll(0, kind="attack"), dict(pool=3, drain=False)),
    "advantage (4d6x)": (
        ex.Roll(0, kind="attack", advantage="advantage"),
        dict(pool=4, drain=False),
    ),
    "rule of 1 + drain": (ex.Roll(0, kind="check"), dict(pool=3, drain=True)),
}


def best_of(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def kernel_rates(n: int, n_numpy: int, repeats: int) -> list[dict]:
    rows = []
    for name, (roll, np_kwargs) in CASES.items():
        ex.simulate(roll, n=10_000, seed=0, threads=1)  # compile / load the cache
        ex.simulate(roll, n=10_000, seed=0, threads=2)
        t1 = best_of(lambda: ex.simulate(roll, n=n, seed=1, threads=1, progress=False), repeats)
        t2 = best_of(lambda: ex.simulate(roll, n=n, seed=1, threads=2, progress=False), repeats)
        tn = best_of(lambda: numpy_rolls(n_numpy, seed=1, **np_kwargs), repeats)
        r1, r2, rn = n / t1, n / t2, n_numpy / tn
        rows.append(
            {
                "case": name,
                "numpy M/s": rn / 1e6,
                "kernel 1 thread M/s": r1 / 1e6,
                "kernel 2 threads M/s": r2 / 1e6,
                "kernel/numpy (1 thread)": r1 / rn,
                "2 threads / 1 thread": r2 / r1,
            }
        )
    return rows


def exact_times(repeats: int) -> dict:
    table_rules = [ex.Rules(), ex.Rules(disadvantage="drop")]
    dcs = np.array([8, 12, 16, 22, 28, 35])

    def full_table():
        _joint.cache_clear()
        grid = []
        for rules in table_rules:
            for adv in ("normal", "advantage", "disadvantage"):
                if adv != "disadvantage" and rules.disadvantage == "drop":
                    continue
                base = ex.exact(ex.Roll(0, advantage=adv), rules)
                for mod in range(-5, 11):
                    grid.append(base.p_success(dcs - mod))
        return np.array(grid)

    def table_api():
        _joint.cache_clear()
        return ex.success_table()

    def best_one_dc():
        _joint.cache_clear()
        from explodice.engine.rule_of_one import policy_table

        policy_table.cache_clear()
        return ex.exact(ex.Roll(4, policy=ex.Best(16, 0.05))).p_success(16)

    full_table(), best_one_dc()
    out = {
        "full table, engine (ms)": 1e3 * best_of(full_table, repeats),
        "best(λ) one DC (ms)": 1e3 * best_of(best_one_dc, repeats),
    }
    if hasattr(ex, "success_table"):
        table_api()
        out["full table, success_table() (ms)"] = 1e3 * best_of(table_api, repeats)
    return out


def peak_memory(n: int) -> dict:
    code = (
        "import resource, explodice as ex;"
        "ex.simulate(ex.Roll(0), n=1000, seed=0);"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss;"
        f"d = ex.simulate(ex.Roll(0), n={n}, seed=0, progress=False);"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss;"
        "print(base, peak, d.n)"
    )
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    base, peak, done = map(int, res.stdout.split())
    return {
        "rolls": done,
        "seconds": time.perf_counter() - t,
        "peak RSS (MiB)": peak / 1024,
        "peak RSS above an import (MiB)": (peak - base) / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200_000_000, help="kernel rolls per timing")
    parser.add_argument("--n-numpy", type=int, default=5_000_000, help="numpy rolls per timing")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-rolls", type=int, default=1_000_000_000)
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    args = parser.parse_args()

    result = {
        "date": time.strftime("%Y-%m-%d"),
        "kernel": kernel_rates(args.n, args.n_numpy, args.repeats),
        "exact": exact_times(max(args.repeats, 5)),
        "memory": peak_memory(args.memory_rolls),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"## Engine benchmark, {result['date']}\n")
    cols = list(result["kernel"][0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for row in result["kernel"]:
        print(
            "| "
            + " | ".join(f"{v:.1f}" if isinstance(v, float) else str(v) for v in row.values())
            + " |"
        )
    print()
    for k, v in result["exact"].items():
        print(f"- exact engine, {k}: {v:.2f}")
    m = result["memory"]
    print(
        f"- {m['rolls']:.0e} rolls in one call: {m['seconds']:.1f} s, peak RSS {m['peak RSS (MiB)']:.0f} MiB "
        f"({m['peak RSS above an import (MiB)']:.0f} MiB above the process after import)"
    )


if __name__ == "__main__":
    main()
