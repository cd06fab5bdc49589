"""The package's errors and the checks that raise them.

Every bad value raises an :class:`ExplodiceError` (a ``ValueError``) whose message names the
field, shows the value (shortened when long) and says what is allowed.

The classes, and what ``except`` catches what::

    ValueError
     └─ ExplodiceError                 every refusal of the package (``except ExplodiceError``)
         ├─ ExplodiceTypeError         a value of the wrong type (also a ``TypeError``)
         ├─ RulesError                 a rules switch, a roll or a policy: a wrong value
         │   └─ RulesTypeError         ... of the wrong type (also an ExplodiceTypeError)
         ├─ CharacterError             (game.character), CharacterTypeError beneath it
         ├─ ScenarioError              (day.scenario), ScenarioTypeError beneath it
         ├─ SweepError                 (sweeps.tasks), SweepTypeError beneath it
         └─ CharacterFileError, ScenarioFileError, SweepFileError, ...: a file that is
            malformed (its path has the right type: a wrong value inside is the file's fault)

A domain's type error is both its domain's class and :class:`ExplodiceTypeError`, so
``except RulesError`` still catches every refusal of a roll, and ``except ExplodiceTypeError``
(or ``except TypeError``) every wrong type, whichever domain refused it. A domain declares its
type sibling with ``class RulesTypeError(RulesError, ExplodiceTypeError)``: the definition
registers it (:func:`type_error_of` finds it), and every check here raises it for a wrong
type when it is given the domain's class. The rule of the checks: **the type first** (a string
where an integer goes, ``None``, an array, ``16.0`` where an integer goes: the type error),
**then the value** (an integer out of range, a name not among the choices: the value error).

>>> check_int("level", 3, lo=1, hi=20)
3
>>> check_int("level", 0, lo=1, hi=20)
Traceback (most recent call last):
...
explodice.core.errors.RulesError: `level` must be an integer in 1..20, but 0 was passed.
>>> check_int("level", "3", lo=1, hi=20)
Traceback (most recent call last):
...
explodice.core.errors.RulesTypeError: `level` must be an integer in 1..20, but '3' was passed.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, overload

from explodice.core.words import N_, Phrase

__all__ = [
    "ExplodiceError",
    "ExplodiceTypeError",
    "RulesError",
    "RulesTypeError",
    "check_choice",
    "check_flag",
    "check_int",
    "check_items",
    "check_mapping",
    "check_real",
    "check_text",
    "check_unique",
    "clip",
    "fail",
    "listed",
    "message_of",
    "one_line",
    "one_of",
    "Phrase",
    "reason",
    "recast",
    "shown",
    "type_error_of",
]

MAX_SHOWN = 80  # characters of a bad value echoed in a message

#: A value-error class -> the class that is both it and ExplodiceTypeError (its "type sibling").
_TYPE_SIBLINGS: dict[type, type] = {}


class ExplodiceError(ValueError):
    """Base class of every error explodice raises for bad input.

    ``field`` names the parameter or key at fault when one does.
    """

    field: str | None = None
    #: The message as a :class:`~explodice.core.words.Phrase`, when it was given as one: the
    #: command line says it in the user's language (``str(err)`` is the English sentence).
    phrase: Phrase | None = None

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], Phrase):
            self.phrase = args[0]
            args = (str(args[0]),)
        super().__init__(*args)

    def __reduce__(self) -> tuple[Any, ...]:  # a copy keeps its phrase (a helper process's)
        return (type(self), (self.phrase or (self.args[0] if self.args else ""),), self.__dict__)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # `class XTypeError(XError, ExplodiceTypeError)` is XError's type sibling
        first = cls.__bases__[0]
        if (
            issubclass(cls, TypeError)
            and issubclass(first, ExplodiceError)
            and not issubclass(first, TypeError)
        ):
            _TYPE_SIBLINGS.setdefault(first, cls)


class ExplodiceTypeError(ExplodiceError, TypeError):
    """A value of the wrong type: catch it as the package's error or as a ``TypeError``."""


class RulesError(ExplodiceError):
    """A rules switch, a roll or a policy was given a value the rules do not allow."""


class RulesTypeError(RulesError, ExplodiceTypeError):
    """A rules switch, a roll or a policy was given a value of the wrong type."""


