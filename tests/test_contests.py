"""Initiative, hiding, haggling with Deception and lutte serrée: values derived by hand from
RULES.md, from the opposed-test PMFs, or by a plain enumeration / Monte Carlo written here."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

import explodice as ex
from explodice import Roll

Z = 4.5


# -- initiative -------------------------------------------------------------------------------
@pytest.mark.parametrize("system", ["3d6x", "d20"])
@pytest.mark.parametrize("mod_a, mod_b", [(3, 1), (1, 1), (0, 2)])
def test_initiative_of_two_from_the_opposed_test(system, mod_a, mod_b):
    # A acts first when its total is higher; on a tie, the higher DEX modifier, then a coin
    o = ex.opposed(Roll(mod_a), Roll(mod_b), system=system)
    tie_share = 1.0 if mod_a > mod_b else (0.5 if mod_a == mod_b else 0.0)
    r = ex.initiative({"A": mod_a, "B": mod_b}, system=system)
    assert r.p_first("A") == pytest.approx(o.win + tie_share * o.tie, abs=1e-12)
    assert r.p_first("B") == pytest.approx(o.loss + (1 - tie_share) * o.tie, abs=1e-12)


def _d20_orders_by_enumeration(mods):
    """P(each order) for d20 + mods by walking every face tuple and every coin order."""
    names = list(mods)
    out = {}
    for faces in itertools.product(range(1, 21), repeat=len(names)):
        keys = {n: (f + mods[n], mods[n]) for n, f in zip(names, faces)}
        # all orders consistent with the keys are equally likely among equal keys
        orders = [
            o
            for o in itertools.permutations(names)
            if all(keys[o[i]] >= keys[o[i + 1]] for i in range(len(o) - 1))
        ]
        for o in orders:
            out[o] = out.get(o, Fraction(0)) + Fraction(1, 20 ** len(names) * len(orders))
    return out


def test_initiative_orders_ranks_and_sides_by_enumeration():
    mods = {"A": 2, "B": 0, "C": 0}
    ref = _d20_orders_by_enumeration(mods)
    r = ex.initiative(mods, system="d20", sides={"hero": ["A"], "foes": ["B", "C"]})
    got = {tuple(o.split(" > ")): p for o, p in zip(r.orders.order, r.orders.p)}
    for order, p in ref.items():
        assert got[order] == pytest.approx(float(p), abs=1e-12)
    for name in mods:
        for rank in (1, 2, 3):
            p = sum(v for o, v in ref.items() if o.index(name) == rank - 1)
            row = r.ranks[(r.ranks.creature == name) & (r.ranks["rank"] == rank)]
            assert float(row.p.iloc[0]) == pytest.approx(float(p), abs=1e-12)
    sides = r.sides.set_index(["first", "second"]).p
    assert sides["hero", "foes"] == pytest.approx(float(ref["A", "B", "C"] + ref["A", "C", "B"]))
    assert sides["foes", "hero"] == pytest.approx(float(ref["B", "C", "A"] + ref["C", "B", "A"]))


def test_initiative_3d6x_against_a_monte_carlo():
    rng = np.random.default_rng(5)
    mods = {"A": 3, "B": 1, "C": 1, "D": 0}
    r = ex.initiative(mods, sides={"party": ["A", "D"], "monsters": ["B", "C"]})
    n = 100_000
    totals = {}
    for name, m in mods.items():
        d = ex.exact(Roll(m, kind="ability"))
        totals[name] = rng.choice(d.totals, size=n, p=d.total_pmf / d.total_pmf.sum())
    names = list(mods)
    keys = np.stack([totals[x] * 100 + mods[x] * 1.0 + rng.random(n) * 0.5 for x in names])
    order = np.argsort(-keys, axis=0)  # the coin is the random fraction among equal keys
    first = np.bincount(order[0], minlength=4) / n
    for i, name in enumerate(names):
        p = r.p_first(name)
        assert abs(first[i] - p) <= Z * np.sqrt(p * (1 - p) / n)
    rank_of = np.argsort(order, axis=0)  # rank_of[i]: place of creature i
    party_first = (np.maximum(rank_of[0], rank_of[3]) < np.minimum(rank_of[1], rank_of[2])).mean()
    p = float(r.sides.set_index(["first", "second"]).p["party", "monsters"])
    assert abs(party_first - p) <= Z * np.sqrt(p * (1 - p) / n)
    assert r.orders.p.sum() == pytest.approx(1.0, abs=1e-12)


def test_initiative_errors():
    with pytest.raises(ex.ExplodiceError, match="at least two"):
        ex.initiative({"A": 1})
    with pytest.raises(ex.ExplodiceError, match="sides.party"):
        ex.initiative({"A": 1, "B": 2}, sides={"party": ["Z"]})


# -- hiding -----------------------------------------------------------------------------------
@pytest.mark.parametrize("system", ["3d6x", "d20"])
def test_hiding_from_two_passives_is_one_dc_the_higher(system):
    h = ex.hide(Roll(3), passive=[12, 15], system=system)
    d = ex.exact(Roll(3)) if system == "3d6x" else ex.d20(Roll(3))
    assert h.p_hidden == pytest.approx(d.p_success(15), abs=1e-12)
    assert h.p_each["passive 12"] == pytest.approx(d.p_success(12), abs=1e-12)
    assert h.p_if_independent < h.p_hidden  # the events are positively dependent


def test_hiding_from_active_observers_shares_one_stealth_total():
    # d20 + 0 against two active d20 + 0: hidden when S >= both. By hand: sum over s of
    # 1/20 * (s/20)^2 = (1/8000) * sum s^2 = 2870 / 8000
    h = ex.hide(Roll(0), active=[Roll(0), Roll(0)], system="d20")
    assert h.p_hidden == pytest.approx(2870 / 8000, abs=1e-12)
    o = ex.opposed(Roll(0), Roll(0), system="d20")
    assert h.p_each["active 0"] == pytest.approx(o.win + o.tie, abs=1e-12)  # tie: still hidden
    assert h.p_if_independent == pytest.approx((o.win + o.tie) ** 2, abs=1e-12)
    assert sum(h.spotted) == pytest.approx(1.0) and h.spotted[0] == pytest.approx(h.p_hidden)


def test_hiding_3d6x_against_a_monte_carlo():
    rng = np.random.default_rng(8)
    n = 100_000
    draw = {m: ex.exact(Roll(m)) for m in (2, 1, 0)}
    sample = {
        m: rng.choice(d.totals, size=n, p=d.total_pmf / d.total_pmf.sum()) for m, d in draw.items()
    }
    hidden = (sample[2] >= 13) & (sample[2] >= sample[1]) & (sample[2] >= sample[0])
    p = ex.hide(Roll(2), passive=[13], active=[Roll(1), Roll(0)]).p_hidden
    assert abs(hidden.mean() - p) <= Z * np.sqrt(p * (1 - p) / n)


# -- haggling with Deception -------------------------------------------------------------------
def test_haggling_with_deception_rebuilt_from_the_two_pmfs():
    dc = 16
    persuasion, deception = ex.exact(Roll(5)), ex.exact(Roll(1))
    q = deception.p_success(dc)
    mean = noticed = 0.0
    for t, p in zip(persuasion.totals, persuasion.total_pmf):
        gain = 10 * (t - dc)
        if gain > 25:  # aim past 25 %: Deception decides between up to 50 % and 25 %
            mean += p * (q * min(gain, 50) + (1 - q) * 25)
            noticed += p * (1 - q)
        else:
            mean += p * max(gain, -25)
    h = ex.haggle(Roll(5), dc=dc, deception=Roll(1))
    assert h.mean == pytest.approx(mean, abs=1e-9)
    assert h.p_noticed == pytest.approx(noticed, abs=1e-12)
    assert h.pmf.index.max() == 50 and h.pmf.index.min() == -25
    assert ex.haggle(Roll(5), dc=dc).p_noticed is None


# -- lutte serrée -----------------------------------------------------------------------------
def test_aleksandr_example():
    # both bid 3 (both pay 3), then 4 against 3: Aleksandr pays 3 + 4, the brigand 3
    from explodice.analysis.close_contest import settle

    assert settle([3, 4], [3, 3]) == ("a", 7, 3)
    with pytest.raises(ex.ExplodiceError, match="equal bids"):
        settle([3], [3])


def test_close_contest_by_hand():
    # A bids 3 always, B uniform over 0..4: per round B < 3 (3/5) A wins paying 3, B = 4 (1/5)
    # B wins paying 4, B = 3 (1/5) both pay 3 and bid again. Rounds: geometric, ratio 1/5
    c = ex.close_contest(3, "uniform:4")
    assert c.p_win_a == pytest.approx(0.75, abs=1e-12)
    # E[ties] = (1/5) / (4/5) = 1/4, each costing 3 to both
    assert c.hp_a_mean == pytest.approx(3 / 4 + 0.75 * 3, abs=1e-12)
    assert c.hp_b_mean == pytest.approx(3 / 4 + 0.25 * 4, abs=1e-12)
    pmf = c.hp_pmf("a")
    # HP of A = 3 x (ties) + 3 if A wins: P(hp_a = 0) = B wins at once = 1/5
    assert pmf[0] == pytest.approx(0.2, abs=1e-12)
    assert pmf[3] == pytest.approx(3 / 5 + 1 / 5 * 1 / 5, abs=1e-12)  # win at once, or tie + B
    assert c.rounds_mean == pytest.approx(1.25)
    with pytest.raises(ex.ExplodiceError, match="always bid the same"):
        ex.close_contest(2, [0, 0, 1])


def test_close_contest_monte_carlo():
    rng = np.random.default_rng(3)
    a, b = [0.2, 0.5, 0.3], "uniform:3"
    c = ex.close_contest(a, b)
    n, wins, hp_a = 50_000, 0, 0
    for _ in range(n):
        while True:
            x, y = rng.choice(3, p=a), rng.integers(0, 4)
            if x != y:
                wins += x > y
                hp_a += x if x > y else 0
                break
            hp_a += x
    assert abs(wins / n - c.p_win_a) <= Z * np.sqrt(c.p_win_a * (1 - c.p_win_a) / n)
    assert abs(hp_a / n - c.hp_a_mean) <= 0.05


def test_success_table_gains_the_tie_when_close_contest_is_on():
    # 3d6x + 0 = 8 needs three faces 1..5 summing to 8 (a 6 explodes past 8): 18 / 216
    t = ex.success_table(
        modifiers=[0], dcs=[8], advantages=["normal"], rules=ex.Rules(close_contest=True)
    )
    assert t.p_tie.iloc[0] == pytest.approx(18 / 216, abs=1e-12)
    assert "p_tie" not in ex.success_table(modifiers=[0], dcs=[8], advantages=["normal"])
    d = ex.success_table(
        modifiers=[0],
        dcs=[11],
        system="d20",
        advantages=["normal"],
        rules=ex.Rules(close_contest=True),
    )
    assert d.p_tie.iloc[0] == pytest.approx(0.05, abs=1e-12)
    # with the bids: a total above the DC succeeds, one equal to it goes to the bids
    from explodice.analysis.close_contest import close_opposed

    x = close_opposed(Roll(0), dc=8, bids_a="uniform:2", bids_b="uniform:2")
    assert x.p_win_a == pytest.approx(t.p.iloc[0] - 18 / 216 + 18 / 216 * 0.5, abs=1e-12)


def test_haggling_with_deception_simulated_within_error():
    n = 100_000
    exact = ex.haggle(Roll(5), dc=16, deception=Roll(1))
    sim = ex.haggle(Roll(5), dc=16, deception=Roll(1), method="simulate", n=n, seed=4)
    x = exact.pmf.index.to_numpy()
    sd = np.sqrt(exact.pmf.to_numpy() @ (x - exact.mean) ** 2)
    assert abs(sim.mean - exact.mean) <= Z * sd * np.sqrt(2 / n)  # two independent samples
    p = exact.p_noticed
    assert abs(sim.p_noticed - p) <= Z * np.sqrt(2 * p * (1 - p) / n)


def test_default_bids_settle_and_match_the_hand_values():
    # both sides uniform over 0..5 by default: a round ties with 1/6, so 1.2 rounds; A pays
    # (sum a*a + sum a) / 36 = 70/36 a round (its bid when it wins, both pay on a tie)
    c = ex.close_contest("uniform:5", "uniform:5")
    s = c.summary()
    assert s["p_win_a"] == pytest.approx(0.5, abs=1e-12)
    assert s["rounds_mean"] == pytest.approx(1.2, abs=1e-12)
    assert s["hp_a_mean"] == pytest.approx(70 / 36 * 1.2, abs=1e-12)
    assert ex.close_opposed(Roll(0), Roll(0), dc=None).p_tie > 0  # the defaults finish
