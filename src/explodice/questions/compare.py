"""3d6x against the d20: for each profile's modifier, the 3d6x DC whose odds are closest to
each d20 DC (:func:`~explodice.equivalent_dc`), and the d20 DC table mapped onto 3d6x for a
reference profile, with every profile's odds there (:func:`~explodice.equivalent_dc_table`).
Exact.

Shown by ``explodice compare`` (``-m``: one roll's equivalent DCs; else the table), the
report's page ``d20-comparison`` and the explorer's equivalent DCs.

>>> from explodice.questions.registry import ask
>>> a = ask("compare", CompareInputs((("untrained", 0),), Rules()))
>>> a.tables["equivalent"].dc_3d6x.tolist(), a.provenance.method
([8, 11, 15, 24, <NA>, <NA>], 'exact')
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.compare import equivalent_dc, equivalent_dc_table
from explodice.core.errors import ExplodiceError, check_choice
from explodice.core.words import Phrase
from explodice.game.rules import Advantage, Reroll, Roll, Rules
from explodice.game.tables import PROFILES
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = [
    "CERTAIN",
    "COMPARE_KINDS",
    "IMPOSSIBLE",
    "CompareInputs",
    "QUESTION",
    "compute",
    "default_reference",
]

#: The columns of the comparison's tables and their kinds.
COMPARE_KINDS: dict[str, Kind] = {
    "profile": "name",
    "modifier": "modifier",
    "difficulty": "label",
    "d20_dc": "dc",
    "p_d20": "probability",
    "dc_3d6x": "dc",
    "p_3d6x": "probability",
    "gap": "change",
    "difficulty_3d6x": "label",
    "note": "label",
    "matched_on": "name",
}
# (``note`` of ``table``: "impossible in d20" where no profile reaches the d20 DC, "certain
# in d20" where every profile does: its ``dc_3d6x`` is then a bound, any DC up to it)


@dataclass(frozen=True)
class CompareInputs:
    """The ``profiles`` (``(name, modifier)`` pairs, in order), the ``rules``, the
    ``reference`` profile of the mapped table (``None``: :func:`default_reference`), the
    ``advantage`` state of every roll and whether each roll is ``lucky`` (a 1 rerolled, in
    both systems)."""

    profiles: tuple[tuple[str, int], ...] = tuple(PROFILES.items())
    rules: Rules = Rules()
    reference: str | None = None
    advantage: Advantage = "normal"
    lucky: bool = False


def default_reference(names: tuple[str, ...] | list[str]) -> str:
    """The profile whose odds map the d20 DC table by default: ``trained`` if there is one,
    else the first."""
    return "trained" if "trained" in names else names[0]


#: The note of a d20 DC the roll cannot reach: it has no equivalent 3d6x DC.
IMPOSSIBLE = "impossible in d20"
#: The note of a d20 DC the roll always reaches: every 3d6x DC up to ``dc_3d6x`` (the
#: hardest within the tolerance of 1) is as good a match, a bound rather than one DC.
CERTAIN = "certain in d20"


def _no_match(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with no 3d6x DC, odds or gap on the rows impossible in d20: 3d6x has no
    impossible DC above its minimum, and the DC where it first falls under the tolerance
    (DC 42 for +8) would read as an equivalent of a d20 DC no roll reaches."""
    out = frame.copy()
    gone = out["note"] == IMPOSSIBLE
    out["dc_3d6x"] = out["dc_3d6x"].astype("Int64").mask(gone)
    for col in ("p_3d6x", "gap"):
        out[col] = out[col].astype(float).mask(gone)
    for col in ("difficulty_3d6x", "matched_on"):
        if col in out.columns:
            out[col] = out[col].mask(gone, "")
    return out


def compute(inputs: CompareInputs) -> Answer:
    """Tables ``equivalent`` (each profile's equivalent DCs, a row per d20 DC) and ``table``
    (the d20 DC table mapped onto 3d6x for the reference, a row per difficulty and
    profile); ``extra``: the ``reference``. A d20 DC no roll reaches (``note``: impossible
    in d20; in ``table``, for every profile) has no 3d6x DC: ``dc_3d6x``, ``p_3d6x`` and
    ``gap`` are missing there."""
    names = [name for name, _ in inputs.profiles]
    if not names:
        raise ExplodiceError(Phrase("`profiles` must name at least one profile."))
    reference = inputs.reference or default_reference(names)
    check_choice("reference", reference, tuple(names), ExplodiceError)
    reroll = Reroll("one") if inputs.lucky else None
    rolls = {
        name: Roll(mod, advantage=inputs.advantage, reroll=reroll) for name, mod in inputs.profiles
    }
    frames = []
    for name, roll in rolls.items():
        f = equivalent_dc(roll, rules=inputs.rules)
        f.insert(0, "profile", name)
        f.insert(1, "modifier", roll.modifier)
        frames.append(f)
    equivalent = pd.concat(frames, ignore_index=True)
    table = equivalent_dc_table(rolls, reference=reference, rules=inputs.rules)
    # a row matched on a profile that cannot succeed (fail) in d20 either: no profile can
    notes = equivalent.set_index(["profile", "d20_dc"]).note
    table["note"] = [
        note if (note := notes.get((m, dc))) in (IMPOSSIBLE, CERTAIN) else ""
        for m, dc in zip(table.matched_on, table.d20_dc)
    ]
    equivalent, table = _no_match(equivalent), _no_match(table)
    for frame in (equivalent, table):
        frame.attrs = {}
    prov = Provenance.of(
        "compare",
        inputs.rules,
        unit="rolls",
        policies=roller_policies(rolls.items()),
    )
    tables = {"equivalent": equivalent, "table": table}
    return Answer("compare", tables, COMPARE_KINDS, prov, {"reference": reference})


QUESTION = register(
    Question(
        name="compare",
        summary="3d6x against d20: each d20 DC's equivalent 3d6x DC, per profile",
        inputs=CompareInputs,
        compute=compute,
        kinds=COMPARE_KINDS,
        surfaces={
            "report": ("d20-comparison",),
            "cli": ("compare",),
            "explorer": ("equivalent",),
        },
    )
)
