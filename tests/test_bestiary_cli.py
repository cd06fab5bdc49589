"""``explodice bestiary`` and ``explodice fp-table``: their numbers are the API's, the SRD's
attribution is in every output, a designer's monsters are read, bad input is one line."""

from __future__ import annotations

import contextlib
import io
import json

import pandas as pd
import pytest

from explodice import SRD_ATTRIBUTION, bestiary, fp_table
from explodice.game.monster import monsters_from_toml
from explodice.present.cli.app import main

MONSTERS = """
[[monster]]
name = "Mine goblin"
fp = "1/4"
ac = 19
type = "humanoid"
scores = { STR = 8, DEX = 14, CON = 10, INT = 10, WIS = 8, CHA = 8 }
attacks = { Pick = 9 }
save_dcs = { "Spore (CON)" = 15 }

[[monster]]
name = "Deep worm"
fp = 2
ac = 12
type = "beast"
scores = { STR = 18, DEX = 8, CON = 16, INT = 2, WIS = 8, CHA = 4 }
attacks = { Bite = 1 }
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def test_bestiary_csv_is_the_api_with_the_attribution():
    code, out, _ = run("bestiary", "--fp", "2", "--threshold", "0.2", "--format", "csv")
    assert code == 0
    got = pd.read_csv(io.StringIO(out))
    api = bestiary(fp=2, threshold=0.2)
    assert list(got.name) == list(api.name) and list(got.chance) == list(api.chance)
    assert got.p_3d6x.to_numpy() == pytest.approx(api.p_3d6x.to_numpy(), abs=1e-12)
    assert (got.flagged == api.flagged).all()
    assert set(got.attribution) == {SRD_ATTRIBUTION}


def test_fp_table_json_is_the_api():
    code, out, _ = run("fp-table", "--fp", "1", "10", "--defence-base", "12", "--format", "json")
    assert code == 0
    got = pd.DataFrame(json.loads(out))
    from explodice import Rules

    api = fp_table(fps=[1, 10], rules=Rules(defence_base=12))
    assert list(got.vd_matched) == list(api.vd_matched) and list(got.vd_flat) == list(api.vd_flat)
    assert set(got.attribution) == {SRD_ATTRIBUTION}


def test_text_names_the_srd_and_its_licence():
    code, out, _ = run("bestiary", "--name", "goblin", "--fp", "1/4")
    assert code == 0 and "Goblin" in out and "Creative Commons Attribution 4.0" in out
    code, out, _ = run("fp-table", "--fp", "5", "--lang", "fr")
    assert code == 0 and "Creative Commons" in out


def test_a_designers_monsters(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MONSTERS, encoding="utf-8")
    code, out, _ = run("bestiary", str(path), "--format", "csv")
    assert code == 0
    got = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert set(got.name) == {"Mine goblin", "Deep worm"} and set(got.attribution) == {""}
    api = bestiary(monsters_from_toml(MONSTERS))
    assert got.p_d20.to_numpy() == pytest.approx(api.p_d20.to_numpy())
    code, out, _ = run("bestiary", str(path), "--with-srd", "--fp", "1/4", "--format", "csv")
    names = set(pd.read_csv(io.StringIO(out)).name)
    assert "Mine goblin" in names and "Goblin" in names
    code, out, _ = run("fp-table", str(path), "--format", "json")
    assert [r["fp"] for r in json.loads(out)] == ["1/4", "2"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["bestiary", "--threshold", "2"], "--threshold"),
        (["bestiary", "--fp", "1/3"], "`fp`"),
        (["bestiary", "--name", "no such thing"], "at least one monster"),
        (["bestiary", "--with-srd"], "--with-srd"),
        (["bestiary", "--disadvantage", "drop"], "--disadvantage"),
        (["fp-table", "--close-contest"], "--close-contest"),
        (["fp-table", "--critical", "5"], "--critical 5"),
        (["bestiary", "--ones-on-explosions"], "--ones-on-explosions"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, says):
    code, out, err = run(*argv)
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err


def test_fp_table_text_writes_each_cell_through_the_formatter():
    # issue 31/32: a missing median was "NaN" in English and "—" in French, a whole one 11.000
    api = fp_table(fps=[0, "1/8", 5])
    assert api.save_dc.isna().tolist() == [True, True, False]  # FP 0 and 1/8: no save DC
    for lang, missing in (("en", "none"), ("fr", "aucune")):
        code, out, _ = run("fp-table", "--fp", "0", "1/8", "5", "--lang", lang)
        assert code == 0
        rows = [line.split() for line in out.splitlines() if not line.startswith("#")][1:]
        assert [r[0] for r in rows] == ["0", "1/8", "5"]
        for row, dc in zip(rows, api.save_dc, strict=True):
            assert row.count(missing) == (3 if pd.isna(dc) else 0)  # the median, flat, matched
            assert "NaN" not in row and "—" not in row and "<NA>" not in row
            assert not any(c.endswith((".000", ",000")) for c in row)
        # the median AC of each FP, whole or a half, with the decimals it needs
        assert [r[3] for r in rows] == [
            f"{a:g}" if lang == "en" else f"{a:g}".replace(".", ",") for a in api.ac
        ]
