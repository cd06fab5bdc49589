"""``explodice day``: gauges over an adventuring day. A scenario file computed exactly as a
Markov chain (the question ``day``, as the report's page and the explorer compute it; with
``--simulate``, or ``--days``/``--seed``, sampled), or without one: after how many rolls one
gauge first reaches 0, repeating one roll.

    $ explodice day --gauge 20 -m 2 --dc 16 --policy best:0.05
    $ explodice day --write-default-scenario my-scenario.toml
    $ explodice day my-scenario.toml --table empty
    $ explodice day my-scenario.toml --simulate --days 100000 --table drain
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from explodice.analysis.sensitivity import day_blind_spot
from explodice.core.errors import ExplodiceError, check_choice, shown
from explodice.core.files import atomic_write_text
from explodice.core.words import Phrase
from explodice.day.first_passage import rolls_to_empty
from explodice.day.scenario import load_scenario
from explodice.day.simulate import simulate_day
from explodice.game.rules import Roll
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.cli.base import Command, Output
from explodice.present.cli.options import (
    DAYS,
    DC,
    FORCE_HELP,
    GAUGE,
    MODIFIER,
    given,
    output_options,
    progress,
    refuse,
    refuse_unread_readings,
    reroll_from,
    resolve_policy,
    roll_options,
    rules_from,
    rules_options,
    sampling_options,
)
from explodice.present.cli.output import emit, percent
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import roll_label, rules_text
from explodice.questions.answer import METHODS, Method
from explodice.questions.day import DayInputs
from explodice.questions.registry import ask

__all__ = ["COMMAND", "run"]

TEXT_FLOOR = 1e-9  # an exact distribution's rows below this stay out of a text table
TABLES = ("gauges", "first_empty", "empty", "success", "roll_types", "drain", "lost")

# options of `day` that set its repeated roll (no scenario), those of a simulated day, and
# the switches that only a party's gauges can show (one roll drains one gauge: nothing
# overflows, and the roll's gauge is the one counted)
_ONE_ROLL = (
    "--modifier",
    "--dc",
    "--gauge",
    "--advantage",
    "--kind",
    "--policy",
    "--reroll-on-failure",
    "--lucky",
)
_SAMPLING = ("--days", "--seed", "--threads")
_PARTY_SWITCHES = ("--overflow", "--drain-gauge")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", nargs="?", default=None, help="a scenario TOML file")
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0)
    p.add_argument("--dc", type=DC, default=16)
    p.add_argument("--gauge", type=GAUGE, default=20, help="gauge points (default 20)")
    p.add_argument("--days", type=DAYS, default=100_000, help="days to simulate (default 100,000)")
    p.add_argument(
        "--table",
        default="gauges",
        choices=TABLES,
        help="which table of a scenario's results to print",
    )
    p.add_argument(
        "--write-default-scenario",
        metavar="FILE",
        help="write a commented copy of the default scenario (the report's party and day) "
        "to FILE, and stop",
    )
    p.add_argument(
        "--force", action="store_true", help=FORCE_HELP.format(flag="--write-default-scenario")
    )
    p.set_defaults(method=None)  # a scenario: exact unless --simulate (or --days, --seed)


def run(args: argparse.Namespace) -> int:
    """Gauges over a day: a scenario file simulated, or rolls until one gauge is empty."""
    if args.write_default_scenario is not None:
        return _write_default_scenario(args)
    refuse(
        args,
        ("--force",),
        Phrase("replaces the file of --write-default-scenario; `day` writes no other."),
    )
    if args.actor == "npc":  # an NPC drains nothing: no gauge of its would ever empty
        raise ExplodiceError(
            Phrase(
                "`--actor npc` does not apply to `day`: an NPC's rolls drain no "
                'gauge; in a scenario, set actor = "npc" on its [[character]].'
            )
        )
    _options_apply(args)
    if args.scenario is None:
        return _rolls_to_empty(args)
    scenario = load_scenario(args.scenario)
    rules = rules_from(args)
    _playable(scenario, rules)
    if args.table in ("drain", "lost"):  # the distributions of a day's totals: this command's
        return _totals(args, scenario, rules)
    inputs = DayInputs(scenario, rules, _method(args), args.days, args.seed)
    answer = ask("day", inputs)
    table = args.table
    frame = answer.csv_table(table)
    if args.format != "text":
        emit(frame, args.format)
        return 0
    lang = args.lang
    header = "# " + i18n.semicolons(
        [i18n.say(scenario.said(), lang), method_text(answer.provenance, lang)], lang
    )
    header += f"\n# {rules_text(rules, lang)}"
    columns = [c for c in answer.tables[table].columns if c != "can_empty"]
    text = Formatter(lang, "cli").table(answer, table, columns)  # every cell by its kind
    sys.stdout.write(f"{header}\n{text.to_string(index=False)}\n")
    return 0


def _method(args: argparse.Namespace) -> Method:
    """How a scenario's day is computed: as asked (--exact, --simulate), else simulated when
    --days or --seed is given, else exact."""
    if args.method is not None:
        return check_choice("--exact/--simulate", args.method, METHODS, ExplodiceError)
    return "simulate" if given(args, "--days") or given(args, "--seed") else "exact"


def _totals(args: argparse.Namespace, scenario: Any, rules: Any) -> int:
    """The distributions over days of a day's total drain caused or points lost."""
    lang, _ = args.lang, i18n.translator(args.lang)
    if _method(args) == "exact":
        from explodice.day.exact import exact_day  # numba kernels: only for the exact day

        result = exact_day(scenario, rules, distributions=True)
        omitted = f"{result.omitted:.1e}".replace(".", "," if lang == "fr" else ".")
        how = _("exact (omitted {omitted})").format(omitted=omitted)
    else:
        result = simulate_day(
            scenario,
            rules,
            n_days=args.days,
            seed=args.seed,
            threads=args.threads,
            progress=progress(args),
        )
        how = _("{days} days, seed {seed}").format(
            days=i18n.number(args.days, lang, 0), seed=result.seed
        )
    frame = result.to_frame(args.table)
    header = "# " + i18n.semicolons(
        [i18n.say(scenario.said(), lang), how, rules_text(rules, lang)], lang
    )
    hidden = ("n_days", "seed", "method", "rules", "scenario")
    text = frame.drop(columns=[c for c in hidden if c in frame])
    if result.exact:  # on a terminal, the mass that matters
        rare = text["p"] < TEXT_FLOOR
        if rare.any():
            text = text[~rare]
            header += "\n# " + _(
                "{rows} rows below p = {floor} left out (--format csv or json gives every row)"
            ).format(rows=i18n.number(int(rare.sum()), lang, 0), floor=f"{TEXT_FLOOR:g}")
    emit(frame, args.format, lang=args.lang, text=text, header=header)
    return 0


