"""The readings of issue 25, side by side in one run: what a non-default reading costs the
single-roll kernel, and what `sensitivity` costs on the report's default party and day.

    python benchmarks/bench_readings.py --n 30000000 --rounds 5

Part 1 times `simulate` under each reading against the default, rounds alternating, medians:
an exploding or a plain malus die (the throw-table kernel), Lucky before or after the choice
(the face-by-face kernel). Part 2 times `sensitivity(load_config())` whole and by part (wall
and CPU seconds; the exact days' cache emptied before each call).
"""

from __future__ import annotations

import argparse
import statistics
import time

import explodice as ex
from explodice.analysis import sensitivity as sensitivity_module
from explodice.present.config import load_config

PAIRS = {
    "malus die (disadvantage, keep)": (
        ex.Roll(0, advantage="disadvantage"),
        ex.Rules(),
        ex.Rules(malus_die="plain"),
    ),
    "Lucky (cancel)": (
        ex.Roll(0, policy="cancel", reroll="one"),
        ex.Rules(),
        ex.Rules(lucky_timing="after_choice"),
    ),
}
SENSITIVITY = {
    "everything (default parts)": {},
    "the day simulated (the report's page)": {"day_method": "simulate"},
    "without the day": {"day_method": "none"},
    "DC table, hiding, haggling": {"parts": ("dc_table", "hiding", "haggle")},
    "DC table alone": {"parts": ("dc_table",)},
}


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    print(f"simulate, 1 thread, {args.n:.0e} rolls, medians of {args.rounds} rounds")
    print("| case | default s | other reading s | rate other / default |")
    print("|---|---:|---:|---:|")
    for name, (roll, default, other) in PAIRS.items():
        for rules in (default, other):  # compile and warm the caches
            ex.simulate(roll, rules, n=1000, seed=0, threads=1)
        times: dict[int, list[float]] = {0: [], 1: []}
        for _ in range(args.rounds):
            for i, rules in enumerate((default, other)):
                run = lambda r=rules: ex.simulate(roll, r, n=args.n, seed=1, threads=1)  # noqa: E731
                times[i].append(timed(run)[0])
        a, b = (statistics.median(times[i]) for i in (0, 1))
        print(f"| {name} | {a:.3f} | {b:.3f} | {a / b:.2f} |")

    config = load_config()
    from explodice.day import exact as exact_module

    exact_module.exact_day(config.day, config.rules)  # compile the exact day's kernels first
    print("\nsensitivity(load_config()), the default party and day")
    print("| parts | wall s | CPU s |")
    print("|---|---:|---:|")
    for name, kwargs in SENSITIVITY.items():
        sensitivity_module.day_numbers.cache_clear()
        exact_module._PLAYED.clear()  # each PC's days played: each case plays its own
        wall, cpu = timed(lambda kw=kwargs: ex.sensitivity(config, **kw))
        print(f"| {name} | {wall:.1f} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
