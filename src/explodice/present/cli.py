"""The ``explodice`` command line: quick answers from a terminal, and the designer's report.

Subcommands: ``odds`` (one roll), ``table`` (the DC table), ``opposed``, ``compare`` (the d20
and the equivalent DC table), ``frontier`` (the cancel frontier), ``day`` (gauges over a
day), ``report``. Options follow the rules' words; output is an aligned text table, or
``--format csv|json`` for scripts. Bad input prints one line and exits with status 2;
Ctrl-C stops with status 130.

    $ explodice odds --modifier 4 --dc 16 --advantage advantage
    $ explodice table --modifiers 0 2 4 --format csv
    $ explodice report --out reports
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from explodice.analysis.compare import equivalent_dc, equivalent_dc_table
from explodice.analysis.frontier import frontier
from explodice.analysis.resolutions import opposed
from explodice.analysis.success import pivot_success, roll_distribution, success_table
from explodice.core.errors import ExplodiceError, one_line, shown
from explodice.core.version import __version__
from explodice.day.scenario import load_scenario
from explodice.day.simulate import MAX_DAYS, rolls_to_empty, simulate_day
from explodice.engine.chunks import MAX_THREADS
from explodice.engine.seeding import MAX_ROLLS
from explodice.game.reroll import Reroll
from explodice.game.rules import (
    ACTORS,
    ADVANTAGE_STATES,
    DISADVANTAGE_READINGS,
    DRAIN_GAUGES,
    KINDS,
    OVERFLOW_MODES,
    Roll,
    Rules,
    parse_policy,
)
from explodice.game.tables import DC_TABLES, MAX_GAUGE, PROFILES, SYSTEMS
from explodice.present import i18n
from explodice.present.cli_rules import add_commands
from explodice.present.explorer import write_explorer
from explodice.present.i18n import LANGS
from explodice.present.options import integer
from explodice.present.plots import provenance
from explodice.sweeps import SweepWarning, check_output, load_grid, sweep, write_results
from explodice.sweeps.run import MAX_WORKERS

__all__ = ["main", "build_parser"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit 2, as argparse does)."""

    def error(self, message: str) -> Any:  # noqa: D102 - argparse's hook
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# -- option values --------------------------------------------------------------------------
def _policy(text: str) -> str:
    """'keep', 'cancel', 'best:λ' or 'best:λ@dc' (the DC defaults to the roll's --dc)."""
    try:
        parse_policy(text, dc=0)  # the grammar is checked now; the DC is the roll's, later
    except ExplodiceError as err:
        raise argparse.ArgumentTypeError(str(err).replace("`policy`", "`--policy`")) from None
    return text


def _resolve_policy(policy: str, dc: int | None) -> Any:
    return parse_policy(policy, dc=dc, field_name="--policy")


# every number read strictly (``--n 1.25e1`` or ``1e400`` refused), within the engines' limits
ROLLS = integer(1, MAX_ROLLS)
DAYS = integer(1, MAX_DAYS)
THREADS = integer(1, MAX_THREADS)
GAUGE = integer(1, MAX_GAUGE)
WORKERS = integer(1, MAX_WORKERS)
SEED = integer(0)
MODIFIER = integer(-100, 100)
DC = integer(-(10**6), 10**6)


DEFAULTS = Rules()  # the switches' defaults, read from the rules, never restated


# -- shared option groups -------------------------------------------------------------------
def _rules_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("rules switches (RULES.md)")
    g.add_argument(
        "--disadvantage",
        choices=DISADVANTAGE_READINGS,
        default=DEFAULTS.disadvantage,
        help="reading of disadvantage: subtract an exploding malus die (default), "
        "or drop a die from the pool",
    )
    g.add_argument(
        "--rule-of-one",
        nargs="+",
        choices=KINDS,
        default=sorted(DEFAULTS.rule_of_one_kinds),
        metavar="KIND",
        help="kinds of roll the rule of 1 applies to (default: check save)",
    )
    g.add_argument(
        "--ones-on-explosions",
        action="store_true",
        help="a 1 shown by an explosion die drains as well",
    )
    g.add_argument(
        "--overflow",
        choices=OVERFLOW_MODES,
        default=DEFAULTS.overflow,
        help="where drain beyond an empty gauge goes (default: fullest)",
    )
    g.add_argument(
        "--drain-gauge",
        choices=DRAIN_GAUGES,
        default=DEFAULTS.drain_gauge,
        help="gauge a skill check drains: its skill's (default) or the rolled ability's",
    )
    g.add_argument(
        "--close-contest",
        action="store_true",
        help="lutte serrée: a total equal to the DC goes to bids (tables add p_tie)",
    )
    g.add_argument(
        "--lucky",
        action="store_true",
        help="the roll carries Reroll('one'): a die showing 1 is rerolled (Chanceux)",
    )
    return p


