"""``explodice initiative``: who acts first, each creature's rank, the likeliest orders, side
before side.

    $ explodice initiative Aelis=3 Orc=1 Wolf=2 --side party=Aelis --side monsters=Orc,Wolf
"""

from __future__ import annotations

import argparse
import sys

from explodice.analysis.initiative import MAX_ORDERS
from explodice.core.errors import ExplodiceError, shown
from explodice.core.words import Phrase
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.options import MODIFIER, TOP, output_options, refuse
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import N_
from explodice.questions.initiative import InitiativeInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "pairs", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "creatures", nargs="+", metavar="NAME=DEX", help="a creature and its DEX modifier"
    )
    p.add_argument("--side", action="append", metavar="SIDE=A,B", help="a side's members")
    p.add_argument(
        "--show",
        choices=("ranks", "orders", "sides"),
        default=None,
        help="which table (default: sides with --side, else ranks)",
    )
    p.add_argument("--top", type=TOP, default=10, help="orders listed (with --show orders)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def pairs(items: list[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` items as a mapping, or the error naming ``what`` (a name given twice
    included: the second would silently replace the first)."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise ExplodiceError(
                Phrase(
                    "`{what}` must be NAME=VALUE, but {item} was passed.",
                    what=what,
                    item=shown(item),
                )
            )
        if name in out:
            raise ExplodiceError(
                Phrase(
                    "`{what}` names {name} twice ({value} and {item}); give each once.",
                    what=what,
                    name=shown(name),
                    value=shown(f"{name}={out[name]}"),
                    item=shown(item),
                )
            )
        out[name] = value
    return out


def modifiers(items: list[str]) -> dict[str, int]:
    """``NAME=DEX`` items as name -> DEX modifier, each read strictly."""
    mods = {}
    for name, value in pairs(items, "creature").items():
        try:
            mods[name] = MODIFIER(value)
        except argparse.ArgumentTypeError as err:
            raise ExplodiceError(
                Phrase(
                    "`creature` {name} must have a DEX modifier: {err}.", name=shown(name), err=err
                )
            ) from None
    return mods


def sides_of(items: list[str] | None) -> dict[str, list[str]] | None:
    """``--side NAME=A,B`` items as side -> members (the API refuses sides that do not split
    the creatures: a creature twice, on two sides or on none, a single side)."""
    if not items:
        return None
    return {side: value.split(",") for side, value in pairs(items, "--side").items()}


def run(args: argparse.Namespace) -> int:
    """Initiative: each creature's rank, the likeliest orders, side before side."""
    mods = modifiers(args.creatures)
    sides = sides_of(args.side)
    args.show = args.show or ("sides" if sides else "ranks")
    if args.show == "sides" and sides is None:
        raise ExplodiceError(
            Phrase("`--show sides` needs two sides or more: --side NAME=A,B each.")
        )
    if args.show != "sides":
        refuse(
            args,
            ("--side",),
            Phrase("is read by --show sides, not by --show {show}.", show=args.show),
        )
    if args.show != "orders":
        refuse(
            args,
            ("--top",),
            Phrase("applies to --show orders, not to --show {show}.", show=args.show),
        )
    inputs = InitiativeInputs(
        tuple(mods.items()),
        None if sides is None else tuple((k, tuple(v)) for k, v in sides.items()),
        (args.system,),
    )
    answer = ask("initiative", inputs)
    if args.show == "orders" and answer.tables["orders"].empty:
        raise ExplodiceError(
            Phrase("`--show orders` needs at most {MAX_ORDERS} creatures", MAX_ORDERS=MAX_ORDERS)
        )
    frame = answer.csv_table(args.show)
    if args.show == "orders":
        frame = frame.head(args.top)
    if args.format != "text":
        emit(frame, args.format)
        return 0
    _ = i18n.translator(args.lang)
    columns = [c for c in answer.tables[args.show].columns if c != "system"]
    text = Formatter(args.lang, "cli").table(
        answer, args.show, columns, {"first": N_("side first"), "second": N_("side second")}
    )
    if args.show == "orders":
        text = text.head(args.top)
    header = _("initiative, {system}, exact (ties: the higher DEX modifier, then a coin)").format(
        system=args.system
    )
    sys.stdout.write(f"# {header}\n{text.to_string(index=False)}\n")
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
