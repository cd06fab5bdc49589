"""The overflow rules, once per engine: the chain's (explodice.day.overflow) and the day
kernel's agree for every value of ``Rules.overflow``, and the chain's moves match a literal
enumeration of docs/rules.md's overflow."""

import numpy as np
import pytest

import explodice as ex
from explodice.day import _kernel as day_kernel
from explodice.day.chain import LevelChain
from explodice.day.overflow import OVERFLOW_ORDERS, pour
from explodice.day.rolls import drain_pmf
from explodice.game.rules import OVERFLOW_MODES
from tests.test_exact_day import pour as literal_pour

RULES = sorted(OVERFLOW_MODES)


def test_every_rule_has_one_function_per_engine():
    assert set(OVERFLOW_ORDERS) == set(OVERFLOW_MODES) == set(day_kernel.OVERFLOW_MODES)


@pytest.mark.parametrize("rule", RULES)
def test_chain_and_kernel_pour_alike(rule):
    rng = np.random.default_rng(5)
    levels = rng.integers(0, 12, size=(400, 4))
    levels[rng.random((400, 4)) < 0.2] = 0  # gauges already empty, ties at 0
    levels[::7, 1] = levels[::7, 2]  # ties between full gauges
    g = rng.integers(0, 4, size=400)
    excess = rng.integers(1, 40, size=400)
    for i in range(400):
        row = levels[i]
        drain = row[g[i]] + excess[i]  # empties g, then ``excess`` past it
        new, lost = pour(row[None], int(g[i]), np.array([drain]), rule)
        # the kernel, on a block of one day and two characters (the other untouched)
        n, gs = day_kernel.gauge_state(8, 1)
        gs[:8] = np.concatenate([row, [7, 7, 7, 7]])
        gs[:4][g[i]] = 0
        gs[n : n + 8] = day_kernel.NEVER
        gs[3 * n] = int(gs[:4].sum())
        gs[3 * n + 1] = 28
        left = day_kernel.pour_excess(
            day_kernel.OVERFLOW_MODES[rule], gs, n, 1, int(g[i]), 0, int(excess[i]), 3
        )
        assert list(gs[:4]) == new[0].tolist() and left == lost[0], (rule, row, g[i])
        assert list(gs[4:8]) == [7, 7, 7, 7]  # never into another character's gauges
        # and docs/rules.md's overflow, literally
        want, want_lost = literal_pour(tuple(row), int(g[i]), int(drain), rule)
        assert new[0].tolist() == list(want) and lost[0] == want_lost


def _enumerated(sizes, P, g, h, laws, rule):
    """A roll of gauge g state by state: each drain of the law (row 1 where h is at 0)
    poured literally."""
    out, lost = np.zeros_like(P), 0.0
    pmfs = [
        sum(w * np.pad(drain_pmf(c), (0, 700))[:700] for c, w in enumerate(row)) for row in laws
    ]
    for i, lv in enumerate(np.indices(sizes).reshape(4, -1).T):
        if P[i] == 0.0:
            continue
        q = pmfs[1 if h >= 0 and lv[h] == 0 else 0]
        for d in np.flatnonzero(q > 1e-18):
            new, gone = literal_pour(tuple(lv), g, int(d), rule)
            out[np.ravel_multi_index(new, sizes)] += P[i] * q[d]
            lost += P[i] * q[d] * gone
    return out, lost


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("start", [(3, 2, 4, 1), (5, 0, 2, 3), (2, 2, 2, 2)])
def test_chain_push_and_pull_match_the_literal_overflow(rule, start):
    rng = np.random.default_rng(sum(start))
    chain = LevelChain(start, rule)
    laws = np.array([[0.5, 0.3, 0.15, 0.05], [0.2, 0.3, 0.3, 0.2]])
    for g in range(4):
        for h in (g, (g + 1) % 4, -1):
            P = rng.random(chain.n)
            P[rng.random(chain.n) < 0.3] = 0.0
            P /= P.sum()
            out = np.zeros(chain.n)
            mass, lost = chain.push(P, out, g, h, laws, 0.5)
            want, want_lost = _enumerated(chain.sizes, P, g, h, laws, rule)
            assert out == pytest.approx(0.5 * want, abs=1e-14)
            assert lost == pytest.approx(0.5 * want_lost, abs=1e-13)
            empty = P[chain.level(h) == 0].sum() if h >= 0 else 0.0
            assert mass == pytest.approx([0.5 * (1 - empty), 0.5 * empty], abs=1e-15)
        # the pull is the push transposed: E[V after c dice] = <V, push of a point mass>
        V = rng.random(chain.n)
        W = chain.pull(V, g, 3)
        for c in (1, 2, 3):
            law = np.zeros((2, c + 1))
            law[:, c] = 1.0
            for i in rng.choice(chain.n, size=6, replace=False):
                point = np.zeros(chain.n)
                point[i] = 1.0
                after = np.zeros(chain.n)
                chain.push(point, after, g, -1, law, 1.0)
                assert W[c - 1, i] == pytest.approx(V @ after, abs=1e-13)


def test_a_rule_the_chain_does_not_know_is_refused():
    with pytest.raises(ex.ExplodiceError, match="`overflow`"):
        LevelChain((1, 1, 1, 1), "everywhere")


def test_the_gauge_names_of_the_rule_are_the_gauges():
    from explodice.game.character import GAUGES

    assert [r for r in OVERFLOW_MODES if r in GAUGES] == list(GAUGES)
    assert set(OVERFLOW_MODES) == {"fullest", "lost", "best", *GAUGES}
    with pytest.raises(ex.RulesError, match="`overflow` must be one of"):
        ex.Rules(overflow="pa")


@pytest.mark.parametrize("start", [(3, 2, 4, 1), (2, 0, 2, 3)])
def test_best_pour_is_the_best_of_every_order_the_player_may_pick(start):
    # the player, seeing the excess, picks each next gauge: the best of the 6 orders, each
    # poured literally; on a tie the fullest's order
    import itertools

    from explodice.day.overflow import best_pour

    sizes = tuple(s + 1 for s in start)
    V = np.random.default_rng(sum(start)).integers(0, 4, int(np.prod(sizes))) / 4.0  # ties
    for g in range(4):
        dest, reach, column = best_pour(sizes, g, V)
        others = [j for j in range(4) if j != g]
        for s, lv in enumerate(np.ndindex(*sizes)):
            col, zero = column[s], tuple(0 if j == g else lv[j] for j in range(4))
            assert reach[col] == sum(lv[j] for j in others)
            for x in range(1, int(reach[col])):
                values = [
                    V[np.ravel_multi_index(literal_pour(zero, g, x, None, order=o)[0], sizes)]
                    for o in itertools.permutations(others)
                ]
                fullest = np.ravel_multi_index(literal_pour(zero, g, x, "fullest")[0], sizes)
                got = dest[x - 1, col]
                assert V[got] == pytest.approx(max(values), abs=1e-12)
                if V[fullest] >= max(values) - 1e-12:
                    assert got == fullest
