"""``explodice odds``: the odds of one roll against one or more DCs.

$ explodice odds --modifier 4 --dc 16 --advantage advantage
"""

from __future__ import annotations

import argparse

import pandas as pd

from explodice.analysis.success import roll_distribution
from explodice.core.errors import ExplodiceError
from explodice.engine.distribution import Distribution
from explodice.game.rules import Roll
from explodice.game.tables import DC_TABLES, SYSTEMS
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DC,
    MODIFIER,
    ROLL_COMMAND,
    progress,
    refuse,
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
from explodice.present.plots import provenance

__all__ = ["COMMAND", "run"]

#: Columns of the tidy rows that the text table leaves to its header.
HEADER_ONLY = ("system", "roll", "rules", "method", "n", "seed", "mean", "median", "drain_mean")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="the roll's modifier")
    p.add_argument("--dc", type=DC, nargs="+", help="DCs (default: the system's DC table)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.add_argument("--pmf", action="store_true", help="print the distribution of the total")


def run(args: argparse.Namespace) -> int:
    """The odds of one roll against one or more DCs."""
    rules = rules_from(args, args.system)
    dcs = args.dc or list(DC_TABLES[args.system].values())
    policy_text = args.policy.strip().lower()
    bound = getattr(args, "reroll_on_failure", False) or (
        policy_text.startswith("best") and "@" not in policy_text
    )
    if args.pmf and not bound:
        refuse(args, ("--dc",), "is not read by --pmf (the distribution of the total has no DC).")
    if bound and len(dcs) != 1:  # the roll itself depends on its DC: one DC, one roll
        raise ExplodiceError(
            "`--dc` must be one DC with --reroll-on-failure or --policy best:λ (the roll's "
            f"choices depend on its DC), but {len(dcs)} DCs were asked; use `explodice table` "
            "for several DCs, or best:λ@DC."
        )
    roll = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=roll_policy(args, dcs[0]),
        reroll=reroll_from(args, dcs[0]),
    )
    refuse_unread_readings(args, [roll], rules)
    dist = roll_distribution(
        roll,
        system=args.system,
        rules=rules,
        sampling=sampling_from(args),
        progress=progress(args),
    )
    label = dist.label
    frame = dist.success_frame(dcs)
    frame.insert(0, "system", dist.system)
    frame.insert(1, "roll", label)
    frame["mean"] = dist.mean
    frame["median"] = dist.median
    frame["drain_mean"] = dist.drain_mean
    if rules.close_contest and "p_tie" not in frame:  # lutte serrée: a total == DC goes to bids
        frame.insert(list(frame.columns).index("p") + 1, "p_tie", _ties(dist, dcs))
    frame["rules"] = rules_text(rules, dist.system)
    if args.pmf:
        frame = dist.to_frame("total")
        frame.insert(0, "system", dist.system)
        frame["method"], frame["n"], frame["seed"] = dist.method, dist.n, dist.seed
    text = frame[[c for c in frame.columns if c not in HEADER_ONLY]]
    if not args.pmf and not dist.simulated:  # an exact p has no interval
        text = text.drop(columns=["ci_low", "ci_high"])
    emit(
        pd.DataFrame(frame),
        args.format,
        text=text,
        lang=args.lang,
        header=f"# {label}\n{header(dist, args.lang)}",
    )
    return 0


def _ties(dist: Distribution, dcs: list[int]) -> list[float]:
    """P(total == DC) for each DC: the share of P(success) that bids settle (lutte serrée)."""
    return [float(dist.p_success(dc) - dist.p_success(dc + 1)) for dc in dcs]


def header(d: Distribution, lang: Lang = "en") -> str:
    """The lines above a distribution's table: where it comes from, its mean, median, spread
    and (3d6x) expected drain and kept 1s, in ``lang``."""
    _ = i18n.translator(lang)

    def num(x: float) -> str:
        return Formatter(lang, "cli").cell(x, "number", digits=4)

    head = f"# {provenance(d, lang)}\n# " + _("mean {mean}, median {median}, std {std}").format(
        mean=num(d.mean), median=d.median, std=num(d.std)
    )
    if d.system == "3d6x":
        head += ", " + _("E[drain] {drain}, E[kept 1s] {ones}").format(
            drain=num(d.drain_mean), ones=num(d.ones_mean)
        )
    return head


COMMAND = Command(
    name="odds",
    help="the odds of one roll against DCs",
    description="The odds of one roll: P(total >= DC) for each --dc, its "
    "mean, median and expected drain.",
    run=run,
    shared=ROLL_COMMAND,
    add_arguments=add_arguments,
)
