"""``explodice day``: gauges over an adventuring day. A scenario file simulated (or, with
``--exact``, computed as an exact Markov chain), or without one: after how many rolls one
gauge first reaches 0, repeating one roll.

    $ explodice day --gauge 20 -m 2 --dc 16
    $ explodice day my-scenario.toml --days 100000 --table empty
    $ explodice day my-scenario.toml --exact --table drain
"""

from __future__ import annotations

import argparse
import functools
from typing import Any

from explodice.analysis.sensitivity import day_blind_spot
from explodice.core.errors import ExplodiceError, shown
from explodice.day.scenario import load_scenario
from explodice.day.simulate import rolls_to_empty, simulate_day
from explodice.game.rules import Roll
from explodice.present.cli.base import Command
from explodice.present.cli.options import (
    DAYS,
    DC,
    GAUGE,
    MODIFIER,
    output_options,
    progress,
    resolve_policy,
    roll_options,
    rules_from,
    rules_options,
    sampling_options,
)
from explodice.present.cli.output import emit

__all__ = ["COMMAND", "run"]

TEXT_FLOOR = 1e-9  # an exact distribution's rows below this stay out of a text table
TABLES = ("gauges", "first_empty", "empty", "success", "roll_types", "drain", "lost")

# options of `day` that set its repeated roll (no scenario), and those of a simulated day
_ONE_ROLL = {
    "modifier": "--modifier",
    "dc": "--dc",
    "gauge": "--gauge",
    "advantage": "--advantage",
    "kind": "--kind",
    "policy": "--policy",
    "reroll_on_failure": "--reroll-on-failure",
    "lucky": "--lucky",
}
_SAMPLING = {"days": "--days", "seed": "--seed", "threads": "--threads"}


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
    p.set_defaults(method=None)  # a scenario: simulated unless --exact
    # what the options the call may ignore default to, read back from the parser (see
    # _options_apply): a value that differs was given
    p.set_defaults(
        day_defaults={name: p.get_default(name) for name in (*_ONE_ROLL, *_SAMPLING, "n", "table")}
    )


def run(args: argparse.Namespace) -> int:
    """Gauges over a day: a scenario file simulated, or rolls until one gauge is empty."""
    if args.actor == "npc":  # an NPC drains nothing: no gauge of its would ever empty
        raise ExplodiceError(
            "`--actor npc` does not apply to `day`: an NPC's rolls drain no "
            'gauge; in a scenario, set actor = "npc" on its [[character]].'
        )
    _options_apply(args)
    if args.scenario is None:
        return _rolls_to_empty(args)
    scenario = load_scenario(args.scenario)
    rules = rules_from(args)
    _playable(scenario, rules)
    if args.method == "exact":  # only when asked: a scenario is simulated by default
        from explodice.day.exact import exact_day  # numba kernels: only for 'day --exact'

        # the distributions of a day's totals cost a pass each: only for the tables that read them
        result = exact_day(scenario, rules, distributions=args.table in ("drain", "lost"))
        how = f"exact (omitted {result.omitted:.1e})"
    else:
        result = simulate_day(
            scenario,
            rules,
            n_days=args.days,
            seed=args.seed,
            threads=args.threads,
            progress=progress(args),
        )
        how = f"{args.days:,} days, seed {result.seed}"
    frame = result.to_frame(args.table)
    header = f"# {scenario.describe()}; {how}; {rules.describe()}"
    hidden = ("n_days", "seed", "method", "rules", "scenario")
    text = frame.drop(columns=[c for c in hidden if c in frame])
    if result.exact and args.table in ("drain", "lost"):  # on a terminal, the mass that matters
        rare = text["p"] < TEXT_FLOOR
        if rare.any():
            text = text[~rare]
            header += (
                f"\n# {int(rare.sum())} rows below p = {TEXT_FLOOR:g} left out "
                "(--format csv or json gives every row)"
            )
    emit(frame, args.format, lang=args.lang, text=text, header=header)
    return 0


