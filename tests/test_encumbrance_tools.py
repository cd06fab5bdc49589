"""Encumbrance, tools and the d20 features (half proficiency, a save proficient twice)."""

import pytest

import explodice as ex
from explodice.day.scenario import ScenarioError

SCORES = dict(STR=10, DEX=14, CON=12, INT=10, WIS=10, CHA=10)  # DEX +2, INT +0


def test_heavy_load_is_one_disadvantage_on_str_dex_con():
    # carrying capacity 7.5 x STR; heavily encumbered over 5 x STR = 50 kg here
    light = ex.Character("A", SCORES, load=50)
    heavy = ex.Character("B", SCORES, load=50.5)
    assert not light.heavily_encumbered and heavy.heavily_encumbered
    assert heavy.roll(ability="DEX").advantage == "disadvantage"
    assert heavy.roll(ability="CON", kind="save").advantage == "disadvantage"
    assert heavy.roll(ability="STR", kind="attack").advantage == "disadvantage"
    assert heavy.roll("Stealth").advantage == "disadvantage"
    assert heavy.roll(ability="INT").advantage == "normal"
    # netted: any advantage with any disadvantage gives neither
    assert heavy.roll(ability="DEX", advantage="advantage").advantage == "normal"
    assert heavy.roll(ability="DEX", advantages=2).advantage == "normal"
    with pytest.raises(ex.ExplodiceError, match="load"):
        ex.Character("C", SCORES, load=-1)


def test_tools_add_pb_or_give_advantage_with_the_skill():
    c = ex.Character(
        "Thief", SCORES, level=5, skills={"Sleight of Hand": 1}, tools={"Thieves' tools": 1}
    )
    pb = 3
    # a check with the tool alone: ability + PB
    assert c.roll(ability="DEX", tool="thieves' tools").modifier == 2 + pb
    # tool and skill: PB once, and advantage as well
    r = c.roll("Sleight of Hand", tool="Thieves' Tools")
    assert (r.modifier, r.advantage) == (2 + pb, "advantage")
    # without the tool's proficiency nothing changes
    r = c.roll("Sleight of Hand", tool="herbalism kit")
    assert (r.modifier, r.advantage) == (2 + pb, "normal")
    with pytest.raises(ex.ExplodiceError, match="tool"):
        c.roll(ability="DEX", kind="save", tool="thieves' tools")


def test_d20_features():
    bard = ex.Character(
        "Bard", SCORES, level=5, skills={"Performance": 1}, features=["half_proficiency"]
    )
    assert bard.roll(ability="DEX", system="d20").modifier == 2 + 3 // 2  # initiative too
    assert bard.roll("Performance", system="d20").modifier == 0 + 3  # proficient: PB
    assert bard.roll(ability="DEX").modifier == 2  # 3d6x has no such feature
    twice = ex.Character("Monk", SCORES, level=5, saves={"DEX": 2}, features=["save_expertise"])
    once = ex.Character("Rogue", SCORES, level=5, saves={"DEX": 2})
    assert twice.roll(ability="DEX", kind="save", system="d20").modifier == 2 + 2 * 3
    with pytest.warns(ex.ProficiencyWarning, match="save_expertise"):  # never silently
        assert once.roll(ability="DEX", kind="save", system="d20").modifier == 2 + 3
    with pytest.raises(ex.ExplodiceError, match="features"):
        ex.Character("X", SCORES, features=["flight"])
    # Lucky on the d20 is the character's reroll trait
    halfling = ex.Character("Pip", SCORES, reroll="one")
    d = ex.d20(halfling.roll(ability="INT", system="d20"))
    assert d.p_success(11) == pytest.approx(0.525, abs=1e-12)


def test_toml_and_day_carry_load_tools_features():
    text = """
[[character]]
name = "Thief"
level = 5
scores = { STR = 10, DEX = 14, CON = 12, INT = 10, WIS = 10, CHA = 10 }
skills = ["Escamotage"]
tools = ["Outils de voleur"]
load = 60
features = ["half_proficiency"]
reroll = "lucky"
"""
    (c,) = ex.game.character.characters_from_toml(text)
    assert c.heavily_encumbered and c.features == {"half_proficiency"}
    assert c.reroll == ex.Reroll("one")
    s = ex.Scenario(
        [c], [ex.DayRoll("Thief", skill="Sleight of Hand", tool="outils de voleur", dc=15)]
    )
    r = s.roll_of(0)
    assert (r.modifier, r.advantage) == (5, "normal")  # tool+skill advantage, load disadvantage
    assert r.reroll == ex.Reroll("one")
    with pytest.raises(ScenarioError, match="tool"):
        ex.Scenario([c], [ex.DayRoll("Thief", ability="DEX", kind="save", tool="x")])
