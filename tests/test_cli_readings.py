"""The readings that are switches, as a designer uses them (issue 25): each switch from TOML and
from the command line gives the API's numbers, is named in the footers, the title page and the
explorer when it is not the default (English and French), is refused where a command cannot
apply it; ``explodice readings`` prints sensitivity()'s own numbers, computed here directly.
"""

from __future__ import annotations

import dataclasses
import html
import io
import json
import re
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import numpy as np

matplotlib.use("Agg")

import pandas as pd
import pytest

import explodice as ex
from explodice import Reroll, Roll, Rules
from explodice.analysis import sensitivity as sens_mod
from explodice.analysis.hiding import hide
from explodice.analysis.resolutions import haggle
from explodice.game.character import GAUGES
from explodice.game.rules import READING_SWITCHES, switches
from explodice.present import i18n, labels
from explodice.present.cli import main
from explodice.present.cli.options import RULES_SWITCHES
from explodice.present.explorer import explorer_data, explorer_html
from explodice.present.readings import largest_cells, points, reading_label
from explodice.present.report import load_config
from explodice.present.report.contents import PAGES
from explodice.present.report.kit import Context
from explodice.present.report.pages import title
from explodice.sweeps import SweepWarning, sweep

#: Off-default values of the four readings, and what each changes.
OFF = {
    "lucky_timing": "after_choice",
    "malus_die": "plain",
    "hiding_ties": "observer",
    "deception_noticed": "when_cheated",
}

SMALL = """
title = "Readings"
seed = 7
{rules}
[table]
modifiers = [0, 3]

[simulation]
n = 2000
days = 200

[[character]]
name = "Ana"
level = 1
scores = {{ STR = 14, DEX = 14, CON = 12, INT = 10, WIS = 10, CHA = 8 }}
skills = {{ Stealth = 1 }}
gauge_per_level = {{ PA = 1 }}
policy = "cancel"

[day]
name = "short day"
rolls_per_day = 5

[[day.roll]]
character = "Ana"
skill = "Athletics"
dc = 14
"""

#: A scenario whose only roll is at disadvantage: the day needs the malus die.
SCENARIO = """
[[character]]
name = "Ana"
scores = { STR = 14, DEX = 14, CON = 12, INT = 10, WIS = 10, CHA = 8 }
gauge_max = { PA = 8, PM = 0, PF = 0, PH = 0 }

[day]
rolls_per_day = 4

[[day.roll]]
character = "Ana"
skill = "Athletics"
dc = 14
disadvantages = 1
"""


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:  # the parser's own refusals
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def _config(tmp_path, rules: str = "", name: str = "c.toml"):
    path = tmp_path / name
    path.write_text(SMALL.format(rules=rules), encoding="utf-8")
    return path


# -- the options are read from Rules -------------------------------------------------------------
def test_every_switch_of_rules_is_an_option_with_its_values_and_its_own_help():
    by_field = {s.field: s for s in RULES_SWITCHES}
    for sw in switches():
        option = by_field[sw.name]
        # its declared scope and help (argparse writes a help's % as %%)
        assert option.scope == sw.scope and sw.help and option.help == sw.help.replace("%", "%%")
        if sw.kind == "flag":
            assert option.choices is None
        elif sw.kind in ("integer", "choice_or_integer"):  # its words; an integer by its type
            assert option.choices == sw.choices and option.integer == sw
        else:  # a value added to a Literal of Rules is a choice by itself
            assert option.choices == tuple(sw.values)
    flags = {s.field: s.flag for s in RULES_SWITCHES}
    assert [flags[n] for n in READING_SWITCHES] == [
        "--lucky-timing",
        "--malus-die",
        "--hiding-ties",
        "--deception-noticed",
        "--defence-base",
        "--wisdom-in-defence",
        "--armour-dex-cap",
        "--critical",
    ]


