"""Benchmark of the exact day (:func:`explodice.exact_day`) and the optimal policy
(:func:`explodice.optimal_policy`): seconds, and how they grow with gauge sizes and rolls.

    python benchmarks/bench_exact_day.py            # about two minutes on the 2-core machine
    python benchmarks/bench_exact_day.py --quick    # the two targets only

One character with four gauges of N points and a mixed day of R rolls drawn from five roll
types over the four gauges (so every roll's drain can overflow into three other gauges); the
report's default party; each timed once after a compiling call, on one thread (the numba
kernels are serial; BLAS is not used). Prints markdown tables for ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time

import numba

import explodice as ex
from explodice.day.scenario import default_scenario

SCORES = {"STR": 16, "DEX": 14, "CON": 14, "INT": 12, "WIS": 12, "CHA": 10}
TYPES = (("STR", 3), ("DEX", 2), ("INT", 1), ("WIS", 1), ("CHA", 1))


def solo(points: int, rolls: int) -> ex.Scenario:
    who = ex.Character("Solo", SCORES, gauge_max=dict.fromkeys(("PA", "PM", "PF", "PH"), points))
    types = [ex.DayRoll("Solo", ability=a, dc=15, weight=w) for a, w in TYPES]
    return ex.Scenario([who], types, rolls_per_day=rolls)


def timed(fn, *args) -> tuple[float, object]:
    began = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - began, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two targets only")
    args = parser.parse_args(argv)
    print(
        f"# exact day, {datetime.date.today()}, {os.cpu_count()} CPUs, numba "
        f"{numba.__version__}, load average {os.getloadavg()[0]:.1f}"
    )
    ex.exact_day(solo(2, 2))  # compile
    ex.optimal_policy(solo(2, 2))
    print("\n| case | states | rolls | overflow | exact_day s | optimal_policy s |")
    print("|---|---|---|---|---|---|")
    cases = (
        [(20, 40)]
        if args.quick
        else [(5, 40), (10, 40), (15, 40), (20, 40), (20, 10), (20, 20), (20, 80)]
    )
    for points, rolls in cases:
        s = solo(points, rolls)
        for overflow in ("fullest", "lost"):
            rules = ex.Rules(overflow=overflow)
            sec, _ = timed(ex.exact_day, s, rules)
            opt = ""
            if overflow == "fullest" and rolls <= 40:
                opt = f"{timed(ex.optimal_policy, s, rules)[0]:.2f}"
            print(
                f"| four gauges of {points} | {(points + 1) ** 4:,} | {rolls} | {overflow} | "
                f"{sec:.2f} | {opt} |"
            )
    party = default_scenario()
    sec, res = timed(ex.exact_day, party)
    sizes = ", ".join(
        "/".join(str(int(x)) for x in res.gauge_start[4 * i : 4 * i + 4])
        for i, c in enumerate(party.characters)
        if c.actor == "pc"
    )
    states = sum(
        int((res.gauge_start[4 * i : 4 * i + 4] + 1).prod())
        for i, c in enumerate(party.characters)
        if c.actor == "pc"
    )
    print(
        f"| report's default party (gauges {sizes}) | {states:,} | {party.n_rolls} | "
        f"fullest | {sec:.2f} | {timed(ex.optimal_policy, party)[0]:.2f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