def _roll_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("the roll")
    g.add_argument(
        "--advantage",
        choices=ADVANTAGE_STATES,
        default="normal",
        help="net advantage state (default: normal)",
    )
    g.add_argument("--kind", choices=KINDS, default="check")
    g.add_argument(
        "--actor", choices=ACTORS, default="pc", help="an NPC always cancels and drains nothing"
    )
    g.add_argument(
        "--policy",
        type=_policy,
        default="keep",
        help="rule-of-1 policy: keep, cancel, or best:λ (e.g. best:0.05)",
    )
    g.add_argument(
        "--reroll-on-failure",
        action="store_true",
        help="the roll carries Reroll('failure') against the (first) DC",
    )
    return p


def _reroll(args: argparse.Namespace, dc: int | None) -> Reroll | None:
    """The roll's reroll from --lucky / --reroll-on-failure (one of them)."""
    lucky, failure = getattr(args, "lucky", False), getattr(args, "reroll_on_failure", False)
    if lucky and failure:
        raise ExplodiceError(
            "`--lucky` and `--reroll-on-failure` cannot both be given: a roll carries one reroll."
        )
    if failure:
        if dc is None:
            raise ExplodiceError("`--reroll-on-failure` needs a DC, and this command has none.")
        return Reroll("failure", dc)
    return Reroll("one") if lucky else None


def _sampling_options(default: str = "exact") -> argparse.ArgumentParser:
    """--exact / --simulate and the simulation's options; ``default`` says in the help which
    method a command uses when neither is given."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("exact or simulated")
    m = g.add_mutually_exclusive_group()
    m.add_argument(
        "--exact",
        dest="method",
        action="store_const",
        const="exact",
        help="use the exact engine" + (" (default)" if default == "exact" else f" ({default})"),
    )
    m.add_argument(
        "--simulate",
        dest="method",
        action="store_const",
        const="simulate",
        help="use the Monte Carlo engine (with --n, --seed, --threads)",
    )
    g.add_argument("--n", type=ROLLS, default=1_000_000, help="rolls to simulate")
    g.add_argument(
        "--seed",
        type=SEED,
        default=None,
        help="seed of the simulation (default: fresh, printed with the results)",
    )
    g.add_argument("--threads", type=THREADS, default=None, help="threads (default: all)")
    g.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(method="exact")
    return p


def _output_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="aligned text (default), csv or json (tidy rows) for scripts",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default="en",
        help="language of the text table's headers and numbers (csv/json stay as they are)",
    )
    return p


def _rules(args: argparse.Namespace) -> Any:
    return Rules(
        disadvantage=args.disadvantage,
        rule_of_one_kinds=frozenset(args.rule_of_one),
        ones_on_explosions=args.ones_on_explosions,
        overflow=args.overflow,
        drain_gauge=args.drain_gauge,
        close_contest=args.close_contest,
    )


def _progress(args: argparse.Namespace) -> bool | None:
    """False with --no-progress; else None: the engine shows a bar on long runs."""
    return False if args.no_progress else None


# -- output ---------------------------------------------------------------------------------
def _emit(
    frame: Any, fmt: str, *, text: Any = None, header: str | None = None, lang: str = "en"
) -> None:
    """Print ``frame`` as csv or json records, or ``text`` (default: the frame) aligned
    (its headers and numbers in ``lang``)."""
    out = sys.stdout
    if fmt == "csv":
        frame.to_csv(out, index=False)
    elif fmt == "json":
        out.write(frame.to_json(orient="records", double_precision=15) + "\n")
    else:
        if header:
            out.write(header + "\n")
        shown = frame if text is None else text
        if lang != "en":
            shown = i18n.localise_table(shown, lang)
        out.write(shown.to_string(index=False, float_format=_fmt_float) + "\n")


def _fmt_float(x: float) -> str:
    if x != x:
        return "—"
    if x == 0 or 1e-4 <= abs(x) < 1e6:
        return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) >= 1 else f"{x:.6f}"
    return f"{x:.3e}"


def _percent_grid(wide: Any, lang: str = "en") -> Any:
    """Format a wide pivot of probabilities as percentages for the terminal."""
    if lang != "en":
        return wide.map(lambda v: "—" if v != v else i18n.percent(v, lang))
    return wide.map(lambda v: "—" if v != v else f"{100 * v:5.1f}%")


def _pct(p: float, args: argparse.Namespace, digits: int) -> str:
    """A probability for the text table: ``49.123%``, or the language's way with --lang."""
    if args.lang != "en":
        return i18n.percent(p, args.lang, digits)
    return f"{100 * p:.{digits}f}%"


