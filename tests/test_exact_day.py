"""The exact day: against hand values, a plain-Python chain, rolls_to_empty and simulate_day."""

import io

import numpy as np
import pandas as pd
import pytest

import explodice as ex
from explodice.game.character import GAUGES
from explodice.present import cli
from tests.day_helpers import SCORES, Z, hero, lucky_party


# -- a second chain, plain Python over dict states, the drain laws from the exact engine --------
def pour(levels, g, amount, rule, order=None):
    """docs/rules.md's overflow, literally: returns (new levels, points lost). ``rule``: "fullest"
    (or True; "best" without a player's choice), "lost" (or False) or a gauge's name; or, with
    ``order``, the gauges the player picks in turn (``overflow="best"``)."""
    levels = list(levels)
    got = min(amount, levels[g])
    levels[g] -= got
    excess = amount - got
    named = {"PA": 0, "PM": 1, "PF": 2, "PH": 3}
    if order is not None:  # the player's choice: each gauge of the order in turn
        for h in order:
            got = min(excess, levels[h]) if h != g else 0
            levels[h] -= got
            excess -= got
        return tuple(levels), excess
    if rule in named:  # that gauge alone, unless it is the drained one
        h = named[rule]
        got = min(excess, levels[h]) if h != g else 0
        levels[h] -= got
        return tuple(levels), excess - got
    while rule in (True, "fullest", "best") and excess > 0:
        live = [j for j in range(4) if levels[j] > 0]
        if not live:
            break
        h = max(live, key=lambda j: (levels[j], -j))  # fullest, ties to PA, PM, PF, PH order
        got = min(excess, levels[h])
        levels[h] -= got
        excess -= got
    return tuple(levels), excess


def _engine_laws(roll, rules, dc):
    """From the single-roll engine: (P(success), drain PMF) with no reroll in hand and, when
    the roll carries a reroll on failure, (P(success), drain if the first roll succeeds,
    drain if it fails and the reroll is spent) with one."""
    plain = roll if roll.reroll_dc is None else roll.replace(reroll=None)  # Lucky stays
    d = ex.exact(plain, rules)
    if not plain.drains(rules):
        pmf = d.pmf.sum(axis=(1, 2))[:, None]  # [total, drain 0]: nothing drains
    else:
        pmf = d.pmf.sum(axis=2)  # [total, drain]
    ok = np.arange(pmf.shape[0]) + d.lo >= dc
    drains = pmf.sum(axis=0)
    if roll.reroll_dc is None:
        return (d.p_success(dc), drains), None
    won, failed = pmf[ok].sum(axis=0), pmf[~ok].sum(axis=0)
    used = np.convolve(failed, drains) if roll.advantage == "normal" else failed
    return (d.p_success(dc), drains), (ex.exact(roll, rules).p_success(dc), won, used)


