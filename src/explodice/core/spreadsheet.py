"""CSV files a spreadsheet opens safely: every CSV explodice writes goes through :func:`to_csv`.

A spreadsheet runs a text cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one) as a formula, so a character named ``=HYPERLINK(...)`` in a
designer's configuration would become a live formula in the report's CSV. :func:`to_csv`
writes such a text cell with a leading ``'`` (the OWASP advice for CSV injection), and leaves
numbers alone, in numeric columns and in text: ``-3`` and ``+4`` stay as they are.

>>> import pandas as pd
>>> safe = safe_cells(pd.DataFrame({"name": ["=1+1", "@SUM(A1)", "-3", "Bo"], "p": [-0.5, 0, 1, 2]}))
>>> safe.name.tolist(), safe.p.tolist()
(["'=1+1", "'@SUM(A1)", '-3', 'Bo'], [-0.5, 0.0, 1.0, 2.0])
"""

from __future__ import annotations

import os
from typing import IO, Any

import pandas as pd

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_cells", "to_csv"]

#: The first characters that make a spreadsheet read a text cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value``, with a leading ``'`` if it is text a spreadsheet would run as a formula.

    >>> safe_cell("=2*3"), safe_cell("-3"), safe_cell("+4 vs DC 16"), safe_cell(-3)
    ("'=2*3", '-3', "'+4 vs DC 16", -3)
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value  # a number written as text: -3, +4, -1.5e3


def safe_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell and column name made safe by :func:`safe_cell` (a copy;
    numeric columns are untouched)."""
    out = frame.copy()
    for col in out.columns:
        values = out[col]
        if not (
            pd.api.types.is_object_dtype(values)
            or pd.api.types.is_string_dtype(values)
            or isinstance(values.dtype, pd.CategoricalDtype)
        ):
            continue
        out[col] = values.astype(object).map(safe_cell)
    out.columns = [safe_cell(c) for c in out.columns]
    return out


def to_csv(frame: pd.DataFrame, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write ``frame`` as CSV (no index) to a path or an open text file, its text cells safe
    to open in a spreadsheet (:func:`safe_cells`)."""
    safe_cells(frame).to_csv(target, index=False)
