"""The rule of 1's scope (kind "ability") and which gauge a drain hits (Rules.drain_gauge)."""

import numpy as np
import pytest

import explodice as ex
from explodice.game.character import drain_gauge

SCORES = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)


def test_ability_kind_is_outside_the_rule_of_one_by_default():
    # docs/rules.md: "tests de compétences et jets de sauvegarde": a check without a skill is not one
    d = ex.exact(ex.Roll(2, kind="ability"))
    assert d.drain_mean == 0.0 and d.ones_mean == 0.0
    assert d.mean == pytest.approx(14.6, abs=1e-9)  # 12.6 + 2: the dice are the same
    # added by the switch, a kept 1 drains as a check's: 3 dice, E[1s] = 0.5, E[drain] = 2.1
    rules = ex.Rules(rule_of_one_kinds={"check", "save", "ability"})
    d = ex.exact(ex.Roll(2, kind="ability"), rules)
    assert d.ones_mean == pytest.approx(0.5, abs=1e-12)
    assert d.drain_mean == pytest.approx(2.1, abs=1e-9)


def test_character_roll_picks_check_or_ability_by_the_skill():
    c = ex.Character("Bo", SCORES, skills={"Intimidation": 1})
    assert c.roll("Athletics").kind == "check"
    assert c.roll(ability="STR").kind == "ability"
    assert c.roll(ability="STR", kind="check").kind == "ability"  # no skill named
    assert c.roll("Intimidation", ability="STR").kind == "check"
    assert c.roll(ability="DEX", kind="save").kind == "save"
    with pytest.raises(ex.ExplodiceError, match="kind"):
        c.roll("Athletics", kind="ability")


def test_drain_gauge_switch():
    # seed 000: the gauge of the ability linked to the skill (Dressage is WIS: PF)
    assert drain_gauge("STR", "Intimidation") == "PH"
    assert drain_gauge("WIS", "Animal Handling") == "PF"
    assert drain_gauge("STR", "Intimidation", ex.Rules(drain_gauge="roll")) == "PA"
    assert drain_gauge("CON") == "PA" and drain_gauge("INT", rules=ex.Rules()) == "PM"
    with pytest.raises(ex.RulesError, match="drain_gauge"):
        ex.Rules(drain_gauge="ability")


def _str_intimidation_day(rules, gauges):
    hero = ex.Character("H", SCORES, gauge_max=gauges)
    s = ex.Scenario([hero], [ex.DayRoll("H", skill="Intimidation", ability="STR", dc=14, repeat=4)])
    res = ex.simulate_day(s, rules, n_days=4000, seed=3, threads=1)
    return res.to_frame("gauges").set_index("gauge"), res.to_frame("roll_types")


@pytest.mark.parametrize("reading, drained", [("skill", "PH"), ("roll", "PA")])
def test_day_drains_the_gauge_drain_gauge_names(reading, drained):
    gauges, _ = _str_intimidation_day(
        ex.Rules(drain_gauge=reading), {"PA": 100, "PM": 0, "PF": 0, "PH": 100}
    )
    other = "PA" if drained == "PH" else "PH"
    # keep, 3 dice: E[drain] = 2.1 a roll, 4 rolls a day; the other gauge is never touched
    q = ex.exact(ex.Roll(2)).drain_pmf
    x = np.arange(q.size)
    sd = np.sqrt(4 * (q @ (x - 2.1) ** 2))  # four independent rolls (no gauge empties)
    assert abs(gauges.loc[drained, "caused_mean"] - 8.4) < 4.5 * sd / np.sqrt(4000)
    assert gauges.loc[other, "caused_mean"] == 0.0


def test_day_disadvantage_follows_the_rolled_ability_gauge():
    # PA at 0 (STR is rolled) gives disadvantage even though the drain goes to PH
    _, types = _str_intimidation_day(ex.Rules(), {"PA": 0, "PM": 0, "PF": 0, "PH": 100})
    empty = types.set_index("state").loc["gauge empty"]
    assert empty.rolls == 4 * 4000 and empty.advantage == "disadvantage"
    p = ex.exact(ex.Roll(2, advantage="disadvantage")).p_success(14)  # STR 14: +2, no PB
    assert abs(empty.p - p) < 4.5 * np.sqrt(p * (1 - p) / empty.rolls)


def test_day_roll_without_a_skill_is_an_ability_check():
    r = ex.DayRoll("H", ability="STR", dc=12)
    assert r.kind == "ability" and r.drain_gauge() == "PA"


def test_exact_day_plays_a_roll_that_drains_another_gauge():
    hero = ex.Character("H", SCORES, gauge_max={"PA": 3, "PM": 0, "PF": 0, "PH": 3})
    s = ex.Scenario([hero], [ex.DayRoll("H", skill="Intimidation", ability="STR", dc=14, repeat=3)])
    for rules, drained in ((ex.Rules(), "PH"), (ex.Rules(drain_gauge="roll"), "PA")):
        day = ex.exact_day(s, rules)
        sim = ex.simulate_day(s, rules, n_days=20_000, seed=2, threads=1)
        p, q = day.succ_t, sim.succ_t / 20_000
        assert np.all(np.abs(p - q) <= 4.5 * np.sqrt(p * (1 - p) / 20_000))
        caused = day.to_frame("gauges").set_index("gauge").caused_mean
        assert caused[drained] > 0 and caused.drop(drained).sum() == 0
        # under "skill" PH empties while PA (whose 0 gives disadvantage) only takes PH's
        # overflow: PA empties later than PH, never before it
        first = day.to_frame("gauges").set_index("gauge").p_empty
        assert (first["PH"] >= first["PA"]) == (drained == "PH")