def brute_day(scenario, rules, sums=False, top=None):
    """{table: values} for the first character, by enumeration of its levels and of the
    rerolls on failure it still holds; with ``sums``, also of the drain each gauge caused and
    the points lost so far (clamped at the last bin, drains below 1e-14 left out)."""
    who = scenario.characters[0]
    start = tuple(scenario.gauge_start()[who.name][g] for g in GAUGES)
    seq = scenario.sequence()
    total_w = sum(r.weight for r in scenario.rolls)
    laws = {}
    for r, day_roll in enumerate(scenario.rolls):
        for empty in (False, True):
            laws[r, empty] = _engine_laws(
                scenario.roll_of(r, gauge_empty=empty), rules, day_roll.dc
            )
    rr = who.reroll if who.reroll is not None and who.reroll.trigger == "failure" else None
    cap = None if rr is None else rr.per_day  # None with a reroll: every failure rerolled
    if top is None:
        top = 64 + 16 * scenario.n_rolls - 1  # simulate_day's last bin: "this many or more"
    held = 0 if rr is None else (cap if cap is not None else 1)
    states = {(start, held, (0, 0, 0, 0), 0): 1.0}
    succ, lost, empty_after = [], 0.0, [[float(v == 0) for v in start]]
    for t in range(scenario.n_rolls):
        types = (
            [(seq[t], 1.0)]
            if seq
            else [(r, x.weight / total_w) for r, x in enumerate(scenario.rolls)]
        )
        nxt, s_t = {}, 0.0
        for (levels, u, caused, gone), p in states.items():
            for r, w in types:
                day_roll = scenario.rolls[r]
                if day_roll.character != who.name:
                    key = (levels, u, caused, gone)
                    nxt[key] = nxt.get(key, 0.0) + p * w
                    continue
                g = GAUGES.index(day_roll.drain_gauge(rules))
                plain, reroll = laws[r, levels[GAUGES.index(day_roll.gauge)] == 0]
                if reroll is None or u == 0:
                    branches = [(plain[0], plain[1], u)]
                else:
                    spent = u if cap is None else u - 1
                    branches = [(reroll[0], reroll[1], u), (0.0, reroll[2], spent)]
                for k, (p_succ, drains, u_next) in enumerate(branches):
                    s_t += p * w * p_succ if k == 0 else 0.0
                    for d, q in enumerate(drains):
                        if q == 0.0 or sums and q < 1e-14:
                            continue
                        new, lost_d = pour(levels, g, d, rules.overflow)
                        if sums:
                            c2 = list(caused)
                            c2[g] = min(c2[g] + d, top)
                            key = (new, u_next, tuple(c2), min(gone + lost_d, top))
                        else:
                            key = (new, u_next, caused, gone)
                        nxt[key] = nxt.get(key, 0.0) + p * w * q
                        lost += p * w * q * lost_d
        states = nxt
        succ.append(s_t)
        empty_after.append([sum(p for k, p in states.items() if k[0][j] == 0) for j in range(4)])
    end_mean = [sum(p * k[0][j] for k, p in states.items()) for j in range(4)]
    caused_pmf, lost_pmf = np.zeros((4, top + 1)), np.zeros(top + 1)
    for (_, _, caused, gone), p in states.items():
        for j in range(4):
            caused_pmf[j, caused[j]] += p
        lost_pmf[gone] += p
    return {
        "succ": np.array(succ),
        "lost": lost,
        "empty": np.array(empty_after),
        "end_mean": np.array(end_mean),
        "caused": caused_pmf,
        "lost_pmf": lost_pmf,
    }


MIX = [
    ex.DayRoll("Hero", skill="Athletics", dc=14, weight=2),
    ex.DayRoll("Hero", ability="INT", dc=15, advantages=1),
    ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, disadvantages=1),
    ex.DayRoll("Orc", skill="Athletics", dc=12),
    ex.DayRoll("Hero", ability="CHA", dc=10, advantages=1),
]


@pytest.mark.parametrize(
    "rules",
    [
        ex.Rules(),
        ex.Rules(overflow="lost"),
        (ex.Rules(disadvantage="drop", ones_on_explosions=True), "lucky"),
        ex.Rules(overflow="PM"),
        ex.Rules(overflow="best"),  # a fixed policy: the fullest
        (ex.Rules(lucky_timing="after_choice", malus_die="plain"), "lucky"),
    ],
    ids=["fullest", "lost", "drop-lucky-explosion-ones", "PM", "best", "lucky-after-plain"],
)
@pytest.mark.parametrize("policy", ["keep", ex.Best(0, 0.05)])
def test_chain_matches_plain_python_enumeration(rules, policy):
    rules, lucky = rules if isinstance(rules, tuple) else (rules, False)
    gauges = {"PA": 3, "PM": 2, "PF": 2, "PH": 0}  # PH at 0: CHA at disadvantage all day
    party = [hero(gauges=gauges, policy=policy), ex.Character("Orc", SCORES, actor="npc")]
    for s in (
        ex.Scenario(party, MIX, rolls_per_day=6),
        ex.Scenario(party, [MIX[0], MIX[3], MIX[2], MIX[1], MIX[0]]),
    ):
        s = lucky_party(s, bool(lucky))
        _matches_brute(s, rules)


