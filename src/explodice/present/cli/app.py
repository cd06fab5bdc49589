"""The ``explodice`` program: :func:`build_parser` assembles the parser from
:data:`~explodice.present.cli.commands.COMMANDS`, and :func:`main` runs a command line, turning
bad input into one line and exit status 2, Ctrl-C into status 130."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from explodice.core.errors import ExplodiceError, one_line
from explodice.core.version import __version__
from explodice.present.cli.base import EXIT_INTERRUPTED, EXIT_USAGE, Parser
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
        p.set_defaults(func=command.run, command_parser=p, writes=command.writes)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 for bad input, 130 on Ctrl-C)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        for output in args.writes(args):  # every file it writes, checked before any work
            output.check()
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # pragma: no cover - e.g. `explodice table | head`
        return 0
    except (ExplodiceError, OSError) as err:  # bad input, or a file the system refuses
        sys.stderr.write(f"explodice: error: {one_line(err)}\n")
        return EXIT_USAGE
    except SystemError as err:
        # Ctrl-C landing inside numba's dispatcher surfaces as a SystemError chained to it.
        if not _caused_by_interrupt(err):
            raise
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED


def _caused_by_interrupt(err: BaseException | None) -> bool:
    seen = 0
    while err is not None and seen < 20:
        if isinstance(err, KeyboardInterrupt):
            return True
        err, seen = err.__cause__ or err.__context__, seen + 1
    return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
