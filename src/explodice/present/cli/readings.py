"""``explodice readings``: which readings matter. Every switch of the rules moved to each of
its other values, one at a time, and the largest change it makes in the numbers a designer
balances with (:func:`~explodice.sensitivity`), ranked.

    $ explodice readings                                  # the embedded party and day
    $ explodice readings my-game.toml --day-method simulate --days 20000 --seed 1
    $ explodice readings --parts dc_table hiding haggle --modifiers 0 4 --dc 12 16 --lang fr
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from explodice.analysis.sensitivity import DAY_METHODS, PARTS
from explodice.core.errors import ExplodiceError, check_unique
from explodice.core.words import Phrase
from explodice.game.rules import ADVANTAGE_STATES, KINDS, parse_policy
from explodice.present import i18n
from explodice.present.answers import readings_inputs
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DAYS,
    DC,
    MODIFIER,
    RULES_SWITCHES,
    SEED,
    config_argument,
    config_rules,
    output_options,
    policy,
    refuse,
    rules_options,
    switch_defaults,
)
from explodice.present.cli.output import emit
from explodice.present.i18n import Lang
from explodice.present.labels import rules_text
from explodice.present.readings import (
    PART_NAMES,
    readings_csv,
    readings_frame,
    text_table,
)
from explodice.questions.readings import ReadingsInputs, with_attrs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

#: The tables of the result (``Sensitivity.to_frame``): one row per switch and value, every
#: cell, or the largest and mean change per part and measure.
SHOWN = ("table", "detail", "by_measure")
#: Lucky on the DC table's grid: without it, and with it (Reroll('one')).
REROLLS = {"none": None, "lucky": "one"}
#: The grid's options that take one or more of their values (default: every one).
GRID_CHOICES = (
    ("--states", ADVANTAGE_STATES, "advantage states (default: all three)"),
    ("--kinds", KINDS, "kinds of roll (default: all four, so that the rule of 1's kinds show)"),
    (
        "--rerolls",
        tuple(REROLLS),
        "rolls without Lucky and with it (default: both, so that --lucky-timing shows)",
    ),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    config_argument(p)
    g = p.add_argument_group("what is measured")
    g.add_argument(
        "--parts",
        nargs="+",
        choices=PARTS,
        default=None,
        help="the parts to compute (default: every part; party and day from the configuration)",
    )
    g.add_argument(
        "--switches",
        nargs="+",
        choices=[s.field for s in RULES_SWITCHES],
        default=None,
        metavar="SWITCH",
        help="the switches to move (default: every one)",
    )
    g.add_argument(
        "--day-method",
        choices=DAY_METHODS,
        default="exact",
        help="the day: exact (a day the exact engine refuses is simulated with --days and "
        "--seed), simulate, or none (no day) (default: exact)",
    )
    g.add_argument(
        "--days",
        type=DAYS,
        default=None,
        help="days of each simulated day (default: the configuration's [simulation] days)",
    )
    g.add_argument(
        "--seed", type=SEED, default=None, help="seed of the days (default: the configuration's)"
    )
    g = p.add_argument_group("the DC table's grid")
    g.add_argument(
        "--modifiers",
        type=MODIFIER,
        nargs="+",
        default=None,
        help="modifiers (default: the configuration's [table] modifiers)",
    )
    g.add_argument("--dc", type=DC, nargs="+", default=None, help="DCs (default: the DC table)")
    for flag, values, what in GRID_CHOICES:  # each one or more of its values, all by default
        g.add_argument(flag, nargs="+", choices=values, default=list(values), help=what)
    g.add_argument(
        "--policies",
        nargs="+",
        type=policy,
        default=["keep", "cancel"],
        help="rule-of-1 policies: keep, cancel, best:λ (against each cell's DC) "
        "(default: keep cancel)",
    )
    p.add_argument(
        "--show",
        choices=SHOWN,
        default="table",
        help="one row per switch and value (default), every cell (detail), or per part and "
        "measure (by_measure)",
    )
    switch_defaults(p)  # a switch given here replaces the configuration's


#: The options of the grid and of the day, and the parts that read each: one given where no
#: part chosen reads it is refused (``--parts haggle --dc 12``: haggling has its own DC).
READ_BY = {
    "--modifiers": ("dc_table", "hiding", "haggle", "attack"),
    "--dc": ("dc_table", "party", "hiding"),
    "--states": ("dc_table", "party", "attack"),
    "--kinds": ("dc_table",),
    "--rerolls": ("dc_table",),
    "--policies": ("dc_table", "attack"),
    "--days": ("day",),
    "--seed": ("day",),
}
#: How two values of an option are the same value (a duplicate is refused).
SAME_AS = {"--policies": lambda text: parse_policy(text, dc=0)}


def _check_options(args: argparse.Namespace, config: Any) -> None:
    """Refuse a value given twice, and an option that none of the parts computed reads."""
    for flag in ("--parts", "--switches", *READ_BY):
        values = getattr(args, flag.removeprefix("--"))
        if values is not None and flag not in ("--days", "--seed"):
            check_unique(flag, values, key=SAME_AS.get(flag))
    if args.day_method == "none":
        for flag, value in (("--days", args.days), ("--seed", args.seed)):
            if value is not None:
                raise ExplodiceError(
                    Phrase("`{flag}` sets the day, and `--day-method none` has none.", flag=flag)
                )
    available = {"dc_table", "hiding", "haggle", "attack"}
    available |= {"party"} if getattr(config, "party", None) else set()
    available |= {"day"} if getattr(config, "day", None) and args.day_method != "none" else set()
    parts = args.parts or sorted(available)
    if "day" not in parts and args.day_method != "none":
        refuse(
            args,
            ("--day-method",),
            Phrase(
                "applies only to the part day, and this run computes {parts}.",
                parts=", ".join(parts),
            ),
        )
    for flag, readers in READ_BY.items():
        if not any(p in readers for p in parts):
            refuse(
                args,
                (flag,),
                Phrase(
                    "applies only to the parts {readers}, and this run computes {parts}.",
                    readers=", ".join(readers),
                    parts=", ".join(parts),
                ),
            )


def run(args: argparse.Namespace) -> int:
    """Which readings matter: the sensitivity table, ranked."""
    from explodice.present.config import load_config  # matplotlib: only when run

    config = load_config(args.config)
    rules = config_rules(args, config)
    _check_options(args, config)
    inputs = readings_inputs(
        config,
        rules=rules,
        switches=_opt(args.switches),
        modifiers=_opt(args.modifiers) or tuple(config.modifiers),
        dcs=_opt(args.dc),
        advantages=tuple(s for s in ReadingsInputs.advantages if s in args.states),
        kinds=tuple(args.kinds),
        policies=tuple(args.policies),
        rerolls=tuple(REROLLS[r] for r in args.rerolls),
        parts=_opt(args.parts),
        day_method=args.day_method,
        n_days=args.days if args.days is not None else config.days,
        seed=args.seed if args.seed is not None else config.seed,
    )
    answer = ask("readings", inputs)
    name = {"table": "table", "detail": "detail", "by_measure": "by_measure"}[args.show]
    if args.format != "text":
        emit(readings_csv(answer, name), args.format)
        return 0
    s = _Attrs(with_attrs(answer, "table"))
    frame = with_attrs(answer, name)
    lang = args.lang
    _ = i18n.translator(lang)
    if args.show != "table":  # long tables: the language's numbers and headers
        emit(frame, "text", header=header(s, config, rules, lang), lang=lang)
        return 0
    shown = readings_frame(
        s.table, answer.tables["largest"], lang, rules=rules, day=config.day, minus="-"
    )  # the command line's minus, as every command writes it
    out = sys.stdout
    out.write(header(s, config, rules, lang) + "\n")
    out.write(text_table(shown, lang).to_string(index=False) + "\n")
    notes = [(r["reading"], r["note"]) for r in shown.to_dict("records") if r["note"]]
    if notes:
        out.write("# " + _("not computed:") + "\n")
        out.write("".join(f"#   {reading}: {note}\n" for reading, note in notes))
    return 0


class _Attrs:
    """The readings' table, as :func:`header` reads it (``s.table.attrs``)."""

    def __init__(self, table: Any) -> None:
        self.table = table


