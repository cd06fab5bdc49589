"""Gauges over a day: drain, overflow to another gauge, disadvantage at 0, rolls until empty."""

import numpy as np
import pytest

import explodice as ex
from explodice.day import _kernel as _day_kernel
from tests.day_helpers import SCORES, close, hero


def chain_first_passage(drain_pmf, gauge, t_max):
    """P(T = t), t = 0..t_max, and P(T > t_max), by the transient matrix of levels 1..gauge."""
    q = np.zeros(gauge + 1)
    q[: min(gauge + 1, drain_pmf.size)] = drain_pmf[: gauge + 1]
    Q = np.zeros((gauge, gauge))  # level i + 1 -> level j + 1
    absorb = np.zeros(gauge)
    for i in range(gauge):
        level = i + 1
        for d in range(level):
            Q[i, level - d - 1] += q[d]
        absorb[i] = 1 - q[:level].sum()
    state = np.zeros(gauge)
    state[-1] = 1.0
    out = [0.0]
    for _ in range(t_max):
        out.append(state @ absorb)
        state = state @ Q
    return np.asarray(out), state.sum()


def test_one_point_gauge_by_hand():
    # a gauge of 1 point empties at the first kept 1; under keep, 3 dice show at least one 1
    # with probability 1 - (5/6)**3 = 91/216, so the number of rolls is geometric: 216/91
    r = ex.rolls_to_empty(modifier=2, gauge=1, dc=16)
    assert r.mean == pytest.approx(216 / 91, rel=1e-9)
    assert r.pmf[1] == pytest.approx(91 / 216, rel=1e-9)
    assert r.pmf[2] == pytest.approx(125 / 216 * 91 / 216, rel=1e-9)


def test_rolls_to_empty_simulated_agrees_with_exact():
    e = ex.rolls_to_empty(1, 6, 14, policy="cancel")
    s = ex.rolls_to_empty(
        1, 6, 14, policy="cancel", method="simulate", n_days=20_000, seed=5, threads=1
    )
    t = np.arange(e.pmf.size)
    sd = np.sqrt((e.pmf * (t - e.mean) ** 2).sum())
    assert close(s.mean, e.mean, sd / np.sqrt(20_000))
    assert set(s.to_frame().columns) >= {"rolls", "p", "count", "ci_low", "ci_high", "seed"}


def test_rolls_to_empty_refuses_a_roll_that_never_drains():
    with pytest.raises(ex.ExplodiceError, match="drains nothing"):
        ex.rolls_to_empty(0, 5, 12, kind="attack")


@pytest.mark.parametrize("policy,advantage", [("keep", 0), ("cancel", 1)])
def test_first_empty_matches_markov_chain(policy, advantage):
    gauge, t_max, n = 5, 25, 20_000
    who = hero(gauges={"PA": gauge, "PM": 0, "PF": 0, "PH": 0}, policy=policy)
    s = ex.Scenario(
        [who], [ex.DayRoll("Hero", skill="Acrobatics", dc=15, advantages=advantage, repeat=t_max)]
    )
    res = ex.simulate_day(s, n_days=n, seed=11, threads=1)
    drain = ex.exact(s.roll_of(0)).drain_pmf
    p, beyond = chain_first_passage(drain, gauge, t_max)
    counts = res.first[0]  # PA of the only character
    for t in range(t_max + 1):
        assert close(counts[t] / n, p[t], np.sqrt(p[t] * (1 - p[t]) / n)), t
    assert close(counts[t_max + 1] / n, beyond, np.sqrt(beyond * (1 - beyond) / n))
    frame = res.to_frame("first_empty")
    assert frame.loc[frame.never, "count"].sum() == counts[t_max + 1]


