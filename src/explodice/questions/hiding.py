"""Hiding: one Stealth total against every observer, active (an opposed test whose tie keeps
the hider hidden, unless the rules read it otherwise) and passive (the DC): P(hidden) from
each, from all at once, and what multiplying the per-observer odds would wrongly say; exact
(:func:`~explodice.hide`, conditioned on the one Stealth total).

Shown by ``explodice hide``.

>>> a = compute(HidingInputs(Roll(3), passive=(12, 15)))
>>> a.tables["observers"].observer.tolist()
['passive 12', 'passive 15', 'all']
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.hiding import hide
from explodice.game.rules import Roll, Rules
from explodice.game.tables import System
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["HIDING_KINDS", "HidingInputs", "QUESTION", "compute"]

#: The columns of the tables and their kinds.
HIDING_KINDS: dict[str, Kind] = {
    "observer": "name",
    "kind": "label",
    "passive": "dc",
    "modifier": "modifier",
    "p_hidden_from": "probability",
    "system": "name",
    "p_hidden": "probability",
    "p_if_independent": "probability",
}


@dataclass(frozen=True)
class HidingInputs:
    """The hider's ``stealth`` roll, the ``active`` observers' Perception rolls, the
    ``passive`` observers' passive Perception values, the ``system`` and the rules."""

    stealth: Roll
    active: tuple[Roll, ...] = ()
    passive: tuple[int, ...] = ()
    system: System = "3d6x"
    rules: Rules = Rules()


def compute(inputs: HidingInputs) -> Answer:
    """Tables ``observers`` (one row per observer, passive ones first, then ``all``: its
    ``kind``, ``passive`` value or Perception ``modifier``, ``p_hidden_from``) and ``group`` (``p_hidden`` from all at once, ``p_if_independent``:
    the product of the per-observer odds, which the shared roll makes wrong)."""
    r = hide(
        inputs.stealth,
        active=list(inputs.active),
        passive=list(inputs.passive),
        system=inputs.system,
        rules=inputs.rules,
    )
    observers = r.to_frame().drop(columns=["method"])
    # each row's observer as data (hide lists the passive ones, the active ones, then all):
    # a label is never rebuilt from a row's position
    n_passive, n_active = len(inputs.passive), len(inputs.active)
    kinds = ["passive"] * n_passive + ["active"] * n_active + ["all"]
    assert kinds == [o.split()[0] for o in observers.observer]
    observers.insert(1, "kind", kinds)
    passive = [*inputs.passive, *[None] * (n_active + 1)]
    modifiers = [*[None] * n_passive, *(r.modifier for r in inputs.active), None]
    observers.insert(2, "passive", pd.Series(passive, dtype="Int64"))
    observers.insert(3, "modifier", pd.Series(modifiers, dtype="Int64"))
    group = pd.DataFrame(
        [{"system": r.system, "p_hidden": r.p_hidden, "p_if_independent": r.p_if_independent}]
    )
    rolls = [("hider", inputs.stealth), *((f"active {i}", r) for i, r in enumerate(inputs.active))]
    prov = Provenance.of(
        "hiding",
        inputs.rules,
        unit="rolls",
        policies=roller_policies(rolls),
    )
    return Answer("hiding", {"observers": observers, "group": group}, HIDING_KINDS, prov)


QUESTION = register(
    Question(
        name="hiding",
        summary="hiding from observers: one Stealth total against each and against all",
        inputs=HidingInputs,
        compute=compute,
        kinds=HIDING_KINDS,
        surfaces={"cli": ("hide",)},
    )
)
