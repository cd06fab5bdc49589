"""Every option of every command is applied or refused, never ignored (issue 26).

The test walks ``COMMANDS`` and each command's options (its parser's own, the shared groups
included): for each, it runs the command from a base command line with the option added,
and the result must either differ in its numbers from the base's or be refused in one line
with status 2. An option that no probe covers fails the test, so a new option needs a probe
here (or a line in ELSEWHERE naming the test that checks it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json

import pandas as pd
import pytest

from explodice.present.cli.app import build_parser, main
from explodice.present.cli.commands import COMMANDS
from tests.test_cli_levels import CONFIG as LEVELS_CONFIG

SIM = ["--simulate", "--n", "2000", "--seed", "1", "--threads", "1"]
#: A day where the switches of a party's gauges show: STR (Intimidation) drains PH (its
#: skill's gauge) or PA (the rolled ability's, --drain-gauge roll).
DAY = """
[[character]]
name = "Bo"
level = 3
scores = { STR = 14, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 14 }
skills = { Intimidation = 1 }
gauge_per_level = { PA = 2, PH = 2 }

[[roll]]
character = "Bo"
ability = "STR"
skill = "Intimidation"
dc = 14
repeat = 12
"""

#: Base command lines of each command (a probe runs on each base that can take it).
BASES: dict[str, list[list[str]]] = {
    "odds": [["-m", "2", "--dc", "16"], ["-m", "2", "--dc", "16", "--system", "d20"], ["-m", "2", "--dc", "16", *SIM]],
    "table": [["--modifiers", "0", "2", "--dc", "12", "16"], ["--modifiers", "0", "--dc", "12", "--system", "d20"]],
    "frontier": [["-m", "2", "--dc", "16"]],
    "opposed": [["-m", "2"], ["-m", "2", "--system", "d20"], ["-m", "2", *SIM]],
    "compare": [["-m", "4"], []],
    "dc": [["-m", "3", "--target", "0.5"], ["-m", "3", "--target", "0.5", "--system", "d20"]],
    "day": [["--gauge", "10"], ["{day}", "--days", "2000", "--seed", "1"], ["{day}", "--exact"]],
    "initiative": [["A=3", "B=1"]],
    "hide": [["-m", "3", "--passive", "12"]],
    "contest": [["--bids-a", "3", "--bids-b", "uniform:4"]],
    "reroll": [["-m", "0", "--dc", "16"], ["-m", "0", "--dc", "16", "--system", "d20"]],
    "levels": [["{levels}", "--levels", "1", "5"]],
    "size-gauges": [["{levels}", "--levels", "1", "5"]],
    "save-dc": [["{levels}", "--levels", "1", "5"]],
    "bestiary": [["--fp", "0", "2"], ["{monsters}"]],
    "fp-table": [["--fp", "0", "2"], ["{monsters}"]],
    "attack": [["-m", "3", "--ac", "14", "--wis", "1"], ["-m", "3"]],
    "defence-base": [["{levels}", "--levels", "1", "5"]],
}  # fmt: skip
#: A few monsters of a designer, for `defence-base --monsters`.
MONSTERS = """
[[monster]]
nom = "Gobelin"
FP = 1
CA = 15
caracteristiques = { FOR = 8, DEX = 14, CON = 10, INT = 10, SAG = 8, CHA = 8 }
attaques = { Cimeterre = 4 }

