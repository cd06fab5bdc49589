"""The analysis layer against values derived independently of the engine.

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import explodice as ex
from explodice import Best, Character, ExplodiceError, Roll, Rules
from explodice.game.character import ABILITIES
from tests.hand import HAND, sf


# -- success tables -------------------------------------------------------------------------
def test_success_table_default_shape_and_columns():
    t = ex.success_table()
    assert list(t.columns[:9]) == [
        "system",
        "modifier",
        "dc",
        "difficulty",
        "advantage",
        "disadvantage",
        "policy",
        "method",
        "p",
    ]
    assert len(t) == 16 * 6 * 3  # the rules' own reading of disadvantage only
    assert len(ex.success_table(readings="both")) == 16 * 6 * 4
    assert sorted(t.modifier.unique()) == list(range(-5, 11))
    assert t.drop_duplicates("dc").set_index("dc").difficulty.to_dict() == {
        8: "very easy",
        12: "easy",
        16: "moderate",
        22: "hard",
        28: "very hard",
        35: "nearly impossible",
    }
    assert set(t.advantage) == set(HAND) - {"disadvantage (drop)"}


def test_the_reading_of_disadvantage_comes_from_the_rules():
    # one source for the reading: Rules(disadvantage="drop") is 2d6x (hand PMF), not subtract
    t = ex.success_table(
        [0], [8, 16], advantages=["disadvantage"], rules=ex.Rules(disadvantage="drop")
    )
    assert t.advantage.tolist() == ["disadvantage (drop)"] * 2
    assert t.disadvantage.tolist() == ["drop"] * 2
    assert t.p.tolist() == pytest.approx(
        [sf(HAND["disadvantage (drop)"], d) for d in (8, 16)], abs=1e-12
    )


def test_success_table_against_hand_convolution():
    t = ex.success_table(readings="both")
    for row in t.itertuples():
        assert row.p == pytest.approx(sf(HAND[row.advantage], row.dc - row.modifier), abs=1e-10)
    # rule of 1 under keep: at least one kept 1 among the initial dice
    comp = t.drop_duplicates("advantage").set_index("advantage").p_complication
    assert comp["normal"] == pytest.approx(1 - (5 / 6) ** 3)
    assert comp["advantage"] == pytest.approx(1 - (5 / 6) ** 4)
    assert comp["disadvantage (drop)"] == pytest.approx(1 - (5 / 6) ** 2)
    assert comp["disadvantage (subtract)"] == pytest.approx(1 - (5 / 6) ** 3)  # malus die: no 1s
    drain = t.drop_duplicates("advantage").set_index("advantage").drain_mean
    assert drain["normal"] == pytest.approx(3 / 6 * 4.2)  # E[kept 1s] x E[exploding d6]
    assert drain["disadvantage (drop)"] == pytest.approx(2 / 6 * 4.2)


def test_simulated_table_within_error_and_reproducible():
    kw = dict(modifiers=[0, 4], method="simulate", n=20_000, seed=5)
    a, b = ex.success_table(**kw), ex.success_table(**kw)
    assert {"ci_low", "ci_high", "n", "seed"} <= set(a.columns)
    assert (a.n == 20_000).all() and (a.seed == 5).all() and (a.method == "simulate").all()
    pd.testing.assert_frame_equal(a, b)
    for row in a.itertuples():
        truth = sf(HAND[row.advantage], row.dc - row.modifier)
        assert abs(row.p - truth) <= 4.5 * math.sqrt(truth * (1 - truth) / 20_000) + 1e-4
        assert row.ci_low - 1e-12 <= row.p <= row.ci_high + 1e-12


def test_best_policy_reads_each_rows_dc():
    t = ex.success_table(modifiers=[0, 3], dcs=[12, 16], advantages=["normal"], policy=Best(0, 0.1))
    for row in t.itertuples():
        direct = ex.exact(Roll(row.modifier, policy=Best(row.dc, 0.1))).p_success(row.dc)
        assert row.p == pytest.approx(direct, abs=1e-12)
    assert set(t.policy) == {"best(λ=0.1)"}


def test_pivot_round_trips():
    t = ex.success_table(dcs=[8, 16, 28], readings="both")
    wide = ex.pivot_success(t)
    assert wide.shape == (16, 4 * 3)
    assert wide.loc[2, ("advantage", 16)] == pytest.approx(sf(HAND["advantage"], 14))
    back = ex.unpivot_success(wide)
    merged = t.merge(back, on=["modifier", "advantage", "dc"], suffixes=("", "_back"))
    assert len(merged) == len(t) and (merged.p == merged.p_back).all()
    twice = pd.concat([t, t.assign(policy="cancel")])
    with pytest.raises(ExplodiceError, match="filter"):
        ex.pivot_success(twice)


def test_character_table():
    c = Character(
        "Aelis",
        {"STR": 8, "DEX": 16, "CON": 12, "INT": 10, "WIS": 14, "CHA": 12},
        level=5,
        skills={"Stealth": 2, "Perception": 1},
        saves={"DEX": 1},
    )
    t = ex.success_table(characters=[c], advantages=["normal"])
    assert list(t.columns[:3]) == ["character", "test", "kind"]
    assert set(t.test) == {f"save {a}" for a in ABILITIES} | {"Stealth", "Perception"}
    stealth = t[t.test == "Stealth"]
    assert (stealth.modifier == 3 + 2 * 3).all()
    assert stealth.set_index("dc").p[16] == pytest.approx(sf(HAND["normal"], 16 - 9))
    assert (t[t.test == "save DEX"].kind == "save").all()
    t2 = ex.success_table(
        characters=[c], tests=["Discrétion", "WIS", ("save", "CON")], advantages=["normal"]
    )
    assert t2.drop_duplicates("test").modifier.tolist() == [9, 2, 1]
    with pytest.raises(ExplodiceError):
        ex.success_table(characters=[c], tests=["Jonglage"])


def test_bad_table_arguments():
    with pytest.raises(ExplodiceError, match="system"):
        ex.success_table(system="d100")
    with pytest.raises(ExplodiceError, match="advantages"):
        ex.success_table(advantages=["lucky"])
    with pytest.raises(ExplodiceError, match="method"):
        ex.success_table(method="guess")


# -- opposed --------------------------------------------------------------------------------


# -- group tests ----------------------------------------------------------------------------


# -- working together -----------------------------------------------------------------------


# -- passive --------------------------------------------------------------------------------


# -- haggling -------------------------------------------------------------------------------


# -- comparing the systems ------------------------------------------------------------------


def test_public_names():
    for name in (
        "Character",
        "success_table",
        "opposed",
        "group_success",
        "haggle",
        "passive",
        "equivalent_dc",
    ):
        assert name in ex.__all__ and hasattr(ex, name)
    assert len(set(ex.__all__)) == len(ex.__all__)  # each public name listed once
    for name in ex.__all__:  # every listed name is there (the lazy ones load on first use)
        assert getattr(ex, name) is not None, name
    # the defaults of the switches are the ones README.md and docs/rules.md document
    r = Rules()
    assert (r.disadvantage, r.rule_of_one_kinds, r.ones_on_explosions) == (
        "subtract",
        frozenset({"check", "save"}),
        False,
    )
    assert (r.overflow, r.drain_gauge, r.close_contest) == ("fullest", "skill", False)
