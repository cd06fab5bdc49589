"""``explodice initiative``: who acts first, each creature's rank, the likeliest orders, side
before side.

    $ explodice initiative Aelis=3 Orc=1 Wolf=2 --side party=Aelis --side monsters=Orc,Wolf
"""

from __future__ import annotations

import argparse

from explodice.analysis.initiative import initiative
from explodice.core.errors import ExplodiceError, shown
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.options import output_options
from explodice.present.cli.output import show

__all__ = ["COMMAND", "pairs", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "creatures", nargs="+", metavar="NAME=DEX", help="a creature and its DEX modifier"
    )
    p.add_argument("--side", action="append", metavar="SIDE=A,B", help="a side's members")
    p.add_argument("--show", choices=("ranks", "orders", "sides"), default="ranks")
    p.add_argument("--top", type=int, default=10, help="orders listed (with --show orders)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def pairs(items: list[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` items as a mapping, or the error naming ``what``."""
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise ExplodiceError(f"`{what}` must be NAME=VALUE, but {shown(item)} was passed.")
        out[name] = value
    return out


def run(args: argparse.Namespace) -> int:
    """Initiative: each creature's rank, the likeliest orders, side before side."""
    mods = {}
    for name, value in pairs(args.creatures, "creature").items():
        try:
            mods[name] = int(value)
        except ValueError:
            raise ExplodiceError(
                f"`creature` {shown(name)} must have an integer DEX modifier,"
                f" but {shown(value)} was passed."
            ) from None
    sides = (
        {name: value.split(",") for name, value in pairs(args.side, "--side").items()}
        if args.side
        else None
    )
    r = initiative(mods, sides=sides, system=args.system)
    what = {"ranks": r.ranks, "orders": r.orders, "sides": r.sides}[args.show]
    if what is None:
        raise ExplodiceError(
            f"`--show {args.show}` needs "
            + ("--side NAME=A,B" if args.show == "sides" else "at most 7 creatures")
        )
    if args.show == "orders":
        what = what.head(args.top)
    elif args.show == "sides":
        what = what.rename(columns={"first": "side first", "second": "side second"})
    _ = i18n.translator(args.lang)
    show(
        what,
        args,
        _("initiative, {system}, exact (ties: the higher DEX modifier, then a coin)").format(
            system=args.system
        ),
    )
    return 0


COMMAND = Command(
    name="initiative",
    help="who acts first: ranks, orders",
    description="Each creature's DEX ability check; ties go to the higher "
    "DEX modifier, then to a coin.",
    run=run,
    shared=(output_options,),
    add_arguments=add_arguments,
)
