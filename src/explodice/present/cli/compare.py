"""``explodice compare``: 3d6x against d20, each d20 DC's equivalent 3d6x DC.

$ explodice compare -m 4
$ explodice compare --profiles novice=0 trained=4
"""

from __future__ import annotations

import argparse

from explodice.analysis.compare import equivalent_dc, equivalent_dc_table
from explodice.core.errors import ExplodiceError, shown
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import PROFILES
from explodice.present.cli.base import Command
from explodice.present.cli.options import MODIFIER, NO_LUCKY_RULES, output_options, rules_from
from explodice.present.cli.output import emit, pct

__all__ = ["COMMAND", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=None)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument(
        "--profiles",
        nargs="+",
        default=[f"{k}={v}" for k, v in PROFILES.items()],
        metavar="NAME=MOD",
        help="reference profiles (default: "
        + " ".join(f"{k}={v}" for k, v in PROFILES.items())
        + ")",
    )
    p.add_argument(
        "--reference",
        default=None,
        help="the profile whose odds set the mapping (default: trained if there is "
        "one, else the first)",
    )


def run(args: argparse.Namespace) -> int:
    """The d20 comparison: each d20 DC's equivalent 3d6x DC for a modifier, or the table."""
    rules = rules_from(args)
    if args.modifier is not None:
        frame = equivalent_dc(Roll(args.modifier, advantage=args.advantage), rules=rules)
        header = (
            f"# equivalent DCs, d20 -> 3d6x, modifier {args.modifier:+d}, "
            f"{args.advantage}; exact; {rules.describe()}"
        )
    else:
        pairs = [profile(p) for p in args.profiles]
        profiles = dict(pairs)
        if len(profiles) < len(pairs):
            names = [name for name, _ in pairs]
            twice = next(n for n in names if names.count(n) > 1)
            raise ExplodiceError(
                f"`--profiles` names {shown(twice)} twice; give each profile once."
            )
        reference = args.reference or ("trained" if "trained" in profiles else next(iter(profiles)))
        frame = equivalent_dc_table(profiles, reference=reference, rules=rules)
        header = f"# the d20 DC table mapped onto 3d6x for {reference}; exact; {rules.describe()}"
    text = frame.assign(
        p_d20=[pct(v, args, 1) for v in frame.p_d20],
        p_3d6x=[pct(v, args, 1) for v in frame.p_3d6x],
        gap=[("+" if v >= 0 else "-") + pct(abs(v), args, 1) for v in frame.gap],
    )
    emit(frame, args.format, text=text, header=header, lang=args.lang)
    return 0


def profile(text: str) -> tuple[str, int]:
    """``NAME=MODIFIER`` as a pair, or the error naming ``--profiles``."""
    name, sep, value = text.partition("=")
    try:
        if not sep or not name:
            raise ValueError
        return name, int(value)
    except ValueError:
        raise ExplodiceError(
            "`--profiles` must be NAME=MODIFIER items (e.g. trained=4),"
            f" but {shown(text)} was passed."
        ) from None


COMMAND = Command(
    name="compare",
    help="3d6x against d20: equivalent DCs",
    description="With --modifier: for each d20 DC, the 3d6x DC with the "
    "closest odds. Otherwise the d20 DC table mapped onto 3d6x "
    "for a reference profile, with every profile's odds.",
    run=run,
    shared=(NO_LUCKY_RULES, output_options),
    add_arguments=add_arguments,
)
