"""The command line run as a subprocess: exit codes, one-line errors, numbers equal to the API."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from explodice import Best, Roll, Rules, d20, exact, frontier, opposed, simulate, success_table

CLI = [
    sys.executable,
    "-m",
    "explodice_launch",
]  # the console script: Ctrl-C honoured during imports too
GRID = str(Path(__file__).resolve().parent.parent / "src/explodice/data/sweep_example.toml")


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"MPLBACKEND": "Agg"}
    return subprocess.run(
        CLI + list(args), capture_output=True, text=True, timeout=timeout, env=env
    )


def records(*args: str) -> list[dict]:
    out = run(*args, "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_odds_json_matches_the_exact_engine():
    rows = records(
        "odds",
        "--modifier",
        "4",
        "--dc",
        "12",
        "16",
        "22",
        "--advantage",
        "advantage",
        "--disadvantage",
        "drop",
    )
    d = exact(Roll(4, advantage="advantage"), Rules(disadvantage="drop"))
    assert [r["dc"] for r in rows] == [12, 16, 22]
    for r in rows:
        assert r["p"] == pytest.approx(d.p_success(r["dc"]), abs=1e-12)
        assert r["method"] == "exact"
    assert rows[0]["drain_mean"] == pytest.approx(d.drain_mean)


def test_odds_simulated_matches_simulate_with_the_same_seed():
    rows = records(
        "odds",
        "-m",
        "2",
        "--dc",
        "16",
        "--simulate",
        "--n",
        "20000",
        "--seed",
        "7",
        "--threads",
        "1",
    )
    d = simulate(Roll(2), n=20_000, seed=7, threads=1)
    assert rows[0]["p"] * 20_000 == pytest.approx(d.p_success(16) * 20_000, abs=1e-6)
    assert rows[0]["n"] == 20_000 and rows[0]["seed"] == 7
    assert rows[0]["ci_low"] < rows[0]["p"] < rows[0]["ci_high"]


def test_odds_d20_and_best_policy():
    rows = records("odds", "--system", "d20", "-m", "3", "--dc", "15")
    assert rows[0]["p"] == pytest.approx(0.45)  # by hand: faces 12..20 of 20
    rows = records("odds", "-m", "2", "--dc", "16", "--policy", "best:0.1")
    assert rows[0]["p"] == pytest.approx(exact(Roll(2, policy=Best(16, 0.1))).p_success(16))


def test_odds_text_is_an_aligned_table_with_provenance():
    out = run("odds", "-m", "0", "--dc", "8")
    assert out.returncode == 0
    assert out.stdout.startswith("# 3d6x+0, normal, check, pc, keep\n# 3d6x exact")
    assert "83.8%" in out.stdout  # 181/216, in the one percent format of every command


def test_table_csv_is_the_tidy_success_table():
    out = run("table", "--modifiers", "0", "4", "--dc", "12", "16", "--format", "csv")
    assert out.returncode == 0, out.stderr
    got = pd.read_csv(io.StringIO(out.stdout))
    want = success_table([0, 4], [12, 16])
    assert len(got) == len(want)
    merged = got.merge(want, on=["modifier", "dc", "advantage"], suffixes=("", "_api"))
    assert (merged.p - merged.p_api).abs().max() < 1e-12
    text = run("table", "--modifiers", "0", "--dc", "8", "--disadvantage-readings", "both")
    assert "83.8%" in text.stdout and "disadvantage (drop)" in text.stdout


def test_table_disadvantage_drop_is_used():
    # `--disadvantage drop` sets the one reading the table shows: 2d6x. By hand: a total below 8
    # needs no 6 (a 6 explodes to 7 or more, plus the other die) and two faces of 1..5 summing
    # to 7 at most: 5 + 5 + 4 + 3 + 2 = 19 of the 36 throws.
    out = records(
        "table",
        "--modifiers",
        "0",
        "--dc",
        "8",
        "--states",
        "disadvantage",
        "--disadvantage",
        "drop",
    )
    assert [r["advantage"] for r in out] == ["disadvantage (drop)"]
    assert out[0]["p"] == pytest.approx(1 - 19 / 36, abs=1e-12)


def test_opposed_compare_frontier_day():
    o = records("opposed", "-m", "2", "--vs", "0")[0]
    api = opposed(Roll(2), Roll(0))
    assert (o["win"], o["tie"], o["loss"]) == pytest.approx((api.win, api.tie, api.loss))
    o = records("opposed", "--system", "d20")[0]
    assert o["tie"] == pytest.approx(0.05)  # 20 equal pairs of 400
    eq = records("compare", "-m", "4")
    assert {r["d20_dc"] for r in eq} == {5, 10, 15, 20, 25, 30}
    assert all(r["p_d20"] == pytest.approx(d20(Roll(4)).p_success(r["d20_dc"])) for r in eq)
    front = records("frontier", "-m", "2", "--dc", "16")
    api_front = frontier(2, 16)
    assert [r["p_success"] for r in front] == pytest.approx(api_front.p_success.tolist())
    day = records("day", "--gauge", "10", "-m", "0", "--dc", "12", "--policy", "best:0.05")
    assert sum(r["p"] for r in day) == pytest.approx(1.0, abs=1e-9)


def test_compare_reference_defaults_to_a_given_profile():
    # without --reference: "trained" when there is one, else the first profile given
    out = run("compare", "--profiles", "novice=0", "veteran=6")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# the d20 DC table mapped onto 3d6x for novice, normal;")
    out = run("compare", "--profiles", "novice=0", "trained=4")
    assert out.stdout.startswith("# the d20 DC table mapped onto 3d6x for trained, normal;")


def test_odds_text_names_the_roll():
    out = run("odds", "-m", "2", "--dc", "16", "--policy", "best:0.1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "# 3d6x+2, normal, check, pc, best(dc=16, λ=0.1)"


def test_no_progress_reaches_the_day_engine(monkeypatch):
    from explodice.present import cli
    from explodice.present.cli import day

    seen = []

    def fake(*args, **kwargs):
        seen.append(kwargs["progress"])
        raise KeyboardInterrupt

    monkeypatch.setattr(day, "rolls_to_empty", fake)
    assert cli.main(["day", "--no-progress"]) == 130
    assert cli.main(["day"]) == 130
    assert seen == [False, None]  # None: the engine's own rule (a bar on long runs)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["odds", "--advantage", "sideways"], "--advantage"),
        (["odds", "--policy", "sometimes"], "--policy"),
        (["odds", "--disadvantage", "halve"], "--disadvantage"),
        (["odds", "--n", "0", "--simulate"], "--n"),
        (["frobnicate"], "frobnicate"),
        (["opposed", "--policy", "best:0.1"], "policy"),
        (["compare", "--profiles", "trained"], "profiles"),
    ],
)
def test_bad_options_exit_2_with_one_line(args, needle):
    out = run(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], out.stderr
    assert "Traceback" not in out.stderr


def test_bad_files_exit_2_with_one_line(tmp_path):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("title = [unclosed\n")
    zero = tmp_path / "zero.toml"
    zero.write_text(
        '[[character]]\nname = "Zed"\n'
        "scores = { STR = 0, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 10 }\n"
    )
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for args, needle in (
        [("report", str(bad_toml)), "not valid TOML"],
        [("report", str(zero)), "STR"],
        [("report", str(tmp_path / "missing.toml")), "cannot be read"],
        [("report", "--out", str(blocker / "sub")), str(blocker)],
        [("day", str(bad_toml)), "not valid TOML"],
        [("sweep", str(bad_toml)), "not valid TOML"],
        [("sweep", GRID, "--out", str(blocker / "x.csv")), "--out"],
    ):
        out = run(*args)
        assert out.returncode == 2, (args, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], (args, out.stderr)
        assert "Traceback" not in out.stderr


def test_write_default_config_then_refuse_to_overwrite(tmp_path):
    target = tmp_path / "mine.toml"
    out = run("report", "--write-default-config", str(target))
    assert out.returncode == 0 and target.read_text().startswith("# explodice")
    again = run("report", "--write-default-config", str(target))
    assert again.returncode == 2 and "already exists" in again.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_cleanly_with_status_130():
    env = os.environ | {"MPLBACKEND": "Agg"}
    proc = subprocess.Popen(
        CLI + ["odds", "--simulate", "--n", "100000000000", "--seed", "1", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(4)  # imports, then into the simulation loop
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "explodice: interrupted"
    assert "Traceback" not in err


def test_odds_refuses_several_dcs_for_a_roll_bound_to_its_dc():
    # a reroll on failure (and best:λ) is spent against the roll's DC: one DC per roll, or each
    # row would answer another question (found in review)
    out = run("odds", "-m", "2", "--dc", "16", "17", "--reroll-on-failure")
    assert out.returncode == 2 and "one DC" in out.stderr and "Traceback" not in out.stderr
    one = records("odds", "-m", "2", "--dc", "17", "--reroll-on-failure")
    p = exact(Roll(2)).p_success(17)
    assert one[0]["p"] == pytest.approx(1 - (1 - p) ** 2, abs=1e-12)


ROOT = Path(__file__).resolve().parent.parent


def test_what_users_read_names_the_rules_file_they_have():
    # issue 21: the CLI's help, the report's title page, the default configuration and the
    # notebooks named RULES.md (or shared/RULES.md), a file users do not have; and an example
    # grid named an issue number of the project's tracker
    help_text = run("odds", "--help").stdout
    assert "docs/rules.md" in help_text and "RULES.md" not in help_text
    assert (ROOT / "docs" / "rules.md").is_file()
    shipped = [
        *(ROOT / "src" / "explodice").rglob("*.py"),
        *(ROOT / "src" / "explodice" / "data").glob("*.toml"),
        *(ROOT / "src" / "explodice" / "present" / "locale").rglob("*.po*"),
        *(ROOT / "notebooks").glob("*.ipynb"),
        ROOT / "README.md",
        ROOT / "docs" / "rules.md",
    ]
    named = [str(p.relative_to(ROOT)) for p in shipped if "RULES.md" in p.read_text("utf-8")]
    assert named == []
    example = (ROOT / "src" / "explodice" / "data" / "sweep_example.toml").read_text("utf-8")
    assert "issue" not in example.lower()
    # nor what users read ("7-14 times less than before issue 22")
    for doc in ("README.md", "docs/rules.md"):
        text = " ".join((ROOT / doc).read_text("utf-8").split())
        assert re.findall(r".{30}\bissues? \d+.{10}", text) == [], doc


def _main(*argv: str) -> tuple[int, str, str]:
    """The command line in this process: status, stdout, stderr (argparse's exits too)."""
    from explodice.present.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def test_an_abbreviated_option_is_refused_never_guessed():
    # argparse's abbreviations: `odds --mod 2` read as --modifier, and `hide --n 100000` was
    # "ambiguous" against --no-ones-on-explosions: an option is written whole or refused
    for argv, word in (
        (["odds", "--mod", "2"], "unrecognized arguments: --mod 2"),
        (["hide", "-m", "5", "--passive", "14", "--n", "1000"], "unrecognized arguments: --n"),
        (["day", "--gau", "20"], "unrecognized arguments: --gau"),
    ):
        code, out, err = _main(*argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        assert word in err and "ambiguous" not in err, err
    # every command's parser: `--hel` would have printed its help (a command's required
    # option may be named first)
    from explodice.present.cli.app import build_parser
    from explodice.present.cli.commands import COMMANDS

    assert build_parser().allow_abbrev is False
    for name in (c.name for c in COMMANDS):
        code, out, err = _main(name, "--hel")
        assert code == 2 and out == "" and err.count("\n") == 1, (name, out, err)


def test_opposed_reads_the_policy_as_odds_does():
    # issue 21: `opposed --policy Keep` was refused ("Keep" is keep) while odds took it
    rows = records("opposed", "-m", "2", "--vs", "0", "--policy", "Keep")
    api = opposed(Roll(2), Roll(0))
    assert (rows[0]["win"], rows[0]["tie"]) == pytest.approx((api.win, api.tie), abs=1e-12)
    cancel = records("opposed", "-m", "2", "--policy", " CANCEL ")[0]
    api = opposed(Roll(2, policy="cancel"), Roll(0))
    assert cancel["win"] == pytest.approx(api.win, abs=1e-12)
    for policy in ("best:0.1", "best:0.1@16"):  # best weighs P(total >= DC): none here
        code, _, err = _main("opposed", "--policy", policy)
        assert code == 2 and "keep or cancel" in err and err.count("\n") == 1


def test_a_bug_is_a_traceback_not_bad_input(monkeypatch):
    # issue 21: main turned every ValueError (a bug in pandas' or numpy's hands) into "bad
    # input, exit 2"; only the package's errors and the system's (OSError) are the user's
    from explodice.present.cli import odds

    def broken(*args, **kwargs):
        raise ValueError("a bug deep inside")

    monkeypatch.setattr(odds, "ask", broken)  # the question the command asks
    with pytest.raises(ValueError, match="a bug deep inside"):
        _main("odds")


@pytest.mark.parametrize(
    "argv",
    [
        ["initiative", "A=1.5", "B=1"],
        ["initiative", "A=1e400", "B=1"],
        ["initiative", "A=3", "B=1", "--show", "orders", "--top", "2.5"],
        ["hide", "-m", "1.5", "--passive", "12"],
        ["hide", "--passive", "1e400"],
        ["hide", "--active", "nan"],
        ["contest", "--bids-a", "2.5"],
        ["contest", "--bids-a", "1e400"],
        ["reroll", "-m", "1.5"],
        ["reroll", "--dc", "1e400"],
        ["compare", "--profiles", "a=1e400"],
    ],
    ids=" ".join,
)
def test_the_rules_commands_read_numbers_strictly(argv):
    code, _, err = _main(*argv)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


def test_numbers_of_the_rules_commands_written_exactly_are_accepted():
    code, out, _ = _main("initiative", "A=3e0", "B=1", "--format", "json")
    assert code == 0 and {r["creature"] for r in json.loads(out)} == {"A", "B"}
    code, out, _ = _main("reroll", "-m", "1e0", "--dc", "1_6", "--format", "json")
    assert code == 0 and json.loads(out)[0]["dc"] == 16


def test_initiative_refuses_what_it_would_get_wrong():
    # issue 26: A=3 A=5 dropped A=3; a creature twice on a side gave 18.4 % / 46.9 %; one
    # side printed an empty table; --top -1 dropped the last order
    for argv, needle in (
        (["initiative", "A=3", "A=5", "B=1"], "twice"),
        (["initiative", "A=3", "B=1", "--side", "x=A,A", "--side", "y=B"], "twice"),
        (["initiative", "A=3", "B=1", "C=0", "--side", "x=A,B", "--side", "y=B,C"], "too"),
        (["initiative", "A=3", "B=1", "C=0", "--side", "x=A", "--side", "y=B"], "'C'"),
        (["initiative", "A=3", "B=1", "--side", "x=A,B"], "two sides"),
        (["initiative", "A=3", "B=1", "--side", "x=A", "--side", "x=B"], "twice"),
        (["initiative", "A=3", "B=1", "--side", "x=A", "--side", "y=Z"], "'Z'"),
        (["initiative", "A=3", "B=1", "--show", "orders", "--top", "-1"], "--top"),
        (["initiative", "A=3", "B=1", "--show", "orders", "--top", "0"], "--top"),
        (["initiative", "A=3", "B=1", "--show", "sides"], "--side"),
    ):
        out = run(*argv) if needle == "twice" and "A=5" in argv else None
        code, _, err = (out.returncode, out.stdout, out.stderr) if out else _main(*argv)
        assert code == 2 and needle in err and err.count("\n") == 1, (argv, err)
        assert "Traceback" not in err
    # a partition: by the opposed test, A (+3) acts before B (+1) when it wins or ties
    rows = records("initiative", "A=3", "B=1", "--side", "x=A", "--side", "y=B")
    o = opposed(Roll(3), Roll(1))
    first = {(r["first"], r["second"]): r["p"] for r in rows}
    assert first[("x", "y")] == pytest.approx(o.win + o.tie, abs=1e-12)
    assert first[("y", "x")] == pytest.approx(o.loss, abs=1e-12)


def test_dc_finds_the_dc_for_a_target_probability():
    # by hand: d20 + 3 has 45 % at DC 15 (faces 12..20: 9 of 20)
    rows = records("dc", "-m", "3", "--target", "0.45", "--system", "d20")
    assert rows[0]["dc"] == 15 and rows[0]["p"] == pytest.approx(9 / 20)
    # 3d6x + 0: P(total >= 12) = 1/2 + a little from explosions: the closest DC to 50 %
    d = exact(Roll(0))
    rows = records("dc", "--target", "0.5", "25%")
    assert [r["dc"] for r in rows] == [12, 16]
    assert [r["p"] for r in rows] == pytest.approx([d.p_success(12), d.p_success(16)], abs=1e-12)
    # the shared options reach the roll: advantage, Lucky, the reading of disadvantage
    from explodice import Reroll, dc_for_probability

    for extra, roll, rules in (
        (["--advantage", "advantage"], Roll(3, advantage="advantage"), None),
        (["--lucky"], Roll(3, reroll=Reroll("one")), None),
        (
            ["--advantage", "disadvantage", "--disadvantage", "drop"],
            Roll(3, advantage="disadvantage"),
            Rules(disadvantage="drop"),
        ),
    ):
        code, out, err = _main("dc", "-m", "3", "--target", "0.3", *extra, "--format", "json")
        assert code == 0, err
        assert json.loads(out)[0]["dc"] == dc_for_probability(roll, 0.3, rules=rules)
    code, out, _ = _main("dc", "-m", "3", "--target", "0.5", "--lang", "fr")
    assert code == 0 and "DD" in out and "\xa0%" in out
    for argv in (["dc", "--target", "1.5"], ["dc", "--target", "0.5", "--policy", "best:0.1"]):
        code, _, err = _main(*argv)
        assert code == 2 and err.count("\n") == 1, err
    assert "explodice dc -m 3 --target 0.5" in (ROOT / "README.md").read_text("utf-8")


#: Every command's text table, one call each (their probabilities shown in percent).
TEXT_CALLS = [
    ["odds", "-m", "0", "--dc", "8"],
    ["odds", "-m", "0", "--dc", "8", "--simulate", "--n", "20000", "--seed", "1", "--threads", "1"],
    ["table", "--modifiers", "0", "--dc", "8", "--states", "normal"],
    ["frontier", "-m", "2", "--dc", "16"],
    ["opposed", "-m", "2"],
    ["compare", "-m", "4"],
    ["compare"],
    ["dc", "--target", "0.5"],
    ["day", "--gauge", "20"],
    ["initiative", "A=3", "B=1"],
    ["hide", "-m", "3", "--passive", "12"],
    ["contest", "--bids-a", "3", "--bids-b", "uniform:4"],
    ["reroll", "-m", "0", "--dc", "16"],
    ["levels", "BUILDS.toml", "--builds", "Bo", "--levels", "1"],
    ["size-gauges", "BUILDS.toml", "--builds", "Bo", "--levels", "1", "--rolls-per-day", "3"],
    ["save-dc", "BUILDS.toml", "--builds", "Bo"],
    ["day", "SCENARIO.toml", "--exact"],
    # its changes are percentage points (+20.1 pp), its grid's DC table a percentage
    [
        "readings",
        "SCENARIO.toml",
        "--modifiers",
        "0",
        "--dc",
        "12",
        "--kinds",
        "check",
        "--policies",
        "cancel",
        "--day-method",
        "none",
    ],  # fmt: skip
]


@pytest.fixture(scope="module")
def text_call_files(tmp_path_factory) -> dict[str, str]:
    """The files TEXT_CALLS name: two builds (test_cli_levels' configuration), a day."""
    from tests.test_cli_levels import CONFIG
    from tests.test_cli_readings import SCENARIO

    folder = tmp_path_factory.mktemp("text_calls")
    (folder / "builds.toml").write_text(CONFIG, encoding="utf-8")
    (folder / "day.toml").write_text(SCENARIO, encoding="utf-8")
    return {"BUILDS.toml": str(folder / "builds.toml"), "SCENARIO.toml": str(folder / "day.toml")}


@pytest.mark.parametrize("argv", TEXT_CALLS, ids=" ".join)
def test_every_command_writes_percentages_one_way(argv, text_call_files):
    # issue 21: odds 97.299%, table 83.8%, reroll 83.8 %, day 90 %: one format, the
    # language's (83.8% in English, 83,8 % in French), one decimal unless a simulated
    # interval needs more; levels wrote 57 %, save-dc 17.0 % and +8.8 % (issue 21.10)
    argv = [text_call_files.get(a, a) for a in argv]
    for lang, point, pct, pp in (
        ("en", r"\.", "%", " pp"),
        ("fr", ",", "\xa0%", "\xa0pts"),
    ):
        code, out, err = _main(*argv, "--lang", lang)
        assert code == 0, err
        shown = re.findall(r"[\d.,]+\s?%", out)  # (a quantile's label: "90% by roll 18")
        points = re.findall(r"[\d.,]+\s?(?:pp|pts)\b", out)  # readings: its changes
        assert shown or points, out
        assert all(re.fullmatch(rf"\d{{1,3}}({point}\d)?{pct}", p) for p in shown), shown
        assert all(re.fullmatch(rf"\d{{1,3}}({point}\d)?{pp}", p) for p in points), points


def test_day_gauge_applies_lucky_and_the_reroll_on_failure():
    # issue 26: --lucky and --reroll-on-failure changed nothing in `day --gauge` (11.22 rolls
    # to empty 20 points); the issue's own computation gave 37.36 with Lucky (fewer 1s) and
    # 7.15 with a reroll on failure at DC 16 (a failed roll's reroll drains too)
    def mean(rows):
        return sum(r["rolls"] * r["p"] for r in rows)

    plain = records("day", "--gauge", "20")
    lucky = records("day", "--gauge", "20", "--lucky")
    failure = records("day", "--gauge", "20", "-m", "2", "--dc", "16", "--reroll-on-failure")
    assert round(mean(plain), 2) == 11.22
    assert round(mean(lucky), 2) == 37.36
    assert round(mean(failure), 2) == 7.15
    # and by a second method: the simulated day, whose character carries the trait
    sim = records(
        "day", "--gauge", "20", "--lucky", "--simulate", "--days", "40000", "--seed", "3",
        "--threads", "1", "--no-progress",
    )  # fmt: skip
    second = sum(r["rolls"] ** 2 * r["p"] for r in lucky) - mean(lucky) ** 2
    assert abs(mean(sim) - mean(lucky)) < 4 * (second / 40_000) ** 0.5
    # under keep (or cancel), the drain does not depend on the total: -m and --dc are refused
    code, _, err = _main("day", "--gauge", "20", "-m", "2", "--dc", "16", "--lucky")
    assert code == 2 and "does not depend on its total" in err


def test_exact_day_tables_say_p_and_nothing_only_a_sample_has():
    # issue 21: `day SCENARIO --exact --table empty|first_empty|drain` printed a `count` column
    # holding probabilities, with ci_low == ci_high == p
    example = str(ROOT / "src" / "explodice" / "data" / "day_example.toml")
    for table in ("empty", "first_empty", "drain", "roll_types", "gauges"):
        csv = run("day", example, "--exact", "--table", table, "--format", "csv")
        assert csv.returncode == 0, csv.stderr
        columns = set(csv.stdout.splitlines()[0].split(","))
        assert not {"count", "ci_low", "ci_high", "drain_se"} & columns, (table, columns)
        assert {"p", "p_empty"} & columns, table
        text = run("day", example, "--exact", "--table", table)
        head = text.stdout.splitlines()[1]  # the header line of the table
        assert "count" not in head and "ci_low" not in head, (table, head)
    # an exact table has no seed: an empty cell (csv) and null (json), as odds writes, never
    # the text "None"
    for argv in ([example, "--exact", "--table", "empty"], ["--gauge", "20"]):
        csv = run("day", *argv, "--format", "csv")
        assert set(pd.read_csv(io.StringIO(csv.stdout), keep_default_na=False).seed) == {""}
        assert {r["seed"] for r in records("day", *argv)} == {None}
    drain = pd.read_csv(io.StringIO(run("day", example, "--exact", "--table", "drain",
                                        "--format", "csv").stdout))  # fmt: skip
    # a day's drain per gauge is a distribution: its p sum to 1 (less the cut, < 1e-12)
    assert drain.groupby(["character", "gauge"]).p.sum().to_numpy() == pytest.approx(1, abs=1e-9)
    simulated = run("day", example, "--days", "2000", "--seed", "1", "--table", "empty",
                    "--format", "csv")  # fmt: skip
    assert {"count", "ci_low", "ci_high"} <= set(simulated.stdout.splitlines()[0].split(","))


def _readme_day_lines() -> list[str]:
    """The README's `explodice day ... --exact --table drain` lines, without their comments."""
    readme = (ROOT / "README.md").read_text("utf-8")
    return [
        line.split("#")[0].split()
        for line in readme.splitlines()
        if line.startswith("explodice day ") and "--table drain" in line
    ]


def test_the_readmes_exact_drain_line_runs(monkeypatch):
    # the walk-through: `explodice day my-scenario.toml --exact --table drain` exited 2 (the
    # default scenario's 40 rolls for three characters are past the drain tables' bound); the
    # README now names the packaged example day, which the command reads in a few seconds
    lines = _readme_day_lines()
    assert lines, "the README shows a day's drain table"
    monkeypatch.chdir(ROOT)
    for argv in lines:
        code, out, err = _main(*argv[1:])
        assert code == 0, err
        assert re.search(r"^ *character +gauge +drain +p +clamped$", out, re.M)  # its header


def test_the_day_commands_roll_is_written_in_the_users_language():
    # newcomer's walk: under --lang fr the header wrote "3d6x+2, advantage, check, pc, best(...)"
    argv = ["day", "--gauge", "20", "-m", "2", "--dc", "16", "--policy", "best:0.05"]
    code, out, err = _main(*argv, "--advantage", "advantage", "--lang", "fr")
    assert code == 0, err
    first = out.splitlines()[0]
    assert "3d6x+2, avantage, test, PJ, meilleur(DD 16, λ=0,05)" in first, first
    code, out, err = _main(*argv, "--advantage", "advantage")
    assert code == 0 and "3d6x+2, advantage, check, pc, best(dc=16, λ=0.05)" in out, err
