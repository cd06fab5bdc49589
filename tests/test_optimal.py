"""The optimal day policy: a slow plain-Python DP, the fixed policies, the simulation."""

import itertools
from functools import cache

import numpy as np
import pytest

import explodice as ex
from explodice.engine.rule_of_one import policy_table
from tests import brute
from tests.day_helpers import SCORES, hero, lucky_party

DEPTH = 8  # explosions the slow DP follows: (1/6)**9 left out per die


# -- a second implementation: plain Python over every level, throw and choice -----------------
@cache
def p_success(kept_other, kept_sixes, malus, need):
    return brute.p_success_given(kept_other, kept_sixes, malus, need, DEPTH)


@cache
def drain_law(ones):
    law = {}
    for (d, _), p in brute.dice_sums(ones, DEPTH).items():
        law[d] = law.get(d, 0.0) + p
    return law


def best_throws(roll, dc, rules, after):
    """E over the initial throws of the best k's P(success) + the value ``after(d)`` of a
    drain ``d``: every throw and every k tried."""
    pool, malus = brute.pool_of(roll, rules)
    need = dc - roll.modifier
    total = 0.0
    for faces, p in brute.throws(pool, roll.reroll is not None):  # Lucky
        n1, n6 = faces.count(1), faces.count(6)
        mid = sum(f for f in faces if 1 < f < 6)
        best = None
        for k in range(min(n1, n6) + 1):
            a, b = n1 - k, n6 - k
            value = p_success(mid + a, b, malus, need)
            for d, q in drain_law(a).items():
                value += q * after(d)
            best = value if best is None else max(best, value)
        total += p * best
    return total


def slow_value(roll_full, roll_empty, dc, gauge, n_rolls, rules):
    """max over choices of E[successes] for one gauge, one roll type repeated ``n_rolls``
    times, by backward induction over the levels 0..gauge: each throw's every k tried."""
    V = [0.0] * (gauge + 1)
    for _ in range(n_rolls):
        new = []
        for level in range(gauge + 1):
            roll = roll_empty if level == 0 else roll_full
            new.append(
                best_throws(roll, dc, rules, lambda d, V=V, level=level: V[max(level - d, 0)])
            )
        V = new
    return V[gauge]


@pytest.mark.parametrize(
    "rules", [ex.Rules(), (ex.Rules(disadvantage="drop"), "lucky")], ids=["default", "lucky-drop"]
)
@pytest.mark.parametrize("gauge,n_rolls,dc", [(3, 4, 14), (5, 3, 16)])
def test_value_matches_a_slow_plain_python_dp(rules, gauge, n_rolls, dc):
    rules, lucky = rules if isinstance(rules, tuple) else (rules, False)
    trait = {"reroll": ex.Reroll("one")} if lucky else {}
    who = hero(gauges={"PA": gauge, "PM": 0, "PF": 0, "PH": 0}, **trait)
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=dc, repeat=n_rolls)])
    got = ex.optimal_policy(s, rules)
    want = slow_value(s.roll_of(0), s.roll_of(0, gauge_empty=True), dc, gauge, n_rolls, rules)
    assert got.value["Hero"] == pytest.approx(want, abs=1e-6)
    # played forward by the exact day, the policy scores its own value
    assert ex.exact_day(s, rules, policy=got).succ_t.sum() == pytest.approx(
        got.value["Hero"], abs=1e-10
    )


def test_last_roll_only_wants_to_succeed():
    # nothing is left to save for: the last roll's choice is best(λ=0)'s, throw by throw
    who = hero(gauges={"PA": 6, "PM": 0, "PF": 0, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=15, repeat=5)])
    choices = ex.optimal_policy(s).to_frame("choices")
    last = choices[(choices.roll == 5) & (choices.level > 0)]
    table = policy_table(s.roll_of(0).replace(policy=ex.Best(15, 0.0)), ex.Rules())
    assert len(last) > 0
    for row in last.itertuples():
        assert row.k == table[row.n1, row.n6, row.s], row
    assert (choices.k <= np.minimum(choices.n1, choices.n6)).all()


