"""sensitivity(): each row for a switch is the difference of two direct calls (success_table,
exact, exact_day, hide, haggle with and without the switch), computed here."""

from __future__ import annotations

import dataclasses
import itertools
import typing

import numpy as np
import pandas as pd
import pytest

import explodice as ex
from explodice import DayRoll, Reroll, Roll, Rules, Scenario
from explodice.analysis import sensitivity as sens_mod
from explodice.day.exact import exact_day
from explodice.game import rules as rules_mod
from explodice.game.switch import DECLARATION
from tests import hand
from tests.day_helpers import hero

MODS, DCS = (0, 3), (12, 16)


def _row(s: ex.Sensitivity, switch: str, value: str) -> pd.Series:
    table = s.table.set_index(["switch", "value"])
    return table.loc[(switch, value)]


@pytest.fixture(scope="module")
def small_day() -> Scenario:
    """Two PCs with small gauges, checks, a save and a disadvantage source."""
    a = hero("Ana", gauges={"PA": 6, "PM": 0, "PF": 3, "PH": 0}, policy="cancel")
    b = hero("Bo", gauges={"PA": 0, "PM": 5, "PF": 0, "PH": 2}, policy=ex.Best(16, 0.05))
    rolls = [
        DayRoll("Ana", skill="Athletics", dc=14, repeat=3),
        DayRoll("Ana", ability="WIS", kind="save", dc=12, repeat=2),
        DayRoll("Bo", skill="Arcana", dc=16, repeat=3, disadvantages=1),
        DayRoll("Bo", skill="Persuasion", dc=12, repeat=2),
    ]
    return Scenario([a, b], rolls, name="small day")


# -- which switches, which values ----------------------------------------------------------------
def test_variants_are_read_from_the_rules_annotations():
    hints = typing.get_type_hints(Rules)
    expected = []
    for f in dataclasses.fields(Rules):
        current = getattr(Rules(), f.name)
        hint = hints[f.name]
        if typing.get_origin(hint) is typing.Literal:
            expected += [(f.name, v) for v in typing.get_args(hint) if v != current]
        elif hint is bool:
            expected.append((f.name, str(not current)))
        elif hint is int or int in typing.get_args(hint):  # its words, then the integers tried
            words = [v for a in typing.get_args(hint) if a is not int for v in typing.get_args(a)]
            tried = [*words, *f.metadata[DECLARATION].readings]
            expected += [(f.name, str(v)) for v in tried if v != current]
        else:  # the kinds: add each missing one, remove each present one
            for kind in rules_mod.KINDS:
                expected.append((f.name, ("-" if kind in current else "+") + kind))
    got = [(v.switch, v.value) for v in sens_mod.variants()]
    assert got == expected
    for v in sens_mod.variants():  # each variant differs from the base in its switch only
        diff = [
            f.name
            for f in dataclasses.fields(Rules)
            if getattr(v.rules, f.name) != getattr(Rules(), f.name)
        ]
        assert diff == [v.switch]
    # against other rules, the values move from those rules
    drop = [v.value for v in sens_mod.variants(Rules(disadvantage="drop"))]
    assert "subtract" in drop and "drop" not in drop


# -- the DC table: P(success) and drain against success_table and exact -------------------------
@pytest.mark.parametrize(
    "switch, value",
    [("malus_die", "plain"), ("disadvantage", "drop"), ("rule_of_one_kinds", "-check")],
)
def test_dc_table_row_is_the_difference_of_two_success_tables(switch, value):
    s = ex.sensitivity(
        modifiers=MODS, dcs=DCS, kinds=["check"], policies=["cancel"], rerolls=[None],
        parts=["dc_table"], switches=[switch],
    )  # fmt: skip
    moved = next(v.rules for v in sens_mod.variants() if (v.switch, v.value) == (switch, value))
    kw = dict(modifiers=list(MODS), dcs=list(DCS), policy="cancel")
    a, b = ex.success_table(rules=Rules(), **kw), ex.success_table(rules=moved, **kw)
    dp = np.abs(b.p.to_numpy() - a.p.to_numpy())
    dd = np.abs(b.drain_mean.to_numpy() - a.drain_mean.to_numpy())
    row = _row(s, switch, value)
    assert row.dc_p_max == pytest.approx(dp.max(), abs=1e-12)
    assert row.dc_p_mean == pytest.approx(dp.mean(), abs=1e-12)
    assert row.drain_max == pytest.approx(dd.max(), abs=1e-9)
    assert row.largest == pytest.approx(dp.max(), abs=1e-12)
    worst = a.iloc[int(np.argmax(dp))]
    state = worst.advantage.split(" (")[0]
    assert row.dc_where == f"{worst.modifier:+d} vs DC {worst.dc}, {state}, check, cancel"


