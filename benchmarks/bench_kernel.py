"""Side-by-side benchmark of the single-roll CPU kernel (issue 15): before and after, one run.

`python benchmarks/bench_kernel.py` times ``simulate`` (the current kernel,
:func:`explodice._kernels.chunk_throws`) against the kernels as they were before issue 15
(``benchmarks/kernels_before.py``, driven through the same chunks, seeds and thread lanes), for
plain 3d6x, advantage (4d6x), disadvantage read as "subtract" (a malus die on every roll) and
a check under the rule of 1 with its drain, on 1 and 2 threads. Calls alternate between the
two kernels and the best of ``--repeats`` is kept, since these machines are shared and noisy.
It also checks that both kernels' histograms have the same mean total and drain within a few
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
import kernels_before  # noqa: E402

import explodice as ex  # noqa: E402
from explodice.engine.chunks import lanes, run_chunks  # noqa: E402
from explodice.engine.compiled import compile_roll  # noqa: E402
from explodice.engine.histogram import HIST_D, HIST_T, HIST_T_LO  # noqa: E402
from explodice.engine.seeding import DEFAULT_CHUNK, chunk_sizes, stream_seeds  # noqa: E402

CASES = {
    "plain 3d6x": (ex.Roll(0, kind="attack"), ex.Rules()),
    "advantage (4d6x)": (ex.Roll(0, kind="attack", advantage="advantage"), ex.Rules()),
    "disadvantage, subtract (malus die)": (
        ex.Roll(0, kind="attack", advantage="disadvantage"),
        ex.Rules(),
    ),
    "rule of 1 + drain": (ex.Roll(0, kind="check"), ex.Rules()),
}


def simulate_before(
    roll: ex.Roll, rules: ex.Rules, *, n: int, seed: int, threads: int
) -> np.ndarray:
    """The histogram ``[ones, drain, total]`` of ``n`` rolls by the kernels before issue 15."""
    sizes = chunk_sizes(n, DEFAULT_CHUNK)
    seeds = stream_seeds(np.random.SeedSequence(seed), sizes.size)
    hists = np.zeros(
        (lanes(sizes.size, threads), kernels_before.N_ONES, HIST_D, HIST_T), dtype=np.int64
    )
    r = compile_roll(roll, rules)  # r.throw_table has the old kernels' default depth
    kernel = kernels_before.chunk_table_drain if r.drains else kernels_before.chunk_table

    def work(c: int, t: int) -> None:
        kernel(hists[t], seeds[c], sizes[c], r.throw_table, r.malus, r.explosion_ones, HIST_T_LO)

    run_chunks(work, sizes, threads=threads)
    return hists.sum(axis=0)


def means(counts: np.ndarray) -> tuple[float, float]:
    """Mean total (kernel column) and mean drain of a histogram ``[ones, drain, total]``."""
    n = counts.sum()
    total = (counts.sum(axis=(0, 1)) @ np.arange(counts.shape[2])) / n
    drain = (counts.sum(axis=(0, 2)) @ np.arange(counts.shape[1])) / n
    return float(total), float(drain)


def measure(n: int, repeats: int, thread_counts: list[int]) -> list[dict]:
    rows = []
    for name, (roll, rules) in CASES.items():
        for threads in thread_counts:

            def new(roll=roll, rules=rules, threads=threads) -> np.ndarray:
                d = ex.simulate(roll, rules, n=n, seed=1, threads=threads, progress=False)
                return d.counts

            def old(roll=roll, rules=rules, threads=threads) -> np.ndarray:
                return simulate_before(roll, rules, n=n, seed=1, threads=threads)

            ex.simulate(roll, rules, n=10_000, seed=0, threads=threads)  # compile / load cache
            simulate_before(roll, rules, n=10_000, seed=0, threads=threads)
            t_old, t_new = [], []
            for _ in range(repeats):
                for fn, times in ((old, t_old), (new, t_new)):
                    t = time.perf_counter()
                    fn()
                    times.append(time.perf_counter() - t)
            r_old, r_new = n / min(t_old), n / min(t_new)
            rows.append(
                {
                    "case": name,
                    "threads": threads,
                    "before M rolls/s": r_old / 1e6,
                    "after M rolls/s": r_new / 1e6,
                    "after / before": r_new / r_old,
                }
            )
    return rows


def agreement(n: int) -> list[dict]:
    """Mean total and drain of both kernels on ``n`` rolls, and their gap in standard errors."""
    rows = []
    for name, (roll, rules) in CASES.items():
        d = ex.simulate(roll, rules, n=n, seed=2, progress=False)
        h_new = np.ascontiguousarray(d.counts.transpose(2, 1, 0))  # -> [ones, drain, total]
        h_old = simulate_before(roll, rules, n=n, seed=3, threads=os.cpu_count() or 1)
        (t_new, dr_new), (t_old, dr_old) = means(h_new), means(h_old)
        t_new += d.lo - roll.modifier - HIST_T_LO  # the same origin as the raw histogram
        e = ex.exact(roll, rules)
        var_t = float(e.total_pmf @ np.arange(e.total_pmf.size) ** 2) - (e.mean - e.lo) ** 2
        var_d = float(e.drain_pmf @ np.arange(e.drain_pmf.size) ** 2) - e.drain_mean**2
        gap_d = (dr_new - dr_old) / np.sqrt(2 * var_d / n) if var_d > 0 else 0.0
        rows.append(
            {
                "case": name,
                "mean total gap (SE)": (t_new - t_old) / np.sqrt(2 * var_t / n),
                "mean drain gap (SE)": gap_d,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200_000_000, help="rolls per timing")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--check-n", type=int, default=20_000_000)
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    args = parser.parse_args()
    result = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "load average": os.getloadavg()[0],
        "rates": measure(args.n, args.repeats, args.threads),
        "agreement": agreement(args.check_n),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"## Single-roll kernel, before / after, {result['date']} "
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
