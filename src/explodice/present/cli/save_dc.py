"""``explodice save-dc``: the base B of a 3d6x save DC, B + PB + the caster's modifier, that
gives the target the same P(save succeeds) as 5e's 8 + PB + modifier over the gaps between
caster and target that the builds produce at levels 1-20 (:func:`~explodice.fit_save_dc`).

    $ explodice save-dc
    $ explodice save-dc my-game.toml --casters mage priest --criterion minimax
    $ explodice save-dc --table bases --format csv
"""

from __future__ import annotations

import argparse
import sys
from types import SimpleNamespace

from explodice.analysis.levels import CRITERIA
from explodice.core.errors import ExplodiceError, check_unique, listed, shown
from explodice.core.words import Phrase
from explodice.game.character import ABILITIES, CharacterError, resolve_ability
from explodice.game.tables import D20_SAVE_DC_BASE
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
    refuse_drain_switches,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import rules_text
from explodice.questions.registry import ask
from explodice.questions.save_dc import SaveDCInputs

__all__ = ["COMMAND", "run"]

TABLES = ("gaps", "cases", "bases")


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument(
        "--casters",
        nargs="+",
        metavar="BUILD",
        default=None,
        help="the builds that cast (their main ability's modifier; default: every build)",
    )
    p.add_argument(
        "--saves",
        nargs="+",
        metavar="ABILITY",
        default=None,
        help="the saves the targets make (default: all six; STR or FOR...)",
    )
    p.add_argument(
        "--criterion",
        choices=CRITERIA,
        default="least_squares",
        help="least_squares (default): the squared error over the gaps, weighted by how "
        "often each occurs; minimax: the largest error over them",
    )
    p.add_argument(
        "--d20-base",
        type=integer(-100, 100),
        default=D20_SAVE_DC_BASE,
        help=f"5e's base of a save DC (default {D20_SAVE_DC_BASE})",
    )
    p.add_argument(
        "--table",
        choices=TABLES,
        default="gaps",
        help="gaps (default: per gap, both probabilities and the error), cases (per level, "
        "caster, target and save) or bases (both criteria for every base tried)",
    )
    switch_defaults(p)


def _ability(name: str) -> str:
    try:
        return resolve_ability(name)
    except CharacterError:
        raise ExplodiceError(
            Phrase(
                "`--saves` must name abilities ({ABILITIES}, or FOR, SAG...), but "
                "{name} was passed.",
                ABILITIES=", ".join(ABILITIES),
                name=shown(name),
            )
        ) from None


def run(args: argparse.Namespace) -> int:
    """The fitted base of a 3d6x save DC, with the table of gaps."""
    refuse_lucky(args, "save-dc")
    refuse_ties(args, "save-dc")
    refuse_drain_switches(args, None, "`save-dc`")
    config = load_level_config(args.config, args.lang)
    found = builds_from(args, config)
    rules = config_rules(args, config)
    for name in args.casters or ():
        if name not in found.names:
            raise ExplodiceError(
                Phrase(
                    "`--casters` must name builds of {names}, but {name} was passed.",
                    names=listed(found.names),
                    name=shown(name),
                )
            )
    check_unique("--casters", args.casters or ())  # each case is counted once
    check_unique("--saves", args.saves or (), key=_ability)  # STR and FOR alike
    saves = [_ability(a) for a in args.saves] if args.saves is not None else list(ABILITIES)
    inputs = SaveDCInputs(
        tuple(found.builds),
        rules,
        tuple(levels_from(args)),
        tuple(args.casters) if args.casters is not None else None,
        tuple(saves),
        args.criterion,
        args.d20_base,
    )
    answer = ask("save_dc", inputs)
    fit = SimpleNamespace(**answer.extra, gaps=answer.tables["gaps"])
    frame = answer.csv_table(args.table)
    if args.format != "text":
        emit(frame, args.format)
        return 0
    frame = answer.tables[args.table]
    fmt = Formatter(args.lang, "cli")
    _ = i18n.translator(args.lang)
    sys.stdout.write("# " + found.note(args.lang, config.source) + "\n")
    how = {
        "least_squares": _("weighted root mean square error"),
        "minimax": _("largest error"),
    }[args.criterion]
    header = _(
        "save DC in 3d6x = {base} + PB + the caster's modifier (5e: {d20} + PB + modifier): "
        "{how} {error} over {gaps} gaps and {cases} cases (gap = PB + caster's modifier - "
        "target's save modifier); exact; {rules}"
    ).format(
        base=fit.base,
        d20=fit.d20_base,
        how=how,
        error=fmt.cell(fit.error, "gap"),
        gaps=len(fit.gaps),
        cases=i18n.number(int(fit.gaps["count"].sum()), args.lang, 0),
        rules=rules_text(rules, args.lang),
    )
    shares = {"share", "p_d20", "p_3d6x", "error", "rmse", "max_error"}
    text = frame.copy()
    for col in text.columns:
        if col in shares:  # an error is a signed change, in percentage points
            text[col] = [fmt.cell(float(v), answer.kind(col)) for v in text[col]]
    sys.stdout.write(f"# {header}\n")
    emit(text, "text", lang=args.lang)
    return 0


COMMAND = Command(
    name="save-dc",
    help="the base of a 3d6x save DC that matches 5e's 8 + PB + modifier",
    description="For the configuration's builds (its [[build]] tables, else the reference "
    "builds): the integer base B for which a save DC of B + PB + the caster's modifier gives "
    "the target the same P(save succeeds) in 3d6x as 8 + PB + modifier in 5e, over the gaps "
    "that the builds produce at each level (each caster against each build and save, both at "
    "the same level). Text shows the table of gaps; csv/json the tidy rows of --table.",
    run=run,
    shared=(build_options, rules_options, output_options),
    add_arguments=add_arguments,
)
