"""The gauge points each build needs: at each level, the smallest maximum of each gauge the
day drains such that it empties before the long rest on at most ``risk`` of the days (the
exact day, :func:`~explodice.size_gauges`), against the build's own maximum; and, per build
and gauge, the smallest line ``base + points x level`` that meets the need at every level.

Each build alone on its own day (no ``day`` given) is asked of each build alone and the
answers put end to end (each build's rows are its own: the same numbers as one call), so that
after an edit to one build only that build's answer is computed; the others are read back
from the cache of answers. A shared ``day`` plays the builds together: asked as a whole.

Shown by the report's page ``gauge-sizing`` and ``explodice size-gauges``.

>>> tightest_line({1: 31, 10: 31, 20: 31})
(31, 0)
>>> tightest_line({1: 12, 10: 30, 20: 50})
(10, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from explodice.analysis.levels import DAY_ROLLS, build_day
from explodice.day.scenario import Scenario
from explodice.game.build import LEVELS, Build
from explodice.game.rules import Rules
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, ask_each_build, register
from explodice.sweeps.levels import SIZING_RISK, size_gauges

__all__ = ["QUESTION", "SIZING_KINDS", "SizingInputs", "compute", "tightest_line"]

#: The columns of the sizing's tables and their kinds.
SIZING_KINDS: dict[str, Kind] = {
    "build": "name",
    "level": "level",
    "character": "name",
    "gauge": "name",
    "needed": "points",
    "risk": "probability",
    "have": "points",
    "risk_have": "probability",
    "meets": "flag",
    "drain_mean": "number",
    "per_level_needed": "points",
    "per_level_have": "points",
    "need_first": "points",
    "need_last": "points",
    "need_max": "points",
    "line_base": "points",
    "line_per_level": "points",
    "have_first": "points",
    "have_last": "points",
    "first_level_met": "level",
    "risk_first": "probability",
    "risk_last": "probability",
}


@dataclass(frozen=True)
class SizingInputs:
    """The sizing's inputs: the ``builds``, the ``day`` (``None``: each build alone,
    ``rolls_per_day`` rolls of its own tests at the ``difficulty``'s DC), whose place each
    build takes (``character``: a name, or ``((build, name), ...)``), the ``risk``, the
    ``levels``, the ``gauges`` (``None``: those the day drains) and the ``rules``."""

    builds: tuple[Build, ...]
    rules: Rules
    day: Scenario | None = None
    risk: float = SIZING_RISK
    levels: tuple[int, ...] = tuple(LEVELS)
    character: str | tuple[tuple[str, str], ...] | None = None
    gauges: tuple[str, ...] | None = None
    rolls_per_day: int = DAY_ROLLS
    difficulty: str = "moderate"


def tightest_line(needs: Mapping[int, int]) -> tuple[int, int]:
    """The line ``base + points x level`` (whole points, ``points >= 0``) that meets
    ``needs[level]`` at every level with the fewest points over the levels given (ties: the
    fewer points per level): what a designer would write in a build to meet every level."""
    best: tuple[int, int, int] | None = None
    top = max(needs.values(), default=0)
    for per in range(top + 1):
        base = max(int(n) - per * int(lv) for lv, n in needs.items())
        total = sum(base + per * int(lv) for lv in needs)
        if best is None or total < best[0]:
            best = (total, base, per)
    return (best[1], best[2]) if best is not None else (0, 0)


def _lines(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per build and gauge: the need at the first and last level and its largest,
    the tightest line meeting every level, the build's own maximum at the first and last
    level, and the first level from which the build's maximum meets the need at every level
    after it (NA: never at the last level)."""
    rows = []
    for (name, gauge), part in frame.groupby(["build", "gauge"], sort=False):
        part = part.sort_values("level")
        base, per = tightest_line(dict(zip(part.level, part.needed)))
        short = part[~part.meets.astype(bool)]
        if short.empty:
            met: Any = int(part.level.iloc[0])
        elif int(short.level.iloc[-1]) == int(part.level.iloc[-1]):
            met = pd.NA
        else:
            met = int(part.level[part.level > short.level.iloc[-1]].iloc[0])
        rows.append(
            {
                "build": name,
                "gauge": gauge,
                "character": part.character.iloc[0],
                "need_first": int(part.needed.iloc[0]),
                "need_last": int(part.needed.iloc[-1]),
                "need_max": int(part.needed.max()),
                "line_base": base,
                "line_per_level": per,
                "have_first": int(part.have.iloc[0]),
                "have_last": int(part.have.iloc[-1]),
                "per_level_needed": int(part.per_level_needed.iloc[0]),
                "per_level_have": int(part.per_level_have.iloc[0]),
                "first_level_met": met,
                "risk_first": float(part.risk_have.iloc[0]),
                "risk_last": float(part.risk_have.iloc[-1]),
            }
        )
    out = pd.DataFrame(rows)
    if not out.empty:
        out["first_level_met"] = out["first_level_met"].astype("Int64")
    return out


def compute(inputs: SizingInputs, **how: Any) -> Answer:
    """``gauges`` (one row per build, level and gauge, as :func:`~explodice.size_gauges`)
    and ``lines`` (one per build and gauge: the needs and the tightest line meeting them).
    ``how``: the sweep's ``executor``, ``workers`` and ``progress`` (how, never what)."""
    if inputs.day is None and len(inputs.builds) > 1:
        return per_build(inputs, **how)
    common: dict[str, Any] = dict(
        risk=inputs.risk, levels=list(inputs.levels), gauges=inputs.gauges, rules=inputs.rules
    )
    if inputs.day is None:
        frames = [
            size_gauges(
                b,
                build_day(b, rolls_per_day=inputs.rolls_per_day, difficulty=inputs.difficulty),
                **common,
                **how,
            )
            for b in inputs.builds
        ]
        frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    else:
        character = (
            dict(inputs.character) if isinstance(inputs.character, tuple) else inputs.character
        )
        frame = size_gauges(list(inputs.builds), inputs.day, character=character, **common, **how)
    frame.attrs = {}
    prov = Provenance.of(
        "gauge_sizing",
        inputs.rules,
        policies=roller_policies((b.name, b) for b in inputs.builds),
        notes=(f"risk={inputs.risk!r}",),
    )
    tables = {"gauges": frame.reset_index(drop=True), "lines": _lines(frame)}
    return Answer("gauge_sizing", tables, SIZING_KINDS, prov, {"risk": inputs.risk})


def per_build(inputs: SizingInputs, **how: Any) -> Answer:
    """The sizing of several builds each on its own day, as each build's answer asked alone
    (kept on its own) put end to end; the lines read from the rows as one call does."""
    frame, prov, _ = ask_each_build(QUESTION, inputs, "gauges", **how)
    tables = {"gauges": frame, "lines": _lines(frame)}
    return Answer("gauge_sizing", tables, SIZING_KINDS, prov, {"risk": inputs.risk})


QUESTION = register(
    Question(
        name="gauge_sizing",
        summary="the gauge points each build needs per level, at a risk",
        inputs=SizingInputs,
        compute=compute,
        kinds=SIZING_KINDS,
        surfaces={"report": ("gauge-sizing",), "cli": ("size-gauges",)},
    )
)
