"""``explodice report``: write the designer's report (PDF, PNGs, CSVs, the explorer).

$ explodice report --out reports
$ explodice report my-game.toml --lang fr
"""

from __future__ import annotations

import argparse

from explodice.present.cli.base import Command
from explodice.present.cli.options import config_argument
from explodice.present.cli.output import warnings_in_one_line
from explodice.present.i18n import LANGS

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.add_argument(
        "--write-default-config",
        metavar="PATH",
        help="write a copy of the default configuration to PATH, and stop",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
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
        load_config,
        write_default_config,
        write_report,
    )

    if args.write_default_config:
        path = write_default_config(args.write_default_config)
        print(f"wrote {path}; edit it, then: explodice report {path}")
        return 0
    config = load_config(args.config)
    with warnings_in_one_line(ReportWarning):
        paths = write_report(config, args.out, progress=not args.no_progress, lang=args.lang)
    print(f"wrote {len(paths)} files into {args.out}/ (the PDF: {paths[0]})")
    return 0


COMMAND = Command(
    name="report",
    help="write the designer's report (PDF, PNG, CSV)",
    description="Write the report into --out: one PDF, one PNG per figure, "
    "one CSV per table, replacing a previous report only once "
    "the new one is complete.",
    run=run,
    add_arguments=add_arguments,
)