# -- each switch from the command line gives the API's numbers ------------------------------------
def test_lucky_timing_and_malus_die_from_the_command_line(capsys):
    # the numbers: Lucky and cancel, +0 against DC 16: 0.309 before, 0.234 after
    lucky = Roll(0, policy="cancel", reroll=Reroll("one"))
    for value, by_hand in (("before_choice", 0.309), ("after_choice", 0.234)):
        code, out, _ = run(capsys, "odds", "--dc", 16, "--lucky", "--policy", "cancel",
                           "--lucky-timing", value, "--format", "json")  # fmt: skip
        p = json.loads(out)[0]["p"]
        assert code == 0 and p == pytest.approx(
            float(ex.exact(lucky, Rules(lucky_timing=value)).p_success(16)), abs=1e-12
        )
        assert round(p, 3) == by_hand
    dis = Roll(0, advantage="disadvantage")
    code, out, _ = run(capsys, "table", "--modifiers", 0, "--dc", 8, 12, 22, "--states",
                       "disadvantage", "--malus-die", "plain", "--format", "json")  # fmt: skip
    rows = json.loads(out)
    plain = ex.exact(dis, Rules(malus_die="plain"))
    assert code == 0 and [r["p"] for r in rows] == pytest.approx(
        [float(plain.p_success(d)) for d in (8, 12, 22)], abs=1e-12
    )
    assert all(r["p"] > float(ex.exact(dis).p_success(r["dc"])) for r in rows)  # plain: easier
    code, out, _ = run(capsys, "odds", "--dc", 12, "--advantage", "disadvantage", "--malus-die",
                       "plain")  # fmt: skip
    assert code == 0 and "malus_die = plain" in out  # the header's rules name it


def test_hiding_ties_from_the_command_line(capsys):
    # the numbers: +5 against passives 12 and 14, 0.755 (hider) and 0.664 (observer)
    for value, by_hand in (("hider", 0.755), ("observer", 0.664)):
        code, out, _ = run(capsys, "hide", "-m", 5, "--passive", 12, 14, "--hiding-ties", value,
                           "--format", "csv")  # fmt: skip
        frame = pd.read_csv(io.StringIO(out)).set_index("observer")
        api = hide(Roll(5), passive=[12, 14], rules=Rules(hiding_ties=value)).p_hidden
        assert code == 0 and frame.p_hidden_from["all"] == pytest.approx(api, abs=1e-12)
        assert round(api, 3) == by_hand
    # Lucky on the Stealth roll is the roll's, read with --lucky-timing
    code, out, _ = run(capsys, "hide", "-m", 2, "--active", 2, "--lucky", "--lucky-timing",
                       "after_choice", "--format", "json")  # fmt: skip
    rules = Rules(lucky_timing="after_choice")
    api = hide(Roll(2, reroll=Reroll("one")), active=[Roll(2)], rules=rules).p_hidden
    assert code == 0 and json.loads(out)[-1]["p_hidden_from"] == pytest.approx(api, abs=1e-12)
    code, out, _ = run(capsys, "hide", "-m", 5, "--passive", 14, "--hiding-ties", "observer",
                       "--lang", "fr")  # fmt: skip
    assert code == 0 and "égalités en discrétion=à l'observateur" in out


def test_deception_noticed_from_the_command_line_and_from_toml(capsys, tmp_path):
    # haggling is read by `readings` (every switch is its own rules): moved from when_cheated
    code, out, _ = run(capsys, "readings", "--parts", "haggle", "--modifiers", 3, "--switches",
                       "deception_noticed", "--deception-noticed", "when_cheated",
                       "--format", "json")  # fmt: skip
    (row,) = json.loads(out)
    cheated = haggle(
        Roll(3), dc=16, deception=Roll(3), rules=Rules(deception_noticed="when_cheated")
    )
    failed = haggle(Roll(3), dc=16, deception=Roll(3))
    assert code == 0 and (row["switch"], row["value"]) == ("deception_noticed", "on_failure")
    assert row["haggle_p_noticed_max"] == pytest.approx(
        abs(failed.p_noticed - cheated.p_noticed), abs=1e-12
    )
    assert "deception_noticed=when_cheated" in row["against"]
    # the same base from the configuration's [rules]
    path = _config(tmp_path, '[rules]\ndeception_noticed = "when_cheated"\n')
    code, out2, _ = run(capsys, "readings", path, "--parts", "haggle", "--modifiers", 3,
                        "--switches", "deception_noticed", "--format", "json")  # fmt: skip
    (row2,) = json.loads(out2)
    assert code == 0
    assert row2["haggle_p_noticed_max"] == row["haggle_p_noticed_max"]
    assert row2["against"] == row["against"]
    # a switch given on the command line replaces the configuration's (back to the default)
    code, out3, _ = run(capsys, "readings", path, "--parts", "haggle", "--modifiers", 3,
                        "--switches", "deception_noticed", "--deception-noticed", "on_failure",
                        "--format", "json")  # fmt: skip
    (row3,) = json.loads(out3)
    assert row3["value"] == "when_cheated" and "deception_noticed" not in row3["against"]


