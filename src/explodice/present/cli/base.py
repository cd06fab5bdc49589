"""What a command of the command line is: a :class:`Command` (its name, help, the shared
option groups it takes, its own options and the function that runs it), and the parser whose
errors are one line.

A command's module (``present/cli/<name>.py``) defines ``COMMAND = Command(...)``;
:data:`explodice.present.cli.commands.COMMANDS` lists them in the order of ``explodice --help``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from explodice.core.errors import ExplodiceError, check_unique
from explodice.core.files import check_writable

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "Command", "Output", "Parser", "refuse_repeats"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


#: The actions that gather what each occurrence gives (``-v -v``), so may be written twice.
_GATHERING = (
    argparse._AppendAction,
    argparse._AppendConstAction,
    argparse._CountAction,
    argparse._HelpAction,
    argparse._VersionAction,
)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit 2, as argparse does), and that
    reads an option only written whole: ``--mod`` is refused, never taken for ``--modifier``
    (nor ``--n`` called ambiguous with ``--no-ones-on-explosions``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:  # noqa: D102 - argparse's hook
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]  # noqa: D102 - argparse's
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> argparse.Namespace:
        ns, extras = self.parse_known_args(args, namespace)
        if extras:  # `odds 4 16`: the command's own --help says what it takes
            owner = getattr(ns, "command_parser", None) or self
            owner.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns

    def parse_known_args(  # type: ignore[override]  # noqa: D102 - argparse's, and `explicit`
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # the options written on the command line, by their dest, in ``namespace.explicit``:
        # ``--policy keep`` is given even though keep is its default (see options.given)
        ns, rest = super().parse_known_args(args, namespace)
        seen = set(getattr(ns, "explicit", ()))
        written: dict[argparse.Action, str] = {}
        for token in sys.argv[1:] if args is None else args:
            if token == "--":
                break
            flag = token.split("=", 1)[0]
            action = self._option_string_actions.get(flag)
            if action is None and token[:1] == "-" and token[1:2] != "-" and len(token) > 2:
                flag = token[:2]  # a short option glued to its value: -m3
                action = self._option_string_actions.get(flag)
            if token.startswith("-") and action is not None:
                seen.add(action.dest)
                if action in written and not isinstance(action, _GATHERING):
                    # `--dc 16 --dc 12`: argparse keeps the last and drops the first
                    first, several = written[action], action.nargs in ("+", "*")
                    self.error(
                        (
                            f"`{flag}` given twice: the second would replace the first"
                            if first == flag
                            else f"`{first}` and `{flag}` both set `{action.dest}`: the second "
                            "would replace the first"
                        )
                        + ("; give it once, followed by all its values" if several else "")
                    )
                written[action] = flag
        ns.explicit = frozenset(seen)
        return ns, rest


def _no_options(parser: argparse.ArgumentParser) -> None:
    """A command without options of its own."""


@dataclass(frozen=True)
class Output:
    """A file (or, with ``folder``, a folder) that a command writes, named by ``flag``:
    checked by :meth:`check` before the command runs, so that bad output is refused before
    any work and never written over what it must not replace (see
    :func:`explodice.core.files.check_writable`): one of ``inputs`` (the files the command
    reads), a FIFO or a device, an existing file unless ``replace``. A folder's ``owned``
    sub-paths are those its writer replaces or removes: no input may lie there."""

    path: Any
    flag: str
    inputs: tuple[Any, ...] = ()
    replace: bool = True
    folder: bool = False
    owned: tuple[str, ...] = ()

    def check(self) -> None:
        check_writable(
            self.path,
            error=ExplodiceError,
            what=self.flag,
            inputs=self.inputs,
            replace=self.replace,
            folder=self.folder,
            owned=self.owned,
        )


def _no_outputs(args: argparse.Namespace) -> Sequence[Output]:
    """A command that writes no file (it prints)."""
    return ()


@dataclass(frozen=True)
class Command:
    """One subcommand of ``explodice``.

    - ``name``, ``help`` (its line in ``explodice --help``), ``description`` (its ``--help``);
    - ``run(args) -> exit status``: the command itself;
    - ``shared``: the shared option groups it takes, as factories from
      :mod:`explodice.present.cli.options` (``roll_options``, ``rules_options``,
      ``sampling_options``, ``output_options``), in the order its ``--help`` shows them;
    - ``add_arguments(parser)``: its own options, added after the shared ones;
    - ``writes(args)``: the files it would write (:class:`Output`), checked before it runs;
    - ``repeats``: its options of several values where a value may come twice (two observers
      with the same passive Perception); in every other a value given twice is refused
      (:func:`refuse_repeats`), never counted twice.
    """

    name: str
    help: str
    description: str
    run: Callable[[argparse.Namespace], int]
    shared: tuple[Callable[[], argparse.ArgumentParser], ...] = ()
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_options
    writes: Callable[[argparse.Namespace], Sequence[Output]] = _no_outputs
    repeats: tuple[str, ...] = ()


def refuse_repeats(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, in ``parser``'s one line, a value given twice to an option of several values
    (``odds --dc 16 16``, ``table --modifiers 0 0``) unless the command lists it in
    ``repeats``; values compared as read (``16`` and ``1_6`` are one DC). Options whose
    values name the same thing in other words (``--saves STR FOR``) check that themselves."""
    allowed = getattr(args, "repeats", ())
    for action in parser._actions:
        if action.nargs not in ("+", "*") or not action.option_strings:
            continue
        flag = max(action.option_strings, key=len)
        values = getattr(args, action.dest, None)
        if flag in allowed or not isinstance(values, list):
            continue
        if any(isinstance(v, list) for v in values):  # level ranges: the command checks them
            continue
        try:
            check_unique(flag, values)
        except ExplodiceError as err:
            parser.error(str(err).removesuffix("."))