def _matches_brute(s, rules):
    """exact_day of ``s`` against :func:`brute_day` on every table it gives; the result."""
    want = brute_day(s, rules)
    got = ex.exact_day(s, rules)
    assert got.succ_t == pytest.approx(want["succ"] + _npc_success(s, rules), abs=1e-9)
    empty = np.cumsum(got.first[:4, :-1], axis=1).T
    assert empty == pytest.approx(want["empty"], abs=1e-9)
    assert got.lost_sum[0] == pytest.approx(want["lost"], abs=1e-9)
    end = got.gauge_start[:4] - got.sums[:4, 1]
    assert end == pytest.approx(want["end_mean"], abs=1e-9)
    assert got.omitted < 1e-12
    return got


def _npc_success(s, rules):
    """The Orc's share of each roll's success (the brute chain counts the Hero's only)."""
    p = {
        r: ex.exact(s.roll_of(r), rules).p_success(x.dc)
        for r, x in enumerate(s.rolls)
        if x.character == "Orc"
    }
    seq = s.sequence()
    if seq:
        return np.array([p.get(r, 0.0) for r in seq])
    total = sum(x.weight for x in s.rolls)
    return np.full(s.n_rolls, sum(s.rolls[r].weight / total * v for r, v in p.items()))


# -- hand values and the one-gauge special case -------------------------------------------------
def test_one_point_gauge_by_hand():
    # a gauge of 1 empties at the first kept 1: 1 - (5/6)**3 = 91/216 per roll (keep)
    who = hero(gauges={"PA": 1, "PM": 0, "PF": 0, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=16, repeat=3)])
    r = ex.exact_day(s)
    q = 91 / 216
    assert r.first[0, 1:].tolist() == pytest.approx(
        [q, (1 - q) * q, (1 - q) ** 2 * q, (1 - q) ** 3], abs=1e-12
    )
    assert r.first[1:4, 0].tolist() == [1.0, 1.0, 1.0]  # gauges of 0 points: empty at the start


@pytest.mark.parametrize(
    "gauge,policy,advantage", [(7, "keep", 0), (12, "cancel", 1), (20, ex.Best(0, 0.1), 0)]
)
def test_rolls_to_empty_is_the_one_gauge_case(gauge, policy, advantage):
    T = 30
    who = hero(gauges={"PA": gauge, "PM": 0, "PF": 0, "PH": 0}, policy=policy)
    s = ex.Scenario(
        [who], [ex.DayRoll("Hero", skill="Acrobatics", dc=15, advantages=advantage, repeat=T)]
    )
    e = ex.exact_day(s)
    ref = ex.rolls_to_empty(
        1,
        gauge,
        15,
        policy=policy if isinstance(policy, str) else policy.weight,
        advantage="advantage" if advantage else "normal",
    )
    assert e.first[0, 1 : T + 1] == pytest.approx(ref.pmf[1 : T + 1], abs=1e-12)
    assert e.first[0, T + 1] == pytest.approx(1 - ref.pmf[: T + 1].sum(), abs=1e-12)


def test_full_gauges_give_the_single_roll_and_an_empty_one_nets_advantage():
    big = {"PA": 60, "PM": 60, "PF": 0, "PH": 60}  # three rolls cannot empty 60 points
    who = hero(gauges=big)
    rolls = [
        ex.DayRoll("Hero", skill="Athletics", dc=16, advantages=1),
        ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, advantages=1),
        ex.DayRoll("Hero", ability="INT", kind="attack", dc=13),
    ]
    s = ex.Scenario([who], rolls)
    r = ex.exact_day(s)
    assert r.succ_t[0] == pytest.approx(
        ex.exact(ex.Roll(2, advantage="advantage")).p_success(16), abs=1e-12
    )
    # PF at 0: the save's advantage meets one disadvantage source, netted to a normal roll
    assert r.succ_t[1] == pytest.approx(ex.exact(ex.Roll(0, kind="save")).p_success(12), abs=1e-12)
    assert r.drain_t[0] == pytest.approx(
        ex.exact(ex.Roll(2, advantage="advantage")).drain_mean, abs=1e-9
    )
    assert r.drain_t[2] == 0.0  # an attack: outside the rule of 1