def _options_apply(args: argparse.Namespace) -> None:
    """Refuse an option of `day` that this call would ignore (a wrong number is worse than
    an error): the repeated roll's options with a scenario, the sampling options without a
    simulation, --n for days, --table without a scenario."""

    simulated = args.method == "simulate" or (
        args.scenario is not None
        and args.method is None
        and (given(args, "--days") or given(args, "--seed"))
    )
    refuse(args, ("--n",), Phrase("counts rolls; `day` counts days: use --days."))
    refuse(
        args,
        ("--close-contest",),
        Phrase(
            "settles a total equal to the DC by bids, which the day's engines do "
            "not play (a roll succeeds at total >= DC); `explodice contest` "
            "plays the bids."
        ),
    )
    if args.scenario is not None:
        refuse(
            args,
            _ONE_ROLL,
            Phrase(
                "sets the roll that `day` repeats without a scenario; the rolls, "
                "gauges and policies of {scenario} are in the file.",
                scenario=shown(args.scenario),
            ),
        )
    else:
        refuse(
            args,
            ("--table",),
            Phrase(
                "reads a scenario's results; without a scenario `day` prints the "
                "rolls until one gauge is empty (give SCENARIO.toml for the tables)."
            ),
        )
        refuse(
            args,
            _PARTY_SWITCHES,
            Phrase(
                "changes a party's gauges over a day (give SCENARIO.toml); the one "
                "roll that `day` repeats without a scenario drains one gauge, so "
                "nothing overflows."
            ),
        )
        policy = resolve_policy(args.policy, args.dc)
        if isinstance(policy, str) and not args.reroll_on_failure:  # keep or cancel
            refuse(
                args,
                ("--modifier", "--dc"),
                Phrase(
                    "cannot change when the gauge empties under --policy {policy}: the "
                    "drain of a roll that keeps (or cancels) its 1s does not depend on "
                    "its total; it does with --policy best:λ or --reroll-on-failure.",
                    policy=policy,
                ),
            )
    if not simulated:
        why = (
            Phrase("--exact samples nothing.")
            if args.method == "exact"
            else Phrase("this day is computed exactly (the default; --simulate samples it).")
        )
        refuse(args, _SAMPLING, Phrase("applies to a simulated day; {why}", why=why))


def _sampled(result: Any, lang: Lang) -> str:
    """``, 2,000 days, seed 7`` for a simulated result, nothing for an exact one."""
    if result.n_days is None:
        return ""
    _ = i18n.translator(lang)
    return ", " + _("{days} days, seed {seed}").format(
        days=i18n.number(result.n_days, lang, 0), seed=result.seed
    )


#: The top of a written default scenario, above the party and the day.
SCENARIO_HEADER = """\
# explodice — a scenario for `explodice day`: the party and the adventuring day of the
# report's embedded default configuration, to edit.
#
#     explodice day {name}                          # exactly, as a Markov chain
#     explodice day {name} --simulate --table empty # simulated (100,000 days)
#
# Every key below is described in its comment; a wrong value stops with one line naming it.
# The same tables stand in a report's configuration (explodice report --write-default-config).

"""


