"""The CLI's initiative, hide, contest and reroll commands (in-process, through main)."""

import io
import json
import re

import pytest

import explodice as ex
from explodice.present import i18n
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


#: English words of the rules commands' labels that a French table never shows.
ENGLISH = re.compile(
    r"\b(the|of|and|then|a coin|ties|hiding|hidden|all|active|observer|creature|rank|"
    r"order|side|first|bids|uniform|hit points|what|reroll|worth|failure|lucky|"
    r"trigger|drain|win|rounds|mean|advantage|disadvantage|method|system|dc)\b",
    re.IGNORECASE,
)


def _french(out: str, *names: str) -> str:
    for name in names:  # the creatures' and sides' names are the user's own words
        out = out.replace(name, "")
    english = sorted({m.group(0) for m in ENGLISH.finditer(out)})
    assert english == [], (english, out)
    return out


def test_rules_commands_speak_french(capsys):
    fr = i18n.translator("fr")
    # initiative: A (+3) first is winning or tying the opposed test (ties go to the higher DEX)
    o = ex.opposed(ex.Roll(3), ex.Roll(1))
    code, out, _ = run(capsys, "initiative", "A=3", "B=1", "--lang", "fr")
    assert code == 0
    _french(out, "A", "B")
    assert "égalités" in out and "pile ou face" in out and "créature" in out and "rang" in out
    assert i18n.percent(o.win + o.tie, "fr") in out and "\xa0%" in out  # 74,4 % (Babel)
    code, out, _ = run(
        capsys, "initiative", "Aelis=3", "Orc=1", "--side", "groupe=Aelis", "--side",
        "monstres=Orc", "--show", "sides", "--lang", "fr",
    )  # fmt: skip
    _french(out, "Aelis", "Orc", "groupe", "monstres")
    assert "camp en premier" in out and "camp en second" in out
    # hiding: +3 against passive values 12 and 15
    code, out, _ = run(capsys, "hide", "-m", "3", "--passive", "12", "15", "--active", "1",
                       "--lang", "fr")  # fmt: skip
    _french(out)
    assert "se cacher" in out and "caché de tous" in out and "valeur passive 15" in out
    assert "actif, Perception +1" in out and "observateur" in out and "tous" in out
    p15 = float(ex.exact(ex.Roll(3)).p_success(15))
    assert i18n.percent(p15, "fr") in out
    # lutte serrée: a fixed 3 against uniform 0-4 wins 3/4 of the time (by hand: 0..2 of 5
    # lose to 3, a 3 ties and bids again, a 4 wins: 3/5 + 1/5 x 3/4 ... = 3/4)
    code, out, _ = run(capsys, "contest", "--bids-a", "3", "--bids-b", "uniform:4", "--lang", "fr")
    _french(out)
    assert "lutte serrée" in out and "uniforme 0-4" in out and "points de vie" in out
    assert "p_victoire_a" in out and "75,0\xa0%" in out and "1,25" in out  # 1 + 1/5 + ... rounds
    # a reroll on failure: +0 against DD 16 goes from p to 1 - (1 - p)^2
    p = float(ex.exact(ex.Roll(0)).p_success(16))
    code, out, _ = run(capsys, "reroll", "-m", "0", "--dc", "16", "--lang", "fr")
    _french(out)
    assert "ce que vaut une relance" in out and fr("reroll on failure") in out
    assert "DD" in out and "p_relance" in out and "perte_ajoutée" in out
    assert i18n.percent(p, "fr") in out and i18n.percent(1 - (1 - p) ** 2, "fr") in out
    code, out, _ = run(capsys, "reroll", "--trigger", "one", "-m", "0", "--dc", "12", "--system",
                       "d20", "--advantage", "advantage", "--lang", "fr")  # fmt: skip
    _french(out)
    assert "Chanceux" in out and "avantage" in out
    # d20 + 0 vs 12 with advantage, by hand: no 1 shown, (19/20)^2 - (10/20)^2; one 1, rerolled:
    # 2/20 x (9/20 + 10/20 x 9/20); two 1s, one rerolled: 1/400 x 9/20
    lucky = (19 / 20) ** 2 - (10 / 20) ** 2 + 2 / 20 * (9 / 20 + 10 / 20 * 9 / 20) + 9 / 8000
    assert code == 0 and i18n.percent(1 - (11 / 20) ** 2, "fr") in out
    assert i18n.percent(lucky, "fr") in out  # 72,1 %


def test_rules_commands_keep_english_and_full_precision_for_scripts(capsys):
    code, out, _ = run(capsys, "initiative", "A=3", "B=1", "--lang", "fr", "--format", "json")
    rows = json.loads(out)
    # English keys, and the provenance every table records (issue 31: method, n, seed, rules)
    assert code == 0 and {"creature", "rank", "p", "method", "n", "seed"} <= set(rows[0])
    assert rows[0]["method"] == "exact"
    code, out, _ = run(capsys, "reroll", "-m", "0", "--dc", "16", "--lang", "fr", "--format", "csv")
    assert out.splitlines()[0].startswith("system,trigger,advantage,modifier,dc,p,p_reroll")
    code, out, _ = run(capsys, "hide", "-m", "3", "--passive", "12")  # English by default
    assert "hiding, 3d6x, exact (no sampling): P(hidden from all)" in out and "passive 12" in out
    p = float(ex.exact(ex.Roll(3)).p_success(12))  # 75.5%: the command line's one format
    assert f"{100 * p:.1f}%" in out and f"{100 * p:.1f} %" not in out
