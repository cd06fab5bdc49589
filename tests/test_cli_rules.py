"""The CLI's initiative, hide, contest and reroll commands (in-process, through main)."""

import io
import json

import pytest

import explodice as ex
from explodice.present.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_initiative_command(capsys):
    code, out, _ = run(capsys, "initiative", "A=3", "B=1", "--format", "json")
    rows = json.loads(out)
    assert code == 0
    first = {r["creature"]: r["p"] for r in rows if r["rank"] == 1}
    o = ex.opposed(ex.Roll(3), ex.Roll(1))
    assert first["A"] == pytest.approx(o.win + o.tie, abs=1e-12)
    code, out, _ = run(
        capsys,
        "initiative",
        "A=3",
        "B=1",
        "C=0",
        "--side",
        "x=A",
        "--side",
        "y=B,C",
        "--show",
        "sides",
        "--system",
        "d20",
    )
    assert code == 0 and "x" in out and "y" in out


def test_hide_contest_reroll_commands(capsys):
    code, out, _ = run(capsys, "hide", "-m", "3", "--passive", "12", "15", "--format", "csv")
    assert code == 0
    import pandas as pd

    frame = pd.read_csv(io.StringIO(out))
    p = float(frame.set_index("observer").p_hidden_from["all"])
    assert p == pytest.approx(ex.exact(ex.Roll(3)).p_success(15), abs=1e-9)
    code, out, _ = run(
        capsys, "contest", "--bids-a", "3", "--bids-b", "uniform:4", "--format", "json"
    )
    assert code == 0 and json.loads(out)[0]["p_win_a"] == pytest.approx(0.75)
    code, out, _ = run(capsys, "reroll", "-m", "0", "--dc", "16", "--format", "json")
    row = json.loads(out)[0]
    assert code == 0 and row["gain"] == pytest.approx(row["p"] * (1 - row["p"]), abs=1e-12)


def test_bad_input_is_one_line_and_status_2(capsys):
    code, _, err = run(capsys, "contest", "--bids-a", "2", "--bids-b", "2")
    assert code == 2 and err.count("\n") == 1 and "same" in err
    code, _, err = run(capsys, "initiative", "A=x", "B=1")
    assert code == 2 and "A" in err
    code, _, err = run(capsys, "odds", "-m", "1", "--dc", "12", "--lucky", "--reroll-on-failure")
    assert code == 2 and "one reroll" in err


def test_table_shows_the_tie_with_close_contest(capsys):
    code, out, _ = run(
        capsys,
        "table",
        "--modifiers",
        "0",
        "--dc",
        "8",
        "--states",
        "normal",
        "--close-contest",
        "--format",
        "json",
    )
    row = json.loads(out)[0]
    assert code == 0 and row["p_tie"] == pytest.approx(18 / 216, abs=1e-12)
