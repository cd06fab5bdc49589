"""Haggling (Persuasion against the seller): the mean price change and the chances of a better,
even or worse price for each modifier and item type of the seed's table, and the distribution
of the change at the base DC; exact (:func:`~explodice.haggle_table`, :func:`~explodice.
haggle`).

Shown by the report's page ``haggling``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.resolutions import haggle, haggle_table
from explodice.game.rules import Roll, Rules
from explodice.game.tables import HAGGLE_BASE_DC
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["HAGGLING_KINDS", "HagglingInputs", "QUESTION", "compute"]

#: The columns of the tables and their kinds (a price change in percent of the price: signed).
HAGGLING_KINDS: dict[str, Kind] = {
    "modifier": "modifier",
    "item": "label",
    "item_fr": "name",
    "dc": "dc",
    "mean": "signed",
    "p_better": "probability",
    "p_even": "probability",
    "p_worse": "probability",
    "p_noticed": "probability",
    "system": "name",
    "change_pct": "modifier",
    "p": "probability",
}


@dataclass(frozen=True)
class HagglingInputs:
    """The ``modifiers``, the ``dc`` of the distribution of the change, and the rules."""

    modifiers: tuple[int, ...]
    dc: int = HAGGLE_BASE_DC
    rules: Rules = Rules()


def compute(inputs: HagglingInputs) -> Answer:
    """Tables ``items`` (:func:`~explodice.haggle_table`: ``mean`` in percent of the price,
    in the buyer's favour) and ``changes`` (modifier, dc, change_pct, p at ``dc``)."""
    items = haggle_table(list(inputs.modifiers), rules=inputs.rules).drop(columns=["method"])
    rows = []
    for m in inputs.modifiers:
        h = haggle(Roll(m), dc=inputs.dc, rules=inputs.rules)
        for change, p in zip(h.pmf.index.tolist(), h.pmf.tolist()):
            rows.append({"modifier": m, "dc": inputs.dc, "change_pct": int(change), "p": float(p)})
    changes = pd.DataFrame(rows, columns=["modifier", "dc", "change_pct", "p"])
    prov = Provenance.of("haggling", inputs.rules, unit="rolls")
    return Answer("haggling", {"items": items, "changes": changes}, HAGGLING_KINDS, prov)


QUESTION = register(
    Question(
        name="haggling",
        summary="haggling: the price change by modifier and item type",
        inputs=HagglingInputs,
        compute=compute,
        kinds=HAGGLING_KINDS,
        surfaces={"report": ("haggling",)},
    )
)
