"""``explodice dc``: the DC that gives a roll a target probability of success.

$ explodice dc -m 3 --target 0.5
$ explodice dc -m 3 --target 0.75 0.5 0.25 --system d20 --advantage advantage
"""

from __future__ import annotations

import argparse

import pandas as pd

from explodice.analysis.compare import MODES, dc_for_probability
from explodice.analysis.success import roll_distribution
from explodice.game.rules import Roll
from explodice.game.tables import SYSTEMS, difficulty_of
from explodice.present import i18n
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
    rules_text,
)
from explodice.present.cli.output import emit

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
        "settles a total equal to the DC by bids, and `dc` matches P(total >= DC).",
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
    dist = roll_distribution(roll, system=args.system, rules=rules)
    dcs = [int(dc) for dc in dc_for_probability(dist, args.target, mode=args.mode)]
    frame = pd.DataFrame(
        {
            "target": args.target,
            "dc": dcs,
            "p": [float(dist.p_success(dc)) for dc in dcs],
            "difficulty": [difficulty_of(dc, args.system) for dc in dcs],
            "system": dist.system,
            "roll": dist.label,
            "mode": args.mode,
            "method": dist.method,
            "rules": rules_text(rules, dist.system),
        }
    )
    _ = i18n.translator(args.lang)
    header = "# " + _("the DC for a target P(success), {mode}: {roll}; {method}; {rules}").format(
        mode=_(args.mode),
        roll=dist.label,
        method=_(dist.method),
        rules=rules_text(rules, dist.system, args.lang),
    )
    text = frame[["target", "dc", "p", "difficulty"]]
    emit(frame, args.format, text=text, header=header, lang=args.lang)
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
