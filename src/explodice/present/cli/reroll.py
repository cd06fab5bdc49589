"""``explodice reroll``: what a reroll is worth, success and drain with and without it.

$ explodice reroll --trigger failure -m 0 2 4 --dc 12 16 22
"""

from __future__ import annotations

import argparse
import functools

from explodice.core.words import Phrase
from explodice.game.reroll import Reroll
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DC,
    MODIFIER,
    output_options,
    refuse,
    refuse_unread_readings,
    rules_from,
    rules_options,
    rules_text,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import REROLL
from explodice.questions.registry import ask
from explodice.questions.reroll import RerollInputs

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--trigger", choices=("one", "failure"), default="failure")
    p.add_argument("--modifier", "-m", type=MODIFIER, nargs="+", default=[0, 2, 4, 6])
    p.add_argument("--dc", type=DC, nargs="+", default=None)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, nargs="+", default=["normal"])
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def run(args: argparse.Namespace) -> int:
    """What a reroll is worth: success and drain with and without it."""
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "settles a total equal to the DC by bids, which a reroll's worth "
            "does not play (`explodice contest` does)."
        ),
    )
    rules = rules_from(args, args.system)  # a d20 roll refuses 3d6x's switches
    lucky = Reroll("one") if args.trigger == "one" else None
    refuse_unread_readings(
        args, [Roll(0, advantage=a, reroll=lucky) for a in args.advantage], rules
    )
    inputs = RerollInputs(
        tuple(args.modifier),
        rules,
        tuple(args.dc) if args.dc is not None else None,
        systems=(args.system,),
        triggers=(args.trigger,),
        advantages=tuple(args.advantage),
    )
    answer = ask("reroll", inputs)
    lang = args.lang
    _ = i18n.translator(lang)
    text = Formatter(lang, "cli").table(answer, "worth")
    text[_("trigger")] = [_(REROLL[t]) for t in answer.tables["worth"].trigger]
    header = "# " + _("what a reroll is worth ({trigger}), {system}, {method}").format(
        trigger=_(REROLL[args.trigger]),
        system=args.system,
        method=method_text(answer.provenance, lang, rules=False),
    )
    header += "\n# " + rules_text(rules, args.system, lang)  # the rules its rolls were read under
    emit(answer.csv_table("worth"), args.format, text=text, header=header, lang=lang)
    return 0


COMMAND = Command(
    name="reroll",
    help="what a reroll is worth",
    description="P(success) and E[drain] with and without a reroll, per modifier and DC.",
    run=run,
    # the roll's switches; Lucky comes from --trigger one (its --lucky-timing offered)
    shared=(functools.partial(rules_options, ("roll",), lucky="own"), output_options),
    add_arguments=add_arguments,
)
