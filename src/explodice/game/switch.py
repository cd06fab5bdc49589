"""A rules switch, declared once: on its own field of :class:`~explodice.Rules`.

A switch is a field of ``Rules`` whose type says its values (a ``Literal`` alias, ``bool``, a
``frozenset`` of a ``Literal``, ``int``, or a ``Literal`` or ``int``) and whose default is
written with :func:`switch`, which declares everything else about it in one place:

- where it is read: ``scope`` (the kinds of roll and resolutions whose numbers it moves:
  ``"roll"`` every 3d6x roll's law, so every analysis and the day; ``"day"`` the day's gauges
  only; ``"hiding"``, ``"haggle"`` one resolution; ``"attack"`` attacks alone) and ``read_by``
  (the modules, under ``src/explodice/``, where its meaning is coded: its engines);
- its words: ``help`` (its command-line option's help), ``label`` (its name in a footer: the
  TOML key in English), ``words`` (a value in a footer), ``number`` (how an integer value is
  said, if not as itself), the designer's ``question`` it answers and its ``answers`` (one per
  value, as the title page and the explorer say them), all English and marked with
  :func:`~explodice.core.words.N_` so the French catalogue holds their French;
- how a caption names it (``shown``: ``"always"``, ``"when_on"`` or ``"off_default"``, with
  ``footer``, a format of ``{name}`` and ``{value}``);
- for an integer switch, its ``range`` and the values the readings table tries
  (``readings``);
- why the default is the default (``why``, for docs/rules.md's table of switches, which
  ``scripts/switches_table.py`` writes from these declarations).

:func:`read_switches` reads them back, with the values and the default, as :class:`Switch`
records: the command line's options, the TOML keys, the captions, the readings table and
the docs are derived from them (``explodice.game.rules.switches()``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy:
...     loud: bool = switch(False, help="shout", label="loud", question="is it loud",
...                         why="quiet by default", read_by=("game/switch.py",))
>>> (sw,) = read_switches(Toy)
>>> sw.name, sw.kind, sw.values, sw.default, sw.flag, sw.scope
('loud', 'flag', (False, True), False, '--loud', 'roll')
"""

from __future__ import annotations

import dataclasses
import string
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

from explodice.core.words import Phrase

__all__ = [
    "DECLARATION",
    "KINDS",
    "SCOPES",
    "SHOWN",
    "Declaration",
    "Kind",
    "Scope",
    "Shown",
    "Switch",
    "fill",
    "read_switches",
    "switch",
]

#: Where a switch is read (see the module's docstring).
Scope = Literal["roll", "day", "hiding", "haggle", "attack"]
SCOPES: tuple[Scope, ...] = get_args(Scope)
#: When a caption (``Rules.describe()``, the footers) names a switch: always, only when it is
#: on (a flag), or only when it is off its default (the seeds' open readings, combat's).
Shown = Literal["always", "when_on", "off_default"]
SHOWN: tuple[Shown, ...] = get_args(Shown)
#: What a switch's type makes of it (see :class:`Switch`).
Kind = Literal["choice", "flag", "set", "integer", "choice_or_integer"]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: The key of a field's ``metadata`` that holds its :class:`Declaration`.
DECLARATION = "explodice.switch"


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """What :func:`switch` declares about one switch (see the module's docstring)."""

    help: str
    label: str
    question: str
    why: str
    scope: Scope = "roll"
    read_by: tuple[str, ...] = ()
    answers: Mapping[Any, str] = field(default_factory=dict, compare=False)
    words: Mapping[Any, str] = field(default_factory=dict, compare=False)
    number: str | None = None
    readings: tuple[int, ...] = ()
    range: tuple[int, int] | None = None
    shown: Shown = "off_default"
    footer: str = "{name}={value}"
    flag: str | None = None

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ValueError(f"switch: `scope` must be one of {SCOPES}, not {self.scope!r}")
        if self.shown not in SHOWN:
            raise ValueError(f"switch: `shown` must be one of {SHOWN}, not {self.shown!r}")
        object.__setattr__(self, "answers", MappingProxyType(dict(self.answers)))
        object.__setattr__(self, "words", MappingProxyType(dict(self.words)))
        object.__setattr__(self, "read_by", tuple(self.read_by))
        object.__setattr__(self, "readings", tuple(self.readings))