@pytest.mark.parametrize("name, value", list(OFF.items()))
def test_each_reading_from_toml_is_the_configurations_rules(tmp_path, name, value):
    path = _config(tmp_path, f'[rules]\n{name} = "{value}"\n')
    config = load_config(path)
    assert config.rules == Rules(**{name: value})
    # the report's numbers follow: the DC table page's success table under these rules
    from explodice.present.report.pages import dc_table

    ctx = Context(config, "0", "2026-12-01")
    table = dc_table.data(ctx).tables["success"]
    api = ex.success_table([0, 3], rules=config.rules, readings="both")
    merged = table.merge(api, on=["modifier", "dc", "advantage"], suffixes=("", "_api"))
    assert len(merged) == len(api) and (merged.p - merged.p_api).abs().max() < 1e-12


def test_a_sweep_grid_takes_every_switch(tmp_path):
    grid = {
        "modifier": 0,
        "dc": [8, 16],
        "advantage": "disadvantage",
        "malus_die": ["exploding", "plain"],
    }
    df = sweep(grid, "success", seed=1, executor=ThreadPoolExecutor(1), progress=False)
    for row in df.itertuples():
        api = ex.exact(Roll(0, advantage="disadvantage"), Rules(malus_die=row.malus_die))
        assert row.p == pytest.approx(float(api.p_success(row.dc)), abs=1e-12)
    assert set(df.rules) == {Rules().describe(), Rules(malus_die="plain").describe()}
    # a day the day engines cannot play under a switch is an error of its case, never a number
    # (the lutte serrée's bids of HP: the day counts a tie with the DC as a success)
    assert "close_contest" in sens_mod._DAY_IGNORES
    days = {"scenario": str(tmp_path / "s.toml"), "n": 50, "close_contest": [False, True]}
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    with pytest.warns(SweepWarning, match="1 of 2 cases failed"):
        df = sweep(days, "day", seed=1, executor=ThreadPoolExecutor(1), progress=False)
    errors = df.groupby("close_contest")["error"].first()
    assert pd.isna(errors[False]) and "close_contest=True" in errors[True]


# -- named where they are not the default ----------------------------------------------------------
def test_the_footers_name_a_reading_off_its_default_in_both_languages():
    assert labels.rules_text(Rules(), "en") == Rules().describe()
    french = labels.rules_text(Rules(), "fr")
    words = {
        "lucky_timing": ("moment de Chanceux", "après le choix"),
        "malus_die": ("dé de malus", "simple"),
        "hiding_ties": ("égalités en discrétion", "à l'observateur"),
        "deception_noticed": ("tromperie remarquée", "si lésée"),
    }
    for name, value in OFF.items():
        rules = Rules(**{name: value})
        assert f"{name}={value}" in labels.rules_text(rules, "en")
        fr = labels.rules_text(rules, "fr")
        assert fr.startswith(french) and fr.endswith("{}={}".format(*words[name]))
        assert name not in french and words[name][0] not in french  # defaults stay unnamed
    both = labels.rules_text(Rules(malus_die="plain", close_contest=True), "fr")
    assert both.endswith("lutte serrée, dé de malus=simple")


def _title_text(config, lang):
    ctx = Context(
        dataclasses.replace(config, lang=lang),
        "0",
        "2026-12-01",
        contents=tuple((n, p.contents) for n, p in enumerate(PAGES, 1))[1:],
    )
    fig = title.draw(ctx, title.data(ctx))
    return " ".join(" ".join(t.get_text() for t in fig.texts).split())  # lines are wrapped