def test_every_point_goes_somewhere():
    who = hero(gauges={"PA": 2, "PM": 30, "PF": 3, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=20)])
    for overflow in ("fullest", "lost"):
        r = ex.exact_day(s, ex.Rules(overflow=overflow))
        assert r.sums[:, 0].sum() == pytest.approx(r.sums[:, 1].sum() + r.lost_sum.sum(), rel=1e-10)
        if overflow == "lost":
            assert r.sums[1, 1] == 0 and r.sums[2, 1] == 0


# -- against the simulation, every table ----------------------------------------------------------
def _z_ok(sim, exact, se):
    se = np.asarray(se, dtype=float)
    return np.all(np.abs(np.asarray(sim, float) - np.asarray(exact, float)) <= Z * se + 1e-9)


@pytest.mark.parametrize(
    "rules",
    [
        ex.Rules(),
        ex.Rules(overflow="lost", disadvantage="drop"),
        (ex.Rules(ones_on_explosions=True), "lucky"),
        ex.Rules(overflow="PA"),
    ],
    ids=["fullest", "lost-drop", "lucky-explosion-ones", "PA"],
)
@pytest.mark.parametrize("mix", [True, False], ids=["mix", "sequence"])
def test_simulate_day_agrees_on_every_table(rules, mix):
    rules, lucky = rules if isinstance(rules, tuple) else (rules, False)
    party = [
        hero(gauges={"PA": 6, "PM": 4, "PF": 3, "PH": 0}, policy=ex.Best(0, 0.05)),
        hero("Mage", gauges={"PA": 2, "PM": 8, "PF": 2, "PH": 2}, policy="cancel"),
        ex.Character("Orc", SCORES, actor="npc"),
    ]
    rolls = [
        ex.DayRoll("Hero", skill="Athletics", dc=14, weight=3, repeat=4),
        ex.DayRoll("Mage", ability="INT", dc=15, weight=2, repeat=3),
        ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, repeat=2),
        ex.DayRoll("Orc", skill="Athletics", dc=12, repeat=2),
        ex.DayRoll("Mage", skill="Acrobatics", dc=13, advantages=1, repeat=3),
    ]
    s = lucky_party(ex.Scenario(party, rolls, rolls_per_day=14 if mix else None), bool(lucky))
    _agrees_on_every_table(s, rules, ["Hero", "Mage"])


@pytest.mark.parametrize("mix", [True, False], ids=["mix", "sequence"])
def test_simulate_day_agrees_with_rerolls_and_split_gauges(mix):
    # simulate_day plays a reroll on failure die by die with numpy (explodice.day.reroll_day)
    party = [
        hero(gauges={"PA": 4, "PM": 0, "PF": 3, "PH": 2}, reroll=ex.Reroll("failure", per_day=2)),
        hero("Mage", gauges={"PA": 2, "PM": 5, "PF": 2, "PH": 2}, reroll=ex.Reroll("failure")),
        ex.Character("Orc", SCORES, actor="npc", reroll=ex.Reroll("failure", per_day=1)),
    ]
    rolls = [SPLIT[0], SPLIT[1], SPLIT[2], SPLIT[3]]
    rolls += [
        ex.DayRoll("Mage", ability="INT", dc=15, weight=2, repeat=2),
        ex.DayRoll("Mage", skill="Intimidation", ability="STR", dc=12, advantages=1),
    ]
    s = ex.Scenario(party, rolls, rolls_per_day=10 if mix else None)
    _agrees_on_every_table(s, ex.Rules(), ["Hero", "Mage"])


