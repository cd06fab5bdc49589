"""Command-line numbers, read strictly: a value is used exactly as written, or refused.

``--n 1.25e1`` is not 12 and ``--n 1e400`` is not an overflow: each is refused with one line
that says what is allowed. Integers may be written ``1000000``, ``1_000_000`` or ``1e6``, in
ASCII digits (:func:`explodice.core.numbers.read_decimal`: ``-m ٤٢`` is refused).

>>> parse_integer("1e6", lo=1), parse_integer("-3", lo=-10, hi=10)
(1000000, -3)
>>> parse_integer("1.25e1", lo=1)
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected an integer >= 1, but '1.25e1' was passed
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import partial

from explodice.core.numbers import read_decimal
from explodice.core.words import Phrase
from explodice.present.cli.base import type_error

__all__ = ["integer", "parse_integer", "probability", "seconds"]

MAX_TEXT = 40  # characters of a number echoed back


def _allowed(lo: int | None, hi: int | None) -> Phrase:
    if lo is not None and hi is not None:
        return Phrase("an integer in {lo}..{hi}", lo=lo, hi=hi)
    if lo is not None:
        return Phrase("an integer >= {lo}", lo=lo)
    if hi is not None:
        return Phrase("an integer <= {hi}", hi=hi)
    return Phrase("an integer")


def written(value: int) -> str:
    """A bound as a person writes it (and the README's limits table): thousands set apart
    with commas, never the underscores of Python's literals.

    >>> written(-1000), written(10**13), written(100)
    ('-1,000', '10,000,000,000,000', '100')
    """
    return f"{value:,}"


def parse_integer(text: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """``text`` as an integer in ``lo..hi`` (inclusive), or ``argparse.ArgumentTypeError``."""
    shown = text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}...({len(text)} chars)"
    error = partial(  # the refusal, made only when the text is refused
        type_error,
        Phrase("expected {allowed}, but {text!r} was passed", allowed=_allowed(lo, hi), text=shown),
    )
    try:
        value = read_decimal(text)
    except ValueError:
        raise error() from None
    # bounds first: comparing is cheap even for 1e999999999, turning it into an int is not
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise error()
    if lo is None or hi is None:
        if abs(value.adjusted()) > 4300:  # Python's own limit on digits of an int from text
            raise error()
    if value != value.to_integral_value():
        raise error()
    return int(value)


def integer(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` reading an integer in ``lo..hi``.

    >>> integer(1, 10)("7")
    7
    """

    def parse(text: str) -> int:
        return parse_integer(text, lo=lo, hi=hi)

    parse.__name__ = "integer"  # argparse names the type in some messages
    return parse


def probability(text: str) -> float:
    """An argparse ``type=`` reading a probability: ``0.5``, or ``50%``, within 0..1.

    >>> probability("0.25"), probability("50%"), probability("1e-3")
    (0.25, 0.5, 0.001)
    >>> probability("1.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a probability in 0..1 (or 0%..100%), but '1.5' was passed
    """
    shown = text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}...({len(text)} chars)"
    error = partial(  # the refusal, made only when the text is refused
        type_error,
        Phrase("expected a probability in 0..1 (or 0%..100%), but {text!r} was passed", text=shown),
    )
    body = text.strip()
    scale = Decimal(100) if body.endswith("%") else Decimal(1)
    try:
        value = read_decimal(body.removesuffix("%")) / scale
    except ValueError:
        raise error() from None
    if not 0 <= value <= 1:
        raise error()
    return float(value)


#: The most seconds an option of seconds takes (about 11 days).
MAX_SECONDS = 10**6


def seconds(text: str) -> float:
    """An argparse ``type=`` reading a number of seconds > 0 (at most 10^6).

    >>> seconds("60"), seconds("0.5")
    (60.0, 0.5)
    """
    shown = text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}...({len(text)} chars)"
    error = partial(  # the refusal, made only when the text is refused
        type_error,
        Phrase(
            "expected a number of seconds > 0 (at most 10^6), but {text!r} was passed", text=shown
        ),
    )
    try:
        value = read_decimal(text)
    except ValueError:
        raise error() from None
    if not 0 < value <= MAX_SECONDS:
        raise error()
    return float(value)
