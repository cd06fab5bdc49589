"""``explodice opposed``: an opposed test, P(win), P(tie: the status quo), P(loss).

$ explodice opposed -m 2 --vs 0 --system d20
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from explodice.core.errors import ExplodiceError, shown
from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import SYSTEMS, System
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    MODIFIER,
    ROLL_COMMAND,
    refuse,
    refuse_drain_switches,
    refuse_unread_readings,
    reroll_from,
    roll_policy,
    rules_from,
    rules_text,
    sampling_from,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import REROLL, policy_label
from explodice.questions.opposed import OUTCOMES, OpposedInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

#: The ends of a simulated probability's interval (the answer's ``win_low``, ``win_high``...).
EDGES = ("low", "high")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="side A's modifier")
    p.add_argument("--vs", type=MODIFIER, default=0, help="side B's modifier")
    p.add_argument(
        "--vs-advantage",
        choices=ADVANTAGE_STATES,
        default="normal",
        help="side B's advantage state",
    )
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def run(args: argparse.Namespace) -> int:
    """An opposed test: P(win), P(tie: the status quo holds), P(loss) for side A."""
    policy = roll_policy(args, 0)  # the grammar's reading ("Keep" is keep)
    if not isinstance(policy, str):
        raise ExplodiceError(
            Phrase(
                "`--policy` must be keep or cancel for an opposed test, but {policy} "
                "was passed (best:λ weighs P(total >= DC), and an opposed test has "
                "no DC).",
                policy=shown(args.policy),
            )
        )
    rules = rules_from(args, args.system)
    refuse_drain_switches(args, policy, "`opposed`")
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "settles a tie by bids of HP, which `opposed` does not model: "
            "`explodice contest` plays the bids, and the API's close_opposed "
            "puts them after the dice."
        ),
    )
    a = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=policy,
        reroll=reroll_from(args, None),
    )
    b = Roll(args.vs, advantage=args.vs_advantage, kind=args.kind)
    refuse_unread_readings(args, [a, b], rules)
    sampling = sampling_from(args)
    inputs = OpposedInputs((a,), b, (args.system,), rules, sampling.method, sampling.n, args.seed)
    answer = ask("opposed", inputs, threads=sampling.threads)
    if args.format != "text":
        emit(answer.csv_table("opposed"), args.format)
        return 0
    _ = i18n.translator(args.lang)
    row = answer.tables["opposed"].iloc[0]
    header = "# " + _("opposed test, {system}, {method}: A = {a}; B = {b}").format(
        system=args.system,
        method=method_text(answer.provenance, args.lang, rules=False),
        a=side(a, args.system, args.lang),
        b=side(b, args.system, args.lang),
    )
    # the rules the dice were read under (disadvantage, the malus die...), as `table` says them
    header += "\n# " + rules_text(rules, args.system, args.lang)
    fmt, prov = Formatter(args.lang, "cli"), answer.provenance

    def cell(col: str) -> str:  # a simulated probability with its 95% interval
        text = fmt.cell(row[col], "probability", exact=prov.exact, cut=prov.cut)
        if not prov.exact:
            low, high = (fmt.cell(row[f"{col}_{e}"], "probability", exact=False) for e in EDGES)
            text += f" [{low} – {high}]"
        return text

    text = pd.DataFrame(
        {_(o): [cell(o)] for o in OUTCOMES}
        | {_("mean margin"): [fmt.cell(row.mean_margin, "signed")]}
    )
    sys.stdout.write(f"{header}\n{text.to_string(index=False)}\n")
    return 0


def side(roll: Roll, system: System, lang: Lang) -> str:
    """A side's roll in ``lang``: ``3d6x+2, normal, check, pc, keep`` (``test, PJ, garder``);
    d20 has no rule of 1, so no actor or policy."""
    _ = i18n.translator(lang)
    parts = [f"{system}{roll.modifier:+d}", _(roll.advantage), _(roll.kind)]
    if system == "3d6x":
        parts += [_(roll.actor), policy_label(roll.policy, lang)]
    if roll.reroll is not None:  # the d20 rerolls too (Lucky, a reroll on failure)
        parts.append(_(REROLL[roll.reroll.trigger]))
    return ", ".join(parts)


COMMAND = Command(
    name="opposed",
    help="an opposed test: win, tie (status quo), loss",
    description="Both sides roll; the higher total wins, a tie keeps the "
    "status quo. --modifier/--advantage/--policy are side A's.",
    run=run,
    shared=ROLL_COMMAND,
    add_arguments=add_arguments,
)