def _agrees_on_every_table(s, rules, pcs):
    n = 20_000
    e = ex.exact_day(s, rules)
    m = ex.simulate_day(s, rules, n_days=n, seed=7, threads=1)
    assert e.omitted < 1e-12
    for what, keys in (
        ("empty", ["character", "gauge", "roll"]),
        ("first_empty", ["character", "gauge", "roll", "never"]),
        ("success", ["roll"]),
    ):
        a, b = e.to_frame(what), m.to_frame(what)
        both = a.merge(b, on=keys, how="outer", suffixes=("_e", "_s"))
        pe = np.clip(both["p_e"].fillna(0.0).to_numpy(float), 0.0, 1.0)  # 1 + 2e-16 happens
        ps = both["p_s"].fillna(0.0).to_numpy(float)
        assert _z_ok(ps, pe, np.sqrt(pe * (1 - pe) / n)), what
        assert (a.method == "exact").all() and a.n_days.isna().all()
        # an exact table says p, and leaves out what only a sample has (issue 21)
        assert not {"count", "successes", "ci_low", "ci_high"} & set(a.columns), what
    a, b = e.to_frame("roll_types"), m.to_frame("roll_types")
    assert _z_ok(b.rolls / n, a.rolls, np.sqrt(a.rolls * 3 / n))  # counts per day, loosely
    seen = (b.rolls > 100).to_numpy()
    assert _z_ok(b.p[seen], a.p[seen], np.sqrt(a.p * (1 - a.p) / b.rolls)[seen])
    sd = np.sqrt(
        np.maximum(
            e.by_type[:, :, 3] / np.where(e.by_type[:, :, 0] > 0, e.by_type[:, :, 0], 1)
            - (a.drain_mean.to_numpy().reshape(-1, 2)) ** 2,
            0,
        )
    ).ravel()
    assert _z_ok(b.drain_mean[seen], a.drain_mean[seen], (sd / np.sqrt(b.rolls))[seen])
    ga, gb = e.to_frame("gauges"), m.to_frame("gauges")
    for g in range(len(ga)):
        idx = 4 * pcs.index(ga.character[g]) + GAUGES.index(ga.gauge[g])
        caused_sd = _sd(m.caused[idx])
        end_sd = _sd(m.end[idx])
        assert _z_ok(gb.caused_mean[g], ga.caused_mean[g], caused_sd / np.sqrt(n) + 1e-12)
        assert _z_ok(gb.end_mean[g], ga.end_mean[g], end_sd / np.sqrt(n) + 1e-12)
        lost_sd = _sd(m.lost[idx // 4])
        assert _z_ok(gb.lost_mean[g], ga.lost_mean[g], lost_sd / np.sqrt(n) + 1e-12)
    assert not {"ci_low", "ci_high"} & set(ga.columns)  # exact: no interval to show


def _sd(hist):
    x = np.arange(hist.size)
    n = hist.sum()
    mean = hist @ x / n
    return float(np.sqrt(hist @ (x - mean) ** 2 / n))


# -- the result object ----------------------------------------------------------------------------
def test_exact_result_tables_and_refusals():
    who = hero(gauges={"PA": 5, "PM": 5, "PF": 5, "PH": 5})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=8)])
    r = ex.exact_day(s)
    assert isinstance(r, ex.DayResult) and r.exact and "exact" in repr(r)
    for what in ("gauges", "first_empty", "empty", "success", "roll_types"):
        df = r.to_frame(what)
        assert (df.method == "exact").all(), what
    first = r.to_frame("first_empty").query("gauge == 'PA'")
    assert first.p.sum() == pytest.approx(1.0, abs=1e-12)
    for what in ("drain", "lost"):
        with pytest.raises(ex.ExplodiceError, match="distributions=True"):
            r.to_frame(what)
    assert "<table" in r._repr_html_()
    huge = hero(gauges={"PA": 100, "PM": 100, "PF": 100, "PH": 100})
    with pytest.raises(ex.ExplodiceError, match="at most"):
        ex.exact_day(ex.Scenario([huge], [ex.DayRoll("Hero", ability="STR")]))
    with pytest.raises(TypeError, match="Scenario"):
        ex.exact_day("day")


