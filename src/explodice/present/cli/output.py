"""How the commands print: tidy rows for scripts (``--format csv|json``, English keys, full
precision), or an aligned text table in ``--lang`` (headers and label cells from the
catalogue, numbers the language's way), and the package's warnings as one line each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import numbers
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pandas as pd

from explodice.core.errors import one_line
from explodice.core.spreadsheet import to_csv
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import REROLL

__all__ = [
    "as_text",
    "emit",
    "fmt_float",
    "json_records",
    "json_text",
    "percent",
    "percent_digits",
    "percent_grid",
    "show",
    "warnings_in_one_line",
]


#: Columns that hold probabilities: percentages in every command's text table (csv and json
#: keep the raw numbers).
PERCENT = {
    "p",
    "p_hidden_from",
    "p_win_a",
    "p_win_b",
    "p_reroll",
    "p_tie",
    "p_d20",
    "p_3d6x",
    "p_success",
    "p_empty",
    "p_table",
    "target",
    "gain",
    "gap",
    "ci_low",
    "ci_high",
    "cdf",
    "win",
    "tie",
    "loss",
}
#: Probability columns that are differences, shown with their sign (+0.5%, -0.9%).
SIGNED = {"gap"}
#: Columns whose cells are labels, read in the catalogue.
LABELS = {"advantage", "method", "trigger"}
#: Decimals of a percentage: one, or as many as a simulated interval needs (at most this).
MAX_DIGITS = 4


def percent(p: float, lang: Lang = "en", digits: int = 1, *, signed: bool = False) -> str:
    """A probability as every command's text shows it, in the language's style: ``83.8%``,
    ``83,8 %`` in French, ``< 0.1%`` rather than a false 0 (``signed``: ``+0.5%``).

    >>> percent(0.838), percent(0.838, "fr"), percent(-0.009, signed=True), percent(1e-5)
    ('83.8%', '83,8\xa0%', '-0.9%', '< 0.1%')
    """
    if p != p:
        return "—"
    text = i18n.percent(abs(p) if signed else p, lang, digits)
    return ("-" if p < 0 else "+") + text if signed else text


def percent_digits(frame: Any) -> int:
    """Decimals for a table's percentages: 1, or enough to tell a simulated interval's ends
    apart (``ci_low`` < ``ci_high``, the table's median interval), at most :data:`MAX_DIGITS`."""
    if "ci_low" not in frame or "ci_high" not in frame:
        return 1
    if not all(pd.api.types.is_numeric_dtype(frame[c]) for c in ("ci_low", "ci_high")):
        return 1  # written already (a formatter's text)
    half = (pd.to_numeric(frame["ci_high"]) - pd.to_numeric(frame["ci_low"])) / 2
    half = half[half > 0]
    if half.empty:
        return 1
    return max(1, min(MAX_DIGITS, math.ceil(-math.log10(100 * float(half.median())))))


def as_text(frame: pd.DataFrame, lang: Lang = "en", digits: int | None = None) -> pd.DataFrame:
    """``frame``'s probability columns (:data:`PERCENT`) as percentages (``digits``: default
    :func:`percent_digits`); the other columns as they are."""
    digits = percent_digits(frame) if digits is None else digits
    out = frame.copy()
    for col in frame.columns:
        if col in PERCENT and pd.api.types.is_float_dtype(frame[col]):
            out[col] = [percent(float(v), lang, digits, signed=col in SIGNED) for v in frame[col]]
    return out


def emit(
    frame: Any, fmt: str, *, text: Any = None, header: str | None = None, lang: Lang = "en"
) -> None:
    """Print ``frame`` as csv or json records, or ``text`` (default: the frame) aligned: its
    probabilities in percent (:func:`as_text`), its headers and numbers in ``lang``."""
    out = sys.stdout
    if fmt == "csv":
        to_csv(frame, out)
    elif fmt == "json":
        out.write(json_text(frame) + "\n")
    else:
        if header:
            out.write(header + "\n")
        shown = as_text(frame if text is None else text, lang)
        for col in shown.columns:  # a missing count (pandas' <NA>) as the dash of NaN
            if not pd.api.types.is_float_dtype(shown[col]) and shown[col].isna().any():
                shown[col] = shown[col].astype(object).where(shown[col].notna(), "—")
        if lang != "en":
            shown = i18n.localise_table(shown, lang)
        out.write(shown.to_string(index=False, float_format=fmt_float) + "\n")


def json_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """``frame``'s rows as records of Python values: numpy numbers as Python's, NaN and a
    missing value as ``None`` (JSON's ``null``), every double as it is.

    >>> json_records(pd.DataFrame({"p": [3.1e-17, float("nan")], "n": [1, 2]}))
    [{'p': 3.1e-17, 'n': 1}, {'p': None, 'n': 2}]
    """
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]


