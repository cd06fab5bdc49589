"""``explodice bestiary`` and ``explodice fp-table``: the SRD 5.1's monsters (or a designer's
own, from ``[[monster]]`` tables) converted to 3d6x, and the typical monster of each power
factor (:func:`~explodice.bestiary`, :func:`~explodice.fp_table`).

    $ explodice bestiary --fp 5 --flagged
    $ explodice bestiary my-monsters.toml --with-srd --name goblin --format csv
    $ explodice fp-table --lang fr
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from explodice.analysis.bestiary import DEFAULT_THRESHOLD
from explodice.core.errors import ExplodiceError, check_unique
from explodice.core.files import read_toml
from explodice.core.words import Phrase
from explodice.game.bestiary import SRD_ATTRIBUTION, SRD_SOURCE, srd_monsters
from explodice.game.build import reference_builds
from explodice.game.monster import MonsterFileError, load_monsters
from explodice.game.tables import fold_name, parse_fp
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.build_options import probability
from explodice.present.cli.options import (
    config_argument,
    config_rules,
    output_options,
    refuse,
    refuse_drain_switches,
    rules_options,
    switch_defaults,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.labels import rules_text
from explodice.present.plots.bestiary import CHANCE_LABELS
from explodice.questions.bestiary import BestiaryInputs, FpTableInputs
from explodice.questions.registry import ask

__all__ = ["BESTIARY", "FP_TABLE", "Bestiary", "load_bestiary"]

#: The rules switches the bestiary reads: a roll's (saves play the rule of 1) and an attack's.
RULES = functools.partial(rules_options, ("roll", "attack"), lucky="none")


class Bestiary:
    """The monsters, rules and builds a bestiary command reads from its CONFIG."""

    def __init__(self, monsters: tuple[Any, ...], rules: Any, builds: tuple[Any, ...], note: str):
        self.monsters, self.rules, self.builds, self.note = monsters, rules, builds, note


def refuse_unread(args: argparse.Namespace, what: str) -> None:
    """Refuse the switches the bestiary's rolls cannot read (made without advantage or
    disadvantage, no drain shown, ties counted as successes, P(critical) not shown)."""
    refuse_drain_switches(args, None, what)
    refuse(
        args,
        ("--disadvantage", "--malus-die"),
        Phrase(
            "reads disadvantage, and {what}'s rolls are made without advantage or disadvantage.",
            what=what,
        ),
    )
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "settles ties by bids; {what} counts a total equal to the VD or DC as a success.",
            what=what,
        ),
    )
    if isinstance(getattr(args, "critical", None), int):
        raise ExplodiceError(
            Phrase(
                "`--critical {critical}`: a margin changes P(critical) only, which "
                "{what} does not show (two_sixes and three_sixes change P(hit): they "
                "apply).",
                critical=args.critical,
                what=what,
            )
        )


def load_bestiary(path: str | None, args: argparse.Namespace) -> Bestiary:
    """CONFIG: none (the SRD's monsters), a file of ``[[monster]]`` tables alone, or a report
    configuration (its ``[[monster]]``, ``[[build]]`` and ``[rules]``). ``--with-srd`` adds the
    SRD's monsters to a file's."""
    from explodice.present.config import load_config  # no matplotlib: see report.py

    _ = i18n.translator(args.lang)
    if path is None:
        refuse(args, ("--with-srd",), Phrase("adds the SRD's monsters to a CONFIG's: give one."))
        return Bestiary(srd_monsters(), config_rules(args, None), (), _("the SRD 5.1's monsters"))
    data = read_toml(path, error=MonsterFileError)
    if set(data) <= {"monster"}:
        own, rules, builds = tuple(load_monsters(path)), config_rules(args, None), ()
    else:
        config = load_config(path)
        own, rules, builds = config.monsters, config_rules(args, config), config.builds
    if not own and not args.with_srd:
        raise ExplodiceError(
            Phrase(
                "{path}: no [[monster]] table was found: add some, or --with-srd for the SRD's.",
                path=path,
            )
        )
    monsters = (*own, *srd_monsters()) if args.with_srd else own
    one = _("{n} monster of {file}") if len(own) == 1 else _("{n} monsters of {file}")
    note = one.format(n=len(own), file=Path(path).name)
    if args.with_srd:
        note += " " + _("and the SRD 5.1's")
    return Bestiary(tuple(monsters), rules, tuple(builds), note)


def _header(kind: str, found: Bestiary, args: argparse.Namespace, extra: str) -> str:
    _ = i18n.translator(args.lang)
    who = _("the configuration's builds") if found.builds else _("the reference builds")
    lines = [
        _(
            "{what}: {monsters}, against {who} at the level of their FP (1-20); {extra}; exact; "
            "{rules}"
        ).format(
            what=kind,
            monsters=found.note,
            who=who,
            extra=extra,
            rules=rules_text(found.rules, args.lang),
        ),  # fmt: skip
    ]
    if any(m.source == SRD_SOURCE for m in found.monsters):
        lines.append(_("Monster names are the SRD's, in English.") + " " + SRD_ATTRIBUTION)
    return "\n".join(f"# {line}" for line in lines)


def add_bestiary_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument("--with-srd", action="store_true", help="the SRD's monsters beside CONFIG's")
    p.add_argument("--fp", nargs="+", metavar="FP", default=None, help="power factors (1/4, 5)")
    p.add_argument(
        "--type", nargs="+", dest="types", metavar="TYPE", default=None, help="creature types"
    )
    p.add_argument("--name", default=None, help="a part of the monsters' names")
    p.add_argument("--flagged", action="store_true", help="only the chances that move most")
    p.add_argument(
        "--threshold",
        type=probability,
        default=DEFAULT_THRESHOLD,
        help=f"a chance moving by more than this is flagged (default {DEFAULT_THRESHOLD})",
    )
    switch_defaults(p)


_SHOWN = [
    "name", "fp", "type", "chance", "item", "target_d20", "target_3d6x", "p_d20", "p_3d6x",
    "change", "largest_change", "worst_build", "flagged",
]  # fmt: skip


def run_bestiary(args: argparse.Namespace) -> int:
    """Each monster converted, and the chances that move."""
    refuse_unread(args, "`bestiary`")
    check_unique("--fp", args.fp or (), key=parse_fp)  # 1/2 and 0.5 alike
    check_unique("--type", args.types or (), key=fold_name)  # Dragon and dragon alike
    found = load_bestiary(args.config, args)
    inputs = BestiaryInputs(
        tuple(found.monsters),
        None if args.fp is None else tuple(args.fp),
        None if args.types is None else tuple(args.types),
        args.name,
        args.flagged,
        args.threshold,
        tuple(found.builds) or None,
        found.rules,
    )
    answer = ask("bestiary", inputs)
    frame = answer.tables["bestiary"]
    if args.format != "text":
        emit(answer.csv_table("bestiary"), args.format)
        return 0
    _ = i18n.translator(args.lang)
    extra = _("flagged where a chance moves by more than {t}").format(
        t=Formatter(args.lang, "cli").cell(args.threshold, "gap")
    )
    fmt = Formatter(args.lang, "cli")
    text = fmt.table(answer, "bestiary", columns=_SHOWN)
    text.columns = _SHOWN
    text["flagged"] = ["!" if f else "" for f in frame["flagged"]]
    text["worst_build"] = list(frame["worst_build"])  # translated below
    for col in ("target_d20", "target_3d6x"):  # a monster's attack: each build's own AC, VD
        text[col] = ["" if pd.isna(v) else t for v, t in zip(frame[col], text[col])]
    text["chance"] = [_(CHANCE_LABELS[c]) for c in text["chance"]]
    text.columns = [
        _("monster"), "FP", _("type"), _("chance"), _("attack, DC or save"), _("5e target"),
        _("3d6x target"), "5e", "3d6x", _("mean change"), _("largest change"), _("build"), "!",
    ]  # fmt: skip
    text.iloc[:, 11] = [_(b) for b in text.iloc[:, 11]]
    emit(text, "text", header=_header(_("bestiary"), found, args, extra), lang=args.lang)
    return 0


def add_fp_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument("--with-srd", action="store_true", help="the SRD's monsters beside CONFIG's")
    p.add_argument("--fp", nargs="+", metavar="FP", default=None, help="power factors (1/4, 5)")
    switch_defaults(p)


_FP_SHOWN = [
    "fp", "level", "count", "ac", "vd_flat", "vd_matched", "attack", "attack_flat",
    "attack_matched", "save_dc", "save_dc_flat", "save_dc_matched", "hp",
]  # fmt: skip


#: The medians of ``fp-table``: whole numbers or halves, written with the decimals they need.
_MEDIANS = ("ac", "attack", "save_dc", "hp")


def _median_digits(value: Any) -> int:
    """0 decimals for a whole median (or a missing one), 1 for a half."""
    return 0 if pd.isna(value) or float(value).is_integer() else 1


def run_fp_table(args: argparse.Namespace) -> int:
    """The typical monster of each FP, and its 3d6x numbers."""
    refuse_unread(args, "`fp-table`")
    check_unique("--fp", args.fp or (), key=parse_fp)  # 5 and 05 alike
    found = load_bestiary(args.config, args)
    inputs = FpTableInputs(
        tuple(found.monsters),
        None if args.fp is None else tuple(args.fp),
        tuple(found.builds) or tuple(reference_builds()),
        found.rules,
    )
    answer = ask("fp_table", inputs)
    frame = answer.tables["fp_table"]
    if args.format != "text":
        emit(answer.csv_table("fp_table"), args.format)
        return 0
    _ = i18n.translator(args.lang)
    extra = _(
        "medians of each FP's monsters; flat: VD = AC - 10 + base + WIS, DC - 8 + the 3d6x "
        "save base; matched: the value whose chances are closest to 5e's (least squares over "
        "the builds)"
    )
    sys.stdout.write(_header(_("typical monster by FP"), found, args, extra) + "\n")
    fmt = Formatter(args.lang, "cli")
    text = pd.DataFrame(
        {
            col: [
                # a median is whole or a half: 11, 11.5 (a missing one in words, as every cell)
                fmt.cell(v, answer.kind(col), digits=_median_digits(v) if col in _MEDIANS else None)
                for v in frame[col]
            ]
            for col in _FP_SHOWN
        }
    )
    text.columns = [
        "FP", _("level"), _("monsters"), _("AC (median)"), _("VD flat"), _("VD matched"),
        _("attack (median)"), _("attack flat"), _("attack matched"), _("save DC (median)"),
        _("DC flat"), _("DC matched"), _("HP (median)"),
    ]  # fmt: skip
    emit(text, "text", lang=args.lang)
    return 0


BESTIARY = Command(
    name="bestiary",
    help="the SRD's monsters (or yours) converted to 3d6x, and the chances that move",
    description="Each monster of the SRD 5.1 (or of CONFIG's [[monster]] tables) converted to "
    "3d6x (VD = AC - 10 + defence_base + the WIS term; a save DC of DC - 8 + the 3d6x save base)"
    ", and the change in each chance against the reference builds at the level of its FP: the "
    "builds hit it, each attack hits them, they save against each DC, it saves against theirs; "
    "sorted by the largest change, flagged over --threshold.",
    run=run_bestiary,
    shared=(RULES, output_options),
    add_arguments=add_bestiary_arguments,
)

FP_TABLE = Command(
    name="fp-table",
    help="the typical monster of each power factor, and its 3d6x VD, attack and save DC",
    description="Per power factor, the median AC, attack bonus, save DC and HP of the SRD 5.1's "
    "monsters (or CONFIG's), and the 3d6x VD, attack bonus and save DC that give the reference "
    "builds at that level the same chances as 5e, beside the flat conversion.",
    run=run_fp_table,
    shared=(RULES, output_options),
    add_arguments=add_fp_arguments,
)