def test_cli_day_exact(tmp_path, capsys):
    path = tmp_path / "day.toml"
    path.write_text(
        """
name = "mines"
rolls_per_day = 6
[[character]]
name = "Gudulf"
scores = { FOR = 16, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }
gauge_max = { PA = 4, PM = 0, PF = 2, PH = 0 }
[[roll]]
character = "Gudulf"
ability = "FOR"
dc = 16
""",
        encoding="utf-8",
    )
    assert cli.main(["day", str(path), "--exact", "--format", "csv", "--table", "empty"]) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out), comment="#")
    want = ex.exact_day(ex.load_scenario(path)).to_frame("empty")
    assert out.p.to_numpy() == pytest.approx(want.p.to_numpy(), abs=1e-9)
    assert (out.method == "exact").all()
    assert cli.main(["day", str(path), "--exact", "--format", "csv", "--table", "drain"]) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out), comment="#")
    want = ex.exact_day(ex.load_scenario(path), distributions=True).to_frame("drain")
    assert out.p.to_numpy() == pytest.approx(want.p.to_numpy(), abs=1e-9)
    assert out.groupby("gauge").p.sum().to_numpy() == pytest.approx(1.0, abs=1e-9)
    assert cli.main(["day", str(path), "--days", "200", "--seed", "1", "--format", "csv"]) == 0
    assert "simulate" in capsys.readouterr().out  # a scenario is simulated by default


def test_a_pc_without_rolls_keeps_its_gauges():
    idle = hero("Idle", gauges={"PA": 300, "PM": 300, "PF": 300, "PH": 0})  # 27M states
    s = ex.Scenario(
        [hero(gauges={"PA": 3, "PM": 0, "PF": 0, "PH": 0}), idle],
        [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=4)],
    )
    g = ex.exact_day(s).to_frame("gauges").set_index(["character", "gauge"])
    assert g.loc[("Idle", "PA"), "p_empty"] == 0.0 and g.loc[("Idle", "PA"), "end_mean"] == 300
    assert g.loc[("Idle", "PH"), "p_empty"] == 1.0  # a gauge of 0 points: empty from the start


# -- rerolls on failure and a drain on another gauge (the day's rerolls by hand: test_day_rerolls.py)


SPLIT = [
    # STR (Intimidation): PA at 0 gives disadvantage; its kept 1s drain PH (drain_gauge="skill")
    ex.DayRoll("Hero", skill="Intimidation", ability="STR", dc=13, weight=2),
    ex.DayRoll("Hero", skill="Athletics", dc=14, weight=2),
    ex.DayRoll("Hero", ability="WIS", kind="save", dc=12),
    ex.DayRoll("Orc", skill="Athletics", dc=12),
]


@pytest.mark.parametrize(
    "rules",
    [ex.Rules(), ex.Rules(overflow="lost", disadvantage="drop"), ex.Rules(drain_gauge="roll")],
    ids=["fullest", "lost-drop", "drain-roll"],
)
@pytest.mark.parametrize("reroll", [None, 2, "always"], ids=["no-reroll", "two-a-day", "always"])
def test_rerolls_and_split_gauges_match_plain_python_enumeration(rules, reroll):
    trait = (
        None
        if reroll is None
        else ex.Reroll("failure", per_day=None if reroll == "always" else reroll)
    )
    gauges = {"PA": 3, "PM": 0, "PF": 2, "PH": 2}
    party = [hero(gauges=gauges, reroll=trait), ex.Character("Orc", SCORES, actor="npc")]
    for s in (
        ex.Scenario(party, SPLIT, rolls_per_day=6),
        ex.Scenario(party, [SPLIT[0], SPLIT[1], SPLIT[3], SPLIT[0], SPLIT[2], SPLIT[0]]),
    ):
        got = _matches_brute(s, rules)
    # the drain caused lands on the gauge the rules name
    caused = got.to_frame("gauges").set_index("gauge").caused_mean
    assert (caused["PH"] > 0) == (rules.drain_gauge == "skill")


