"""Combat (docs/rules.md, "Combat"): attacks against the VD in 3d6x and the AC in d20, critical hits,
the VD of characters and builds, monsters by power factor.

Every expected number here is derived apart from the engine: the 3d6x PMFs by hand
(tests/hand.py: the exploding die's formula, convolved), the initial throws counted face by face,
the d20 enumerated, the VDs added up from the scores, the armour table and the switches.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import explodice as ex
from explodice import Build, Character, Monster, Roll, Rules
from explodice.engine.attack import attack_odds
from tests import hand

ADVANTAGE_READINGS = [
    ("normal", "subtract", "normal"),
    ("advantage", "subtract", "advantage"),
    ("disadvantage", "subtract", "disadvantage (subtract)"),
    ("disadvantage", "drop", "disadvantage (drop)"),
]


# -- P(hit) in 3d6x against a hand PMF ----------------------------------------------------------
@pytest.mark.parametrize("advantage, reading, key", ADVANTAGE_READINGS)
def test_p_hit_is_the_hand_pmf_of_3d6x_at_the_vd(advantage, reading, key):
    rules = Rules(disadvantage=reading)
    vds = np.arange(5, 40)
    for modifier in (-2, 0, 5, 11):
        got = attack_odds(Roll(modifier, advantage=advantage, kind="attack"), vds, rules)
        want = [hand.sf(hand.HAND[key], int(vd) - modifier) for vd in vds]
        assert got.p_hit == pytest.approx(want, abs=1e-12)
        assert not got.p_crit.any()  # critical="none" by default


# -- P(critical): the initial throws counted ---------------------------------------------------
def _sixes_share(pool: int, need: int) -> Fraction:
    """P(need or more 6s among `pool` d6), by counting the 6**pool initial throws."""
    hits = sum(f.count(6) >= need for f in itertools.product(range(1, 7), repeat=pool))
    return Fraction(hits, 6**pool)


def test_two_sixes_by_counting_initial_throws():
    assert float(_sixes_share(3, 2)) == pytest.approx(1 - (5 / 6) ** 3 - 3 / 6 * (5 / 6) ** 2)
    assert round(float(_sixes_share(3, 2)), 4) == 0.0741
    assert round(float(_sixes_share(4, 2)), 4) == 0.1319
    assert _sixes_share(2, 2) == Fraction(1, 36)
    rules = Rules(critical="two_sixes")
    cases = [
        ("normal", "subtract", 3),
        ("advantage", "subtract", 4),
        ("disadvantage", "drop", 2),
        ("disadvantage", "subtract", 3),  # the malus die never counts
    ]
    for advantage, reading, pool in cases:
        r = Roll(3, advantage=advantage, kind="attack")
        for method in ("exact", "simulate"):
            got = attack_odds(r, [10, 30], rules.__class__(critical="two_sixes", disadvantage=reading),
                              method=method, n=200_000, seed=3)  # fmt: skip
            want = float(_sixes_share(pool, 2))
            if method == "exact":
                assert got.p_crit == pytest.approx([want, want], abs=1e-12)
            else:
                lo, hi = got.crit_ci
                assert lo[0] <= want <= hi[0]
    three = attack_odds(Roll(0, kind="attack"), 12, Rules(critical="three_sixes"))
    assert three.p_crit[0] == pytest.approx(1 / 216, abs=1e-14)
    # two dice cannot show three 6s: no critical, and P(hit) is the plain one
    drop = Rules(critical="three_sixes", disadvantage="drop")
    two = attack_odds(Roll(2, advantage="disadvantage", kind="attack"), [9, 14], drop)
    assert not two.p_crit.any()
    assert two.p_hit == pytest.approx(
        [hand.sf(hand.HAND["disadvantage (drop)"], v - 2) for v in (9, 14)]
    )
    sim = attack_odds(Roll(2, advantage="disadvantage", kind="attack"), 9, drop,
                      method="simulate", n=2000, seed=1)  # fmt: skip
    assert sim.p_crit[0] == 0


def _attack_by_hand(modifier, vd, pool, need, *, cancel, malus):
    """(P(hit), P(crit)) of a 3d6x attack, throw by throw: the 1s and 6s of the initial throw;
    with `cancel` every pair of a 1 and a 6 is set aside (an NPC under the rule of 1); each kept
    6 adds 6 and an exploding die (tests/hand.py); a crit keeps `need` 6s and always hits."""
    die = hand.die()
    hit = crit = 0.0
    for faces in itertools.product(range(1, 7), repeat=pool):
        n1, n6 = faces.count(1), faces.count(6)
        k = min(n1, n6) if cancel else 0
        base = sum(f for f in faces if f not in (1, 6)) + (n1 - k) + 6 * (n6 - k)
        pmf = np.array([1.0])
        for _ in range(n6 - k):
            pmf = np.convolve(pmf, die)
        lo = base
        if malus:
            pmf, lo = np.convolve(pmf, die[::-1]), base - (die.size - 1)
        w = 1 / 6**pool
        if n6 - k >= need:
            crit += w
            hit += w
        else:
            hit += w * float(pmf[max(vd - modifier - lo, 0) :].sum())
    return hit, crit


@pytest.mark.parametrize("advantage, reading, key", ADVANTAGE_READINGS)
def test_two_sixes_under_the_rule_of_one_a_cancelled_six_does_not_count(advantage, reading, key):
    npc = Roll(4, advantage=advantage, kind="attack", actor="npc")
    pool = {"normal": 3, "advantage": 4}.get(advantage, 2 if reading == "drop" else 3)
    malus = advantage == "disadvantage" and reading == "subtract"
    for kinds, cancel in (({"check", "save"}, False), ({"check", "save", "attack"}, True)):
        rules = Rules(critical="two_sixes", rule_of_one_kinds=kinds, disadvantage=reading)
        got = attack_odds(npc, [14, 21, 26], rules)
        for i, vd in enumerate((14, 21, 26)):
            hit, crit = _attack_by_hand(4, vd, pool, 2, cancel=cancel, malus=malus)
            assert got.p_hit[i] == pytest.approx(hit, abs=1e-12)
            assert got.p_crit[i] == pytest.approx(crit, abs=1e-12)
    if pool == 2:  # two 6s leave no room for a 1
        return
    # the planted fault: counting cancelled 6s would give the plain count, which differs
    cancelled = attack_odds(npc, 14, Rules(critical="two_sixes",
                            rule_of_one_kinds={"check", "save", "attack"}, disadvantage=reading))  # fmt: skip
    assert cancelled.p_crit[0] < float(_sixes_share(pool, 2)) - 1e-3


def test_margin_critical_is_p_hit_at_vd_plus_margin():
    for advantage, reading, _ in ADVANTAGE_READINGS:
        r = Roll(6, advantage=advantage, kind="attack")
        for margin in (1, 5, 10):
            rules = Rules(critical=margin, disadvantage=reading)
            got = attack_odds(r, [12, 18], rules)
            plain = attack_odds(r, [12 + margin, 18 + margin], Rules(disadvantage=reading))
            assert got.p_crit == pytest.approx(plain.p_hit, abs=1e-15)
            key = ADVANTAGE_READINGS[
                [a[:2] for a in ADVANTAGE_READINGS].index((advantage, reading))
            ][2]
            assert got.p_crit[0] == pytest.approx(
                hand.sf(hand.HAND[key], 12 + margin - 6), abs=1e-12
            )


# -- d20: the die enumerated --------------------------------------------------------------------
@pytest.mark.parametrize("advantage", ["normal", "advantage", "disadvantage"])
def test_d20_attacks_by_enumerating_the_die(advantage):
    dice = 1 if advantage == "normal" else 2
    for modifier in (-1, 5, 14):
        acs = list(range(0, 36, 3))
        got = attack_odds(Roll(modifier, advantage=advantage, kind="attack"), acs, system="d20")
        for i, ac in enumerate(acs):
            hits = crits = 0
            for faces in itertools.product(range(1, 21), repeat=dice):
                f = max(faces) if advantage == "advantage" else min(faces)
                hits += f == 20 or (f != 1 and f + modifier >= ac)
                crits += f == 20
            assert got.p_hit[i] == pytest.approx(hits / 20**dice, abs=1e-12)
            assert got.p_crit[i] == pytest.approx(crits / 20**dice, abs=1e-12)
    natural_20 = {"normal": 0.05, "advantage": 0.0975, "disadvantage": 0.0025}[advantage]
    assert got.p_crit[0] == pytest.approx(natural_20)


def test_simulated_attacks_agree_with_the_exact_engine_within_the_interval():
    for crit in ("none", "two_sixes", "three_sixes", 4):
        for advantage in ("normal", "advantage", "disadvantage"):
            r = Roll(3, advantage=advantage, kind="attack", reroll=ex.Reroll("one"))
            rules = Rules(critical=crit, lucky_timing="after_choice")
            e = attack_odds(r, [10, 16, 22], rules)
            s = attack_odds(r, [10, 16, 22], rules, method="simulate", n=100_000, seed=11)
            for p, (lo, hi) in ((e.p_hit, s.hit_ci), (e.p_crit, s.crit_ci)):
                # 99.9 % of intervals would be wider; 95 % Wilson widened by 1.7x keeps the
                # test from failing one time in twenty on a correct engine
                mid, half = (lo + hi) / 2, (hi - lo) / 2 * 1.7
                assert np.all(np.abs(p - mid) <= half + 1e-9), (crit, advantage, p, lo, hi)
    a = attack_odds(Roll(2, kind="attack"), 15, Rules(critical="two_sixes"),
                    method="simulate", n=50_000, seed=5, threads=1)  # fmt: skip
    b = attack_odds(Roll(2, kind="attack"), 15, Rules(critical="two_sixes"),
                    method="simulate", n=50_000, seed=5, threads=2)  # fmt: skip
    assert a.p_hit[0] == b.p_hit[0] and a.p_crit[0] == b.p_crit[0]


def test_a_failure_reroll_is_refused_for_a_critical_on_sixes():
    r = Roll(0, kind="attack", reroll=ex.Reroll("failure", dc=14))
    with pytest.raises(ex.ExplodiceError, match="reroll on failure"):
        attack_odds(r, 14, Rules(critical="two_sixes"))
    assert attack_odds(r, 14, Rules(critical=3)).p_crit[0] > 0  # a margin reads any roll


# -- the VD: builds at levels 1, 5, 10, 20, by hand -------------------------------------------
def _mod(score):
    return (score - 10) // 2


def test_reference_builds_vd_by_hand():
    builds = {b.name: b for b in ex.reference_builds()}
    # scores at each level from builds.toml's increases: (DEX, WIS) at levels 1, 5, 10, 20
    dex_wis = {
        "fighter": [(13, 12)] * 4,
        "rogue": [(16, 13), (18, 13), (20, 13), (20, 15)],  # DEX 4, 8; WIS at 19
        "mage": [(14, 12), (14, 12), (14, 12), (16, 12)],  # DEX at 16
        "priest": [(10, 16), (10, 18), (10, 20), (10, 20)],
        "envoy": [(14, 10), (14, 10), (14, 10), (16, 10)],  # DEX at 12
    }
    # armour bonus and DEX cap (5e): chain mail +6 heavy (0), leather +1 light, none,
    # scale mail +4 medium (+2), studded leather +2 light; shields +2
    gear = {"fighter": (8, 0), "rogue": (1, None), "mage": (0, None), "priest": (6, 2),
            "envoy": (2, None)}  # fmt: skip
    for base in (8, 10, 13):
        for wis_rule in ("modifier", "positive", "none"):
            for cap_rule in ("5e", "none"):
                rules = Rules(
                    defence_base=base, wisdom_in_defence=wis_rule, armour_dex_cap=cap_rule
                )
                for name, b in builds.items():
                    armour, cap = gear[name]
                    for level, (dex, wis) in zip((1, 5, 10, 20), dex_wis[name]):
                        d = _mod(dex)
                        if cap_rule == "5e" and cap is not None:
                            d = min(d, cap)
                        w = {"modifier": _mod(wis), "positive": max(_mod(wis), 0), "none": 0}
                        assert b.at(level).vd(rules) == base + d + w[wis_rule] + armour, (
                            name, level, base, wis_rule, cap_rule)  # fmt: skip
    # 5e's AC of the same builds: fighter 10 + 0 + 6 + 2 = 18, rogue at 20: 10 + 5 + 1 = 16
    assert builds["fighter"].at(1).ac == 18 and builds["rogue"].at(20).ac == 16


def test_attack_modifier_by_level():
    builds = {b.name: b for b in ex.reference_builds()}
    # fighter STR 16/18/20/20 (+3 +4 +5 +5), PB 2/3/4/6; rogue DEX finesse; mage INT spell
    want = {"fighter": [5, 7, 9, 11], "rogue": [5, 7, 9, 11], "mage": [5, 7, 9, 11]}
    for name, row in want.items():
        assert [builds[name].at(lv).attack_modifier() for lv in (1, 5, 10, 20)] == row
    twice = builds["fighter"].replace(attack_proficiency={1: 1, 5: 2})
    assert twice.at(4).attack_modifier() == 4 + 2  # STR 18 at 4: +4, PB +2 once
    assert (
        twice.at(5).attack_modifier() == 4 + 2 * 3 and twice.at(5).attack_modifier("d20") == 4 + 3
    )
    rogue = builds["rogue"].at(1)
    assert rogue.attack_ability == "DEX" and rogue.attack_roll().kind == "attack"


# -- monsters ---------------------------------------------------------------------------------
def test_pb_by_fp_is_5es_table():
    table = {0: 2, Fraction(1, 8): 2, Fraction(1, 4): 2, Fraction(1, 2): 2, 1: 2, 4: 2, 5: 3,
             8: 3, 9: 4, 12: 4, 13: 5, 16: 5, 17: 6, 20: 6, 21: 7, 24: 7, 25: 8, 28: 8, 29: 9,
             30: 9}  # fmt: skip
    scores = dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10)
    for fp, pb in table.items():
        assert Monster("M", fp, scores, ac=10).pb == pb
    for bad in (-1, 31, "1/3", 0.3, 2.5, True, None):
        with pytest.raises(ex.ExplodiceError, match="fp"):
            Monster("M", bad, scores, ac=10)


def test_a_monster_from_its_stat_block():
    # SRD 5.1's Hobgoblin: AC 18, Longsword +3, STR 13 DEX 12 CON 12 INT 10 WIS 10 CHA 9
    hob = Monster("Hobgoblin", "1/2", dict(STR=13, DEX=12, CON=12, INT=10, WIS=10, CHA=9),
                  ac=18, hp=11, attacks={"Longsword": 3, "Longbow": 3})  # fmt: skip
    for base in (9, 10, 12):
        assert hob.vd(Rules(defence_base=base)) == 18 - 10 + base + 0
    owl = Monster("Owl", 0, dict(STR=3, DEX=13, CON=8, INT=2, WIS=12, CHA=7), ac=11)
    assert owl.vd(Rules(defence_base=10)) == 11 + 1
    ogre = Monster("Ogre", 2, dict(STR=19, DEX=8, CON=16, INT=5, WIS=7, CHA=7), ac=11)
    assert [
        ogre.vd(Rules(defence_base=10, wisdom_in_defence=w))
        for w in ("modifier", "positive", "none")
    ] == [9, 11, 11]
    # a save DC: printed in d20; in 3d6x DC - 8 + the fitted base (9) = that base + PB + mod
    imp = Monster("Imp", 1, dict(STR=6, DEX=17, CON=13, INT=11, WIS=12, CHA=14), ac=13,
                  save_dcs={"Sting": 11}, saves=["DEX"], skills={"Stealth": 5})  # fmt: skip
    assert imp.save_dc() == 11 and imp.save_dc(system="3d6x") == 11 - 8 + 9
    assert imp.save_modifier("DEX") == 3 + 2 and imp.save_modifier("WIS") == 1
    assert imp.skill_modifier("Discrétion") == 5 and imp.skill_modifier("Perception") == 1
    roll = imp.attack_roll()
    assert roll.actor == "npc" and roll.kind == "attack" and roll.modifier == 3 + 2
    by_vd = Monster("Golem", 5, dict(STR=18, DEX=9, CON=18, INT=6, WIS=10, CHA=5), defence=17)
    assert (
        by_vd.vd(Rules(defence_base=3)) == 17 and by_vd.armour_class(Rules(defence_base=10)) == 17
    )


def test_monsters_from_toml_in_french_and_english(tmp_path):
    text = """
