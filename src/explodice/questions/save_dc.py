"""The base B of a 3d6x save DC (B + PB + the caster's modifier) that gives the target the same
P(save succeeds) as 5e's 8 + PB + modifier, over the gaps the builds produce across levels
(:func:`~explodice.fit_save_dc`, exact).

Shown by the report's page ``save-dc`` and ``explodice save-dc``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from explodice.analysis.levels import Criterion
from explodice.analysis.levels.save_dc import fit_save_dc_from_sides, save_side
from explodice.game.build import LEVELS, Build
from explodice.game.character import ABILITIES
from explodice.game.rules import Rules
from explodice.game.tables import D20_SAVE_DC_BASE
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["QUESTION", "SAVE_DC_KINDS", "SaveDCInputs", "compute"]

#: The columns of the fit's tables and their kinds.
SAVE_DC_KINDS: dict[str, Kind] = {
    "gap": "modifier",
    "count": "count",
    "share": "probability",
    "p_d20": "probability",
    "p_3d6x": "probability",
    "error": "change",
    "rmse": "gap",
    "max_error": "gap",
    "base": "dc",
    "level": "level",
}


@dataclass(frozen=True)
class SaveDCInputs:
    """The builds (casters and targets), the rules, the levels, the casters (``None``:
    every build), the saves, the fit's criterion and 5e's base."""

    builds: tuple[Build, ...]
    rules: Rules
    levels: tuple[int, ...] = tuple(LEVELS)
    casters: tuple[str, ...] | None = None
    saves: tuple[str, ...] = ABILITIES
    criterion: Criterion = "least_squares"
    d20_base: int = D20_SAVE_DC_BASE


def compute(inputs: SaveDCInputs) -> Answer:
    """Tables ``gaps``, ``bases`` and ``cases``; ``extra``: the fitted ``base``, its
    ``error`` (the criterion's value), the ``criterion`` and 5e's ``d20_base``. The fit reads
    every pair of builds: each build's part (``save_side``: its saves at every DC, kept on its
    own, so an edit to one build computes only its part) is asked alone, then fitted
    (:func:`~explodice.analysis.levels.save_dc.fit_save_dc_from_sides`)."""
    part = dataclasses.replace(inputs, casters=None, criterion="least_squares",
                               d20_base=D20_SAVE_DC_BASE)  # fmt: skip
    sides = [SIDE.ask(dataclasses.replace(part, builds=(b,))) for b in inputs.builds]
    fit = fit_save_dc_from_sides(
        inputs.builds,
        [a.tables["side"] for a in sides],
        levels=list(inputs.levels),
        casters=list(inputs.casters) if inputs.casters is not None else None,
        saves=list(inputs.saves),
        criterion=inputs.criterion,
        d20_base=inputs.d20_base,
        rules=inputs.rules,
    )
    tables = {
        name: getattr(fit, name).reset_index(drop=True) for name in ("gaps", "bases", "cases")
    }
    for frame in tables.values():
        frame.attrs = {}
    extra = {
        "base": int(fit.base),
        "error": float(fit.error),
        "criterion": fit.criterion,
        "d20_base": int(fit.d20_base),
    }
    return Answer("save_dc", tables, SAVE_DC_KINDS, Provenance.of("save_dc", inputs.rules), extra)


def compute_side(inputs: SaveDCInputs) -> Answer:
    """One build's part of the fit: table ``side`` (:func:`~explodice.analysis.levels.
    save_dc.save_side`)."""
    (build,) = inputs.builds
    side = save_side(build, levels=inputs.levels, saves=inputs.saves, rules=inputs.rules)
    return Answer(
        "save_side", {"side": side}, SAVE_DC_KINDS, Provenance.of("save_side", inputs.rules)
    )


#: A part of ``save_dc`` (one build's saves), kept on its own; no surface shows it, so it is
#: not in the catalogue.
SIDE: Question[SaveDCInputs] = Question(
    name="save_side",
    summary="one build's saves at every DC, the part of the save DC's fit it adds",
    inputs=SaveDCInputs,
    compute=compute_side,
    kinds=SAVE_DC_KINDS,
)


QUESTION = register(
    Question(
        name="save_dc",
        summary="the base of a 3d6x save DC that matches 5e's odds",
        inputs=SaveDCInputs,
        compute=compute,
        kinds=SAVE_DC_KINDS,
        surfaces={"report": ("save-dc",), "cli": ("save-dc",)},
    )
)
