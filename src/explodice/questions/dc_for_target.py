"""The DC that gives a roll a target probability of success: for each target, the closest
DC (or the highest DC still at least the target, or the lowest at most it), with the odds it
gives and its difficulty band (:func:`~explodice.dc_for_probability`). Exact.

Shown by ``explodice dc``.

>>> from explodice.questions.registry import ask
>>> a = ask("dc_for_target", DCForTargetInputs(Roll(0), Rules(), targets=(0.5, 0.25)))
>>> a.tables["dcs"].dc.tolist(), a.provenance.method
([12, 16], 'exact')
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.compare import Mode, dc_for_probability
from explodice.analysis.success import roll_distribution
from explodice.core.words import N_
from explodice.game.rules import Roll, Rules
from explodice.game.tables import DC_TABLES, System, difficulty_of
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.odds import roll_policies
from explodice.questions.registry import Question, register

__all__ = ["BEYOND", "DCForTargetInputs", "DC_FOR_TARGET_KINDS", "QUESTION", "band", "compute"]

#: The columns of the table and their kinds.
DC_FOR_TARGET_KINDS: dict[str, Kind] = {
    "target": "probability",
    "dc": "dc",
    "p": "probability",
    "difficulty": "label",
    "system": "name",
    "roll": "name",
    "mode": "label",
}


@dataclass(frozen=True)
class DCForTargetInputs:
    """The ``roll`` and ``rules``, the target probabilities, the ``system`` and the ``mode``
    (``closest``, ``at_least``, ``at_most``)."""

    roll: Roll
    rules: Rules
    targets: tuple[float, ...] = (0.5,)
    system: System = "3d6x"
    mode: Mode = "closest"


#: The band of a DC outside the system's DC table (lower than its lowest, higher than its
#: highest); a DC between two of the table's is no band ("").
BEYOND = N_("beyond the table")


def band(dc: int, system: System) -> str:
    """The DC table's name for ``dc``, :data:`BEYOND` outside the table, else ``""``.

    >>> band(16, "3d6x"), band(17, "3d6x"), band(3, "3d6x")
    ('moderate', '', 'beyond the table')
    """
    table = DC_TABLES[system].values()
    return difficulty_of(dc, system) or (BEYOND if not min(table) <= dc <= max(table) else "")


def compute(inputs: DCForTargetInputs) -> Answer:
    """The one table ``dcs``: a row per target, its DC, the odds there and the band."""
    dist = roll_distribution(inputs.roll, system=inputs.system, rules=inputs.rules)
    found = dc_for_probability(dist, list(inputs.targets), mode=inputs.mode)
    dcs = [int(dc) for dc in found]
    frame = pd.DataFrame(
        {
            "target": [float(t) for t in inputs.targets],
            "dc": dcs,
            "p": [float(dist.p_success(dc)) for dc in dcs],
            "difficulty": [band(dc, inputs.system) for dc in dcs],
            "system": inputs.system,
            "roll": dist.label,
            "mode": inputs.mode,
        }
    )
    prov = Provenance.of(
        "dc_for_target",
        inputs.rules,
        unit="rolls",
        cut=float(dist.omitted),
        policies=roll_policies(inputs.roll),
    )
    return Answer("dc_for_target", {"dcs": frame}, DC_FOR_TARGET_KINDS, prov)


QUESTION = register(
    Question(
        name="dc_for_target",
        summary="the DC that gives a roll a target probability of success",
        inputs=DCForTargetInputs,
        compute=compute,
        kinds=DC_FOR_TARGET_KINDS,
        surfaces={"cli": ("dc",)},
    )
)
