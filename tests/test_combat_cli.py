"""`explodice attack` and `explodice defence-base`: the API's numbers, bad input in one line, French."""

from __future__ import annotations

import json

import pytest

import explodice as ex
from explodice import Rules
from explodice.present.cli.app import main


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def test_attack_json_is_the_apis_table(capsys):
    code, out, _ = run(capsys, "attack", "-m", 4, 7, "--ac", 13, 17, "--critical", "two_sixes",
                       "--advantage", "normal", "advantage", "--format", "json")  # fmt: skip
    assert code == 0
    rows = json.loads(out)
    api = ex.attack_table([4, 7], [13, 17], advantages=["normal", "advantage"],
                          rules=Rules(critical="two_sixes"))  # fmt: skip
    assert len(rows) == len(api) == 8
    for row, (_, want) in zip(rows, api.iterrows()):
        for col in ("p_hit_d20", "p_crit_d20", "p_hit_3d6x", "p_crit_3d6x", "equivalent_vd"):
            assert row[col] == pytest.approx(want[col], abs=1e-12)
        assert row["rules"] == "critical=two_sixes" and row["method"] == "exact"


def test_attack_simulated_records_n_and_seed(capsys):
    code, out, _ = run(capsys, "attack", "-m", 4, "--vd", 15, "--advantage", "normal",
                       "--simulate", "--n", 5000, "--seed", 3, "--format", "csv")  # fmt: skip
    assert code == 0
    head, row = out.strip().splitlines()[:2]
    cols = dict(zip(head.split(","), row.split(",")))
    assert cols["method"] == "simulate" and cols["n"] == "5000" and cols["seed"] == "3"


def test_attack_in_french(capsys):
    code, out, _ = run(capsys, "attack", "-m", 5, "--ac", 15, "--advantage", "disadvantage",
                       "--lang", "fr")  # fmt: skip
    assert code == 0 and "désavantage (soustraire)" in out and "%" in out and "," in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["attack", "--critical", "21"], "--critical"),
        (["attack", "--defence-base", "-1"], "--defence-base"),
        (["attack", "--ac", "12", "--vd", "14"], "not allowed with"),
        (["attack", "--close-contest"], "--close-contest"),
        (["attack", "--actor", "npc"], "--actor"),
        (["attack", "--armour-dex-cap", "none"], "--armour-dex-cap"),
        (["attack", "--wisdom-in-defence", "none"], "--wis"),
        (["defence-base", "--defence-base", "12"], "what `defence-base` fits"),
        (["defence-base", "--monsters", "/nonexistent.toml"], "cannot be read"),
        (["defence-base", "--offsets", "x"], "--offsets"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_defence_base_is_the_apis_fit(capsys, tmp_path):
    path = tmp_path / "monsters.toml"
    path.write_text(
        '[[monster]]\nnom = "Brute"\nFP = 1\nCA = 13\ncaracteristiques = { FOR = 14, DEX = 12, '
        "CON = 12, INT = 8, SAG = 12, CHA = 8 }\nattaques = { Hache = 4 }\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "defence-base", "--monsters", path, "--levels", 1, "--offsets", 0,
                       "--table", "cases", "--format", "json")  # fmt: skip
    assert code == 0
    fit = ex.fit_defence_base(monsters=ex.load_monsters(path), levels=[1], offsets=[0])
    rows = json.loads(out)
    assert [r["error"] for r in rows] == pytest.approx(list(fit.cases.error), abs=1e-12)
    code, out, _ = run(capsys, "defence-base", "--monsters", path, "--levels", 1, "--offsets", 0,
                       "--lang", "fr")  # fmt: skip
    assert code == 0 and f"= {fit.base}" in out


def test_the_readings_measure_the_combat_switches_on_attacks(capsys):
    s = ex.sensitivity(modifiers=[0, 5], dcs=[16], parts=["attack"],
                       switches=["critical", "defence_base"])  # fmt: skip
    t = s.table.set_index(["switch", "value"])
    # two 6s or more on 4 dice (advantage), counted: 1 - (5/6)^4 - 4 (1/6) (5/6)^3
    assert t.loc[("critical", "two_sixes"), "attack_p_crit_max"] == pytest.approx(
        1 - (5 / 6) ** 4 - 4 / 6 * (5 / 6) ** 3
    )
    # a base one higher: every VD one higher, so the largest change is one total's mass
    one_up = s.detail[
        (s.detail.switch == "defence_base") & (s.detail.value == str(ex.Rules().defence_base + 1))
    ]
    hits = one_up[one_up.measure == "p_hit"]
    assert (hits.delta <= 0).all() and hits.delta.min() < -0.05
    code, out, _ = run(capsys, "readings", "--parts", "attack", "--switches", "critical",
                       "--modifiers", 0, 5, "--format", "json")  # fmt: skip
    assert code == 0
    rows = {(r["switch"], r["value"]): r for r in json.loads(out)}
    assert rows[("critical", "two_sixes")]["attack_p_crit_max"] == pytest.approx(
        t.loc[("critical", "two_sixes"), "attack_p_crit_max"], abs=1e-12
    )


def _headers(out):
    return next(line for line in out.splitlines() if not line.startswith("#")).split()


def test_combat_headers_and_values_in_french(capsys):
    # issue 32/33: these headers, `current` and the critical of the header stayed English
    code, out, _ = run(capsys, "attack", "-m", 5, "--ac", 15, "--advantage", "normal",
                       "--critical", 5, "--lang", "fr")  # fmt: skip
    assert code == 0
    assert _headers(out) == [
        "modificateur", "avantage", "CA", "VD", "p_touche_d20", "p_critique_d20",
        "p_touche_3d6x", "p_critique_3d6x", "écart", "VD_équivalente", "p_touche_équivalente",
    ]  # fmt: skip
    assert "critique en 3d6x : marge 5," in out
    code, out, _ = run(capsys, "attack", "-m", 5, "--ac", 15, "--advantage", "normal",
                       "--critical", "two_sixes", "--lang", "fr")  # fmt: skip
    assert "critique en 3d6x : deux 6," in out and "two_sixes" not in out.split("critique=")[0]
    code, out, _ = run(capsys, "attack", "-m", 5, "--ac", 15, "--lang", "fr")
    assert "critique en 3d6x : aucune," in out
    code, out, _ = run(capsys, "defence-base", "--levels", 1, 5, "--lang", "fr")
    assert code == 0
    assert _headers(out)[-3:] == ["écart_quadratique", "erreur_max", "actuelle"]
    flags = [line.split()[-1] for line in out.splitlines() if not line.startswith("#")][1:]
    assert sorted(flags) == ["non"] * (len(flags) - 1) + ["oui"]  # one reading is the current
    code, out, _ = run(capsys, "defence-base", "--levels", 1, 5, "--table", "bases")
    assert _headers(out) == ["base", "rmse", "max_error", "chosen"] and " yes" in out
    rows = [line for line in out.splitlines() if not line.startswith("#")]
    assert not any("True" in row or "False" in row for row in rows)
