"""Benchmark of the day kernel (:func:`explodice.simulate_day`): rolls per second.

    python benchmarks/bench_day.py              # a few seconds on 2 cores
    python benchmarks/bench_day.py --days 200000

Three scenarios (one gauge emptied by one repeated roll; a party of three with a mix of five
roll types; a Best(λ) player) are run once to compile, then timed (best of ``--repeat``) for
each thread count. The single-roll kernel (:func:`explodice.simulate`, keep, with drain) is
timed too, for comparison. Prints a markdown table for ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import timeit

import numba

import explodice as ex

SCORES = dict(STR=16, DEX=14, CON=14, INT=12, WIS=12, CHA=10)


def scenarios() -> dict[str, ex.Scenario]:
    one = ex.Character("Solo", SCORES, gauge_max={"PA": 20, "PM": 0, "PF": 0, "PH": 0})
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
        "one gauge of 20, STR check repeated (keep)": ex.Scenario(
            [one], [ex.DayRoll("Solo", ability="STR", dc=16, repeat=40)]
        ),
        "party of 3, mix of 5 roll types, 60 rolls/day": ex.Scenario(party, mix, rolls_per_day=60),
        "best(λ=0.1), 2 roll types, 40 rolls/day": ex.Scenario(
            [best],
            [ex.DayRoll("Best", ability="DEX", dc=15), ex.DayRoll("Best", ability="INT", dc=13)],
            rolls_per_day=40,
        ),
    }


def best_of(fn, repeat: int) -> float:
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=50_000, help="days per timed run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="*", default=None)
    args = parser.parse_args(argv)
    limit = numba.config.NUMBA_NUM_THREADS
    threads = args.threads or sorted({1, limit})
    print(
        f"# day kernel, {datetime.date.today()}, {os.cpu_count()} CPUs, numba {numba.__version__}"
    )
    print("\n| scenario | threads | days | rolls | seconds | rolls/s |\n|---|---|---|---|---|---|")
    for name, s in scenarios().items():
        ex.simulate_day(s, n_days=100, seed=0, threads=1)  # compile
        for th in threads:
            sec = best_of(
                lambda: ex.simulate_day(s, n_days=args.days, seed=1, threads=th), args.repeat
            )
            rolls = args.days * s.n_rolls
            print(f"| {name} | {th} | {args.days:,} | {rolls:,} | {sec:.3f} | {rolls / sec:,.0f} |")
    n = args.days * 40
    ex.simulate(ex.Roll(2), n=1000, seed=0, threads=1)
    for th in threads:
        sec = best_of(lambda: ex.simulate(ex.Roll(2), n=n, seed=1, threads=th), args.repeat)
        print(
            f"| single-roll kernel `simulate(Roll(2))` (reference) | {th} | – | {n:,} | "
            f"{sec:.3f} | {n / sec:,.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
