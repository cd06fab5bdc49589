"""How the commands print: tidy rows for scripts (``--format csv|json``, English keys, full
precision), or an aligned text table in ``--lang`` (headers and label cells from the
catalogue, numbers the language's way), and the package's warnings as one line each.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pandas as pd

from explodice.core.errors import one_line
from explodice.core.spreadsheet import to_csv
from explodice.present import i18n
from explodice.present.labels import REROLL

__all__ = [
    "emit",
    "fmt_float",
    "pct",
    "percent_grid",
    "show",
    "warnings_in_one_line",
]


def emit(
    frame: Any, fmt: str, *, text: Any = None, header: str | None = None, lang: str = "en"
) -> None:
    """Print ``frame`` as csv or json records, or ``text`` (default: the frame) aligned
    (its headers and numbers in ``lang``)."""
    out = sys.stdout
    if fmt == "csv":
        to_csv(frame, out)
    elif fmt == "json":
        out.write(frame.to_json(orient="records", double_precision=15) + "\n")
    else:
        if header:
            out.write(header + "\n")
        shown = frame if text is None else text
        if lang != "en":
            shown = i18n.localise_table(shown, lang)
        out.write(shown.to_string(index=False, float_format=fmt_float) + "\n")


def fmt_float(x: float) -> str:
    """A number of an English text table: 6 decimals at most, scientific when very large or
    small, a dash for NaN."""
    if x != x:
        return "—"
    if x == 0 or 1e-4 <= abs(x) < 1e6:
        return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) >= 1 else f"{x:.6f}"
    return f"{x:.3e}"


def percent_grid(wide: Any, lang: str = "en") -> Any:
    """Format a wide pivot of probabilities as percentages for the terminal."""
    if lang != "en":
        return wide.map(lambda v: "—" if v != v else i18n.percent(v, lang))
    return wide.map(lambda v: "—" if v != v else f"{100 * v:5.1f}%")


def pct(p: float, args: argparse.Namespace, digits: int) -> str:
    """A probability for the text table: ``49.123%``, or the language's way with --lang."""
    if args.lang != "en":
        return i18n.percent(p, args.lang, digits)
    return f"{100 * p:.{digits}f}%"


#: Columns that hold probabilities: percentages in :func:`show`'s tables (49,1 % in French).
PERCENT = {"p", "p_hidden_from", "p_win_a", "p_win_b", "p_reroll", "gain"}
#: Columns whose cells are labels, read in the catalogue.
LABELS = {"advantage", "method", "trigger"}


def show(frame: pd.DataFrame, args: argparse.Namespace, header: str) -> None:
    """csv or json records for scripts (English keys, full precision), else a header line
    and the aligned table in ``--lang``: probabilities in percent and numbers the language's
    way (Babel), column names and label cells from the catalogue."""
    if args.format == "csv":
        to_csv(frame, sys.stdout)
        return
    if args.format == "json":
        sys.stdout.write(frame.to_json(orient="records", double_precision=15) + "\n")
        return
    lang = args.lang
    _ = i18n.translator(lang)
    text = pd.DataFrame(index=frame.index)
    for col in frame.columns:
        values = frame[col]
        if col in PERCENT:
            cells = [i18n.percent(float(v), lang) for v in values]
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
            sys.stderr.write(f"explodice: warning: {one_line(w.message)}\n")
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
