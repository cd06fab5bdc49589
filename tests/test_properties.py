"""Properties of the public API, over inputs drawn by hypothesis.

Valid inputs: probabilities lie in [0, 1] and sum to 1, success falls as the DC rises, a
simulated interval holds its estimate, the d20 agrees with counting faces by hand. Invalid
inputs: the package's error and nothing else. A few examples each by default (quick); the
``slow`` marker runs many more.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import explodice as ex
from explodice.core.errors import ExplodiceError, ExplodiceTypeError
from explodice.game.rules import Switch, switches
from tests.api_calls import LIST_OK, MAPPING_OK, NONE_OK, STRING_OPTIONS
from tests.api_calls import call as api_call

QUICK = settings(
    max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
QUICK_FIND = settings(max_examples=200, deadline=None, derandomize=True, database=None)
LONG = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

policies = st.one_of(
    st.sampled_from(["keep", "cancel"]),
    st.builds(ex.Best, dc=st.integers(-5, 45), weight=st.floats(0, 2, allow_nan=False)),
)
rolls = st.builds(
    ex.Roll,
    modifier=st.integers(-10, 12),
    advantage=st.sampled_from(["advantage", "normal", "disadvantage"]),
    kind=st.sampled_from(["check", "ability", "save", "attack"]),
    actor=st.sampled_from(["pc", "npc"]),
    policy=policies,
    reroll=st.sampled_from([None, ex.Reroll("one")]),
)


def _switch_values(sw: Switch) -> st.SearchStrategy:
    """Every value of one switch of Rules: a flag on or off, a choice among its values, a set
    of them (the empty set included)."""
    if sw.kind == "set":
        return st.frozensets(st.sampled_from(sw.values))
    return st.sampled_from(sw.values)


#: Rules with every switch drawn among its values, read from Rules itself: a new switch or
#: value is drawn without an edit here.
rules = st.builds(ex.Rules, **{sw.name: _switch_values(sw) for sw in switches()})
dcs = st.lists(st.integers(-60, 120), min_size=1, max_size=12)

# anything a caller might pass by mistake, huge and odd values included
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(),
    st.integers(-(10**400), 10**400),
    st.text(max_size=30),
    st.binary(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.just(object()),
    st.just(float("nan")),
    st.just(10**400),
    st.just(-(2**63)),
    st.just([]),
    st.just({}),
)


def check_exact(roll: ex.Roll, rule: ex.Rules, dc_list: list[int]) -> None:
    d = ex.exact(roll, rule)
    assert (d.pmf >= 0).all()
    assert d.pmf.sum() + d.omitted == pytest.approx(1.0, abs=1e-9)
    assert 0 <= d.omitted < 1e-9
    p = np.asarray(d.p_success(sorted(dc_list)))
    assert ((p >= 0) & (p <= 1)).all()
    assert (np.diff(p) <= 1e-15).all()  # monotone: a harder DC never succeeds more often
    # P(total >= dc) is the pmf's mass at totals >= dc, summed here from the table itself
    totals = d.lo + np.arange(d.pmf.shape[0])
    mass = d.pmf.sum(axis=(1, 2))
    for dc, got in zip(sorted(dc_list), p):
        assert got == pytest.approx(mass[totals >= dc].sum() / mass.sum(), abs=1e-12)
    if not roll.drains(rule):
        assert d.drain_mean == 0
    q = d.quantile([0.0, 0.5, 1.0])
    assert q[0] <= q[1] <= q[2]


@pytest.mark.parametrize("sw", switches(), ids=lambda sw: sw.name)
def test_the_rules_drawn_reach_every_value_of_every_switch(sw):
    # the strategy drew overflow from fullest/lost only, and never lucky_timing, malus_die,
    # hiding_ties or deception_noticed: the properties never saw their other values
    for value in sw.values:
        if sw.kind == "set":
            find(rules, lambda r, v=value: v in getattr(r, sw.name), settings=QUICK_FIND)
        else:
            find(rules, lambda r, v=value: getattr(r, sw.name) == v, settings=QUICK_FIND)


@QUICK
@given(rolls, rules, dcs)
def test_exact_is_a_probability_distribution_falling_with_the_dc(roll, rule, dc_list):
    check_exact(roll, rule, dc_list)


@pytest.mark.slow
@LONG
@given(rolls, rules, dcs)
def test_exact_properties_long(roll, rule, dc_list):
    check_exact(roll, rule, dc_list)


@QUICK
@given(st.integers(-10, 12), st.sampled_from(["advantage", "normal", "disadvantage"]), dcs)
def test_d20_matches_counting_faces(modifier, advantage, dc_list):
    d = ex.d20(ex.Roll(modifier, advantage=advantage))
    for dc in dc_list:
        need = min(max(dc - modifier, 1), 21)  # the smallest face that succeeds
        miss = (need - 1) / 20  # one die misses
        p_one = 1 - miss
        want = {"normal": p_one, "advantage": 1 - miss**2, "disadvantage": p_one**2}[advantage]
        assert d.p_success(dc) == pytest.approx(want, abs=1e-12)


@QUICK
@given(st.integers(1, 10**12), st.data())
def test_wilson_interval_holds_its_estimate(n, data):
    k = data.draw(st.integers(0, n))
    level = data.draw(st.sampled_from([0.5, 0.9, 0.95, 0.999]))
    lo, hi = ex.wilson_interval(k, n, level)
    assert 0 <= lo <= k / n <= hi <= 1
    if 0 < k < n:
        assert lo < hi


@QUICK
@given(rolls, rules, st.integers(0, 2**32), dcs)
def test_a_simulation_holds_its_estimate_and_sums_to_n(roll, rule, seed, dc_list):
    d = ex.simulate(roll, rule, n=3_000, seed=seed, threads=1)
    assert int(d.counts.sum()) == 3_000
    p = np.asarray(d.p_success(dc_list))
    lo, hi = d.ci(dc_list)
    assert ((0 <= lo) & (lo <= p) & (p <= hi) & (hi <= 1)).all()
    assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)


@QUICK
@given(st.integers(-10, 12), st.integers(1, 60), st.integers(4, 30))
def test_rolls_to_empty_is_a_distribution_over_rolls(modifier, gauge, dc):
    r = ex.rolls_to_empty(modifier, gauge, dc)
    frame = r.to_frame()
    assert (frame.p >= 0).all() and frame.p.sum() <= 1 + 1e-9
    assert frame.cdf.is_monotonic_increasing
    assert r.quantile(0.0) <= r.median <= r.quantile(0.99)
    # emptied by the first roll: that roll's drain reaches the gauge (read off the roll's law)
    first = frame.cdf[frame.rolls == 1]
    p_first = float(first.iloc[0]) if len(first) else 0.0
    assert p_first == pytest.approx(ex.exact(ex.Roll(modifier)).p_drain_at_least(gauge), abs=1e-9)


# -- invalid input: the package's error, and nothing else ----------------------------------------
def refused_or_fine(call, *args, **kwargs) -> None:
    """Run ``call``: it may succeed (the value was valid) or raise ExplodiceError; any other
    exception fails the test."""
    try:
        call(*args, **kwargs)
    except ExplodiceError:
        pass


BASE = ex.exact(ex.Roll(0))
CALLS = {
    "Roll.modifier": lambda x: ex.Roll(x),
    "Roll.advantage": lambda x: ex.Roll(0, advantage=x),
    "Roll.policy": lambda x: ex.Roll(0, policy=x),
    "Best.dc": lambda x: ex.Best(x),
    "Best.weight": lambda x: ex.Best(16, x),
    "Rules.rule_of_one_kinds": lambda x: ex.Rules(rule_of_one_kinds=x),
    "Rules.drain_gauge": lambda x: ex.Rules(drain_gauge=x),
    "Rules.close_contest": lambda x: ex.Rules(close_contest=x),
    "Reroll.trigger": lambda x: ex.Reroll(x),
    "Reroll.dc": lambda x: ex.Reroll("failure", dc=x),
    "Roll.reroll": lambda x: ex.Roll(0, reroll=x),
    "initiative": lambda x: ex.initiative(x),
    "initiative.sides": lambda x: ex.initiative({"A": 1, "B": 2}, sides=x),
    "hide.passive": lambda x: ex.hide(ex.Roll(0), passive=x),
    "hide.active": lambda x: ex.hide(ex.Roll(0), active=x),
    "close_contest": lambda x: ex.close_contest(x, 1),
    "haggle.deception": lambda x: ex.haggle(ex.Roll(0), dc=16, deception=x),
    "Character.load": lambda x: ex.Character(
        "A", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), load=x
    ),
    "Character.tools": lambda x: ex.Character(
        "A", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), tools=x
    ),
    "Character.features": lambda x: ex.Character(
        "A", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), features=x
    ),
    "exact.roll": lambda x: ex.exact(x),
    "exact.rules": lambda x: ex.exact(ex.Roll(0), x),
    "p_success": lambda x: BASE.p_success(x),
    "ci": lambda x: BASE.ci(16, x),
    "quantile": lambda x: BASE.quantile(x),
    "p_drain_at_least": lambda x: BASE.p_drain_at_least(x),
    "success_frame": lambda x: BASE.success_frame(x if isinstance(x, list) else [x]),
    "wilson.successes": lambda x: ex.wilson_interval(x, 10),
    "wilson.n": lambda x: ex.wilson_interval(3, x),
    "wilson.level": lambda x: ex.wilson_interval(3, 10, x),
    "net_advantage": lambda x: ex.net_advantage(x),
    "parse_policy": lambda x: ex.parse_policy(x, dc=16),
    "success_table.modifiers": lambda x: ex.success_table(
        modifiers=x, dcs=[16], advantages=["normal"]
    ),
    "success_table.dcs": lambda x: ex.success_table(modifiers=[0], dcs=x, advantages=["normal"]),
    "success_table.advantages": lambda x: ex.success_table(modifiers=[0], dcs=[16], advantages=x),
    "success_table.rules": lambda x: ex.success_table(modifiers=[0], dcs=[16], rules=x),
    "success_table.n": lambda x: ex.success_table(
        modifiers=[0],
        dcs=[16],
        method="simulate",
        n=x if not isinstance(x, int) or x > 10**13 or x < 1 else 0,
    ),
    "rolls_to_empty.gauge": lambda x: (
        ex.rolls_to_empty(0, x, 16) if not isinstance(x, int) or not 0 < x <= 200 else None
    ),
    "rolls_to_empty.dc": lambda x: ex.rolls_to_empty(0, 20, x),
    "frontier.dc": lambda x: ex.frontier(0, x),
    "opposed": lambda x: ex.opposed(ex.Roll(0), x),
    "group_success.dc": lambda x: ex.group_success([ex.Roll(0)], dc=x),
    "haggle.dc": lambda x: ex.haggle(ex.Roll(0), dc=x),
    "passive": lambda x: ex.passive(x),
    "drain_summary.tail": lambda x: ex.drain_summary(ex.Roll(0), tail=x),
    "dc_for_probability": lambda x: ex.dc_for_probability(ex.Roll(0), x),
    "equivalent_dc_table": lambda x: ex.equivalent_dc_table(x),
    "Character.level": lambda x: ex.Character(
        "A", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), level=x
    ),
    "Character.gauge_max": lambda x: ex.Character(
        "A", dict(STR=10, DEX=10, CON=10, INT=10, WIS=10, CHA=10), gauge_max={"PA": x}
    ),
    "DayRoll.weight": lambda x: ex.DayRoll("A", ability="STR", weight=x),
    "DayRoll.repeat": lambda x: ex.DayRoll("A", ability="STR", repeat=x),
    "load_scenario": lambda x: ex.load_scenario(x) if not isinstance(x, str) else None,
    # across levels, through the quick calls of tests/api_calls.py
    "Build.at": lambda x: api_call("Build.at", level=x),
    "Build.to_frame": lambda x: api_call("Build.to_frame", levels=x),
    "Build.increases": lambda x: api_call("Build", increases={4: x}),
    "fit_save_dc.bases": lambda x: api_call("fit_save_dc", bases=x),
    "fit_save_dc.d20_base": lambda x: api_call("fit_save_dc", d20_base=x),
    "build_day.rolls_per_day": lambda x: api_call("build_day", rolls_per_day=x),
    "size_gauges.risk": lambda x: api_call("size_gauges", risk=x),
    "progression.dcs": lambda x: api_call("progression", dcs={"moderate": x}),
    "sensitivity.n_days": lambda x: api_call("sensitivity", n_days=x, parts=["dc_table"]),
    "Sampling.seed": lambda x: api_call("Sampling", seed=x),
}


@pytest.mark.parametrize("name", list(CALLS))
@QUICK
@given(value=junk)
def test_invalid_input_raises_the_packages_error_and_nothing_else(name, value):
    refused_or_fine(CALLS[name], value)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CALLS))
@LONG
@given(value=junk)
def test_invalid_input_long(name, value):
    refused_or_fine(CALLS[name], value)


# -- every string option of the public API, fed what is not a string (issue 21.18) -------------

arrays = st.one_of(
    st.lists(st.integers(-5, 5), min_size=0, max_size=4).map(np.array),
    st.lists(st.floats(allow_nan=True), min_size=1, max_size=3).map(np.array),
    st.integers(-3, 3).map(np.array),  # 0-d
    st.lists(st.sampled_from(["normal", "keep", "exact", "a"]), min_size=2, max_size=3).map(
        np.array
    ),
)
not_strings = st.one_of(
    arrays,
    st.none(),
    st.booleans(),
    st.integers(-(10**400), 10**400),
    st.floats(),
    st.binary(max_size=8),
    st.lists(st.one_of(st.integers(), st.text(max_size=4)), max_size=3),
    st.lists(st.lists(st.integers(), max_size=2), min_size=1, max_size=2),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.frozensets(st.integers(), max_size=2),
    st.just(object()),
)


def _string_options():
    out = []
    for name, args in STRING_OPTIONS.items():
        for arg in args:
            out.append(pytest.param(name, arg, id=f"{name}.{arg}"))
    return out


def _takes(name: str, arg: str, value) -> bool:
    """True where ``value``'s type is one the argument takes besides a string."""
    if value is None and (name, arg) in NONE_OK:
        return True
    if (name, arg) in LIST_OK and (
        isinstance(value, (list, frozenset))
        or (isinstance(value, np.ndarray) and (value.dtype.kind == "U" or value.size == 0))
    ):
        return True
    return (name, arg) in MAPPING_OK and isinstance(value, dict)


@pytest.mark.parametrize("name, arg", _string_options())
@QUICK
@given(value=not_strings)
def test_a_string_option_refuses_every_other_type_naming_the_field(name, arg, value):
    if _takes(name, arg, value):
        return  # then its items are checked as values: test_invalid_input covers them
    with pytest.raises(ExplodiceTypeError) as info:
        api_call(name, **{arg: value})
    assert isinstance(info.value, ExplodiceError) and isinstance(info.value, TypeError)
    assert arg in str(info.value).split(" must ", 1)[0], str(info.value)[:300]
