"""``explodice opposed``: an opposed test, P(win), P(tie: the status quo), P(loss).

$ explodice opposed -m 2 --vs 0 --system d20
"""

from __future__ import annotations

import argparse

import pandas as pd

from explodice.analysis.resolutions import opposed
from explodice.core.errors import ExplodiceError
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import SYSTEMS
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    MODIFIER,
    ROLL_COMMAND,
    reroll_from,
    rules_from,
    sampling_from,
)
from explodice.present.cli.output import emit, pct

__all__ = ["COMMAND", "run"]


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
    if isinstance(args.policy, tuple):
        raise ExplodiceError(
            "`--policy` must be keep or cancel for an opposed test (best:λ "
            "needs a DC, and an opposed test has none)."
        )
    rules = rules_from(args)
    a = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=args.policy,
        reroll=reroll_from(args, None),
    )
    b = Roll(args.vs, advantage=args.vs_advantage, kind=args.kind)
    result = opposed(a, b, system=args.system, rules=rules, sampling=sampling_from(args))
    frame = pd.DataFrame([result.summary()])
    header = f"# opposed test, {args.system}, {result.method}: A = {result.a}; B = {result.b}"
    text = frame[["win", "tie", "loss", "mean margin"]].assign(
        win=lambda f: [pct(v, args, 2) for v in f.win],
        tie=lambda f: [pct(v, args, 2) for v in f.tie],
        loss=lambda f: [pct(v, args, 2) for v in f.loss],
    )
    emit(frame, args.format, text=text, header=header, lang=args.lang)
    return 0


COMMAND = Command(
    name="opposed",
    help="an opposed test: win, tie (status quo), loss",
    description="Both sides roll; the higher total wins, a tie keeps the "
    "status quo. --modifier/--advantage/--policy are side A's.",
    run=run,
    shared=ROLL_COMMAND,
    add_arguments=add_arguments,
)
