"""Levels 1-20 (docs/rules.md, "Levels"): builds, progression, level-based DCs, gauge sizing and the
save-DC fit, each against values derived by hand from the rules (the increases, the PB table,
a hand-made 3d6x PMF, 5e's d20 formula, a plain convolution of drains)."""

from __future__ import annotations

import dataclasses
import math
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import explodice as ex
from explodice import (
    Build,
    BuildFileError,
    DayRoll,
    ExplodiceError,
    ExplodiceTypeError,
    Scenario,
)
from explodice.day.exact import exact_day
from explodice.day.scenario import default_scenario
from explodice.game.build import (
    BuildError,
    BuildTest,
    BuildTypeError,
    builds_from_toml,
    parse_test,
)
from explodice.game.character import GAUGES
from explodice.game.tables import DIFFICULTIES, TARGET_RANGES
from explodice.present.config import load_config
from tests.hand import HAND, die, sf

# The 5e proficiency table, written out: levels 1-4 +2, 5-8 +3, 9-12 +4, 13-16 +5, 17-20 +6.
PB = [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4
LEVELS = range(1, 21)
SCORES = {"STR": 15, "DEX": 12, "CON": 14, "INT": 8, "WIS": 10, "CHA": 13}


def hand_mod(score: int) -> int:
    return math.floor((score - 10) / 2)


def d20_p(modifier: int, dc: int) -> float:
    """5e's ability check or save: P(d20 + modifier >= dc), no natural rule."""
    return min(max((21 - (dc - modifier)) / 20, 0.0), 1.0)


def hand_drain(pool: int = 3) -> np.ndarray:
    """The drain of one roll under `keep`: each 1 of the initial throw (Binomial(pool, 1/6))
    drains one exploding d6."""
    out = np.zeros(1)
    conv = np.array([1.0])
    for k in range(pool + 1):
        w = math.comb(pool, k) * (1 / 6) ** k * (5 / 6) ** (pool - k)
        if out.size < conv.size:
            out = np.pad(out, (0, conv.size - out.size))
        out[: conv.size] += w * conv
        conv = np.convolve(conv, die())
    return out


def hand_sf3(need: int) -> float:
    """P(3d6x >= need) from the hand PMF (a PC who keeps every 1: the plain 3d6x total)."""
    return sf(HAND["normal"], need)


def keep_build(name: str = "Bo", **kw) -> Build:
    kw.setdefault("skills", {"Athletics": 1})
    kw.setdefault("saves", {"STR": 1, "CON": 1})
    kw.setdefault("gauge_per_level", {"PA": 3})
    return Build(name, dict(SCORES), **kw)


# -- builds -----------------------------------------------------------------------------------
def test_default_increases_and_the_cap_by_hand():
    b = keep_build(skills={"Athletics": {1: 1, 10: 2}})
    # STR 15, +2 at 4, 8, 12, 16, 19, never above 20: the excess is lost
    strength = [15] * 3 + [17] * 4 + [19] * 4 + [20] * 9
    capped = {12: 1, 16: 2, 19: 2}
    mult = [1] * 9 + [2] * 11
    frame = b.to_frame()
    for level in LEVELS:
        c = b.at(level)
        i = level - 1
        assert isinstance(c, ex.Character) and c.level == level
        assert c.scores["STR"] == strength[i]
        assert c.proficiency_bonus == PB[i]
        assert c.skill_modifier("Athletics") == hand_mod(strength[i]) + mult[i] * PB[i]
        assert c.save_modifier("CON") == hand_mod(14) + PB[i]
        assert c.save_modifier("DEX") == hand_mod(12)
        assert c.gauges()["PA"] == 14 + 3 * level  # CON never increased here
        row = frame.iloc[i]
        assert row.level == level and row.pb == PB[i] and row.STR == strength[i]
        assert row.STR_mod == hand_mod(strength[i]) and row.capped == capped.get(level, 0)
    assert b.main == "STR" and b.increases is None


def test_stated_increases_and_a_score_above_20():
    b = Build(
        "Ogre",
        {"FOR": 22, "DEX": 8, "CON": 18, "INT": 6, "SAG": 10, "CHA": 7},
        increases={4: "STR", "6": {"CON": 1, "DEX": 1}, 8: {"CON": 3}},
        gauge_per_level={"PA": 1},
    )
    assert b.main == "STR"
    assert [b.scores_at(lv)["STR"] for lv in (1, 4, 20)] == [22, 22, 22]  # 22 stays, +2 lost
    assert [b.scores_at(lv)["CON"] for lv in (5, 6, 8)] == [18, 19, 20]  # 19 + 3: 20, 2 lost
    assert b.scores_at(6)["DEX"] == 9
    assert b.to_frame().set_index("level").capped.loc[[4, 6, 8]].tolist() == [2, 0, 2]
    assert b.at(8).gauges()["PA"] == 20 + 8


def test_a_build_is_the_character_it_says_at_each_level():
    b = Build(
        "Aelis",
        {"STR": 8, "DEX": 16, "CON": 12, "INT": 10, "WIS": 14, "CHA": 12},
        main="DEX",
        increases={},
        skills={"Discrétion": 2, "Perception": {1: 1, 6: 2}},
        saves=["DEX"],
        tools={"thieves' tools": {3: 1}},
        gauge_per_level={"pa": 2},
        policy="cancel",
        reroll="lucky",
        features=["half_proficiency"],
    )
    for level in (1, 3, 6):
        by_hand = ex.Character(
            "Aelis",
            {"STR": 8, "DEX": 16, "CON": 12, "INT": 10, "WIS": 14, "CHA": 12},
            level=level,
            skills={"Stealth": 2, "Perception": 2 if level >= 6 else 1},
            saves={"DEX": 1},
            tools={"thieves' tools": 1} if level >= 3 else {},
            gauge_per_level={"PA": 2},
            policy="cancel",
            reroll=ex.Reroll("one"),
            features=frozenset({"half_proficiency"}),
        )
        assert b.at(level) == by_hand
    assert [t.label for t in b.tests()] == ["Stealth", "Perception", "DEX save", "DEX check"]
    assert b.main_test().label == "Stealth"


def test_build_round_trips_through_its_table_and_pickle():
    for b in ex.reference_builds():
        again = ex.builds_from_tables([b.to_table()])[0]
        assert again == b and hash(again) == hash(b)
        assert pickle.loads(pickle.dumps(b)) == b
    assert "fighter" in repr(ex.reference_builds()[0])
    page = Build("<b>x</b>", dict(SCORES))._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page


def test_reference_builds_follow_the_rules_and_ship_in_the_default_config():
    builds = ex.reference_builds()
    assert [(b.name, b.main) for b in builds] == [
        ("fighter", "STR"),
        ("rogue", "DEX"),
        ("mage", "INT"),
        ("priest", "WIS"),
        ("envoy", "CHA"),
    ]
    favoured = {"fighter": "PA", "rogue": "PA", "mage": "PM", "priest": "PF", "envoy": "PH"}
    for b in builds:
        assert sum(1 for steps in b.saves.values() if any(steps.values())) == 2
        assert max(b.gauge_per_level, key=b.gauge_per_level.get) == favoured[b.name]
        assert all(8 <= s <= 16 for s in b.scores.values()) and b.scores[b.main] == 16
        assert b.scores_at(8)[b.main] == 20
    assert builds[1].at(1).skills["Stealth"] == 2  # the rogue's expert Stealth
    assert list(load_config().builds) == builds


@pytest.mark.parametrize(
    "text,kind,ability,skill",
    [
        ("Discrétion", "check", "DEX", "Stealth"),
        ("sleight of hand", "check", "DEX", "Sleight of Hand"),
        ("DEX save", "save", "DEX", None),
        ("JS SAG", "save", "WIS", None),
        ("jet de sauvegarde CON", "save", "CON", None),
        ("save: FOR", "save", "STR", None),
        ("STR", "ability", "STR", None),
        ("test de Force", "ability", "STR", None),
        ("CHA check", "ability", "CHA", None),
    ],
)
def test_parse_test(text, kind, ability, skill):
    assert parse_test(text) == BuildTest(kind, ability, skill)


@pytest.mark.parametrize("text", ["Flying", "STR DEX", "save", "DEX attack", ""])
def test_parse_test_refuses_what_it_cannot_read(text):
    with pytest.raises(ExplodiceError, match="`test` must be a skill"):
        parse_test(text)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"scores": {**SCORES, "CHA": 15}}, r"`main` must be .*tie \(STR, CHA\)"),
        ({"increases": {1: "STR"}}, r"`increases.1` must be an integer in 2..20"),
        ({"increases": {21: "STR"}}, r"`increases.21` must be an integer in 2..20"),
        ({"increases": {4: {"STR": 0}}}, r"`increases.4.STR` must be an integer in 1..10"),
        ({"increases": {4: "LUCK"}}, r"`increases.4.LUCK` must be an ability"),
        ({"skills": {"Athletics": 3}}, r"`skills.Athletics` must be an integer in 0..2"),
        ({"skills": {"Athletics": {"x": 1}}}, r"`skills.Athletics.x` must be an integer"),
        ({"skills": {"Athletics": {}}}, r"`skills.Athletics` must be a multiplier"),
        ({"skills": {"Athletics": 1, "athlétisme": 1}}, r"given once"),
        ({"tools": {"lute": 2}}, r"`tools.lute` must be an integer in 0..1"),
        ({"gauge_per_level": {"HP": 2}}, r"`gauge_per_level.HP` must be a gauge"),
        ({"gauge_per_level": {"PA": 101}}, r"in 0..100"),
        ({"policy": "sometimes"}, r"`policy` must be"),
        ({"main": "LUCK"}, r"`main` must be an ability"),
    ],
)
def test_build_refuses_bad_values_naming_them(kwargs, match):
    scores = kwargs.pop("scores", dict(SCORES))
    with pytest.raises(ExplodiceError, match=match):
        Build("Bo", scores, **kwargs)


