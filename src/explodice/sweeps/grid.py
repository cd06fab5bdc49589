"""Grids of cases: a mapping of parameter lists (their product) or a DataFrame, and grid
TOML files."""

from __future__ import annotations

import itertools
import math
import numbers
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import clip, shown
from explodice.core.files import read_toml
from explodice.core.words import Phrase
from explodice.game.rules import Best
from explodice.sweeps.tasks import (
    DEFAULT_BATCH_SECONDS,
    RESERVED,
    TASKS,
    SweepError,
    SweepFileError,
    SweepTypeError,
    Task,
    resolve_task,
)

__all__ = ["MAX_CASES", "GridFile", "grid_cases", "load_grid"]

#: The most cases one sweep runs (each is at least one row of the result, held in memory).
MAX_CASES = 1_000_000


# -- the grid -------------------------------------------------------------------------------
def plain_value(value: Any) -> Any:
    """numpy scalars as Python values; missing (None, NaN, NA) as None."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def grid_values(name: str, value: Any) -> list[Any]:
    if isinstance(value, (str, bytes, numbers.Number, Best)) or value is None:
        return [value]
    if isinstance(value, (Mapping, set, frozenset)):
        raise SweepError(
            Phrase(
                "grid `{name}` must be a list of values, but {value} was passed.",
                name=name,
                value=shown(value),
            )
        )
    try:
        values = [plain_value(v) for v in value]
    except TypeError:
        return [value]
    if not values:
        raise SweepError(
            Phrase("grid `{name}` must hold at least one value, but [] was passed.", name=name)
        )
    return values


def check_names(names: Iterable[Any], task: Task) -> list[str]:
    names = list(names)
    for name in names:
        if not isinstance(name, str):
            raise SweepError(
                Phrase(
                    "grid parameter names must be strings, but {name} was passed.", name=shown(name)
                )
            )
        if name in RESERVED:
            raise SweepError(
                Phrase(
                    "grid `{name}` is reserved: sweep() writes the `{name}` column "
                    "itself (give the root seed as sweep(seed=...)).",
                    name=name,
                )
            )
        if task.defaults and name not in task.defaults:
            raise SweepError(
                Phrase(
                    "grid `{name}` is not a parameter of the {name2!r} task; allowed: {defaults}.",
                    name=clip(name),
                    name2=task.name,
                    defaults=", ".join(task.defaults),
                )
            )
    return names


def _whole(value: Any, column_is_float: bool) -> Any:
    """A cell of a float column that holds a whole number, as an ``int``: pandas turns a
    column of integers into floats when another cell is a float or empty (dc = 16 beside
    dc = 16.5 reads 16.0), so each cell is read back on its own."""
    if column_is_float and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def grid_cases(grid: Any, task: Task) -> tuple[list[str], list[dict[str, Any]]]:
    """The parameter names and one dict per case (only the parameters the grid gives)."""
    if isinstance(grid, pd.DataFrame):
        names = check_names(grid.columns, task)
        if grid.empty:
            raise SweepError(
                Phrase("grid must hold at least one case, but an empty DataFrame was passed.")
            )
        if len(grid) > MAX_CASES:
            raise SweepError(
                Phrase(
                    "grid has {n_grid:,} cases; at most {MAX_CASES:,} are run in one "
                    "sweep: split it.",
                    n_grid=len(grid),
                    MAX_CASES=MAX_CASES,
                )
            )
        cols = {}
        for name in names:
            floats = pd.api.types.is_float_dtype(grid[name].dtype)
            cols[name] = [_whole(plain_value(v), floats) for v in grid[name].tolist()]
        cases = [{k: cols[k][i] for k in names if cols[k][i] is not None} for i in range(len(grid))]
        return names, cases
    if not isinstance(grid, Mapping):
        raise SweepTypeError(
            Phrase(
                "grid must be a mapping of parameter names to lists of values, or a "
                "DataFrame of cases, but {name} was passed.",
                name=type(grid).__name__,
            )
        )
    if not grid:
        raise SweepError(Phrase("grid must name at least one parameter, but {{}} was passed."))
    names = check_names(grid, task)
    lists = [grid_values(name, grid[name]) for name in names]
    size = math.prod(len(values) for values in lists)
    if size > MAX_CASES:
        raise SweepError(
            Phrase(
                "grid has {size:,} cases (the product of its lists' lengths "
                "{value}); at most {MAX_CASES:,} are run in one sweep: split it.",
                size=size,
                value=" x ".join(str(len(v)) for v in lists),
                MAX_CASES=MAX_CASES,
            )
        )
    return names, [dict(zip(names, combo)) for combo in itertools.product(*lists)]


# -- files ----------------------------------------------------------------------------------
_GRID_KEYS = ("task", "seed", "batch_seconds", "grid", "case")


@dataclass(frozen=True)
class GridFile:
    """A grid TOML file, read: the task, the grid (mapping or DataFrame) and the options."""

    task: Any
    grid: Any
    seed: Any = None
    batch_seconds: float = DEFAULT_BATCH_SECONDS


def load_grid(path: str | os.PathLike[str]) -> GridFile:
    """Read a grid file: ``task``, optional ``seed`` and ``batch_seconds``, and either a
    ``[grid]`` table (lists of values) or ``[[case]]`` tables (one case each)::

        task = "success"
        seed = 2026
        [grid]
        modifier = [0, 2, 4]
        dc = [12, 16, 22]
        method = "simulate"

    A ``scenario`` path of the ``day`` task is relative to the file. Errors name the file,
    the key and the problem.
    """
    path = Path(path)
    data = read_toml(path, error=SweepFileError)

    def bad(key: str, problem: str | Phrase) -> SweepFileError:
        return SweepFileError(
            Phrase("{path}: `{key}`: {problem}", path=path, key=clip(key), problem=problem)
        )

    for key in data:
        if key not in _GRID_KEYS:
            raise bad(
                key, Phrase("unknown key; allowed: {GRID_KEYS}.", GRID_KEYS=", ".join(_GRID_KEYS))
            )
    if "task" not in data:
        raise bad(
            "task", Phrase("missing: one of {TASKS} or 'module:function'.", TASKS=", ".join(TASKS))
        )
    if ("grid" in data) == ("case" in data):
        raise bad(
            "grid", Phrase("give either a [grid] table or [[case]] tables, not both or neither.")
        )
    if "grid" in data:
        grid: Any = data["grid"]
        if not isinstance(grid, dict):
            raise bad("grid", Phrase("must be a table of parameter = [values]."))
        if "scenario" in grid:
            grid = {
                **grid,
                "scenario": [_relative(path, s) for s in grid_values("scenario", grid["scenario"])],
            }
    else:
        if not isinstance(data["case"], list) or not all(isinstance(c, dict) for c in data["case"]):
            raise bad("case", Phrase("must be [[case]] tables."))
        grid = pd.DataFrame(  # of objects: each case as written (16 stays 16 beside 16.5)
            [
                {**c, **({"scenario": _relative(path, c["scenario"])} if "scenario" in c else {})}
                for c in data["case"]
            ],
            dtype=object,
        )
    try:
        spec = resolve_task(data["task"])
        grid_cases(grid, spec)  # names and lists checked now, with the file named
    except SweepError as err:
        raise SweepFileError(Phrase("{path}: {err}", path=path, err=err)) from None
    batch = data.get("batch_seconds", DEFAULT_BATCH_SECONDS)
    return GridFile(data["task"], grid, data.get("seed"), batch)


def _relative(path: Path, scenario: Any) -> Any:
    if isinstance(scenario, str) and scenario != "default" and not Path(scenario).is_absolute():
        return str((path.parent / scenario).resolve())
    return scenario
