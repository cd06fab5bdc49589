"""The package's errors and the checks that raise them.

Every bad value raises an :class:`ExplodiceError` (a ``ValueError``) whose message names the
field, shows the value (shortened when long) and says what is allowed. A value of the wrong
type raises :class:`ExplodiceTypeError`, which is both the package's error and a ``TypeError``.

>>> check_int("level", 3, lo=1, hi=20)
3
>>> check_int("level", 0, lo=1, hi=20)
Traceback (most recent call last):
...
explodice.core.errors.RulesError: `level` must be an integer in 1..20, but 0 was passed.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

__all__ = [
    "ExplodiceError",
    "ExplodiceTypeError",
    "RulesError",
    "check_choice",
    "check_int",
    "check_items",
    "check_mapping",
    "check_real",
    "clip",
    "fail",
    "listed",
    "one_line",
    "shown",
]

MAX_SHOWN = 80  # characters of a bad value echoed in a message


class ExplodiceError(ValueError):
    """Base class of every error explodice raises for bad input.

    ``field`` names the parameter or key at fault when one does.
    """

    field: str | None = None


class ExplodiceTypeError(ExplodiceError, TypeError):
    """A value of the wrong type: catch it as the package's error or as a ``TypeError``."""


class RulesError(ExplodiceError):
    """A rules switch, a roll or a policy was given a value the rules do not allow."""


def shown(value: Any) -> str:
    """``repr(value)``, cut to :data:`MAX_SHOWN` characters so a message stays one short line.

    >>> shown("x" * 200)[-14:]
    '...(202 chars)'
    """
    text = repr(value)
    if len(text) > MAX_SHOWN:
        return f"{text[: MAX_SHOWN - 20]}...({len(text)} chars)"
    return text


def fail(
    field_name: str, value: Any, allowed: str, error: type[ExplodiceError] = RulesError
) -> ExplodiceError:
    """The error to raise: "`field` must be <allowed>, but <value> was passed." (the field's
    name, which may hold a user's key, and the value both shortened when long)."""
    err = error(f"`{clip(field_name)}` must be {allowed}, but {shown(value)} was passed.")
    err.field = field_name
    return err


def check_choice(
    field_name: str,
    value: Any,
    choices: tuple[str, ...],
    error: type[ExplodiceError] = RulesError,
) -> str:
    """``value`` when it is one of ``choices``, else the error naming them."""
    if not isinstance(value, str) or value not in choices:
        raise fail(field_name, value, f"one of {list(choices)}", error)
    return value


def check_int(
    field_name: str,
    value: Any,
    *,
    lo: int | None = None,
    hi: int | None = None,
    error: type[ExplodiceError] = RulesError,
) -> int:
    """Return ``value`` as an ``int``, or raise ``error`` naming ``field_name``.

    Booleans and non-integral numbers are refused; ``lo``/``hi`` are inclusive bounds.
    """
    if lo is None and hi is None:
        allowed = "an integer"
    elif hi is None:
        allowed = f"an integer >= {lo}"
    elif lo is None:
        allowed = f"an integer <= {hi}"
    else:
        allowed = f"an integer in {lo}..{hi}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise fail(field_name, value, allowed, error)
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise fail(field_name, value, allowed, error)
    return value


def check_real(
    field_name: str,
    value: Any,
    *,
    lo: float | None = None,
    hi: float | None = None,
    error: type[ExplodiceError] = RulesError,
) -> float:
    """Return ``value`` as a finite ``float`` in ``lo..hi``, or raise ``error``.

    >>> check_real("weight", 0.5, lo=0)
    0.5
    """
    bounds = [f">= {lo}" if lo is not None else "", f"<= {hi}" if hi is not None else ""]
    allowed = " and ".join(b for b in bounds if b)
    allowed = f"a finite number {allowed}".rstrip()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(field_name, value, allowed, error)
    try:
        x = float(value)
    except OverflowError:
        raise fail(field_name, value, allowed, error) from None
    if not math.isfinite(x) or (lo is not None and x < lo) or (hi is not None and x > hi):
        raise fail(field_name, value, allowed, error)
    return x


def check_items(
    field_name: str,
    value: Any,
    *,
    what: str = "values",
    error: type[ExplodiceError] = ExplodiceError,
) -> list[Any]:
    """``value`` (an iterable other than a string) as a non-empty list, or the error.

    A non-iterable raises :class:`ExplodiceTypeError`; an empty one ``error``.

    >>> check_items("modifiers", range(2))
    [0, 1]
    >>> check_items("modifiers", 5)
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceTypeError: `modifiers` must be a list of values, but 5 was passed.
    """
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise fail(field_name, value, f"a list of {what}", ExplodiceTypeError)
    items = list(value)
    if not items:
        raise fail(field_name, value, f"a list of at least one of the {what}", error)
    return items


def check_mapping(
    field_name: str, value: Any, *, what: str = "NAME: value items"
) -> dict[Any, Any]:
    """``value`` (a mapping) as a non-empty dict; anything else is refused.

    >>> check_mapping("profiles", {"trained": 4})
    {'trained': 4}
    """
    if not isinstance(value, Mapping):
        raise fail(field_name, value, f"a mapping of {what}", ExplodiceTypeError)
    if not value:
        raise fail(field_name, value, f"a mapping of at least one of the {what}", ExplodiceError)
    return dict(value)


def clip(text: Any, limit: int = MAX_SHOWN) -> str:
    """``str(text)`` cut to ``limit`` characters (a key or a name echoed in a message).

    >>> clip("k" * 100, 10)
    'k...(100 chars)'
    """
    text = str(text)
    if len(text) > limit:
        return f"{text[: max(1, limit - 20)]}...({len(text)} chars)"
    return text


def listed(names: Any, limit: int = 12) -> str:
    """Names a message offers as the allowed ones: each cut by :func:`clip`, at most ``limit``.

    >>> listed(["Bo", "x" * 100])
    "['Bo', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...(100 chars)']"
    >>> listed(range(20), limit=3)
    "['0', '1', '2', ... (20 in all)]"
    """
    names = [clip(n) for n in names]
    more = f", ... ({len(names)} in all)" if len(names) > limit else ""
    return "[" + ", ".join(repr(n) for n in names[:limit]) + more + "]"


MAX_LINE = 2000  # characters of a one-line error message at most


def one_line(err: BaseException) -> str:
    r"""An error as one line: its type and its message with the white space folded, and cut
    at :data:`MAX_LINE` characters.

    >>> one_line(RulesError("`dc` must be\n an integer"))
    'RulesError: `dc` must be an integer'
    """
    return clip(f"{type(err).__name__}: {' '.join(str(err).split())}".rstrip(": "), MAX_LINE)