PARTY = [
    hero(gauges={"PA": 5, "PM": 3, "PF": 2, "PH": 0}),
    hero("Mage", gauges={"PA": 2, "PM": 6, "PF": 2, "PH": 1}, policy="cancel"),
    ex.Character("Orc", SCORES, actor="npc"),
]
ROLLS = [
    ex.DayRoll("Hero", skill="Athletics", dc=14, weight=3, repeat=3),
    ex.DayRoll("Mage", ability="INT", dc=16, weight=2, repeat=3),
    ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, repeat=2),
    ex.DayRoll("Orc", skill="Athletics", dc=12, repeat=2),
    ex.DayRoll("Mage", skill="Acrobatics", dc=13, advantages=1, repeat=2),
]


@pytest.mark.parametrize(
    "rules",
    [ex.Rules(), ex.Rules(overflow="lost"), (ex.Rules(ones_on_explosions=True), "lucky")],
    ids=["fullest", "lost", "explosion-ones-lucky"],
)
@pytest.mark.parametrize("mix", [True, False], ids=["mix", "sequence"])
def test_no_fixed_policy_beats_the_optimum(rules, mix):
    rules, lucky = rules if isinstance(rules, tuple) else (rules, False)
    s = lucky_party(ex.Scenario(PARTY, ROLLS, rolls_per_day=12 if mix else None), bool(lucky))
    best = ex.optimal_policy(s, rules)
    table = best.compare(lambdas=(0.0, 0.02, 0.05, 0.1, 0.3))
    assert set(table.character) == {"Hero", "Mage"}  # NPCs do not choose
    assert (table.optimal_gain >= -1e-10).all()
    assert set(table.policy) == {"optimal", "keep", "cancel", "best fixed λ"}
    played = ex.exact_day(s, rules, policy=best)
    for name in ("Hero", "Mage"):
        mine = [r for r, x in enumerate(s.rolls) if x.character == name]
        assert played.by_type[mine, :, 1].sum() == pytest.approx(best.value[name], abs=1e-9)
    assert played.omitted < 1e-12


def test_simulate_day_plays_the_optimal_policy():
    s = lucky_party(ex.Scenario(PARTY, ROLLS, rolls_per_day=12))  # the face-by-face path too
    rules = ex.Rules()
    best = ex.optimal_policy(s, rules)
    n = 40_000
    e = ex.exact_day(s, rules, policy=best)
    for r in (rules,):
        m = ex.simulate_day(s, r, n_days=n, seed=5, threads=2, policy=best)
        a, b = e.to_frame("success"), m.to_frame("success")
        assert np.all(np.abs(b.p - a.p) <= 4.5 * np.sqrt(a.p * (1 - a.p) / n))
        a, b = e.to_frame("empty"), m.to_frame("empty")
        p = np.clip(a.p.to_numpy(), 0, 1)
        assert np.all(np.abs(b.p.to_numpy() - p) <= 4.5 * np.sqrt(p * (1 - p) / n) + 1e-12)
    s2 = ex.Scenario(PARTY, ROLLS)
    best2 = ex.optimal_policy(s2)
    m = ex.simulate_day(s2, n_days=n, seed=6, threads=1, policy=best2)
    a = ex.exact_day(s2, policy=best2).to_frame("success")
    b = m.to_frame("success")
    assert np.all(np.abs(b.p - a.p) <= 4.5 * np.sqrt(a.p * (1 - a.p) / n))


def test_values_weigh_roll_types():
    who = hero(gauges={"PA": 4, "PM": 0, "PF": 3, "PH": 0})
    s = ex.Scenario(
        [who],
        [
            ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=3),
            ex.DayRoll("Hero", ability="WIS", kind="save", dc=13, repeat=3),
        ],
    )
    only_saves = ex.optimal_policy(s, values=(0.0, 1.0))
    played = ex.exact_day(s, policy=only_saves)
    assert played.by_type[1, :, 1].sum() == pytest.approx(only_saves.value["Hero"], abs=1e-10)
    keep = ex.exact_day(s)
    assert only_saves.value["Hero"] >= keep.by_type[1, :, 1].sum() - 1e-12
    with pytest.raises(ex.ExplodiceError, match="`values`"):
        ex.optimal_policy(s, values=(1.0,))
    with pytest.raises(ex.ExplodiceError, match="`values`"):
        ex.optimal_policy(s, values=(1.0, -1.0))