def test_a_builds_errors_are_build_errors_a_wrong_type_its_type_error():
    # the checks a build shares with characters (an ability, the actor, the load) were
    # CharacterErrors that `except BuildError` missed
    with pytest.raises(BuildError) as info:
        Build("Bo", SCORES, main="LUCK")
    assert not isinstance(info.value, TypeError) and info.value.field == "main"
    for kwargs in ({"main": 5}, {"actor": None}, {"skills": 5}, {"tools": [1]}, {"increases": 4}):
        with pytest.raises(BuildTypeError) as info:
            Build("Bo", SCORES, **kwargs)
        assert info.value.field.split(".")[0] == next(iter(kwargs)), info.value
    # a list of names: each proficient once; a name twice is refused, as a character's is
    with pytest.raises(BuildError, match="given once"):
        Build("Bo", SCORES, skills=["Stealth", "Stealth"])
    with pytest.raises(BuildTypeError, match="`levels`"):
        keep_build().to_frame(5.0)  # was a bare TypeError
    with pytest.raises(BuildTypeError, match="`level` must be an integer in 1..20"):
        keep_build().at("3")  # was read as level 3: a string where an integer goes
    assert keep_build().to_frame(np.array([4, 1])).level.tolist() == [4, 1]


def test_a_build_tests_kind_and_progression_rows_tests_are_checked():
    # BuildTest's kind is a Literal checked like every other string option
    with pytest.raises(
        BuildError, match=r"`test.kind` must be one of \['check', 'ability', 'save'\]"
    ):
        BuildTest("attack", "STR")
    with pytest.raises(BuildTypeError, match="`test.kind`"):
        BuildTest(None, "STR")  # the wrong type on purpose
    # progression_rows read a string other than "main" letter by letter: 'str' has no 'roll'
    from explodice.analysis.levels import progression_rows

    case = dict(targets={"moderate": (0.5, 0.9)}, dcs={"3d6x": {"moderate": {1: 16}}})
    with pytest.raises(ExplodiceError, match=r"`tests` must be a list of BuildTests, 'main'"):
        progression_rows(keep_build(), 1, tests="Athletics", systems=["3d6x"], **case)
    with pytest.raises(ExplodiceTypeError, match=r"`tests\[0\]` must be a BuildTest"):
        progression_rows(keep_build(), 1, tests=["Athletics"], systems=["3d6x"], **case)
    rows = progression_rows(
        keep_build(), 1, tests=[parse_test("Athletics")], systems=["3d6x"], **case
    )
    main = progression_rows(keep_build(), 1, tests="main", systems=["3d6x"], **case)
    assert [r["test"] for r in rows] == ["Athletics"]
    assert [r["test"] for r in main] == [keep_build().main_test().label]
    assert rows[0]["modifier"] == 4  # STR 15 (+2) and trained at level 1 (PB +2)


