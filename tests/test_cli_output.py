"""What the commands print reaches the reader whole and exact (issue 30.2, 30.5).

- ``--format json`` writes every double exactly (the shortest text that reads back to the same
  double, as the CSV does): every command that has ``--format``, walked from ``COMMANDS``,
  gives the same numbers in json as in csv, bit for bit.
- A closed standard output (``>&-``) or a pipe closed early (``| head -c 1``) is one line on
  stderr and exit status 2, for every command: never a traceback, never exit 0 with the
  output lost.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from explodice.present.cli.app import main
from explodice.present.cli.commands import COMMANDS
from explodice.present.cli.output import json_records, json_text
from tests.test_cli_options import BASES, DAY, _options
from tests.test_cli_options import LEVELS_CONFIG as LEVELS

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = [sys.executable, str(ROOT / "src" / "explodice_launch.py")]
#: Commands with --format but no base in test_cli_options (slow ones get a small run here).
MORE_BASES = {
    "readings": [
        "--parts", "dc_table", "--switches", "disadvantage", "--modifiers", "0", "--dc", "16",
        "--kinds", "check", "--rerolls", "none", "--states", "disadvantage",
    ],
}  # fmt: skip


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def _formatted() -> list[str]:
    return [c.name for c in COMMANDS if "--format" in _options(c.name)]


def test_every_command_with_format_is_covered():
    assert set(_formatted()) <= set(BASES) | set(MORE_BASES)


def _base(name: str, tmp_path: Path) -> list[str]:
    (tmp_path / "day.toml").write_text(DAY)
    (tmp_path / "levels.toml").write_text(LEVELS)
    paths = {"tmp": tmp_path, "day": tmp_path / "day.toml", "levels": tmp_path / "levels.toml"}
    base = MORE_BASES.get(name) or BASES[name][0]
    return [a.format(**paths) for a in base]


def _same(csv_cell: object, json_cell: object) -> bool:
    """A csv cell (as pandas reads it back) and a json cell are the same value: a double bit
    for bit (infinity too), a missing value (or an empty text) on both sides, text as written
    (a formula-like csv cell has a leading ')."""
    missing = csv_cell is None or (isinstance(csv_cell, float) and math.isnan(csv_cell))
    if json_cell is None or json_cell == "":  # csv writes an empty text as a missing value
        return missing
    if isinstance(json_cell, bool) or isinstance(csv_cell, bool):
        return str(csv_cell).lower() == str(json_cell).lower()
    if isinstance(json_cell, (int, float)):
        return float(csv_cell) == float(json_cell)  # bit for bit: no tolerance
    return str(csv_cell).removeprefix("'") == str(json_cell)


@pytest.mark.parametrize("name", _formatted())
def test_json_gives_every_double_of_the_csv_exactly(name, tmp_path):
    base = _base(name, tmp_path)
    if name == "levels":
        base += ["--table", "progression"]  # csv writes one table
    code_csv, csv_text, err = _run([name, *base, "--format", "csv"])
    assert code_csv == 0, err
    code_json, json_out, err = _run([name, *base, "--format", "json"])
    assert code_json == 0, err
    rows = json.loads(json_out)
    frame = pd.read_csv(io.StringIO(csv_text), keep_default_na=False, na_values=[""])
    assert len(rows) == len(frame) > 0
    assert list(rows[0]) == list(frame.columns)
    for i, row in enumerate(rows):
        for col, value in row.items():
            assert _same(frame[col].iloc[i], value), (name, i, col, frame[col].iloc[i], value)


def test_json_keeps_a_tiny_probability_and_all_17_digits():
    frame = pd.DataFrame(
        {"p": [3.1e-17, 0.4907407407407028, 2.54026598033233e-06, float("nan")], "n": [1, 2, 3, 4]}
    )
    back = pd.DataFrame(json.loads(json_text(frame.assign(hi=math.inf))))
    assert back.p.iloc[:3].tolist() == frame.p.iloc[:3].tolist()  # == : bit for bit
    assert json_records(frame)[3]["p"] is None and back.p.isna().iloc[3]  # NaN is null
    assert (back.hi == math.inf).all()  # infinity reads back as infinity
    json.loads(json_text(frame.assign(hi=math.inf)), parse_constant=_refuse)  # valid JSON


def _refuse(token: str) -> None:
    raise AssertionError(f"not JSON: {token}")


def test_odds_json_at_a_dc_out_of_reach_is_not_rounded_to_zero():
    # P(3d6x at disadvantage >= 130) is about 7.6e-15: 15 decimals wrote 0.000000000000008
    code, out, err = _run(["odds", "-m", "0", "--dc", "130", "--advantage", "disadvantage",
                           "--format", "json"])  # fmt: skip
    assert code == 0, err
    code, csv_text, _ = _run(["odds", "-m", "0", "--dc", "130", "--advantage", "disadvantage",
                              "--format", "csv"])  # fmt: skip
    p_json = json.loads(out)[0]["p"]
    p_csv = float(pd.read_csv(io.StringIO(csv_text)).p.iloc[0])
    assert 0 < p_csv < 1e-13 and p_json == p_csv


# -- a closed or broken standard output --------------------------------------------------------
def _env() -> dict[str, str]:
    return os.environ | {"PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "MPLBACKEND": "Agg"}


#: One quick command line per command (what a closed output does not depend on the command:
#: the check is made before any work, and the flush after it).
QUICK = {
    "report": ["report", "--out", "{tmp}/r"],
    "explore": ["explore", "--out", "{tmp}/e.html"],
    "sweep": ["sweep", "{tmp}/g.toml", "--out", "{tmp}/g.csv"],
    "readings": ["readings", *MORE_BASES["readings"]],
}


def _quick(name: str, tmp_path: Path) -> list[str]:
    (tmp_path / "g.toml").write_text('task = "success"\n[grid]\nmodifier = [0]\ndc = 16\n')
    if name in QUICK:
        return [a.format(tmp=tmp_path) for a in QUICK[name]]
    return [name, *_base(name, tmp_path)]


#: The commands whose closed output is checked in the quick suite (each run is a process of
#: a few seconds; the others run with the slow checks).
QUICK_CLOSED = ("odds", "levels", "report", "sweep")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(c.name, marks=() if c.name in QUICK_CLOSED else pytest.mark.slow)
        for c in COMMANDS
    ],
)
def test_a_closed_standard_output_is_one_line_and_exit_2(name, tmp_path):
    argv = _quick(name, tmp_path)
    run = subprocess.run(
        [*LAUNCHER, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(),
        pass_fds=(), preexec_fn=lambda: os.close(1), timeout=120,
    )  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2, err
    assert err.count("\n") == 1 and "standard output is closed" in err, err
    assert not any(tmp_path.glob("r*")) and not (tmp_path / "e.html").exists()  # nothing done


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "--modifiers", *map(str, range(-20, 21)), "--format", "csv"],
        ["levels", "--levels", "1-20", "--format", "csv", "--table", "progression"],
        ["odds", "-m", "2"],
    ],
    ids=["table", "levels", "odds"],
)
def test_a_pipe_closed_early_is_one_line_and_exit_2(argv):
    with subprocess.Popen(
        [*LAUNCHER, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env()
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before a byte was read
        err = proc.stderr.read().decode()
        status = proc.wait(timeout=120)
    assert status == 2, err
    assert err.count("\n") == 1 and "broken pipe" in err, err


def test_a_full_disk_on_standard_output_is_one_line_and_exit_2():
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [*LAUNCHER, "odds", "-m", "2", "--format", "csv"], stdout=full,
            stderr=subprocess.PIPE, env=_env(), timeout=120,
        )  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2 and err.count("\n") == 1 and "No space left" in err, err


def test_a_day_s_totals_are_french_under_lang_fr(capsys):
    # `day --table drain` printed "exact (omitted ...)", "rows below p ... left out", the rules
    # by their keys and False/True in French tables (issue 31, pages31's last review)
    from importlib import resources

    from explodice.present.cli.app import main

    example = resources.files("explodice").joinpath("data/day_example.toml")
    assert main(["day", str(example), "--table", "drain", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    head, table = out.split("\n", 2)[:2], out.split("\n", 2)[2]
    assert "exacte (omis" in head[0] and "lignes sous p" in head[1], head
    assert "désavantage=" in head[0] and "overflow" not in head[0], head
    assert "False" not in table and "True" not in table and " non" in table
