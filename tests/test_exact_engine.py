"""The exact engine against values derived by hand from docs/rules.md and a brute-force enumerator."""

import importlib

import numpy as np
import pytest

import explodice.engine.dice as dice
from explodice import Best, Distribution, Roll, Rules, exact
from tests import brute

exact_mod = importlib.import_module("explodice.engine.exact")
policy_mod = importlib.import_module("explodice.engine.rule_of_one")


# -- hand-derived values -----------------------------------------------------------------


def test_omitted_mass_is_reported_and_below_1e_12():
    for roll in [Roll(0, advantage="advantage"), Roll(0, advantage="disadvantage"), Roll(0)]:
        d = exact(roll, Rules(ones_on_explosions=True))
        assert 0 <= d.omitted < 1e-12
        assert abs(d.pmf.sum() + d.omitted - 1) < 1e-15


def test_quantiles_and_frames():
    d = exact(Roll(0))
    # totals up to 12 need at most one explosion per die: the enumerator counts them exactly
    low = brute.enumerate_roll(Roll(0), Rules(rule_of_one_kinds=set()), 1)
    cdf = {t: sum(p for (u, _, _), p in low.items() if u <= t) for t in (10, 11, 12)}
    assert cdf[10] < 0.5 <= cdf[11]  # so the median is 11 (3d6 without explosions: 10.5)
    assert d.median == 11 and d.quantile(0.5) == 11
    assert d.cdf(11) == pytest.approx(cdf[11], abs=1e-12)
    assert d.quantile([0.0, 1 - 1e-9]).tolist()[0] == 3
    frame = d.to_frame()
    assert list(frame.columns) == ["total", "p"] and frame.p.sum() == pytest.approx(1, abs=1e-12)
    joint = d.to_frame(("total", "drain", "kept_ones"))
    assert joint.p.sum() == pytest.approx(1, abs=1e-12)
    assert (joint.drain[joint.kept_ones == 0] == 0).all()
    assert d.p_drain_at_least(1) == pytest.approx(1 - (5 / 6) ** 3, abs=1e-12)


# -- the engine against the brute-force enumerator, at the same cut ------------------------
@pytest.fixture
def shallow_cut(monkeypatch):
    """Cut every die after one explosion, in the engine as in the enumerator."""
    caches = [
        dice.exploding_die,
        dice.exploding_sum,
        dice.chains,
        policy_mod.chain_survival,
        policy_mod.policy_table,
        exact_mod._joint,
    ]

    def clear():
        for c in caches:
            c.cache_clear()

    clear()
    monkeypatch.setattr(dice, "MAX_EXPLOSIONS", 1)
    monkeypatch.setattr(exact_mod, "OMITTED_LIMIT", 1.0)
    monkeypatch.setattr(exact_mod, "_TRIM", 0.0)
    yield 1
    clear()


CASES = [
    (Roll(1), Rules()),
    (Roll(1, advantage="advantage", policy="cancel"), Rules()),
    (Roll(0, advantage="disadvantage"), Rules()),
    (Roll(0, advantage="disadvantage", policy="cancel"), Rules(disadvantage="drop")),
    (Roll(2, actor="npc"), Rules(ones_on_explosions=True)),
    (Roll(2, kind="attack", reroll="one"), Rules()),
    (Roll(2, kind="save", policy="cancel", reroll="one"), Rules(ones_on_explosions=True)),
    (Roll(3, policy=Best(16, 0.0)), Rules()),
    (Roll(3, policy=Best(14, 0.05), advantage="disadvantage"), Rules(ones_on_explosions=True)),
    (Roll(-1, policy=Best(12, 0.02), advantage="advantage", reroll="one"), Rules()),
    (Roll(0, kind="attack"), Rules(rule_of_one_kinds={"attack"})),
    # the readings of issue 25: Lucky after the rule of 1's choice, a plain malus die
    (Roll(1, policy="cancel", reroll="one"), Rules(lucky_timing="after_choice")),
    (Roll(0, reroll="one"), Rules(lucky_timing="after_choice", ones_on_explosions=True)),
    (Roll(2, actor="npc", reroll="one", advantage="advantage"), Rules(lucky_timing="after_choice")),
    (Roll(2, kind="attack", reroll="one"), Rules(lucky_timing="after_choice")),
    (Roll(3, policy=Best(16, 0.0), reroll="one"), Rules(lucky_timing="after_choice")),
    (
        Roll(-1, policy=Best(12, 0.05), advantage="advantage", reroll="one"),
        Rules(lucky_timing="after_choice", ones_on_explosions=True),
    ),
    (Roll(0, advantage="disadvantage"), Rules(malus_die="plain")),
    (Roll(3, policy=Best(14, 0.05), advantage="disadvantage"), Rules(malus_die="plain")),
    (
        Roll(1, policy="cancel", advantage="disadvantage", reroll="one"),
        Rules(malus_die="plain", lucky_timing="after_choice", ones_on_explosions=True),
    ),
    (Roll(0, advantage="disadvantage"), Rules(malus_die="plain", disadvantage="drop")),
]


