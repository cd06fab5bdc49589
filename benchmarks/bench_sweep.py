"""Time :func:`explodice.sweep` on one grid: in-process, local pools of 1 and 2 processes, and a
Dask LocalCluster of 2 single-threaded worker processes on loopback.

For each run: wall seconds, the seconds the workers spent inside the cases
(``attrs["compute_seconds"]``), batches, and the *overhead per case*:
(slots x wall - compute) / cases, the worker time spent on anything but the cases (process
start, imports and numba's cache, pickling, scheduling, the idle tail). Every run's table
must equal the in-process one exactly (same seeds, same numbers).

    python benchmarks/bench_sweep.py              # two grids, about a minute on 2 cores
    python benchmarks/bench_sweep.py --quick      # smaller grids
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from explodice.sweeps import sweep


def grids(quick: bool) -> dict[str, tuple[dict, str]]:
    mods = [0, 2, 4, 6] if quick else [-2, 0, 2, 4, 6, 8, 10]
    n = 200_000 if quick else 2_000_000
    return {
        "exact odds (ms per case)": (
            {
                "modifier": mods,
                "dc": [8, 12, 16, 22, 28, 35],
                "advantage": ["normal", "advantage", "disadvantage"],
                "disadvantage": ["subtract", "drop"],
            },
            "success",
        ),
        f"simulated odds, {n:.0e} rolls per case": (
            {
                "modifier": mods[:3],
                "dc": [12, 16, 22, 28],
                "advantage": ["normal", "advantage", "disadvantage"],
                "method": "simulate",
                "n": n,
            },
            "success",
        ),
    }


def run(
    label: str, grid: dict, task: str, executor, reference: pd.DataFrame | None, **kw
) -> tuple[pd.DataFrame, dict]:
    began = time.perf_counter()
    df = sweep(grid, task, executor=executor, seed=2026, progress=False, **kw)
    wall = time.perf_counter() - began
    if reference is not None:
        pd.testing.assert_frame_equal(df, reference)
    a = df.attrs
    slots = a["workers"]
    return df, {
        "executor": label,
        "cases": a["n_cases"],
        "batches": a["batches"],
        "wall_s": wall,
        "compute_s": a["compute_seconds"],
        "overhead_ms_per_case": 1e3 * (slots * wall - a["compute_seconds"]) / a["n_cases"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    rows = []
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
        ) as cluster,
        Client(cluster) as client,
    ):
        for name, (grid, task) in grids(args.quick).items():
            ref, r = run("in-process (1 thread)", grid, task, ThreadPoolExecutor(1), None)
            rows.append({"grid": name, **r})
            for workers in (1, 2):
                rows.append(
                    {
                        "grid": name,
                        **run(
                            f"local pool, {workers} process(es)",
                            grid,
                            task,
                            None,
                            ref,
                            workers=workers,
                        )[1],
                    }
                )
            for attempt in ("cold", "warm"):
                rows.append(
                    {
                        "grid": name,
                        **run(f"LocalCluster 2x1 ({attempt})", grid, task, client, ref)[1],
                    }
                )
    table = pd.DataFrame(rows)
    print(
        table.to_markdown(index=False, floatfmt=".3g")
        if _has_tabulate()
        else table.to_string(index=False)
    )


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
