"""Day scenarios: validation and TOML files (inline parties, [day] tables, errors naming file, key and problem)."""

import pytest

import explodice as ex
from explodice.day.scenario import ScenarioError
from tests.day_helpers import hero

PARTY = """
[[character]]
name = "Gudulf"
scores = { FOR = 16, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }
skills = ["Athlétisme"]
policy = { dc = 16, weight = 0.1 }
"""


SCENARIO = """
name = "mines"
characters = "party.toml"
rolls_per_day = 12
start = { Gudulf = { PA = 10 } }

[[roll]]
character = "Gudulf"
skill = "Athlétisme"
dc = 16
weight = 3

[[roll]]
character = "Gudulf"
ability = "SAG"
kind = "save"
dc = 12
"""


def test_scenario_validation():
    who = hero()
    with pytest.raises(ScenarioError, match="character"):
        ex.Scenario([who], [ex.DayRoll("Nobody", ability="STR")])
    with pytest.raises(ScenarioError, match="skill"):
        ex.DayRoll("Hero", skill="Athletics", kind="save")
    with pytest.raises(ScenarioError, match="ability"):
        ex.DayRoll("Hero")
    with pytest.raises(ScenarioError, match="weight"):
        ex.DayRoll("Hero", ability="STR", weight=0)
    with pytest.raises(ScenarioError, match="start.Hero.XX"):
        ex.Scenario([who], [ex.DayRoll("Hero", ability="STR")], start={"Hero": {"XX": 3}})


def test_load_scenario(tmp_path):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    s = ex.load_scenario(path)
    assert s.name == "mines" and s.n_rolls == 12 and s.gauge_start()["Gudulf"]["PA"] == 10
    roll = s.roll_of(0)
    assert roll.modifier == 5 and roll.policy == ex.Best(16, 0.1)
    assert s.roll_of(1).kind == "save" and s.rolls[1].gauge == "PF"


@pytest.mark.parametrize(
    "edit,message",
    [
        (("dc = 16", 'dc = "hard"'), r"`roll\[0\]`.*`dc`"),
        (("weight = 3", "wieght = 3"), r"`roll\[0\].wieght`: unknown key"),
        (
            ('character = "Gudulf"\nability', 'character = "Nobody"\nability'),
            r"rolls\[1\].character",
        ),
        (('characters = "party.toml"', 'characters = "missing.toml"'), "cannot be read"),
        (("rolls_per_day = 12", "rolls_per_day = 12\ncolour = 1"), r"`colour`: unknown key"),
        (("[[roll]]", "[[roll]\n"), "not valid TOML"),
    ],
)
def test_load_scenario_errors_name_file_key_problem(tmp_path, edit, message):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(SCENARIO.replace(*edit, 1), encoding="utf-8")
    with pytest.raises(ex.ExplodiceError, match=message) as err:
        ex.load_scenario(path)
    assert "toml" in str(err.value)


def test_load_scenario_with_inline_characters(tmp_path):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    (tmp_path / "day.toml").write_text(SCENARIO, encoding="utf-8")
    one_file = tmp_path / "one.toml"
    one_file.write_text(
        SCENARIO.replace('characters = "party.toml"\n', "") + PARTY, encoding="utf-8"
    )
    s = ex.load_scenario(one_file)
    assert s.characters == ex.load_scenario(tmp_path / "day.toml").characters
    assert s.roll_of(0).modifier == 5  # FOR 16: +3, Athlétisme at level 1: +2


def test_load_scenario_day_table_layout(tmp_path):
    top, rolls = SCENARIO.split("[[roll]]", 1)
    day = (
        "[day]\n"
        + top.replace('characters = "party.toml"\n', "")
        + "[[day.roll]]"
        + rolls.replace("[[roll]]", "[[day.roll]]")
    )
    path = tmp_path / "day.toml"
    path.write_text(PARTY + day, encoding="utf-8")
    s = ex.load_scenario(path)
    assert s.name == "mines" and s.n_rolls == 12 and len(s.rolls) == 2
    assert s.gauge_start()["Gudulf"]["PA"] == 10


@pytest.mark.parametrize(
    "text,message",
    [
        (SCENARIO + PARTY, r"`characters`: give the party either"),
        (SCENARIO.replace('characters = "party.toml"\n', ""), r"`characters`: missing"),
        (
            SCENARIO.replace('characters = "party.toml"\n', "")
            + PARTY.replace("FOR = 16", "FOR = 99"),
            r"`character\[0\]\.scores\.FOR`",
        ),
        (SCENARIO + "[day]\nrolls_per_day = 3\n", r"`name`: give the day's keys either"),
        (PARTY + "[day]\ncolour = 1\n", r"`day.colour`: unknown key"),
        (PARTY + "[day]\nname = 'x'\n", r"`day.roll`: no \[\[day.roll\]\]"),
    ],
)
def test_load_scenario_one_file_errors(tmp_path, text, message):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ex.ExplodiceError, match=message) as err:
        ex.load_scenario(path)
    assert "day.toml" in str(err.value)


def test_shipped_day_example():
    from importlib import resources

    s = ex.load_scenario(resources.files("explodice") / "data/day_example.toml")
    assert [c.name for c in s.characters] == ["Gudulf", "Aelis", "Kobold chief"]
    assert s.rolls_per_day == 30 and len(s.rolls) == 6
    start = s.gauge_start()
    assert start["Gudulf"]["PA"] == 14 + 3 * 3  # CON + 3 per level at level 3
    assert start["Aelis"]["PF"] == 6 and start["Aelis"]["PA"] == 12 + 2 * 3
    stealth = s.roll_of(2)  # DEX 16 (+3), Stealth x2 at level 3 (2 x +2), one advantage
    assert stealth.modifier == 7 and stealth.advantage == "advantage"
    assert s.roll_of(3).policy == ex.Best(16, 0.1)  # Aelis' weight at the roll's own DC
    res = ex.simulate_day(s, n_days=500, seed=1, threads=1)
    types = res.to_frame("roll_types")
    assert types.loc[types.type.str.startswith("Kobold"), "drain_mean"].fillna(0).eq(0).all()


def test_default_report_config_party_and_day_read_as_a_scenario():
    # the report's configuration describes the party and the day in the same layout
    import tomllib
    from importlib import resources

    from explodice.day.scenario import scenario_from_tables

    data = tomllib.loads(
        resources.files("explodice").joinpath("data/default.toml").read_text("utf-8")
    )
    s = scenario_from_tables(
        {"character": data["character"], "day": data["day"]}, source="default.toml"
    )
    assert [c.name for c in s.characters] == [t["name"] for t in data["character"]]
    assert s.rolls_per_day == data["day"]["rolls_per_day"]
    assert len(s.rolls) == len(data["day"]["roll"])
