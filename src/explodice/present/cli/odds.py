"""``explodice odds``: the odds of one roll against one or more DCs.

$ explodice odds --modifier 4 --dc 16 --advantage advantage
"""

from __future__ import annotations

import argparse

from explodice.core.errors import ExplodiceError
from explodice.core.words import Phrase
from explodice.game.rules import Roll
from explodice.game.tables import DC_TABLES, SYSTEMS, check_system
from explodice.present import i18n
from explodice.present.answers import method_text
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
    sampling_from,
)
from explodice.present.cli.output import emit, percent_digits
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import roll_label
from explodice.questions.answer import Answer
from explodice.questions.odds import OddsInputs
from explodice.questions.registry import ask

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
        refuse(
            args,
            ("--dc",),
            Phrase("is not read by --pmf (the distribution of the total has no DC)."),
        )
    if bound and len(dcs) != 1:  # the roll itself depends on its DC: one DC, one roll
        raise ExplodiceError(
            Phrase(
                "`--dc` must be one DC with --reroll-on-failure or --policy best:λ "
                "(the roll's choices depend on its DC), but {n_dcs} DCs were asked; "
                "use `explodice table` for several DCs, or best:λ@DC.",
                n_dcs=len(dcs),
            )
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
    sampling = sampling_from(args)
    simulated = sampling.method == "simulate"
    inputs = OddsInputs(
        roll,
        rules,
        args.system,
        tuple(dcs),
        method=sampling.method,
        n=sampling.n if simulated else None,
        seed=int(sampling.seed) if simulated and isinstance(sampling.seed, int) else None,
    )
    answer = ask("odds", inputs, threads=sampling.threads, progress=progress(args))
    name = "pmf" if args.pmf else "success"
    frame = answer.csv_table(name)
    fmt = Formatter(args.lang, "cli")
    shown = [c for c in answer.tables[name].columns if c not in HEADER_ONLY]
    text = fmt.table(answer, name, shown, percent_digits=percent_digits(answer.tables[name]))
    emit(
        frame,
        args.format,
        text=text,
        lang=args.lang,
        header=header(answer, roll, args.lang),
    )
    return 0


def header(answer: Answer, roll: Roll, lang: Lang = "en") -> str:
    """The lines above a roll's table: the roll, how it was obtained and under which rules,
    its mean, median, spread and (3d6x) expected drain and kept 1s, in ``lang``."""
    _ = i18n.translator(lang)
    fmt = Formatter(lang, "cli")
    s = answer.tables["summary"].iloc[0]
    system = check_system(str(s["system"]))

    def num(x: float) -> str:
        return fmt.cell(x, "number", digits=4)

    head = f"# {roll_label(roll, lang, system)}\n# {system} " + method_text(answer.provenance, lang)
    head += "\n# " + _("mean {mean}, median {median}, std {std}").format(
        mean=num(s["mean"]), median=fmt.cell(s["median"], "count"), std=num(s["std"])
    )
    if system == "3d6x":
        head += ", " + _("E[drain] {drain}, E[kept 1s] {ones}").format(
            drain=num(s["drain_mean"]), ones=num(s["ones_mean"])
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
