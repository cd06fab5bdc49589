"""``explodice reroll``: what a reroll is worth, success and drain with and without it.

$ explodice reroll --trigger failure -m 0 2 4 --dc 12 16 22
"""

from __future__ import annotations

import argparse

from explodice.analysis.reroll import reroll_worth
from explodice.game.rules import ADVANTAGE_STATES
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.options import DC, MODIFIER, output_options
from explodice.present.cli.output import show
from explodice.present.labels import REROLL

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--trigger", choices=("one", "failure"), default="failure")
    p.add_argument("--modifier", "-m", type=MODIFIER, nargs="+", default=[0, 2, 4, 6])
    p.add_argument("--dc", type=DC, nargs="+", default=None)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, nargs="+", default=["normal"])
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def run(args: argparse.Namespace) -> int:
    """What a reroll is worth: success and drain with and without it."""
    frame = reroll_worth(
        args.modifier, args.dc, system=args.system, trigger=args.trigger, advantages=args.advantage
    )
    _ = i18n.translator(args.lang)
    show(
        frame,
        args,
        _("what a reroll is worth ({trigger}), {system}, exact").format(
            trigger=_(REROLL[args.trigger]), system=args.system
        ),
    )
    return 0


COMMAND = Command(
    name="reroll",
    help="what a reroll is worth",
    description="P(success) and E[drain] with and without a reroll, per modifier and DC.",
    run=run,
    shared=(output_options,),
    add_arguments=add_arguments,
)
