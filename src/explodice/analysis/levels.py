"""The questions across levels 1-20 (docs/rules.md, "Levels"), case by case.

The level is a column and the build is the input: every table here has ``level`` in it.

- :func:`odds_of`: P(success) and E[drain] of one roll at every DC, from one exact
  distribution per roll *shape* (advantage, kind, policy, reroll: the modifier is a shift), so
  the builds and levels that share a shape share it (cached).
- :func:`progression_rows`: one (build, level) case of :func:`explodice.progression`.
- :func:`level_dcs`: per difficulty band, the DC of each level that puts a build's test
  closest to its target, and the single flat table with the smallest worst miss.
- :func:`fit_save_dc`: the base B of a 3d6x save DC, B + PB + the caster's modifier, fitted
  to 5e's 8 + PB + modifier over the gaps between caster and target.
- :func:`gauge_rows`: one (build, level) case of :func:`explodice.size_gauges`, the exact day
  called in one place, :func:`p_empty_by_maximum`.

The grids over builds and levels (progression, gauge sizing) run through the sweeps layer
(:mod:`explodice.sweeps.levels`), so a large one can go to a Dask cluster.

>>> from explodice import reference_builds
>>> fighter = reference_builds()[0]
>>> t = level_dcs({"moderate": 0.5}, build=fighter, levels=[1, 20])
>>> t.query("table == 'level'")[["level", "dc"]].values.tolist()
[[1, 17], [20, 23]]
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_int,
    check_items,
    check_real,
    check_text,
    fail,
    listed,
    shown,
)
from explodice.day.scenario import MAX_WEIGHT, DayRoll, Scenario
from explodice.engine.d20 import d20
from explodice.engine.distribution import Distribution
from explodice.engine.exact import exact
from explodice.game.build import (
    LEVELS,
    Build,
    BuildTest,
    check_levels,
    parse_test,
    reference_builds,
)
from explodice.game.character import ABILITIES, GAUGE_ABILITY, GAUGES, Character
from explodice.game.checks import check_rules
from explodice.game.rules import ADVANTAGE_STATES, Advantage, Best, Roll, Rules
from explodice.game.tables import (
    D20_SAVE_DC_BASE,
    DC_TABLES,
    DIFFICULTIES,
    MAX_GAUGE,
    SYSTEMS,
    TARGET_RANGES,
    check_system,
)

__all__ = [
    "DAY_ROLLS",
    "Criterion",
    "Odds",
    "SaveDCFit",
    "BuildDay",
    "build_day",
    "check_builds",
    "check_names",
    "check_risk",
    "clear_caches",
    "fit_save_dc",
    "gauge_rows",
    "level_dcs",
    "odds_of",
    "p_empty_by_maximum",
    "placed_day",
    "points_per_level",
    "progression_rows",
    "resolve_targets",
]

_TIE = 1e-12
#: A DC-dependent roll (a best(λ) policy, a reroll on failure) is searched over the DCs where
#: the same roll without them succeeds with a probability in [_WINDOW_P, 1 - _WINDOW_P] ...
_WINDOW_P = 1e-9
#: ... widened by this many DCs each side.
_WINDOW_PAD = 4
#: The default day of :func:`build_day`: a PC's share of the report's day (40 rolls among
#: three PCs, of which its fighter's share is 4/13: 12.3), rounded to a dozen.
DAY_ROLLS = 12
#: P(the gauge reaches 0) left at the top of the gauge sized by the exact day: the chain
#: starts high enough that less than this is cut.
_TAIL = 1e-12

Criterion = Literal["least_squares", "minimax"]
CRITERIA: tuple[Criterion, ...] = get_args(Criterion)


# -- the odds of one test at every DC ---------------------------------------------------------
def _dc_dependent(roll: Roll, system: str) -> bool:
    """A roll whose law depends on its DC: a best(λ) policy (3d6x) or a reroll on failure."""
    return roll.reroll_dc is not None or (system == "3d6x" and isinstance(roll.policy, Best))


@functools.lru_cache(maxsize=8192)
def _distribution(roll: Roll, rules: Rules, system: str) -> Distribution:
    """The exact distribution of ``roll`` in ``system`` (cached: its cut, its tables)."""
    return d20(roll) if system == "d20" else exact(roll, rules)


@dataclass(frozen=True)
class Odds:
    """P(success) and E[drain] of one roll shape (modifier 0) as functions of the *need*,
    ``dc - modifier``: a best(λ) policy is played against, and a reroll on failure spent
    against, each DC it is asked about. Get one with :func:`odds_of`.

    >>> o = odds_of(Roll(4), Rules(), "3d6x")
    >>> round(float(o.p(16 - 4)), 4), round(o.drain(12), 9)
    (0.4907, 2.1)
    """

    roll: Roll
    rules: Rules
    system: str

    @property
    def dc_dependent(self) -> bool:
        return _dc_dependent(self.roll, self.system)

    def at(self, need: int) -> Distribution:
        """The distribution of the roll against the DC ``need`` (at modifier 0)."""
        roll = self.roll
        if self.system == "3d6x" and isinstance(roll.policy, Best):
            roll = roll.replace(policy=Best(int(need), roll.policy.weight))
        if roll.reroll is not None and roll.reroll.trigger == "failure":
            roll = roll.replace(reroll=roll.reroll.with_dc(int(need)))
        return _distribution(roll, self.rules, self.system)

    def p(self, need: Any) -> Any:
        """P(success) at ``need`` (an int or an array of them)."""
        needs = np.asarray(need, dtype=np.int64)
        if not self.dc_dependent:
            return self.at(0).p_success(needs)
        out = np.array([self.at(n).p_success(n) for n in needs.ravel().tolist()], dtype=float)
        return float(out[0]) if needs.ndim == 0 else out.reshape(needs.shape)

    def drain(self, need: Any) -> Any:
        """E[drain] at ``need`` (0 in d20, for NPCs and kinds outside the rule of 1)."""
        needs = np.asarray(need, dtype=np.int64)
        if not self.dc_dependent:
            value = float(self.at(0).drain_mean)
            return value if needs.ndim == 0 else np.full(needs.shape, value)
        out = np.array([self.at(n).drain_mean for n in needs.ravel().tolist()], dtype=float)
        return float(out[0]) if needs.ndim == 0 else out.reshape(needs.shape)

    def needs(self) -> np.ndarray:
        """Every need that matters: from one below the lowest total (P = 1) to one above the
        highest (P = 0); for a DC-dependent roll, the needs where the same roll without its
        DC-bound parts has P in [1e-9, 1 - 1e-9], widened by 4 each side."""
        if not self.dc_dependent:
            dist = self.at(0)
            return np.arange(dist.lo - 1, dist.lo + dist.pmf.shape[0] + 1)
        plain = self.roll.replace(
            policy="keep" if isinstance(self.roll.policy, Best) else self.roll.policy,
            reroll=None if self.roll.reroll_dc is not None else self.roll.reroll,
        )
        dist = _distribution(plain, self.rules, self.system)
        span = np.arange(dist.lo - 1, dist.lo + dist.pmf.shape[0] + 1)
        p = np.asarray(dist.p_success(span))
        inside = np.flatnonzero((p >= _WINDOW_P) & (p <= 1 - _WINDOW_P))
        lo, hi = (inside[0], inside[-1]) if inside.size else (0, span.size - 1)
        return np.arange(span[lo] - _WINDOW_PAD, span[hi] + _WINDOW_PAD + 1)


@functools.lru_cache(maxsize=4096)
def _odds(shape: Roll, rules: Rules, system: str) -> Odds:
    return Odds(shape, rules, system)


def clear_caches() -> None:
    """Empty the caches of distributions and odds the level questions fill."""
    _distribution.cache_clear()
    _odds.cache_clear()


def odds_of(roll: Roll, rules: Rules | None = None, system: str = "3d6x") -> Odds:
    """The :class:`Odds` of ``roll``'s shape: its modifier, and the DC of its best(λ) policy
    and of its reroll on failure, set aside (every DC is asked of the shape)."""
    rules, system = check_rules(rules), check_system(system)
    shape = roll.replace(modifier=0)
    if isinstance(shape.policy, Best):
        shape = shape.replace(policy=Best(0, shape.policy.weight))
    if shape.reroll is not None and shape.reroll.trigger == "failure":
        shape = shape.replace(reroll=shape.reroll.with_dc(0))
    return _odds(shape, rules, system)


# -- checks shared by the questions ------------------------------------------------------------
def check_builds(builds: Any, field_name: str = "builds") -> list[Build]:
    """One build or several, as a list with unique names."""
    if isinstance(builds, Build):
        return [builds]
    allowed = "a Build or a list of them"
    if isinstance(builds, (str, bytes, Mapping)) or not hasattr(builds, "__iter__"):
        raise fail(field_name, builds, allowed, ExplodiceError, wrong_type=True)
    out = check_items(field_name, builds, what="Builds")
    for i, b in enumerate(out):
        if not isinstance(b, Build):
            raise fail(f"{field_name}[{i}]", b, "a Build", ExplodiceError, wrong_type=True)
    names = [b.name for b in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ExplodiceError(
            f"`{field_name}` must have unique names, but {shown(dupes[0])} is used twice."
        )
    return out


def check_risk(risk: Any) -> float:
    """A risk in [1e-9, 1): the exact day is cut far below 1e-9."""
    allowed = "a probability in [1e-9, 1)"
    try:
        value = check_real("risk", risk, lo=1e-9, hi=1, error=ExplodiceError)
    except ExplodiceError as err:
        wrong_type = isinstance(err, TypeError)
        raise fail("risk", risk, allowed, ExplodiceError, wrong_type=wrong_type) from None
    if value >= 1:
        raise fail("risk", risk, allowed, ExplodiceError)
    return value


def check_names(field_name: str, value: Any, what: str = "names") -> list[Any]:
    """A name (or a :class:`BuildTest`) as a list of one, else :func:`check_items`'s
    non-empty list (each item is its caller's to check).

    >>> check_names("saves", "DEX"), check_names("saves", ("DEX", "WIS"))
    (['DEX'], ['DEX', 'WIS'])
    """
    if isinstance(value, (str, BuildTest)):
        return [value]
    return check_items(field_name, value, what=what)


def resolve_targets(targets: Any) -> dict[str, tuple[float, float]]:
    """Target ranges per band: ``{band: (low, high)}``, or ``{band: p}`` (the range ``(p,
    p)``); ``None`` is :data:`~explodice.game.tables.TARGET_RANGES`.

    >>> resolve_targets({"easy": (0.75, 0.95), "hard": 0.3})
    {'easy': (0.75, 0.95), 'hard': (0.3, 0.3)}
    """
    if targets is None:
        return {k: (float(lo), float(hi)) for k, (lo, hi) in TARGET_RANGES.items()}
    if not isinstance(targets, Mapping) or not targets:
        raise ExplodiceTypeError(
            "`targets` must be a mapping {band: (low, high)} or {band: p}, but "
            f"{shown(targets)} was passed."
        )
    out = {}
    for band, value in targets.items():
        where = f"targets.{band}"
        check_choice(where, band, DIFFICULTIES, ExplodiceError)
        pair = value if isinstance(value, (tuple, list)) else (value, value)
        good = len(pair) == 2 and all(
            isinstance(x, (int, float, np.floating)) and not isinstance(x, bool) for x in pair
        )
        if not good or not 0 <= pair[0] <= pair[1] <= 1:
            raise ExplodiceError(
                f"`{where}` must be a probability or a pair (low, high) with 0 <= low <= high "
                f"<= 1, but {shown(value)} was passed."
            )
        out[band] = (float(pair[0]), float(pair[1]))
    return out


def _check_advantage(advantage: Any) -> Advantage:
    return check_choice("advantage", advantage, ADVANTAGE_STATES, ExplodiceError)


# -- progression --------------------------------------------------------------------------------
def _progression_tests(build: Build, tests: Any) -> tuple[BuildTest, ...]:
    """The tests of :func:`progression_rows`: the build's own (``None``), its main test
    (``"main"``) or a list of :class:`BuildTest` (``parse_test`` reads one from its name)."""
    allowed = "a list of BuildTests, 'main' or None"
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
            raise fail(f"tests[{i}]", t, "a BuildTest", ExplodiceError, wrong_type=True)
    return out


def progression_rows(
    build: Build,
    level: int,
    *,
    tests: Sequence[BuildTest] | Literal["main"] | None,
    targets: Mapping[str, tuple[float, float]],
    dcs: Mapping[str, Mapping[str, Mapping[int, int]]],
    systems: Sequence[str] = SYSTEMS,
    rules: Rules | None = None,
    advantage: Advantage = "normal",
) -> list[dict[str, Any]]:
    """The rows of one (build, level) case of :func:`explodice.progression`: each test
    (``None``: the build's :meth:`~explodice.Build.tests`; ``"main"``: its main test), system
    and band; ``dcs[system][band][level]`` is the DC.

    >>> from explodice import reference_builds
    >>> rows = progression_rows(reference_builds()[0], 1, tests=[parse_test("Athletics")],
    ...     targets={"moderate": (0.5, 0.9)}, dcs={"3d6x": {"moderate": {1: 16}}},
    ...     systems=["3d6x"])
    >>> [(r["system"], r["dc"], round(r["p"], 4), r["in_target"]) for r in rows]
    [('3d6x', 16, 0.5741, True)]
    """
    rules = check_rules(rules)
    who = build.at(level)
    rows = []
    for test in _progression_tests(build, tests):
        for system in systems:
            bands = dcs[system]
            first = next(iter(bands.values()))[level]
            roll = test.roll(who, dc=first, system=system, advantage=advantage)
            odds = odds_of(roll, rules, system)
            for band, by_level in bands.items():
                dc = int(by_level[level])
                need = dc - roll.modifier
                p = float(odds.p(need))
                low, high = targets[band]
                rows.append(
                    {
                        "build": build.name,
                        "level": level,
                        "pb": who.proficiency_bonus,
                        "test": test.label,
                        "kind": test.kind,
                        "ability": test.ability,
                        "proficiency": test.proficiency(who),
                        "system": system,
                        "difficulty": band,
                        "dc": dc,
                        "modifier": roll.modifier,
                        "advantage": roll.advantage,
                        "p": p,
                        "drain": float(odds.drain(need)),
                        "target_low": low,
                        "target_high": high,
                        "in_target": bool(low - _TIE <= p <= high + _TIE),
                    }
                )
    return rows


# -- level-based DCs ---------------------------------------------------------------------------
def _best_index(miss: np.ndarray) -> int:
    """The index of the smallest ``miss`` (ties, within 1e-12: the last, the highest DC)."""
    return int(np.nonzero(miss <= miss.min() + _TIE)[0][-1])


def _build_dcs(
    b: Build,
    t: BuildTest,
    levels: list[int],
    aims: dict[str, float],
    system: str,
    rules: Rules,
    advantage: Advantage,
) -> pd.DataFrame:
    """The rows of :func:`level_dcs` for one build's test: per band, its level, flat and
    typical tables."""
    typical = DC_TABLES[system]
    rolls = [t.roll(b.at(lv), dc=0, system=system, advantage=advantage) for lv in levels]
    mods = np.array([r.modifier for r in rolls])
    odds = [odds_of(r, rules, system) for r in rolls]
    lo = min(int(o.needs()[0]) + m for o, m in zip(odds, mods))
    hi = max(int(o.needs()[-1]) + m for o, m in zip(odds, mods))
    dcs = np.arange(lo, hi + 1)
    p = np.stack([np.asarray(o.p(dcs - m), dtype=float) for o, m in zip(odds, mods)])
    rows = []
    for band, aim in aims.items():
        gap = np.abs(p - aim)  # [level, dc]
        flat = _best_index(gap.max(axis=0))
        chosen = {
            "level": [_best_index(gap[i]) for i in range(len(levels))],
            "flat": [flat] * len(levels),
            "typical": [int(typical[band] - lo)] * len(levels),
        }
        for table, cols in chosen.items():
            for i, lv in enumerate(levels):
                j = cols[i]
                dc = int(lo + j)
                pj = float(p[i, j]) if 0 <= j < dcs.size else float(odds[i].p(dc - mods[i]))
                rows.append(
                    {
                        "build": b.name,
                        "test": t.label,
                        "level": lv,
                        "modifier": int(mods[i]),
                        "difficulty": band,
                        "target": aim,
                        "table": table,
                        "dc": dc,
                        "p": pj,
                        "miss": pj - aim,
                    }
                )
    frame = pd.DataFrame(rows)
    frame["worst_miss"] = frame.groupby(["difficulty", "table"]).miss.transform(
        lambda s: s.abs().max()
    )
    return frame


def level_dcs(
    targets: Mapping[str, float | tuple[float, float]] | None = None,
    *,
    build: Build | Sequence[Build] | None = None,
    test: str | BuildTest | None = None,
    levels: Iterable[int] = LEVELS,
    system: str = "3d6x",
    rules: Rules | None = None,
    advantage: str = "normal",
) -> pd.DataFrame:
    """The DC table across levels that keeps a build's test on its target per band.

    ``targets``: ``{band: p}``, or ``{band: (low, high)}`` aiming at the middle of the range;
    default the middles of :func:`progression`'s ranges,
    :data:`~explodice.game.tables.TARGET_RANGES` (very easy 0.975, easy 0.875, moderate 0.7,
    hard 0.45, very hard 0.2, nearly impossible 0.075), so the table found keeps the build
    inside its ranges. ``build``: one build or several (each
    its own tables), default the reference fighter; ``test``: default each build's
    :meth:`~explodice.Build.main_test` (the fighter's Athletics: trained, main ability).

    Tidy, one row per build, band, level and ``table``:

    - ``"level"``: the DC of that level whose P(success) is closest to the target (ties: the
      higher DC, as :func:`~explodice.dc_for_probability`);
    - ``"flat"``: the single DC for all the levels that minimises the worst miss over the levels
      asked (ties: the higher DC);
    - ``"typical"``: the system's printed DC.

    Columns: ``build, test, level, modifier, difficulty, target, table, dc, p, miss`` (p -
    target) and ``worst_miss`` (the largest ``abs(miss)`` of that table and band over the
    levels). Exact engine, integer DCs. A best(λ) policy and a reroll on failure are played
    against each DC; their DCs are searched where the same roll without them has P(success)
    in [1e-9, 1 - 1e-9] (and 4 DCs beyond each side).

    >>> from explodice import reference_builds
    >>> t = level_dcs({"easy": 0.75}, build=reference_builds()[0], levels=range(1, 21))
    >>> t.groupby("table").worst_miss.first().round(3).to_dict()
    {'flat': 0.231, 'level': 0.005, 'typical': 0.25}
    """
    system, rules = check_system(system), check_rules(rules)
    advantage = _check_advantage(advantage)
    aims = {band: (lo + hi) / 2 for band, (lo, hi) in resolve_targets(targets).items()}
    builds = check_builds(reference_builds()[0] if build is None else build, "build")
    levels = check_levels(levels)
    frames = [
        _build_dcs(
            b,
            b.main_test() if test is None else parse_test(test),
            levels,
            aims,
            system,
            rules,
            advantage,
        )
        for b in builds
    ]
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(
        {
            "question": "level_dcs",
            "system": system,
            "rules": rules.describe(),
            "method": "exact",
            "n": None,
            "seed": None,
            "targets": aims,
            "advantage": advantage,
            "levels": levels,
        }
    )
    return out


# -- the base of a save DC ---------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class SaveDCFit:
    """The fitted base of 3d6x's save DC (:func:`fit_save_dc`).

    ``base``: B, the DC being B + PB + the caster's modifier; ``criterion`` and ``error`` (its
    value at B: the weighted root mean square error, or the largest absolute error);
    ``gaps``: one row per gap (PB + caster's modifier - target's save modifier) with its
    ``count``, ``share``, ``p_d20`` (5e, DC 8 + PB + modifier), ``p_3d6x`` (at B) and
    ``error`` (p_3d6x - p_d20); ``cases``: one row per level, caster, target and save;
    ``bases``: both criteria for every base tried.
    """

    base: int
    criterion: str
    error: float
    gaps: pd.DataFrame
    cases: pd.DataFrame
    bases: pd.DataFrame
    d20_base: int = D20_SAVE_DC_BASE

    def to_frame(self) -> pd.DataFrame:
        """The table of gaps."""
        return self.gaps

    def __repr__(self) -> str:
        return (
            f"SaveDCFit(base={self.base}: DC = {self.base} + PB + modifier (5e: "
            f"{self.d20_base} + PB + modifier); {self.criterion} error {self.error:.4f} over "
            f"{len(self.gaps)} gaps, {int(self.gaps['count'].sum())} cases)"
        )

    def _repr_html_(self) -> str:
        return (
            f"<div><b>{html.escape(repr(self))}</b>"
            f"{self.gaps.to_html(index=False, float_format=lambda x: f'{x:.4f}')}</div>"
        )


def _save_dc_inputs(
    builds: list[Build], casters: Any, saves: Any, bases: Any
) -> tuple[list[Build], list[str], np.ndarray]:
    """:func:`fit_save_dc`'s casters (builds), saves (abilities) and bases tried, checked."""
    names = [b.name for b in builds]
    if casters is None:
        caster_builds = builds
    else:
        wanted = [
            check_choice("casters", c, tuple(names), ExplodiceError)
            for c in check_names("casters", casters, "names of builds")
        ]
        caster_builds = [b for b in builds if b.name in wanted]
    save_list = [
        parse_test(f"{check_text('saves', s, what='abilities')} save", "saves").ability
        for s in check_names("saves", saves, "abilities")
    ]
    tried = (
        np.arange(-20, 61)
        if bases is None
        else np.array(
            [
                check_int("bases", b, lo=-1000, hi=1000, error=ExplodiceError)
                for b in check_names("bases", bases, "integers")
            ]
        )
    )
    return caster_builds, save_list, tried


def _save_cases(
    levels: list[int],
    caster_builds: list[Build],
    builds: list[Build],
    save_list: list[str],
    tried: np.ndarray,
    d20_base: int,
    rules: Rules,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Every case of :func:`fit_save_dc` (level, caster, target, save), one row each with 5e's
    P(save) at 8 + gap, and 3d6x's P(save) at each base tried (``[case, base]``)."""
    cases = []
    p3_rows = []
    for lv in levels:
        for caster in caster_builds:
            c = caster.at(lv)
            assert caster.main is not None
            spell = c.proficiency_bonus + c.modifier(caster.main)
            for target in builds:
                who = target.at(lv)
                for ability in save_list:
                    test = BuildTest("save", ability)
                    r3 = test.roll(who, dc=0, system="3d6x")
                    rd = test.roll(who, dc=0, system="d20")
                    gap = spell - r3.modifier
                    o3 = odds_of(r3, rules, "3d6x")
                    p3_rows.append(np.asarray(o3.p(tried + gap), dtype=float))
                    cases.append(
                        {
                            "level": lv,
                            "caster": caster.name,
                            "target": target.name,
                            "save": ability,
                            "pb": c.proficiency_bonus,
                            "caster_modifier": c.modifier(caster.main),
                            "save_modifier": r3.modifier,
                            "gap": gap,
                            "dc_d20": d20_base + spell,
                            "p_d20": float(
                                odds_of(rd, rules, "d20").p(d20_base + spell - rd.modifier)
                            ),
                        }
                    )
    return pd.DataFrame(cases), np.stack(p3_rows)


def _by_gap(
    frame: pd.DataFrame, p3: np.ndarray, tried: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cases grouped by gap: each gap's count, share, mean P(save) in 5e and in 3d6x at
    each base tried (``[gap, base]``)."""
    gaps = np.sort(frame.gap.unique())
    index = np.searchsorted(gaps, frame.gap.to_numpy())
    count = np.bincount(index, minlength=gaps.size).astype(float)
    share = count / count.sum()
    p_d20 = np.bincount(index, weights=frame.p_d20.to_numpy(), minlength=gaps.size) / count
    p_3 = (
        np.stack(
            [np.bincount(index, weights=p3[:, j], minlength=gaps.size) for j in range(tried.size)],
            axis=1,
        )
        / count[:, None]
    )
    return gaps, count, share, p_d20, p_3


def fit_save_dc(
    builds: Build | Sequence[Build] | None = None,
    *,
    levels: Iterable[int] = LEVELS,
    casters: Iterable[str] | None = None,
    saves: Iterable[str] = ABILITIES,
    criterion: Criterion = "least_squares",
    bases: Iterable[int] | None = None,
    d20_base: int = D20_SAVE_DC_BASE,
    rules: Rules | None = None,
) -> SaveDCFit:
    """The base B for which a 3d6x save DC of B + PB + the caster's modifier gives the target
    the same P(save succeeds) as 5e's 8 + PB + modifier.

    The gaps are those the builds produce: at each level, each caster (``casters``: names of
    ``builds``, default all; its modifier is its main ability's) against each build as target
    and each save of ``saves`` (default all six), every such case counted once, both at the
    same level. gap = PB + caster's modifier - target's save modifier; in 5e the save succeeds
    when d20 >= 8 + gap, in 3d6x when 3d6x >= B + gap (the target's own roll: its policy,
    reroll and, in 5e, a save proficient twice read once).

    ``criterion``: ``"least_squares"`` (default) minimises the squared error of the gaps
    weighted by how often each occurs; ``"minimax"`` the largest error over the gaps that
    occur. Ties go to the higher base. ``bases``: the integers tried (default -20..60).

    >>> from explodice import reference_builds
    >>> fit = fit_save_dc(reference_builds())
    >>> fit.base, round(fit.error, 3)
    (9, 0.051)
    """
    rules = check_rules(rules)
    builds = check_builds(reference_builds() if builds is None else builds)
    levels = check_levels(levels)
    check_choice("criterion", criterion, CRITERIA, ExplodiceError)
    names = [b.name for b in builds]
    caster_builds, save_list, tried = _save_dc_inputs(builds, casters, saves, bases)
    d20_base = check_int("d20_base", d20_base, lo=-1000, hi=1000, error=ExplodiceError)
    frame, p3 = _save_cases(levels, caster_builds, builds, save_list, tried, d20_base, rules)
    gaps, count, share, p_d20, p_3 = _by_gap(frame, p3, tried)
    err = p_3 - p_d20[:, None]  # [gap, base]
    rmse = np.sqrt((share[:, None] * err**2).sum(axis=0))
    worst = np.abs(err).max(axis=0)
    objective = rmse if criterion == "least_squares" else worst
    j = _best_index(objective)
    base = int(tried[j])
    frame["dc_3d6x"] = base + frame.pb + frame.caster_modifier
    frame["p_3d6x"] = p3[:, j]
    frame["error"] = frame.p_3d6x - frame.p_d20
    table = pd.DataFrame(
        {
            "gap": gaps.astype(int),
            "count": count.astype(int),
            "share": share,
            "p_d20": p_d20,
            "p_3d6x": p_3[:, j],
            "error": err[:, j],
        }
    )
    by_base = pd.DataFrame(
        {"base": tried, "rmse": rmse, "max_error": worst, "chosen": tried == base}
    )
    provenance = {
        "question": "fit_save_dc",
        "rules": rules.describe(),
        "method": "exact",
        "n": None,
        "seed": None,
        "criterion": criterion,
        "base": base,
        "d20_base": d20_base,
        "levels": levels,
        "builds": names,
    }
    for t in (table, frame, by_base):
        t.attrs.update(provenance)
    return SaveDCFit(base, criterion, float(objective[j]), table, frame, by_base, d20_base)


# -- gauge sizing ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BuildDay:
    """The default day of a build at a level (:func:`build_day`): callable ``level ->
    Scenario``, and picklable, so a sweep's workers can call it."""

    build: Build
    rolls_per_day: int = DAY_ROLLS
    difficulty: str = "moderate"
    skill_weight: float = 3.0
    save_weight: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.build, Build):
            raise fail("build", self.build, "a Build", ExplodiceError, wrong_type=True)
        check_int("rolls_per_day", self.rolls_per_day, lo=1, error=ExplodiceError)
        check_choice("difficulty", self.difficulty, DIFFICULTIES, ExplodiceError)
        for name in ("skill_weight", "save_weight"):
            weight = check_real(
                name, getattr(self, name), lo=0, hi=MAX_WEIGHT, error=ExplodiceError
            )
            if weight == 0:
                raise fail(name, weight, f"a number > 0 and <= {MAX_WEIGHT:.0e}", ExplodiceError)
        self(LEVELS[0])  # the day's own checks (the most rolls a day), now rather than later

    def __call__(self, level: int) -> Scenario:
        b = self.build
        dc = DC_TABLES["3d6x"][self.difficulty]
        rolls = []
        for t in b.tests():
            if t.kind == "check":
                rolls.append(DayRoll(b.name, skill=t.skill, dc=dc, weight=self.skill_weight))
            elif t.kind == "save":
                rolls.append(
                    DayRoll(b.name, ability=t.ability, kind="save", dc=dc, weight=self.save_weight)
                )
        if not rolls:  # no proficiency at all: the main ability's check
            rolls.append(DayRoll(b.name, ability=b.main, dc=dc))
        return Scenario(
            [b.at(level)],
            rolls,
            rolls_per_day=self.rolls_per_day,
            name=f"{b.name}'s day at level {level}, DC {dc}",
        )


def build_day(
    build: Build,
    *,
    rolls_per_day: int = DAY_ROLLS,
    difficulty: str = "moderate",
    skill_weight: float = 3.0,
    save_weight: float = 1.0,
) -> BuildDay:
    """The default adventuring day of :func:`explodice.size_gauges`, as a callable ``level ->
    Scenario``: the build alone, ``rolls_per_day`` rolls (default 12, a PC's share of the
    report's day) drawn by weight from its tests — each skill it is proficient in at some
    level (weight 3) and each such save (weight 1), as the report's day weighs them — all
    against the game's DC for ``difficulty`` (moderate: 16). The same day at every level: a
    designer whose days grow gives their own callable.

    >>> from explodice import reference_builds
    >>> build_day(reference_builds()[0])(5).describe()
    "fighter's day at level 5, DC 16: fighter; 12 rolls drawn from 4 types"
    """
    return BuildDay(build, rolls_per_day, difficulty, skill_weight, save_weight)


def placed_day(
    build: Build,
    level: int,
    day: Scenario | Callable[[int], Scenario],
    character: str | None = None,
) -> tuple[Scenario, str]:
    """The day at ``level`` with the build in its character's place, and that character's
    name: ``day`` is a Scenario or a callable ``level -> Scenario``; the build takes the place
    of ``character`` (default: the character with the build's name, else the day's only PC),
    the other characters become NPCs (their rolls stay in the day), and a ``start`` for the
    build's character is refused (the build starts the day full)."""
    scenario = day(level) if not isinstance(day, Scenario) and callable(day) else day
    if not isinstance(scenario, Scenario):
        raise ExplodiceTypeError(
            f"`day` must be a Scenario or a callable level -> Scenario, but it gave "
            f"{shown(scenario)} at level {level}."
        )
    who = _who(scenario, build, character)
    return _place(scenario, build.at(level), who), who


def _who(scenario: Scenario, build: Build, character: str | None) -> str:
    """The character of ``scenario`` whose rolls the build makes."""
    names = [c.name for c in scenario.characters]
    if character is not None:
        what = f"the name of a character of the day's scenario {listed(names)}"
        check_text("character", character, what=what)
        if character not in names:
            raise ExplodiceError(
                f"`character` must name a character of the day's scenario {listed(names)}, "
                f"but {shown(character)} was passed."
            )
        return character
    if build.name in names:
        return build.name
    pcs = [c.name for c in scenario.characters if c.actor == "pc"]
    if len(pcs) == 1:
        return pcs[0]
    raise ExplodiceError(
        f"`character` must name whose rolls build {shown(build.name)} makes in "
        f"{shown(scenario.name)}: no character has its name, and the day has "
        f"{len(pcs)} PCs {listed(pcs)}."
    )


def _place(scenario: Scenario, character: Character, who: str) -> Scenario:
    """``scenario`` with ``character`` (renamed ``who``) in ``who``'s place, the others as
    NPCs (they keep their rolls in the day's mix; no gauge of theirs is tracked)."""
    if who in scenario.start:
        raise ExplodiceError(
            f"`day`: the scenario sets {who}'s starting gauges (`start`), which gauge sizing "
            "cannot apply: the build starts the day with its gauges full (a long rest)."
        )
    chars = [
        replace(character, name=who)
        if c.name == who
        else replace(c, actor="npc", policy="keep", reroll=None)
        for c in scenario.characters
    ]
    return scenario.replace(characters=chars, start={})


def _drains(scenario: Scenario, who: str, rules: Rules) -> dict[str, set[str]]:
    """For each gauge that ``who``'s rolls drain, the gauges whose 0 gives those rolls
    disadvantage (the gauge itself, and another for a skill rolled with another ability)."""
    out: dict[str, set[str]] = {}
    for i, r in enumerate(scenario.rolls):
        if r.character == who and scenario.roll_of(i).drains(rules):
            out.setdefault(r.drain_gauge(rules), set()).add(r.gauge)
    return out


def p_empty_by_maximum(
    scenario: Scenario, who: str, gauges: Iterable[str], rules: Rules | None = None
) -> dict[str, np.ndarray]:
    """For each of ``gauges``: ``out[g][m]`` = P(``who``'s gauge ``g`` reaches 0 before the
    long rest | its maximum is ``m``), for m = 0, 1, ..., M (``out[g][M]`` < 1e-12), by the
    exact day.

    Each gauge is sized alone: the excess of another gauge that empties is not poured into it
    (``overflow="lost"`` for the day), and the other gauges are held at their maxima only where
    one of the rolls that drain this gauge reads them (a skill rolled with another ability);
    the rest are set to 0, which changes none of this gauge's drains. A gauge empties when the
    day's drain on it reaches its maximum, so one exact day from a maximum M above any day's
    drain gives its whole curve (``P(drain >= m) = P(end level <= M - m)``): one exact day of
    one gauge's levels per gauge (a day of several gauges' levels together costs far more: the
    chain's work grows with the product of their sizes).

    This is the one place that calls the exact day for gauge sizing: a one-pass function of
    the day engine can replace it.
    """
    from explodice.day.exact import exact_day

    rules = check_rules(rules)
    lost = replace(rules, overflow="lost")
    drains = _drains(scenario, who, rules)
    c = [ch.name for ch in scenario.characters].index(who)
    me = scenario.characters[c]
    held = me.gauges()
    out = {g: np.array([1.0, 0.0]) for g in gauges if g not in drains}  # empty only at 0
    for g in (g for g in gauges if g in drains):
        top = _drain_bound(scenario, who, g, rules)
        keep = drains[g] - {g}
        while True:
            maxima = {h: top if h == g else held[h] if h in keep else 0 for h in GAUGES}
            chars = list(scenario.characters)
            chars[c] = replace(me, gauge_max=maxima)
            day = exact_day(scenario.replace(characters=chars), lost)
            end = day.end[4 * c + GAUGES.index(g), : top + 1]
            if end[0] < _TAIL or top >= MAX_GAUGE:
                break
            top = min(2 * top, MAX_GAUGE)
        cdf = np.cumsum(end)  # cdf[l] = P(end level <= l) = P(drain >= top - l)
        curve = np.clip(cdf[::-1], 0.0, 1.0)
        curve[0] = 1.0
        out[g] = curve
    return {g: out[g] for g in gauges}


def _drain_bound(scenario: Scenario, who: str, gauge: str, rules: Rules) -> int:
    """A first maximum above (nearly) every day's drain on ``gauge``: the mean day's drain
    plus 12 standard deviations, plus 96 (one exploding d6 passes 6k with probability 6^-k:
    96 points leave 6^-16 ~ 3.5e-13 to one die); the caller doubles it until less than 1e-12
    of the days reach it."""
    seq = scenario.sequence()
    weights = np.array([r.weight for r in scenario.rolls], dtype=float)
    weights /= weights.sum()
    moments = np.zeros((len(scenario.rolls), 2))
    for i, r in enumerate(scenario.rolls):
        if r.character != who or r.drain_gauge(rules) != gauge:
            continue
        pmf = exact(scenario.roll_of(i), rules).drain_pmf
        d = np.arange(pmf.size, dtype=float)
        moments[i] = (pmf @ d, pmf @ d**2)
    if seq is not None:
        mean = float(sum(moments[i, 0] for i in seq))
        var = float(sum(moments[i, 1] - moments[i, 0] ** 2 for i in seq))
    else:
        m1, m2 = float(weights @ moments[:, 0]), float(weights @ moments[:, 1])
        mean, var = scenario.n_rolls * m1, scenario.n_rolls * max(m2 - m1**2, 0.0)
    return int(min(MAX_GAUGE, math.ceil(mean + 12 * math.sqrt(var) + 96)))


def gauge_rows(
    build: Build,
    level: int,
    day: Scenario | Callable[[int], Scenario],
    *,
    risk: float,
    rules: Rules | None = None,
    character: str | None = None,
    gauges: Iterable[str] | None = None,
) -> list[dict[str, Any]]:
    """The rows of one (build, level) case of :func:`explodice.size_gauges`: for each gauge
    the day drains (or each of ``gauges``), ``needed``, ``risk``, ``have``, ``risk_have``
    and ``drain_mean`` (the day's expected drain on it, before any clamp)."""
    rules, risk = check_rules(rules), check_risk(risk)
    placed, who = placed_day(build, level, day, character)
    sized = sorted(_drains(placed, who, rules), key=GAUGES.index) if gauges is None else gauges
    have = build.at(level).gauges()
    curves = p_empty_by_maximum(placed, who, sized, rules)
    rows = []
    for g in sized:
        curve = curves[g]
        needed = int(np.flatnonzero(curve <= risk + _TIE)[0])
        rows.append(
            {
                "build": build.name,
                "level": level,
                "character": who,
                "day": placed.name,
                "gauge": g,
                "needed": needed,
                "risk": float(curve[needed]),
                "have": have[g],
                "risk_have": float(curve[min(have[g], curve.size - 1)]),
                "meets": have[g] >= needed,
                "drain_mean": float(curve[1:].sum()),
            }
        )
    return rows


def points_per_level(build: Build, gauge: str, needed: Mapping[int, int]) -> int:
    """The smallest points per level of ``gauge`` whose maximum (score + points x level)
    meets ``needed[level]`` at every level given.

    >>> from explodice import reference_builds
    >>> points_per_level(reference_builds()[0], "PA", {1: 30, 20: 60})
    16
    """
    ability = GAUGE_ABILITY[gauge]
    points = 0
    for level, need in needed.items():
        score = build.scores_at(level)[ability]
        points = max(points, math.ceil((int(need) - score) / level))
    return points
