"""Writing a sweep's table: CSV, and Parquet beside it, each file whole or not at all."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pandas as pd

from explodice.core.files import check_writable, write_with
from explodice.core.spreadsheet import to_csv
from explodice.sweeps.tasks import SweepError

__all__ = ["check_output", "output_paths", "write_results"]


def output_paths(out: str | os.PathLike[str]) -> list[Path]:
    """The files :func:`write_results` writes for ``out``: the CSV, and the Parquet file
    beside it when pyarrow is installed."""
    out = Path(out)
    return [out, out.with_suffix(".parquet")] if _has_pyarrow() else [out]


def check_output(out: str | os.PathLike[str]) -> list[Path]:
    """Check, before any work, that every file of :func:`write_results` can be written."""
    return [check_writable(p, error=SweepError) for p in output_paths(out)]


def write_results(frame: pd.DataFrame, out: str | os.PathLike[str]) -> list[Path]:
    """Write ``frame`` as CSV at ``out``, and as Parquet next to it if pyarrow is installed
    (columns of mixed types as text there). Returns the paths written.

    Each file is written to a temporary sibling and renamed over the target: a failure leaves
    the previous results as they were.
    """
    paths = output_paths(out)
    write_with(paths[0], lambda tmp: to_csv(frame, tmp))
    if len(paths) > 1:
        mixed = [
            c
            for c in frame.columns
            if frame[c].dtype == object and len({type(v) for v in frame[c] if v is not None}) > 1
        ]
        table = frame.astype({c: str for c in mixed})
        write_with(paths[1], lambda tmp: table.to_parquet(tmp, index=False))
    return paths


def _has_pyarrow() -> bool:
    return importlib.util.find_spec("pyarrow") is not None