def default_scenario_text(name: str = "my-scenario.toml") -> str:
    """The default scenario as a commented TOML file: the ``[[character]]`` and ``[day]``
    tables of the report's default configuration (with their comments), under a header."""
    from importlib import resources

    text = resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")
    blocks: list[str] = []
    comments: list[str] = []
    keep = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):  # a table: its comments above it go with it
            table = stripped.strip("[]").strip()
            keep = table in ("character", "day") or table.startswith("day.")
            if keep:
                blocks += comments
            comments = []
        elif stripped.startswith("#") or not stripped:
            comments.append(line)
            continue
        if keep:
            blocks.append(line)
    return SCENARIO_HEADER.format(name=name) + "".join(blocks).strip() + "\n"


def _write_default_scenario(args: argparse.Namespace) -> int:
    others = [f for f in (*_ONE_ROLL, *_SAMPLING, *_PARTY_SWITCHES, "--table") if given(args, f)]
    if args.scenario is not None or others:
        raise ExplodiceError(
            Phrase(
                "`{value}` is not read by --write-default-scenario, which writes the "
                "default scenario and stops.",
                value=others[0] if others else "scenario",
            )
        )
    path = Path(args.write_default_scenario)
    atomic_write_text(path, default_scenario_text(path.name))
    _ = i18n.translator(args.lang)
    print(_("wrote {path}; edit it, then: explodice day {path}").format(path=path))
    return 0


def writes(args: argparse.Namespace) -> Sequence[Output]:
    """The copy of the default scenario, a new file unless --force."""
    if args.write_default_scenario is None:
        return ()
    return [Output(args.write_default_scenario, "--write-default-scenario", replace=args.force)]


def _playable(day: Any, rules: Any) -> None:
    """Refuse rules that the day engines would not read for ``day`` (a wrong number is worse
    than an error); ``explodice readings`` shows what the switch changes elsewhere."""
    spot = day_blind_spot(day, rules)
    if spot is not None:
        raise ExplodiceError(
            Phrase(
                "`day` cannot apply these rules yet: {spot} (`explodice readings` "
                "shows what {switch} changes in single rolls).",
                spot=spot,
                switch=spot.switch,
            )
        )


def _rolls_to_empty(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    policy = resolve_policy(args.policy, args.dc)
    reroll = reroll_from(args, args.dc)
    roll = Roll(args.modifier, advantage=args.advantage, kind=args.kind, reroll=reroll)
    refuse_unread_readings(args, [roll], rules)
    if args.method == "simulate":  # the exact path sums the exact drain law of the roll
        _playable(roll, rules)
    result = rolls_to_empty(
        args.modifier,
        args.gauge,
        args.dc,
        policy=policy,
        advantage=args.advantage,
        kind=args.kind,
        rules=rules,
        method=args.method or "exact",
        n_days=args.days,
        seed=args.seed,
        threads=args.threads,
        progress=progress(args),
        reroll=reroll,
    )
    frame = result.to_frame()
    lang = args.lang
    _ = i18n.translator(lang)
    header = (
        "# "
        + _("rolls until a gauge of {gauge} points is empty: {roll}, DC {dc}; {method}").format(
            gauge=args.gauge,
            roll=roll_label(result.roll, lang),
            dc=args.dc,
            method=_(result.method),
        )
        + _sampled(result, lang)
    )
    header += "\n# " + _("mean {mean}, median {median}, {share} by roll {roll}").format(
        mean=i18n.number(result.mean, lang, 3),
        median=result.median,
        share=percent(0.9, lang, 0),
        roll=result.quantile(0.9),
    )
    cols = [c for c in ("rolls", "p", "cdf", "ci_low", "ci_high") if c in frame]
    # on a terminal, stop at the roll by which 99.9 % of the gauges are empty
    shown_rows = frame[cols]
    if "cdf" in shown_rows and (shown_rows["cdf"] >= 0.999).any():
        last = int((shown_rows["cdf"] >= 0.999).to_numpy().argmax())
        if last + 1 < len(shown_rows):
            header += "\n# " + _(
                "rows after roll {roll} ({share} empty) left out; --format csv gives them all"
            ).format(roll=shown_rows["rolls"].iloc[last], share=percent(0.999, lang))
            shown_rows = shown_rows.iloc[: last + 1]
    emit(frame, args.format, text=shown_rows, header=header, lang=args.lang)
    return 0


COMMAND = Command(
    name="day",
    help="gauges over an adventuring day",
    description="With SCENARIO.toml: compute the day as an exact Markov chain (or, with "
    "--simulate or --days/--seed, simulate --days days of it). "
    "Without: after how many rolls does one gauge of --gauge "
    "points first reach 0, repeating one roll (--modifier, --dc)? "
    "--write-default-scenario FILE writes a scenario to start from (the report's party and "
    "day, commented).",
    run=run,
    writes=writes,
    shared=(
        roll_options,
        functools.partial(rules_options, ("roll", "day")),
        functools.partial(sampling_options, "default; --days or --seed simulate a scenario"),
        output_options,
    ),
    add_arguments=add_arguments,
)
