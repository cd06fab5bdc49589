"""Characters: tables of the seeds, proficiencies, gauges, rolls and TOML errors."""

from __future__ import annotations

import warnings

import pytest

from explodice import (
    Best,
    Character,
    CharacterFileError,
    ExplodiceError,
    ProficiencyWarning,
    Roll,
    load_characters,
)
from explodice.game.character import (
    ABILITIES,
    SKILLS,
    ability_modifier,
    characters_from_toml,
    proficiency_bonus,
    resolve_ability,
    resolve_skill,
)

SCORES = {"STR": 14, "DEX": 12, "CON": 14, "INT": 8, "WIS": 10, "CHA": 10}

# Seed 000, "Valeurs de caractéristiques et modificateurs", row by row.
SEED_MODIFIERS = [
    ((1,), -5),
    ((2, 3), -4),
    ((4, 5), -3),
    ((6, 7), -2),
    ((8, 9), -1),
    ((10, 11), 0),
    ((12, 13), 1),
    ((14, 15), 2),
    ((16, 17), 3),
    ((18, 19), 4),
    ((20, 21), 5),
    ((22, 23), 6),
    ((24, 25), 7),
    ((26, 27), 8),
    ((28, 29), 9),
    ((30,), 10),
]
# The 5e proficiency table: levels 1-4 +2, 5-8 +3, 9-12 +4, 13-16 +5, 17-20 +6.
SEED_PB = {1: 2, 4: 2, 5: 3, 8: 3, 9: 4, 12: 4, 13: 5, 16: 5, 17: 6, 20: 6}


@pytest.mark.parametrize("scores,modifier", SEED_MODIFIERS)
def test_modifier_table_of_the_seed(scores, modifier):
    for score in scores:
        assert ability_modifier(score) == modifier


@pytest.mark.parametrize("level,pb", SEED_PB.items())
def test_proficiency_table(level, pb):
    assert proficiency_bonus(level) == pb


@pytest.mark.parametrize("bad", [0, 31, 10.5, True, "12"])
def test_bad_scores_are_refused(bad):
    with pytest.raises(ExplodiceError, match="score"):
        ability_modifier(bad)


def test_skills_of_the_seed():
    # 18 skills, none for CON; the seed's examples.
    assert len(SKILLS) == 18 and "CON" not in SKILLS.values()
    assert resolve_skill("Athlétisme") == "Athletics" and SKILLS["Athletics"] == "STR"
    assert SKILLS[resolve_skill("discretion")] == "DEX"
    assert SKILLS[resolve_skill("PERCEPTION")] == "WIS"
    assert SKILLS[resolve_skill("Persuasion")] == "CHA"
    assert SKILLS[resolve_skill("Escamotage")] == "DEX"
    assert SKILLS[resolve_skill("Arcanes")] == "INT"
    assert resolve_skill("Supercherie") == resolve_skill("Tromperie") == "Deception"
    counts = {a: list(SKILLS.values()).count(a) for a in ABILITIES}
    assert counts == {"STR": 1, "DEX": 3, "CON": 0, "INT": 5, "WIS": 5, "CHA": 4}
    with pytest.raises(ExplodiceError, match="Jonglage"):
        resolve_skill("Jonglage")


def test_ability_names():
    for name in ("STR", "FOR", "Force", "strength"):
        assert resolve_ability(name) == "STR"
    assert resolve_ability("SAG") == resolve_ability("Sagesse") == "WIS"
    assert resolve_ability("dextérité") == "DEX"
    with pytest.raises(ExplodiceError, match="ability"):
        resolve_ability("LUCK")


def test_passive_example_of_the_seed():
    # Seed 000: level 1, WIS 12, proficient in Perception -> passive Perception 13.
    c = Character("Ex", dict(SCORES, WIS=12), skills={"Perception": 1})
    assert 10 + c.skill_modifier("Perception") == 13


def test_gudulf():
    # Seed 000's example: STR +2 and PB +2 -> he rolls 3d6+4.
    g = Character("Gudulf", SCORES, skills={"Athlétisme": 1})
    assert g.roll("Athletics") == Roll(4)


def test_proficiency_multipliers_and_expertise():
    c = Character("R", dict(SCORES, DEX=16), level=9, skills={"Stealth": 2, "Acrobatics": 1})
    # DEX +3, PB +4
    assert c.skill_modifier("Stealth") == 3 + 8  # 3d6x: PB added twice
    assert c.skill_modifier("Stealth", system="d20") == 3 + 8  # d20: Expertise doubles once
    assert c.skill_modifier("Acrobatics") == 7
    assert c.skill_modifier("Sleight of Hand") == 3
    assert c.skill_modifier("Athletics", ability="DEX") == 3  # not proficient: no PB
    with pytest.raises(ExplodiceError, match="system"):
        c.skill_modifier("Stealth", system="d100")
    with pytest.raises(ExplodiceError, match="skills.Stealth"):
        Character("R", SCORES, skills={"Stealth": 3})


