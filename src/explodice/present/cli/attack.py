"""``explodice attack``: one attacker against ACs or VDs, P(hit) and P(critical) in 3d6x beside
5e, with the equivalent VD of each AC (:func:`~explodice.attack_table`).

    $ explodice attack --modifier 5 --ac 13 15 17
    $ explodice attack -m 7 --vd 18 20 --critical two_sixes --advantage normal advantage
    $ explodice attack -m 5 --format csv --lang fr
"""

from __future__ import annotations

import argparse
import functools

from explodice.core.words import Phrase
from explodice.game.rules import ACTORS, ADVANTAGE_STATES
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.numbers import integer
from explodice.present.cli.options import (
    MODIFIER,
    output_options,
    refuse,
    rules_from,
    rules_options,
    sampling_from,
    sampling_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import rules_text
from explodice.present.plots.combat import reading_label
from explodice.questions.combat import AttackInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

#: A target: an AC or a VD (a 5e AC reads 0..60; a VD a little more).
TARGET = integer(-20, 120)
#: Columns of the tidy rows that the text table leaves to its header.
HEADER_ONLY = ("rules", "method", "n", "seed")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, nargs="+", default=[5],
                   help="the attack's modifiers: ability + PB x proficiency + other (default 5)")  # fmt: skip
    targets = p.add_mutually_exclusive_group()
    targets.add_argument("--ac", type=TARGET, nargs="+", default=None,
                         help="5e ACs, read in 3d6x as VD = AC - 10 + base + WIS (default 10-22)")  # fmt: skip
    targets.add_argument("--vd", type=TARGET, nargs="+", default=None,
                         help="3d6x VDs, read in 5e as AC = VD + 10 - base - WIS")  # fmt: skip
    p.add_argument("--wis", type=integer(-5, 10), default=0,
                   help="the target's WIS modifier, which the VD reads (wisdom_in_defence)")  # fmt: skip
    p.add_argument("--advantage", nargs="+", choices=ADVANTAGE_STATES, default=list(ADVANTAGE_STATES),
                   help="advantage states (default: all three)")  # fmt: skip
    p.add_argument("--both-readings", action="store_true",
                   help="disadvantage under both readings (subtract and drop) side by side")  # fmt: skip
    p.add_argument("--actor", choices=ACTORS, default="pc",
                   help="npc: cancels every pair of a 1 and a 6 under the rule of 1 (with "
                   "--rule-of-one ... attack)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """P(hit) and P(critical) of one attacker against each target, both systems."""
    rules = rules_from(args)
    refuse(
        args,
        ("--ones-on-explosions",),
        Phrase("changes the drain only, which `attack` does not show."),
    )
    refuse(args, ("--close-contest",),
           Phrase("settles a total equal to the VD by bids of HP, which `attack` does " "not play (a total equal to the VD hits)."))  # fmt: skip
    if args.actor == "pc":
        refuse(args, ("--rule-of-one",),
               Phrase("changes only the drain of a PC's attack (a PC keeps its 1s here); " "with --actor npc it changes what is cancelled."))  # fmt: skip
    elif "attack" not in rules.rule_of_one_kinds:
        refuse(args, ("--actor",),
               Phrase("npc cancels pairs under the rule of 1, which attacks are outside " "of: add --rule-of-one check save attack."))  # fmt: skip
    refuse(args, ("--armour-dex-cap",),
           Phrase("caps a wearer's DEX in their VD; the targets here are ACs or VDs " "already."))  # fmt: skip
    if args.wis == 0:
        refuse(args, ("--wisdom-in-defence",),
               Phrase("reads the target's WIS modifier, which is 0 here: give --wis."))  # fmt: skip
    if "disadvantage" not in args.advantage:
        refuse(args, ("--both-readings", "--disadvantage", "--malus-die"),
               Phrase("reads disadvantage, which none of the --advantage states asked has."))  # fmt: skip
    elif args.both_readings:
        refuse(args, ("--disadvantage",), Phrase("is one reading; --both-readings shows both."))
    if rules.disadvantage == "drop" and not args.both_readings:
        refuse(
            args, ("--malus-die",), Phrase("is the die that 'subtract' subtracts; 'drop' has none.")
        )
    sampling = sampling_from(args)
    simulated = sampling.simulated
    inputs = AttackInputs(
        tuple(args.modifier),
        None if args.ac is None else tuple(args.ac),
        None if args.vd is None else tuple(args.vd),
        args.wis,
        args.actor,
        tuple(args.advantage),
        "both" if args.both_readings else None,
        rules,
        "simulate" if simulated else "exact",
        sampling.n if simulated else None,
        sampling.seed if simulated else None,  # type: ignore[arg-type]
    )
    answer = ask("attack", inputs, threads=sampling.threads)
    table = answer.csv_table("attack")
    if args.format != "text":
        emit(table, args.format)
        return 0
    _ = i18n.translator(args.lang)
    header = _(
        "an attack against the VD (3d6x) and the AC (5e): VD = AC - 10 + {base} + WIS term "
        "(target's WIS {wis:+d}); critical in 3d6x: {critical}, in 5e the natural 20; {how}; "
        "{rules}"
    ).format(
        base=rules.defence_base,
        wis=args.wis,
        critical=reading_label(
            rules.critical if isinstance(rules.critical, str) else f"margin {rules.critical}",
            args.lang,
        ),
        how=method_text(answer.provenance, args.lang, rules=False),
        rules=rules_text(rules, args.lang),
    )
    shown = [c for c in answer.tables["attack"].columns if c not in HEADER_ONLY]
    text = Formatter(args.lang, "cli").table(answer, "attack", columns=shown)
    text.columns = shown  # emit translates the headers
    emit(table, "text", text=text, lang=args.lang, header=f"# {header}")
    return 0


COMMAND = Command(
    name="attack",
    help="one attacker against ACs or VDs: P(hit), P(critical), 3d6x beside 5e",
    description="P(hit) and P(critical) of an attack with each --modifier against each target "
    "(5e ACs, read in 3d6x as VD = AC - 10 + defence_base + the target's WIS term; or --vd), "
    "for each advantage state, in 3d6x beside 5e (a natural 1 misses, a natural 20 hits and "
    "is the critical), and the equivalent VD of each AC: the VD whose 3d6x P(hit) is closest "
    "to 5e's. The critical of 3d6x is --critical (none, two_sixes, three_sixes or a margin).",
    run=run,
    shared=(
        functools.partial(rules_options, ("roll", "attack"), lucky="none"),
        sampling_options,
        output_options,
    ),
    add_arguments=add_arguments,
)