def test_the_title_page_says_every_reading_and_the_footer_names_those_off_default(tmp_path):
    default = load_config(_config(tmp_path))
    moved = load_config(_config(tmp_path, '[rules]\nmalus_die = "plain"\nlucky_timing = '
                                          '"after_choice"\n', "m.toml"))  # fmt: skip
    en, fr = _title_text(default, "en"), _title_text(default, "fr")
    assert "Lucky rerolls a 1: before the rule of 1's choice" in en
    assert "the malus die of disadvantage (subtract): it explodes, like every die" in en
    assert "a Stealth total equal to the Perception: the hider stays hidden" in en
    assert "past 25% in haggling, the seller notices: when the Deception fails" in en
    assert "Chanceux relance un 1 : avant le choix de la règle du 1" in fr
    assert "qui se cache le reste" in fr and "quand la Tromperie échoue" in fr
    en, fr = _title_text(moved, "en"), _title_text(moved, "fr")
    assert "after the rule of 1's choice: a kept 1, draining nothing" in en
    assert "a plain d6 (1 to 6)" in en
    assert "lucky_timing=after_choice, malus_die=plain" in en  # the footer
    assert "un d6 simple (1 à 6)" in fr and "moment de Chanceux=après le choix" in fr


def test_the_explorer_names_the_readings_off_default(tmp_path):
    path = _config(tmp_path, '[rules]\nhiding_ties = "observer"\n')
    for lang, words in (("en", "the observer sees them"), ("fr", "l'observateur le voit")):
        page = explorer_html(explorer_data(path, lang=lang, date="2026-12-01", day=False))
        meta = page[page.index("<dl class='meta'>") : page.index("</dl>")]
        assert html.escape(words) in meta
    page = explorer_html(
        explorer_data(_config(tmp_path, name="d.toml"), date="2026-12-01", day=False)
    )
    meta = page[page.index("<dl class='meta'>") : page.index("</dl>")]
    # every switch is listed, as on the title page (pages review, item 30): a default in its
    # default's words
    assert "observer" not in meta and "the hider stays hidden" in meta
    assert "Lucky rerolls a 1" in meta and html.escape("before the rule of 1's choice") in meta


def test_every_value_of_every_switch_has_its_words():
    french = i18n.translator("fr")
    for sw in switches():
        assert labels.switch_label(sw.name, "fr") != sw.name or sw.name in ("overflow",)
        values = [frozenset([v]) for v in sw.values] if sw.kind == "set" else sw.values
        for v in values:
            said = labels.switch_value(sw.name, v, "fr")
            number = sw.kind == "integer"  # a base is said as its number
            assert said and (
                said != str(v) or str(v) in GAUGES or sw.name == "drain_gauge" or number
            )
    for name in READING_SWITCHES:
        for v in next(s for s in switches() if s.name == name).values:
            question, answer = labels.reading_line(name, v, "fr")
            if isinstance(v, int):  # an integer is said by switch_value: a number, a margin
                assert answer == labels.switch_value(name, v, "fr")
                continue
            declared = labels.SWITCHES[name].answers
            assert v in declared and answer == french(declared[v]) != declared[v]
    for what, _needs in sens_mod._DAY_IGNORES.values():  # the day's blind spots, in French
        assert what in labels.DAY_BLIND_NEEDS and french(what) != what
    # overflow's values to come (a gauge, the player's choice) are said already
    assert labels.overflow_label("PA", "fr", long=True) == "va en PA"
    assert labels.overflow_label("best", "fr") == "au choix du joueur"


# -- refused where a command cannot apply it ----------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ("odds", "--hiding-ties", "observer"),
        ("odds", "--deception-noticed", "when_cheated"),
        ("odds", "--overflow", "lost"),
        ("table", "--lucky-timing", "after_choice"),
        ("table", "--lucky"),
        ("opposed", "--hiding-ties", "observer"),
        ("hide", "--passive", "12", "--deception-noticed", "when_cheated"),
        ("hide", "--passive", "12", "--drain-gauge", "roll"),
        ("day", "--hiding-ties", "observer"),
        ("initiative", "A=1", "B=2", "--malus-die", "plain"),
    ],
)
def test_a_switch_a_command_cannot_apply_is_refused_in_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unrecognized arguments" in err and argv[-2 if len(argv) > 2 else -1].startswith("--")