@pytest.mark.parametrize(
    "rules",
    [
        ex.Rules(),
        "lucky",  # Reroll("one") for every character: the face-by-face path of the kernel
        ex.Rules(
            disadvantage="drop", ones_on_explosions=True, rule_of_one_kinds=frozenset({"check"})
        ),
    ],
    ids=["default", "lucky", "drop-explosion-ones"],
)
def test_large_gauges_reproduce_exact_single_rolls(rules):
    big = {"PA": 10_000, "PM": 10_000, "PF": 10_000, "PH": 10_000}
    trait = {"reroll": ex.Reroll("one")} if rules == "lucky" else {}
    rules = ex.Rules() if rules == "lucky" else rules
    party = [
        hero(gauges=big, **trait),
        hero("Mage", gauges=big, policy=ex.Best(0, 0.1), **trait),
        ex.Character("Orc", SCORES, actor="npc", **trait),
    ]
    rolls = [
        ex.DayRoll("Hero", skill="Athletics", dc=16, advantages=1, weight=3),
        ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, weight=2),
        ex.DayRoll("Hero", ability="STR", kind="attack", dc=13),
        ex.DayRoll("Mage", skill="Arcana", dc=18, disadvantages=1, weight=2),
        ex.DayRoll("Orc", skill="Athletics", dc=14),
    ]
    s = ex.Scenario(party, rolls, rolls_per_day=40)
    n_days = 4000
    res = ex.simulate_day(s, rules, n_days=n_days, seed=3, threads=2)
    types = res.to_frame("roll_types")
    full = types[types.state == "gauge not empty"].reset_index(drop=True)
    assert (types[types.state == "gauge empty"].rolls == 0).all()
    weights = np.array([r.weight for r in rolls]) / sum(r.weight for r in rolls)
    total = n_days * 40
    for i, day_roll in enumerate(rolls):
        row = full.iloc[i]
        w = weights[i]
        assert close(row.rolls / total, w, np.sqrt(w * (1 - w) / total))
        d = ex.exact(s.roll_of(i), rules)
        p = d.p_success(day_roll.dc)
        assert close(row.p, p, np.sqrt(p * (1 - p) / row.rolls)), day_roll.label
        x = np.arange(d.drain_pmf.size)
        sd = np.sqrt((d.drain_pmf * (x - d.drain_mean) ** 2).sum())
        assert close(row.drain_mean, d.drain_mean, sd / np.sqrt(row.rolls)), day_roll.label
    assert full.drain_mean.iloc[4] == 0 and full.drain_mean.iloc[2] == 0  # NPC, attack
    if "save" not in rules.rule_of_one_kinds:
        assert full.drain_mean.iloc[1] == 0  # a save outside the rule of 1
    g = res.to_frame("gauges")
    assert (g.p_empty == 0).all() and (g.lost_mean == 0).all()
    assert list(g.character.unique()) == ["Hero", "Mage"]  # NPCs have no gauges


def test_empty_gauge_puts_its_abilities_at_disadvantage():
    rules = ex.Rules(disadvantage="drop")  # 2 dice: fewer successes and fewer 1s
    who = hero(gauges={"PA": 0, "PM": 5, "PF": 1000, "PH": 5})
    s = ex.Scenario(
        [who],
        [
            ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=3),
            ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, repeat=2),
        ],
    )
    n = 20_000
    res = ex.simulate_day(s, rules, n_days=n, seed=2, threads=1)
    types = res.to_frame("roll_types").set_index(["type", "state"])
    str_row = types.loc[(s.rolls[0].label, "gauge empty")]
    assert str_row.rolls == 3 * n and str_row.advantage == "disadvantage"
    dis = ex.exact(ex.Roll(2, advantage="disadvantage"), rules)
    normal = ex.exact(ex.Roll(2), rules)
    p = dis.p_success(14)
    assert close(str_row.p, p, np.sqrt(p * (1 - p) / str_row.rolls))
    assert str_row.p < normal.p_success(14) - 0.05  # fails if the rule is skipped
    x = np.arange(dis.drain_pmf.size)
    drain_sd = np.sqrt(dis.drain_pmf @ (x - 2 / 6 * 4.2) ** 2)
    # 2 dice: E[ones] = 1/3, E[drain] = 1/3 x 4.2 (3 dice would give 2.1)
    assert close(str_row.drain_mean, 2 / 6 * 4.2, drain_sd / np.sqrt(str_row.rolls))
    wis_row = types.loc[(s.rolls[1].label, "gauge not empty")]
    assert wis_row.rolls == 2 * n  # PF is full: WIS is not at disadvantage
    assert res.to_frame("gauges").set_index("gauge").loc["PA", "p_empty"] == 1.0