[[monster]]
name = "Ogre"
fp = 5
ac = 11
scores = { STR = 19, DEX = 8, CON = 16, INT = 5, WIS = 7, CHA = 7 }
attacks = { Greatclub = 6 }
"""

#: The option added, by its flag: the option with its value(s), and (after "|") what the base
#: needs beside it for the option to show (a reading of disadvantage, on a roll at disadvantage).
PROBES: dict[str, str] = {
    "--advantage": "--advantage advantage",
    "--kind": "--kind ability | --policy cancel",
    "--actor": "--actor npc",
    "--policy": "--policy cancel",
    "--reroll-on-failure": "--reroll-on-failure",
    "--disadvantage": "--disadvantage drop | --advantage disadvantage",
    "--rule-of-one": "--rule-of-one check | --kind save --policy cancel",
    "--ones-on-explosions": "--ones-on-explosions",
    "--overflow": "--overflow lost",
    "--drain-gauge": "--drain-gauge roll",
    "--close-contest": "--close-contest",
    "--lucky": "--lucky",
    "--lucky-timing": "--lucky-timing after_choice | --lucky --policy cancel",
    "--malus-die": "--malus-die plain | --advantage disadvantage",
    "--hiding-ties": "--hiding-ties observer",
    "--exact": "--exact",
    "--simulate": "--simulate",
    "--n": "--n 3000",
    "--seed": "--seed 5",
    "--threads": "--threads 2",
    "--format": "--format json",
    "--lang": "--lang fr",
    "--modifier": "--modifier 5",
    "--dc": "--dc 13",
    "--system": "--system d20",
    "--pmf": "--pmf",
    "--modifiers": "--modifiers 1",
    "--states": "--states normal",
    "--disadvantage-readings": "--disadvantage-readings both",
    "--vs": "--vs 3",
    "--vs-advantage": "--vs-advantage advantage",
    "--profiles": "--profiles a=1 b=3",
    "--reference": "--reference untrained",
    "--target": "--target 0.25",
    "--mode": "--mode at_least",
    "--gauge": "--gauge 7",
    "--days": "--days 3000",
    "--table": "--table empty",
    "--write-default-scenario": "--write-default-scenario {tmp}/s.toml",
    "--force": "--force",
    "--side": "--side x=A --side y=B",
    "--show": "--show orders",
    "--top": "--top 1 | --show orders",
    "--active": "--active 2",
    "--passive": "--passive 14",
    "--bids-a": "--bids-a 2",
    "--bids-b": "--bids-b 4",
    "--trigger": "--trigger one",
    "--builds": "--builds Bo",
    "--levels": "--levels 2",
    "--tests": "--tests Athletics",
    "--systems": "--systems d20",
    "--targets": "--targets moderate=0.3:0.6",
    "--risk": "--risk 0.3",
    "--rolls-per-day": "--rolls-per-day 30",
    # Bo and Cy keep their 1s: the day's DC shows in the day's name (the drain does not move)
    "--difficulty": "--difficulty hard",
    "--character": "--character Bo",
    "--gauges": "--gauges PA",
    "--casters": "--casters Cy",
    "--saves": "--saves DEX",
    "--criterion": "--criterion minimax",
    "--d20-base": "--d20-base 9",
    "--with-srd": "--with-srd",
    "--fp": "--fp 1/4",
    "--type": "--type beast",
    "--name": "--name gob",
    "--flagged": "--flagged",
    "--threshold": "--threshold 0.3",
    "--ac": "--ac 16",
    "--vd": "--vd 16",
    "--wis": "--wis 2",
    "--both-readings": "--both-readings",
    "--defence-base": "--defence-base 8",
    "--wisdom-in-defence": "--wisdom-in-defence none",
    "--armour-dex-cap": "--armour-dex-cap none",
    "--critical": "--critical two_sixes",
    "--monsters": "--monsters {monsters}",
    "--offsets": "--offsets 0",
}

#: Probes of one command, where its option of that flag takes other values than the others'.
COMMAND_PROBES: dict[tuple[str, str], str] = {
    ("levels", "--table"): "--table dcs",
    ("save-dc", "--table"): "--table cases",
    ("defence-base", "--table"): "--table cases",
    ("attack", "--rule-of-one"): "--rule-of-one check save attack | --actor npc",
    ("attack", "--actor"): "--actor npc | --rule-of-one check save attack",
    ("attack", "--modifier"): "--modifier 5",
    ("size-gauges", "--day"): "--day {day} --character Bo",
    # reroll's rolls are checks that keep their 1s, Lucky from --trigger one
    ("reroll", "--rule-of-one"): "--rule-of-one save",
    ("reroll", "--lucky-timing"): "--lucky-timing after_choice | --trigger one",
    # the configuration reads disadvantage as "drop" already
    ("levels", "--disadvantage"): "--disadvantage subtract | --advantage disadvantage",
    (
        "levels",
        "--malus-die",
    ): "--malus-die plain | --advantage disadvantage --disadvantage subtract",
    # the drain of a roll that keeps its 1s is the same whatever its total; under a policy
    # that weighs the total the malus die could move it, too rarely to show (SAME_ON)
    ("day", "--malus-die"): "--malus-die plain | --advantage disadvantage --policy best:0.5",
}

#: Options whose effect a base run cannot show, each with the reason and where it is checked.
SAME_ALLOWED = {
    "--no-progress": "a bar appears on a terminal, on long runs only: the engines receive "
    "progress=False (test_cli.py::test_no_progress_reaches_the_day_engine)",
    "--threads": "a seed gives the same numbers on any number of threads, by design "
    "(test_sampling.py); without --simulate it is refused",
    "--workers": "the grid's cases run in other processes, with the same numbers "
    "(test_levels.py::test_a_local_process_pool_gives_the_same_tables); refused where "
    "nothing runs a grid (test_cli_levels.py::test_bad_input_is_one_line_and_exit_2)",
    "--scheduler": "a Dask scheduler runs the grid's cases elsewhere, with the same numbers "
    "(test_sweep.py)",
}

#: (command, option) whose effect one base cannot show, with the reason.
SAME_ON = {
    ("day", "--malus-die"): "the time to empty (--gauge) reads the roll's drain law, which the "
    "malus die moves only through a best:λ choice, too rarely to show here; a scenario's "
    "success table shows it (tests/test_readings.py)",
}

#: Probes that restate what a base does already: its default method.
RESTATES = {
    ("day", "--simulate"): lambda base: "--gauge" not in base,  # a scenario is simulated
    ("day", "--exact"): lambda base: "--gauge" in base,  # rolls to empty: exact
}

#: The options of the commands that write files: checked by the tests named.
ELSEWHERE = {
    ("report", "--out"): "test_report.py",
    ("report", "--write-default-config"): "test_cli_files.py",
    ("report", "--force"): "test_cli_files.py",
    ("report", "--no-progress"): "test_report.py",
    ("report", "--lang"): "test_report_fr.py",
    ("report", "--no-cache"): "test_cache.py::test_report_and_explore_take_no_cache",
    ("explore", "--no-cache"): "test_cache.py::test_report_and_explore_take_no_cache",
    ("explore", "--out"): "test_explorer.py, test_cli_files.py",
    ("explore", "--lang"): "test_explorer.py",
    ("sweep", "--out"): "test_sweep.py, test_cli_files.py",
    ("sweep", "--scheduler"): "test_sweep.py",
    ("sweep", "--workers"): "test_sweep.py",
    ("sweep", "--seed"): "test_sweep.py",
    ("sweep", "--no-progress"): "test_sweep.py",
    ("sweep", "--no-worker-timeout"): "test_sweep_faults.py",
    ("sweep", "--partial"): "test_sweep_faults.py",
    # the readings command runs the sensitivity table (seconds a run): its options are
    # checked by its own tests, each against direct calls of the API
    **{
        ("readings", flag): "test_cli_readings.py"
        for flag in (
            *("--disadvantage", "--rule-of-one", "--ones-on-explosions", "--overflow"),
            *("--drain-gauge", "--close-contest", "--lucky-timing", "--malus-die"),
            *("--hiding-ties", "--deception-noticed", "--format", "--lang", "--parts"),
            *("--switches", "--day-method", "--days", "--seed", "--modifiers", "--dc"),
            *("--states", "--kinds", "--rerolls", "--policies", "--show"),
            *("--defence-base", "--wisdom-in-defence", "--armour-dex-cap", "--critical"),
        )
    },
}

#: Columns that describe a run rather than give its numbers.
DESCRIPTION = {"rules", "roll", "roll_desc", "scenario", "label"}


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def _numbers(text: str, fmt: str) -> object:
    """What a run says, its descriptive columns left out (json), or its text."""
    if fmt != "json":
        return text
    data = json.loads(text)
    tables = data if isinstance(data, dict) else {"": data}  # levels: a table per name
    frames = {k: pd.DataFrame(rows) for k, rows in tables.items()}
    return {
        k: f.drop(columns=[c for c in DESCRIPTION if c in f]).to_json() for k, f in frames.items()
    }


def _parsed(argv: list[str]) -> dict[str, object] | None:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        return None
    # `explicit` records which options were written, not what they ask for
    drop = ("func", "command_parser", "writes", "explicit")
    return {k: v for k, v in vars(args).items() if k not in drop}


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _options(name: str) -> list[str]:
    return [_name(a) for a in _subparser(name)._actions if a.option_strings and a.dest != "help"]


def _name(action: argparse.Action) -> str:
    """An option by its longest name: a switch's --flag, not its --no-flag."""
    names = [o for o in action.option_strings if not o.startswith("--no-")]
    return max(names or action.option_strings, key=len)


