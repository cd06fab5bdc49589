"""``explodice hide``: one Stealth total against every observer, active (opposed, a tie keeps
the hider hidden) and passive (the DC).

    $ explodice hide -m 5 --passive 12 14 --active 2
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, Roll, Rules, switches
from explodice.game.tables import SYSTEMS
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DC,
    MODIFIER,
    output_options,
    refuse,
    refuse_drain_switches,
    refuse_unread_readings,
    reroll_from,
    rules_from,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import changed_readings, rules_text, switch_label, switch_value
from explodice.questions.hiding import HidingInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

#: The switches read by hiding alone (scope "hiding"), named under --system d20 too.
HIDING_SWITCHES = tuple(sw.name for sw in switches() if sw.scope == "hiding")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="the Stealth modifier")
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument(
        "--active",
        type=MODIFIER,
        nargs="*",
        default=[],
        metavar="MOD",
        help="Perception modifiers of observers who search",
    )
    p.add_argument(
        "--passive",
        type=DC,
        nargs="*",
        default=[],
        metavar="VALUE",
        help="passive Perception values of observers who do not",
    )
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")


def run(args: argparse.Namespace) -> int:
    """Hiding: one Stealth total against every observer."""
    refuse_drain_switches(args, "keep", "`hide`")
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "settles a total equal to a DC by bids; a Stealth total equal to a "
            "Perception is read by --hiding-ties."
        ),
    )
    rules = rules_from(args)
    roll = Roll(args.modifier, advantage=args.advantage, reroll=reroll_from(args, None))
    refuse_unread_readings(args, [roll], rules)
    inputs = HidingInputs(roll, tuple(Roll(m) for m in args.active), tuple(args.passive),
                          args.system, rules)  # fmt: skip
    answer = ask("hiding", inputs)
    if args.format != "text":
        emit(answer.csv_table("observers"), args.format)
        return 0
    _ = i18n.translator(args.lang)
    fmt = Formatter(args.lang, "cli")
    text = fmt.table(answer, "observers", ["observer", "p_hidden_from"])
    text[_("observer")] = [
        observer_label(o, args.lang) for o in answer.tables["observers"].itertuples()
    ]
    group = answer.tables["group"].iloc[0]
    header = _(
        "hiding, {system}, {method}: P(hidden from all) {p} (each observer on their own, "
        "multiplied, would say {q})"
    ).format(
        system=args.system,
        method=method_text(answer.provenance, args.lang, rules=False),
        p=fmt.cell(group.p_hidden, "probability"),
        q=fmt.cell(group.p_if_independent, "probability"),
    )
    said = _rules(rules, args)  # on a line of its own, as `opposed` says them
    header += f"\n# {said}" if said else ""
    sys.stdout.write(f"# {header}\n{text.to_string(index=False)}\n")
    return 0


def observer_label(row: Any, lang: Lang) -> str:
    """An observer row of the hiding answer in words, from its own ``kind``, ``passive`` and
    ``modifier``: ``passive 12``, ``active, Perception +2``, ``all``."""
    _ = i18n.translator(lang)
    if row.kind == "passive":
        return _("passive {value}").format(value=int(row.passive))
    if row.kind == "active":
        return _("active, Perception {modifier}").format(modifier=f"{int(row.modifier):+d}")
    return _("all")


def _rules(rules: Rules, args: argparse.Namespace) -> str:
    """The rules the numbers were made under: every switch in 3d6x; in d20, the reading of
    hiding's ties when it is not the default."""
    if args.system == "3d6x":
        return rules_text(rules, args.lang)
    hiding = [(n, v) for n, v in changed_readings(rules) if n in HIDING_SWITCHES]
    return ", ".join(
        f"{switch_label(n, args.lang)}={switch_value(n, v, args.lang)}" for n, v in hiding
    )


COMMAND = Command(
    name="hide",
    help="hiding from observers",
    description="One Stealth total against active observers (opposed, a "
    "tie keeps the hider hidden) and passive ones (the DC); --hiding-ties observer: a tie "
    "reveals the hider.",
    run=run,
    shared=(functools.partial(rules_options, ("roll", "hiding")), output_options),
    add_arguments=add_arguments,
    repeats=("--active", "--passive"),  # observers of the same Perception
)
