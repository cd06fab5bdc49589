"""Which readings matter: every switch of the rules moved alone to each of its other values,
and the largest change it makes in the probabilities a designer balances with
(:func:`~explodice.sensitivity`), the day exact by default.

Shown by the report's page ``readings`` and ``explodice readings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.sensitivity import (
    PROBABILITIES,
    DayMethod,
    Sensitivity,
    sensitivity,
)
from explodice.day.scenario import Scenario
from explodice.game.rules import KINDS, Rules
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["READINGS_KINDS", "QUESTION", "ReadingsInputs", "compute", "largest_cells"]

#: The columns of the readings' tables and their kinds.
READINGS_KINDS: dict[str, Kind] = {
    "switch": "name",
    "value": "name",
    "largest": "probability",
    "delta": "change",
    "dc_p_max": "probability",
    "dc_p_mean": "probability",
    "drain_max": "number",
    "drain_mean": "number",
    "party_p_max": "probability",
    "day_p_empty_max": "probability",
    "day_successes_max": "number",
    "hiding_p_max": "probability",
    "haggle_p_noticed_max": "probability",
    "part": "label",
    "measure": "label",
    "case": "name",
    "drain_change": "signed",
    "day_p_empty_change": "change",
    "day_successes_change": "signed",
}


@dataclass(frozen=True)
class ReadingsInputs:
    """What the readings are measured on: the ``party`` (its tests), the ``day``, the
    ``rules`` moved from, and the grid and day method of :func:`~explodice.sensitivity`
    (``None``: its defaults)."""

    party: tuple[Any, ...] | None
    day: Scenario | None
    rules: Rules
    modifiers: tuple[int, ...] | None = None
    switches: tuple[str, ...] | None = None
    dcs: tuple[int, ...] | None = None
    advantages: tuple[str, ...] = ("normal", "advantage", "disadvantage")
    kinds: tuple[str, ...] = KINDS
    policies: tuple[Any, ...] = ("keep", "cancel")
    rerolls: tuple[Any, ...] = (None, "one")
    parts: tuple[str, ...] | None = None
    day_method: DayMethod = "exact"
    n_days: int | None = None
    seed: int | None = None


def largest_cells(s: Sensitivity) -> pd.DataFrame:
    """For each row of ``s.table``, the cell of its largest change of a probability (the one
    ``largest_where`` names): ``switch, value, part, measure, case, delta`` (signed), and the
    case's columns; a row with nothing computed is absent.

    Read from ``s.by_measure`` as :func:`~explodice.sensitivity` ranks (ties: the larger
    ``"part: case"``), then the signed change from ``s.detail``.
    """
    keys = ["switch", "value", "part", "measure", "case"]
    bm = s.by_measure
    if bm.empty:
        return pd.DataFrame(columns=[*keys, "delta"])
    probs = bm[bm["measure"].isin(PROBABILITIES)].copy()
    probs["said"] = [
        f"{p}: {w}" if isinstance(w, str) else "" for p, w in zip(probs["part"], probs["where"])
    ]
    rows = []
    for (switch, value), g in probs.groupby(["switch", "value"], sort=False):
        top = max(g.itertuples(), key=lambda r: (r.max, r.said))
        if not isinstance(top.where, str):  # no change anywhere
            continue
        rows.append((switch, value, top.part, top.measure, top.where))
    cells = pd.DataFrame(rows, columns=keys)
    detail = s.detail.drop(columns=["default", "changed"], errors="ignore")
    return cells.merge(detail, on=keys, how="left").drop_duplicates(keys)


#: The signed summaries the surfaces show beside the ranking: (column, part, measure); each
#: the signed change of the cell whose |change| is the row's ``<prefix>_max``.
SIGNED_SUMMARIES = (
    ("drain_change", "dc_table", "drain_mean"),
    ("day_p_empty_change", "day", "p_empty"),
    ("day_successes_change", "day", "successes"),
)


def signed_summaries(table: pd.DataFrame, detail: pd.DataFrame) -> pd.DataFrame:
    """``table`` with :data:`SIGNED_SUMMARIES`: the sign of each largest change (a table that
    drops it reads a fall as a rise: page 21 showed 58.6 pp beside a bar of -58.6 pp). The
    cell is the first of the largest |change|, as the sensitivity picks its ``*_max``."""
    out = table.copy()
    for column, part, measure in SIGNED_SUMMARIES:
        values = {}
        if not detail.empty:
            cells = detail[(detail.part == part) & (detail.measure == measure)]
            cells = cells.assign(size=cells.delta.abs())
            for key, g in cells.groupby(["switch", "value"], sort=False):
                top = g["size"].to_numpy().argmax()  # the first of the largest, as idxmax
                values[key] = float(g.delta.to_numpy()[top])
        out[column] = [values.get(k, np.nan) for k in zip(table.switch, table.value)]
    return out


def _opt(values: Sequence[Any] | None) -> list[Any] | None:
    return None if values is None else list(values)


def compute(inputs: ReadingsInputs) -> Answer:
    """The sensitivity's tables (``table``, ``detail``, ``by_measure``) and each row's largest
    cell (``largest``, signed); ``extra["attrs"]``: the sensitivity's own provenance (the
    methods per part, the grid, the day's days and seed where simulated)."""
    s = sensitivity(
        list(inputs.party) if inputs.party is not None else None,
        inputs.day,
        rules=inputs.rules,
        switches=_opt(inputs.switches),
        modifiers=_opt(inputs.modifiers),
        dcs=_opt(inputs.dcs),
        advantages=list(inputs.advantages),
        kinds=list(inputs.kinds),
        policies=list(inputs.policies),
        rerolls=list(inputs.rerolls),
        parts=_opt(inputs.parts),
        day_method=inputs.day_method,
        n_days=inputs.n_days,
        seed=inputs.seed,
    )
    attrs = dict(s.table.attrs)
    simulated = attrs.get("n_days") is not None
    prov = Provenance.of(
        "readings",
        inputs.rules,
        method="simulate" if simulated else "exact",
        n=attrs.get("n_days"),
        seed=attrs.get("seed"),
        notes=tuple(f"{k}={v}" for k, v in attrs["method"].items()),
    )
    cells = largest_cells(s)
    tables = {
        "table": signed_summaries(s.table, s.detail),
        "detail": s.detail,
        "by_measure": s.by_measure,
        "largest": cells,
    }
    for frame in tables.values():
        frame.attrs = dict(attrs)
    return Answer("readings", tables, READINGS_KINDS, prov, {"attrs": attrs})


def with_attrs(answer: Answer, name: str) -> pd.DataFrame:
    """Table ``name`` of a readings answer with the sensitivity's ``.attrs`` (an answer read
    back from JSON has them in ``extra``)."""
    frame = answer.tables[name].copy()
    frame.attrs = dict(answer.extra.get("attrs", {}))
    return frame


QUESTION = register(
    Question(
        name="readings",
        summary="which readings matter: each switch moved alone, ranked",
        inputs=ReadingsInputs,
        compute=compute,
        kinds=READINGS_KINDS,
        surfaces={"report": ("readings",), "cli": ("readings",)},
    )
)