# -- subcommands ----------------------------------------------------------------------------
def cmd_odds(args: argparse.Namespace) -> int:
    """The odds of one roll against one or more DCs."""
    rules = _rules(args)
    dcs = args.dc or _default_dcs(args.system)
    policy_text = args.policy.strip().lower()
    bound = getattr(args, "reroll_on_failure", False) or (
        policy_text.startswith("best") and "@" not in policy_text
    )
    if bound and len(dcs) != 1:  # the roll itself depends on its DC: one DC, one roll
        raise ExplodiceError(
            "`--dc` must be one DC with --reroll-on-failure or --policy best:λ (the roll's "
            f"choices depend on its DC), but {len(dcs)} DCs were asked; use `explodice table` "
            "for several DCs, or best:λ@DC."
        )
    roll = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=_resolve_policy(args.policy, dcs[0]),
        reroll=_reroll(args, dcs[0]),
    )
    dist = _distribution(roll, rules, args)
    label = dist.label
    frame = dist.success_frame(dcs)
    frame.insert(0, "system", dist.system)
    frame.insert(1, "roll", label)
    frame["mean"] = dist.mean
    frame["median"] = dist.median
    frame["drain_mean"] = dist.drain_mean
    frame["rules"] = rules.describe() if dist.system == "3d6x" else "d20"
    if args.pmf:
        frame = dist.to_frame("total")
        frame.insert(0, "system", dist.system)
        frame["method"], frame["n"], frame["seed"] = dist.method, dist.n, dist.seed
    text = frame[
        [
            c
            for c in frame.columns
            if c
            not in (
                "system",
                "roll",
                "rules",
                "method",
                "n",
                "seed",
                "mean",
                "median",
                "drain_mean",
            )
        ]
    ]
    if not args.pmf:
        text = text.assign(p=[_pct(p, args, 3) for p in frame.p])
        if dist.simulated:
            text = text.assign(
                ci_low=[_pct(p, args, 3) for p in frame.ci_low],
                ci_high=[_pct(p, args, 3) for p in frame.ci_high],
            )
        else:
            text = text.drop(columns=["ci_low", "ci_high"])
    _emit(
        pd.DataFrame(frame),
        args.format,
        text=text,
        lang=args.lang,
        header=f"# {label}\n{_header(dist)}",
    )
    return 0


def _default_dcs(system: str) -> list[int]:
    return list(DC_TABLES[system].values())


def _distribution(roll: Any, rules: Any, args: argparse.Namespace) -> Any:
    return roll_distribution(
        roll,
        system=args.system,
        rules=rules,
        method=args.method,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
        progress=_progress(args),
    )


def _header(dist: Any) -> str:
    head = f"# {provenance(dist)}\n# mean {dist.mean:.4f}, median {dist.median}, std {dist.std:.4f}"
    if dist.system == "3d6x":
        head += f", E[drain] {dist.drain_mean:.4f}, E[kept 1s] {dist.ones_mean:.4f}"
    return head


