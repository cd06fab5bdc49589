"""The DC of each band at each level that keeps a build's test on the band's target (as
Pathfinder 2e prints a DC per level), beside the single flat table that stays closest over the
levels and the system's printed one, with each table's worst miss; exact
(:func:`~explodice.level_dcs`).

Asked of several builds, the question is asked of each build alone and the answers are put
end to end (each build's rows are its own: the same numbers as one call over all builds), so
that after an edit to one build only that build's answer is computed; the others are read
back from the cache of answers.

Shown by the report's page ``level-dcs`` and ``explodice levels --table dcs``.

>>> from explodice.game.build import reference_builds
>>> a = compute(LevelDCsInputs(tuple(reference_builds()[:1]), Rules(), levels=(1,),
...                            targets=(("easy", 0.75),), systems=("d20",)))
>>> a.tables["dcs"].query("table == 'level'")[["system", "level", "dc"]].values.tolist()
[['d20', 1, 11]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from explodice.analysis.levels import level_dcs
from explodice.game.build import LEVELS, Build, TestChoice
from explodice.game.rules import Advantage, Rules
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, ask_each_build, register

__all__ = ["LEVEL_DCS_KINDS", "LevelDCsInputs", "QUESTION", "compute"]

#: The columns of the DC tables and their kinds.
LEVEL_DCS_KINDS: dict[str, Kind] = {
    "build": "name",
    "test": "name",
    "system": "name",
    "level": "level",
    "modifier": "modifier",
    "difficulty": "label",
    "target": "probability",
    "table": "label",
    "dc": "dc",
    "p": "probability",
    "miss": "change",
    "worst_miss": "probability",
}


@dataclass(frozen=True)
class LevelDCsInputs:
    """The builds, the rules, the levels, the ``tests`` (``"main"``: each build's main test;
    ``None``: every test of each build; or the tests named), the ``targets`` (``((band, p or
    (low, high)), ...)``; ``None``: the middles of the rules doc's ranges), the ``systems`` and
    the ``advantage``."""

    builds: tuple[Build, ...]
    rules: Rules
    levels: tuple[int, ...] = tuple(LEVELS)
    tests: TestChoice = "main"
    targets: tuple[tuple[str, Any], ...] | None = None
    systems: tuple[System, ...] = ("3d6x",)
    advantage: Advantage = "normal"


def compute(inputs: LevelDCsInputs) -> Answer:
    """Table ``dcs``: :func:`~explodice.level_dcs` for each build, test and system, with a
    ``system`` column; ``extra["targets"]``: the target of each band. Over several builds,
    each build's answer (:func:`per_build`) end to end."""
    if len(inputs.builds) > 1:
        return per_build(inputs)
    frames = []
    targets = dict(inputs.targets) if inputs.targets is not None else None
    for b in inputs.builds:
        tests = inputs.tests
        own = [None] if tests == "main" else list(b.tests()) if tests is None else list(tests)
        for test in own:
            for system in (s for s in SYSTEMS if s in inputs.systems):
                t = level_dcs(
                    targets,
                    build=b,
                    test=test,
                    levels=list(inputs.levels),
                    system=system,
                    rules=inputs.rules,
                    advantage=inputs.advantage,
                )
                t.insert(2, "system", system)
                frames.append(t)
    aims = dict(frames[0].attrs.get("targets", {})) if frames else {}
    frame = pd.concat(frames, ignore_index=True)
    frame.attrs = {}
    prov = Provenance.of(
        "level_dcs",
        inputs.rules,
        unit="rolls",
        policies=roller_policies((b.name, b) for b in inputs.builds),
    )
    return Answer("level_dcs", {"dcs": frame}, LEVEL_DCS_KINDS, prov, {"targets": aims})


def per_build(inputs: LevelDCsInputs) -> Answer:
    """The answer over several builds as each build's answer, asked alone (kept on its own),
    put end to end: rows are per build, in the builds' order, as one call over all of them."""
    frame, prov, first = ask_each_build(QUESTION, inputs, "dcs")
    return Answer("level_dcs", {"dcs": frame}, LEVEL_DCS_KINDS, prov, first.extra)


QUESTION = register(
    Question(
        name="level_dcs",
        summary="the DC of each band at each level that keeps each build on its target",
        inputs=LevelDCsInputs,
        compute=compute,
        kinds=LEVEL_DCS_KINDS,
        surfaces={"report": ("level-dcs",), "cli": ("levels",)},
    )
)
