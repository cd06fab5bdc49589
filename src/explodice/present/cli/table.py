"""``explodice table``: the DC table, P(success) for each modifier, DC and advantage state.

$ explodice table --modifiers 0 2 4 --format csv
"""

from __future__ import annotations

import argparse

import pandas as pd

from explodice.analysis.success import pivot_success
from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, DISADVANTAGE_READINGS
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DC,
    MODIFIER,
    NO_LUCKY_RULES,
    output_options,
    refuse,
    roll_options,
    roll_policy,
    rules_from,
    rules_text,
    sampling_from,
    sampling_options,
)
from explodice.present.cli.output import emit, percent_digits
from explodice.present.formats import Formatter
from explodice.questions.registry import ask
from explodice.questions.success import SuccessInputs

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--modifiers", type=MODIFIER, nargs="+", default=None, help="modifiers (default -5..+10)"
    )
    p.add_argument("--dc", type=DC, nargs="+", help="DCs (default: the system's DC table)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.add_argument(
        "--states",
        nargs="+",
        choices=ADVANTAGE_STATES,
        default=list(ADVANTAGE_STATES),
        help="advantage states (default: all three)",
    )
    p.add_argument(
        "--disadvantage-readings",
        choices=("both", *DISADVANTAGE_READINGS),
        default=None,
        help="show other readings of disadvantage side by side "
        "(default: the one of --disadvantage)",
    )


def run(args: argparse.Namespace) -> int:
    """The DC table: P(success) for each modifier, DC and advantage state."""
    rules = rules_from(args, args.system)
    refuse(
        args,
        ("--advantage",),
        Phrase("sets one roll's state; `table` shows the states of --states."),
    )
    refuse(
        args,
        ("--lucky", "--reroll-on-failure"),
        Phrase(
            "cannot be applied by `table`: give it to `explodice odds` (one roll "
            "against its DCs), or see what a reroll is worth with `explodice "
            "reroll`."
        ),
    )
    if args.system == "d20":
        refuse(
            args,
            ("--disadvantage-readings",),
            Phrase("compares readings of 3d6x's disadvantage; d20's is one (--system d20)."),
        )
    sampling = sampling_from(args)
    inputs = SuccessInputs(
        tuple(args.modifiers) if args.modifiers is not None else None,
        rules,
        tuple(args.dc) if args.dc is not None else None,
        system=args.system,
        advantages=tuple(args.states) if args.states is not None else None,
        readings=args.disadvantage_readings,  # None: the reading of --disadvantage
        kind=args.kind,
        actor=args.actor,
        policy=roll_policy(args, 0),  # best: each row's own DC
        method=sampling.method,
        n=sampling.n if sampling.method == "simulate" else None,
        seed=int(sampling.seed)  # the command line's seed: an int (SEED) or none
        if sampling.method == "simulate" and isinstance(sampling.seed, int)
        else None,
    )
    answer = ask("success", inputs, threads=sampling.threads)
    table = answer.csv_table("success")
    wide = pivot_success(table, index=["modifier", "advantage"], columns="dc")
    _ = i18n.translator(args.lang)
    header = "# " + _("P(success), {system}, {method}; {rules}").format(
        system=args.system,
        method=method_text(answer.provenance, args.lang, rules=False),
        rules=rules_text(rules, args.system, args.lang),
    )
    fmt, prov = Formatter(args.lang, "cli"), answer.provenance
    digits = percent_digits(table)  # as many decimals as a simulated interval needs

    def cell(p: float) -> str:  # a certain exact cell is 100%, never "100.0%"
        if pd.isna(p):
            return "—"
        return fmt.cell(p, "probability", exact=prov.exact, cut=prov.cut, digits=digits)

    emit(
        table,
        args.format,
        text=wide.map(cell).reset_index(),
        header=header,
        lang=args.lang,
    )
    return 0


COMMAND = Command(
    name="table",
    help="the DC table: modifiers x DCs x advantage states",
    description="P(success) for each modifier, DC and advantage state. "
    "Text shows the wide grid; csv/json the tidy rows.",
    run=run,
    shared=(roll_options, NO_LUCKY_RULES, sampling_options, output_options),
    add_arguments=add_arguments,
)
