"""``explodice frontier``: the success/drain frontier of cancelling 1s against 6s.

$ explodice frontier -m 2 --dc 16
"""

from __future__ import annotations

import argparse

from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DC,
    MODIFIER,
    output_options,
    refuse,
    refuse_unread_readings,
    reroll_from,
    rules_from,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import N_, roll_label
from explodice.questions.registry import ask
from explodice.questions.rule_of_one import RuleOfOneInputs

__all__ = ["COMMAND", "run"]

#: The frontier's columns that the text table shows.
SHOWN = (
    "policy",
    "lambda_lo",
    "lambda_hi",
    "p_success",
    "drain_mean",
    "ones_mean",
    "price",
    "knee",
)


#: The policies of the frontier's rows, as its text table names them.
POLICY_WORDS = (N_("keep"), N_("cancel"), N_("best"))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0)
    p.add_argument("--dc", type=DC, default=16)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument("--kind", choices=("check", "save"), default="check")


def run(args: argparse.Namespace) -> int:
    """The success/drain frontier of the cancel policy for one roll and DC."""
    rules = rules_from(args)
    refuse(
        args,
        ("--close-contest",),
        Phrase("settles a total equal to the DC by bids, and the frontier reads P(total >= DC)."),
    )
    roll = Roll(
        args.modifier, advantage=args.advantage, kind=args.kind, reroll=reroll_from(args, None)
    )
    refuse_unread_readings(args, [roll], rules)
    answer = ask("rule_of_one", RuleOfOneInputs(rules, cases=((roll, args.dc),)))
    frame = answer.csv_table("frontier")
    lam = float(frame.implied_lambda.iloc[0])
    lang = args.lang
    _ = i18n.translator(lang)
    fmt = Formatter(lang, "cli")
    header = (
        "# "
        + _("cancel frontier: {roll}, DC {dc}; {method}").format(
            roll=roll_label(roll, lang),
            dc=args.dc,
            method=method_text(answer.provenance, lang),
        )
        + "\n# "
        + _("implied λ (chord slope) = {lam}").format(lam=fmt.cell(lam, "number", digits=4))
    )
    text = fmt.table(answer, "frontier", list(SHOWN))
    emit(frame, args.format, text=text, header=header, lang=lang)
    return 0


COMMAND = Command(
    name="frontier",
    help="the success/drain frontier of cancelling 1s against 6s",
    description="Sweep best(λ) from keep to cancel: P(success) and E[drain] "
    "of each policy, and the λ a sensible player implies.",
    run=run,
    shared=(rules_options, output_options),
    add_arguments=add_arguments,
)