def json_text(tables: pd.DataFrame | dict[str, pd.DataFrame]) -> str:
    """A frame (or named frames, as one object) as the JSON text of ``--format json``: its
    :func:`json_records`, each double written as the shortest text that reads back to the
    same double (as the CSV writes it: never rounded to some decimals), infinity as ``1e999``
    (valid JSON that reads back as infinity), NaN as ``null``.

    >>> json_text(pd.DataFrame({"p": [3.1e-17, 0.4907407407407028], "hi": [1.0, math.inf]}))
    '[{"p": 3.1e-17, "hi": 1.0}, {"p": 0.4907407407407028, "hi": 1e999}]'
    """
    if isinstance(tables, pd.DataFrame):
        return _json(json_records(tables))
    return _json({name: json_records(t) for name, t in tables.items()})


def _json(value: Any) -> str:
    """JSON text of records (see :func:`json_text`)."""
    if isinstance(value, float):
        if math.isfinite(value):
            return repr(value)
        return "null" if value != value else ("1e999" if value > 0 else "-1e999")
    if isinstance(value, list):
        return "[" + ", ".join(_json(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {_json(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _plain(value: Any) -> Any:
    """A cell as a JSON value (see :func:`json_records`)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, str)):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ == "bool_":
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        return None if x != x else x
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def fmt_float(x: float) -> str:
    """A number of an English text table: three decimals (the same in every row of a column),
    scientific below 0.001 and from a million on, a dash for NaN; csv and json keep every
    digit.

    >>> [fmt_float(v) for v in (2.1, 2.0416667, 0.48, 0.0, 2.5e-5, float("nan"))]
    ['2.100', '2.042', '0.480', '0.000', '2.500e-05', '—']
    """
    if x != x:
        return "—"
    if x == 0 or 1e-3 <= abs(x) < 1e6:
        return f"{x:.3f}"
    return f"{x:.3e}"


def percent_grid(wide: Any, lang: Lang = "en") -> Any:
    """A wide pivot of probabilities as percentages for the terminal (a dash where none)."""
    return wide.map(lambda v: percent(v, lang))


def show(frame: pd.DataFrame, args: argparse.Namespace, header: str) -> None:
    """csv or json records for scripts (English keys, full precision), else a header line
    and the aligned table in ``--lang``: probabilities in percent (:func:`percent`), numbers
    the language's way (Babel), column names and label cells from the catalogue."""
    if args.format == "csv":
        to_csv(frame, sys.stdout)
        return
    if args.format == "json":
        sys.stdout.write(json_text(frame) + "\n")
        return
    lang = args.lang
    _ = i18n.translator(lang)
    text = pd.DataFrame(index=frame.index)
    digits = percent_digits(frame)
    for col in frame.columns:
        values = frame[col]
        if col in PERCENT:
            cells = [percent(float(v), lang, digits, signed=col in SIGNED) for v in values]
        elif pd.api.types.is_float_dtype(values):
            cells = [i18n.number(float(v), lang, 2) for v in values]
        elif col == "trigger":
            cells = [_(REROLL[v]) for v in values]
        elif col in LABELS:
            cells = [_(v) for v in values]
        else:
            cells = list(values)
        text[_(col)] = cells
    sys.stdout.write(f"# {header}\n{text.to_string(index=False)}\n")


@contextlib.contextmanager
def warnings_in_one_line(*categories: type[Warning]) -> Iterator[None]:
    """Print the package's warnings of ``categories`` as one line each on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        if issubclass(w.category, categories):
            # warnings.warn("text", Category) records Category("text"): a str is only typeshed's
            message = w.message if isinstance(w.message, Warning) else w.category(w.message)
            sys.stderr.write(f"explodice: warning: {one_line(message, named=False)}\n")
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