def test_build_file_errors_name_the_file_the_table_and_the_key(tmp_path: Path):
    path = tmp_path / "builds.toml"
    path.write_text(
        '[[build]]\nname = "Bo"\nlevel = 3\nscores = { STR = 10, DEX = 10, CON = 10, INT = 10, '
        "SAG = 10, CHA = 12 }\n",
        encoding="utf-8",
    )
    with pytest.raises(BuildFileError, match=r"builds.toml: `build\[0\].level` \('Bo'\).*spans"):
        ex.load_builds(path)
    head = '[[build]]\nname = "{}"\nscores = {{ STR = 10, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 12 }}\n'
    with pytest.raises(BuildFileError, match=r"`build\[0\].skills.Flying` \('Bo'\)"):
        builds_from_toml(head.format("Bo") + "skills = { Flying = 1 }\n")
    with pytest.raises(BuildFileError, match=r"`build.name`: 'Bo' is used twice"):
        builds_from_toml(head.format("Bo") + head.format("Bo"))
    with pytest.raises(BuildFileError, match=r"`character`: unknown top-level key"):
        builds_from_toml('[[character]]\nname = "x"\n')
    with pytest.raises(BuildFileError, match=r"`build\[0\].increases.1`"):
        builds_from_toml(head.format("Bo") + 'increases = { 1 = "CHA" }\n')
    path.write_text(
        head.format("Bo") + 'skills = ["Persuasion"]\nincreases = { 4 = { CHA = 1, CON = 1 } }\n'
        "policy = { dc = 16, weight = 0.1 }\n",
        encoding="utf-8",
    )
    (b,) = ex.load_builds(path)
    assert b.main == "CHA" and b.scores_at(4)["CON"] == 11 and b.at(1).skills == {"Persuasion": 1}
    assert b.policy == ex.Best(16, 0.1)