def _cases() -> list[tuple[str, str]]:
    return [(c.name, flag) for c in COMMANDS for flag in _options(c.name)]


def test_every_option_of_every_command_has_a_probe():
    missing = [
        (name, flag)
        for name, flag in _cases()
        if (name, flag) not in ELSEWHERE
        and (
            name not in BASES
            or ((name, flag) not in COMMAND_PROBES and flag not in PROBES | SAME_ALLOWED)
        )
    ]
    assert missing == [], "add a probe (PROBES) or a line in ELSEWHERE for each"


@pytest.mark.parametrize(("name", "flag"), [c for c in _cases() if c[0] in BASES], ids=str)
def test_an_option_is_applied_or_refused(name, flag, tmp_path):
    if flag not in PROBES and (name, flag) not in COMMAND_PROBES:
        pytest.skip(SAME_ALLOWED[flag])
    day = tmp_path / "day.toml"
    day.write_text(DAY, encoding="utf-8")
    levels = tmp_path / "levels.toml"
    levels.write_text(LEVELS_CONFIG, encoding="utf-8")
    monsters = tmp_path / "monsters.toml"
    monsters.write_text(MONSTERS, encoding="utf-8")
    paths = {"tmp": tmp_path, "day": day, "levels": levels, "monsters": monsters}
    spec = COMMAND_PROBES.get((name, flag)) or PROBES[flag]
    option, _, context = spec.format(**paths).partition("|")
    probe, context = option.split(), context.split()
    fmt = {"--format": "text", "--lang": "text"}.get(flag, "json")
    for base in ([a.format(**paths) for a in b] for b in BASES[name]):
        argv = [name, *base, *context, *(["--format", fmt] if flag != "--format" else [])]
        if RESTATES.get((name, flag), lambda base: False)(base):
            continue
        if _parsed([*argv, *probe]) == _parsed(argv):
            continue  # the probe says what the base does already
        code0, out0, err0 = _run(argv)
        if code0 == 2 and context:
            continue  # the context does not apply to this base (refused, as tested)
        assert code0 == 0, (argv, err0)
        code, out, err = _run([*argv, *probe])
        if code == 2:  # refused, in one line
            assert err.count("\n") == 1 and "Traceback" not in err, err
            continue
        assert code == 0, (argv, probe, err)
        ignored = _numbers(out, "json" if flag == "--format" else fmt) == _numbers(out0, fmt)
        assert not ignored or flag in SAME_ALLOWED or (name, flag) in SAME_ON, (
            f"{' '.join(argv)} {' '.join(probe)}: ignored"
        )
