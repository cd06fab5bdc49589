"""The rule of 1: which throws drain, the choice to cancel a 1 against a 6 (keep, cancel, best(λ),
the NPC's forced cancel, kinds outside the rule), the drain's law and the success/drain frontier,
against hand-derived values and the engine.

Its scope is the switch ``Rules.rule_of_one_kinds`` (game/rules.py), the choice a policy table
(engine/rule_of_one.py), the gauges a day (tests/test_gauges.py).
"""

import itertools
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import explodice as ex
from explodice import Best, Roll, Rules, exact
from explodice.engine.dice import initial_states
from explodice.engine.rule_of_one import policy_table


def _reachable_table(modifier, dc, weight, advantage="normal"):
    """The engine's own best(λ) table, restricted to the initial throws that can happen."""
    roll = ex.Roll(modifier, advantage=advantage, policy=ex.Best(dc, weight))
    table = policy_table(roll, ex.Rules())
    return tuple(int(table[s]) for s in sorted(initial_states(roll.pool_size(ex.Rules()), False)))


@pytest.mark.parametrize(
    "modifier,dc,advantage",
    [(2, 16, "normal"), (0, 12, "normal"), (4, 22, "advantage"), (1, 16, "disadvantage")],
)
def test_breakpoints_are_exactly_where_the_engine_table_changes(modifier, dc, advantage):
    cuts = ex.breakpoints(modifier, dc, advantage=advantage)
    assert cuts.size > 0 and (np.diff(cuts) > 0).all()
    for b in cuts:  # the table changes across each breakpoint...
        assert _reachable_table(modifier, dc, b * (1 - 1e-7), advantage) != _reachable_table(
            modifier, dc, b * (1 + 1e-7), advantage
        )
    # ...and nowhere else: a dense grid sees one table per segment
    edges = np.concatenate([[0.0], cuts, [cuts[-1] * 3]])
    for lo, hi in zip(edges[:-1], edges[1:]):
        tables = {
            _reachable_table(modifier, dc, x, advantage) for x in np.linspace(lo, hi, 9)[1:-1]
        }
        assert len(tables) == 1


def test_frontier_ends_and_prices():
    df = ex.frontier(2, 16)
    assert df.policy.iloc[0] == "keep" and df.policy.iloc[-1] == "cancel"
    keep, cancel = ex.exact(ex.Roll(2)), ex.exact(ex.Roll(2, policy="cancel"))
    assert df.p_success.iloc[0] == pytest.approx(keep.p_success(16), abs=1e-12)
    assert df.drain_mean.iloc[-1] == pytest.approx(cancel.drain_mean, abs=1e-12)
    assert df.p_success.iloc[-1] == pytest.approx(cancel.p_success(16), abs=1e-12)
    # cancelling a pair never raises the total: best(0) succeeds exactly as often as keep
    assert df.p_success.iloc[1] == pytest.approx(df.p_success.iloc[0], abs=1e-12)
    # Lagrangian envelope: between neighbouring vertices ΔP/ΔE[drain] is the breakpoint λ
    inner = df.iloc[2:]
    np.testing.assert_allclose(inner.price, inner.lambda_lo, rtol=1e-9)
    assert df.knee.sum() == 1
    lam = df.attrs["implied_lambda"]
    assert 0 <= lam <= df.lambda_lo.iloc[-1]
    # λ* is the chord slope from best(0) to cancel, read from the exact engine directly
    best0 = ex.exact(ex.Roll(2, policy=ex.Best(16, 0.0)))
    chord = (best0.p_success(16) - cancel.p_success(16)) / (best0.drain_mean - cancel.drain_mean)
    assert lam == pytest.approx(chord, rel=1e-12)
    # the knee is the vertex farthest above that chord, both axes scaled to [0, 1] (Kneedle)
    pts = df[df.policy != "keep"]
    x = (pts.drain_mean - cancel.drain_mean) / (best0.drain_mean - cancel.drain_mean)
    y = (pts.p_success - cancel.p_success(16)) / (best0.p_success(16) - cancel.p_success(16))
    assert pts.knee.to_numpy()[int(np.argmax((y - x).to_numpy()))]


def test_cancel_end_matches_hand_enumeration():
    # under cancel, kept 1s = n1 - min(n1, n6), enumerated over the 216 throws of 3d6
    ones = sum(
        Fraction(f.count(1) - min(f.count(1), f.count(6)), 216)
        for f in product(range(1, 7), repeat=3)
    )
    df = ex.frontier(0, 16)
    assert df.ones_mean.iloc[-1] == pytest.approx(float(ones), abs=1e-12)
    # (the exact engine cuts the drain's infinite tail below 1e-12 of mass)
    assert df.drain_mean.iloc[-1] == pytest.approx(float(ones) * 4.2, abs=1e-10)
    assert df.drain_mean.iloc[0] == pytest.approx(2.1, abs=1e-10)  # keep: 0.5 x 4.2


