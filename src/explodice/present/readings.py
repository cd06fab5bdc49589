"""Which readings matter, as a reader sees it: the table of
:func:`~explodice.analysis.sensitivity.sensitivity` in the words and numbers of a language,
for ``explodice readings`` and the report's page ``readings``.

- :func:`reading_label`: a switch moved to a value, ``malus_die = plain`` (``dé de malus =
  simple``);
- :func:`points`: a change of a probability in percentage points, ``+5.5 pp`` (``+5,5 pts``);
- :func:`largest_cells`: for each row of the table, the cell of its largest change (part,
  measure, case and the signed change), read from ``detail``;
- :func:`where_label`: that cell as a reader says it (rebuilt from its columns in French);
- :func:`note_label`: why a part is not computed (a reading the day engines do not read yet,
  a switch read by a part the call left out), in ``lang``;
- :func:`readings_frame`: the table as shown, one row per switch and value;
- :func:`~explodice.present.plots.plot_readings` draws the table as ranked bars.

Every number here is the sensitivity's own; nothing is computed again.

>>> reading_label("malus_die", "plain", "fr"), points(0.0548, "en"), points(-0.0548, "fr")
('dé de malus = simple', '+5.5 pp', '−5,5\\xa0pts')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.sensitivity import (
    BEST_NOTE,
    Variant,
    day_blind_spot,
    variants,
)
from explodice.game.rules import Rules
from explodice.present import i18n
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import (
    N_,
    best_label,
    blind_spot_text,
    switch_label,
    test_label,
    written_value,
)
from explodice.questions.answer import Answer
from explodice.questions.readings import largest_cells, with_attrs

__all__ = [
    "MEASURES",
    "PART_NAMES",
    "largest_cells",
    "note_label",
    "points",
    "reading_label",
    "readings_frame",
    "readings_csv",
    "where_label",
    "with_provenance",
]

#: The parts of the sensitivity, as a reader names them.
PART_NAMES = {
    "dc_table": N_("DC table"),
    "party": N_("party"),
    "day": N_("day"),
    "hiding": N_("hiding"),
    "haggle": N_("haggling"),
    "attack": N_("attacks"),
}
#: The measures, as a reader names them.
MEASURES = {
    "p_success": N_("P(success)"),
    "p_tie": N_("P(tie)"),
    "p_empty": N_("P(empty)"),
    "p_hidden": N_("P(hidden)"),
    "p_noticed": N_("P(noticed)"),
    "drain_mean": N_("E[drain]"),
    "successes": N_("successes"),
    "price_mean": N_("mean price"),
    "p_hit": N_("P(hit)"),
    "p_crit": N_("P(critical)"),
}
#: The table's summary columns that :func:`readings_frame` shows, with their headers: the
#: largest change of E[drain] per roll, of a day's P(empty) and of its expected successes.
SUMMARIES = (
    ("drain_max", N_("E[drain]/roll")),
    ("day_p_empty_max", N_("day: P(empty)")),
    ("day_successes_max", N_("day: successes")),
)
_BEST = re.compile(r"best\(λ=([^)]*)\)")


def reading_label(switch: str, value: str, lang: Lang) -> str:
    """A switch moved to one value, as the sensitivity's ``value`` column writes it
    (``plain``, ``True``, ``+attack``): ``malus_die = plain`` (``dé de malus = simple``)."""
    return f"{switch_label(switch, lang)} = {value_label(switch, value, lang)}"


def value_label(switch: str, value: str, lang: Lang) -> str:
    """A value of the ``value`` column in ``lang``: a kind added or removed (``+attack``,
    ``+attaque``), a flag (``True``, ``oui``), else :func:`~explodice.present.labels.switch_value`
    (:func:`~explodice.present.labels.written_value`); English keeps it as written."""
    return value if lang == "en" else written_value(switch, value, lang)


def points(
    delta: float, lang: Lang, digits: int = 1, *, sign: bool = True, minus: str = "−"
) -> str:
    """A change of a probability in percentage points, signed: ``+5.5 pp`` (``+5,5 pts``),
    ``±0.0 pp`` for none, as :meth:`~explodice.present.formats.Formatter.points` writes every
    change; ``minus``: the sign of a fall (the typographic minus in the report, ``-`` on the
    command line); a missing change is ``—``."""
    if delta != delta:
        return "—"
    return _formatter(lang, minus).points(delta, digits=digits, signed=sign)


def _formatter(lang: Lang, minus: str) -> Formatter:
    """The formatter of the surface whose minus is ``minus``."""
    return Formatter(lang, "cli" if minus == "-" else "report")


def where_label(cell: Any, lang: Lang) -> str:
    """Where a change happens (a row of :func:`largest_cells` or of ``detail``), as a reader
    says it: ``P(success), DC table — +4 vs DC 12, disadvantage, ability, keep, lucky``; in
    French rebuilt from the cell's columns (``P(réussite), table des DD — +4 contre DD 12,
    désavantage, ...``)."""
    _ = i18n.translator(lang)
    measure = _(MEASURES.get(cell.measure, cell.measure))
    return f"{measure}, {_(PART_NAMES.get(cell.part, cell.part))} — {case_label(cell, lang)}"


def case_label(cell: Any, lang: Lang) -> str:
    """The case of a cell in ``lang`` (English: the sensitivity's own ``case``)."""
    if lang == "en":
        return str(cell.case)
    _ = i18n.translator(lang)
    part = cell.part
    if part == "dc_table":
        match = _BEST.fullmatch(str(cell.policy))
        policy = best_label(float(match.group(1)), lang) if match else _(str(cell.policy))
        lucky = "" if cell.reroll in ("none", None) else ", " + _("Lucky")
        return (
            _("{modifier} vs DC {dc}, {advantage}, {kind}, {policy}").format(
                modifier=f"{int(cell.modifier):+d}",
                dc=int(cell.dc),
                advantage=_(cell.advantage),
                kind=_(cell.kind),
                policy=policy,
            )
            + lucky
        )
    if part == "party":
        return _("{name}: {test}, DC {dc}, {advantage}").format(
            name=cell.character,
            test=test_label(str(cell.test), lang),
            dc=int(cell.dc),
            advantage=_(cell.advantage),
        )
    if part == "day":
        if cell.measure == "p_empty":
            return f"{cell.character} {cell.gauge}"
        who = cell.character if isinstance(cell.character, str) else _("party")
        return _("{name}: successes").format(name=who)
    if part == "hiding":
        if pd.notna(cell.dc):
            return _("Stealth {modifier} vs passive {value}").format(
                modifier=f"{int(cell.modifier):+d}", value=int(cell.dc)
            )
        return _("Stealth {modifier} vs active Perception {modifier}").format(
            modifier=f"{int(cell.modifier):+d}"
        )
    if part == "haggle":
        return _("Persuasion and Deception {modifier}, DC {dc}").format(
            modifier=f"{int(cell.modifier):+d}", dc=int(cell.dc)
        )
    if part == "attack":  # "+5 vs priest at level 10, advantage, keep"
        target = str(cell.case).split(" vs ", 1)[1].rsplit(", ", 2)[0]
        name, _at, level = target.rpartition(" at level ")
        return _("{modifier} vs {name} at level {level}, {advantage}, {policy}").format(
            modifier=f"{int(cell.modifier):+d}",
            name=name,
            level=level,
            advantage=_(cell.advantage),
            policy=_(str(cell.policy)),
        )
    return str(cell.case)


def note_label(note: str, variant: Variant | None, day: Any, rules: Rules, lang: Lang) -> str:
    """Why a part of a row is not computed (its ``note``), in ``lang``: a reading the day
    engines do not read yet (said from the day itself), a switch read only by a part this
    call did not compute, or the day's own error (English: the note as it is)."""
    if not note or lang == "en":
        return note
    _ = i18n.translator(lang)
    if note.startswith("day not computed") and variant is not None and day is not None:
        spot = day_blind_spot(day, rules) or day_blind_spot(day, variant.rules)
        if spot is not None:
            return _("day not computed: {reason}").format(reason=blind_spot_text(spot, day, lang))
        return _("day not computed: {reason}").format(reason=note.partition(": ")[2])
    if note == BEST_NOTE:
        return _(
            "the day's fixed policies pour into the fullest under 'best' too: only the optimal "
            "player (optimal_policy) chooses the gauge an excess goes to"
        )
    if note.startswith("day simulated"):
        return _("day simulated: the exact day refused it")
    if " is read by the " in note and variant is not None:
        return _("{switch} is read by the {part} only, which is not computed here").format(
            switch=switch_label(variant.switch, lang),
            part=_(PART_NAMES.get(variant.scope, variant.scope)),
        )
    return note


def readings_frame(
    table: pd.DataFrame,
    cells: pd.DataFrame,
    lang: Lang,
    *,
    rules: Rules | None = None,
    day: Any = None,
    minus: str = "−",
) -> pd.DataFrame:
    """The ``table`` of a :class:`Sensitivity` as a reader sees it (``cells``: its
    :func:`largest_cells`), one row per switch and value in its order:
    ``reading``, ``largest`` (the largest change of a probability, signed, in percentage
    points), ``where`` it happens, the largest change of E[drain] per roll, of a day's
    P(empty) (percentage points) and of its expected successes, and ``note`` (why a part is
    not computed); ``rules`` and ``day`` are the ones ``s`` moved from (for the notes);
    ``minus``: the sign of a fall, as :func:`points` writes it.
    Numeric columns ``largest_abs`` (|Δ|, NaN where nothing was computed), ``part`` and the
    switch's ``switch`` and ``value`` stay beside them for a chart.
    """
    _ = i18n.translator(lang)
    rules = Rules() if rules is None else rules
    moved = {(v.switch, v.value): v for v in variants(rules)}
    # the rows of largest_cells, read by name as where_label reads them (pandas types no column)
    at: dict[tuple[Any, Any], Any] = {(c.switch, c.value): c for c in cells.itertuples()}
    out = []
    for row in table.to_dict("records"):
        key = (row["switch"], row["value"])
        cell = at.get(key)
        computed = pd.notna(row["largest"])
        shown: dict[str, Any] = {
            "switch": row["switch"],
            "value": row["value"],
            "reading": reading_label(row["switch"], row["value"], lang),
            "largest_abs": float(row["largest"]) if computed else np.nan,
            "part": cell.part if cell is not None else None,
            "largest": (
                points(float(cell.delta), lang, minus=minus)
                if cell is not None
                else points(0.0, lang, minus=minus)
                if computed
                else _("not computed")
            ),
            "where": where_label(cell, lang) if cell is not None else "",
        }
        for column, _header in SUMMARIES:
            value = row[column]
            signed = row.get(column.replace("_max", "_change"), value)
            if pd.isna(value):
                shown[column] = "—"
            elif column == "day_p_empty_max":  # a probability: in percentage points, signed
                shown[column] = points(float(signed), lang, minus=minus)
            else:  # points of a gauge per roll, successes per day, signed
                shown[column] = signed_number(float(signed), lang, 3, minus)
        if "day" in table.attrs.get("parts", ()) and row["reads"] in ("roll", "day"):
            if pd.isna(row["day_p_empty_max"]):
                shown["day_p_empty_max"] = shown["day_successes_max"] = _("not computed")
        shown["note"] = note_label(str(row["note"] or ""), moved.get(key), day, rules, lang)
        out.append(shown)
    return pd.DataFrame(out)


def signed_number(x: float, lang: Lang, digits: int, minus: str) -> str:
    """A signed change of a number: ``+0.309``, ``−2.800``, ``±0.000`` for none (``minus``:
    the surface's), as :meth:`~explodice.present.formats.Formatter.signed` writes it."""
    return _formatter(lang, minus).signed(x, digits)


def headers(lang: Lang) -> dict[str, str]:
    """The shown columns of :func:`readings_frame` and their headers in ``lang``."""
    _ = i18n.translator(lang)
    return {
        "reading": _("reading"),
        "largest": _("largest change"),
        "where": _("where"),
        **{column: _(header) for column, header in SUMMARIES},
    }


def readings_csv(answer: Answer, name: str) -> pd.DataFrame:
    """Table ``name`` of the readings' answer as every surface writes it for scripts (the
    report's CSV, ``explodice readings --format csv``): :func:`with_provenance`."""
    return with_provenance(with_attrs(answer, name))


def with_provenance(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame of a :class:`Sensitivity` with its ``.attrs`` as columns, for csv and json:
    the rules it moved from (``against``), each part's ``method``, the day's ``scenario``,
    ``n_days`` and ``seed`` (where simulated), and the grid."""
    a = frame.attrs
    methods = "; ".join(
        f"{part}={m if isinstance(m, str) else ' | '.join(m)}"
        for part, m in a.get("method", {}).items()
    )
    grid = {
        k: " ".join(map(str, a.get(k, ())))
        for k in ("parts", "modifiers", "dcs", "advantages", "kinds", "policies", "rerolls")
    }
    out = frame.assign(
        against=a.get("rules"),
        method=methods,
        scenario=a.get("scenario"),
        n_days=a.get("n_days"),
        seed=a.get("seed"),
        **grid,
    )
    out.attrs = dict(a)
    return out


def text_table(
    frame: pd.DataFrame, lang: Lang, columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """The shown columns of :func:`readings_frame` under their headers in ``lang``."""
    names = headers(lang)
    columns = list(columns or names)
    return frame[columns].rename(columns=names)