# -- the distributions of a day's drain and points lost ---------------------------------------------
@pytest.mark.parametrize(
    "rules,trait",
    [(ex.Rules(), None), (ex.Rules(overflow="lost"), 1), (ex.Rules(disadvantage="drop"), "always")],
    ids=["fullest", "lost-one-reroll", "drop-always-reroll"],
)
def test_drain_and_lost_distributions_match_plain_python_enumeration(rules, trait):
    per_day = None if trait == "always" else trait
    reroll = None if trait is None else ex.Reroll("failure", per_day=per_day)
    party = [
        hero(gauges={"PA": 3, "PM": 0, "PF": 2, "PH": 2}, reroll=reroll),
        ex.Character("Orc", SCORES, actor="npc"),
    ]
    s = ex.Scenario(party, [SPLIT[0], SPLIT[1], SPLIT[3], SPLIT[0]])
    want = brute_day(s, rules, sums=True)
    got = ex.exact_day(s, rules, distributions=True)
    for j in range(4):
        assert got.caused[j] == pytest.approx(want["caused"][j], abs=1e-9), GAUGES[j]
    assert got.lost[0] == pytest.approx(want["lost_pmf"], abs=1e-9)
    assert got.lost[1].tolist() == [1.0] + [0.0] * (got.lost.shape[1] - 1)  # the Orc
    # the distributions' means are the means the day gives without them
    bins = np.arange(got.caused.shape[1])
    assert got.caused[:4] @ bins == pytest.approx(got.sums[:4, 0], abs=1e-9)
    assert got.lost[0] @ bins == pytest.approx(got.lost_sum[0], abs=1e-9)
    df = got.to_frame("drain")
    assert (df.method == "exact").all() and df.groupby("gauge").p.sum().to_numpy() == (
        pytest.approx(1.0, abs=1e-9)
    )


def test_drain_distributions_under_the_optimal_policy_and_the_simulation():
    who = hero(gauges={"PA": 5, "PM": 0, "PF": 0, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=15, repeat=10)])
    best = ex.optimal_policy(s)
    e = ex.exact_day(s, policy=best, distributions=True)
    assert e.caused[0] @ np.arange(e.caused.shape[1]) == pytest.approx(e.sums[0, 0], abs=1e-9)
    n = 40_000
    m = ex.simulate_day(s, n_days=n, seed=11, threads=1, policy=best)
    for what, key in (("drain", ["gauge", "drain"]), ("lost", ["lost"])):
        a, b = e.to_frame(what), m.to_frame(what)
        both = a.merge(b, on=key, how="outer", suffixes=("_e", "_s"))
        pe, ps = both.p_e.fillna(0.0).to_numpy(), both.p_s.fillna(0.0).to_numpy()
        # a count of a few where the exact p is tiny: Poisson's bound, not the normal's
        assert _z_ok(ps, pe, np.sqrt(np.maximum(pe * (1 - pe), 2e-4) / n)), what


def test_distributions_too_large_are_refused():
    who = hero(gauges={"PA": 20, "PM": 20, "PF": 20, "PH": 20})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=40)])
    with pytest.raises(ex.ExplodiceError, match="`distributions`.*simulate_day"):
        ex.exact_day(s, distributions=True)


@pytest.mark.parametrize("overflow", ["fullest", "lost"])
def test_the_last_sum_holds_that_many_or_more(overflow, monkeypatch):
    # few bins, so the clamp and the lumps past it carry real mass (the brute clamps the same)
    import explodice.day.results as results_module

    monkeypatch.setattr(results_module, "histogram_bins", lambda scenario: 9)
    who = hero(gauges={"PA": 3, "PM": 0, "PF": 2, "PH": 2}, reroll=ex.Reroll("failure", per_day=1))
    s = ex.Scenario([who], [SPLIT[0], SPLIT[1], SPLIT[0], SPLIT[2]])
    rules = ex.Rules(overflow=overflow)
    got = ex.exact_day(s, rules, distributions=True)
    want = brute_day(s, rules, sums=True, top=8)
    assert got.caused.shape[1] == 9 and got.caused[:, -1].max() > 0.05
    for j in range(4):
        assert got.caused[j] == pytest.approx(want["caused"][j], abs=1e-9), GAUGES[j]
    assert got.lost[0] == pytest.approx(want["lost_pmf"], abs=1e-9)
    assert got.to_frame("drain").query("clamped").drain.eq(8).all()


