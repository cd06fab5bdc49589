"""``explodice sweep``: run a grid of cases (GRID.toml) on local processes or a Dask cluster,
and write one tidy CSV (and Parquet when pyarrow is installed).

    $ explodice sweep GRID.toml --out odds.csv
    $ explodice sweep GRID.toml --scheduler tcp://host:8786
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from explodice.core.errors import ExplodiceError, shown
from explodice.core.words import Phrase
from explodice.present.cli.base import Command, Output
from explodice.present.cli.numbers import seconds
from explodice.present.cli.options import SEED, WORKERS, progress
from explodice.present.cli.output import warnings_in_one_line
from explodice.sweeps import SweepIncomplete, SweepWarning, load_grid, sweep, write_results
from explodice.sweeps.output import output_paths
from explodice.sweeps.run import NO_WORKER_TIMEOUT

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
    p.add_argument(
        "--no-worker-timeout",
        metavar="SECONDS",
        type=seconds,
        default=NO_WORKER_TIMEOUT,
        help="with --scheduler, stop when the cluster has had no worker (or the scheduler "
        f"no answer) for this long (default: {NO_WORKER_TIMEOUT:g})",
    )
    p.add_argument(
        "--partial",
        metavar="FILE",
        default=None,
        help="if the sweep stops before every case ran, write the cases that ran here "
        "(never over --out, which keeps its previous content)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run a grid of cases (GRID.toml) on local processes or a Dask cluster; write CSV."""
    spec = load_grid(args.grid)
    out = _out(args)  # every file it writes was checked before (writes): minutes of work
    if args.scheduler is None and args.no_worker_timeout != NO_WORKER_TIMEOUT:
        raise ExplodiceError(
            Phrase(
                "`--no-worker-timeout` watches a Dask cluster's workers: it applies "
                "with --scheduler."
            )
        )
    try:
        with warnings_in_one_line(SweepWarning), _quiet(args.scheduler is not None):
            frame = sweep(
                spec.grid,
                spec.task,
                executor=args.scheduler,
                workers=args.workers,
                seed=spec.seed if args.seed is None else args.seed,
                batch_seconds=spec.batch_seconds,
                progress=progress(args),
                no_worker_timeout=args.no_worker_timeout,
            )
    except SweepIncomplete as err:
        raise ExplodiceError(_incomplete(err, args, out)) from None
    paths = write_results(frame, out)
    a = frame.attrs
    print(
        f"wrote {' and '.join(map(str, paths))}: {len(frame)} rows, {a['n_cases']} cases "
        f"({a['n_failed']} failed), {a['seconds']:.1f} s on {a['workers']} workers, "
        f"seed {a['seed']}"
    )
    return 1 if a["n_failed"] else 0


@contextlib.contextmanager
def _quiet(dask: bool) -> Iterator[None]:
    """With a Dask scheduler, no log record while the sweep runs: a lost scheduler is this
    command's one line, not Dask's errors and tracebacks (which its loggers would print)."""
    if not dask:
        yield
        return
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


def _incomplete(err: SweepIncomplete, args: argparse.Namespace, out: Path) -> str:
    """The one line of a sweep that stopped: what happened, and where the cases that ran are
    (``--partial``), or that ``out`` was left as it was."""
    kept = f"{out} was left as it was"
    if args.partial is None or err.frame is None:
        return f"{err}; {kept} (--partial FILE keeps the cases that ran)"
    paths = write_results(err.frame, args.partial)
    ran = len(err.frame.drop_duplicates("case")) - err.n_lost
    return (
        f"{err}; {kept}, and the {ran} cases that ran are in {' and '.join(map(str, paths))} "
        "(the others' rows say 'not run' in `error`)"
    )


def _out(args: argparse.Namespace) -> Path:
    if args.out is not None:
        return Path(args.out)
    name = Path(args.grid).name
    if not args.grid.strip() or name in ("", ".", ".."):
        raise ExplodiceError(
            Phrase("`GRID` must be a grid TOML file, but {grid} was passed.", grid=shown(args.grid))
        )
    return Path(Path(name).with_suffix(".csv").name)


def writes(args: argparse.Namespace) -> Sequence[Output]:
    """The CSV (and the Parquet file beside it), neither of which may be the grid; the file
    of ``--partial``, which may be neither the grid nor one of them."""
    outs = []
    for flag, value in (("--out", args.out), ("--partial", args.partial)):
        if value is not None and not value.strip():
            outs.append(Output(value, flag))  # refused as empty (a Path would read it as ".")
    if outs:
        return outs
    main = output_paths(_out(args))
    outs = [Output(path, "--out", inputs=(args.grid,)) for path in main]
    if args.partial is not None:
        if os.path.realpath(args.partial) in {os.path.realpath(p) for p in main}:
            raise ExplodiceError(
                Phrase(
                    "`--partial` {partial} is the file of --out: the cases that ran "
                    "never replace the previous results; choose another name.",
                    partial=shown(args.partial),
                )
            )
        inputs = (args.grid, *main)
        outs += [Output(p, "--partial", inputs=inputs) for p in output_paths(args.partial)]
    return outs


COMMAND = Command(
    name="sweep",
    help="run a grid of cases locally or on a Dask cluster",
    description="Run every case of GRID.toml (see "
    "explodice/data/sweep_example.toml) on local processes, or on "
    "a Dask cluster with --scheduler; write one tidy CSV (and "
    "Parquet if pyarrow is installed). Exit status 1 when some "
    "cases failed (their rows carry `error`); 2, with the previous "
    "--out left as it was, when some cases did not run (a Dask "
    "scheduler lost, no worker left): --partial FILE keeps the "
    "cases that ran.",
    run=run,
    add_arguments=add_arguments,
    writes=writes,
)
