"""The bestiary: the typical monster of each power factor and its 3d6x numbers (``fp_table``),
and each monster converted flat with the chances that move (``bestiary``), against the
level-matched builds; exact. Every row carries the SRD 5.1's attribution where it shows an SRD
monster (its licence asks for it wherever its monsters are shown).

Shown by ``explodice fp-table`` and the report's page ``bestiary-fp`` (``fp_table``),
``explodice bestiary``, the page ``bestiary`` and the explorer's monster picker
(``bestiary``).

>>> a = compute_fp_table(FpTableInputs(fps=("1",), rules=Rules()))
>>> a.provenance.method, a.tables["fp_table"].attribution.iloc[0][:20]
('exact', 'This work includes m')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from explodice.analysis.bestiary import (
    DEFAULT_THRESHOLD,
    fp_table_from_parts,
    fp_table_part,
    with_attribution,
)
from explodice.game.build import Build, reference_builds
from explodice.game.monster import Monster
from explodice.game.rules import Rules
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register
from explodice.sweeps.bestiary import bestiary

__all__ = [
    "BESTIARY",
    "BESTIARY_KINDS",
    "FP_TABLE",
    "BestiaryInputs",
    "FpTableInputs",
    "compute_bestiary",
    "compute_fp_table",
]

#: The kinds of the bestiary's columns that a surface shows.
BESTIARY_KINDS: dict[str, Kind] = {
    "name": "name",
    "fp": "label",
    "type": "label",
    "chance": "label",
    "item": "name",
    "level": "level",
    "count": "count",
    "ac": "number",
    "attack": "number",
    "save_dc": "number",
    "hp": "number",
    "vd": "dc",
    "vd_flat": "dc",
    "vd_matched": "dc",
    "attack_flat": "modifier",
    "attack_matched": "modifier",
    "save_dc_flat": "dc",
    "save_dc_matched": "dc",
    "target_d20": "dc",
    "target_3d6x": "dc",
    "p_d20": "probability",
    "p_3d6x": "probability",
    "change": "change",
    "largest_change": "change",
    "worst_build": "label",
    "flagged": "flag",
    "attribution": "name",
    "monsters": "count",
    "share_flagged": "probability",
    "threshold": "probability",
}


def _notes(frame: Any) -> tuple[str, ...]:
    """The SRD's attribution, where the answer shows an SRD monster (a caption's note)."""
    attribution = frame.attrs.get("attribution", "")
    return (attribution,) if attribution else ()


def _plain(frame: Any) -> Any:
    out = with_attribution(frame).reset_index(drop=True)
    out.attrs = {}
    return out


# -- the typical monster of each FP ----------------------------------------------------------
@dataclass(frozen=True)
class FpTableInputs:
    """The monsters (``None``: the SRD's), the FPs shown (``None``: all), the builds met
    (``None``: the reference builds) and the rules."""

    monsters: tuple[Monster, ...] | None = None
    fps: tuple[str, ...] | None = None
    builds: tuple[Build, ...] | None = None
    rules: Rules = Rules()


def compute_fp_table(inputs: FpTableInputs) -> Answer:
    """Table ``fp_table`` (:func:`~explodice.fp_table`), with the ``attribution`` column.
    Each FP's fit reads every build: each build's part (``fp_table_part``, kept on its own, so
    an edit to one build computes only its part) is asked alone, then the parts are fitted
    (:func:`~explodice.analysis.bestiary.fp_table_from_parts`)."""
    builds = reference_builds() if inputs.builds is None else inputs.builds
    parts = [FP_PART.ask(replace(inputs, builds=(b,))) for b in builds]
    frame = fp_table_from_parts(
        None if inputs.monsters is None else list(inputs.monsters),
        parts=[a.tables["part"] for a in parts],
        fps=None if inputs.fps is None else list(inputs.fps),
        builds=list(builds),
        rules=inputs.rules,
    )
    provenance = Provenance.of("fp_table", inputs.rules, unit="rolls", notes=_notes(frame))
    return Answer("fp_table", {"fp_table": _plain(frame)}, BESTIARY_KINDS, provenance)


def compute_fp_part(inputs: FpTableInputs) -> Answer:
    """One build's part of the FP table: table ``part`` (:func:`~explodice.analysis.bestiary.
    fp_table_part`)."""
    assert inputs.builds is not None and len(inputs.builds) == 1
    part = fp_table_part(
        None if inputs.monsters is None else list(inputs.monsters),
        fps=None if inputs.fps is None else list(inputs.fps),
        build=inputs.builds[0],
        rules=inputs.rules,
    )
    provenance = Provenance.of("fp_table_part", inputs.rules, unit="rolls")
    return Answer("fp_table_part", {"part": part}, BESTIARY_KINDS, provenance)


#: A part of ``fp_table`` (one build's chances against each FP's typical monster), kept on its
#: own; no surface shows it, so it is not in the catalogue.
FP_PART: Question[FpTableInputs] = Question(
    name="fp_table_part",
    summary="one build's chances against the typical monster of each FP, at every value tried",
    inputs=FpTableInputs,
    compute=compute_fp_part,
    kinds=BESTIARY_KINDS,
)


FP_TABLE = register(
    Question(
        name="fp_table",
        summary="the typical monster of each power factor, and its 3d6x VD, attack and save DC",
        inputs=FpTableInputs,
        compute=compute_fp_table,
        kinds=BESTIARY_KINDS,
        surfaces={"report": ("bestiary-fp",), "cli": ("fp-table",)},
    )
)


# -- each monster converted ------------------------------------------------------------------
@dataclass(frozen=True)
class BestiaryInputs:
    """The monsters (``None``: the SRD's), the filters (``fp``, ``types``, ``name``,
    ``flagged``), the ``threshold`` of a flag, the builds met (``None``: the reference
    builds) and the rules."""

    monsters: tuple[Monster, ...] | None = None
    fp: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    name: str | None = None
    flagged: bool = False
    threshold: float = DEFAULT_THRESHOLD
    builds: tuple[Build, ...] | None = None
    rules: Rules = Rules()


def compute_bestiary(
    inputs: BestiaryInputs, executor: Any = None, progress: bool | None = None
) -> Answer:
    """Tables ``bestiary`` (:func:`~explodice.bestiary`), with the ``attribution`` column,
    and ``summary`` (the ``monsters`` shown, the ``share_flagged`` of their chances that move
    by more than the ``threshold``); ``executor`` and ``progress`` change how, never what."""
    frame = bestiary(
        None if inputs.monsters is None else list(inputs.monsters),
        fp=None if inputs.fp is None else list(inputs.fp),
        types=None if inputs.types is None else list(inputs.types),
        name=inputs.name,
        flagged=inputs.flagged,
        threshold=inputs.threshold,
        builds=None if inputs.builds is None else list(inputs.builds),
        rules=inputs.rules,
        executor=executor,
        progress=progress,
    )
    provenance = Provenance.of("bestiary", inputs.rules, unit="rolls", notes=_notes(frame))
    summary = pd.DataFrame(  # what a caption says: how many monsters, the share flagged
        {
            "monsters": [int(frame.name.nunique())],
            "share_flagged": [float(frame.flagged.mean()) if len(frame) else float("nan")],
            "threshold": [float(inputs.threshold)],
        }
    )
    tables = {"bestiary": _plain(frame), "summary": summary}
    return Answer("bestiary", tables, BESTIARY_KINDS, provenance)


BESTIARY = register(
    Question(
        name="bestiary",
        summary="each monster converted to 3d6x, and the chances that move most",
        inputs=BestiaryInputs,
        compute=compute_bestiary,
        kinds=BESTIARY_KINDS,
        surfaces={"report": ("bestiary",), "cli": ("bestiary",), "explorer": ("bestiary",)},
    )
)