def _opt(values: Any) -> Any:
    return None if values is None else tuple(values)


def header(s: Any, config: Any, rules: Any, lang: Lang) -> str:
    """The lines above the table: the rules it moved from, the parts and how the day was
    computed, the grid, the time it took."""
    _ = i18n.translator(lang)
    a = s.table.attrs
    day = a["method"].get("day")
    parts = ", ".join(_(PART_NAMES[p]) for p in a["parts"])
    lines = [
        _("which readings matter: each switch moved alone, against {rules}").format(
            rules=rules_text(rules, lang)
        ),
        _("parts: {parts}; configuration: {source}; {seconds} s").format(
            parts=parts, source=_(config.source), seconds=i18n.number(a["seconds"], lang, 1)
        ),
    ]
    if day:
        methods = list(dict.fromkeys(m.split(" ")[0] for m in day))  # each once, in order
        name, how = _(a["scenario"] or "a day"), ", ".join(_(m) for m in methods)
        if "simulate" in methods:
            line = _("the day “{name}”: {how}; {days} days and seed {seed} where simulated")
        else:
            line = _("the day “{name}”: {how}")
        lines.append(
            line.format(
                name=name,
                how=how,
                days=i18n.number(a["n_days"], lang, 0) if a["n_days"] else "—",
                seed=a["seed"] if a["seed"] is not None else "—",
            )
        )
    if "dc_table" in a["parts"] or "hiding" in a["parts"] or "haggle" in a["parts"]:
        lines.append(
            _("grid: modifiers {modifiers}; DCs {dcs}; {states}; {kinds}; {policies}").format(
                modifiers=" ".join(f"{m:+d}" for m in a["modifiers"]),
                dcs=" ".join(map(str, a["dcs"])),
                states=", ".join(_(x) for x in a["advantages"]),
                kinds=", ".join(_(x) for x in a["kinds"]),
                policies=", ".join(_(x) if x in ("keep", "cancel") else x for x in a["policies"])
                + (", " + _("with and without Lucky") if len(a["rerolls"]) > 1 else ""),
            )
        )
    lines.append(_("largest change: of any probability, in percentage points, where it is largest"))
    return "\n".join("# " + line for line in lines)


COMMAND = Command(
    name="readings",
    help="which readings matter: each rules switch moved alone, ranked",
    description="Every switch of the rules moved to each of its other values, one at a time, "
    "against CONFIG's rules (default: the embedded configuration, its party and day; a switch "
    "given here replaces the configuration's): the largest change in P(success) on the DC "
    "table, E[drain] per roll, the party's tests, the day's P(gauge empty) and expected "
    "successes, P(hidden) and P(noticed), one row per switch and value, ranked.",
    run=run,
    shared=(functools.partial(rules_options, None, lucky="own"), output_options),
    add_arguments=add_arguments,
)