def test_readable_form_and_refusals():
    who = hero(gauges={"PA": 4, "PM": 0, "PF": 0, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=6)])
    best = ex.optimal_policy(s)
    th = best.to_frame("thresholds")
    assert list(th.columns) == [
        "character",
        "type",
        "gauge",
        "roll",
        "n1",
        "n6",
        "s",
        "cancel_up_to",
        "monotone",
    ]
    assert set(th.roll) == set(range(1, 7))
    assert "OptimalPolicy" in repr(best)
    with pytest.raises(ex.ExplodiceError, match="`what`"):
        best.to_frame("nope")
    other = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=15, repeat=6)])
    with pytest.raises(ex.ExplodiceError, match="another scenario"):
        ex.exact_day(other, policy=best)
    with pytest.raises(ex.ExplodiceError, match="another scenario"):
        ex.exact_day(s, ex.Rules(overflow="lost"), policy=best)


# -- a roll that drains one gauge and has disadvantage at another's 0 ------------------------------
def slow_value_split(s, rules):
    """The slow DP over every combination of levels (docs/rules.md's overflow, literally) for one
    character and a sequence of roll types, each drained and checked gauge read from the
    scenario: the DP the optimal player must match when the two gauges differ."""
    from tests.test_exact_day import pour

    who = s.characters[0]
    start = tuple(s.gauge_start()[who.name][g] for g in GAUGES_)
    states = list(np.ndindex(*(v + 1 for v in start)))
    V = {st: 0.0 for st in states}
    for r in reversed(s.sequence()):
        x = s.rolls[r]
        g, h = GAUGES_.index(x.drain_gauge(rules)), GAUGES_.index(x.gauge)
        new = {}
        for st in states:
            roll = s.roll_of(r, gauge_empty=st[h] == 0)
            after = lambda d, st=st, V=V, g=g: V[pour(st, g, d, rules.overflow)[0]]  # noqa: E731
            if rules.overflow == "best":  # the player picks each gauge in turn, seeing d
                orders = list(itertools.permutations([j for j in range(4) if j != g]))
                after = lambda d, st=st, V=V, g=g, o=orders: max(  # noqa: E731
                    V[pour(st, g, d, None, order=order)[0]] for order in o
                )
            new[st] = best_throws(roll, x.dc, rules, after)
        V = new
    return V[start]


GAUGES_ = ("PA", "PM", "PF", "PH")


@pytest.mark.parametrize(
    "rules",
    [ex.Rules(), ex.Rules(overflow="lost"), ex.Rules(overflow="PH"), ex.Rules(overflow="best")],
    ids=["fullest", "lost", "PH", "best"],
)
def test_a_split_roll_matches_the_slow_dp_and_the_simulation(rules):
    who = hero(gauges={"PA": 2, "PM": 0, "PF": 0, "PH": 3})
    rolls = [
        ex.DayRoll("Hero", skill="Intimidation", ability="STR", dc=14),  # drains PH, PA checked
        ex.DayRoll("Hero", skill="Athletics", dc=14),  # drains PA
    ]
    s = ex.Scenario([who], [rolls[0], rolls[0], rolls[1], rolls[0]])
    got = ex.optimal_policy(s, rules)
    assert got.value["Hero"] == pytest.approx(slow_value_split(s, rules), abs=1e-6)
    played = ex.exact_day(s, rules, policy=got)
    assert played.succ_t.sum() == pytest.approx(got.value["Hero"], abs=1e-10)
    assert (got.compare(lambdas=(0.0, 0.1)).optimal_gain >= -1e-10).all()
    n = 40_000
    if rules.overflow == "best":  # the kernel does not play the player's choice of gauge
        with pytest.raises(ex.ExplodiceError, match="overflow='best'"):
            ex.simulate_day(s, rules, n_days=10, policy=got)
        return
    m = ex.simulate_day(s, rules, n_days=n, seed=3, threads=1, policy=got)
    a, b = played.to_frame("success"), m.to_frame("success")
    assert np.all(np.abs(b.p - a.p) <= 4.5 * np.sqrt(a.p * (1 - a.p) / n))
    th = got.to_frame("thresholds")
    assert set(th[th.type == rolls[0].label].gauge) == {"PH"}  # the gauge it drains