# -- progression ------------------------------------------------------------------------------
def test_target_ranges_are_what_5e_gives_its_trained_build():
    # score 16 at level 1, 18 at 4, 20 at 8, proficient once: +5 at level 1 ... +11 at 17
    mods = [hand_mod(16 + 2 * (lv >= 4) + 2 * (lv >= 8)) + PB[lv - 1] for lv in LEVELS]
    for band, dc in zip(DIFFICULTIES, (5, 10, 15, 20, 25, 30)):
        ps = [d20_p(m, dc) for m in mods]
        low, high = max(min(ps) - 0.05, 0.0), min(max(ps) + 0.05, 1.0)
        assert TARGET_RANGES[band] == pytest.approx((low, high), abs=1e-12), band


def test_progression_against_a_hand_pmf_and_the_d20_formula():
    b = keep_build()
    t = ex.progression(b)
    assert set(t.test) == {"Athletics", "STR save", "CON save", "STR check"}
    assert len(t) == 20 * 4 * 2 * 6
    expected_drain = float(hand_drain() @ np.arange(hand_drain().size))
    assert expected_drain == pytest.approx(2.1, abs=1e-9)  # docs/rules.md's self-check
    for row in t.itertuples():
        c = b.at(row.level)
        mod = {
            "Athletics": c.skill_modifier("Athletics"),
            "STR save": c.save_modifier("STR"),
            "CON save": c.save_modifier("CON"),
            "STR check": c.modifier("STR"),
        }[row.test]
        assert row.modifier == mod and row.pb == PB[row.level - 1]
        if row.system == "3d6x":
            assert row.dc == dict(zip(DIFFICULTIES, (8, 12, 16, 22, 28, 35)))[row.difficulty]
            assert row.p == pytest.approx(hand_sf3(row.dc - mod), abs=1e-11)
            drains = row.kind != "ability"  # an ability check is outside the rule of 1
            assert row.drain == pytest.approx(expected_drain if drains else 0.0, abs=1e-9)
        else:
            assert row.dc == dict(zip(DIFFICULTIES, (5, 10, 15, 20, 25, 30)))[row.difficulty]
            assert row.p == pytest.approx(d20_p(mod, row.dc), abs=1e-12) and row.drain == 0
        low, high = TARGET_RANGES[row.difficulty]
        assert (row.target_low, row.target_high) == (low, high)
        assert row.in_target == (low - 1e-12 <= row.p <= high + 1e-12)
    assert t.attrs["method"] == "exact" and t.attrs["seed"] is None and "rules" in t.attrs


def test_progression_on_each_builds_main_test():
    t = ex.progression(ex.reference_builds(), levels=[1], tests="main", systems=["3d6x"])
    assert t.groupby("build", sort=False).test.first().to_dict() == {
        "fighter": "Athletics",
        "rogue": "Stealth",
        "mage": "Arcana",
        "priest": "Insight",
        "envoy": "Persuasion",
    }


def test_progression_plays_best_and_reroll_on_failure_against_each_dc():
    mage = ex.reference_builds()[2]  # best(0.05)
    t = ex.progression(mage, levels=[1, 11], tests=["Arcana"], systems=["3d6x"])
    for row in t.itertuples():
        roll = ex.Roll(row.modifier, policy=ex.Best(row.dc, 0.05))
        d = ex.exact(roll)
        assert row.p == pytest.approx(d.p_success(row.dc), abs=1e-13)
        assert row.drain == pytest.approx(d.drain_mean, abs=1e-13)
    stubborn = keep_build(reroll=ex.Reroll("failure"))
    t = ex.progression(stubborn, levels=[1, 9], tests=["STR check"])
    for row in t.itertuples():
        once = (
            hand_sf3(row.dc - row.modifier) if row.system == "3d6x" else d20_p(row.modifier, row.dc)
        )
        assert row.p == pytest.approx(1 - (1 - once) ** 2, abs=1e-11)  # docs/rules.md's self-check