def cmd_table(args: argparse.Namespace) -> int:
    """The DC table: P(success) for each modifier, DC and advantage state."""
    rules = _rules(args)
    readings = args.disadvantage_readings  # None: the reading of --disadvantage
    table = success_table(
        args.modifiers,
        args.dc,
        system=args.system,
        advantages=args.states,
        readings=readings,
        rules=rules,
        kind=args.kind,
        actor=args.actor,
        policy=_resolve_policy(args.policy, 0),  # best: each row's own DC
        method=args.method,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
    )
    wide = pivot_success(table, index=["modifier", "advantage"], columns="dc")
    header = f"# P(success), {args.system}, {table['method'].iloc[0]}; " + (
        rules.describe() if args.system == "3d6x" else "d20"
    )
    _emit(
        table,
        args.format,
        text=_percent_grid(wide, args.lang).reset_index(),
        header=header,
        lang=args.lang,
    )
    return 0


def cmd_frontier(args: argparse.Namespace) -> int:
    """The success/drain frontier of the cancel policy for one roll and DC."""
    rules = _rules(args)
    frame = frontier(args.modifier, args.dc, advantage=args.advantage, kind=args.kind, rules=rules)
    lam = frame.attrs.get("implied_lambda")
    header = (
        f"# cancel frontier: 3d6x{args.modifier:+d}, {args.advantage}, DC {args.dc}; "
        f"exact; {rules.describe()}\n# implied λ (chord slope) = {lam:.4f}"
    )
    text = frame[
        [
            "policy",
            "lambda_lo",
            "lambda_hi",
            "p_success",
            "drain_mean",
            "ones_mean",
            "price",
            "knee",
        ]
    ]
    _emit(frame, args.format, text=text, header=header, lang=args.lang)
    return 0


def cmd_opposed(args: argparse.Namespace) -> int:
    """An opposed test: P(win), P(tie: the status quo holds), P(loss) for side A."""
    if isinstance(args.policy, tuple):
        raise ExplodiceError(
            "`--policy` must be keep or cancel for an opposed test (best:λ "
            "needs a DC, and an opposed test has none)."
        )
    rules = _rules(args)
    a = Roll(
        args.modifier,
        advantage=args.advantage,
        kind=args.kind,
        actor=args.actor,
        policy=args.policy,
        reroll=_reroll(args, None),
    )
    b = Roll(args.vs, advantage=args.vs_advantage, kind=args.kind)
    result = opposed(
        a,
        b,
        system=args.system,
        rules=rules,
        method=args.method,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
    )
    frame = pd.DataFrame([result.summary()])
    header = f"# opposed test, {args.system}, {result.method}: A = {result.a}; B = {result.b}"
    text = frame[["win", "tie", "loss", "mean margin"]].assign(
        win=lambda f: [_pct(v, args, 2) for v in f.win],
        tie=lambda f: [_pct(v, args, 2) for v in f.tie],
        loss=lambda f: [_pct(v, args, 2) for v in f.loss],
    )
    _emit(frame, args.format, text=text, header=header, lang=args.lang)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """The d20 comparison: each d20 DC's equivalent 3d6x DC for a modifier, or the table."""
    rules = _rules(args)
    if args.modifier is not None:
        frame = equivalent_dc(Roll(args.modifier, advantage=args.advantage), rules=rules)
        header = (
            f"# equivalent DCs, d20 -> 3d6x, modifier {args.modifier:+d}, "
            f"{args.advantage}; exact; {rules.describe()}"
        )
    else:
        pairs = [_profile(p) for p in args.profiles]
        profiles = dict(pairs)
        if len(profiles) < len(pairs):
            names = [name for name, _ in pairs]
            twice = next(n for n in names if names.count(n) > 1)
            raise ExplodiceError(
                f"`--profiles` names {shown(twice)} twice; give each profile once."
            )
        reference = args.reference or ("trained" if "trained" in profiles else next(iter(profiles)))
        frame = equivalent_dc_table(profiles, reference=reference, rules=rules)
        header = f"# the d20 DC table mapped onto 3d6x for {reference}; exact; {rules.describe()}"
    text = frame.assign(
        p_d20=[_pct(v, args, 1) for v in frame.p_d20],
        p_3d6x=[_pct(v, args, 1) for v in frame.p_3d6x],
        gap=[("+" if v >= 0 else "-") + _pct(abs(v), args, 1) for v in frame.gap],
    )
    _emit(frame, args.format, text=text, header=header, lang=args.lang)
    return 0