def switch(
    default: Any,
    *,
    help: str,
    label: str,
    question: str,
    why: str,
    scope: Scope = "roll",
    read_by: tuple[str, ...] = (),
    answers: Mapping[Any, str] | None = None,
    words: Mapping[Any, str] | None = None,
    number: str | None = None,
    readings: tuple[int, ...] = (),
    range: tuple[int, int] | None = None,
    shown: Shown = "off_default",
    footer: str = "{name}={value}",
    flag: str | None = None,
) -> Any:
    """The default of a switch's field, with its declaration (a :class:`Declaration` in the
    field's ``metadata``): write ``name: Type = switch(default, help=..., ...)`` in ``Rules``.
    """
    declared = Declaration(
        help=help,
        label=label,
        question=question,
        why=why,
        scope=scope,
        read_by=read_by,
        answers=answers or {},
        words=words or {},
        number=number,
        readings=readings,
        range=range,
        shown=shown,
        footer=footer,
        flag=flag,
    )
    return field(default=default, metadata={DECLARATION: declared})


@dataclass(frozen=True, kw_only=True)
class Switch(Declaration):
    """One switch: its field's ``name``, what its annotation makes of it, and its declaration.

    ``kind`` is ``"choice"`` (a ``Literal`` alias: ``values`` are its allowed strings),
    ``"flag"`` (a bool: ``values`` is ``(False, True)``), ``"set"`` (a frozenset of a
    ``Literal``: ``values`` are the members it may hold), ``"integer"`` (an int in
    ``lo..hi``: ``values`` are those the readings table tries, ``readings``) or
    ``"choice_or_integer"`` (a ``Literal`` or an int in ``lo..hi``: ``values`` are its strings
    then the integers the readings table tries); ``default`` is the default value.
    """

    name: str
    kind: Kind
    values: tuple[Any, ...]
    default: Any

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.flag is None:
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))

    @property
    def lo(self) -> int | None:
        """The smallest integer it takes (an integer switch), else ``None``."""
        return None if self.range is None else self.range[0]

    @property
    def hi(self) -> int | None:
        """The largest integer it takes (an integer switch), else ``None``."""
        return None if self.range is None else self.range[1]

    @property
    def choices(self) -> tuple[str, ...]:
        """The strings it takes (none for an ``"integer"`` switch)."""
        return tuple(v for v in self.values if isinstance(v, str))

    def allowed(self) -> Phrase:
        """What it takes, in words: ``'none', 'two_sixes', 'three_sixes' or an integer 1..20``."""
        if self.kind == "integer":
            return Phrase("an integer {lo}..{hi}", lo=self.lo, hi=self.hi)
        words = ", ".join(repr(c) for c in self.choices)
        return Phrase("{words} or an integer {lo}..{hi}", words=words, lo=self.lo, hi=self.hi)

    def named(self, value: Any) -> bool:
        """True when a caption names the switch at ``value`` (see ``shown``)."""
        if self.shown == "always":
            return True
        if self.shown == "when_on":
            return bool(value)
        return bool(value != self.default)

    def text(self, value: Any) -> str:
        """A value as the rules write it (``Rules.describe()``, a caption): a set of kinds in
        its type's order (``check,save``, ``none`` when empty), anything else as ``str``."""
        if isinstance(value, (set, frozenset)):
            return ",".join(v for v in self.values if v in value) or "none"
        return str(value)


def fill(text: str, value: Any) -> str:
    """``text`` (a format with one field, whatever its name) with ``value`` in that field.

    >>> fill("margin {margin}", 7)
    'margin 7'
    """
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return text.format(**dict.fromkeys(names, value))


def read_switches(cls: type) -> tuple[Switch, ...]:
    """Every field of the dataclass ``cls`` as a :class:`Switch`, in field order: its values
    and default read from its annotation and default, the rest from its declaration
    (:func:`switch`). A field without a declaration is an error: every switch is declared."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        declared = f.metadata.get(DECLARATION)
        if not isinstance(declared, Declaration):
            raise TypeError(f"{cls.__name__}.{f.name}: declare it with switch(default, ...)")
        hint = hints[f.name]
        kind: Kind
        if typing.get_origin(hint) is Literal:
            kind, values = "choice", get_args(hint)
        elif hint is bool:
            kind, values = "flag", (False, True)
        elif typing.get_origin(hint) is frozenset:
            (member,) = get_args(hint)
            kind, values = "set", get_args(member)
        elif hint is int or int in get_args(hint):
            if declared.range is None:
                raise TypeError(f"{cls.__name__}.{f.name}: an integer switch needs a `range`")
            words = tuple(v for a in get_args(hint) if a is not int for v in get_args(a))
            kind = "choice_or_integer" if words else "integer"
            values = (*words, *declared.readings)
        else:
            raise TypeError(f"{cls.__name__}.{f.name}: switches do not know the type {hint!r}")
        facts = {d.name: getattr(declared, d.name) for d in dataclasses.fields(Declaration)}
        out.append(Switch(name=f.name, kind=kind, values=values, default=f.default, **facts))
    return tuple(out)
