"""What a reroll is worth: P(success) and E[drain] with and without a reroll on failure or
Lucky (a 1 rerolled), per modifier, DC and advantage state, in either system
(:func:`~explodice.reroll_worth`). Exact.

Shown by the report's page ``rerolls`` and ``explodice reroll``.

>>> from explodice.questions.registry import ask
>>> a = ask("reroll", RerollInputs((0,), Rules(), dcs=(16,)))
>>> round(float(a.tables["worth"].p_reroll.iloc[0]), 4), a.provenance.method
(0.4433, 'exact')
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.reroll import reroll_worth
from explodice.game.reroll import Trigger
from explodice.game.rules import Advantage, Policy, Rules
from explodice.game.tables import System
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["QUESTION", "REROLL_KINDS", "RerollInputs", "compute"]

#: The columns of the reroll's table and their kinds.
REROLL_KINDS: dict[str, Kind] = {
    "system": "name",
    "trigger": "label",
    "advantage": "label",
    "modifier": "modifier",
    "dc": "dc",
    "p": "probability",
    "p_reroll": "probability",
    "gain": "change",
    "drain": "number",
    "drain_reroll": "number",
    "drain_added": "signed",
}


@dataclass(frozen=True)
class RerollInputs:
    """The ``modifiers``, the ``rules``, the ``dcs`` (``None``: each system's DC table), the
    ``systems``, the reroll ``triggers`` (``failure``, ``one``: Lucky), the ``advantages``
    and the rule-of-1 ``policy`` of every roll."""

    modifiers: tuple[int, ...]
    rules: Rules
    dcs: tuple[int, ...] | None = None
    systems: tuple[System, ...] = ("3d6x",)
    triggers: tuple[Trigger, ...] = ("failure",)
    advantages: tuple[Advantage, ...] = ("normal",)
    policy: Policy = "keep"


def compute(inputs: RerollInputs) -> Answer:
    """The one table ``worth``: a row per system, trigger, advantage state, modifier and DC."""
    frames = [
        reroll_worth(
            inputs.modifiers,
            inputs.dcs,
            system=system,
            trigger=trigger,
            advantages=inputs.advantages,
            policy=inputs.policy,
            rules=inputs.rules,
        )
        for system in inputs.systems
        for trigger in inputs.triggers
    ]
    worth = pd.concat(frames, ignore_index=True)
    worth.attrs = {}
    prov = Provenance.of(
        "reroll",
        inputs.rules,
        unit="rolls",
        policies=tuple(("every roll", str(inputs.policy), t) for t in inputs.triggers),
    )
    return Answer("reroll", {"worth": worth}, REROLL_KINDS, prov)


QUESTION = register(
    Question(
        name="reroll",
        summary="what a reroll on failure or Lucky is worth, in success and drain",
        inputs=RerollInputs,
        compute=compute,
        kinds=REROLL_KINDS,
        surfaces={"report": ("rerolls",), "cli": ("reroll",)},
    )
)
