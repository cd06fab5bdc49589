"""``explodice defence-base``: the base of the VD that keeps 3d6x's hit chances closest to 5e's,
over the builds at levels 1-20 against monsters of FP = level - 3 .. level + 3, both ways
(:func:`~explodice.fit_defence_base`).

    $ explodice defence-base
    $ explodice defence-base my-game.toml --monsters bestiary.toml --criterion minimax
    $ explodice defence-base --table cases --format csv
"""

from __future__ import annotations

import argparse
import functools
import sys

from explodice.analysis.combat import DEFAULT_OFFSETS
from explodice.analysis.levels import CRITERIA
from explodice.core.words import Phrase
from explodice.game.monster import load_monsters
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.build_options import (
    build_options,
    builds_from,
    config_rules,
    levels_from,
    refuse_lucky,
    refuse_ties,
    switch_defaults,
)
from explodice.present.cli.levels import load_level_config
from explodice.present.cli.numbers import integer
from explodice.present.cli.options import (
    config_argument,
    output_options,
    refuse,
    refuse_drain_switches,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import rules_text
from explodice.questions.combat import DefenceBaseInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

TABLES = ("readings", "cases", "bases")


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument(
        "--monsters",
        metavar="FILE",
        default=None,
        help="a TOML file of [[monster]] tables, one per FP met (default: the SRD's typical "
        "monster of each FP)",
    )
    p.add_argument(
        "--offsets",
        type=integer(-30, 30),
        nargs="+",
        default=list(DEFAULT_OFFSETS),
        help="FP = level + k for each k (default -3 .. 3)",
    )
    p.add_argument(
        "--criterion",
        choices=CRITERIA,
        default="least_squares",
        help="least_squares (default): the root mean square error over the cases; minimax: "
        "the largest",
    )
    p.add_argument(
        "--table",
        choices=TABLES,
        default="readings",
        help="readings (default: the base each reading of the VD takes), cases (per build, "
        "level, offset and who attacks) or bases (both criteria for every base tried)",
    )
    switch_defaults(p)


def run(args: argparse.Namespace) -> int:
    """The fitted defence base, with the table asked."""
    refuse_lucky(args, "defence-base")
    refuse_ties(args, "defence-base")
    refuse_drain_switches(args, None, "`defence-base`")
    refuse(
        args, ("--defence-base",), Phrase("is what `defence-base` fits: it tries every base 0..30.")
    )
    config = load_level_config(args.config)
    found = builds_from(args, config)
    rules = config_rules(args, config)
    monsters = load_monsters(args.monsters) if args.monsters is not None else None
    inputs = DefenceBaseInputs(
        tuple(found.builds),
        rules,
        None if monsters is None else tuple(monsters),
        tuple(levels_from(args)),
        tuple(args.offsets),
        args.criterion,
    )
    answer = ask("defence_base", inputs)
    if args.format != "text":
        emit(answer.csv_table(args.table), args.format)
        return 0
    _ = i18n.translator(args.lang)
    fmt = Formatter(args.lang, "cli")
    sys.stdout.write("# " + found.note(args.lang, config.source) + "\n")
    how = {"least_squares": _("root mean square error"), "minimax": _("largest error")}
    header = _(
        "defence base = {base}: VD = {base} + DEX + WIS + armour + shield, and a 5e AC reads "
        "AC - 10 + {base} + WIS; {how} {error} over {cases} cases ({monsters}); exact; {rules}"
    ).format(
        base=answer.extra["base"],
        how=how[args.criterion],
        error=fmt.cell(answer.extra["error"], "gap"),
        cases=i18n.number(len(answer.tables["cases"]), args.lang, 0),
        monsters=args.monsters or _("the SRD's typical monster of each FP"),
        rules=rules_text(rules, args.lang),
    )
    srd = answer.provenance.notes  # the SRD's attribution, where its monsters are met
    if srd:
        sys.stdout.write("# " + srd[0] + "\n")
    frame = answer.tables[args.table]
    hidden = ("method", "n", "seed", "rules", "attribution")  # in the header
    shown = [c for c in frame.columns if c not in hidden]
    text = fmt.table(answer, args.table, columns=shown)
    text.columns = shown  # emit translates the headers
    if args.table == "readings":  # the fit's error under each reading: unsigned, as rmse
        text["error"] = [fmt.cell(v, "gap") for v in frame["error"]]
    sys.stdout.write(f"# {header}\n")
    emit(text, "text", lang=args.lang)
    return 0


COMMAND = Command(
    name="defence-base",
    help="the base of the VD that keeps 5e's hit chances",
    description="For the configuration's builds (its [[build]] tables, else the reference "
    "builds) at each level against the monster of FP = level + k (--offsets; the SRD's typical "
    "one of each FP, or --monsters), both ways: the integer defence_base for which P(hit) in "
    "3d6x (against VD = AC - 10 + base + WIS, and the builds' own VD) is closest to 5e's "
    "(against the AC). Text shows the base each reading of the VD takes (wisdom_in_defence, "
    "armour_dex_cap); csv/json the tidy rows of --table.",
    run=run,
    shared=(build_options, functools.partial(rules_options, ("roll", "attack")), output_options),
    add_arguments=add_arguments,
)
