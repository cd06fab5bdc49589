"""Initiative: each creature's P(rank), every turn order of a small group, and P(one side acts
entirely before another), in each system; exact (:func:`~explodice.initiative`: DEX ability
checks, ties to the higher DEX modifier, then a coin).

Shown by the report's page ``initiative`` and ``explodice initiative``.

>>> a = compute(InitiativeInputs((("A", 2), ("B", 2)), systems=("d20",)))
>>> a.tables["ranks"].query("creature == 'A'").p.round(6).tolist()
[0.5, 0.5]
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.initiative import creature_roll, initiative
from explodice.game.character import Character
from explodice.game.rules import Roll, Rules
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Method, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["INITIATIVE_KINDS", "Creature", "InitiativeInputs", "QUESTION", "compute"]

#: What rolls for initiative: a Character (its DEX check), a Roll, or a DEX modifier.
Creature = Character | Roll | int

#: The columns of the tables and their kinds.
INITIATIVE_KINDS: dict[str, Kind] = {
    "system": "name",
    "creature": "name",
    "rank": "count",
    "order": "name",
    "first": "name",
    "second": "name",
    "p": "probability",
}


@dataclass(frozen=True)
class InitiativeInputs:
    """The ``creatures`` (``(name, creature)`` pairs: a Character, a Roll or a DEX modifier),
    the ``sides`` (``(side, (names...))`` pairs that split the creatures; ``None``: no sides),
    the ``systems`` and the rules."""

    creatures: tuple[tuple[str, Creature], ...]
    sides: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    systems: tuple[System, ...] = ("3d6x",)
    rules: Rules = Rules()


def compute(inputs: InitiativeInputs) -> Answer:
    """Tables ``ranks`` (system, creature, rank, p), ``orders`` (system, order, p: every turn
    order, likeliest first; empty for a group too large to list) and ``sides`` (system, first,
    second, p; empty without sides)."""
    sides = None if inputs.sides is None else {s: list(m) for s, m in inputs.sides}
    out: dict[str, list[pd.DataFrame]] = {"ranks": [], "orders": [], "sides": []}
    method: Method = "exact"
    for system in (s for s in SYSTEMS if s in inputs.systems):
        r = initiative(list(inputs.creatures), sides=sides, system=system, rules=inputs.rules)
        method = r.method
        for name, frame in (("ranks", r.ranks), ("orders", r.orders), ("sides", r.sides)):
            if frame is not None:
                out[name].append(frame.assign(system=system)[["system", *frame.columns]])
    columns = {
        "ranks": ["system", "creature", "rank", "p"],
        "orders": ["system", "order", "p"],
        "sides": ["system", "first", "second", "p"],
    }
    tables = {
        name: pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=columns[name])
        for name, frames in out.items()
    }
    prov = Provenance.of(  # the roll each creature makes: a Character's reroll on failure is
        "initiative",  # left out (no DC to fail), Lucky kept
        inputs.rules,
        method=method,
        unit="rolls",
        policies=roller_policies((name, creature_roll(c)) for name, c in inputs.creatures),
    )
    return Answer("initiative", tables, INITIATIVE_KINDS, prov)


QUESTION = register(
    Question(
        name="initiative",
        summary="who acts first: each creature's rank, the orders, side before side",
        inputs=InitiativeInputs,
        compute=compute,
        kinds=INITIATIVE_KINDS,
        surfaces={"report": ("initiative",), "cli": ("initiative",)},
    )
)