def _profile(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    try:
        if not sep or not name:
            raise ValueError
        return name, int(value)
    except ValueError:
        raise ExplodiceError(
            "`--profiles` must be NAME=MODIFIER items (e.g. trained=4),"
            f" but {shown(text)} was passed."
        ) from None


def cmd_day(args: argparse.Namespace) -> int:
    """Gauges over a day: a scenario file simulated, or rolls until one gauge is empty."""
    if args.actor == "npc":  # an NPC drains nothing: no gauge of its would ever empty
        raise ExplodiceError(
            "`--actor npc` does not apply to `day`: an NPC's rolls drain no "
            'gauge; in a scenario, set actor = "npc" on its [[character]].'
        )
    _day_options_apply(args)
    if args.scenario is None:
        return _rolls_to_empty(args)
    scenario = load_scenario(args.scenario)
    rules = _rules(args)
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
            progress=_progress(args),
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
    _emit(frame, args.format, lang=args.lang, text=text, header=header)
    return 0


TEXT_FLOOR = 1e-9  # an exact distribution's rows below this stay out of a text table

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


def _day_options_apply(args: argparse.Namespace) -> None:
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


def _rolls_to_empty(args: argparse.Namespace) -> int:
    rules = _rules(args)
    policy = _resolve_policy(args.policy, args.dc)
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
        progress=_progress(args),
    )
    frame = result.to_frame()
    header = (
        f"# rolls until a gauge of {args.gauge} points is empty: {result.roll.describe()}, "
        f"DC {args.dc}; {result.method}\n# mean {result.mean:.3f}, median {result.median}, "
        f"90 % by roll {result.quantile(0.9)}"
    )
    cols = [c for c in ("rolls", "p", "cdf", "ci_low", "ci_high") if c in frame]
    # on a terminal, stop at the roll by which 99.9 % of the gauges are empty
    shown = frame[cols]
    if "cdf" in shown and (shown["cdf"] >= 0.999).any():
        last = int((shown["cdf"] >= 0.999).to_numpy().argmax())
        if last + 1 < len(shown):
            header += (
                f"\n# rows after roll {shown['rolls'].iloc[last]} (99.9 % empty) left out; "
                "--format csv gives them all"
            )
            shown = shown.iloc[: last + 1]
    _emit(frame, args.format, text=shown, header=header, lang=args.lang)
    return 0


@contextlib.contextmanager
def _warnings_in_one_line(*categories: type[Warning]) -> Iterator[None]:
    """Print the package's warnings of ``categories`` as one line each on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        if issubclass(w.category, categories):
            sys.stderr.write(f"explodice: warning: {one_line(w.message)}\n")
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def cmd_report(args: argparse.Namespace) -> int:
    """Write the designer's report (PDF, PNGs, CSVs)."""
    # imported here: matplotlib's PDF backend takes a second, which the other commands skip
    from explodice.present.report import (
        ReportWarning,
        load_config,
        write_default_config,
        write_report,
    )

    if args.write_default_config:
        path = write_default_config(args.write_default_config)
        print(f"wrote {path}; edit it, then: explodice report {path}")
        return 0
    config = load_config(args.config)
    with _warnings_in_one_line(ReportWarning):
        paths = write_report(config, args.out, progress=not args.no_progress, lang=args.lang)
    print(f"wrote {len(paths)} files into {args.out}/ (the PDF: {paths[0]})")
    return 0


def cmd_explore(args: argparse.Namespace) -> int:
    """Write the explorer: one HTML file that works offline, from disk."""
    path = write_explorer(args.config, args.out, lang=args.lang)
    print(
        f"wrote {path} ({path.stat().st_size / 2**20:.1f} MiB); open it in a browser, or "
        "send it as it is"
    )
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    """Run a grid of cases (GRID.toml) on local processes or a Dask cluster; write CSV."""
    spec = load_grid(args.grid)
    out = Path(args.out or Path(args.grid).with_suffix(".csv").name)
    check_output(out)  # every file it will write, checked before the minutes of work
    with _warnings_in_one_line(SweepWarning):
        frame = sweep(
            spec.grid,
            spec.task,
            executor=args.scheduler,
            workers=args.workers,
            seed=spec.seed if args.seed is None else args.seed,
            batch_seconds=spec.batch_seconds,
            progress=_progress(args),
        )
    paths = write_results(frame, out)
    a = frame.attrs
    print(
        f"wrote {' and '.join(map(str, paths))}: {len(frame)} rows, {a['n_cases']} cases "
        f"({a['n_failed']} failed), {a['seconds']:.1f} s on {a['workers']} workers, "
        f"seed {a['seed']}"
    )
    return 1 if a["n_failed"] else 0


