"""``explodice compare``: 3d6x against d20, each d20 DC's equivalent 3d6x DC.

$ explodice compare -m 4
$ explodice compare --profiles novice=0 trained=4
"""

from __future__ import annotations

import argparse

import pandas as pd

from explodice.core.errors import ExplodiceError, shown
from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, Roll
from explodice.game.tables import PROFILES
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    MODIFIER,
    output_options,
    refuse,
    refuse_unread_readings,
    reroll_from,
    rules_from,
    rules_options,
)
from explodice.present.cli.output import emit
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.questions.compare import CompareInputs
from explodice.questions.registry import ask

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
    refuse(
        args,
        ("--rule-of-one", "--ones-on-explosions", "--close-contest"),
        Phrase(
            "changes the drain or settles ties by bids, and equivalent DCs read "
            "neither: they match P(total >= DC), whose 1s are kept."
        ),
    )
    reroll = reroll_from(args, None)  # --lucky: each roll's Reroll('one'), in both systems
    lang = args.lang
    _ = i18n.translator(lang)
    lucky = ", " + _("Lucky") if reroll is not None else ""
    # every roll of the table shares the advantage and the reroll: one stands for them
    refuse_unread_readings(args, [Roll(0, advantage=args.advantage, reroll=reroll)], rules)
    if args.modifier is not None:
        refuse(
            args,
            ("--profiles", "--reference"),
            Phrase(
                "maps the table of profiles; with --modifier `compare` maps that one "
                "roll (drop --modifier for the profiles' table)."
            ),
        )
        profiles: tuple[tuple[str, int], ...] = (("roll", args.modifier),)
    else:
        pairs = [profile(p) for p in args.profiles]
        if len(dict(pairs)) < len(pairs):
            names = [name for name, _m in pairs]
            twice = next(n for n in names if names.count(n) > 1)
            raise ExplodiceError(
                Phrase(
                    "`--profiles` names {twice} twice; give each profile once.", twice=shown(twice)
                )
            )
        profiles = tuple(pairs)
    inputs = CompareInputs(profiles, rules, args.reference, args.advantage, reroll is not None)
    answer = ask("compare", inputs)
    how = method_text(answer.provenance, lang)
    if args.modifier is not None:
        name, hidden = "equivalent", ["profile", "modifier"]
        header = "# " + _(
            "equivalent DCs, d20 -> 3d6x, modifier {modifier}, {advantage}{lucky}; {method}"
        ).format(
            modifier=f"{args.modifier:+d}", advantage=_(args.advantage), lucky=lucky, method=how
        )
        header += _shared(answer.tables[name], lang)
    else:
        name, hidden = "table", []
        header = "# " + _(
            "the d20 DC table mapped onto 3d6x for {reference}, {advantage}{lucky}; {method}"
        ).format(
            reference=_(answer.extra["reference"]),
            advantage=_(args.advantage),
            lucky=lucky,
            method=how,
        )
    frame = answer.csv_table(name).drop(columns=hidden)
    shown_columns = [c for c in answer.tables[name].columns if c not in hidden]
    fmt = Formatter(lang, "cli")
    text = fmt.table(answer, name, shown_columns)
    # a d20 DC the roll always reaches: any 3d6x DC up to the one found, said in words
    shown_table = answer.tables[name]
    text[fmt.header("dc_3d6x")] = [
        fmt.equivalent_dc(dc, note) for dc, note in zip(shown_table.dc_3d6x, shown_table.note)
    ]
    emit(frame, args.format, text=text, header=header, lang=lang)
    return 0


def _shared(frame: pd.DataFrame, lang: Lang) -> str:
    """Lines under the header when d20 DCs this roll cannot tell apart share a 3d6x DC."""
    _ = i18n.translator(lang)
    lines = []
    for note, rows in frame[frame.note != ""].groupby("note", sort=False):
        if len(rows) > 1:
            dcs = _(" and ").join(str(dc) for dc in rows.d20_dc)
            text = (
                _(
                    "d20 DCs {dcs} are certain for this roll: 3d6x matches them all with {dc} "
                    "(the error of the match in `gap`); `explodice compare` without --modifier "
                    "matches each on a profile that reaches it"
                )
                if note == "certain in d20"
                else _(
                    "d20 DCs {dcs} are impossible for this roll: no 3d6x DC is equivalent "
                    "(3d6x is never impossible above its minimum); `explodice compare` "
                    "without --modifier matches each on a profile that reaches it"
                )
            )
            dc = Formatter(lang, "cli").equivalent_dc(rows.dc_3d6x.iloc[0], str(note))
            lines.append("\n# " + text.format(dcs=dcs, dc=dc))
    return "".join(lines)


def profile(text: str) -> tuple[str, int]:
    """``NAME=MODIFIER`` as a pair, or the error naming ``--profiles``."""
    name, sep, value = text.partition("=")
    try:
        if not sep or not name:
            raise argparse.ArgumentTypeError(text)
        return name, MODIFIER(value)
    except argparse.ArgumentTypeError:
        raise ExplodiceError(
            Phrase(
                "`--profiles` must be NAME=MODIFIER items (e.g. trained=4), but {text} was passed.",
                text=shown(text),
            )
        ) from None


COMMAND = Command(
    name="compare",
    help="3d6x against d20: equivalent DCs",
    description="With --modifier: for each d20 DC, the 3d6x DC with the "
    "closest odds. Otherwise the d20 DC table mapped onto 3d6x "
    "for a reference profile, with every profile's odds.",
    run=run,
    shared=(rules_options, output_options),
    add_arguments=add_arguments,
)
