"""The ``explodice`` program: :func:`build_parser` assembles the parser from
:data:`~explodice.present.cli.commands.COMMANDS`, and :func:`main` runs a command line, turning
bad input into one line and exit status 2, Ctrl-C into status 130."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from explodice.core.errors import ExplodiceError, one_line
from explodice.core.version import __version__
from explodice.present.cli.base import EXIT_INTERRUPTED, EXIT_USAGE, Parser, refuse_repeats
from explodice.present.cli.commands import COMMANDS

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
    try:
        args = parser.parse_args(argv)
        refuse_repeats(args.command_parser, args)
        if sys.stdout is None:  # `explodice ... >&-`: whatever it computed would be lost
            raise ExplodiceError(
                "the standard output is closed (>&-): nothing could be shown; nothing was done."
            )
        for output in args.writes(args):  # every file it writes, checked before any work
            output.check()
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a broken pipe or a full disk fails here, not silently at exit
        return status
    except KeyboardInterrupt:
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `explodice table | head -1`: the rest of the output is lost
        _drop_stdout()
        sys.stderr.write(
            "explodice: error: the standard output was closed before all was written "
            "(broken pipe): the output is incomplete.\n"
        )
        return EXIT_USAGE
    except (ExplodiceError, OSError) as err:  # bad input, or a file the system refuses
        sys.stderr.write(f"explodice: error: {one_line(err, named=False)}\n")
        return EXIT_USAGE
    except SystemError as err:
        # Ctrl-C landing inside numba's dispatcher surfaces as a SystemError chained to it.
        if not _caused_by_interrupt(err):
            raise
        sys.stderr.write("explodice: interrupted\n")
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