# -- the parser -----------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The ``explodice`` argument parser with its subcommands."""
    parser = _Parser(
        prog="explodice",
        description="Probabilities of exploding 3d6 (3d6x) with the rule of 1, against the d20.",
    )
    parser.add_argument("--version", action="version", version=f"explodice {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    rules, roll, sampling, output = (
        _rules_options(),
        _roll_options(),
        _sampling_options(),
        _output_options(),
    )

    p = sub.add_parser(
        "odds",
        parents=[roll, rules, sampling, output],
        help="the odds of one roll against DCs",
        description="The odds of one roll: P(total >= DC) for each --dc, its "
        "mean, median and expected drain.",
    )
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="the roll's modifier")
    p.add_argument("--dc", type=DC, nargs="+", help="DCs (default: the system's DC table)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.add_argument("--pmf", action="store_true", help="print the distribution of the total")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser(
        "table",
        parents=[roll, rules, sampling, output],
        help="the DC table: modifiers x DCs x advantage states",
        description="P(success) for each modifier, DC and advantage state. "
        "Text shows the wide grid; csv/json the tidy rows.",
    )
    p.add_argument(
        "--modifiers", type=MODIFIER, nargs="+", default=None, help="modifiers (default -5..+10)"
    )
    p.add_argument("--dc", type=DC, nargs="+", help="DCs (default: the system's DC table)")
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.add_argument(
        "--states",
        nargs="+",
        choices=ADVANTAGE_STATES,
        default=list(ADVANTAGE_STATES),
        help="advantage states (default: all three)",
    )
    p.add_argument(
        "--disadvantage-readings",
        choices=("both", *DISADVANTAGE_READINGS),
        default=None,
        help="show other readings of disadvantage side by side "
        "(default: the one of --disadvantage)",
    )
    p.set_defaults(func=cmd_table)

    p = sub.add_parser(
        "frontier",
        parents=[rules, output],
        help="the success/drain frontier of cancelling 1s against 6s",
        description="Sweep best(λ) from keep to cancel: P(success) and E[drain] "
        "of each policy, and the λ a sensible player implies.",
    )
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0)
    p.add_argument("--dc", type=DC, default=16)
    p.add_argument("--advantage", choices=ADVANTAGE_STATES, default="normal")
    p.add_argument("--kind", choices=("check", "save"), default="check")
    p.set_defaults(func=cmd_frontier)

    p = sub.add_parser(
        "opposed",
        parents=[roll, rules, sampling, output],
        help="an opposed test: win, tie (status quo), loss",
        description="Both sides roll; the higher total wins, a tie keeps the "
        "status quo. --modifier/--advantage/--policy are side A's.",
    )
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0, help="side A's modifier")
    p.add_argument("--vs", type=MODIFIER, default=0, help="side B's modifier")
    p.add_argument(
        "--vs-advantage",
        choices=ADVANTAGE_STATES,
        default="normal",
        help="side B's advantage state",
    )
    p.add_argument("--system", choices=SYSTEMS, default="3d6x")
    p.set_defaults(func=cmd_opposed)

    p = sub.add_parser(
        "compare",
        parents=[rules, output],
        help="3d6x against d20: equivalent DCs",
        description="With --modifier: for each d20 DC, the 3d6x DC with the "
        "closest odds. Otherwise the d20 DC table mapped onto 3d6x "
        "for a reference profile, with every profile's odds.",
    )
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
    p.set_defaults(func=cmd_compare)

    # its own copy of the sampling options: its default method differs (below), and
    # set_defaults changes the actions, which parents share
    p = sub.add_parser(
        "day",
        parents=[
            roll,
            rules,
            _sampling_options("default without a scenario; a scenario is simulated"),
            output,
        ],
        help="gauges over an adventuring day",
        description="With SCENARIO.toml: simulate --days days of it (or, "
        "with --exact, compute the day as an exact Markov chain). "
        "Without: after how many rolls does one gauge of --gauge "
        "points first reach 0, repeating one roll (--modifier, --dc)?",
    )
    p.add_argument("scenario", nargs="?", default=None, help="a scenario TOML file")
    p.add_argument("--modifier", "-m", type=MODIFIER, default=0)
    p.add_argument("--dc", type=DC, default=16)
    p.add_argument("--gauge", type=GAUGE, default=20, help="gauge points (default 20)")
    p.add_argument("--days", type=DAYS, default=100_000, help="days to simulate (default 100,000)")
    p.add_argument(
        "--table",
        default="gauges",
        choices=("gauges", "first_empty", "empty", "success", "roll_types", "drain", "lost"),
        help="which table of a scenario's results to print",
    )
    p.set_defaults(func=cmd_day, method=None)  # a scenario: simulated unless --exact
    # what the options the call may ignore default to, read back from the parser (see
    # _day_options_apply): a value that differs was given
    p.set_defaults(
        day_defaults={name: p.get_default(name) for name in (*_ONE_ROLL, *_SAMPLING, "n", "table")}
    )

    p = sub.add_parser(
        "report",
        help="write the designer's report (PDF, PNG, CSV)",
        description="Write the report into --out: one PDF, one PNG per figure, "
        "one CSV per table, replacing a previous report only once "
        "the new one is complete.",
    )
    p.add_argument(
        "config",
        nargs="?",
        default=None,
        help="a configuration TOML file (default: the embedded one)",
    )
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.add_argument(
        "--write-default-config",
        metavar="PATH",
        help="write a copy of the default configuration to PATH, and stop",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the report and its explorer (default: the "
        "configuration's `lang`, else en)",
    )
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "explore",
        help="write the explorer, one HTML file to share",
        description="Write the designer's explorer: one self-contained HTML "
        "file (controls, charts and every number inside) that opens "
        "from disk in any browser, offline.",
    )
    p.add_argument(
        "config",
        nargs="?",
        default=None,
        help="a configuration TOML file (default: the embedded one)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        default="explorer.html",
        help="the HTML file to write (default: explorer.html)",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the page (default: the configuration's `lang`, else en)",
    )
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser(
        "sweep",
        help="run a grid of cases locally or on a Dask cluster",
        description="Run every case of GRID.toml (see "
        "explodice/data/sweep_example.toml) on local processes, or on "
        "a Dask cluster with --scheduler; write one tidy CSV (and "
        "Parquet if pyarrow is installed). Exit status 1 when some "
        "cases failed (their rows carry `error`).",
    )
    p.add_argument("grid", help="a grid TOML file: task, seed, [grid] or [[case]] tables")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler, e.g. tcp://host:8786 (needs explodice[dask])",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="the CSV to write (default: GRID's name with .csv, here)",
    )
    p.add_argument(
        "--workers",
        type=WORKERS,
        default=None,
        help="local processes (default: all cores); with --scheduler, batches "
        "in flight are twice this",
    )
    p.add_argument("--seed", type=SEED, default=None, help="root seed (default: the file's)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sweep)
    add_commands(sub, output)  # initiative, hide, contest, reroll (present/cli_rules.py)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 for bad input, 130 on Ctrl-C)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # pragma: no cover - e.g. `explodice table | head`
        return 0
    except (ValueError, OSError) as err:  # ExplodiceError is a ValueError
        sys.stderr.write(f"explodice: error: {one_line(err)}\n")
        return EXIT_USAGE
    except SystemError as err:
        # Ctrl-C landing inside numba's dispatcher surfaces as a SystemError chained to it.
        if not _caused_by_interrupt(err):
            raise
        sys.stderr.write("explodice: interrupted\n")
        return EXIT_INTERRUPTED


def _caused_by_interrupt(err: BaseException | None) -> bool:
    seen = 0
    while err is not None and seen < 20:
        if isinstance(err, KeyboardInterrupt):
            return True
        err, seen = err.__cause__ or err.__context__, seen + 1
    return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