[[monster]]
nom = "Gobelin"
FP = "1/4"
CA = 15
caracteristiques = { FOR = 8, DEX = 14, CON = 10, INT = 10, SAG = 8, CHA = 8 }
pv = 7
attaques = { Cimeterre = 4 }
competences = { "Discrétion" = 6 }

[[monster]]
name = "Ogre"
cr = 2
ac = 11
scores = { STR = 19, DEX = 8, CON = 16, INT = 5, WIS = 7, CHA = 7 }
attacks = { Greatclub = 6 }
source = "SRD 5.1"
"""
    path = tmp_path / "bestiary.toml"
    path.write_text(text, encoding="utf-8")
    gob, ogre = ex.load_monsters(path)
    assert gob.name == "Gobelin" and gob.fp == Fraction(1, 4) and gob.skill_modifier("Stealth") == 6
    assert gob.source == "bestiary.toml" and ogre.source == "SRD 5.1"
    assert ex.monsters_from_tables([ogre.to_table()])[0] == ogre
    bad = text.replace("CA = 15", 'CA = "quinze"')
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(ex.MonsterFileError, match=r"monster\[0\]\.ac.*Gobelin.*quinze"):
        ex.load_monsters(path)
    both = text.replace("CA = 15", "CA = 15\nVD = 16")
    path.write_text(both, encoding="utf-8")
    with pytest.raises(ex.MonsterFileError, match="one of the two"):
        ex.load_monsters(path)


def test_bad_combat_input_names_the_field_the_value_and_what_is_allowed():
    scores = dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10)
    cases = [
        (lambda: Rules(defence_base=31), r"`defence_base` must be an integer 0\.\.30, but 31"),
        (lambda: Rules(critical="two"), r"`critical` must be 'none', 'two_sixes', 'three_sixes' or an integer 1\.\.20"),
        (lambda: Rules(critical=0), r"`critical`.*but 0 was passed"),
        (lambda: Rules(wisdom_in_defence="bonus"), r"`wisdom_in_defence` must be one of"),
        (lambda: Character("A", scores, armour="mithral"), r"`armour` must be a piece of 5e's armour"),
        (lambda: Character("A", scores, attack="spell"), r"`spell_ability`"),
        (lambda: Character("A", scores, attack_proficiency=3), r"`attack_proficiency` must be an integer in 0\.\.2"),
        (lambda: Build("B", scores | {"STR": 12}, attack="bow"), r"`attack` must be one of"),
        (lambda: Monster("M", 1, scores), r"`ac`.*one of the two"),
    ]  # fmt: skip
    for make, message in cases:
        with pytest.raises(ex.ExplodiceError, match=message):
            make()


def test_heavy_armour_adds_no_dex_not_even_a_negative_one():
    # 5e (SRD 5.1): plate is AC 18 whatever the DEX; medium armour adds DEX up to +2, a
    # negative modifier whole; light armour adds it whole (review of issue 32)
    scores = dict(STR=16, DEX=8, CON=14, INT=10, WIS=10, CHA=10)  # DEX -1, WIS 0
    plate = Character("Tank", scores, armour="plate")
    scale = Character("Scout", scores, armour="scale mail")
    leather = Character("Rogue", scores, armour="leather")
    assert (plate.ac, scale.ac, leather.ac) == (18, 14 - 1, 11 - 1)
    base = ex.Rules().defence_base
    assert plate.vd(Rules()) == 18 - 10 + base
    assert scale.vd(Rules()) == 14 - 1 - 10 + base
    # read whole (armour_dex_cap="none"), the -1 counts in plate too
    assert plate.vd(Rules(armour_dex_cap="none")) == 18 - 1 - 10 + base


def test_the_readings_attack_part_plays_best_against_each_vd(capsys):
    # review: `readings --parts attack --policies best:0.1` was a ValueError (no frame to
    # concatenate: best(λ) rows were skipped). best(0) wants only to hit: throw by throw it
    # picks the k that hits, so its P(hit) is at least keep's and cancel's at every VD
    from explodice.analysis.sensitivity import _attack_odds
    from explodice.present.cli import main

    rules = Rules(rule_of_one_kinds=("check", "save", "attack"))
    vds = [10, 14, 18, 22]
    best, _ = _attack_odds(2, "normal", ex.Best(0, 0.0), vds, rules)
    keep, _ = _attack_odds(2, "normal", "keep", vds, rules)
    cancel, _ = _attack_odds(2, "normal", "cancel", vds, rules)
    assert (best >= np.maximum(keep, cancel) - 1e-12).all()
    assert (best > np.minimum(keep, cancel) + 1e-6).any()  # the choice matters somewhere
    code = main(["readings", "--parts", "attack", "--policies", "best:0.1", "keep",
                 "--switches", "critical", "--format", "csv"])  # fmt: skip
    assert code == 0
    assert "best" in capsys.readouterr().out


def test_a_builds_spell_dc_is_one_number_on_the_combat_and_bestiary_questions():
    # review: combat read spell_ability (else the attack's), the bestiary the build's main
    # score; an envoy casting with WIS had DC 12 on one and 16 on the other. By hand: level 1,
    # PB 2, WIS 10 (+0): 8 + 2 + 0 = 10 in 5e; 9 + 2 + 0 = 11 in 3d6x
    import dataclasses

    from explodice.analysis.bestiary import level_sides

    envoy = next(b for b in ex.reference_builds() if b.name == "envoy")
    wis = dataclasses.replace(envoy, spell_ability="WIS")
    c = wis.at(1)
    by_hand = (8 + 2 + c.modifier("WIS"), 9 + 2 + c.modifier("WIS"))
    assert (c.spell_dc("d20"), c.spell_dc("3d6x")) == by_hand
    side = level_sides([wis], 1)[0]
    assert side.dc == {"d20": c.spell_dc("d20"), "3d6x": c.spell_dc("3d6x")}