def _options_apply(args: argparse.Namespace) -> None:
    """Refuse an option of `day` that this call would ignore (a wrong number is worse than
    an error): the repeated roll's options with a scenario, the sampling options without a
    simulation, --n for days, --table without a scenario."""

    def given(name: str) -> bool:
        return getattr(args, name) != args.day_defaults[name]

    simulated = args.method == "simulate" or (args.scenario is not None and args.method is None)
    if given("n"):
        raise ExplodiceError("`--n` counts rolls; `day` counts days: use --days.")
    if args.scenario is not None:
        for name, flag in _ONE_ROLL.items():
            if given(name):
                raise ExplodiceError(
                    f"`{flag}` sets the roll that `day` repeats without a scenario; the rolls, "
                    f"gauges and policies of {shown(args.scenario)} are in the file."
                )
    elif given("table"):
        raise ExplodiceError(
            "`--table` reads a scenario's results; without a scenario `day` prints the rolls "
            "until one gauge is empty (give SCENARIO.toml for the tables)."
        )
    if not simulated:
        for name, flag in _SAMPLING.items():
            if given(name):
                raise ExplodiceError(
                    f"`{flag}` applies to a simulated day; --exact samples nothing."
                )


def _playable(day: Any, rules: Any) -> None:
    """Refuse rules that the day engines would not read for ``day`` (a wrong number is worse
    than an error); ``explodice readings`` shows what the switch changes elsewhere."""
    spot = day_blind_spot(day, rules)
    if spot is not None:
        raise ExplodiceError(
            f"`day` cannot apply these rules yet: {spot} (`explodice readings` shows what "
            f"{spot.switch} changes in single rolls)."
        )


def _rolls_to_empty(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    policy = resolve_policy(args.policy, args.dc)
    if args.lucky:  # the repeated roll is drawn without a reroll
        raise ExplodiceError(
            "`--lucky` does not apply to `day` without a scenario: the roll it repeats has no "
            'reroll (give SCENARIO.toml, with reroll = "one" on the character).'
        )
    if args.method == "simulate":  # the exact path sums the exact drain law of the roll
        _playable(Roll(args.modifier, advantage=args.advantage, kind=args.kind), rules)
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
    )
    frame = result.to_frame()
    header = (
        f"# rolls until a gauge of {args.gauge} points is empty: {result.roll.describe()}, "
        f"DC {args.dc}; {result.method}\n# mean {result.mean:.3f}, median {result.median}, "
        f"90 % by roll {result.quantile(0.9)}"
    )
    cols = [c for c in ("rolls", "p", "cdf", "ci_low", "ci_high") if c in frame]
    # on a terminal, stop at the roll by which 99.9 % of the gauges are empty
    shown_rows = frame[cols]
    if "cdf" in shown_rows and (shown_rows["cdf"] >= 0.999).any():
        last = int((shown_rows["cdf"] >= 0.999).to_numpy().argmax())
        if last + 1 < len(shown_rows):
            header += (
                f"\n# rows after roll {shown_rows['rolls'].iloc[last]} (99.9 % empty) left out; "
                "--format csv gives them all"
            )
            shown_rows = shown_rows.iloc[: last + 1]
    emit(frame, args.format, text=shown_rows, header=header, lang=args.lang)
    return 0


COMMAND = Command(
    name="day",
    help="gauges over an adventuring day",
    description="With SCENARIO.toml: simulate --days days of it (or, "
    "with --exact, compute the day as an exact Markov chain). "
    "Without: after how many rolls does one gauge of --gauge "
    "points first reach 0, repeating one roll (--modifier, --dc)?",
    run=run,
    shared=(
        roll_options,
        functools.partial(rules_options, ("roll", "day")),
        functools.partial(sampling_options, "default without a scenario; a scenario is simulated"),
        output_options,
    ),
    add_arguments=add_arguments,
)