def test_distributions_is_a_bool():
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", skill="Athletics", dc=14)])
    with pytest.raises(TypeError, match="`distributions`"):
        ex.exact_day(s, distributions="no")


def test_the_numbers_do_not_depend_on_the_threads():
    # a chain large enough to be played in two halves (explodice.day.chain.SPLIT_STATES)
    who = hero(gauges={"PA": 24, "PM": 20, "PF": 20, "PH": 20})
    rolls = [ex.DayRoll("Hero", skill=k, dc=15) for k in ("Athletics", "Arcana", "Persuasion")]
    s = ex.Scenario([who], rolls, rolls_per_day=6)
    alone = ex.Scenario([who], rolls[:1], rolls_per_day=3)  # one group: a roll in two halves
    for day in (s, alone):  # several groups: in two lanes
        one, two = ex.exact_day(day, threads=1), ex.exact_day(day, threads=2)
        for name in ("first", "succ_t", "drain_t", "by_type", "end", "sums", "lost_sum"):
            assert np.array_equal(getattr(one, name), getattr(two, name)), name
    best1, best2 = ex.optimal_policy(s, threads=1), ex.optimal_policy(s, threads=2)
    assert best1.value == best2.value
    with pytest.raises(ex.ExplodiceError, match="`threads`"):
        ex.exact_day(s, threads=0)


# -- a character's day played once for every day that reads the same facts -------------------
def _day_arrays(r):
    return {k: getattr(r, k) for k in ("first", "succ_t", "drain_t", "by_type", "end", "sums")} | {
        "lost_sum": r.lost_sum,
        "omitted": np.array(r.omitted),
    }


def test_a_day_played_from_its_characters_remembered_days_is_the_day_played_anew():
    # exact_day plays each PC's day once for every day whose facts it reads are the same
    # (day/exact.py, _played): in any order, every array must be the one a fresh play gives,
    # to the last bit; each rules moves one character's day, or none, or every one
    exact_mod = __import__("explodice.day.exact", fromlist=["_PLAYED"])
    gauges = {"PA": 2, "PM": 1, "PF": 2, "PH": 1}
    party = [hero(gauges=gauges), hero("Saver", gauges=gauges, policy="cancel")]
    rolls = [
        ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=3),
        ex.DayRoll("Saver", ability="WIS", kind="save", dc=12, repeat=3),
        ex.DayRoll("Hero", ability="STR", dc=13, disadvantages=1, repeat=2),
    ]
    s = ex.Scenario(party, rolls)
    rules = [
        ex.Rules(),
        ex.Rules(overflow="lost"),  # the gauges, every character
        ex.Rules(rule_of_one_kinds=frozenset({"check"})),  # the saver's rolls only
        ex.Rules(malus_die="plain"),  # the rolls at disadvantage only
        ex.Rules(disadvantage="drop"),
        # with "drop", P(success) to the last bit as under "drop" alone, the drain laws not
        ex.Rules(disadvantage="drop", ones_on_explosions=True),
        ex.Rules(hiding_ties="observer"),  # no roll of the day
    ]
    fresh = []
    for r in rules:
        exact_mod._PLAYED.clear()
        fresh.append(_day_arrays(ex.exact_day(s, r)))
    exact_mod._PLAYED.clear()
    for order in (rules, rules[::-1]):
        for r in order:
            got = _day_arrays(ex.exact_day(s, r))
            want = fresh[rules.index(r)]
            for name, value in want.items():
                assert np.array_equal(got[name], value), (r, name)
    assert not np.array_equal(fresh[0]["end"], fresh[1]["end"])  # the rules do move them
    assert not np.array_equal(fresh[0]["by_type"][1], fresh[2]["by_type"][1])
    assert np.array_equal(fresh[0]["by_type"][0], fresh[2]["by_type"][0])
    assert not np.array_equal(fresh[4]["drain_t"], fresh[5]["drain_t"])