def test_progression_on_a_level_based_dc_table_from_level_dcs():
    b = keep_build()
    dcs = ex.level_dcs(build=b).query("table == 'level'")
    t = ex.progression(b, tests=["Athletics"], dcs=dcs, systems=["3d6x"])
    merged = t.merge(dcs, on=["level", "difficulty"], suffixes=("", "_dcs"))
    assert len(merged) == 120 and (merged.dc == merged.dc_dcs).all()
    assert np.allclose(merged.p, merged.p_dcs, atol=1e-13)
    assert merged.in_target.all()  # the table aims at the middle of each range
    flat = ex.progression(
        b, levels=[3], tests=["Athletics"], dcs={"easy": 13}, targets={"easy": (0.7, 0.8)}
    )
    assert flat.query("system == '3d6x'").dc.tolist() == [13]
    assert flat.query("system == 'd20'").dc.tolist() == [10]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"tests": ["Flying"]}, r"`tests` must be a skill"),
        ({"targets": {"easy": (0.9, 0.8)}}, r"`targets.easy` must be a probability or a pair"),
        ({"targets": {"trivial": 0.9}}, r"`targets.trivial` must be one of"),
        ({"levels": [0]}, r"`levels` must be an integer in 1..20"),
        ({"levels": [2, 2]}, r"`levels` must be levels in 1..20, each given once"),
        ({"systems": ["3d6x", "3d6x"]}, r"must not repeat a system"),
        ({"systems": ["d12"]}, r"`systems` must be one of"),
        ({"dcs": {"easy": 12}}, r"`dcs` must give a DC for every band asked"),
        ({"dcs": pd.DataFrame({"level": [1], "dc": [3]})}, r"lacks \['difficulty'\]"),
        ({"advantage": "luck"}, r"`advantage` must be one of"),
    ],
)
def test_progression_refuses_bad_input(kwargs, match):
    with pytest.raises(ExplodiceError, match=match):
        ex.progression(keep_build(), **kwargs)
    with pytest.raises(ExplodiceError, match="`builds` must be a Build"):
        ex.progression("fighter")


def test_a_dc_table_is_read_whole_or_refused_never_rounded():
    b = keep_build()
    kw = {"levels": [1], "tests": ["Athletics"], "systems": ["3d6x"]}
    kw["targets"] = {"moderate": (0.5, 0.9)}
    frame = pd.DataFrame({"difficulty": ["moderate"], "level": [1], "dc": [16.5]})
    with pytest.raises(ExplodiceTypeError, match=r"`dcs.dc\[0\]` must be an integer"):
        ex.progression(b, dcs=frame, **kw)  # was read as DC 16
    whole = frame.assign(dc=16.0)  # a float column's whole number is the integer
    assert ex.progression(b, dcs=whole, **kw).dc.tolist() == [16]
    with pytest.raises(ExplodiceError, match="`dcs` must be one of"):
        ex.progression(b, dcs={"moderate": 16, "modrate": 18}, **kw)  # a typo was ignored
    with pytest.raises(ExplodiceError, match="`dcs.moderate` must be an integer in"):
        ex.progression(b, dcs={"moderate": 10**400}, **kw)  # was an OverflowError in a case


# -- level-based DCs --------------------------------------------------------------------------
def _closest(ps: dict[int, float], aim: float) -> int:
    """The DC whose P is closest to ``aim``; ties to the higher DC (by hand)."""
    best = min(abs(p - aim) for p in ps.values())
    return max(dc for dc, p in ps.items() if abs(p - aim) <= best + 1e-12)