@pytest.mark.parametrize(
    "roll, rules", CASES, ids=[f"{r.describe()}|{u.describe()}" for r, u in CASES]
)
def test_engine_equals_brute_force(shallow_cut, roll, rules):
    d = exact(roll, rules)
    ref = brute.enumerate_roll(roll, rules, depth=shallow_cut)
    got = {}
    for i, dr, c in zip(*np.nonzero(d.pmf)):
        got[(int(i) + d.lo, int(dr), int(c))] = float(d.pmf[i, dr, c])
    keys = set(got) | set(ref)
    worst = max(abs(got.get(k, 0.0) - ref.get(k, 0.0)) for k in keys)
    assert worst < 1e-15
    assert sum(ref.values()) == pytest.approx(d.pmf.sum(), abs=1e-14)


def test_a_distribution_does_not_freeze_the_callers_array():
    p = np.array([0.25, 0.5, 0.25])
    d = Distribution.from_total_pmf(p, 2)
    p[0] = 0.0  # still the caller's to change
    with pytest.raises(ValueError):
        d.pmf[0, 0, 0] = 1.0  # but the result is read-only


# -- the cache: rules keyed by what the roll reads of them ---------------------------------
def _each_switch_moved() -> list[Rules]:
    """The default rules and each switch moved alone to each of its other values."""
    from explodice.analysis.sensitivity import variants

    return [Rules()] + [v.rules for v in variants()] + [Rules(rule_of_one_kinds=frozenset())]


@pytest.mark.parametrize("advantage", ["normal", "advantage", "disadvantage"])
def test_a_law_cached_by_what_the_roll_reads_is_the_law_under_the_whole_rules(advantage):
    # exact() keys its cache by read_by(roll, rules): every switch it leaves at its default
    # must be one the law does not read, so the cached law is the one computed from scratch
    # under the whole rules, array for array, for every switch moved
    rolls = [
        Roll(0, advantage=advantage, kind=kind, actor=actor, policy=policy, reroll=reroll)
        for kind, actor, policy in [
            ("check", "pc", "keep"),
            ("save", "pc", Best(14, 0.1)),
            ("ability", "pc", "cancel"),
            ("attack", "npc", "keep"),
        ]
        for reroll in (None, "one")
    ]
    for rules in _each_switch_moved():
        for roll in rolls:
            d = exact(roll, rules)
            pmf, lo, omitted = exact_mod._law(roll, rules)
            assert (d.lo, d.omitted) == (lo, omitted), (roll, rules)
            assert d.pmf.shape == pmf.shape and np.array_equal(d.pmf, pmf), (roll, rules)
            fresh = Distribution(pmf, lo)
            for name in _LO_FREE:  # shared between the law's distributions
                assert np.array_equal(getattr(d, name), getattr(fresh, name)), name


_LO_FREE = ("total_pmf", "drain_pmf", "ones_pmf", "_total_sf", "_mass", "drain_mean", "ones_mean")


def test_the_distributions_of_one_law_share_what_does_not_depend_on_the_modifier():
    roll = Roll(2, advantage="advantage", policy="cancel")
    d, e = exact(roll, Rules()), exact(roll.replace(modifier=-3), Rules(overflow="lost"))
    assert d.shared is e.shared  # one law: 3d6x with advantage, whatever the modifier
    for name in _LO_FREE:
        assert np.array_equal(getattr(d, name), getattr(Distribution(d.pmf, d.lo), name))
        assert getattr(e, name) is getattr(d, name)
    assert d.mean - e.mean == pytest.approx(5.0, abs=1e-12)
    assert d.p_success(14) == e.p_success(9)
    with pytest.raises(ValueError):
        d.total_pmf[0] = 1.0  # read-only: another distribution reads it too


def test_a_distribution_is_pickled_without_what_other_distributions_fill():
    import pickle

    d = exact(Roll(1, policy="cancel"), Rules())
    before = pickle.dumps(d)
    assert exact(Roll(-2, policy="cancel"), Rules()).drain_mean > 0  # fills the shared dict
    assert pickle.dumps(d) == before  # the bytes do not depend on what the others read
    e = pickle.loads(before)
    assert e.shared is None and e.drain_mean == d.drain_mean and e.p_success(9) == d.p_success(9)


@pytest.mark.parametrize("min_sixes", [2, 3])
def test_a_kept_sixes_law_cached_by_what_the_roll_reads_is_the_law_under_the_whole_rules(
    min_sixes,
):
    # exact_kept_sixes (a critical hit's count of 6s) reads the same cache, keyed the same way
    rolls = [
        Roll(0, advantage=adv, kind="attack", actor=actor, policy=policy, reroll=reroll)
        for adv in ("normal", "advantage", "disadvantage")
        for actor, policy in [("pc", Best(16, 0.1)), ("npc", "keep")]
        for reroll in (None, "one")
    ]
    for rules in _each_switch_moved():
        for roll in rolls:
            pmf, lo, _, _ = exact_mod._joint(roll, exact_mod.read_by(roll, rules), min_sixes)
            want, want_lo, _ = exact_mod._law(roll, rules, min_sixes)
            assert lo == want_lo and np.array_equal(pmf, want), (roll, rules)
