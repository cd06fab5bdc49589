"""``explodice explore``: write the explorer, one HTML file that works offline, from disk.

$ explodice explore my-game.toml --out explorer.html --lang fr
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from explodice.present import i18n
from explodice.present.cli.base import Command, Output
from explodice.present.cli.options import config_argument
from explodice.present.explorer import write_explorer
from explodice.present.i18n import LANGS, Lang

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


def run(args: argparse.Namespace) -> int:
    """Write the explorer: one HTML file that works offline, from disk."""
    path = write_explorer(args.config, args.out, lang=args.lang)
    lang = args.lang or _config_lang(args.config)
    _ = i18n.translator(lang)
    print(
        _("wrote {path} ({size} MiB); open it in a browser, or send it as it is").format(
            path=path, size=i18n.number(path.stat().st_size / 2**20, lang, 1)
        )
    )
    return 0


def _config_lang(path: str | None) -> Lang:
    """The language the configuration at ``path`` asks for."""
    from explodice.present.config import load_config

    return load_config(path).lang


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
