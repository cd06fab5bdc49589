"""Benchmark of the bestiary (issue 33): the SRD's 334 monsters converted against the five
reference builds at the level of their FP, both systems (``explodice.bestiary``), the per-FP
table (``explodice.fp_table``), and how the time grows with the number of monsters.

    python benchmarks/bench_bestiary.py            # about a minute on the 2-core machine
    python benchmarks/bench_bestiary.py --quick    # the SRD only

Cold: every cache of the exact engine, the level analyses and the bestiary emptied (a fresh
session; numba's kernels loaded beforehand). Target: the whole SRD bestiary in at most 10 s.
The growth uses variants of the SRD's monsters (each copy's AC, attack bonuses and save DCs
moved by a few points, so that the caches do not answer for the copies), run here (serial)
and on a local pool of two processes through the sweeps layer. Prints markdown tables for
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from collections.abc import Callable
from typing import Any

import explodice as ex
from explodice.analysis import bestiary as analysis_bestiary
from explodice.analysis import levels as analysis_levels
from explodice.engine.exact import _joint
from explodice.engine.rule_of_one import policy_table


def clear() -> None:
    """Empty every cache the bestiary fills (a fresh session), numba's kernels aside."""
    analysis_bestiary.clear_caches()
    analysis_levels.clear_caches()
    _joint.cache_clear()
    policy_table.cache_clear()


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - began, out


def variants(monsters: tuple[ex.Monster, ...], copies: int) -> list[ex.Monster]:
    """``copies`` variants of each monster: copy i moves AC, attack bonuses and save DCs by
    i % 7 - 3 points (clipped at 0) under its own name."""
    out = []
    for i in range(copies):
        d = i % 7 - 3
        for m in monsters:
            out.append(
                m.replace(
                    name=f"{m.name} #{i}",
                    ac=max(0, (m.ac or 10) + d),
                    attacks={k: v + d for k, v in m.attacks.items()},
                    save_dcs={k: max(0, v + d) for k, v in m.save_dcs.items()},
                )
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the SRD only")
    args = parser.parse_args()
    ex.exact(ex.Roll(0))  # numba's kernels and the package, loaded before the clock
    srd = ex.srd_monsters()
    print(f"# bench_bestiary: {datetime.datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} CPUs\n")
    print("| question | cold (s) | warm (s) | rows |")
    print("|---|---:|---:|---:|")
    clear()
    cold, frame = timed(ex.bestiary)
    warm, _ = timed(ex.bestiary)
    print(
        f"| bestiary: 334 SRD monsters x 5 builds x 2 systems | {cold:.2f} | {warm:.2f} | {len(frame):,} |"
    )
    clear()
    cold, table = timed(ex.fp_table)
    warm, _ = timed(ex.fp_table)
    print(
        f"| fp_table: {len(table)} FPs x 5 builds x 2 systems | {cold:.2f} | {warm:.2f} | {len(table)} |"
    )
    clear()
    both = time.perf_counter()
    ex.bestiary()
    ex.fp_table()
    print(f"| both, one cold session | {time.perf_counter() - both:.2f} | | |")
    if args.quick:
        return
    print("\n| monsters | serial, cold (s) | per monster (ms) | local pool of 2, cold (s) |")
    print("|---:|---:|---:|---:|")
    for copies in (1, 2, 4, 8):
        pool = variants(srd, copies)
        clear()
        serial, _ = timed(ex.bestiary, pool, executor="serial", progress=False)
        clear()
        local = (
            timed(ex.bestiary, pool, executor="local", workers=2, progress=False)[0]
            if copies >= 4
            else float("nan")
        )
        shown = "—" if local != local else f"{local:.2f}"
        print(f"| {len(pool):,} | {serial:.2f} | {1000 * serial / len(pool):.2f} | {shown} |")


if __name__ == "__main__":
    main()
