"""``explodice size-gauges``: the gauge maxima each build needs so that a gauge empties before
the long rest on at most ``--risk`` of the days, level by level, by the exact day
(:func:`~explodice.size_gauges`), against what the builds have.

    $ explodice size-gauges --risk 0.1                 # each build alone, 12 rolls at DC 16
    $ explodice size-gauges my-game.toml --day party --character fighter=Gudulf
    $ explodice size-gauges --day my-day.toml --builds mage --levels 1 5 10 --format csv
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pandas as pd

from explodice.analysis.levels import DAY_ROLLS
from explodice.core.errors import ExplodiceError, listed, shown
from explodice.core.words import Phrase
from explodice.day.scenario import Scenario, load_scenario
from explodice.game.character import GAUGES
from explodice.game.tables import DC_TABLES
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.build_options import (
    build_options,
    builds_from,
    config_rules,
    executor_from,
    grid_options,
    levels_from,
    parse_band,
    probability,
    refuse_lucky,
    refuse_ties,
    switch_defaults,
)
from explodice.present.cli.levels import load_level_config
from explodice.present.cli.numbers import integer
from explodice.present.cli.options import config_argument, output_options, rules_options
from explodice.present.cli.output import emit, percent
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import difficulty_label, rules_text
from explodice.questions.gauge_sizing import SizingInputs
from explodice.questions.registry import ask
from explodice.sweeps.levels import SIZING_RISK

__all__ = ["COMMAND", "run"]

#: The rolls a day may hold (the exact day's cost grows with them).
DAY_ROLLS_MAX = 1000
_BUILD_DAY = {"rolls_per_day": "--rolls-per-day", "difficulty": "--difficulty"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument(
        "--risk",
        type=probability,
        default=SIZING_RISK,
        help="the largest share of days on which a gauge may empty before the long rest "
        f"(default {SIZING_RISK})",
    )
    p.add_argument(
        "--day",
        default="build",
        metavar="DAY",
        help="the day: 'build' (default: each build alone, --rolls-per-day rolls of its "
        "proficient skills and saves at the --difficulty DC), 'party' (the configuration's "
        "[day], the build in its character's place: --character) or a scenario TOML file",
    )
    p.add_argument(
        "--rolls-per-day",
        type=integer(1, DAY_ROLLS_MAX),
        default=None,
        help=f"rolls of the build's day (default {DAY_ROLLS})",
    )
    p.add_argument(
        "--difficulty",
        default=None,
        metavar="BAND",
        help="the band of the build's day's DC (default moderate: DC 16)",
    )
    p.add_argument(
        "--character",
        nargs="+",
        default=None,
        metavar="NAME",
        help="whose place the builds take in a party or file day: NAME for every build, or "
        "BUILD=NAME for each (default: the character with the build's name, else the day's "
        "only PC)",
    )
    p.add_argument(
        "--gauges",
        nargs="+",
        choices=GAUGES,
        default=None,
        help="the gauges to size (default: those the day's rolls drain)",
    )
    switch_defaults(p)


def _characters(items: list[str] | None) -> str | dict[str, str] | None:
    if items is None:
        return None
    pairs = [i.partition("=") for i in items]
    if len(items) == 1 and not pairs[0][1]:
        return items[0]
    if not all(sep and name and who for name, sep, who in pairs):
        raise ExplodiceError(
            Phrase(
                "`--character` takes one NAME for every build, or BUILD=NAME items, "
                "but {items} was passed.",
                items=shown(items),
            )
        )
    return {name: who for name, _, who in pairs}


def _the_day(args: argparse.Namespace, config: Any) -> Scenario | None:
    """``None`` (each build's own day), the configuration's day, or a scenario file's."""
    given = [flag for name, flag in _BUILD_DAY.items() if getattr(args, name) is not None]
    if args.day == "build":
        if args.character is not None:
            raise ExplodiceError(
                Phrase(
                    "`--character` places the builds in a party day; the build's own day "
                    "(--day build) has no one else: use --day party or --day FILE.toml."
                )
            )
        return None
    if given:
        raise ExplodiceError(
            Phrase(
                "`{given}` sets the build's own day (--day build); with --day {day} "
                "the rolls and DCs are the day's.",
                given=given[0],
                day=args.day,
            )
        )
    if args.day == "party":
        if config.day is None or not config.day.rolls:
            raise ExplodiceError(
                Phrase(
                    "`--day party`: the configuration {source} has no [day] with rolls.",
                    source=config.source,
                )
            )
        return config.day
    return load_scenario(args.day)


def _check_places(day: Scenario, builds: Any, character: Any) -> None:
    """Each build must know whose rolls it makes in a day of several PCs (refused here, in the
    command line's words, before any case runs)."""
    names = [c.name for c in day.characters]
    pcs = [c.name for c in day.characters if c.actor == "pc"]
    for b in builds:
        who = character if isinstance(character, str) else (character or {}).get(b.name)
        if who is None and b.name not in names and len(pcs) != 1:
            raise ExplodiceError(
                Phrase(
                    "`--character` must say whose place build {name!r} takes in the day "
                    "{name2!r} (its PCs: {pcs}): NAME for every build, or BUILD=NAME.",
                    name=b.name,
                    name2=day.name,
                    pcs=listed(pcs),
                )
            )
        if who is not None and who not in names:
            raise ExplodiceError(
                Phrase(
                    "`--character` must name a character of the day {name!r} {names}, "
                    "but {who} was passed.",
                    name=day.name,
                    names=listed(names),
                    who=shown(who),
                )
            )


def run(args: argparse.Namespace) -> int:
    """The gauge maxima the builds need, level by level, against what they have."""
    refuse_lucky(args, "size-gauges")
    refuse_ties(args, "size-gauges")
    if not 1e-9 <= args.risk < 1:
        raise ExplodiceError(
            Phrase(
                "`--risk` must be a probability in [1e-9, 1), but {risk!r} was passed.",
                risk=args.risk,
            )
        )
    config = load_level_config(args.config, args.lang)
    found = builds_from(args, config)
    levels = levels_from(args)
    rules = config_rules(args, config)
    day = _the_day(args, config)
    character = _characters(args.character)
    if isinstance(character, dict):
        extra = [k for k in character if k not in found.names]
        if extra:
            raise ExplodiceError(
                Phrase(
                    "`--character` must map the builds {names} to characters, but "
                    "{extra} is not one of them.",
                    names=listed(found.names),
                    extra=shown(extra[0]),
                )
            )
    if day is not None:
        _check_places(day, found.builds, character)
    inputs = SizingInputs(
        tuple(found.builds),
        rules,
        day=day,
        risk=args.risk,
        levels=tuple(levels),
        character=tuple(character.items()) if isinstance(character, dict) else character,
        gauges=tuple(args.gauges) if args.gauges is not None else None,
        rolls_per_day=args.rolls_per_day or DAY_ROLLS,
        difficulty=parse_band(
            "moderate" if args.difficulty is None else args.difficulty, "--difficulty"
        ),
    )
    answer = ask("gauge_sizing", inputs, **executor_from(args))
    frame = answer.csv_table("gauges")
    _ = i18n.translator(args.lang)
    header = [
        "# " + found.note(args.lang, config.source),
        "# " + _day_line(args, day, config),
        "# "
        + _(
            "needed: the smallest maximum whose P(empty before the long rest) <= {risk}, by "
            "the exact day; each gauge sized alone (its own drains: the excess of another gauge "
            "that empties is not poured into it); the build starts the day full; rules: {rules}"
        ).format(risk=percent(args.risk, args.lang), rules=rules_text(rules, args.lang)),
    ]
    if args.format != "text":
        emit(frame, args.format)
        return 0
    if frame.empty:
        header.append(
            "# "
            + _("no roll of the builds' days drains a gauge under these rules: nothing to size")
        )
    sys.stdout.write("\n".join(header + _text(answer, args.lang)) + "\n")
    return 0


def _day_line(args: argparse.Namespace, day: Scenario | None, config: Any) -> str:
    _ = i18n.translator(args.lang)
    if day is None:
        band = parse_band(
            "moderate" if args.difficulty is None else args.difficulty, "--difficulty"
        )
        return _(
            "day: each build alone, {rolls} rolls a day drawn from its proficient skills "
            "(weight 3) and saves (weight 1), all at DC {dc} ({band}), the same at every "
            "level; for the configuration's day: --day party --character BUILD=NAME"
        ).format(
            rolls=args.rolls_per_day or DAY_ROLLS,
            dc=DC_TABLES["3d6x"][band],
            band=difficulty_label(band, args.lang),
        )
    source = _("the configuration's [day]") if args.day == "party" else args.day
    return _(
        "day: {name} ({source}), {rolls} rolls; each build plays its character's rolls, the "
        "others' rolls stay in the day"
    ).format(name=day.name, source=source, rolls=day.n_rolls)


def _text(answer: Any, lang: Lang) -> list[str]:
    """One table per build: a row per level, for each gauge its need and what it has; above
    it, per gauge, the least maximum base + points x level meeting every level."""
    _ = i18n.translator(lang)
    frame = answer.tables["gauges"]
    lines = answer.tables["lines"]
    fmt = Formatter(lang, "cli")
    out = []
    heads = {
        "needed": _("needed"),
        "risk": _("P(empty)"),
        "have": _("has"),
        "risk_have": _("P(empty) with it"),
    }
    for build, rows in frame.groupby("build", sort=False):
        gauges = list(dict.fromkeys(rows.gauge))
        cells: dict[int, dict[tuple[str, str], str]] = {}
        for r in rows.to_dict("records"):
            row = cells.setdefault(int(r["level"]), {})
            gauge = r["gauge"]
            row[gauge, heads["needed"]] = str(r["needed"])
            row[gauge, heads["risk"]] = fmt.cell(r["risk"], "probability")
            row[gauge, heads["have"]] = str(r["have"]) + ("" if r["meets"] else " *")
            row[gauge, heads["risk_have"]] = fmt.cell(r["risk_have"], "probability")
        grid = pd.DataFrame.from_dict(cells, orient="index")
        order = [(g, h) for g in gauges for h in heads.values()]
        grid = grid[order]
        grid.columns = pd.MultiIndex.from_tuples(order)
        grid.index.name = _("level")
        needs = [
            "# "
            + _(
                "{gauge}: needs {first} at level {a} and {last} at level {b} (at most {top}); "
                "the least maximum meeting every level is {base} + {per} per level; the build "
                "has {have_first} at level {a}, {have_last} at level {b}"
            ).format(
                gauge=r.gauge,
                first=r.need_first,
                last=r.need_last,
                top=r.need_max,
                a=int(rows.level.min()),
                b=int(rows.level.max()),
                base=r.line_base,
                per=r.line_per_level,
                have_first=r.have_first,
                have_last=r.have_last,
            )
            for r in lines[lines.build == build].itertuples()
        ]
        who = rows.character.iloc[0]
        place = "" if who == build else " " + _("(in {name}'s place)").format(name=who)
        out += [
            "",
            f"## {build}{place}",
            *needs,
            "# " + _("* the build's maximum falls short of the need at that level"),
            grid.to_string(),
        ]
    return out


COMMAND = Command(
    name="size-gauges",
    help="the gauge points each build needs per level, at a risk",
    description="For the configuration's builds (its [[build]] tables, else the reference "
    "builds): at each level, the smallest maximum of each gauge the day drains such that it "
    "empties before the long rest on at most --risk of the days (the exact day, not sampled), "
    "the build's own maximum and its risk, and the points per level that meet the need at "
    "every level. The day is each build's own (--day build, the default) unless --day party "
    "(the configuration's [day]) or --day FILE.toml is given. Text shows a table per build; "
    "csv/json the tidy rows.",
    run=run,
    shared=(build_options, rules_options, grid_options, output_options),
    add_arguments=add_arguments,
)
