"""``explodice report``: write the designer's report (PDF, PNGs, CSVs, the explorer).

$ explodice report --out reports
$ explodice report my-game.toml --lang fr
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from explodice.core.words import Phrase
from explodice.present import i18n
from explodice.present.cli.base import Command, Output
from explodice.present.cli.options import FORCE_HELP, config_argument, refuse
from explodice.present.cli.output import warnings_in_one_line
from explodice.present.i18n import LANGS

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.add_argument(
        "--write-default-config",
        metavar="PATH",
        help="write a commented copy of the default configuration to PATH, and stop",
    )
    p.add_argument(
        "--force", action="store_true", help=FORCE_HELP.format(flag="--write-default-config")
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="compute every number and draw every page again, and keep nothing (answers are "
        "kept in ~/.cache/explodice/answers: see README)",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the report and its explorer (default: the "
        "configuration's `lang`, else en)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the designer's report (PDF, PNGs, CSVs)."""
    # imported here: matplotlib's PDF backend takes a second, which the other commands skip
    from explodice.present.report import (
        ReportWarning,
        last_session,
        load_config,
        write_default_config,
        write_report,
    )

    if args.write_default_config is not None:
        refuse(
            args,
            ("config", "--out", "--lang", "--no-progress", "--no-cache"),
            Phrase(
                "is not read by --write-default-config, which writes the default "
                "configuration and stops."
            ),
        )
        path = write_default_config(args.write_default_config, replace=args.force)
        print(f"wrote {path}; edit it, then: explodice report {path}")
        return 0
    refuse(
        args,
        ("--force",),
        Phrase(
            "replaces the file of --write-default-config; a report replaces its "
            "own files only (a file of yours in the way is moved aside)."
        ),
    )
    config = load_config(args.config)
    with warnings_in_one_line(ReportWarning):
        paths = write_report(
            config,
            args.out,
            progress=not args.no_progress,
            lang=args.lang,
            cache=not args.no_cache,
        )
    _ = i18n.translator(args.lang or config.lang)
    session = last_session()
    if session is not None:
        say_cache(session, _)
    print(
        _("wrote {n} files into {out}/ (the PDF: {pdf})").format(
            n=len(paths), out=args.out, pdf=paths[0]
        )
    )
    return 0


def say_cache(session: Any, _: Callable[[str], str]) -> None:
    """Say on stderr what a run reused from the cache of answers and what it computed: the
    answers and pages reused, those computed, the pages computed anew, the entries ignored."""
    anew = [n.split(":", 1)[1] for n in session.computed if n.startswith("page:")]
    where = session.folder if session.folder is not None else _("none: --no-cache")
    print(
        _("{reused} answers reused, {computed} computed (cache: {where})").format(
            reused=len(session.reused), computed=len(session.computed), where=where
        ),
        file=sys.stderr,
    )
    if anew:
        print(_("pages computed anew: {pages}").format(pages=", ".join(anew)), file=sys.stderr)
    if session.ignored:
        print(
            _("{n} unreadable entries of the cache ignored (and written again)").format(
                n=len(session.ignored)
            ),
            file=sys.stderr,
        )


def writes(args: argparse.Namespace) -> Sequence[Output]:
    """The default configuration's copy, or the report's folder (the configuration must not
    lie in the report's own area, which each report replaces)."""
    if args.write_default_config is not None:
        return [Output(args.write_default_config, "--write-default-config", replace=args.force)]
    from explodice.present.report.writer import AREA

    return [Output(args.out, "--out", inputs=(args.config,), folder=True, owned=(AREA,))]


COMMAND = Command(
    name="report",
    help="write the designer's report (PDF, PNG, CSV)",
    description="Write the report into --out: one PDF, one PNG per figure, "
    "one CSV per table, replacing a previous report only once "
    "the new one is complete.",
    run=run,
    add_arguments=add_arguments,
    writes=writes,
)
