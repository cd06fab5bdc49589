"""Gauge sizing, one (build, level) case at a time (:func:`gauge_rows`, run over builds x
levels by :func:`explodice.size_gauges`): the build placed in its day (:func:`placed_day`), and
P(empty) by the gauge's maximum from the exact day, called in one place
(:func:`p_empty_by_maximum`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from explodice.analysis.levels.checks import (
    TIE,
    check_risk,
)
from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_int,
    check_real,
    check_text,
    fail,
    listed,
    shown,
)
from explodice.core.words import Phrase
from explodice.day.scenario import MAX_WEIGHT, DayRoll, Scenario
from explodice.engine.exact import exact
from explodice.game.build import (
    LEVELS,
    Build,
)
from explodice.game.character import GAUGE_ABILITY, GAUGES, Character
from explodice.game.checks import check_rules
from explodice.game.rules import Rules
from explodice.game.tables import (
    DC_TABLES,
    DIFFICULTIES,
    MAX_GAUGE,
)

__all__ = [
    "DAY_ROLLS",
    "BuildDay",
    "build_day",
    "gauge_rows",
    "p_empty_by_maximum",
    "placed_day",
    "points_per_level",
]

#: The default day of :func:`build_day`: a PC's share of the report's day (40 rolls among
#: three PCs, of which its fighter's share is 4/13: 12.3), rounded to a dozen.
DAY_ROLLS = 12
#: P(the gauge reaches 0) left at the top of the gauge sized by the exact day: the chain
#: starts high enough that less than this is cut.
_TAIL = 1e-12


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
            raise fail("build", self.build, Phrase("a Build"), ExplodiceError, wrong_type=True)
        check_int("rolls_per_day", self.rolls_per_day, lo=1, error=ExplodiceError)
        check_choice("difficulty", self.difficulty, DIFFICULTIES, ExplodiceError)
        for name in ("skill_weight", "save_weight"):
            weight = check_real(
                name, getattr(self, name), lo=0, hi=MAX_WEIGHT, error=ExplodiceError
            )
            if weight == 0:
                raise fail(
                    name,
                    weight,
                    Phrase("a number > 0 and <= {MAX_WEIGHT:.0e}", MAX_WEIGHT=MAX_WEIGHT),
                    ExplodiceError,
                )
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
            Phrase(
                "`day` must be a Scenario or a callable level -> Scenario, but it "
                "gave {scenario} at level {level}.",
                scenario=shown(scenario),
                level=level,
            )
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
                Phrase(
                    "`character` must name a character of the day's scenario {names}, "
                    "but {character} was passed.",
                    names=listed(names),
                    character=shown(character),
                )
            )
        return character
    if build.name in names:
        return build.name
    pcs = [c.name for c in scenario.characters if c.actor == "pc"]
    if len(pcs) == 1:
        return pcs[0]
    raise ExplodiceError(
        Phrase(
            "`character` must name whose rolls build {name} makes in {name2}: no "
            "character has its name, and the day has {n_pcs} PCs {pcs}.",
            name=shown(build.name),
            name2=shown(scenario.name),
            n_pcs=len(pcs),
            pcs=listed(pcs),
        )
    )


def _place(scenario: Scenario, character: Character, who: str) -> Scenario:
    """``scenario`` with ``character`` (renamed ``who``) in ``who``'s place, the others as
    NPCs (they keep their rolls in the day's mix; no gauge of theirs is tracked)."""
    if who in scenario.start:
        raise ExplodiceError(
            Phrase(
                "`day`: the scenario sets {who}'s starting gauges (`start`), which "
                "gauge sizing cannot apply: the build starts the day with its gauges "
                "full (a long rest).",
                who=who,
            )
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
        needed = int(np.flatnonzero(curve <= risk + TIE)[0])
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
