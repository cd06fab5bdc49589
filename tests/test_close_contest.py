"""Lutte serrée, the close contest (docs/rules.md, "Lutte serrée"): bids of HP settled by hand,
by a Monte Carlo written here and in closed form, and the success table's share of ties
(with the bugs of issue 26.14)."""

from __future__ import annotations

import numpy as np
import pytest

import explodice as ex
from explodice import Roll
from explodice.analysis.close_contest import MAX_HP_ROWS, MAX_TIE_HP
from explodice.core.errors import ExplodiceError

Z = 4.5


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


def test_default_bids_settle_and_match_the_hand_values():
    # both sides uniform over 0..5 by default: a round ties with 1/6, so 1.2 rounds; A pays
    # (sum a*a + sum a) / 36 = 70/36 a round (its bid when it wins, both pay on a tie)
    c = ex.close_contest("uniform:5", "uniform:5")
    s = c.summary()
    assert s["p_win_a"] == pytest.approx(0.5, abs=1e-12)
    assert s["rounds_mean"] == pytest.approx(1.2, abs=1e-12)
    assert s["hp_a_mean"] == pytest.approx(70 / 36 * 1.2, abs=1e-12)
    assert ex.close_opposed(Roll(0), Roll(0), dc=None).p_tie > 0  # the defaults finish


def test_bids_that_tie_almost_always_at_no_cost_are_settled_in_closed_form():
    # A bids 0 (p = 0.999) or 1; B always 0. A 0-0 round is bid again at no cost, so A wins
    # the first round it bids 1: P(A) = 1, A pays 1, B nothing, rounds: geometric, 1 / 0.001
    c = ex.close_contest([0.999, 0.001], 0)  # allocated a 34,524 x 34,524 matrix (8.9 GiB)
    assert c.p_win_a == pytest.approx(1.0, abs=1e-12) and c.p_win_b == pytest.approx(0.0)
    assert c.hp_a_mean == pytest.approx(1.0, abs=1e-9) and c.hp_b_mean == 0.0
    assert c.rounds_mean == pytest.approx(1000.0, rel=1e-9)
    assert c.hp.to_dict("list") == {"hp_a": [1], "hp_b": [0], "p": [pytest.approx(1.0)]}
    c = ex.close_contest([0.9999999999, 0.0000000001], 0)  # ran past 60 s
    assert c.p_win_a == pytest.approx(1.0) and c.rounds_mean == pytest.approx(1e10, rel=1e-6)


def test_costly_ties_follow_the_geometric_law_worked_by_hand():
    # both uniform over 0..1: a round is 0-0 (1/4: again, free), 1-1 (1/4: both pay 1, again),
    # 1-0 (A wins paying 1) or 0-1 (B wins paying 1). Leaving the free rounds out, each round
    # is a costly tie, A or B with 1/3 each: K costly ties ~ P(K = k) = (1/3)^k (2/3).
    # hp_a = K + 1 if A wins else K: P(hp_a = 0) = 1/3, P(hp_a = h) = (1/3)^(h+1) + (1/3)^h
    c = ex.close_contest("uniform:1", "uniform:1")
    assert c.p_win_a == pytest.approx(0.5, abs=1e-15)
    assert c.hp_a_mean == pytest.approx(1.0, abs=1e-12)  # E[K] = 1/2, plus 1 half the time
    pmf = c.hp_pmf("a")
    assert pmf[0] == pytest.approx(1 / 3, abs=1e-15)
    for h in range(1, 25):
        assert pmf[h] == pytest.approx((1 / 3) ** (h + 1) + (1 / 3) ** h, abs=1e-15)
    joint = c.hp.set_index(["hp_a", "hp_b"]).p
    for k in range(20):  # K = k, then A wins: (k + 1, k); B wins: (k, k + 1)
        assert joint[k + 1, k] == pytest.approx((1 / 3) ** k * (2 / 3) / 2, abs=1e-15)
        assert joint[k, k + 1] == pytest.approx((1 / 3) ** k * (2 / 3) / 2, abs=1e-15)
    assert 0 <= c.omitted < 1e-12 and joint.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_hp_tables_are_bounded_and_the_summary_is_not():
    c = ex.close_contest("uniform:1000", "uniform:1000")
    assert c.p_win_a == pytest.approx(0.5, abs=1e-12)
    assert c.hp_pmf("a").sum() == pytest.approx(1.0, abs=1e-12)  # the marginals: small
    with pytest.raises(ExplodiceError, match=f"at most {MAX_HP_ROWS:,}"):
        c.hp  # noqa: B018 - the joint table would hold millions of rows
    # bids that tie at a cost almost always: the summary is exact, the tables refused
    c = ex.close_contest([0, 1 - 1e-10, 1e-10], [0, 1 - 1e-10, 1e-10])
    assert c.hp_a_mean > 1e9 and c.p_win_a == pytest.approx(0.5)
    with pytest.raises(ExplodiceError, match=f"{MAX_TIE_HP:,}"):
        c.hp_pmf("b")


def test_the_lutte_serree_page_shows_every_line_it_names():
    # page 16: d20's P(total = DC) is 5 % whatever the modifier, so "d20 +0" was drawn under
    # "+4" and "+8" and its legend entry had nothing visible: each earlier line of a system
    # has larger hollow markers around the later ones
    import dataclasses

    from explodice.present.config import load_config
    from explodice.present.report.kit import Context
    from explodice.present.report.pages import lutte_serree

    ctx = Context(dataclasses.replace(load_config(), lang="en"), "x", "2026-12-01")
    fig = lutte_serree.draw(ctx, lutte_serree.data(ctx))
    ax = fig.axes[0]
    d20 = [ln for ln in ax.get_lines() if ln.get_label().startswith("d20")]
    assert len(d20) >= 2
    sizes = [ln.get_markersize() for ln in d20]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert all(ln.get_markerfacecolor() == "none" for ln in d20[:-1])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {ln.get_label() for ln in d20} <= set(labels)
