"""How each build's tests fare across levels (:func:`progression`): one row per build, level,
test, system and band, its P(success) looked up in the odds of its roll's shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from explodice.analysis.levels.checks import TIE, check_builds, check_names, resolve_targets
from explodice.analysis.levels.odds import Odds, odds_of
from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_int,
    check_unique,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.game.build import LEVELS, Build, BuildTest, check_level, check_levels, parse_test
from explodice.game.checks import check_rules
from explodice.game.rules import ADVANTAGE_STATES, Advantage, Rules
from explodice.game.tables import DC_TABLES, DIFFICULTIES, SYSTEMS, System

__all__ = [
    "COLUMNS",
    "progression",
    "progression_rows",
]


def _progression_tests(build: Build, tests: Any) -> tuple[BuildTest, ...]:
    """The tests of :func:`progression_rows`: the build's own (``None``), its main test
    (``"main"``) or a list of :class:`BuildTest` (``parse_test`` reads one from its name)."""
    allowed = Phrase("a list of BuildTests, 'main' or None")
    if tests is None:
        return build.tests()
    if isinstance(tests, str):
        if tests != "main":
            raise fail("tests", tests, allowed, ExplodiceError)
        return (build.main_test(),)
    if isinstance(tests, (bytes, Mapping)) or not hasattr(tests, "__iter__"):
        raise fail("tests", tests, allowed, ExplodiceError, wrong_type=True)
    out = tuple(tests)
    for i, t in enumerate(out):
        if not isinstance(t, BuildTest):
            raise fail(f"tests[{i}]", t, Phrase("a BuildTest"), ExplodiceError, wrong_type=True)
    return tuple(check_unique("tests", out, key=lambda t: t.label))


#: The columns of :func:`progression`, in order.
COLUMNS = (
    "build", "level", "pb", "test", "kind", "ability", "proficiency", "system", "difficulty",
    "dc", "modifier", "advantage", "p", "drain", "target_low", "target_high", "in_target",
)  # fmt: skip


def _cases(
    builds: Sequence[Build],
    levels: Sequence[int],
    *,
    tests: Sequence[BuildTest] | Literal["main"] | None,
    dcs: Mapping[str, Mapping[str, Mapping[int, int]]],
    systems: Sequence[System],
    rules: Rules,
    advantage: Advantage,
) -> tuple[dict[str, list[Any]], list[Odds]]:
    """The rows of :func:`progression` before their probabilities, one per build, level, test
    (``None``: the build's :meth:`~explodice.Build.tests`; ``"main"``: its main test), system
    and band, in that order (``dcs[system][band][level]`` is the DC), and each row's
    :class:`~explodice.analysis.levels.odds.Odds`."""
    columns: dict[str, list[Any]] = {c: [] for c in COLUMNS[:12]}
    odds = []
    for build in builds:
        chosen = _progression_tests(build, tests)
        for level in levels:
            who = build.at(level)
            for test in chosen:
                for system in systems:
                    bands = dcs[system]
                    first = next(iter(bands.values()))[level]
                    roll = test.roll(who, dc=first, system=system, advantage=advantage)
                    shape = odds_of(roll, rules, system)
                    case = (
                        build.name,
                        level,
                        who.proficiency_bonus,
                        test.label,
                        test.kind,
                        test.ability,
                        test.proficiency(who),
                        system,
                    )
                    for band, by_level in bands.items():
                        row = (*case, band, int(by_level[level]), roll.modifier, roll.advantage)
                        for column, value in zip(columns.values(), row):
                            column.append(value)
                        odds.append(shape)
    return columns, odds


def _look_up(
    columns: dict[str, list[Any]], odds: list[Odds], targets: Mapping[str, tuple[float, float]]
) -> pd.DataFrame:
    """The rows of :func:`_cases` with their P(success) and E[drain], each shape asked once
    for all its needs, and the band's target range."""
    need = np.asarray(columns["dc"], dtype=np.int64) - np.asarray(columns["modifier"])
    p = np.empty(need.size)
    drain = np.empty(need.size)
    by_shape: dict[Odds, list[int]] = {}
    for i, shape in enumerate(odds):
        by_shape.setdefault(shape, []).append(i)
    for shape, rows in by_shape.items():
        p[rows] = shape.p(need[rows])
        drain[rows] = shape.drain(need[rows])
    low = np.array([targets[b][0] for b in columns["difficulty"]], dtype=float)
    high = np.array([targets[b][1] for b in columns["difficulty"]], dtype=float)
    frame = pd.DataFrame(columns)
    frame["p"] = p
    frame["drain"] = drain
    frame["target_low"] = low
    frame["target_high"] = high
    frame["in_target"] = (low - TIE <= p) & (p <= high + TIE)
    return frame


def progression_rows(
    build: Build,
    level: int,
    *,
    tests: Sequence[BuildTest] | Literal["main"] | None,
    targets: Mapping[str, tuple[float, float]],
    dcs: Mapping[str, Mapping[str, Mapping[int, int]]],
    systems: Sequence[System] = SYSTEMS,
    rules: Rules | None = None,
    advantage: Advantage = "normal",
) -> list[dict[str, Any]]:
    """The rows of one (build, level) case of :func:`progression`: each test (``None``: the
    build's :meth:`~explodice.Build.tests`; ``"main"``: its main test), system and band;
    ``dcs[system][band][level]`` is the DC.

    >>> from explodice import reference_builds
    >>> from explodice.game.build import parse_test
    >>> rows = progression_rows(reference_builds()[0], 1, tests=[parse_test("Athletics")],
    ...     targets={"moderate": (0.5, 0.9)}, dcs={"3d6x": {"moderate": {1: 16}}},
    ...     systems=["3d6x"])
    >>> from explodice import Roll, exact
    >>> [(r["system"], r["dc"], r["in_target"]) for r in rows]
    [('3d6x', 16, True)]
    >>> rows[0]["p"] == exact(Roll(rows[0]["modifier"])).p_success(16)
    True
    """
    columns, odds = _cases(
        [build], [level], tests=tests, dcs=dcs, systems=systems, rules=check_rules(rules),
        advantage=advantage,
    )  # fmt: skip
    rows = _look_up(columns, odds, targets).to_dict("records")
    return [{str(k): v for k, v in row.items()} for row in rows]


def _dc_tables(
    dcs: Any, difficulties: Sequence[str], levels: Sequence[int], systems: Sequence[str]
) -> dict[str, dict[str, dict[int, int]]]:
    """``{system: {band: {level: dc}}}``: 5e's table for d20; for 3d6x the game's table, a
    mapping ``{band: dc}`` or a DataFrame with ``difficulty``, ``level`` and ``dc`` columns
    (one DC per band and level, such as :func:`~explodice.level_dcs`'s rows of one table)."""
    out: dict[str, dict[str, dict[int, int]]] = {}
    for system in systems:
        if system == "d20" or dcs is None:
            table = DC_TABLES[system]
            out[system] = {b: dict.fromkeys(levels, int(table[b])) for b in difficulties}
            continue
        if isinstance(dcs, pd.DataFrame):
            missing = {"difficulty", "level", "dc"} - set(dcs.columns)
            if missing:
                raise ExplodiceError(
                    Phrase(
                        "`dcs` must have the columns difficulty, level and dc, but it lacks "
                        "{missing}.",
                        missing=sorted(missing),
                    )
                )
            cells: dict[str, dict[int, int]] = {}
            for i, (band, lv, dc) in enumerate(
                dcs[["difficulty", "level", "dc"]].itertuples(index=False)
            ):
                band = check_choice(f"dcs.difficulty[{i}]", band, DIFFICULTIES, ExplodiceError)
                lv = check_level(_whole(lv), f"dcs.level[{i}]")
                by_level = cells.setdefault(band, {})
                if lv in by_level:
                    raise ExplodiceError(
                        Phrase(
                            "`dcs` must give one DC per band and level, but {band!r} at level "
                            "{lv} has several (pick one `table` of level_dcs).",
                            band=band,
                            lv=lv,
                        )
                    )
                by_level[lv] = _dc(_whole(dc), f"dcs.dc[{i}]")
            for b in difficulties:
                lacking = [lv for lv in levels if lv not in cells.get(b, {})]
                if lacking:
                    raise ExplodiceError(
                        Phrase(
                            "`dcs` must give a DC for {b!r} at every level asked, but it lacks "
                            "levels {lacking}.",
                            b=b,
                            lacking=lacking,
                        )
                    )
            out[system] = {b: {lv: cells[b][lv] for lv in levels} for b in difficulties}
        elif isinstance(dcs, Mapping):
            for band in dcs:
                check_choice("dcs", band, DIFFICULTIES, ExplodiceError)
            no_dc = [b for b in difficulties if b not in dcs]
            if no_dc:
                raise ExplodiceError(
                    Phrase(
                        "`dcs` must give a DC for every band asked, but it lacks {no_dc}.",
                        no_dc=no_dc,
                    )
                )
            out[system] = {b: dict.fromkeys(levels, _dc(dcs[b], f"dcs.{b}")) for b in difficulties}
        else:
            raise ExplodiceTypeError(
                Phrase(
                    "`dcs` must be None (the game's table), a mapping {{band: dc}} or a "
                    "DataFrame of difficulty, level and dc, but {dcs} was passed.",
                    dcs=shown(dcs),
                )
            )
    return out


def _dc(value: Any, field_name: str) -> int:
    return check_int(field_name, value, lo=-1000, hi=1000, error=ExplodiceError)


def _whole(value: Any) -> Any:
    """A whole float as an ``int``: a DataFrame column of integers turns to floats beside an
    empty cell (16 reads 16.0); 16.5 stays, and is refused as a DC or a level."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def progression(
    builds: Build | Sequence[Build],
    levels: Iterable[int] = LEVELS,
    *,
    tests: Iterable[str | BuildTest] | str | None = None,
    targets: Mapping[str, Any] | None = None,
    dcs: Mapping[str, int] | pd.DataFrame | None = None,
    systems: Iterable[System] = SYSTEMS,
    advantage: Advantage = "normal",
    rules: Rules | None = None,
) -> pd.DataFrame:
    """How each build's tests fare across levels, band by band, in 3d6x and in d20.

    One tidy row per build, level, test, system and difficulty band: ``build, level, pb,
    test, kind, ability, proficiency`` (the multiplier at that level), ``system, difficulty,
    dc, modifier, advantage, p`` (P(success), exact), ``drain`` (E[drain] per roll; 0 in d20),
    ``target_low, target_high`` and ``in_target`` (p within the band's range).

    - ``tests``: skills, saves and ability checks by name (``"Stealth"``, ``"DEX save"``,
      ``"STR"``); default each build's :meth:`~explodice.Build.tests` (every skill and save it
      is proficient in at some level, and its main ability's check); ``"main"``: each build's
      :meth:`~explodice.Build.main_test` alone (a heatmap of level x band per build).
    - ``targets``: ``{band: (low, high)}``; default
      :data:`~explodice.game.tables.TARGET_RANGES` (what 5e gives its trained build over
      levels 1-20, docs/rules.md); the bands shown are the targets' bands.
    - ``dcs``: the 3d6x DCs, default the game's table (8 12 16 22 28 35); a mapping ``{band:
      dc}``, or a level-based table: a DataFrame of ``difficulty, level, dc`` (such as
      ``level_dcs(...).query("table == 'level'")``). d20 always reads 5e's table (5 10 15 20
      25 30).

    Computed directly (no sweep: a grid of 20 levels and four builds takes a fraction of a
    second): one exact distribution per roll shape, each looked up at every need of its rows
    at once. ``attrs``: the question, rules, method (exact), n and seed (None), targets, dcs,
    levels and advantage.

    >>> from explodice import reference_builds   # the fighter's Athletics at level 1: +5
    >>> t = progression(reference_builds()[:1], levels=[1], tests=["Athletics"], systems=["d20"])
    >>> [(int(r.dc), round(r.p, 2)) for r in t.itertuples()]   # (21 - DC + 5) / 20, by hand
    [(5, 1.0), (10, 0.8), (15, 0.55), (20, 0.3), (25, 0.05), (30, 0.0)]
    """
    rules = check_rules(rules)
    builds = check_builds(builds)
    levels = check_levels(levels)
    ranges = resolve_targets(targets)
    test_list: tuple[BuildTest, ...] | Literal["main"] | None = (
        None
        if tests is None
        else "main"
        if isinstance(tests, str) and tests == "main"
        else tuple(parse_test(t, "tests") for t in check_names("tests", tests))
    )
    chosen = tuple(
        check_choice("systems", s, SYSTEMS, ExplodiceError) for s in check_names("systems", systems)
    )
    if len(set(chosen)) != len(chosen):
        raise ExplodiceError(
            Phrase(
                "`systems` must not repeat a system, but {chosen} was passed.", chosen=list(chosen)
            )
        )
    state = check_choice("advantage", advantage, ADVANTAGE_STATES, ExplodiceError)
    tables = _dc_tables(dcs, list(ranges), levels, chosen)
    columns, odds = _cases(
        builds, levels, tests=test_list, dcs=tables, systems=chosen, rules=rules, advantage=state
    )
    frame = _look_up(columns, odds, ranges)
    frame.attrs.update(
        {
            "question": "progression",
            "rules": rules.describe(),
            "method": "exact",
            "n": None,
            "seed": None,
            "targets": ranges,
            "dcs": "the game's table" if dcs is None else "given",
            "levels": levels,
            "advantage": advantage,
        }
    )
    return frame
