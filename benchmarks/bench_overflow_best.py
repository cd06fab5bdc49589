"""Overflow "au choix du joueur" (``Rules(overflow="best")``): what choosing the gauge that takes
an excess gains the optimal player over pouring it into the fullest, and what it costs, on the
report's default party and day, side by side in one run.

    python benchmarks/bench_overflow_best.py            # the default day (minutes)
    python benchmarks/bench_overflow_best.py --rolls 12 # a shorter day

For each rule, ``optimal_policy`` (the optimal player: k, and under "best" the gauge too) and
``exact_day`` playing that policy forward: each PC's expected successes a day, the party's, and
the wall seconds of ``optimal_policy``. The gain is "best" minus "fullest"; it is >= 0 by
construction (the fullest is one of the orders the player can pick).
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import explodice as ex
from explodice.present.config import load_config


def measure(day: ex.Scenario, rules: ex.Rules) -> tuple[dict[str, float], float, float]:
    """Each PC's optimal expected successes, the party's played forward by ``exact_day``, and
    the seconds ``optimal_policy`` took."""
    began = time.perf_counter()
    policy = ex.optimal_policy(day, rules)
    seconds = time.perf_counter() - began
    played = ex.exact_day(day, rules, policy=policy)
    return dict(policy.value), float(played.succ_t.sum()), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=None, help="rolls a day (default: the day's)")
    args = parser.parse_args()
    config = load_config()
    day = config.day
    if args.rolls is not None:
        day = dataclasses.replace(day, rolls_per_day=args.rolls)
    print(f"day: {day.describe()}; rules: {config.rules.describe()}")
    results = {}
    for rule in ("fullest", "best"):
        rules = dataclasses.replace(config.rules, overflow=rule)
        results[rule] = measure(day, rules)
        value, party, seconds = results[rule]
        print(
            f"{rule:8s} optimal_policy {seconds:7.2f} s; party {party:.4f}; "
            + ", ".join(f"{name} {v:.4f}" for name, v in value.items())
        )
    (v0, p0, s0), (v1, p1, s1) = results["fullest"], results["best"]
    print(
        f"gain of 'best': party {p1 - p0:+.4f} expected successes a day; "
        + ", ".join(f"{name} {v1[name] - v0[name]:+.4f}" for name in v0)
        + f"; time ratio best/fullest {s1 / max(s0, 1e-9):.0f}x"
    )


if __name__ == "__main__":
    main()