def test_level_dcs_by_brute_force_on_a_hand_pmf():
    b = keep_build()
    t = ex.level_dcs(build=b, test="Athletics")
    mods = {lv: b.at(lv).skill_modifier("Athletics") for lv in LEVELS}
    dcs = range(-10, 200)
    for band, (low, high) in TARGET_RANGES.items():
        aim = (low + high) / 2
        ps = {lv: {dc: hand_sf3(dc - m) for dc in dcs} for lv, m in mods.items()}
        worst = {dc: max(abs(ps[lv][dc] - aim) for lv in LEVELS) for dc in dcs}
        best_worst = min(worst.values())
        flat = max(dc for dc in dcs if worst[dc] <= best_worst + 1e-12)
        rows = t[t.difficulty == band].set_index(["table", "level"])
        for lv in LEVELS:
            assert rows.loc[("level", lv), "dc"] == _closest(ps[lv], aim), (band, lv)
            assert rows.loc[("flat", lv), "dc"] == flat
            assert rows.loc[("level", lv), "p"] == pytest.approx(
                ps[lv][_closest(ps[lv], aim)], abs=1e-11
            )
        assert rows.loc[("flat", 1), "worst_miss"] == pytest.approx(best_worst, abs=1e-11)
        typical = dict(zip(DIFFICULTIES, (8, 12, 16, 22, 28, 35)))[band]
        assert rows.loc[("typical", 20), "dc"] == typical
        assert rows.loc[("typical", 20), "miss"] == pytest.approx(
            hand_sf3(typical - mods[20]) - aim, abs=1e-11
        )


def test_level_dcs_ties_go_to_the_higher_dc():
    # Athletics in d20 at level 1 is +4 (STR 15, PB 2): DC 14 gives 0.55, DC 15 gives 0.50;
    # the target 0.525 lies half way
    assert d20_p(4, 14) - 0.525 == pytest.approx(0.525 - d20_p(4, 15), abs=1e-15)
    t = ex.level_dcs({"moderate": 0.525}, build=keep_build(), levels=[1], system="d20")
    assert t.query("table == 'level'").dc.tolist() == [15]
    pair = ex.level_dcs({"moderate": (0.5, 0.55)}, build=keep_build(), levels=[1], system="d20")
    assert pair.target.iloc[0] == pytest.approx(0.525)
    with pytest.raises(ExplodiceError, match="`targets.moderate` must be a probability"):
        ex.level_dcs({"moderate": 1.5}, build=keep_build())


def test_level_dcs_defaults_to_the_reference_fighter_on_athletics():
    t = ex.level_dcs(levels=[1])
    assert t.target.unique().tolist() == [(lo + hi) / 2 for lo, hi in TARGET_RANGES.values()]
    assert set(t.build) == {"fighter"} and set(t.test) == {"Athletics"}
    assert set(t.table) == {"level", "flat", "typical"} and set(t.difficulty) == set(DIFFICULTIES)
    several = ex.level_dcs({"easy": 0.75}, build=ex.reference_builds(), levels=[1, 20])
    assert sorted(set(several.build)) == sorted(b.name for b in ex.reference_builds())


# -- the base of a save DC --------------------------------------------------------------------
def test_fit_save_dc_against_the_d20_formula_and_a_hand_pmf():
    casters = [
        Build(
            "wizard",
            {"STR": 8, "DEX": 14, "CON": 13, "INT": 16, "WIS": 12, "CHA": 10},
            saves=["INT", "WIS"],
        ),
        Build(
            "brute",
            {"STR": 17, "DEX": 10, "CON": 15, "INT": 8, "WIS": 10, "CHA": 9},
            saves=["STR", "CON"],
        ),
    ]
    fit = ex.fit_save_dc(casters, levels=[1, 5, 17], saves=["DEX", "WIS", "CON"])
    cases = []
    for lv in (1, 5, 17):
        for caster in casters:
            spell = PB[lv - 1] + hand_mod(caster.scores_at(lv)[caster.main])
            for target in casters:
                for save in ("DEX", "WIS", "CON"):
                    prof = 1 if save in ("INT", "WIS") and target.name == "wizard" else 0
                    prof = prof or (1 if save in ("STR", "CON") and target.name == "brute" else 0)
                    s = hand_mod(target.scores_at(lv)[save]) + prof * PB[lv - 1]
                    cases.append((spell - s, d20_p(s, 8 + spell)))
    got = sorted(zip(fit.cases.gap, fit.cases.p_d20))
    assert [g for g, _ in got] == [g for g, _ in sorted(cases)]
    assert [p for _, p in got] == pytest.approx([p for _, p in sorted(cases)], abs=1e-12)
    gaps = sorted({g for g, _ in cases})
    count = {g: sum(1 for x, _ in cases if x == g) for g in gaps}
    p5 = {g: np.mean([p for x, p in cases if x == g]) for g in gaps}
    share = {g: count[g] / len(cases) for g in gaps}

    def rmse(base: int) -> float:
        return math.sqrt(sum(share[g] * (hand_sf3(base + g) - p5[g]) ** 2 for g in gaps))

    scores = {base: rmse(base) for base in range(-20, 61)}
    best = min(scores.values())
    assert fit.base == max(b for b, v in scores.items() if v <= best + 1e-12)
    assert fit.error == pytest.approx(best, abs=1e-12)
    table = fit.gaps.set_index("gap")
    for g in gaps:
        assert table.loc[g, "count"] == count[g]
        assert table.loc[g, "p_d20"] == pytest.approx(p5[g], abs=1e-12)
        assert table.loc[g, "p_3d6x"] == pytest.approx(hand_sf3(fit.base + g), abs=1e-11)
        assert table.loc[g, "error"] == pytest.approx(hand_sf3(fit.base + g) - p5[g], abs=1e-11)
    minimax = ex.fit_save_dc(
        casters, levels=[1, 5, 17], saves=["DEX", "WIS", "CON"], criterion="minimax"
    )
    worst = {base: max(abs(hand_sf3(base + g) - p5[g]) for g in gaps) for base in range(-20, 61)}
    low = min(worst.values())
    assert minimax.base == max(b for b, v in worst.items() if v <= low + 1e-12)
    assert minimax.error == pytest.approx(low, abs=1e-12)
    assert fit.to_frame() is fit.gaps and "SaveDCFit(base=" in repr(fit)


