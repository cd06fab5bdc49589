"""Benchmark of the day kernel (:func:`explodice.simulate_day`), two versions side by side:
rolls per second.

    python benchmarks/bench_day.py                    # 1ac4f23 (before issue 13's part 3) vs here
    python benchmarks/bench_day.py 1ac4f23 HEAD --days 1000000 --repeat 5 --threads 1

Each version (BEFORE defaults to 1ac4f23, main before issue 13's part 3; AFTER to the working
tree) is checked out into a temporary worktree and runs in its own process
(``bench_versions.py``); both play the same scenarios (:func:`scenarios`, the optimal policy
computed by each version where the scenario plays it) through ``simulate_day`` with the same
seeds, calls alternating, best of ``--repeat`` kept (these machines are shared and noisy). Rates are given per second of wall time and per second of
this process's CPU time (per core: what other processes take from the machine does not count;
on one thread the two agree on a quiet machine). Both kernels' mean drain per roll and success rate are
checked against :func:`explodice.exact_day` (a few standard errors). The single-roll kernel
(:func:`explodice.simulate`, with drain) is timed too, for reference. Prints markdown tables
for ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_versions import versions  # noqa: E402

import explodice as ex  # noqa: E402

SCORES = dict(STR=16, DEX=14, CON=14, INT=12, WIS=12, CHA=10)
BEFORE = "1ac4f23"  # main before issue 13's part 3 (the day kernel in blocks of 256 days)


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
    lucky = ex.Character(
        "Lucky", SCORES, gauge_max={"PA": 20, "PM": 0, "PF": 0, "PH": 0}, reroll=ex.Reroll("one")
    )
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
        "Lucky, one gauge of 20, Athletics repeated (face by face)": (
            ex.Scenario([lucky], [ex.DayRoll("Lucky", skill="Athletics", dc=16, repeat=40)]),
            False,
        ),
    }


# What each version runs: this file's scenarios, played through the version's simulate_day.
PROBE = rf"""
import sys, time
sys.path.insert(0, {str(Path(__file__).parent)!r})
import explodice as ex
from bench_day import scenarios

SCENARIOS = scenarios()
POLICIES = {{name: ex.optimal_policy(s) for name, (s, optimal) in SCENARIOS.items() if optimal}}

def run(name, n_days, seed, threads):  # wall and CPU seconds, successes and drain per roll
    wall, cpu = time.perf_counter(), time.process_time()
    res = ex.simulate_day(SCENARIOS[name][0], n_days=n_days, seed=seed, threads=threads,
                          policy=POLICIES.get(name), progress=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, res.succ_t.tolist(), res.drain_t.tolist()
"""


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
    parser.add_argument("before", nargs="?", default=BEFORE, help=f"a commit (default {BEFORE})")
    parser.add_argument(
        "after", nargs="?", default=".", help="a commit (default: the working tree)"
    )
    parser.add_argument("--days", type=int, default=500_000, help="days per timed run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="*", default=None)
    args = parser.parse_args(argv)
    limit = numba.config.NUMBA_NUM_THREADS
    threads = args.threads or sorted({1, limit})
    print(
        f"# day kernel {args.before} / {args.after}, {datetime.datetime.now():%Y-%m-%d %H:%M}, "
        f"{os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        "\n| scenario | threads | rolls | before M rolls/s | after M rolls/s | after / before "
        "| before M rolls/CPU-s | after M rolls/CPU-s |\n|---|---|---|---|---|---|---|---|"
    )
    checks = []
    with versions([args.before, args.after], PROBE) as (before, after):
        for name, (s, optimal) in scenarios().items():
            policy = ex.optimal_policy(s) if optimal else None
            for version in (before, after):
                version.call("run", name=name, n_days=100, seed=0, threads=1)  # compile / cache
            for th in threads:
                wall = {before.name: np.inf, after.name: np.inf}
                cpu = dict(wall)
                for _ in range(args.repeat):
                    for version in (before, after):
                        w, c, *_ = version.call(
                            "run", name=name, n_days=args.days, seed=1, threads=th
                        )
                        wall[version.name] = min(wall[version.name], w)
                        cpu[version.name] = min(cpu[version.name], c)
                rolls = args.days * s.n_rolls
                rate = {v: rolls / wall[v] for v in wall}
                print(
                    f"| {name} | {th} | {rolls:,} | {rate[before.name] / 1e6:.1f} | "
                    f"{rate[after.name] / 1e6:.1f} | {rate[after.name] / rate[before.name]:.2f} | "
                    f"{rolls / cpu[before.name] / 1e6:.1f} | {rolls / cpu[after.name] / 1e6:.1f} |"
                )
            for version in (before, after):
                *_, succ, drain = version.call(
                    "run", name=name, n_days=200_000, seed=2, threads=limit
                )
                per_roll = np.column_stack([succ, drain])
                checks.append((name, version.name, *agreement(s, policy, per_roll, 200_000)))
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
    print(
        "\n| scenario | version | largest success gap (SE) | largest drain gap (rough SE) |"
        "\n|---|---|---|---|"
    )
    for name, version, gs, gd in checks:
        print(f"| {name} | {version} | {gs:.2f} | {gd:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
