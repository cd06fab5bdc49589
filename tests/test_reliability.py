"""What issues 21 and 26 found below the presentation layer, one test per finding: the API and
a file accept the same characters; initiative refuses names and sides it would misread; an
opposed test refuses a reroll on failure; a grid checks each case on its own values; a day
roll's label is checked; close contests and large initiatives are computed without the
blow-up. Reference values are worked by hand in the comments, or come from a second method
written here.
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


# -- 26.5: initiative ------------------------------------------------------------------------
def test_a_creature_named_twice_is_refused_not_dropped():
    # the command line's `A=3 A=5 B=1` as pairs: a mapping would have kept A=5 without a word
    with pytest.raises(ExplodiceError, match="'A' is given twice"):
        ex.initiative([("A", 3), ("A", 5), ("B", 1)])
    r = ex.initiative([("A", 3), ("B", 1)])  # pairs are a way to give creatures
    assert r.p_first("A") == pytest.approx(ex.initiative({"A": 3, "B": 1}).p_first("A"))


@pytest.mark.parametrize(
    "sides, message",
    [
        ({"x": ["A", "A"], "y": ["B"]}, "'A' twice on it"),  # gave 18.4 % / 46.9 %
        ({"x": ["A"], "y": ["A", "B"]}, "on 'x' too"),
        ({"x": ["A"], "y": ["B"], "z": []}, "non-empty"),
        ({"x": ["A"]}, "two sides or more"),  # printed an empty table
        ({"x": ["A"], "y": ["B"]}, "'C' is on none"),  # C left out of every side
        ({"x": ["A", "Z"], "y": ["B", "C"]}, "names of creatures"),
        ({"x": ["A", 3], "y": ["B", "C"]}, "names of creatures"),
    ],
)
def test_sides_must_split_the_creatures(sides, message):
    with pytest.raises(ExplodiceError, match=message):
        ex.initiative({"A": 3, "B": 1, "C": 0}, sides=sides)


def test_sides_that_split_the_creatures_sum_to_one_with_the_interleavings():
    # two sides of one creature each: one of them acts first, surely
    r = ex.initiative({"A": 3, "B": 1}, sides={"x": ["A"], "y": ["B"]})
    p = r.sides.set_index(["first", "second"]).p
    assert p["x", "y"] + p["y", "x"] == pytest.approx(1.0, abs=1e-12)
    assert p["x", "y"] == pytest.approx(r.p_first("A"), abs=1e-12)


def test_initiative_refuses_a_roll_with_a_reroll_on_failure_and_past_its_limit():
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.initiative({"A": Roll(2, reroll=ex.Reroll("failure", dc=12)), "B": 1})
    ex.initiative({"A": Roll(2, reroll=ex.Reroll("one")), "B": 1})  # Lucky is allowed
    with pytest.raises(ExplodiceError, match=f"at most {MAX_CREATURES} creatures"):
        ex.initiative({f"c{i}": i % 5 for i in range(MAX_CREATURES + 1)})


def _ranks_one_creature_at_a_time(mods: dict, system: str) -> np.ndarray:
    """P(rank) by the former method, a second computation: for each creature, the joint
    count of creatures ahead and tied (a polynomial in two variables), then a fair coin
    among the tied ones."""
    names = list(mods)
    dists = [ex.d20(m) if system == "d20" else ex.exact(m) for m in mods.values()]
    dex = [m.modifier for m in mods.values()]
    lo = min(d.lo for d in dists)
    hi = max(d.lo + d.total_pmf.size for d in dists)
    p = np.zeros((len(names), hi - lo + 1))
    for i, d in enumerate(dists):
        p[i, d.lo - lo : d.lo - lo + d.total_pmf.size] = d.total_pmf / d.total_pmf.sum()
    n = len(names)
    out = np.zeros((n, n))
    for i in range(n):
        for t in np.flatnonzero(p[i]):
            poly = np.zeros((n, n))
            poly[0, 0] = 1.0
            for j in range(n):
                if j == i:
                    continue
                ahead = p[j, t + 1 :].sum() + p[j, t] * (dex[j] > dex[i])
                tied = p[j, t] * (dex[j] == dex[i])
                new = poly * (1 - ahead - tied)
                new[1:, :] += poly[:-1, :] * ahead
                new[:, 1:] += poly[:, :-1] * tied
                poly = new
            for a in range(n):
                for b in range(n - a):
                    out[i, a : a + b + 1] += p[i, t] * poly[a, b] / (b + 1)
    return out


@pytest.mark.parametrize("system", ["3d6x", "d20"])
def test_exact_ranks_agree_with_a_per_creature_computation(system):
    rng = np.random.default_rng(7)
    states = ["normal", "advantage", "disadvantage"]
    mods = {
        f"c{i}": Roll(int(rng.integers(-1, 3)), advantage=rng.choice(states), kind="ability")
        for i in range(9)
    }
    r = ex.initiative(mods, system=system)
    want = _ranks_one_creature_at_a_time(mods, system)
    got = r.ranks.pivot(index="creature", columns="rank", values="p").loc[list(mods)].to_numpy()
    assert np.abs(got - want).max() < 1e-12
    assert np.allclose(got.sum(axis=0), 1.0) and np.allclose(got.sum(axis=1), 1.0)


def test_a_large_initiative_is_exact_and_quick_enough_to_test():
    # 60 creatures of one DEX took 20 s: every rank of identical creatures is 1/60
    r = ex.initiative({f"goblin {i}": 2 for i in range(60)})
    assert np.allclose(r.ranks.p, 1 / 60, atol=1e-12)


# -- 26.6: a reroll on failure has no DC in an opposed test; progress is a bool -------------
def test_an_opposed_test_refuses_a_reroll_on_failure_on_either_side():
    failing = Roll(0, reroll=ex.Reroll("failure", dc=16))
    for a, b in [(Roll(0), failing), (failing, Roll(0))]:
        with pytest.raises(ExplodiceError, match="no DC to fail"):
            ex.opposed(a, b)
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.opposed(Roll(0), ex.exact(failing))  # its distribution carries the roll
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.close_opposed(Roll(0), failing)
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.hide(failing, active=[Roll(0)])
    lucky = ex.opposed(Roll(0), Roll(0, reroll=ex.Reroll("one")))  # Lucky is allowed
    assert lucky.win + lucky.tie + lucky.loss == pytest.approx(1.0)


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


# -- 26.14: close contests without the blow-up ----------------------------------------------
def test_bids_that_tie_almost_always_at_no_cost_are_settled_in_closed_form():
    # A bids 0 (p = 0.999) or 1; B always 0. A 0-0 round is bid again at no cost, so A wins
    # the first round it bids 1: P(A) = 1, A pays 1, B nothing, rounds: geometric, 1 / 0.001
    c = ex.close_contest([0.999, 0.001], 0)  # allocated a 34,524 x 34,524 matrix (8.9 GiB)
    assert c.p_win_a == pytest.approx(1.0, abs=1e-12) and c.p_win_b == pytest.approx(0.0)
    assert c.hp_a_mean == pytest.approx(1.0, abs=1e-9) and c.hp_b_mean == 0.0
    assert c.rounds_mean == pytest.approx(1000.0, rel=1e-9)
    assert c.hp.to_dict("list") == {"hp_a": [1], "hp_b": [0], "p": [pytest.approx(1.0)]}
    c = ex.close_contest([0.9999999999, 0.0000000001], 0)  # ran past 60 s
    assert c.p_win_a == pytest.approx(1.0) and c.rounds_mean == pytest.approx(1e10, rel=1e-6)


def test_costly_ties_follow_the_geometric_law_worked_by_hand():
    # both uniform over 0..1: a round is 0-0 (1/4: again, free), 1-1 (1/4: both pay 1, again),
    # 1-0 (A wins paying 1) or 0-1 (B wins paying 1). Leaving the free rounds out, each round
    # is a costly tie, A or B with 1/3 each: K costly ties ~ P(K = k) = (1/3)^k (2/3).
    # hp_a = K + 1 if A wins else K: P(hp_a = 0) = 1/3, P(hp_a = h) = (1/3)^(h+1) + (1/3)^h
    c = ex.close_contest("uniform:1", "uniform:1")
    assert c.p_win_a == pytest.approx(0.5, abs=1e-15)
    assert c.hp_a_mean == pytest.approx(1.0, abs=1e-12)  # E[K] = 1/2, plus 1 half the time
    pmf = c.hp_pmf("a")
    assert pmf[0] == pytest.approx(1 / 3, abs=1e-15)
    for h in range(1, 25):
        assert pmf[h] == pytest.approx((1 / 3) ** (h + 1) + (1 / 3) ** h, abs=1e-15)
    joint = c.hp.set_index(["hp_a", "hp_b"]).p
    for k in range(20):  # K = k, then A wins: (k + 1, k); B wins: (k, k + 1)
        assert joint[k + 1, k] == pytest.approx((1 / 3) ** k * (2 / 3) / 2, abs=1e-15)
        assert joint[k, k + 1] == pytest.approx((1 / 3) ** k * (2 / 3) / 2, abs=1e-15)
    assert 0 <= c.omitted < 1e-12 and joint.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_hp_tables_are_bounded_and_the_summary_is_not():
    c = ex.close_contest("uniform:1000", "uniform:1000")
    assert c.p_win_a == pytest.approx(0.5, abs=1e-12)
    assert c.hp_pmf("a").sum() == pytest.approx(1.0, abs=1e-12)  # the marginals: small
    with pytest.raises(ExplodiceError, match=f"at most {MAX_HP_ROWS:,}"):
        c.hp  # noqa: B018 - the joint table would hold millions of rows
    # bids that tie at a cost almost always: the summary is exact, the tables refused
    c = ex.close_contest([0, 1 - 1e-10, 1e-10], [0, 1 - 1e-10, 1e-10])
    assert c.hp_a_mean > 1e9 and c.p_win_a == pytest.approx(0.5)
    with pytest.raises(ExplodiceError, match=f"{MAX_TIE_HP:,}"):
        c.hp_pmf("b")


def test_the_readme_states_the_new_limits():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"| creatures of one initiative | {MAX_CREATURES}" in readme
    assert f"{MAX_HP_ROWS:,}" in readme and f"{MAX_TIE_HP:,}" in readme
