"""Passive values against the roll they stand for: the passive value (10 + modifier, ±5 with
advantage or disadvantage), the active roll's median and mean, the gaps, the base that would
match the median and P(the roll reaches the passive value), per system and advantage state;
exact (:func:`~explodice.passive_table`).

Shown by the report's page ``passive``.

>>> a = compute(PassiveInputs(advantages=("normal",), systems=("3d6x",)))
>>> a.tables["passive"][["passive", "median", "base_for_median"]].values.tolist()
[[10, 11, 11]]
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.resolutions import passive_table
from explodice.game.rules import (
    ADVANTAGE_STATES,
    DISADVANTAGE_READINGS,
    Advantage,
    Disadvantage,
    Rules,
)
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["PASSIVE_KINDS", "PassiveInputs", "QUESTION", "compute"]

#: The columns of the table and their kinds.
PASSIVE_KINDS: dict[str, Kind] = {
    "system": "name",
    "modifier": "modifier",
    "advantage": "label",
    "passive": "dc",
    "median": "dc",
    "mean": "number",
    "gap_median": "modifier",
    "gap_mean": "signed",
    "base_for_median": "dc",
    "p_roll_at_least": "probability",
}


@dataclass(frozen=True)
class PassiveInputs:
    """The ``modifiers``, the ``systems``, the ``advantages`` (3d6x's disadvantage once per
    reading of ``readings``) and the rules."""

    modifiers: tuple[int, ...] = (0,)
    systems: tuple[System, ...] = SYSTEMS
    advantages: tuple[Advantage, ...] = ADVANTAGE_STATES
    readings: tuple[Disadvantage, ...] = DISADVANTAGE_READINGS
    rules: Rules = Rules()


def compute(inputs: PassiveInputs) -> Answer:
    """Table ``passive``: :func:`~explodice.passive_table` of each system, one after the
    other."""
    frame = pd.concat(
        [
            passive_table(
                list(inputs.modifiers),
                system=system,
                advantages=list(inputs.advantages),
                readings=list(inputs.readings),
                rules=inputs.rules,
            )
            for system in (s for s in SYSTEMS if s in inputs.systems)
        ],
        ignore_index=True,
    )
    prov = Provenance.of("passive", inputs.rules, unit="rolls")
    return Answer("passive", {"passive": frame}, PASSIVE_KINDS, prov)


QUESTION = register(
    Question(
        name="passive",
        summary="passive values against the roll they stand for: median, mean, matching base",
        inputs=PassiveInputs,
        compute=compute,
        kinds=PASSIVE_KINDS,
        surfaces={"report": ("passive",)},
    )
)
