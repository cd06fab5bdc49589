"""Initiative (docs/rules.md, "Initiative"): the order of two from the opposed test, ranks and
sides by a plain enumeration and a Monte Carlo written here, and the input it refuses (the
bugs of issue 26.5)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import explodice as ex
from explodice import Roll
from explodice.analysis.initiative import MAX_CREATURES
from explodice.core.errors import ExplodiceError

Z = 4.5


@pytest.mark.parametrize("system", ["3d6x", "d20"])
@pytest.mark.parametrize("mod_a, mod_b", [(3, 1), (1, 1), (0, 2)])
def test_initiative_of_two_from_the_opposed_test(system, mod_a, mod_b):
    # A acts first when its total is higher; on a tie, the higher DEX modifier, then a coin
    o = ex.opposed(Roll(mod_a), Roll(mod_b), system=system)
    tie_share = 1.0 if mod_a > mod_b else (0.5 if mod_a == mod_b else 0.0)
    r = ex.initiative({"A": mod_a, "B": mod_b}, system=system)
    assert r.p_first("A") == pytest.approx(o.win + tie_share * o.tie, abs=1e-12)
    assert r.p_first("B") == pytest.approx(o.loss + (1 - tie_share) * o.tie, abs=1e-12)


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


def test_a_creature_named_twice_is_refused_not_dropped():
    # the command line's `A=3 A=5 B=1` as pairs: a mapping would have kept A=5 without a word
    with pytest.raises(ExplodiceError, match="'A' is given twice"):
        ex.initiative([("A", 3), ("A", 5), ("B", 1)])
    r = ex.initiative([("A", 3), ("B", 1)])  # pairs are a way to give creatures
    assert r.p_first("A") == pytest.approx(ex.initiative({"A": 3, "B": 1}).p_first("A"))


@pytest.mark.parametrize(
    "sides, message",
    [
        ({"x": ["A", "A"], "y": ["B"]}, "'A' twice on it"),  # gave 18.4 % / 46.9 %
        ({"x": ["A"], "y": ["A", "B"]}, "on 'x' too"),
        ({"x": ["A"], "y": ["B"], "z": []}, "non-empty"),
        ({"x": ["A"]}, "two sides or more"),  # printed an empty table
        ({"x": ["A"], "y": ["B"]}, "'C' is on none"),  # C left out of every side
        ({"x": ["A", "Z"], "y": ["B", "C"]}, "names of creatures"),
        ({"x": ["A", 3], "y": ["B", "C"]}, "names of creatures"),
    ],
)
def test_sides_must_split_the_creatures(sides, message):
    with pytest.raises(ExplodiceError, match=message):
        ex.initiative({"A": 3, "B": 1, "C": 0}, sides=sides)


def test_sides_that_split_the_creatures_sum_to_one_with_the_interleavings():
    # two sides of one creature each: one of them acts first, surely
    r = ex.initiative({"A": 3, "B": 1}, sides={"x": ["A"], "y": ["B"]})
    p = r.sides.set_index(["first", "second"]).p
    assert p["x", "y"] + p["y", "x"] == pytest.approx(1.0, abs=1e-12)
    assert p["x", "y"] == pytest.approx(r.p_first("A"), abs=1e-12)


def test_initiative_refuses_a_roll_with_a_reroll_on_failure_and_past_its_limit():
    with pytest.raises(ExplodiceError, match="no DC to fail"):
        ex.initiative({"A": Roll(2, reroll=ex.Reroll("failure", dc=12)), "B": 1})
    ex.initiative({"A": Roll(2, reroll=ex.Reroll("one")), "B": 1})  # Lucky is allowed
    with pytest.raises(ExplodiceError, match=f"at most {MAX_CREATURES} creatures"):
        ex.initiative({f"c{i}": i % 5 for i in range(MAX_CREATURES + 1)})


@pytest.mark.parametrize("system", ["3d6x", "d20"])
def test_exact_ranks_agree_with_a_per_creature_computation(system):
    rng = np.random.default_rng(7)
    states = ["normal", "advantage", "disadvantage"]
    mods = {
        f"c{i}": Roll(int(rng.integers(-1, 3)), advantage=rng.choice(states), kind="ability")
        for i in range(9)
    }
    r = ex.initiative(mods, system=system)
    want = _ranks_one_creature_at_a_time(mods, system)
    got = r.ranks.pivot(index="creature", columns="rank", values="p").loc[list(mods)].to_numpy()
    assert np.abs(got - want).max() < 1e-12
    assert np.allclose(got.sum(axis=0), 1.0) and np.allclose(got.sum(axis=1), 1.0)


def test_a_large_initiative_is_exact_and_quick_enough_to_test():
    # 60 creatures of one DEX took 20 s: every rank of identical creatures is 1/60
    r = ex.initiative({f"goblin {i}": 2 for i in range(60)})
    assert np.allclose(r.ranks.p, 1 / 60, atol=1e-12)


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


def _ranks_one_creature_at_a_time(mods: dict, system: str) -> np.ndarray:
    """P(rank) by the former method, a second computation: for each creature, the joint
    count of creatures ahead and tied (a polynomial in two variables), then a fair coin
    among the tied ones."""
    names = list(mods)
    dists = [ex.d20(m) if system == "d20" else ex.exact(m) for m in mods.values()]
    dex = [m.modifier for m in mods.values()]
    lo = min(d.lo for d in dists)
    hi = max(d.lo + d.total_pmf.size for d in dists)
    p = np.zeros((len(names), hi - lo + 1))
    for i, d in enumerate(dists):
        p[i, d.lo - lo : d.lo - lo + d.total_pmf.size] = d.total_pmf / d.total_pmf.sum()
    n = len(names)
    out = np.zeros((n, n))
    for i in range(n):
        for t in np.flatnonzero(p[i]):
            poly = np.zeros((n, n))
            poly[0, 0] = 1.0
            for j in range(n):
                if j == i:
                    continue
                ahead = p[j, t + 1 :].sum() + p[j, t] * (dex[j] > dex[i])
                tied = p[j, t] * (dex[j] == dex[i])
                new = poly * (1 - ahead - tied)
                new[1:, :] += poly[:-1, :] * ahead
                new[:, 1:] += poly[:, :-1] * tied
                poly = new
            for a in range(n):
                for b in range(n - a):
                    out[i, a : a + b + 1] += p[i, t] * poly[a, b] / (b + 1)
    return out


def test_the_initiative_question_records_the_roll_each_creature_makes():
    """Provenance (issue 31): each creature's policy and reroll, as rolled for initiative: a
    Character's Lucky kept, its reroll on failure left out (no DC to fail), a modifier plain."""
    from explodice.questions.initiative import InitiativeInputs
    from explodice.questions.registry import ask

    scores = dict(STR=10, DEX=14, CON=10, INT=10, WIS=10, CHA=10)
    lucky = ex.Character("Lu", scores, policy="cancel", reroll=ex.Reroll("one"))
    careful = ex.Character("Ca", scores, reroll=ex.Reroll("failure", dc=12))
    inputs = InitiativeInputs((("Lu", lucky), ("Ca", careful), ("Orc", 1)), systems=("d20",))
    prov = ask("initiative", inputs).provenance
    assert prov.method == "exact"
    assert prov.policies == (
        ("Lu", "cancel", "one"),
        ("Ca", "keep", "none"),
        ("Orc", "keep", "none"),
    )
