"""Benchmark of the day kernel (:func:`explodice.simulate_day`): rolls per second.

    python benchmarks/bench_day.py                    # about a minute on 2 cores
    python benchmarks/bench_day.py --days 1000000 --repeat 5 --threads 1

Each scenario is compiled once into the kernel's arrays (:func:`explodice.day.simulate.kernel_day`
of :func:`explodice.day.compiled.compile_day`, the optimal policy's choice tables included
where the scenario plays it), then the kernel runs the chunks, seeds and lanes simulate_day
gives it, best of ``--repeat`` kept (these machines are shared and noisy; the kernel before
issue 13's part 3 read the 26-key dict of arrays issue 22 replaced, so it is compared with
``benchmarks/bench_versions.py`` now). Rates are given per second of wall time and per second of
this process's CPU time (per core: what other processes take from the machine does not count;
on one thread the two agree on a quiet machine). The kernel's mean drain per roll and success rate are
checked against :func:`explodice.exact_day` (a few standard errors). The single-roll kernel
(:func:`explodice.simulate`, with drain) is timed too, for reference. Prints markdown tables
for ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time

import numba
import numpy as np

import explodice as ex
from explodice.day import _kernel as day_kernel
from explodice.day.compiled import compile_day
from explodice.day.simulate import accumulators, kernel_day
from explodice.engine.chunks import lanes, run_chunks
from explodice.engine.seeding import chunk_sizes, stream_seeds

SCORES = dict(STR=16, DEX=14, CON=14, INT=12, WIS=12, CHA=10)
CHUNK_DAYS = 4096


def scenarios() -> dict[str, tuple[ex.Scenario, bool]]:
    """Name -> (scenario, whether it is played by its optimal policy)."""
    one = ex.Character("Solo", SCORES, gauge_max={"PA": 20, "PM": 0, "PF": 0, "PH": 0})
    one_gauge = ex.Scenario([one], [ex.DayRoll("Solo", skill="Athletics", dc=16, repeat=40)])
    party = [
        ex.Character("A", SCORES, level=3, gauge_per_level={"PA": 3}),
        ex.Character("B", SCORES, level=5, policy="cancel"),
        ex.Character("C", SCORES, level=2, gauge_per_level={"PM": 2}),
    ]
    mix = [
        ex.DayRoll("A", skill="Athletics", dc=16, weight=3),
        ex.DayRoll("A", ability="CON", kind="save", dc=14),
        ex.DayRoll("B", skill="Stealth", dc=15, advantages=1, weight=2),
        ex.DayRoll("C", skill="Arcana", dc=18, weight=2),
        ex.DayRoll("C", ability="WIS", kind="save", dc=12),
    ]
    best = ex.Character("Best", SCORES, policy=ex.Best(0, 0.1))
    return {
        "one gauge of 20, Athletics repeated (keep)": (one_gauge, False),
        "one gauge of 20, Athletics repeated (optimal policy)": (one_gauge, True),
        "party of 3, mix of 5 roll types, 60 rolls/day": (
            ex.Scenario(party, mix, rolls_per_day=60),
            False,
        ),
        "best(λ=0.1), 2 roll types, 40 rolls/day": (
            ex.Scenario(
                [best],
                [
                    ex.DayRoll("Best", ability="DEX", dc=15),
                    ex.DayRoll("Best", ability="INT", dc=13),
                ],
                rolls_per_day=40,
            ),
            False,
        ),
    }


def run(scenario: ex.Scenario, policy, n_days: int, seed: int, threads: int):
    """Days of ``scenario`` by the day kernel, as simulate_day drives it: the summed
    accumulators."""
    day = compile_day(scenario, ex.Rules())
    sizes = chunk_sizes(n_days, CHUNK_DAYS)
    seeds = stream_seeds(np.random.SeedSequence(seed), sizes.size)
    outs = [accumulators(day) for _ in range(lanes(sizes.size, threads))]
    args = kernel_day(day, policy).arguments()

    def work(c: int, t: int) -> None:
        day_kernel.day_chunk(seeds[c], sizes[c], outs[t], **args)

    run_chunks(work, sizes * scenario.n_rolls, threads=threads)
    return [sum(out[i] for out in outs) for i in range(len(outs[0]))]


def agreement(scenario, policy, per_roll, n_days) -> tuple[float, float]:
    """Largest gaps, in standard errors, of the success rate and mean drain of each roll
    against the exact day."""
    e = ex.exact_day(scenario, policy=policy) if policy is not None else ex.exact_day(scenario)
    p = np.asarray(e.succ_t, float)
    gap_s = np.abs(per_roll[:, 0] / n_days - p) / np.sqrt(np.maximum(p * (1 - p), 1e-12) / n_days)
    # the drain's spread: bounded by the exact mean's scale (a rough SE, the drain is ~4x its
    # mean at most per roll); enough to catch a wrong law, not a calibrated test
    d = np.asarray(e.drain_t, float)
    gap_d = np.abs(per_roll[:, 1] / n_days - d) / np.sqrt(np.maximum(25 * d, 1e-12) / n_days)
    return float(gap_s.max()), float(gap_d.max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=500_000, help="days per timed run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="*", default=None)
    args = parser.parse_args(argv)
    limit = numba.config.NUMBA_NUM_THREADS
    threads = args.threads or sorted({1, limit})
    print(
        f"# day kernel, {datetime.datetime.now():%Y-%m-%d %H:%M}, "
        f"{os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    print("\n| scenario | threads | rolls | M rolls/s | M rolls/CPU-s |\n|---|---|---|---|---|")
    checks = []
    for name, (s, optimal) in scenarios().items():
        policy = ex.optimal_policy(s) if optimal else None
        run(s, policy, 100, 0, 1)  # compile / load the cache
        for th in threads:
            wall = cpu = np.inf
            for _ in range(args.repeat):
                t, c = time.perf_counter(), time.process_time()
                run(s, policy, args.days, 1, th)
                wall = min(wall, time.perf_counter() - t)
                cpu = min(cpu, time.process_time() - c)
            rolls = args.days * s.n_rolls
            print(
                f"| {name} | {th} | {rolls:,} | {rolls / wall / 1e6:.1f} | "
                f"{rolls / cpu / 1e6:.1f} |"
            )
        per_roll = run(s, policy, 200_000, 2, limit)[1]
        checks.append((name, *agreement(s, policy, per_roll, 200_000)))
    n = args.days * 40
    ex.simulate(ex.Roll(2), n=1000, seed=0, threads=1)
    for th in threads:
        t = time.perf_counter()
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            ex.simulate(ex.Roll(2), n=n, seed=1, threads=th)
            t = min(t, time.perf_counter() - t0) if _ else time.perf_counter() - t0
        print(
            f"| single-roll kernel `simulate(Roll(2))`, rule of 1 + drain (reference) | {th} "
            f"| {n:,} | | {n / t / 1e6:.1f} | |"
        )
    print("\n| scenario | largest success gap (SE) | largest drain gap (rough SE) |\n|---|---|---|")
    for name, gs, gd in checks:
        print(f"| {name} | {gs:.2f} | {gd:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
