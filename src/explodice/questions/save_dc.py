"""The base B of a 3d6x save DC (B + PB + the caster's modifier) that gives the target the same
P(save succeeds) as 5e's 8 + PB + modifier, over the gaps the builds produce across levels
(:func:`~explodice.fit_save_dc`, exact).

Shown by the report's page ``save-dc`` and ``explodice save-dc``.
"""

from __future__ import annotations

from dataclasses import dataclass

from explodice.analysis.levels import Criterion, fit_save_dc
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
    "rmse": "probability",
    "max_error": "probability",
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
    ``error`` (the criterion's value), the ``criterion`` and 5e's ``d20_base``."""
    fit = fit_save_dc(
        list(inputs.builds),
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