def test_own_advantage_nets_with_the_empty_gauge():
    who = hero(gauges={"PA": 0, "PM": 1, "PF": 1, "PH": 1})
    s = ex.Scenario(
        [who], [ex.DayRoll("Hero", ability="CON", kind="save", dc=14, advantages=2, repeat=4)]
    )
    n = 10_000
    res = ex.simulate_day(s, n_days=n, seed=8, threads=1)
    row = res.to_frame("roll_types").iloc[1]
    assert row.advantage == "normal"  # advantage + disadvantage -> neither
    p = ex.exact(ex.Roll(2)).p_success(14)
    assert close(row.p, p, np.sqrt(p * (1 - p) / row.rolls))


def test_overflow_pours_into_the_fullest_gauges_in_order():
    # two characters, one day (width 1): rows are levels, first empty roll, caused, points left
    n, gs = _day_kernel.gauge_state(8, 1)
    gs[:8] = [0, 5, 9, 9, 7, 7, 7, 7]
    gs[n : n + 8] = _day_kernel.NEVER
    gs[n] = 0
    gs[3 * n : 3 * n + 2] = [23, 28]

    def levels(c):
        return list(gs[4 * c : 4 * c + 4])

    left = _day_kernel.pour_fullest(gs, n, 1, 0, 0, 12, 3)
    # PF and PH tie at 9: PF (the first) takes 9, then PH (now the fullest) takes 3
    assert left == 0 and levels(0) == [0, 5, 0, 6] and gs[n + 2] == 3
    assert list(gs[3 * n : 3 * n + 2]) == [11, 28] and gs[n + 3] == _day_kernel.NEVER
    left = _day_kernel.pour_fullest(gs, n, 1, 1, 0, 100, 4)
    assert left == 100 - 11 and levels(0) == [0, 0, 0, 0]
    assert list(gs[n : n + 4]) == [0, 4, 3, 4] and list(gs[3 * n : 3 * n + 2]) == [0, 28]
    assert levels(1) == [7, 7, 7, 7]  # never into another character's gauges


@pytest.mark.parametrize("overflow", ["fullest", "lost"])
def test_overflow_rule_in_the_day(overflow):
    who = hero(gauges={"PA": 2, "PM": 30, "PF": 3, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=20)])
    n = 5000
    res = ex.simulate_day(s, ex.Rules(overflow=overflow), n_days=n, seed=4, threads=1)
    g = res.to_frame("gauges").set_index("gauge")
    caused = res.sums[:, 0].sum()
    absorbed = res.sums[:, 1].sum()
    assert caused == absorbed + res.lost_sum.sum()  # every point goes somewhere
    if overflow == "fullest":  # fails if the overflow is skipped
        assert g.loc["PM", "absorbed_mean"] > 20 and g.loc["PF", "absorbed_mean"] > 0
        assert g.loc["PA", "lost_mean"] < g.loc["PA", "caused_mean"] - 30
    else:
        assert g.loc["PM", "absorbed_mean"] == 0 and g.loc["PF", "absorbed_mean"] == 0
        assert res.lost_sum[0] == caused - res.sums[0, 1]


def test_empty_time_quantile_refuses_bad_q():
    r = ex.rolls_to_empty(modifier=2, gauge=3, dc=16)
    assert r.quantile(1e-9) >= 1 and r.quantile(0.5) == r.median
    for bad in (-0.1, 1.5, "half"):
        with pytest.raises(ex.ExplodiceError, match="`q`"):
            r.quantile(bad)
