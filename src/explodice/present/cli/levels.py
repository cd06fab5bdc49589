"""``explodice levels``: the builds across levels 1-20: P(success) of each band per level in
3d6x and in d20 (:func:`~explodice.progression`), and the DC of each band per level that keeps
a build on its target (:func:`~explodice.level_dcs`).

    $ explodice levels                                 # the embedded configuration's builds
    $ explodice levels my-game.toml --builds rogue --levels 1-5 10 20
    $ explodice levels --table dcs --targets moderate=0.6 --format csv
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from typing import Any

import pandas as pd

from explodice.analysis.levels import resolve_targets
from explodice.core.errors import ExplodiceError, check_unique
from explodice.core.spreadsheet import to_csv
from explodice.core.words import Phrase
from explodice.game.build import TestChoice, parse_test
from explodice.game.rules import ADVANTAGE_STATES
from explodice.game.tables import DC_TABLES, SYSTEMS
from explodice.present import i18n
from explodice.present.cli.base import Command
from explodice.present.cli.build_options import (
    build_options,
    builds_from,
    config_rules,
    levels_from,
    parse_targets,
    refuse_lucky,
    refuse_ties,
    switch_defaults,
)
from explodice.present.cli.options import config_argument, output_options, rules_options
from explodice.present.cli.output import json_text, percent
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import build_test_label, difficulty_label, rules_text
from explodice.questions.answer import Answer
from explodice.questions.level_dcs import LevelDCsInputs
from explodice.questions.progression import ProgressionInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "TABLES", "load_level_config", "run"]

TABLES = ("progression", "dcs")
#: The marks of a cell of the text grid outside the band's target range.
OUTSIDE = "*"


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    p.add_argument(
        "--tests",
        nargs="+",
        metavar="TEST",
        default=["main"],
        help="the tests: skills, saves or ability checks by name (Stealth, 'DEX save', STR); "
        "'main' (default): each build's main test; 'all': each build's own tests",
    )
    p.add_argument(
        "--systems",
        nargs="+",
        choices=SYSTEMS,
        default=list(SYSTEMS),
        help="3d6x against the game's DC table, d20 against 5e's (default: both)",
    )
    p.add_argument(
        "--targets",
        nargs="+",
        metavar="BAND=P",
        default=None,
        help="target ranges per band, BAND=LOW:HIGH or BAND=P (moderate=0.5:0.9 hard=0.3); "
        "only these bands are shown (default: docs/rules.md's ranges, every band)",
    )
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument(
        "--table",
        choices=TABLES,
        default=None,
        help="one table only: progression (P(success) per level and band) or dcs (the DC per "
        "level and band that keeps each build on target); default both (csv needs one)",
    )
    switch_defaults(p)


def load_level_config(path: str | None, lang: Lang = "en") -> Any:
    """The report configuration at ``path`` (``None``: the embedded one), explodice's own
    names (the default builds: fighter, guerrier) in ``lang``."""
    from explodice.present.config import load_config  # no matplotlib: see report.py

    return load_config(path, lang=lang)


def _tests(args: argparse.Namespace) -> TestChoice:
    """``"main"``, ``None`` (each build's own tests) or the tests named."""
    if args.tests == ["main"]:
        return "main"
    if args.tests == ["all"]:
        return None
    for t in args.tests:
        if t in ("main", "all"):
            raise ExplodiceError(
                Phrase(
                    "`--tests {t}` stands alone: it cannot be mixed with tests named one by one.",
                    t=t,
                )
            )
    tests = [parse_test(t, "--tests") for t in args.tests]
    named = dict(zip(args.tests, tests, strict=True))
    check_unique("--tests", args.tests, key=lambda t: named[t].label)  # Stealth, Discrétion
    return tuple(tests)


def run(args: argparse.Namespace) -> int:
    """Progression and level-based DCs of the configuration's builds."""
    refuse_lucky(args, "levels")
    refuse_ties(args, "levels")
    if args.format == "csv" and args.table is None:
        raise ExplodiceError(
            Phrase("`--format csv` writes one table: add --table progression or --table dcs.")
        )
    config = load_level_config(args.config, args.lang)
    found = builds_from(args, config)
    levels = levels_from(args)
    rules = config_rules(args, config)
    targets = parse_targets(args.targets)
    tests = _tests(args)
    tables: dict[str, pd.DataFrame] = {}
    inputs = ProgressionInputs(
        tuple(found.builds),
        rules,
        tuple(levels),
        tests=tests,
        targets=tuple(targets.items()) if targets is not None else None,
        systems=tuple(s for s in SYSTEMS if s in args.systems),
        advantage=args.advantage,
    )
    if args.table in (None, "progression"):
        answer = ask("progression", inputs)  # computed directly: no grid
        tables["progression"] = answer.csv_table("progression")
        tables["progression"].attrs["targets"] = answer.extra["targets"]
    if args.table in (None, "dcs"):
        # the same seven fields, each read once: the level DCs of the same builds and tests
        dcs = LevelDCsInputs(**{f.name: getattr(inputs, f.name) for f in fields(inputs)})
        dcs_answer = ask("level_dcs", dcs)
        tables["dcs"] = dcs_answer.csv_table("dcs")
    if args.format == "csv":
        to_csv(next(iter(tables.values())), sys.stdout)
        return 0
    if args.format == "json":
        sys.stdout.write(json_text(tables if len(tables) > 1 else tables.popitem()[1]) + "\n")
        return 0
    _ = i18n.translator(args.lang)
    out = [
        "# " + found.note(args.lang, config.source),
        "# "
        + _("rules: {rules}; advantage: {advantage}; exact").format(
            rules=rules_text(rules, args.lang), advantage=_(args.advantage)
        ),
    ]
    if "progression" in tables:
        out += progression_text(tables["progression"], args.lang)
    if "dcs" in tables:
        out += dcs_text(dcs_answer, args.lang)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


# -- text -----------------------------------------------------------------------------------
def _signed(values: Any) -> str:
    """``+5``, or ``+11 (d20 +7)`` where the systems' modifiers differ."""
    mods = dict(values)
    first = next(iter(mods.values()))
    if all(m == first for m in mods.values()):
        return f"{int(first):+d}"
    return " ".join(
        f"{int(m):+d}" if i == 0 else f"(d20 {int(m):+d})" for i, m in enumerate(mods.values())
    )


def _targets_line(targets: dict[str, tuple[float, float]], lang: Lang) -> str:
    _ = i18n.translator(lang)
    parts = [
        f"{difficulty_label(b, lang)} {i18n.number(100 * lo, lang, 0)}-{percent(hi, lang, 0)}"
        for b, (lo, hi) in targets.items()
    ]
    return _("target ranges: {ranges}; {mark} outside its band's range").format(
        ranges=", ".join(parts), mark=OUTSIDE
    )


def progression_text(frame: pd.DataFrame, lang: Lang) -> list[str]:
    """One grid per build and test: a row per level, a column per band and system."""
    _ = i18n.translator(lang)
    fmt = Formatter(lang, "cli")
    bands = list(dict.fromkeys(frame.difficulty))
    systems = list(dict.fromkeys(frame.system))
    targets = resolve_targets(frame.attrs.get("targets"))
    out = [
        "",
        "# "
        + _("P(success) by level and band, exact: {tables}").format(
            tables="; ".join(
                _("{system} against DC {dcs}").format(
                    system=s, dcs=" ".join(str(DC_TABLES[s][b]) for b in bands)
                )
                for s in systems
            )
        ),
        "# " + _targets_line({b: targets[b] for b in bands}, lang),
    ]
    for (build, test), rows in frame.groupby(["build", "test"], sort=False):
        first = rows.iloc[0]
        name = build_test_label(str(test), first.kind, first.ability, lang)
        cells = {}
        for level, at in rows.groupby("level", sort=False):
            row: dict[Any, str] = {
                ("", _("modifier")): _signed(at.groupby("system", sort=False).modifier.first())
            }
            for r in at.to_dict("records"):
                text = fmt.cell(r["p"], "probability")
                row[difficulty_label(r["difficulty"], lang), r["system"]] = text + (
                    "" if r["in_target"] else OUTSIDE
                )
            cells[level] = row
        grid = pd.DataFrame.from_dict(cells, orient="index")
        order = [("", _("modifier"))] + [
            (difficulty_label(b, lang), s) for b in bands for s in systems
        ]
        grid = grid[order]
        grid.columns = pd.MultiIndex.from_tuples(order)
        grid.index.name = _("level")
        out += ["", "## " + _("{build}: {test}").format(build=build, test=name), grid.to_string()]
    return out


def dcs_text(answer: Answer, lang: Lang) -> list[str]:
    """One table per build, test and system of the ``level_dcs`` answer: the DC of each band
    per level, then the single flat table and the printed one, the target and each table's
    worst miss (each cell by its column's kind: a miss of exactly 0 is 0%, one that rounds to
    it < 0.1%)."""
    _ = i18n.translator(lang)
    fmt = Formatter(lang, "cli")
    prov = answer.provenance
    frame = answer.tables["dcs"]

    def cells(values: Any, col: str) -> list[str]:
        kind = answer.kind(col)
        return [fmt.cell(v, kind, exact=prov.exact, cut=prov.cut) for v in values]

    out = [
        "",
        "# "
        + _(
            "the DC per level and band whose P(success) is closest to the band's target "
            "(ties: the higher DC); flat: the one DC for every level with the smallest worst "
            "miss; typical: the printed table"
        ),
    ]
    for (build, test, system), rows in frame.groupby(["build", "test", "system"], sort=False):
        bands = list(dict.fromkeys(rows.difficulty))
        heads = [difficulty_label(b, lang) for b in bands]
        by = {t: part for t, part in rows.groupby("table", sort=False)}
        lines: dict[str, list[str]] = {}
        for level, part in by["level"].groupby("level", sort=False):
            lines[str(level)] = cells(part.set_index("difficulty").dc[bands], "dc")
        for table in ("flat", "typical"):
            first = by[table].drop_duplicates("difficulty").set_index("difficulty")
            lines[_(table)] = cells(first.dc[bands], "dc")
        first = by["level"].drop_duplicates("difficulty").set_index("difficulty")
        lines[_("target")] = cells(first.target[bands], "target")
        for table in ("level", "flat", "typical"):
            worst = by[table].drop_duplicates("difficulty").set_index("difficulty")
            label = _("worst miss: {table}").format(
                table=_("per level") if table == "level" else _(table)
            )
            lines[label] = cells(worst.worst_miss[bands], "worst_miss")
        grid = pd.DataFrame.from_dict(lines, orient="index", columns=heads)
        grid.index.name = _("level")
        name = build_test_label(str(test), *_kind_of(frame, str(build), str(test)), lang)
        mods = rows[rows.table == "level"].drop_duplicates("level").modifier
        out += [
            "",
            "## "
            + _("{build}: {test}, {system} (modifier {lo:+d} to {hi:+d})").format(
                build=build, test=name, system=system, lo=int(mods.min()), hi=int(mods.max())
            ),
            grid.to_string(),
        ]
    return out


def _kind_of(frame: pd.DataFrame, build: str, test: str) -> tuple[str, str]:
    """The kind and ability of a test of the DC table, read from its name."""
    t = parse_test(test)
    return t.kind, t.ability


COMMAND = Command(
    name="levels",
    help="builds across levels 1-20: success per band, DCs per level",
    description="For the configuration's builds (its [[build]] tables, else the reference "
    "builds): P(success) of each difficulty band at each level, in 3d6x against the game's DC "
    "table and in d20 against 5e's, marked where it leaves the band's target range; and the DC "
    "of each band at each level that keeps the build on its target, with the single flat "
    "table and the printed one. Rules: the configuration's, each switch given here replacing "
    "its value. Text shows a level x band grid per build; csv/json the tidy rows.",
    run=run,
    shared=(build_options, rules_options, output_options),
    add_arguments=add_arguments,
)
