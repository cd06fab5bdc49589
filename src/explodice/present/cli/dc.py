"""``explodice dc``: the DC that gives a roll a target probability of success.

$ explodice dc -m 3 --target 0.5
$ explodice dc -m 3 --target 0.75 0.5 0.25 --system d20 --advantage advantage
"""

from __future__ import annotations

import argparse

from explodice.analysis.compare import MODES
from explodice.core.words import Phrase
from explodice.game.rules import Roll
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.numbers import probability
from explodice.present.cli.options import (
    MODIFIER,
    output_options,
    refuse,
    refuse_drain_switches,
    refuse_unread_readings,
    reroll_from,
    roll_options,
    roll_policy,
    rules_from,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import roll_label
from explodice.questions.dc_for_target import DCForTargetInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

#: How the DC is chosen, as dc_for_probability's ``mode``.


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="the roll's modifier")
    p.add_argument(
        "--target",
        type=probability,
        nargs="+",
        required=True,
        metavar="P",
        help="target P(success): 0.5 or 50%% (several: one DC each)",
    )
    p.add_argument(
        "--mode",
        choices=MODES,
        default="closest",
        help="closest (default: the DC whose odds are nearest), at_least (the highest DC "
        "with odds >= P) or at_most (the lowest DC with odds <= P)",
    )
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def run(args: argparse.Namespace) -> int:
    """The DC for each target probability, and the odds it gives (exact)."""
    rules = rules_from(args, args.system)
    # best:λ weighs P(total >= DC): only with its own DC (best:λ@DC), the DC being the answer
    policy = roll_policy(args, None)
    refuse_drain_switches(args, policy, "`dc`")
    refuse(
        args,
        ("--close-contest",),
        Phrase("settles a total equal to the DC by bids, and `dc` matches P(total >= DC)."),
    )
    roll = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=policy,
        reroll=reroll_from(args, None),  # a reroll on failure needs the DC this command finds
    )
    refuse_unread_readings(args, [roll], rules)
    inputs = DCForTargetInputs(roll, rules, tuple(args.target), args.system, args.mode)
    answer = ask("dc_for_target", inputs)
    lang = args.lang
    _ = i18n.translator(lang)
    header = "# " + _("the DC for a target P(success), {mode}: {roll}; {method}").format(
        mode=_(args.mode),
        roll=roll_label(roll, lang, args.system),
        method=method_text(answer.provenance, lang),
    )
    text = Formatter(lang, "cli").table(answer, "dcs", ["target", "dc", "p", "difficulty"])
    emit(answer.csv_table("dcs"), args.format, text=text, header=header, lang=lang)
    return 0


COMMAND = Command(
    name="dc",
    help="the DC for a target probability of success",
    description="For each --target P, the DC that gives the roll that P(success) (closest, "
    "or the highest DC still at least P, or the lowest at most P), exact, with the odds it "
    "gives.",
    run=run,
    shared=(roll_options, rules_options, output_options),
    add_arguments=add_arguments,
)
