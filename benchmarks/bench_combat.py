"""Benchmark of the combat questions (issue 32): the chances across levels and the defence base.

    python benchmarks/bench_combat.py            # each case in a fresh process, then warm
    python benchmarks/bench_combat.py --repeat 3

The issue's budget: the chances across levels for the five reference builds, 20 levels, FP
offsets -3..+3, both systems (:func:`explodice.combat_progression`, 1,400 rows), and the
defence-base fit (:func:`explodice.fit_defence_base`, 1,400 cases x 31 bases and the six
readings of the VD), in at most 10 s on the 2-core machine.

Each case runs first in a fresh Python process (``cold``: the import, the SRD's bestiary read
and its typical monsters computed, every exact law built) and then again in this process after
a first call (``warm``: the caches of typical monsters and exact laws hold). How it grows: the
same calls on 5, 10 and 20 levels and on 1, 3 and 7 offsets (warm; a new case costs one exact
law of an attack per new roll, then a lookup). Prints a markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time

import explodice as ex

CASES = {
    "combat_progression, 5 builds x 20 levels x 7 offsets": (
        "ex.combat_progression(offsets=range(-3, 4))"
    ),
    "fit_defence_base, same cases both ways, 31 bases, 6 readings": "ex.fit_defence_base()",
    "both (the issue's budget)": (
        "ex.combat_progression(offsets=range(-3, 4)); ex.fit_defence_base()"
    ),
}


def cold(code: str) -> float:
    """Seconds of one call in a fresh process (the import not counted, the first call all)."""
    probe = (
        "import time, explodice as ex\n"
        f"t = time.perf_counter(); {code}; print(time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=os.environ
    )
    return float(out.stdout.strip().splitlines()[-1])


def warm(code: str, repeat: int) -> float:
    exec(code, {"ex": ex})  # noqa: S102 - our own fixed code
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        exec(code, {"ex": ex})  # noqa: S102
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="warm calls, best kept")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"load average {load:.1f}")  # fmt: skip
    print("\n| case | cold s (fresh process) | warm s |\n|---|---:|---:|")
    for name, code in CASES.items():
        print(f"| {name} | {cold(code):.2f} | {warm(code, args.repeat):.2f} |")
    print("\n| how it grows (warm) | s |\n|---|---:|")
    for levels in (5, 10, 20):
        code = f"ex.combat_progression(levels=range(1, {levels + 1}), offsets=range(-3, 4))"
        print(
            f"| combat_progression, {levels} levels x 7 offsets | {warm(code, args.repeat):.2f} |"
        )
    for offsets in (1, 3, 7):
        k = offsets // 2
        code = f"ex.fit_defence_base(offsets=range(-{k}, {k + 1}))"
        print(
            f"| fit_defence_base, 20 levels x {offsets} offsets | {warm(code, args.repeat):.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