def test_lucky_timing_row_is_the_difference_of_two_exact_engines():
    s = ex.sensitivity(
        modifiers=MODS, dcs=DCS, kinds=["check"], policies=["keep", "cancel"], rerolls=["one"],
        parts=["dc_table"], switches=["lucky_timing"],
    )  # fmt: skip
    after = Rules(lucky_timing="after_choice")
    deltas, drains = [], []
    for m, dc, adv, pol in itertools.product(
        MODS, DCS, rules_mod.ADVANTAGE_STATES, ["keep", "cancel"]
    ):
        roll = Roll(m, advantage=adv, policy=pol, reroll="one")
        deltas.append(ex.exact(roll, after).p_success(dc) - ex.exact(roll).p_success(dc))
        drains.append(ex.exact(roll, after).drain_mean - ex.exact(roll).drain_mean)
    row = _row(s, "lucky_timing", "after_choice")
    assert row.dc_p_max == pytest.approx(np.abs(deltas).max(), abs=1e-12)
    assert row.dc_p_mean == pytest.approx(np.abs(deltas).mean(), abs=1e-12)
    assert row.drain_max == pytest.approx(np.abs(drains).max(), abs=1e-9)
    # the number is a cell of the detail: Lucky, cancel, +0, DC 16, by the enumeration
    # of the throws (0.309 -> 0.234)
    d = s.detail.query(
        "measure == 'p_success' and modifier == 0 and dc == 16 and advantage == 'normal' "
        "and policy == 'cancel'"
    )
    by_hand = [hand.lucky_by_hand(16, t, "cancel")[0] for t in ("before_choice", "after_choice")]
    assert d[["default", "changed"]].values.tolist() == [pytest.approx(by_hand, abs=1e-12)]


def test_best_policy_cells_know_their_dc():
    s = ex.sensitivity(
        modifiers=[2], dcs=[16], kinds=["check"], advantages=["disadvantage"], policies=[0.05],
        rerolls=[None], parts=["dc_table"], switches=["malus_die"],
    )  # fmt: skip
    roll = Roll(2, advantage="disadvantage", policy=ex.Best(16, 0.05))
    p = [ex.exact(roll, r).p_success(16) for r in (Rules(), Rules(malus_die="plain"))]
    assert _row(s, "malus_die", "plain").dc_p_max == pytest.approx(p[1] - p[0], abs=1e-12)


def test_close_contest_shows_the_share_of_ties():
    s = ex.sensitivity(
        modifiers=[0], dcs=[12], kinds=["check"], advantages=["normal"], policies=["keep"],
        rerolls=[None], parts=["dc_table"], switches=["close_contest"],
    )  # fmt: skip
    d = ex.exact(Roll(0))
    row = _row(s, "close_contest", "True")
    assert row.dc_p_max == 0.0  # the bids decide ties, P(total >= DC) does not move
    assert row.dc_p_tie_max == pytest.approx(d.p_success(12) - d.p_success(13), abs=1e-12)


# -- the party, hiding and haggling ---------------------------------------------------------------
def test_party_hiding_and_haggle_rows_are_differences_of_direct_calls():
    party = [hero("Ana", reroll=Reroll("one")), hero("Bo", policy="cancel")]
    s = ex.sensitivity(
        party, modifiers=MODS, dcs=DCS, switches=["hiding_ties", "deception_noticed", "malus_die"]
    )
    # party: success_table of the characters with and without the plain malus die
    t = [
        ex.success_table(characters=party, dcs=DCS, rules=r)
        for r in (Rules(), Rules(malus_die="plain"))
    ]
    row = _row(s, "malus_die", "plain")
    assert row.party_p_max == pytest.approx((t[1].p - t[0].p).abs().max(), abs=1e-12)
    # hiding: a passive equal to each DC, and an active Perception of the same modifier
    observer = Rules(hiding_ties="observer")
    gaps = [
        ex.hide(Roll(m), passive=[dc], rules=observer).p_hidden
        - ex.hide(Roll(m), passive=[dc]).p_hidden
        for m in MODS
        for dc in DCS
    ]
    gaps += [
        ex.hide(Roll(m), active=[Roll(m)], rules=observer).p_hidden
        - ex.hide(Roll(m), active=[Roll(m)]).p_hidden
        for m in MODS
    ]
    row = _row(s, "hiding_ties", "observer")
    assert row.hiding_p_max == pytest.approx(np.abs(gaps).max(), abs=1e-12)
    assert row.reads == "hiding" and np.isnan(row.dc_p_max) and np.isnan(row.party_p_max)
    # haggling: P(noticed) with Persuasion and Deception of the same modifier, DC 16
    cheated = Rules(deception_noticed="when_cheated")
    gaps = [
        ex.haggle(Roll(m), dc=16, deception=Roll(m), rules=cheated).p_noticed
        - ex.haggle(Roll(m), dc=16, deception=Roll(m)).p_noticed
        for m in MODS
    ]
    row = _row(s, "deception_noticed", "when_cheated")
    assert row.haggle_p_noticed_max == pytest.approx(np.abs(gaps).max(), abs=1e-12)
    assert row.largest == pytest.approx(np.abs(gaps).max(), abs=1e-12)
    assert row.largest_where.startswith("haggle: Persuasion and Deception")