def test_d20_adds_a_save_proficiency_once_and_says_so():
    # 3d6x: a save chosen twice adds PB twice; d20: PB at most once (docs/rules.md, d20: "added at
    # most once"; Expertise is for checks). The file says "twice": d20 says aloud that it
    # reads it once, naming the field, the value and the feature that would count it twice.
    c = Character("S", dict(SCORES, DEX=16), level=5, saves={"DEX": 2}, skills={"Stealth": 2})
    assert c.save_modifier("DEX") == 3 + 2 * 3
    with pytest.warns(ProficiencyWarning) as caught:
        assert c.save_modifier("DEX", system="d20") == 3 + 3
    message = str(caught[0].message)
    assert "`saves.DEX` is 2" in message and "'save_expertise'" in message
    assert "+3, not +6" in message and message.startswith("'S'")
    with pytest.warns(ProficiencyWarning, match="saves.DEX"):
        assert c.roll(ability="DEX", kind="save", system="d20").modifier == 6
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to say: 3d6x, a save proficient once, the feature
        assert c.roll(ability="DEX", kind="save").modifier == 9
        once = Character("T", dict(SCORES, DEX=16), level=5, saves={"DEX": 1})
        assert once.save_modifier("DEX", system="d20") == 6
        feat = Character(
            "U", dict(SCORES, DEX=16), level=5, saves={"DEX": 2}, features=["save_expertise"]
        )
        assert feat.save_modifier("DEX", system="d20") == 9
    assert c.roll("Stealth", system="d20").modifier == 3 + 2 * 3  # Expertise doubles once
    with pytest.raises(ExplodiceError, match="system"):
        c.roll(ability="DEX", system="d100")


def test_saves_attacks_and_rolls():
    c = Character("W", SCORES, level=5, saves={"CON": 1}, actor="npc", policy="cancel")
    save = c.roll(ability="CON", kind="save", advantage="advantage")
    assert save == Roll(5, advantage="advantage", kind="save", actor="npc", policy="cancel")
    attack = c.roll(ability="STR", kind="attack", bonus=c.proficiency_bonus)
    assert attack.modifier == 2 + 3 and attack.kind == "attack"
    assert c.roll(ability="INT").modifier == -1
    assert c.roll("Perception", policy=Best(16, 0.1)).policy == Best(16, 0.1)
    with pytest.raises(ExplodiceError):
        c.roll()
    with pytest.raises(ExplodiceError):
        c.roll("Perception", kind="save")


def test_gauges_formula_and_stated():
    c = Character("G", SCORES, level=4, gauge_per_level={"PA": 3, "pm": 1})
    # PA = CON + 3 x 4, PM = INT + 1 x 4, PF = WIS, PH = CHA
    assert c.gauges() == {"PA": 26, "PM": 12, "PF": 10, "PH": 10}
    d = Character("G", SCORES, level=4, gauge_per_level={"PA": 3}, gauge_max={"PF": 30})
    assert d.gauges()["PF"] == 30 and d.gauges()["PA"] == 26
    with pytest.raises(ExplodiceError, match="gauge"):
        Character("G", SCORES, gauge_max={"HP": 3})


def test_character_is_frozen_hashable_and_read_only():
    c = Character("A", SCORES, skills={"Survie": 1})
    assert c == Character("A", dict(SCORES), skills={"Survival": 1})
    assert hash(c) == hash(Character("A", dict(SCORES), skills={"Survival": 1}))
    with pytest.raises(AttributeError):
        c.level = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.scores["STR"] = 20  # type: ignore[index]
    with pytest.raises(ExplodiceError, match="missing"):
        Character("A", {"STR": 10})
    assert "<table>" in c._repr_html_()


GOOD = """
[[character]]
name = "Gudulf"
level = 3
scores = { FOR = 14, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }
skills = { "Athlétisme" = 1, Intimidation = 2 }
saves = ["STR", "CON"]
gauge_per_level = { PA = 3 }
policy = { dc = 16, weight = 0.1 }

[[character]]
name = "Gobelin"
actor = "npc"
scores = { STR = 8, DEX = 14, CON = 10, INT = 10, WIS = 8, CHA = 8 }
skills = ["Discrétion"]
"""


def test_load_characters(tmp_path):
    path = tmp_path / "party.toml"
    path.write_text(GOOD, encoding="utf-8")
    gudulf, goblin = load_characters(path)
    assert gudulf.skill_modifier("Intimidation") == 0 + 2 * 2
    assert gudulf.save_modifier("CON") == 4 and gudulf.gauges()["PA"] == 14 + 9
    assert gudulf.policy == Best(16, 0.1)
    assert goblin.actor == "npc" and goblin.skill_modifier("Stealth") == 4


@pytest.mark.parametrize(
    "change,key,problem",
    [
        (("SAG = 10", "LUCK = 10"), "character[0].scores.LUCK", "ability"),
        (("CHA = 10", "CHA = 31"), "character[0].scores.CHA", "1..30"),
        (("level = 3", "level = 0"), "character[0].level", "1..20"),
        (("Intimidation = 2", "Jonglage = 1"), "character[0].skills.Jonglage", "skill"),
        (("Intimidation = 2", "Intimidation = 3"), "character[0].skills.Intimidation", "0..2"),
        (('"Discrétion"', '"Nager"'), "character[1].skills.Nager", "skill"),
        (('actor = "npc"', 'actor = "god"'), "character[1].actor", "pc"),
        (("weight = 0.1", "weight = -1"), "character[0].policy.weight", ">= 0"),
        (("level = 3", "levle = 3"), "character[0].levle", "known key"),
    ],
)
def test_toml_errors_name_file_key_and_problem(tmp_path, change, key, problem):
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(CharacterFileError) as err:
        load_characters(path)
    msg = str(err.value)
    assert str(path) in msg and f"`{key}`" in msg and problem in msg


def test_toml_file_level_errors(tmp_path):
    with pytest.raises(CharacterFileError, match="not valid TOML"):
        characters_from_toml("[[character]\n", source="x.toml")
    with pytest.raises(CharacterFileError, match="no \\[\\[character\\]\\]"):
        characters_from_toml("", source="x.toml")
    with pytest.raises(CharacterFileError, match="twice"):
        characters_from_toml(GOOD.replace('"Gobelin"', '"Gudulf"'))
    with pytest.raises(CharacterFileError, match="missing"):
        characters_from_toml('[[character]]\nname = "A"\n')
    with pytest.raises(CharacterFileError, match="cannot be read"):
        load_characters(tmp_path / "absent.toml")
