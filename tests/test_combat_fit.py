"""The combat questions against numbers derived by hand: the attack table, the chances across
levels, and the fitted defence base checked by its criterion at its neighbours (hand PMFs of
tests/hand.py, the d20 counted face by face)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import explodice as ex
from explodice import Monster, Rules
from explodice.analysis.combat import fp_of
from explodice.game.tables import DEFENCE_BASE, SAVE_DC_BASE_3D6X
from tests import hand
from tests.test_combat import _attack_by_hand


def _d20_hit(modifier: int, ac: int) -> float:
    return sum(f == 20 or (f != 1 and f + modifier >= ac) for f in range(1, 21)) / 20


def _d20_save(modifier: int, dc: int) -> float:
    return sum(f + modifier >= dc for f in range(1, 21)) / 20


def _p3(modifier: int, vd: int) -> float:
    return hand.sf(hand.HAND["normal"], vd - modifier)


SCORES_1 = dict(STR=14, DEX=12, CON=12, INT=8, WIS=12, CHA=8)  # WIS +1
SCORES_5 = dict(STR=18, DEX=10, CON=16, INT=6, WIS=8, CHA=8)  # WIS -1
MONSTERS = {
    1: Monster("Brute", 1, SCORES_1, ac=13, attacks={"Axe": 4}, save_dcs={"Roar (WIS)": 12}),
    5: Monster("Ogre chief", 5, SCORES_5, ac=15, attacks={"Club": 7}, save_dcs={"Stomp": 15}),
}


def _fighter_cases():
    """(p_d20, mod, vd at base 0) of the fighter against MONSTERS at levels 1 and 5, both ways:
    the fighter's STR 16 (+3) then 18 (+4), PB +2 then +3; VD at base 0 = DEX 13 (+1, capped to
    0 in chain mail) + WIS 12 (+1) + 6 + 2 = 9; AC 18."""
    out = []
    for level, attack in ((1, 5), (5, 7)):
        m = MONSTERS[level]
        wis = (m.scores["WIS"] - 10) // 2
        out.append((_d20_hit(attack, m.ac), attack, m.ac - 10 + wis))  # the fighter hits
        bonus = m.attacks[next(iter(m.attacks))]
        out.append((_d20_hit(bonus, 18), bonus, 9))  # the monster hits
    return out


def _criterion_by_hand(base: int, criterion: str) -> float:
    errors = [_p3(mod, vd0 + base) - p for p, mod, vd0 in _fighter_cases()]
    if criterion == "least_squares":
        return math.sqrt(sum(e * e for e in errors) / len(errors))
    return max(abs(e) for e in errors)


@pytest.mark.parametrize("criterion", ["least_squares", "minimax"])
def test_the_fitted_base_beats_its_neighbours_by_hand(criterion):
    fighter = ex.reference_builds()[0]
    fit = ex.fit_defence_base(fighter, monsters=MONSTERS, levels=[1, 5], offsets=[0],
                              criterion=criterion)  # fmt: skip
    b = fit.base
    here = _criterion_by_hand(b, criterion)
    assert fit.error == pytest.approx(here, abs=1e-12)
    for nb in (b - 1, b + 1):
        if 0 <= nb <= 30:
            there = _criterion_by_hand(nb, criterion)
            assert here <= there + 1e-12
            row = fit.bases.set_index("base").loc[nb]
            column = "rmse" if criterion == "least_squares" else "max_error"
            assert row[column] == pytest.approx(there, abs=1e-12)
    # the error per case, by hand at the base
    want = [_p3(mod, vd0 + b) - p for p, mod, vd0 in _fighter_cases()]
    assert sorted(fit.cases.error) == pytest.approx(sorted(want), abs=1e-12)
    assert set(fit.cases.direction) == {"build hits", "monster hits"}
    assert fit.cases.method.eq("exact").all() and fit.cases.n.isna().all()


def test_the_readings_of_the_vd_move_the_fit_as_by_hand():
    fighter = ex.reference_builds()[0]
    fit = ex.fit_defence_base(fighter, monsters=MONSTERS, levels=[1, 5], offsets=[0])
    r = fit.readings.set_index(["wisdom_in_defence", "armour_dex_cap"])
    assert len(r) == 6 and r.loc[("modifier", "5e"), "current"]
    # WIS not in the VD: the monsters' WIS terms (+1, -1) and the fighter's (+1) leave the VD
    cases = _fighter_cases()
    no_wis = [
        (p, mod, vd0 - (1 if i in (0, 1, 3) else -1)) for i, (p, mod, vd0) in enumerate(cases)
    ]
    best = min(range(31), key=lambda b: (
        math.sqrt(sum((_p3(m, v + b) - p) ** 2 for p, m, v in no_wis) / 4), -b))  # fmt: skip
    assert r.loc[("none", "5e"), "base"] == best


def test_the_default_defence_base_is_the_fit_on_the_reference_builds_and_the_srd():
    assert ex.fit_defence_base().base == DEFENCE_BASE == Rules().defence_base


def test_the_3d6x_save_base_is_the_save_dc_fit():
    assert ex.fit_save_dc(ex.reference_builds()).base == SAVE_DC_BASE_3D6X


def test_attack_table_by_hand():
    rules = Rules(defence_base=11)
    t = ex.attack_table(modifiers=[3, 7], acs=[12, 16], wis=2, advantages=["normal"], rules=rules)
    for row in t.itertuples():
        assert row.vd == row.ac - 10 + 11 + 2
        assert row.p_hit_3d6x == pytest.approx(_p3(row.modifier, row.vd), abs=1e-12)
        assert row.p_hit_d20 == pytest.approx(_d20_hit(row.modifier, row.ac))
        assert row.p_crit_d20 == pytest.approx(0.05) and row.p_crit_3d6x == 0
        curve = {vd: _p3(row.modifier, vd) for vd in range(-20, 80)}
        best = min(curve, key=lambda vd: (abs(curve[vd] - row.p_hit_d20), vd))
        assert row.equivalent_vd == best
    assert DEFENCE_BASE == 11  # the VD column above read the default base, by hand
    crit = ex.attack_table(modifiers=[0], vds=[14], advantages=["advantage"],
                           rules=Rules(critical="two_sixes"))  # fmt: skip
    assert crit.p_crit_3d6x[0] == pytest.approx(0.1319, abs=1e-4)
    assert crit.ac[0] == 14 - DEFENCE_BASE + 10
    sim = ex.attack_table(modifiers=[4], acs=[15], advantages=["normal"], method="simulate",
                          n=20_000, seed=2)  # fmt: skip
    exact = ex.attack_table(modifiers=[4], acs=[15], advantages=["normal"])
    assert sim.p_hit_3d6x_lo[0] <= exact.p_hit_3d6x[0] <= sim.p_hit_3d6x_hi[0]
    assert sim.seed[0] == 2 and sim.n[0] == 20_000 and sim.method[0] == "simulate"


def test_combat_progression_by_hand():
    fighter = ex.reference_builds()[0]
    t = ex.combat_progression(fighter, monsters=MONSTERS, levels=[1, 5], offsets=[0],
                              saves=["DEX"], rules=Rules(defence_base=11))  # fmt: skip
    assert len(t) == 4
    for row in t.itertuples():
        m = MONSTERS[row.level]
        wis = (m.scores["WIS"] - 10) // 2
        attack = 5 if row.level == 1 else 7
        bonus = next(iter(m.attacks.values()))
        dex_save = 1 + 0  # DEX 13, not proficient
        pb = 2 if row.level == 1 else 3
        str_mod = 3 if row.level == 1 else 4
        mdex = (m.scores["DEX"] - 10) // 2
        if row.system == "3d6x":
            assert row.target == m.ac - 10 + 11 + wis
            assert row.p_build_hits == pytest.approx(_p3(attack, row.target), abs=1e-12)
            assert row.p_monster_hits == pytest.approx(_p3(bonus, 11 + 9), abs=1e-12)
            dc = m.save_dcs[next(iter(m.save_dcs))] - 8 + SAVE_DC_BASE_3D6X
            # the fighter's save is a PC's under the rule of 1, policy keep: the plain law
            assert row.p_build_saves == pytest.approx(_p3(dex_save, dc), abs=1e-12)
            spell = SAVE_DC_BASE_3D6X + pb + str_mod
            hit, _ = _attack_by_hand(mdex, spell, 3, 99, cancel=True, malus=False)  # an NPC
            assert row.p_monster_saves == pytest.approx(hit, abs=1e-12)
        else:
            assert row.target == m.ac
            assert row.p_build_hits == pytest.approx(_d20_hit(attack, m.ac))
            assert row.p_monster_hits == pytest.approx(_d20_hit(bonus, 18))
            dc = m.save_dcs[next(iter(m.save_dcs))]
            assert row.p_build_saves == pytest.approx(_d20_save(dex_save, dc))
            assert row.p_monster_saves == pytest.approx(_d20_save(mdex, 8 + pb + str_mod))
        assert row.mark_d20 == 0.65


def test_fp_offsets_and_the_monsters_a_designer_names():
    # level + k = 0, -1, -2, -3 read as FP 1/2, 1/4, 1/8, 0 (5e's order below 1)
    got = [fp_of(1, k) for k in (-4, -3, -2, -1, 0, 1)]
    assert got == [0, Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), 1, 2]
    assert fp_of(20, 10) == 30 and fp_of(20, 11) is None and fp_of(1, -5) is None
    t = ex.combat_progression(ex.reference_builds()[:1], levels=[1], offsets=[-1, 0, 1])
    assert list(t.fp.unique()) == ["1/2", "1", "2"]
    assert t.monster.str.startswith("typical FP").all()
    dupe = [MONSTERS[1], MONSTERS[1].replace(name="Other")]
    with pytest.raises(ex.ExplodiceError, match="two of FP 1"):
        ex.combat_progression(monsters=dupe, levels=[1])
    only = ex.combat_progression(monsters=[MONSTERS[5]], levels=[4, 5], offsets=[0, 1])
    assert set(zip(only.level, only.offset)) == {(4, 1), (5, 0)}
    with pytest.raises(ex.ExplodiceError, match="offsets"):
        ex.combat_progression(offsets=["a"])
    with pytest.raises(ex.ExplodiceError, match="criterion"):
        ex.fit_defence_base(criterion="median")
    with pytest.raises(ex.ExplodiceError, match=r"`bases` must be an integer in 0\.\.30"):
        ex.fit_defence_base(bases=[40])
    assert np.isfinite(t.p_build_hits).all()


def test_the_defence_base_caption_says_what_its_table_shows_of_wis():
    # page 22: the table showed that leaving WIS out of the VD (base 12) halves the error,
    # the caption said nothing of it; the numbers are the table's, in percentage points
    import pandas as pd

    from explodice.present.formats import Formatter
    from explodice.present.report.pages.defence_base import _without_wisdom

    readings = pd.DataFrame({
        "wisdom_in_defence": ["modifier", "modifier", "none", "none"],
        "armour_dex_cap": ["5e", "none", "5e", "none"],
        "base": [11, 11, 12, 12],
        "rmse": [0.115, 0.117, 0.068, 0.072],
        "max_error": [0.297, 0.297, 0.144, 0.146],
        "current": [True, False, False, False],
    })  # fmt: skip
    text = _without_wisdom(readings, Formatter("en"))
    assert "base 12" in text
    assert "6.8 pp instead of 11.5 pp" in text and "14.4 pp instead of 29.7 pp" in text
    assert "7.2" not in text  # the rules' DEX in armour, not the other reading
    french = _without_wisdom(readings, Formatter("fr"))
    assert "6,8\xa0pts" in french and "SAG" in french
    # rules that already leave WIS out: nothing to add
    assert _without_wisdom(readings.assign(current=[False, False, True, False]),
                           Formatter("en")) == ""  # fmt: skip
