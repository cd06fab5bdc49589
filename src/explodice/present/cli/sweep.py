"""``explodice sweep``: run a grid of cases (GRID.toml) on local processes or a Dask cluster,
and write one tidy CSV (and Parquet when pyarrow is installed).

    $ explodice sweep GRID.toml --out odds.csv
    $ explodice sweep GRID.toml --scheduler tcp://host:8786
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from explodice.present.cli.base import Command, Output
from explodice.present.cli.options import SEED, WORKERS, progress
from explodice.present.cli.output import warnings_in_one_line
from explodice.sweeps import SweepWarning, load_grid, sweep, write_results
from explodice.sweeps.output import output_paths

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("grid", help="a grid TOML file: task, seed, [grid] or [[case]] tables")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler, e.g. tcp://host:8786 (needs explodice[dask])",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="the CSV to write (default: GRID's name with .csv, here)",
    )
    p.add_argument(
        "--workers",
        type=WORKERS,
        default=None,
        help="local processes (default: all cores); with --scheduler, batches "
        "in flight are twice this",
    )
    p.add_argument("--seed", type=SEED, default=None, help="root seed (default: the file's)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run a grid of cases (GRID.toml) on local processes or a Dask cluster; write CSV."""
    spec = load_grid(args.grid)
    out = _out(args)  # every file it writes was checked before (writes): minutes of work
    with warnings_in_one_line(SweepWarning):
        frame = sweep(
            spec.grid,
            spec.task,
            executor=args.scheduler,
            workers=args.workers,
            seed=spec.seed if args.seed is None else args.seed,
            batch_seconds=spec.batch_seconds,
            progress=progress(args),
        )
    paths = write_results(frame, out)
    a = frame.attrs
    print(
        f"wrote {' and '.join(map(str, paths))}: {len(frame)} rows, {a['n_cases']} cases "
        f"({a['n_failed']} failed), {a['seconds']:.1f} s on {a['workers']} workers, "
        f"seed {a['seed']}"
    )
    return 1 if a["n_failed"] else 0


def _out(args: argparse.Namespace) -> Path:
    return Path(Path(args.grid).with_suffix(".csv").name if args.out is None else args.out)


def writes(args: argparse.Namespace) -> Sequence[Output]:
    """The CSV (and the Parquet file beside it), neither of which may be the grid."""
    if args.out is not None and not args.out.strip():
        return [Output(args.out, "--out")]  # refused as empty (a Path would read it as ".")
    return [Output(path, "--out", inputs=(args.grid,)) for path in output_paths(_out(args))]


COMMAND = Command(
    name="sweep",
    help="run a grid of cases locally or on a Dask cluster",
    description="Run every case of GRID.toml (see "
    "explodice/data/sweep_example.toml) on local processes, or on "
    "a Dask cluster with --scheduler; write one tidy CSV (and "
    "Parquet if pyarrow is installed). Exit status 1 when some "
    "cases failed (their rows carry `error`).",
    run=run,
    add_arguments=add_arguments,
    writes=writes,
)
