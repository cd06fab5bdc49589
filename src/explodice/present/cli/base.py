"""What a command of the command line is: a :class:`Command` (its name, help, the shared
option groups it takes, its own options and the function that runs it), and the parser whose
errors are one line.

A command's module (``present/cli/<name>.py``) defines ``COMMAND = Command(...)``;
:data:`explodice.present.cli.commands.COMMANDS` lists them in the order of ``explodice --help``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any

from explodice.core.errors import ExplodiceError, check_unique
from explodice.core.files import check_writable
from explodice.core.words import N_, Phrase
from explodice.present.i18n import LANGS, Lang, say, translator

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "LANG",
    "Command",
    "Output",
    "Parser",
    "refuse_repeats",
    "type_error",
    "written_lang",
]

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


#: The language of the command line's messages (its ``--lang``), while a command line runs.
LANG: ContextVar[Lang] = ContextVar("explodice_cli_lang", default="en")

#: argparse's own messages (CPython 3.11-3.13), so that the catalogue says them in French; a
#: message of argparse is matched against them and said with the catalogue's template.
ARGPARSE_MESSAGES = (
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)
_HOLE = re.compile(r"%\((\w+)\)[sr]|%[sr]")
#: The messages of the type functions' refusals (``argparse.ArgumentTypeError``), by their
#: English text: argparse keeps only the text; :func:`type_error` notes the phrase.
_TYPE_PHRASES: dict[str, Phrase] = {}


def type_error(phrase: Phrase | str) -> argparse.ArgumentTypeError:
    """The refusal of an option's value by its type function, said in the command line's
    language when argparse reports it.

    >>> str(type_error(Phrase("expected {what}", what="an integer")))
    'expected an integer'
    """
    if not isinstance(phrase, Phrase):  # a message of no phrase (message_of's text)
        return argparse.ArgumentTypeError(phrase)
    _TYPE_PHRASES[str(phrase)] = phrase
    err = argparse.ArgumentTypeError(str(phrase))
    # a phrase that says the refusal again (`--targets moderate: {err}`) says it in French too
    err.phrase = phrase  # type: ignore[attr-defined]
    return err


def written_lang(argv: Sequence[str]) -> Lang:
    """The language a command line asks for (``--lang fr`` or ``--lang=fr``), read before it
    is parsed, so that an error of parsing is said in it; ``en`` when none (or a wrong one).

    >>> written_lang(["odds", "--lang", "fr", "--dc", "x"]), written_lang(["--lang=de"])
    ('fr', 'en')
    """
    argv = list(argv)
    for i, token in enumerate(argv):
        if token == "--":
            break
        value = argv[i + 1] if token == "--lang" and i + 1 < len(argv) else None
        if token.startswith("--lang="):
            value = token.split("=", 1)[1]
        if value in LANGS:
            return value
    return "en"


def _fill(holes: dict[str, str], hole: re.Match[str]) -> str:
    return holes.get(hole.group(1) or "_", hole.group(0))


def said(message: str | Phrase, lang: Lang) -> str:
    """A message for the command line in ``lang``: a phrase said; one of argparse's (or a
    type function's) found and said with the catalogue's template; any other as it is."""
    if isinstance(message, Phrase) or lang == "en":
        return say(message, lang)
    if message in _TYPE_PHRASES:
        return say(_TYPE_PHRASES[message], lang)
    _ = translator(lang)
    for template in ARGPARSE_MESSAGES:
        names = _HOLE.findall(template)
        pattern = "(.+?)".join(re.escape(piece) for piece in _HOLE.split(template)[::2])
        found = re.fullmatch(pattern, message, flags=re.DOTALL)
        if not found:
            continue
        values = iter(found.groups())
        holes = {(n or "_"): next(values) for n in names}
        if "message" in holes:
            holes["message"] = said(holes["message"], lang)
        return _HOLE.sub(partial(_fill, holes), _(template))
    return message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit 2, as argparse does), and that
    reads an option only written whole: ``--mod`` is refused, never taken for ``--modifier``
    (nor ``--n`` called ambiguous with ``--no-ones-on-explosions``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str | Phrase) -> Any:  # noqa: D102
        lang = LANG.get()
        frame = Phrase(
            N_("{prog}: error: {message} (see {prog} --help)"),
            prog=self.prog,
            message=said(message, lang).removesuffix("."),
        )
        self.exit(EXIT_USAGE, say(frame, lang) + "\n")

    def parse_args(  # type: ignore[override]  # noqa: D102 - argparse's
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> argparse.Namespace:
        ns, extras = self.parse_known_args(args, namespace)
        if extras:  # `odds 4 16`: the command's own --help says what it takes
            owner = getattr(ns, "command_parser", None) or self
            owner.error(
                Phrase(N_("unrecognized arguments: {arguments}"), arguments=" ".join(extras))
            )
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
                    twice = (
                        Phrase(
                            N_("`{flag}` given twice: the second would replace the first"),
                            flag=flag,
                        )
                        if first == flag
                        else Phrase(
                            N_(
                                "`{first}` and `{flag}` both set `{dest}`: the second would "
                                "replace the first"
                            ),
                            first=first,
                            flag=flag,
                            dest=action.dest,
                        )
                    )
                    self.error(
                        Phrase(N_("{twice}; give it once, followed by all its values"), twice=twice)
                        if several
                        else twice
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


def refuse_repeats(parser: Parser, args: argparse.Namespace) -> None:
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
            parser.error(err.phrase or str(err))
