"""How each build's tests fare across levels: P(success) per build, level, test, system and
difficulty band, exact (:func:`~explodice.progression`), with each band's target range.

Shown by the report's page ``levels-progression`` and ``explodice levels --table progression``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explodice.analysis.levels import progression
from explodice.game.build import LEVELS, Build
from explodice.game.rules import Advantage, Rules
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

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
    tests: Any = "main"
    targets: tuple[tuple[str, Any], ...] | None = None
    systems: tuple[System, ...] = SYSTEMS
    advantage: Advantage = "normal"


def compute(inputs: ProgressionInputs) -> Answer:
    """The progression's one table, ``progression`` (computed directly: no sweep, no
    executor)."""
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
        policies=tuple(
            (b.name, str(b.policy), b.reroll.trigger if b.reroll is not None else "none")
            for b in inputs.builds
        ),
    )
    return Answer(
        "progression",
        {"progression": frame.reset_index(drop=True)},
        PROGRESSION_KINDS,
        prov,
        {"targets": attrs.get("targets")},
    )


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