# -- the day ----------------------------------------------------------------------------------------
def _day_numbers(day: Scenario, rules: Rules) -> tuple[pd.Series, pd.Series]:
    r = exact_day(day, rules)
    g = r.to_frame("gauges").set_index(["character", "gauge"]).p_empty
    types = r.to_frame("roll_types")
    owner = {x.label: x.character for x in day.rolls}
    return g, types.groupby(types["type"].map(owner))["successes"].sum()


@pytest.mark.parametrize(
    "switch, value, moved",
    [
        ("overflow", "lost", Rules(overflow="lost")),
        ("overflow", "PA", Rules(overflow="PA")),
        ("overflow", "PM", Rules(overflow="PM")),
        ("ones_on_explosions", "True", Rules(ones_on_explosions=True)),
        ("rule_of_one_kinds", "-save", Rules(rule_of_one_kinds={"check"})),
        ("malus_die", "plain", Rules(malus_die="plain")),  # Ana's rolls once her PA is empty
    ],
)
def test_day_row_is_the_difference_of_two_exact_days(small_day, switch, value, moved):
    s = ex.sensitivity(day=small_day, modifiers=[0], dcs=[12], switches=[switch], parts=["day"])
    (g0, s0), (g1, s1) = _day_numbers(small_day, Rules()), _day_numbers(small_day, moved)
    row = _row(s, switch, value)
    assert row.day_p_empty_max == pytest.approx((g1 - g0).abs().max(), abs=1e-12)
    per = (s1 - s0).abs()
    assert row.day_successes_max == pytest.approx(
        max(per.max(), abs(s1.sum() - s0.sum())), abs=1e-12
    )
    assert row.day_method == "exact" and row.note == ""
    if switch == "overflow":  # read by the day only: the single-roll parts are not moved
        assert row.reads == "day" and np.isnan(row.dc_p_max)
    if switch == "malus_die":  # after a gauge is empty: the drains, so P(empty), stay
        assert row.day_p_empty_max == 0.0 and row.day_successes_max > 0.01
        return
    worst = (g1 - g0).abs().idxmax()
    assert row.day_p_empty_where == f"{worst[0]} {worst[1]}"


def test_a_day_the_engines_cannot_play_is_not_computed_and_says_why(small_day):
    s = ex.sensitivity(
        day=small_day, modifiers=[0], dcs=[12], parts=["dc_table", "day"],
        switches=["malus_die", "lucky_timing", "close_contest"],
    )  # fmt: skip
    # the day engines play a plain malus die now: its day is computed
    plain = _row(s, "malus_die", "plain")
    assert plain.day_method == "exact" and plain.note == "" and plain.dc_p_max > 0
    # they refuse the lutte serrée's bids of HP: not computed, and the note says why
    close = _row(s, "close_contest", "True")
    assert np.isnan(close.day_p_empty_max)
    assert "day not computed" in close.note and "close_contest=True" in close.note
    # nobody has Lucky: lucky_timing cannot change this day, which is the base day
    lucky = _row(s, "lucky_timing", "after_choice")
    assert lucky.day_p_empty_max == 0.0 and "base day" in lucky.day_method
    # with Lucky in the party, the day engines play it after the choice: two exact days
    lucky_day = small_day.replace(
        characters=[dataclasses.replace(c, reroll=Reroll("one")) for c in small_day.characters]
    )
    s = ex.sensitivity(day=lucky_day, parts=["day"], switches=["lucky_timing"])
    row = _row(s, "lucky_timing", "after_choice")
    (g0, s0) = _day_numbers(lucky_day, Rules())
    (g1, s1) = _day_numbers(lucky_day, Rules(lucky_timing="after_choice"))
    assert row.day_method == "exact" and row.note == ""
    assert row.day_p_empty_max == pytest.approx((g1 - g0).abs().max(), abs=1e-12) and (
        row.day_p_empty_max > 0.01
    )


