"""Numbers read from a user's text, the one way every reader of the package reads them.

Python's ``int()``, ``float()``, ``Decimal()`` and ``str.isdigit()`` take any Unicode digit:
``int("٥")`` is 5 (an Arabic-Indic digit), ``"²".isdigit()`` is true but ``int("²")`` fails.
A number a designer types is written in ASCII digits (``5``, ``-3``, ``1_000``, ``1e6``,
``0.25``); anything else is refused the same way everywhere: :func:`read_decimal` and
:func:`read_int` raise ``ValueError`` for it, which each caller turns into its one-line error
naming the field.

>>> read_int("42"), read_int(" -3 "), read_decimal("1e6")
(42, -3, Decimal('1E+6'))
>>> read_int("٤٢")
Traceback (most recent call last):
...
ValueError: not a number in ASCII digits: '٤٢'
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

__all__ = ["read_decimal", "read_int"]

#: A decimal number in ASCII: a sign, digits (``_`` between them), a point, an exponent.
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)"
    r"(?:[eE][+-]?[0-9](?:_?[0-9])*)?",
    re.ASCII,
)
#: An integer in ASCII digits, with an optional sign.
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def read_decimal(text: str) -> Decimal:
    """``text`` (white space around it ignored) as a finite ``Decimal`` written in ASCII
    (``0.25``, ``-3``, ``1_000``, ``1e-3``), or ``ValueError``: other digits (``٥``, ``²``),
    ``inf``, ``nan`` and anything else are refused.

    >>> read_decimal(" 0.25 "), read_decimal("1_000")
    (Decimal('0.25'), Decimal('1000'))
    """
    body = text.strip() if isinstance(text, str) else ""
    if not _DECIMAL.fullmatch(body):
        raise ValueError(f"not a number in ASCII digits: {text!r}")
    try:
        return Decimal(body)
    except InvalidOperation:  # pragma: no cover - the pattern admits only what Decimal reads
        raise ValueError(f"not a number in ASCII digits: {text!r}") from None


def read_int(text: str, *, signed: bool = True) -> int:
    """``text`` (white space around it ignored) as an integer written in ASCII digits with an
    optional sign (without one if not ``signed``: the digits of a TOML key), or
    ``ValueError`` (``"٥"``, ``"²"``, ``"4.0"``, ``""``).

    >>> read_int("+7"), read_int("12", signed=False)
    (7, 12)
    """
    body = text.strip() if isinstance(text, str) else ""
    if not (_INT if signed else _DIGITS).fullmatch(body):
        raise ValueError(f"not a number in ASCII digits: {text!r}")
    return int(body)
