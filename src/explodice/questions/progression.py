"""How each build's tests fare across levels: P(success) per build, level, test, system and
difficulty band, exact (:func:`~explodice.progression`), with each band's target range.

Asked of several builds, the question is asked of each build alone and the answers are put
end to end (each build's rows are its own: the same numbers as one call over all builds), so
that after an edit to one build only that build's answer is computed; the others are read
back from the cache of answers.

Shown by the report's page ``levels-progression`` and ``explodice levels --table progression``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explodice.analysis.levels import progression
from explodice.game.build import LEVELS, Build, TestChoice
from explodice.game.rules import Advantage, Rules
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, ask_each_build, register

__all__ = ["PROGRESSION_KINDS", "ProgressionInputs", "QUESTION", "compute"]

#: The columns of the progression and their kinds.
PROGRESSION_KINDS: dict[str, Kind] = {
    "build": "name",
    "level": "level",
    "pb": "modifier",
    "test": "name",
    "kind": "label",
    "ability": "name",
    "proficiency": "count",
    "system": "name",
    "difficulty": "label",
    "dc": "dc",
    "modifier": "modifier",
    "advantage": "label",
    "p": "probability",
    "drain": "number",
    "target_low": "probability",
    "target_high": "probability",
    "in_target": "flag",
}


@dataclass(frozen=True)
class ProgressionInputs:
    """The builds, the rules, the levels, the ``tests`` (``"main"``, ``None``: every test of
    each build, or tests named), the ``targets`` (``((band, (low, high)), ...)``; ``None``: the
    rules doc's), the ``systems`` and the ``advantage``."""

    builds: tuple[Build, ...]
    rules: Rules
    levels: tuple[int, ...] = tuple(LEVELS)
    tests: TestChoice = "main"
    targets: tuple[tuple[str, Any], ...] | None = None
    systems: tuple[System, ...] = SYSTEMS
    advantage: Advantage = "normal"


def compute(inputs: ProgressionInputs) -> Answer:
    """The progression's one table, ``progression`` (computed directly: no sweep, no
    executor); over several builds, each build's answer (:func:`per_build`) end to end."""
    if len(inputs.builds) > 1:
        return per_build(inputs)
    frame = progression(
        list(inputs.builds),
        list(inputs.levels),
        tests=inputs.tests,
        targets=dict(inputs.targets) if inputs.targets is not None else None,
        systems=list(inputs.systems),
        advantage=inputs.advantage,
        rules=inputs.rules,
    )
    attrs = dict(frame.attrs)
    frame.attrs = {}
    prov = Provenance.of(
        "progression",
        inputs.rules,
        policies=roller_policies((b.name, b) for b in inputs.builds),
    )
    return Answer(
        "progression",
        {"progression": frame.reset_index(drop=True)},
        PROGRESSION_KINDS,
        prov,
        {"targets": attrs.get("targets")},
    )


def per_build(inputs: ProgressionInputs) -> Answer:
    """The answer over several builds as each build's answer, asked alone (kept on its own),
    put end to end: rows are per build, in the builds' order, as one call over all of them."""
    frame, prov, first = ask_each_build(QUESTION, inputs, "progression")
    return Answer("progression", {"progression": frame}, PROGRESSION_KINDS, prov, first.extra)


QUESTION = register(
    Question(
        name="progression",
        summary="each build's success by band and level, 3d6x beside d20",
        inputs=ProgressionInputs,
        compute=compute,
        kinds=PROGRESSION_KINDS,
        surfaces={"report": ("levels-progression",), "cli": ("levels",)},
    )
)