def test_the_day_falls_back_to_one_seeded_simulation_when_exact_day_refuses(small_day, monkeypatch):
    import explodice.day.exact as exact_mod

    def refuse(*args, **kwargs):
        raise ex.ExplodiceError("too big for the exact day")

    monkeypatch.setattr(exact_mod, "exact_day", refuse)
    sens_mod.day_numbers.cache_clear()
    try:
        s = ex.sensitivity(day=small_day, parts=["day"], switches=["overflow"], n_days=3000, seed=7)
    finally:
        sens_mod.day_numbers.cache_clear()
    row = _row(s, "overflow", "lost")
    assert row.day_method == "simulate (n_days=3000, seed=7)"
    assert "exact_day refused it (too big for the exact day)" in row.note
    assert s.table.attrs["n_days"] == 3000 and s.table.attrs["seed"] == 7
    a = ex.simulate_day(small_day, Rules(), n_days=3000, seed=7).to_frame("gauges")
    b = ex.simulate_day(small_day, Rules(overflow="lost"), n_days=3000, seed=7).to_frame("gauges")
    assert row.day_p_empty_max == pytest.approx((b.p_empty - a.p_empty).abs().max(), abs=1e-12)


# -- the whole table on the report's party and day ---------------------------------------------------
def test_on_the_default_configuration():
    from explodice.present.config import load_config  # the test may read present/

    config = load_config()
    s = ex.sensitivity(config, switches=["overflow", "malus_die", "hiding_ties"])
    t = s.table
    assert list(t.largest) == sorted(t.largest, reverse=True)  # sorted by the largest change
    assert set(zip(t.switch, t.value)) == {
        *(("overflow", v) for v in ("lost", "PA", "PM", "PF", "PH", "best")),
        ("malus_die", "plain"),
        ("hiding_ties", "observer"),
    }
    # a fixed policy pours into the fullest under "best": the default day, unchanged
    best = _row(s, "overflow", "best")
    assert best.day_p_empty_max == 0.0 and "only the optimal player" in best.note
    attrs = t.attrs
    assert attrs["rules"] == config.rules.describe() and attrs["method"]["dc_table"] == "exact"
    assert attrs["modifiers"] == list(config.modifiers) and attrs["scenario"] == config.day.name
    assert s.detail.attrs == attrs and s.by_measure.attrs == attrs
    # the detail's rows add up to the table: the largest |delta| per switch and value
    top = s.detail.assign(a=s.detail.delta.abs()).groupby(["switch", "value"]).a.max()
    for (switch, value), x in top.items():
        assert x >= _row(s, switch, value).largest - 1e-15
    # Gudulf's PA can empty: the day engines subtract a plain malus die then
    assert _row(s, "malus_die", "plain").note == ""
    assert s.to_frame("by_measure").columns.tolist() == [
        "switch", "value", "part", "measure", "max", "mean", "where"
    ]  # fmt: skip
    assert "<b>Which readings matter</b>" in s._repr_html_()


# -- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"parts": ["day"]}, "need their input"),
        ({"parts": ["nope"]}, "`parts` must be one of"),
        ({"switches": ["lucky"]}, "`switches` must be one of"),
        ({"day_method": "fast"}, "`day_method` must be one of"),
        ({"rerolls": [Reroll("failure", dc=12)]}, "`rerolls` must hold None or Reroll"),
        ({"advantages": ["double"]}, "`advantages` must be one of"),
        ({"modifiers": []}, "`modifiers`"),
        ({"day": "mines"}, "`day` must be a Scenario"),
        ({"party": [1]}, r"`party\[0\]` must be a Character"),
        ({"rules": "drop"}, "`rules` must be a Rules"),
    ],
)
def test_bad_input_is_refused(kwargs, match):
    with pytest.raises(ex.ExplodiceError, match=match):
        ex.sensitivity(**kwargs)


def test_a_day_setting_out_of_range_is_refused_not_replaced():
    # n_days=0 (or []) was read as the default 20,000 days; a negative seed became a note
    # "day not computed" on every switch of the day
    with pytest.raises(ex.ExplodiceError, match="`n_days` must be an integer in 1.."):
        ex.sensitivity(modifiers=[0], dcs=[16], parts=["haggle"], n_days=0)
    with pytest.raises(ex.ExplodiceTypeError, match="`n_days` must be an integer"):
        ex.sensitivity(modifiers=[0], dcs=[16], parts=["haggle"], n_days=[])
    with pytest.raises(ex.ExplodiceError, match="`seed` must be an integer >= 0"):
        ex.sensitivity(modifiers=[0], dcs=[16], parts=["haggle"], seed=-5)


def test_to_frame_names_its_tables():
    s = ex.sensitivity(modifiers=[0], dcs=[16], parts=["haggle"])
    assert s.to_frame() is s.table and s.to_frame("detail") is s.detail
    with pytest.raises(ex.ExplodiceError, match="`what` must be one of"):
        s.to_frame("wide")