@pytest.mark.parametrize(
    "rules", [ex.Rules(overflow="best"), ex.Rules(overflow="PM")], ids=["best", "PM"]
)
def test_the_player_who_picks_the_gauge_of_an_excess_matches_the_slow_dp(rules):
    # PH's excess may go to PA (whose 0 hinders the Intimidation) or to PM (INT's gauge)
    who = hero(gauges={"PA": 2, "PM": 2, "PF": 0, "PH": 2})
    rolls = [
        ex.DayRoll("Hero", skill="Intimidation", ability="STR", dc=14),  # drains PH, PA checked
        ex.DayRoll("Hero", skill="Arcana", dc=15),  # an INT check: drains PM
    ]
    s = ex.Scenario([who], [rolls[0], rolls[0], rolls[1], rolls[0], rolls[1]])
    got = ex.optimal_policy(s, rules)
    assert got.value["Hero"] == pytest.approx(slow_value_split(s, rules), abs=1e-6)
    played = ex.exact_day(s, rules, policy=got)
    assert played.succ_t.sum() == pytest.approx(got.value["Hero"], abs=1e-10)
    assert played.first.sum(axis=1)[:4] == pytest.approx(1.0, abs=1e-12)  # every day ends
    fullest = ex.optimal_policy(s, ex.Rules()).value["Hero"]
    if rules.overflow == "best":  # choosing the gauge never loses, and here it gains
        assert got.value["Hero"] > fullest + 1e-4
        with pytest.raises(ex.ExplodiceError, match="distributions"):
            ex.exact_day(s, rules, policy=got, distributions=True)


def test_the_optimal_player_refuses_a_reroll_on_failure():
    who = hero(gauges={"PA": 3, "PM": 0, "PF": 0, "PH": 0}, reroll=ex.Reroll("failure", per_day=1))
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=3)])
    with pytest.raises(ex.ExplodiceError, match="reroll on failure"):
        ex.optimal_policy(s)
    assert ex.exact_day(s).succ_t.size == 3  # the exact day plays it
    # an NPC's reroll is no choice of a player: the optimum plays around it
    orc = ex.Character("Orc", SCORES, actor="npc", reroll=ex.Reroll("failure", per_day=1))
    rolls = [
        ex.DayRoll("Hero2", skill="Athletics", dc=14),
        ex.DayRoll("Orc", skill="Athletics", dc=12),
    ]
    s2 = ex.Scenario([hero("Hero2", gauges={"PA": 3, "PM": 0, "PF": 0, "PH": 0}), orc], rolls * 2)
    best = ex.optimal_policy(s2)
    assert ex.exact_day(s2, policy=best).by_type[[0, 2], :, 1].sum() == pytest.approx(
        best.value["Hero2"], abs=1e-10
    )


def test_the_choices_table_decodes_each_key_as_the_throws_do():
    # to_frame("choices") decodes the choice keys of a whole line of levels at once
    # (optimal.py, _choice_rows): every row must be Throws.choices' own, throw by throw, for
    # keys that use every digit of the mixed radix (the first throw most significant)
    from explodice.day.optimal import _choice_rows

    rng = np.random.default_rng(34)
    policy = ex.optimal_policy(ex.Scenario(PARTY, ROLLS))
    tried = 0
    for pl in policy.players.values():
        for th in pl.throws:
            sizes = [int(np.prod(th.kmax[th.first[v] : th.last[v]] + 1)) for v in (0, 1)]
            if max(sizes) <= 1:
                continue
            variant = rng.integers(0, 2, 12)
            key = np.array([rng.integers(0, sizes[v]) for v in variant])
            want = [
                (lv, *row)
                for lv, (v, k) in enumerate(zip(variant.tolist(), key.tolist()))
                for row in th.choices(v, k)
            ]
            assert _choice_rows(th, variant, key).tolist() == [list(w) for w in want]
            tried += 1
    assert tried >= 2
