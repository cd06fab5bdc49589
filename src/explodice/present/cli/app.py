"""The ``explodice`` program: :func:`build_parser` assembles the parser from
:data:`~explodice.present.cli.commands.COMMANDS`, and :func:`main` runs a command line, turning
bad input into one line and exit status 2, Ctrl-C into status 130."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from explodice.core.errors import MAX_LINE, ExplodiceError, clip
from explodice.core.version import __version__
from explodice.core.words import N_, Phrase
from explodice.present.cli.base import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    LANG,
    Parser,
    refuse_repeats,
    written_lang,
)
from explodice.present.cli.commands import COMMANDS
from explodice.present.i18n import Lang, say, translator

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``explodice`` argument parser: one subcommand per entry of ``COMMANDS``, each with
    its shared option groups (a fresh copy each), then its own options."""
    parser = Parser(
        prog="explodice",
        description="Probabilities of exploding 3d6 (3d6x) with the rule of 1, against the d20.",
    )
    parser.add_argument("--version", action="version", version=f"explodice {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    for command in COMMANDS:
        p = sub.add_parser(
            command.name,
            # typeshed wants parents of the subparsers' class (Parser); argparse copies any
            # parser's arguments, and the shared groups are plain ArgumentParsers
            parents=[make() for make in command.shared],  # type: ignore[misc]
            help=command.help,
            description=command.description,
        )
        command.add_arguments(p)
        # the parser (its defaults: options.given) and the files the command would write
        p.set_defaults(
            func=command.run, command_parser=p, writes=command.writes, repeats=command.repeats
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 for bad input or an output that
    cannot be written, 130 on Ctrl-C)."""
    parser = build_parser()
    lang = written_lang(sys.argv[1:] if argv is None else argv)
    token = LANG.set(lang)
    try:
        return _run(parser, argv, lang)
    finally:
        LANG.reset(token)


def _run(parser: argparse.ArgumentParser, argv: Sequence[str] | None, lang: Lang) -> int:
    try:
        args = parser.parse_args(argv)
        refuse_repeats(args.command_parser, args)
        if sys.stdout is None:  # `explodice ... >&-`: whatever it computed would be lost
            raise ExplodiceError(
                Phrase(
                    N_(
                        "the standard output is closed (>&-): nothing could be shown; nothing "
                        "was done."
                    )
                )
            )
        for output in args.writes(args):  # every file it writes, checked before any work
            output.check()
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a broken pipe or a full disk fails here, not silently at exit
        return status
    except KeyboardInterrupt:
        return _interrupted(lang)
    except BrokenPipeError:  # `explodice table | head -1`: the rest of the output is lost
        _drop_stdout()
        return _refused(
            Phrase(
                N_(
                    "the standard output was closed before all was written (broken pipe): "
                    "the output is incomplete."
                )
            ),
            lang,
        )
    except (ExplodiceError, OSError) as err:  # bad input, or a file the system refuses
        return _refused(err, lang)
    except SystemError as err:
        # Ctrl-C landing inside numba's dispatcher surfaces as a SystemError chained to it.
        if not _caused_by_interrupt(err):
            raise
        return _interrupted(lang)


#: The system's reasons for refusing a file (``strerror``), so that the catalogue says them.
SYSTEM_REASONS = (
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("File exists"),
    N_("No space left on device"),
    N_("Read-only file system"),
    N_("File name too long"),
    N_("Disk quota exceeded"),
)


def _refused(err: BaseException | Phrase, lang: Lang) -> int:
    """Write the one line of a refusal in ``lang`` ("explodice: error: ..."): an error's
    phrase said, a system error as its file and its reason; the status 2."""
    if isinstance(err, Phrase):
        text = say(err, lang)
    elif isinstance(err, ExplodiceError) and err.phrase is not None:
        text = say(err.phrase, lang)
    elif isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename is not None else ""
        text = where + translator(lang)(err.strerror)
    else:
        text = str(err) or type(err).__name__
    line = clip(" ".join(text.split()), MAX_LINE)
    sys.stderr.write(say(Phrase(N_("explodice: error: {message}"), message=line), lang) + "\n")
    return EXIT_USAGE


def _interrupted(lang: Lang) -> int:
    sys.stderr.write(say(Phrase(N_("explodice: interrupted")), lang) + "\n")
    return EXIT_INTERRUPTED


def _drop_stdout() -> None:
    """Point the standard output at /dev/null, so that Python's last flush at exit does not
    fail again on the broken pipe (the recipe of Python's documentation, "SIGPIPE")."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _caused_by_interrupt(err: BaseException | None) -> bool:
    seen = 0
    while err is not None and seen < 20:
        if isinstance(err, KeyboardInterrupt):
            return True
        err, seen = err.__cause__ or err.__context__, seen + 1
    return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