def test_fit_save_dc_refuses_bad_input():
    b = keep_build()
    with pytest.raises(ExplodiceTypeError, match="`bases` must be an integer"):
        ex.fit_save_dc(b, levels=[1], bases=[9.5])  # was fitted as base 9
    with pytest.raises(ExplodiceError, match="`d20_base` must be an integer in"):
        ex.fit_save_dc(b, levels=[1], d20_base=10**400)  # was an OverflowError
    with pytest.raises(ExplodiceTypeError, match="`casters` must be one of"):
        ex.fit_save_dc(b, levels=[1], casters=[1])
    with pytest.raises(ExplodiceError, match="`criterion` must be one of"):
        ex.fit_save_dc(criterion="median")
    with pytest.raises(ExplodiceError, match=r"`casters` must be one of \['fighter', 'rogue'"):
        ex.fit_save_dc(casters=["lich"])


# -- gauge sizing -----------------------------------------------------------------------------
def _needed(law: np.ndarray, n: int, risk: float) -> tuple[int, float]:
    """The smallest maximum m with P(n drains of ``law`` >= m) <= risk, by convolution."""
    total = np.array([1.0])
    for _ in range(n):
        total = np.convolve(total, law)
    tail = np.cumsum(total[::-1])[::-1]  # tail[m] = P(S >= m)
    m = int(np.flatnonzero(tail <= risk)[0])
    return m, float(tail[m])


@pytest.mark.parametrize("n,risk", [(1, 0.3), (6, 0.1), (15, 0.02)])
def test_one_gauge_drained_by_n_checks_against_a_plain_convolution(n, risk):
    b = keep_build(gauge_per_level={"PA": 2})
    day = Scenario([b.at(1)], [DayRoll("Bo", skill="Athletics", dc=16, repeat=n)])
    t = ex.size_gauges(b, day, risk=risk, levels=[1, 2, 10])
    need, at = _needed(hand_drain(), n, risk)
    assert t.gauge.tolist() == ["PA"] * 3
    assert (t.needed == need).all() and np.allclose(t.risk, at, atol=1e-12)
    for row in t.itertuples():
        assert row.have == 14 + 2 * row.level
        total = np.array([1.0])
        for _ in range(n):
            total = np.convolve(total, hand_drain())
        assert row.risk_have == pytest.approx(total[row.have :].sum(), abs=1e-12)
        assert row.meets == (row.have >= need)
    ppl = max(0, *(math.ceil((need - 14) / lv) for lv in (1, 2, 10)))
    assert (t.per_level_needed == ppl).all() and (t.per_level_have == 2).all()
    assert t.drain_mean.iloc[0] == pytest.approx(2.1 * n, abs=1e-9)


def test_a_mix_sizes_each_gauge_on_its_own_share_of_the_rolls():
    b = keep_build(skills={"Athletics": 1, "Persuasion": 1})
    day = Scenario(
        [b.at(1)],
        [DayRoll("Bo", skill="Athletics", weight=3), DayRoll("Bo", skill="Persuasion")],
        rolls_per_day=8,
    )
    t = ex.size_gauges(b, day, risk=0.05, levels=[4]).set_index("gauge")
    assert list(t.index) == ["PA", "PH"]
    for g, share in (("PA", 0.75), ("PH", 0.25)):
        law = share * hand_drain()
        law[0] += 1 - share
        need, at = _needed(law, 8, 0.05)
        assert t.loc[g, "needed"] == need and t.loc[g, "risk"] == pytest.approx(at, abs=1e-12)