def type_error_of(error: type[ExplodiceError]) -> type[ExplodiceError]:
    """The class to raise for a wrong type where ``error`` is raised for a wrong value: its
    registered type sibling (or its nearest ancestor's), ``error`` itself when it is a type
    error already.

    >>> type_error_of(RulesError).__name__, type_error_of(ExplodiceError).__name__
    ('RulesTypeError', 'ExplodiceTypeError')
    """
    if issubclass(error, TypeError):
        return error
    for klass in error.__mro__:
        if klass in _TYPE_SIBLINGS:
            return _TYPE_SIBLINGS[klass]
    return ExplodiceTypeError


def recast(
    err: ExplodiceError,
    error: type[ExplodiceError],
    message: str | Phrase | None = None,
    field_name: str | None = None,
) -> ExplodiceError:
    """``err`` as an ``error`` of another domain (a character's check refused by the rules'
    check, say), keeping whether it was a wrong type: the domain's type sibling if it was.

    >>> try:
    ...     check_int("dc", "16")
    ... except RulesError as err:
    ...     type(recast(err, ExplodiceError)).__name__
    'ExplodiceTypeError'
    """
    klass = type_error_of(error) if isinstance(err, TypeError) else error
    out = klass((err.phrase or str(err)) if message is None else message)
    out.field = err.field if field_name is None else field_name
    return out


def message_of(err: BaseException) -> Phrase | str:
    """What ``err`` says, to say again: its phrase when it has one (so that it is still said
    in the user's language), else its text.

    >>> str(message_of(RulesError(Phrase("`{f}` is wrong", f="dc"))))
    '`dc` is wrong'
    """
    phrase = getattr(err, "phrase", None)
    return phrase if isinstance(phrase, Phrase) else str(err)


def reason(err: OSError) -> Phrase | str:
    """Why the system refused a file (``err.strerror``: "Permission denied"), to be said in
    the user's language where the catalogue has it; its text when it has no reason.

    >>> str(reason(PermissionError(13, "Permission denied")))
    'Permission denied'
    """
    return Phrase(err.strerror) if err.strerror else str(err)


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
    field_name: str,
    value: Any,
    allowed: str | Phrase,
    error: type[ExplodiceError] = RulesError,
    *,
    wrong_type: bool = False,
) -> ExplodiceError:
    """The error to raise: "`field` must be <allowed>, but <value> was passed." (the field's
    name, which may hold a user's key, and the value both shortened when long); with
    ``wrong_type``, ``error``'s type sibling (:func:`type_error_of`)."""
    klass = type_error_of(error) if wrong_type else error
    err = klass(
        Phrase(
            N_("`{field}` must be {allowed}, but {value} was passed."),
            field=clip(field_name),
            allowed=allowed,
            value=shown(value),
        )
    )
    err.field = field_name
    return err


_Choice = TypeVar("_Choice", bound=str)


def check_choice(
    field_name: str,
    value: Any,
    choices: tuple[_Choice, ...],
    error: type[ExplodiceError] = RulesError,
) -> _Choice:
    """``value`` when it is one of ``choices``; a non-string (``None``, an array, bytes, a
    number) is a wrong type, a string not among them a wrong value.

    The choices are typically a ``Literal`` alias's values (``get_args(Advantage)``, typed
    ``tuple[Advantage, ...]``), and the answer has the alias's type: the choice itself.

    >>> check_choice("advantage", "normal", ("normal", "advantage"))
    'normal'
    >>> import numpy as np
    >>> check_choice("advantage", np.array([1, 2]), ("normal", "advantage"))
    Traceback (most recent call last):
    ...
    explodice.core.errors.RulesTypeError: `advantage` must be one of ['normal', 'advantage'], but array([1, 2]) was passed.
    """
    # the message is written only for a refusal: a Roll checks its choices on every creation
    if not isinstance(value, str):  # first: an array compared with `in` is ambiguous
        raise fail(field_name, value, one_of(choices), error, wrong_type=True)
    if value not in choices:
        raise fail(field_name, value, one_of(choices), error)
    return choices[choices.index(value)]