def test_attack_has_no_choice():
    df = ex.frontier(3, 14, kind="attack")
    assert ex.breakpoints(3, 14, kind="attack").size == 0
    assert list(df.policy) == ["keep", "cancel"]
    assert (df.drain_mean == 0).all()


def test_drain_tables_by_hand():
    df = ex.drain_frame(ex.Roll(0), upto=6)
    p = dict(zip(df.drain, df.p))
    assert p[0] == pytest.approx(125 / 216, abs=1e-12)  # no 1 among three dice
    # drain 1: exactly one kept 1 (75/216) whose drain die shows 1 (1/6);
    # drain 2: that die shows 2, or two kept 1s (15/216) both showing 1 (1/36)
    assert p[1] == pytest.approx(75 / 216 / 6, abs=1e-12)
    assert p[2] == pytest.approx(75 / 216 / 6 + 15 / 216 / 36, abs=1e-12)
    tail = dict(zip(df.drain, df.p_at_least))
    assert tail[1] == pytest.approx(91 / 216, abs=1e-12)
    s = ex.drain_summary({"normal": ex.Roll(0), "adv": ex.Roll(0, advantage="advantage")})
    np.testing.assert_allclose(s.drain_mean, [2.1, 4 / 6 * 4.2], atol=1e-10)
    assert s.p_drain_ge_1.iloc[1] == pytest.approx(1 - (5 / 6) ** 4, abs=1e-12)


def test_drain_by_gauge_of_a_character():
    hero = ex.Character("Hero", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8))
    s = ex.drain_summary(hero)
    assert list(s.gauge) == ["PA", "PA", "PA", "PM", "PF", "PH"]
    np.testing.assert_allclose(s.drain_mean, 2.1, atol=1e-10)


@pytest.mark.parametrize("upto", [-1, 2.5, "3"])
def test_drain_frame_refuses_a_bad_upto(upto):
    with pytest.raises(ex.ExplodiceError, match=r"`upto` must be an integer >= 0"):
        ex.drain_frame(ex.Roll(0), upto=upto)


def test_cancel_npc_attack_and_lucky_by_counting_throws():
    throws = list(itertools.product(range(1, 7), repeat=3))
    pairs = [min(t.count(1), t.count(6)) for t in throws]
    kept_ones = np.mean([t.count(1) - k for t, k in zip(throws, pairs)])
    # a cancelled pair removes 1 + 6 + an exploding die (4.2) from the total
    mean_cancel = 12.6 - np.mean(pairs) * (1 + 6 + 4.2)
    cancel = exact(Roll(0, policy="cancel"))
    assert cancel.ones_mean == pytest.approx(kept_ones, abs=1e-12)
    assert cancel.drain_mean == pytest.approx(4.2 * kept_ones, abs=1e-9)
    assert cancel.mean == pytest.approx(mean_cancel, abs=1e-9)
    npc = exact(Roll(0, actor="npc"))
    assert npc.drain_mean == 0 and npc.ones_mean == pytest.approx(kept_ones, abs=1e-12)
    assert npc.mean == pytest.approx(mean_cancel, abs=1e-9)
    attack = exact(Roll(0, kind="attack", policy="cancel"))
    assert attack.drain_mean == 0 and attack.ones_mean == 0
    assert attack.mean == pytest.approx(12.6, abs=1e-9)
    # lucky: a throw with a 1 rerolls one of them: E[1s] falls by P(any 1) * 5/6
    lucky = exact(Roll(0, reroll="one"), Rules())
    ones = 0.5 - (1 - (5 / 6) ** 3) * 5 / 6
    assert lucky.ones_mean == pytest.approx(ones, abs=1e-12)
    # the rerolled 1 becomes a uniform face: +2.5 on average, and 0.7 more from a new 6's chain
    assert lucky.mean == pytest.approx(12.6 + (1 - (5 / 6) ** 3) * (4.2 - 1), abs=1e-9)


def test_best_policy_ends():
    # λ = 0 only wants success: never worse than keep or cancel at its own DC
    for mod in (-2, 0, 4):
        b0 = exact(Roll(mod, policy=Best(16, 0.0))).p_success(16)
        assert b0 >= exact(Roll(mod)).p_success(16) - 1e-12
        assert b0 >= exact(Roll(mod, policy="cancel")).p_success(16) - 1e-12
        # a huge λ cancels every pair it can: the cancel distribution
        big = exact(Roll(mod, policy=Best(16, 1e6)))
        ref = exact(Roll(mod, policy="cancel"))
        assert np.abs(big.total_pmf - ref.total_pmf).max() < 1e-15