def test_the_sized_risk_is_the_exact_days_at_that_maximum():
    """A second method: the exact day played at the maximum found, with overflow lost."""
    b = ex.reference_builds()[1]  # the rogue: cancel, Lucky, PA PM PF drained
    t = ex.size_gauges(b, risk=0.1, levels=[5])
    day = ex.build_day(b)(5)
    for row in t.itertuples():
        maxima = {g: 0 for g in GAUGES}
        maxima[row.gauge] = row.needed
        who = dataclasses.replace(b.at(5), gauge_max=maxima)
        r = exact_day(day.replace(characters=[who]), ex.Rules(overflow="lost"))
        j = GAUGES.index(row.gauge)
        assert 1 - r.first[j, -1] == pytest.approx(row.risk, abs=1e-9)
        maxima[row.gauge] = row.needed - 1
        who = dataclasses.replace(b.at(5), gauge_max=maxima)
        r = exact_day(day.replace(characters=[who]), ex.Rules(overflow="lost"))
        assert 1 - r.first[j, -1] > 0.1


def test_build_day_is_checked_when_made():
    # each was accepted, to fail (or not) when the day was first built
    b = keep_build()
    with pytest.raises(ExplodiceTypeError, match="`rolls_per_day` must be an integer"):
        ex.build_day(b, rolls_per_day="12")
    with pytest.raises(ExplodiceError, match="`rolls_per_day` must be an integer in"):
        ex.build_day(b, rolls_per_day=10**9)
    with pytest.raises(ExplodiceError, match="`skill_weight` must be a number > 0"):
        ex.build_day(b, skill_weight=0)
    with pytest.raises(ExplodiceTypeError, match="`save_weight` must be a finite number"):
        ex.build_day(b, save_weight="1")
    with pytest.raises(ExplodiceError, match=r"`risk` must be a probability in \[1e-9, 1\)"):
        ex.size_gauges(b, risk=10**400)  # was an OverflowError


def test_size_gauges_places_the_build_in_a_party_day():
    party = default_scenario()
    fighter = ex.reference_builds()[0]
    t = ex.size_gauges(fighter, party, character="Gudulf", levels=[1])
    assert set(t.character) == {"Gudulf"} and set(t.gauge) == {"PA"}  # Athletics, CON save
    with pytest.raises(ExplodiceError, match="`character` must name whose rolls"):
        ex.size_gauges(fighter, party, levels=[1])
    with pytest.raises(ExplodiceError, match="`character` must name a character"):
        ex.size_gauges(fighter, party, character="Nobody", levels=[1])
    started = party.replace(start={"Gudulf": {"PA": 3}})
    with pytest.raises(ExplodiceError, match="starting gauges"):
        ex.size_gauges(fighter, started, character="Gudulf", levels=[1])
    with pytest.raises(ExplodiceError, match="`day` must be a Scenario or a callable"):
        ex.size_gauges(fighter, lambda level: "a day", levels=[1])
    with pytest.raises(ExplodiceError, match=r"`risk` must be a probability in \[1e-9, 1\)"):
        ex.size_gauges(fighter, risk=1.0)


def test_a_day_that_grows_with_level():
    b = keep_build()

    def day(level: int) -> Scenario:
        return Scenario([b.at(level)], [DayRoll("Bo", skill="Athletics", repeat=level)])

    t = ex.size_gauges(b, day, risk=0.1, levels=[1, 4, 9])
    assert t.needed.tolist() == [_needed(hand_drain(), n, 0.1)[0] for n in (1, 4, 9)]
    assert t.attrs["method"] == "exact" and "alone" in t.attrs["sizing"]


def test_executors_give_the_same_tables():
    b = ex.reference_builds()[:2]
    g1 = ex.size_gauges(b[0], levels=[3], executor="serial")
    g2 = ex.size_gauges(b[0], levels=[3], executor=ThreadPoolExecutor(2))
    pd.testing.assert_frame_equal(g1, g2)


def test_a_local_process_pool_gives_the_same_tables():
    party = default_scenario()
    fighter = ex.reference_builds()[0]
    serial = ex.size_gauges(fighter, party, character="Gudulf", levels=[1, 2])
    pooled = ex.size_gauges(
        fighter, party, character="Gudulf", levels=[1, 2], executor="local", workers=2
    )
    pd.testing.assert_frame_equal(serial, pooled)
