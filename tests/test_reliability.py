"""What issues 21 and 26 found below the presentation layer, one test per finding: the API and
a file accept the same characters; progress is a bool; a grid checks each case on its own
values; a day roll's label is checked; the README states the limits. The findings about one
rule live in its own file: initiative (26.5) in test_initiative.py, an opposed test's reroll
(26.6) in test_opposed.py, close contests (26.14) in test_close_contest.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import explodice as ex
from explodice import Roll
from explodice.analysis.close_contest import MAX_HP_ROWS, MAX_TIE_HP
from explodice.analysis.initiative import MAX_CREATURES
from explodice.core.errors import ExplodiceError, ExplodiceTypeError
from explodice.day.scenario import ScenarioError, ScenarioFileError, scenario_from_tables
from explodice.game.character import characters_from_tables
from explodice.sweeps import SweepError, load_grid

SCORES = dict(STR=12, DEX=14, CON=10, INT=10, WIS=10, CHA=10)


# -- 21.7: what TOML takes, the API takes ---------------------------------------------------
TABLE = {
    "name": "Gudulf",
    "scores": SCORES,
    "saves": ["STR", "CON"],  # a list of names: proficient once each
    "skills": ["Athlétisme", "Stealth"],
    "tools": ["thieves' tools"],
    "policy": {"dc": 16, "weight": 0.1},  # Best as TOML writes it
    "features": ["half_proficiency"],
    "reroll": {"trigger": "failure", "per_day": 2},
}


def test_a_character_from_the_api_equals_the_same_table_read_from_toml():
    from_toml = characters_from_tables([TABLE])[0]
    from_api = ex.Character(**TABLE)  # saves=["STR", "CON"] was refused here
    assert from_api == from_toml and hash(from_api) == hash(from_toml)
    assert dict(from_api.saves) == {"STR": 1, "CON": 1}
    assert dict(from_api.skills) == {"Athletics": 1, "Stealth": 1}
    assert from_api.policy == ex.Best(16, 0.1)
    # the multiplier the list stands for is the one a table gives
    assert from_api.save_modifier("CON") == ex.Character(
        "G", SCORES, saves={"CON": 1}
    ).save_modifier("CON")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"saves": ["STR", "Force"]}, "saves"),  # the same ability twice
        ({"skills": ["Stealth", "Discrétion"]}, "skills"),
        ({"policy": {"dc": 16, "weight": -1}}, "policy.weight"),
        ({"policy": {"dc": "16"}}, "policy.dc"),
        ({"saves": ["STR", 3]}, "saves"),
    ],
)
def test_list_and_table_forms_are_checked_as_the_file_checks_them(changes, field):
    with pytest.raises(ExplodiceError, match=field.replace(".", r"\.")):
        ex.Character(**{**TABLE, **changes})


# -- 26.6: progress is a bool ----------------------------------------------------------------
@pytest.mark.parametrize("value", ["yes", 1, 0, np.array([1, 2]), "False"])
def test_progress_is_true_false_or_none(value):
    with pytest.raises(ExplodiceTypeError, match="`progress` must be True, False or None"):
        ex.simulate(Roll(0), n=100, progress=value)
    with pytest.raises(ExplodiceTypeError, match="`progress`"):
        ex.roll_distribution(Roll(0), method="simulate", n=100, progress=value)


# -- 26.7 and 26.12: grids ------------------------------------------------------------------
def test_each_case_of_a_grid_is_checked_on_its_own_values(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'task = "success"\nseed = 1\n[[case]]\ndc = 16\n[[case]]\ndc = 16.5\n', encoding="utf-8"
    )
    spec = load_grid(grid)
    with pytest.warns(ex.SweepWarning, match="1 of 2 cases failed"):
        df = ex.sweep(spec.grid, spec.task, executor=_serial(), progress=False)
    ok, bad = df.iloc[0], df.iloc[1]
    assert pd.isna(ok.error) and ok.dc == 16  # was "`dc` must be an integer ..., but 16.0"
    assert ok.p == pytest.approx(float(ex.exact(Roll(0)).p_success(16)), abs=1e-12)
    assert "16.5" in bad.error
    # a DataFrame's float column (pandas upcast the 16) gives each case its own number
    frame = pd.DataFrame([{"dc": 16}, {"dc": 16.5}])
    with pytest.warns(ex.SweepWarning):
        df = ex.sweep(frame, "success", executor=_serial(), progress=False)
    assert pd.isna(df.error.iloc[0]) and "16.5" in df.error.iloc[1]


def _serial():
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(1)


@pytest.mark.parametrize("task", [".x:f", ":f", "os:", "os:no_such_function", "no.such.module:f"])
def test_a_task_that_cannot_be_imported_is_one_error(tmp_path, task):
    with pytest.raises(SweepError, match="`task`"):
        ex.sweep({"a": [1]}, task, executor=_serial())
    grid = tmp_path / "grid.toml"
    grid.write_text(f'task = "{task}"\n[grid]\na = [1]\n', encoding="utf-8")
    with pytest.raises(SweepError, match="grid.toml"):
        load_grid(grid)


# -- 26.11: a day roll's label --------------------------------------------------------------
@pytest.mark.parametrize("label", [[1], 5, b"x", {"a": 1}, 1.5])
def test_a_day_rolls_label_must_be_a_string(label):
    with pytest.raises(ScenarioError, match="`label`") as info:
        ex.DayRoll("Hero", ability="STR", label=label)
    assert isinstance(info.value, ExplodiceTypeError)
    tables = {
        "character": [{"name": "Hero", "scores": SCORES}],
        "day": {"roll": [{"character": "Hero", "ability": "STR", "label": label}]},
    }
    with pytest.raises(ScenarioFileError, match=r"day\.roll\[0\].*`label`"):
        scenario_from_tables(tables, source="day.toml")


def test_a_day_rolls_label_as_written_or_the_default():
    assert ex.DayRoll("Hero", ability="STR", label="lift").label == "lift"
    assert ex.DayRoll("Hero", ability="STR").label == "Hero: STR ability DC 16"
    with pytest.raises(ScenarioError, match="`label`"):
        ex.DayRoll("Hero", ability="STR", label="  ")


def test_a_scenario_roll_given_as_a_table_names_an_unknown_key():
    hero = ex.Character("Hero", SCORES)
    with pytest.raises(ScenarioError, match=r"`rolls\[0\]\.colour`"):  # was a bare TypeError
        ex.Scenario([hero], [{"character": "Hero", "ability": "STR", "colour": 1}])


# -- 26.5 and 26.14: the limits of initiative and close contests, in the README ---------------
def test_the_readme_states_the_new_limits():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"| creatures of one initiative | {MAX_CREATURES}" in readme
    assert f"{MAX_HP_ROWS:,}" in readme and f"{MAX_TIE_HP:,}" in readme