def test_reroll_reads_lucky_timing_only_for_lucky(capsys):
    # `reroll` takes the rules now; --lucky-timing applies to --trigger one (Lucky) alone
    code, out, err = run(capsys, "reroll", "--lucky-timing", "after_choice")
    assert code == 2 and out == "" and err.count("\n") == 1 and "`--lucky-timing`" in err
    code, out, _ = run(capsys, "reroll", "--trigger", "one", "--lucky-timing", "after_choice")
    assert code == 0 and out


#: How each reading the day engines do not read yet (``_DAY_IGNORES``) is asked of ``day``.
DAY_BLIND = {
    "lucky_timing": ("--lucky-timing", "after_choice"),
    "malus_die": ("--malus-die", "plain"),
    "close_contest": ("--close-contest",),
}


def test_the_day_refuses_a_reading_its_engines_do_not_read_yet(capsys, tmp_path):
    # Ana has Lucky and her one roll is at disadvantage: the day needs every reading
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO.replace("[day]", 'reroll = "one"\n\n[day]'), encoding="utf-8")
    assert set(sens_mod._DAY_IGNORES) <= set(DAY_BLIND)
    # once the day engines read a switch, it leaves _DAY_IGNORES and is played (its numbers
    # are the day's own tests')
    for name in sens_mod._DAY_IGNORES:
        for method in ((), ("--exact",)):
            code, out, err = run(capsys, "day", scenario, *DAY_BLIND[name], *method)
            assert code == 2 and out == "" and err.count("\n") == 1
            if name == "close_contest":  # refused by `day` itself, for any scenario
                assert "`--close-contest`" in err and "bids" in err
            else:
                assert f"the day engines do not read {name}=" in err and "Ana" in err
    if "malus_die" in sens_mod._DAY_IGNORES:
        code, _, err = run(capsys, "day", "--simulate", "--days", 100, "--advantage",
                           "disadvantage", "--malus-die", "plain")  # fmt: skip
        assert code == 2 and "malus_die=plain" in err
    # the exact first passage sums the roll's exact drain law: it reads every switch
    code, out, _ = run(capsys, "day", "-m", 2, "--advantage", "disadvantage", "--malus-die",
                       "plain", "--policy", "best:0.05", "--format", "json")  # fmt: skip
    rows = json.loads(out)
    api = ex.rolls_to_empty(2, 20, 16, policy=0.05, advantage="disadvantage",
                            rules=Rules(malus_die="plain"))  # fmt: skip
    expected = api.to_frame()
    assert code == 0 and len(rows) == len(expected)
    assert [r["p"] for r in rows] == pytest.approx(expected.p.tolist(), abs=1e-12)
    # a reading the day does not need (no Lucky in this day) changes nothing and is played
    plain = tmp_path / "plain.toml"
    plain.write_text(SCENARIO, encoding="utf-8")
    code, _, _ = run(capsys, "day", plain, "--lucky-timing", "after_choice", "--days", 200)
    assert code == 0


def test_the_report_and_the_explorer_leave_out_a_day_they_cannot_play(tmp_path):
    path = _config(tmp_path, "[rules]\nclose_contest = true\n")
    config = load_config(path)
    from explodice.present.report.pages import day, day_policies

    ctx = Context(config, "0", "2026-12-01")
    for page in (day, day_policies):
        data = page.data(ctx)
        assert data.tables == {}
        fig = page.draw(ctx, data)
        text = " ".join(" ".join(t.get_text() for t in fig.texts).split())
        assert "close_contest=True" in text and "bids of HP" in text
    page = explorer_html(explorer_data(path, date="2026-12-01"))
    assert "The day is not computed: the day engines do not read close_contest=True" in page
    assert "view-day" not in page


