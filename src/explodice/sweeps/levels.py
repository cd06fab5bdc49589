"""The grid of exact days across levels: gauge sizing over builds x levels, by :func:`sweep`.

Each (build, level) is one case of a sweep (an exact day per gauge, tens of milliseconds), so
a large grid can go to a local process pool or a Dask cluster as ``explodice sweep`` does
(``executor=``); a small one runs here, in this process (:class:`SerialExecutor`), since a
pool's start costs more than the whole grid. The per-case computation is
:func:`explodice.analysis.levels.gauge_rows`; the other questions across levels
(:func:`~explodice.progression`, :func:`~explodice.level_dcs`, :func:`~explodice.fit_save_dc`)
are computed directly in :mod:`explodice.analysis.levels`.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.levels import (
    build_day,
    check_builds,
    check_names,
    check_risk,
    gauge_rows,
    placed_day,
    points_per_level,
)
from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.day.compiled import check_day_rules
from explodice.day.scenario import DayRoll, Scenario
from explodice.game.build import LEVELS, Build, check_levels
from explodice.game.character import GAUGES, Character
from explodice.game.rules import Rules
from explodice.sweeps.run import sweep
from explodice.sweeps.tasks import SweepWarning, Task

__all__ = [
    "AUTO_POOL_SECONDS",
    "SIZING",
    "SIZING_RISK",
    "SerialExecutor",
    "size_gauges",
]

#: A grid whose prior cost is below this many seconds runs in this process: a local pool
#: starts its workers (and loads numba's kernels in each) in about as long.
AUTO_POOL_SECONDS = 20.0
#: Prior seconds of one case (measured on the 2-core machine: ~25 ms a gauge the day drains).
_GAUGE_COST = 0.05
#: The share of days on which a sized gauge may empty before the long rest, by default: one
#: day in ten (``size_gauges(risk=)``, ``explodice size-gauges --risk``, the report's page).
SIZING_RISK = 0.1
#: How gauge sizing treats the other gauges, in words (docs/rules.md, "Levels").
SIZING = (
    "each gauge sized alone on the exact day: its own drains only, the excess of another "
    "gauge that empties not poured into it (overflow 'lost'); the build starts the day full"
)


class SerialExecutor(concurrent.futures.Executor):
    """An executor that runs each task at once, in this process: a sweep without a pool.

    >>> SerialExecutor().submit(sum, [1, 2]).result()
    3
    """

    _max_workers = 1

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # noqa: BLE001 - the future carries it, as a pool's would
            future.set_exception(err)
        return future


def _executor(executor: Any, prior_seconds: float) -> Any:
    """``None``: this process for a small grid, else the sweep's local pool; ``"serial"``
    and ``"local"`` force either; anything else goes to :func:`sweep` as it is."""
    if executor is None:
        return SerialExecutor() if prior_seconds < AUTO_POOL_SECONDS else None
    if isinstance(executor, str) and executor == "serial":  # an array's == is elementwise
        return SerialExecutor()
    if isinstance(executor, str) and executor == "local":
        return None
    return executor


def _run(
    question: str,
    builds: Sequence[Build],
    levels: list[int],
    run: Callable[[dict[str, Any], Any], pd.DataFrame],
    cost: float,
    executor: Any,
    workers: int | None,
    progress: bool | None,
) -> pd.DataFrame:
    """``run`` on every build and level by :func:`sweep`; the sweep's own columns dropped, a
    failed case raised as the error it gave."""
    grid: dict[str, list[Any]] = {"build": [b.name for b in builds], "level": levels}
    n_cases = int(np.prod([len(v) for v in grid.values()]))
    task = Task(question, {k: None for k in grid}, run, lambda case: cost)
    with warnings.catch_warnings():  # a failed case is raised below, with its parameters
        warnings.simplefilter("ignore", SweepWarning)
        # tqdm.auto's advice in a notebook without ipywidgets: its text bar does as well
        warnings.filterwarnings("ignore", message="IProgress not found")
        frame = sweep(
            grid,
            task,
            executor=_executor(executor, cost * n_cases),
            workers=workers,
            seed=0,  # exact: no random stream is drawn
            progress=progress,
        )
    failed = frame[frame.error.notna()]
    if not failed.empty:
        row = failed.iloc[0]
        where = ", ".join(f"{k} {row[k]!r}" for k in grid)
        raise ExplodiceError(
            Phrase(
                "{question}: the case {where} failed: {error}",
                question=question,
                where=where,
                error=row.error,
            )
        )
    meta = {k: frame.attrs[k] for k in ("workers", "batches", "seconds", "compute_seconds")}
    frame = frame.drop(columns=["case", "method", "n", "seed", "error"]).reset_index(drop=True)
    frame.attrs.update(meta)
    return frame


def _day_name(day: Any) -> str:
    if isinstance(day, Scenario):
        return day.name
    return getattr(day, "__qualname__", None) or type(day).__qualname__


# -- gauge sizing -----------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class _PortableDay:
    """A Scenario as plain data, so it can travel to a pool's workers (its characters' tables
    are read-only proxies, which pickle refuses); called with a level, the same day."""

    characters: tuple[dict[str, Any], ...]
    rolls: tuple[DayRoll, ...]
    rolls_per_day: int | None
    start: dict[str, Any]
    name: str

    @classmethod
    def of(cls, scenario: Scenario) -> _PortableDay:
        chars = tuple(
            {f.name: _plain(getattr(c, f.name)) for f in dataclasses.fields(c)}
            for c in scenario.characters
        )
        return cls(
            chars,
            tuple(scenario.rolls),
            scenario.rolls_per_day,
            _plain(scenario.start),
            scenario.name,
        )

    def __call__(self, level: int) -> Scenario:
        return Scenario(
            [Character(**c) for c in self.characters],
            self.rolls,
            rolls_per_day=self.rolls_per_day,
            start=self.start,
            name=self.name,
        )


#: The columns of one gauge's row of :func:`size_gauges`, after its build and level.
_GAUGE_COLUMNS = ("character", "day", "gauge", "needed", "risk", "have", "risk_have", "meets")


@dataclass(frozen=True)
class _Gauges:
    """One (build, level) case of :func:`size_gauges` (picklable: it travels to workers)."""

    builds: tuple[Build, ...]
    days: Mapping[str, Any]
    characters: Mapping[str, str | None]
    risk: float
    rules: Rules
    gauges: tuple[str, ...] | None

    def __call__(self, case: dict[str, Any], seed: Any) -> pd.DataFrame:
        build = next(b for b in self.builds if b.name == case["build"])
        rows = gauge_rows(
            build,
            int(case["level"]),
            self.days[build.name],
            risk=self.risk,
            rules=self.rules,
            character=self.characters[build.name],
            gauges=self.gauges,
        )
        return pd.DataFrame(rows, columns=["build", "level", *_GAUGE_COLUMNS, "drain_mean"]).drop(
            columns=["build", "level"]
        )


def _characters_of(character: Any, builds: list[Build]) -> dict[str, str | None]:
    """Each build's character in its day (:func:`size_gauges`' ``character``), checked."""
    if character is None or isinstance(character, str):
        return dict.fromkeys((b.name for b in builds), character)
    if isinstance(character, Mapping):
        characters = {b.name: character.get(b.name) for b in builds}
        extra = [k for k in character if k not in characters]
        if extra:
            raise ExplodiceError(
                Phrase(
                    "`character` must map builds' names to characters, but {extra} is "
                    "not a build's name.",
                    extra=shown(extra[0]),
                )
            )
        return characters
    allowed = Phrase("a name, a mapping {{build: name}} or None")
    raise fail("character", character, allowed, ExplodiceError, wrong_type=True)


def _days_of(day: Any, builds: list[Build]) -> dict[str, Any]:
    """Each build's day (:func:`size_gauges`' ``day``), checked: a scenario made portable to
    the sweep's workers, a callable ``level -> Scenario``, or each build's own day."""
    if day is None:
        return {b.name: build_day(b) for b in builds}
    if isinstance(day, Scenario):
        return dict.fromkeys((b.name for b in builds), _PortableDay.of(day))
    if callable(day):
        return dict.fromkeys((b.name for b in builds), day)
    raise ExplodiceTypeError(
        Phrase(
            "`day` must be a Scenario, a callable level -> Scenario or None, but {day} was passed.",
            day=shown(day),
        )
    )


def _with_points_per_level(frame: pd.DataFrame, builds: list[Build]) -> pd.DataFrame:
    """The sweep's rows of :func:`size_gauges`, with each build's and gauge's points per
    level (needed, and the build's own)."""
    by_name = {b.name: b for b in builds}
    per_level = {}
    # a case whose day drains no gauge (all NPCs, or no kind under the rule of 1) has no row:
    # the sweep gives it one of its build and level alone, dropped here
    if "gauge" in frame:
        frame = frame[frame.gauge.notna()].reset_index(drop=True)
    if "gauge" not in frame or frame.empty:
        frame = pd.DataFrame(columns=["build", "level", *_GAUGE_COLUMNS, "drain_mean"])
    else:
        for (name, g), rows in frame.groupby(["build", "gauge"], sort=False):
            needed = dict(zip(rows.level, rows.needed))
            per_level[name, g] = points_per_level(by_name[str(name)], str(g), needed)
    keys = list(zip(frame.build, frame.gauge))
    frame["per_level_needed"] = [per_level[k] for k in keys]
    frame["per_level_have"] = [by_name[b].gauge_per_level.get(g, 0) for b, g in keys]
    return frame


def size_gauges(
    builds: Build | Sequence[Build],
    day: Scenario | Callable[[int], Scenario] | None = None,
    *,
    risk: float = SIZING_RISK,
    levels: Iterable[int] = LEVELS,
    character: str | Mapping[str, str] | None = None,
    gauges: Iterable[str] | None = None,
    rules: Rules | None = None,
    executor: Any = None,
    workers: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """The gauge maxima each build needs so that a gauge empties before the long rest on at
    most ``risk`` of the days, level by level, by the exact day (not sampled).

    ``day``: a :class:`~explodice.Scenario`, or a callable ``level -> Scenario`` (rolls per day
    and DCs may grow with level); default :func:`~explodice.analysis.levels.build_day`, each
    build alone making 12 rolls a day of its own tests at DC 16. The build takes the place of
    the day's character named ``character`` (a name, or ``{build: name}``; default: the
    character with the build's name, else the day's only PC) with its rolls, policy and gauges
    at that level, and starts the day full; the other characters keep their rolls in the day
    (as NPCs: in a mix they still take their share of the rolls).

    Each gauge is sized alone (:data:`SIZING`): ``needed`` covers its own drains, and the
    excess of another gauge that empties is not poured into it, as under ``overflow="lost"``
    (exact under that rule; under ``"fullest"`` it is what the gauge needs while the other
    gauges hold, which sizing each of them at the same risk aims at). The gauges sized are
    those the day's rolls drain, or ``gauges``.

    One tidy row per build, level and gauge: ``build, level, character, day, gauge, needed``
    (the smallest maximum with P(empty) <= risk), ``risk`` (P(empty) at ``needed``), ``have``
    (the build's maximum), ``risk_have`` (P(empty) at ``have``), ``meets`` (have >= needed),
    ``drain_mean`` (the day's expected drain on it), ``per_level_needed`` (the smallest points
    per level that meet ``needed`` at every level asked: score + points x level) and
    ``per_level_have`` (the build's).

    ``executor``: ``None`` runs a small grid here and a large one (prior cost over
    :data:`AUTO_POOL_SECONDS`) on a local pool of ``workers``; ``"serial"``, ``"local"``, or
    any executor :func:`~explodice.sweep` takes (a Dask ``Client``, a scheduler address).

    >>> from explodice import reference_builds
    >>> t = size_gauges(reference_builds()[0], levels=[1, 20], gauges=["PA"])
    >>> t[["level", "gauge", "needed", "have", "per_level_needed"]].values.tolist()
    [[1, 'PA', 31, 17, 17], [20, 'PA', 31, 80, 17]]
    """
    rules, risk = check_day_rules(rules), check_risk(risk)  # the exact day: no close_contest
    builds = check_builds(builds)
    levels = check_levels(levels)
    if gauges is not None:
        gauges = tuple(
            check_choice("gauges", g, GAUGES, ExplodiceError) for g in check_names("gauges", gauges)
        )
    characters = _characters_of(character, builds)
    days = _days_of(day, builds)
    for b in builds:  # a wrong day or character is refused here, before any case runs
        placed_day(b, levels[0], days[b.name], characters[b.name])
    run = _Gauges(tuple(builds), days, characters, risk, rules, gauges)
    frame = _run("size_gauges", builds, levels, run, _GAUGE_COST, executor, workers, progress)
    frame = _with_points_per_level(frame, builds)
    frame["meets"] = frame.meets.astype(bool)
    frame.attrs.update(
        {
            "question": "size_gauges",
            "rules": rules.describe(),
            "method": "exact",
            "n": None,
            "seed": None,
            "risk": risk,
            "sizing": SIZING,
            "levels": levels,
            "day": "build_day (each build's own tests)" if day is None else _day_name(day),
        }
    )
    return frame
