"""``explodice explore``: write the explorer, one HTML file that works offline, from disk.

$ explodice explore my-game.toml --out explorer.html --lang fr
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from explodice.core.errors import ExplodiceError
from explodice.core.files import check_writable
from explodice.present import i18n
from explodice.present.cli.base import Command, Output
from explodice.present.cli.options import config_argument
from explodice.present.cli.report import say_cache
from explodice.present.i18n import LANGS

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        default="explorer.html",
        help="the HTML file to write (default: explorer.html)",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the page (default: the configuration's `lang`, else en)",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="compute every number again and keep nothing (answers are kept in "
        "~/.cache/explodice/answers: see README)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the explorer: one HTML file that works offline, from disk."""
    import datetime as dt

    from explodice.present.config import in_language, load_config
    from explodice.present.report.reuse import explorer
    from explodice.questions import cache

    config = load_config(args.config)
    config = in_language(config, config.lang if args.lang is None else args.lang)
    out = check_writable(args.out, error=ExplodiceError, what="out", inputs=(args.config,))
    with cache.session(not args.no_cache) as session:
        path = explorer(config, out, date=dt.date.today().isoformat())
    lang = config.lang
    _ = i18n.translator(lang)
    say_cache(session, _)
    print(
        _("wrote {path} ({size} MiB); open it in a browser, or send it as it is").format(
            path=path, size=i18n.number(path.stat().st_size / 2**20, lang, 1)
        )
    )
    return 0


def writes(args: argparse.Namespace) -> Sequence[Output]:
    """The HTML file, which must not be the configuration it is made from."""
    return [Output(args.out, "--out", inputs=(args.config,))]


COMMAND = Command(
    name="explore",
    help="write the explorer, one HTML file to share",
    description="Write the designer's explorer: one self-contained HTML "
    "file (controls, charts and every number inside) that opens "
    "from disk in any browser, offline.",
    run=run,
    add_arguments=add_arguments,
    writes=writes,
)