# -- explodice readings ----------------------------------------------------------------------------
GRID = ("--modifiers", 0, 3, "--dc", 12, 16, "--kinds", "check", "save", "--policies", "cancel")
API_GRID = {
    "modifiers": [0, 3],
    "dcs": [12, 16],
    "kinds": ["check", "save"],
    "policies": ["cancel"],
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = _config(tmp_path_factory.mktemp("readings"))
    config = load_config(path)
    s = ex.sensitivity(config, **API_GRID, day_method="simulate", n_days=300, seed=5)
    return path, config, s


def test_readings_json_and_csv_are_sensitivitys_own_numbers_with_their_provenance(capsys, small):
    path, config, s = small
    args = ("readings", path, *GRID, "--day-method", "simulate", "--days", 300, "--seed", 5)
    code, out, _ = run(capsys, *args, "--format", "json")
    rows = pd.DataFrame(json.loads(out))
    assert code == 0 and list(zip(rows.switch, rows.value)) == list(
        zip(s.table.switch, s.table.value)
    )
    for column in ("largest", "dc_p_max", "drain_max", "party_p_max", "day_p_empty_max",
                   "hiding_p_max", "haggle_p_noticed_max"):  # fmt: skip
        assert rows[column].to_numpy(dtype=float) == pytest.approx(
            s.table[column].to_numpy(dtype=float), abs=1e-12, nan_ok=True
        ), column
    a = s.table.attrs
    assert set(rows.against) == {a["rules"]} and set(rows.n_days) == {300} and set(rows.seed) == {5}
    assert set(rows.scenario) == {"short day"} and set(rows.parts) == {" ".join(a["parts"])}
    assert set(rows.modifiers) == {"0 3"} and set(rows.dcs) == {"12 16"}
    assert all("day=simulate (n_days=300, seed=5)" in m for m in rows.method)
    code, out, _ = run(capsys, *args, "--format", "csv")
    frame = pd.read_csv(io.StringIO(out))
    assert frame.largest.to_numpy() == pytest.approx(s.table.largest.to_numpy(), abs=1e-12)
    assert set(frame.seed) == {5} and set(frame.against) == {a["rules"]}
    code, out, _ = run(capsys, *args, "--show", "by_measure", "--format", "csv")
    by = pd.read_csv(io.StringIO(out))
    assert by["max"].to_numpy() == pytest.approx(s.by_measure["max"].to_numpy(), abs=1e-12)


def test_readings_text_in_english_and_french(capsys, small):
    path, config, s = small
    args = ("readings", path, *GRID, "--day-method", "simulate", "--days", 300, "--seed", 5)
    code, out, _ = run(capsys, *args)
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    body = "\n".join(lines[1:])
    cells = largest_cells(s).set_index(["switch", "value"])
    order = [reading_label(w, v, "en") for w, v in zip(s.table.switch, s.table.value)]
    positions = [body.index(r + " ") for r in order]
    assert positions == sorted(positions)  # ranked as the table is
    for cell in cells.itertuples():  # the signed change at its cell: "+5.5 pp", "-0.3 pp"
        assert points(cell.delta, "en", minus="-") in body
    assert "−" not in out  # the command line's minus, as every command writes it
    assert "malus_die=plain" not in out.splitlines()[0]
    assert "day not computed: the day engines do not read" in out  # the reason, never a 0
    code, out, _ = run(capsys, *args, "--lang", "fr")
    assert code == 0 and "dé de malus = simple" in out and "\xa0pts" in out
    assert "journée non calculée : les moteurs de la journée ne lisent pas encore" in out
    text = out.replace("short day", "").replace(str(path), "").replace("Ana", "")
    english = re.findall(
        r"\b(the|of|and|where|largest|change|reading|party|day|not computed|drain|haggling|"
        r"hiding|keep|cancel|advantage|check|save|successes|grid|parts|simulate|exact|"
        r"with|without|Lucky|vs|DC)\b",
        text,
    )
    assert english == [], sorted(set(english))
    for cell in cells.itertuples():
        assert points(cell.delta, "fr", minus="-") in out
    assert "−" not in out


def test_readings_refuses_what_it_cannot_apply(capsys, small):
    path = small[0]
    code, _, err = run(capsys, "readings", path, "--day-method", "none", "--days", 10)
    assert code == 2 and "`--days`" in err
    code, _, err = run(capsys, "readings", path, "--parts", "bogus")
    assert code == 2 and "--parts" in err
    code, _, err = run(capsys, "readings", path, "--malus-die", "loaded")
    assert code == 2 and "--malus-die" in err
    code, _, err = run(capsys, "readings", path, "--lucky")
    assert code == 2  # Lucky is on the grid (--rerolls), not an option of the roll
    code, _, err = run(capsys, "readings", path, "--policies", "best:")
    assert code == 2 and "--policies" in err


def test_largest_cells_are_the_rows_largest_change():
    s = ex.sensitivity(modifiers=[0, 4], dcs=[12, 16], parts=["dc_table", "hiding", "haggle"])
    cells = largest_cells(s).set_index(["switch", "value"])
    for row in s.table.itertuples():
        if (row.switch, row.value) not in cells.index:
            assert row.largest == 0 or pd.isna(row.largest)
            continue
        cell = cells.loc[(row.switch, row.value)]
        assert abs(cell.delta) == pytest.approx(row.largest, abs=1e-15)
        assert f"{cell.part}: {cell.case}" == row.largest_where


def test_points_are_written_the_languages_way():
    assert points(0.0548, "en") == "+5.5 pp" and points(-0.0548, "fr") == "−5,5\xa0pts"
    assert points(0.0004, "en") == "+< 0.1 pp"  # never a false 0, and its sign kept
    assert points(0.0, "en") == "±0.0 pp" and points(0.0, "en", sign=False) == "0.0 pp"
    assert points(-0.0548, "en", minus="-") == "-5.5 pp"  # the command line's minus


def test_a_flag_on_the_command_line_turns_the_configurations_switch_off(capsys, tmp_path):
    path = _config(tmp_path, "[rules]\nclose_contest = true\n")
    argv = ("readings", path, "--parts", "hiding", "--modifiers", 0, "--dc", 12, "--switches",
            "close_contest", "--format", "json")  # fmt: skip
    code, out, _ = run(capsys, *argv)
    assert code == 0 and [r["value"] for r in json.loads(out)] == ["False"]
    code, out, _ = run(capsys, *argv, "--no-close-contest")
    assert code == 0 and [r["value"] for r in json.loads(out)] == ["True"]


@pytest.mark.parametrize(
    ("options", "api"),
    [
        (("--states", "advantage"), {"advantages": ["advantage"]}),
        (("--rerolls", "none"), {"rerolls": [None]}),
        (("--kinds", "save"), {"kinds": ["save"]}),
    ],
)
def test_readings_grid_options_reach_sensitivity(capsys, small, options, api):
    # each grid option of `readings` is the API's argument (tests/test_cli_options.py leaves
    # the readings command to this file): the DC table's part alone, against a direct call
    path, config, _ = small
    grid = {**API_GRID, **api}
    s = ex.sensitivity(config, **grid, parts=["dc_table"])
    base = ex.sensitivity(config, **API_GRID, parts=["dc_table"])
    # the option replaces the grid's own (an option written twice is refused)
    at = list(GRID).index(options[0]) if options[0] in GRID else None
    grid_argv = list(GRID)
    if at is not None:
        end = next((i for i in range(at + 1, len(GRID)) if str(GRID[i]).startswith("--")), None)
        del grid_argv[at : end if end is not None else len(GRID)]
    code, out, _ = run(capsys, "readings", path, *grid_argv, "--parts", "dc_table", *options,
                       "--format", "json")  # fmt: skip
    rows = pd.DataFrame(json.loads(out))
    assert code == 0
    assert rows.dc_p_max.to_numpy(dtype=float) == pytest.approx(
        s.table.dc_p_max.to_numpy(dtype=float), abs=1e-12, nan_ok=True
    )
    assert not np.allclose(
        s.table.sort_values("switch").dc_p_max.to_numpy(dtype=float),
        base.table.sort_values("switch").dc_p_max.to_numpy(dtype=float),
        equal_nan=True,
    ), "the option changes nothing here: choose another"


# -- a reading the command's roll cannot read is refused ---------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # no Lucky: when Lucky rerolls changes nothing (it was printed in the rules, unread)
        (["odds", "-m", "0", "--dc", "16", "--lucky-timing", "after_choice"], ["--lucky"]),
        (
            [
                "odds",
                "-m",
                "0",
                "--dc",
                "16",
                "--reroll-on-failure",
                "--lucky-timing",
                "after_choice",
            ],
            ["--lucky"],
        ),  # fmt: skip
        (["opposed", "-m", "2", "--lucky-timing", "after_choice"], ["--lucky"]),
        (["dc", "-m", "3", "--target", "0.5", "--lucky-timing", "after_choice"], ["--lucky"]),
        (["frontier", "-m", "2", "--dc", "16", "--lucky-timing", "after_choice"], ["--lucky"]),
        (["compare", "-m", "4", "--lucky-timing", "after_choice"], ["--lucky"]),
        (["hide", "-m", "3", "--passive", "12", "--lucky-timing", "after_choice"], ["--lucky"]),
        (["day", "--gauge", "10", "--lucky-timing", "after_choice"], ["--lucky"]),
        # no subtracted die: the malus die is not rolled
        (
            ["hide", "-m", "5", "--passive", "14", "--malus-die", "plain"],
            ["--advantage disadvantage"],
        ),  # fmt: skip
        (["odds", "-m", "0", "--dc", "12", "--malus-die", "plain"], ["--advantage disadvantage"]),
        (
            [
                "odds",
                "-m",
                "0",
                "--dc",
                "12",
                "--advantage",
                "disadvantage",
                "--disadvantage",
                "drop",
                "--malus-die",
                "plain",
            ],
            ["--disadvantage subtract"],
        ),  # fmt: skip
        (["opposed", "-m", "2", "--malus-die", "plain"], ["--advantage disadvantage"]),
        (["dc", "-m", "3", "--target", "0.5", "--malus-die", "plain"], ["--advantage"]),
        (["frontier", "-m", "2", "--dc", "16", "--malus-die", "plain"], ["--advantage"]),
        (["compare", "--malus-die", "plain"], ["--advantage disadvantage"]),
        (["day", "--gauge", "10", "--malus-die", "plain"], ["--advantage disadvantage"]),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0][0] != "-" else "",
)
def test_a_reading_the_roll_does_not_read_is_refused(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    flag = "--lucky-timing" if "--lucky-timing" in argv else "--malus-die"
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"`{flag}`" in err and all(w in err for w in words), err


@pytest.mark.parametrize(
    "argv",
    [
        # (under keep the timing moves the drain only; cancel weighs the rerolled 1)
        [
            "odds",
            "-m",
            "0",
            "--dc",
            "16",
            "--lucky",
            "--policy",
            "cancel",
            "--lucky-timing",
            "after_choice",
        ],  # fmt: skip
        [
            "hide",
            "-m",
            "5",
            "--passive",
            "14",
            "--advantage",
            "disadvantage",
            "--malus-die",
            "plain",
        ],  # fmt: skip
        # side B alone at disadvantage subtracts its die
        ["opposed", "-m", "2", "--vs-advantage", "disadvantage", "--malus-die", "plain"],
        ["compare", "--advantage", "disadvantage", "--malus-die", "plain"],
    ],
    ids=" ".join,
)
def test_a_reading_the_roll_reads_is_applied(capsys, argv):
    code, out, err = run(capsys, *argv)
    flag = "--lucky-timing" if "--lucky-timing" in argv else "--malus-die"
    i = argv.index(flag)
    code0, out0, err0 = run(capsys, *argv[:i], *argv[i + 2 :])
    assert code == 0 and code0 == 0, (err, err0)
    body = [line for line in out.splitlines() if not line.startswith("#")]
    body0 = [line for line in out0.splitlines() if not line.startswith("#")]
    assert body != body0  # the numbers move


def test_the_note_of_overflow_best_has_its_french_words():
    # present/readings.note_label writes the note again for the catalogue: it must stay the
    # analysis layer's own text, so that the French is its translation
    from explodice.analysis.sensitivity import BEST_NOTE
    from explodice.present import i18n
    from explodice.present.readings import note_label

    french = note_label(BEST_NOTE, None, None, Rules(), "fr")
    assert french != BEST_NOTE and french == i18n.translator("fr")(BEST_NOTE)
    assert note_label(BEST_NOTE, None, None, Rules(), "en") == BEST_NOTE
