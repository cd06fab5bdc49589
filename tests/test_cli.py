"""The command line run as a subprocess: exit codes, one-line errors, numbers equal to the API."""

from __future__ import annotations

import io
import json
import os
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
    assert out.stdout.startswith("# the d20 DC table mapped onto 3d6x for novice;")
    out = run("compare", "--profiles", "novice=0", "trained=4")
    assert out.stdout.startswith("# the d20 DC table mapped onto 3d6x for trained;")


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