@overload
def check_flag(
    field_name: str,
    value: Any,
    *,
    none: Literal[False] = False,
    error: type[ExplodiceError] = ExplodiceError,
) -> bool: ...
@overload
def check_flag(
    field_name: str,
    value: Any,
    *,
    none: bool,
    error: type[ExplodiceError] = ExplodiceError,
) -> bool | None: ...
def check_flag(
    field_name: str,
    value: Any,
    *,
    none: bool = False,
    error: type[ExplodiceError] = ExplodiceError,
) -> bool | None:
    """``value`` when it is ``True`` or ``False`` (or ``None`` where ``none`` allows it);
    anything else (``"yes"``, ``1``, an array) is a wrong type.

    >>> check_flag("progress", None, none=True) is None
    True
    >>> check_flag("progress", "yes", none=True)
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceTypeError: `progress` must be True, False or None, but 'yes' was passed.
    """
    if value is None and none:
        return None
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_" and type(value).__module__ == "numpy":
        return bool(value)
    allowed = Phrase(N_("True, False or None") if none else N_("True or False"))
    raise fail(field_name, value, allowed, error, wrong_type=True)


def check_text(
    field_name: str,
    value: Any,
    *,
    what: str | Phrase = Phrase(N_("a non-empty string")),
    none: bool = False,
    error: type[ExplodiceError] = ExplodiceError,
) -> str | None:
    """``value`` when it is a string with something in it (or ``None`` where ``none``
    allows it): a non-string is a wrong type, a blank string a wrong value.

    >>> check_text("label", "Ana: Stealth")
    'Ana: Stealth'
    """
    if value is None and none:
        return None
    allowed = Phrase(N_("{what} or None"), what=what) if none else what
    if not isinstance(value, str):
        raise fail(field_name, value, allowed, error, wrong_type=True)
    if not value.strip():
        raise fail(field_name, value, allowed, error)
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

    Booleans, floats (``16.0`` too), strings and arrays are a wrong type (``error``'s type
    sibling); ``lo``/``hi`` are inclusive bounds, and an integer beyond them a wrong value.
    """
    # a plain int within bounds first: a Character checks its scores on every modifier read
    # (hundreds of thousands of calls a report), and the message is written only for a refusal
    if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise fail(field_name, value, _integer_in(lo, hi), error, wrong_type=True)
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise fail(field_name, value, _integer_in(lo, hi), error)
    return value


def _integer_in(lo: int | None, hi: int | None) -> Phrase:
    """What :func:`check_int` allows, in words."""
    if lo is None and hi is None:
        return Phrase(N_("an integer"))
    if hi is None:
        return Phrase(N_("an integer >= {lo}"), lo=lo)
    if lo is None:
        return Phrase(N_("an integer <= {hi}"), hi=hi)
    return Phrase(N_("an integer in {lo}..{hi}"), lo=lo, hi=hi)


def check_real(
    field_name: str,
    value: Any,
    *,
    lo: float | None = None,
    hi: float | None = None,
    error: type[ExplodiceError] = RulesError,
) -> float:
    """Return ``value`` as a finite ``float`` in ``lo..hi``, or raise ``error``: a
    non-number (a string, a bool, an array) is a wrong type; NaN, infinity, a number too
    large for a float or out of bounds a wrong value.

    >>> check_real("weight", 0.5, lo=0)
    0.5
    """
    if lo is None and hi is None:
        allowed = Phrase(N_("a finite number"))
    elif hi is None:
        allowed = Phrase(N_("a finite number >= {lo}"), lo=lo)
    elif lo is None:
        allowed = Phrase(N_("a finite number <= {hi}"), hi=hi)
    else:
        allowed = Phrase(N_("a finite number >= {lo} and <= {hi}"), lo=lo, hi=hi)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(field_name, value, allowed, error, wrong_type=True)
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
    what: str | Phrase = Phrase(N_("values")),
    error: type[ExplodiceError] = ExplodiceError,
) -> list[Any]:
    """``value`` (an iterable other than a string or a mapping) as a non-empty list, or the
    error: a non-iterable (or a string, bytes, a dict) is a wrong type, an empty one a wrong
    value.

    >>> check_items("modifiers", range(2))
    [0, 1]
    >>> check_items("modifiers", 5)
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceTypeError: `modifiers` must be a list of values, but 5 was passed.
    """
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise fail(
            field_name, value, Phrase(N_("a list of {what}"), what=what), error, wrong_type=True
        )
    try:
        items = list(value)
    except TypeError:  # a 0-d numpy array has __iter__ but cannot be iterated
        raise fail(
            field_name, value, Phrase(N_("a list of {what}"), what=what), error, wrong_type=True
        ) from None
    if not items:
        raise fail(
            field_name, value, Phrase(N_("a list of at least one of the {what}"), what=what), error
        )
    return items


def check_mapping(
    field_name: str,
    value: Any,
    *,
    what: str | Phrase = Phrase(N_("NAME: value items")),
    error: type[ExplodiceError] = ExplodiceError,
) -> dict[Any, Any]:
    """``value`` (a mapping) as a non-empty dict; anything else is refused.

    >>> check_mapping("profiles", {"trained": 4})
    {'trained': 4}
    """
    if not isinstance(value, Mapping):
        raise fail(
            field_name, value, Phrase(N_("a mapping of {what}"), what=what), error, wrong_type=True
        )
    if not value:
        raise fail(
            field_name,
            value,
            Phrase(N_("a mapping of at least one of the {what}"), what=what),
            error,
        )
    return dict(value)


def check_unique(
    field_name: str,
    items: Any,
    *,
    key: Any = None,
    error: type[ExplodiceError] = ExplodiceError,
) -> list[Any]:
    """``items`` as a list when no two of them are the same (compared by ``key(item)``: the
    thing a name stands for, ``FOR`` and ``STR`` alike), else the error naming the field and
    the value given twice: a duplicate is refused, never counted twice nor silently merged.

    >>> check_unique("--dc", [12, 16])
    [12, 16]
    >>> check_unique("--saves", ["STR", "DEX", "FOR"], key=lambda s: {"FOR": "STR"}.get(s, s))
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceError: `--saves` must give each value once, but 'FOR' is given twice (as 'STR' and 'FOR').
    """
    items = list(items)
    seen: dict[Any, Any] = {}
    for item in items:
        k = item if key is None else key(item)
        if k in seen:
            first = seen[k]
            field, given = clip(field_name), shown(item)
            err = error(
                Phrase(
                    N_("`{field}` must give each value once, but {value} is given twice."),
                    field=field,
                    value=given,
                )
                if first == item
                else Phrase(
                    N_(
                        "`{field}` must give each value once, but {value} is given twice "
                        "(as {first} and {value})."
                    ),
                    field=field,
                    value=given,
                    first=shown(first),
                )
            )
            err.field = field_name
            raise err
        seen[k] = item
    return items


def clip(text: Any, limit: int = MAX_SHOWN) -> str:
    """``str(text)`` cut to ``limit`` characters (a key or a name echoed in a message).

    >>> clip("k" * 100, 10)
    'k...(100 chars)'
    """
    text = str(text)
    if len(text) > limit:
        return f"{text[: max(1, limit - 20)]}...({len(text)} chars)"
    return text


def one_of(choices: Any) -> Phrase:
    """What a check of a choice allows: "one of ['a', 'b']" (the names :func:`listed`).

    >>> str(one_of(("en", "fr")))
    "one of ['en', 'fr']"
    """
    return Phrase(N_("one of {choices}"), choices=listed(choices))


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


def one_line(err: BaseException, *, named: bool = True) -> str:
    r"""An error as one line: its type (unless not ``named``: what a person reads, where the
    class name of the code is noise) and its message with the white space folded, cut at
    :data:`MAX_LINE` characters. A system error without ``named`` is its file and its reason.

    >>> one_line(RulesError("`dc` must be\n an integer"))
    'RulesError: `dc` must be an integer'
    >>> one_line(RulesError("`dc` must be an integer"), named=False)
    '`dc` must be an integer'
    >>> one_line(PermissionError(13, "Permission denied", "out.csv"), named=False)
    'out.csv: Permission denied'
    """
    text = " ".join(str(err).split())
    if not named and isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename is not None else ""
        text = " ".join(f"{where}{err.strerror}".split())
    if named or not text:
        text = f"{type(err).__name__}: {text}".rstrip(": ")
    return clip(text, MAX_LINE)
