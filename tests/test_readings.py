"""The readings the seeds leave open, each a switch of Rules (docs/rules.md, "Readings that are
switches"): both values of each against numbers derived here by hand, by enumerating the
initial throws with the hand-made PMFs of tests/hand.py, never from the engine's own output.
(The brute-force enumerator checks them face by face in test_exact_engine.py; the Monte Carlo
in test_monte_carlo.py, test_reroll.py and test_cuda.py.)"""

from __future__ import annotations

import itertools
import math
import typing

import numpy as np
import pytest

import explodice as ex
from explodice import Roll, Rules
from explodice.game import rules as rules_mod
from tests import hand


def _sum(*pmfs: np.ndarray) -> np.ndarray:
    out = np.ones(1)
    for p in pmfs:
        out = np.convolve(out, p)
    return out


def _sf(p: np.ndarray, need: int) -> float:
    return float(p[max(need, 0) :].sum())


# -- the switches themselves --------------------------------------------------------------------
def test_every_reading_is_a_literal_alias_checked_and_named_in_the_caption():
    expected = {
        "lucky_timing": ("LuckyTiming", ("before_choice", "after_choice")),
        "malus_die": ("MalusDie", ("exploding", "plain")),
        "hiding_ties": ("HidingTies", ("hider", "observer")),
        "deception_noticed": ("DeceptionNoticed", ("on_failure", "when_cheated")),
    }
    hints = typing.get_type_hints(Rules)
    found = {s.name: s for s in rules_mod.switches()}
    for name, (alias, values) in expected.items():
        assert typing.get_args(getattr(rules_mod, alias)) == values
        assert hints[name] is getattr(rules_mod, alias)
        assert found[name].values == values and found[name].default == values[0]
        assert getattr(Rules(), name) == values[0]
        with pytest.raises(ex.RulesError, match=rf"`{name}` must be one of \[.*\], but 'x'"):
            Rules(**{name: "x"})
        other = Rules(**{name: values[1]})
        assert other.describe() == Rules().describe() + f", {name}={values[1]}"
    # the default caption is today's
    assert Rules().describe() == (
        "disadvantage=subtract, rule of 1 on check,save, ones_on_explosions=False, "
        "overflow=fullest, drain_gauge=skill"
    )


def test_switches_lists_every_field_of_rules():
    names = [s.name for s in rules_mod.switches()]
    assert names == [f.name for f in __import__("dataclasses").fields(Rules)]
    kinds = {s.name: s.kind for s in rules_mod.switches()}
    assert kinds["rule_of_one_kinds"] == "set" and kinds["close_contest"] == "flag"
    assert kinds["overflow"] == "choice"


# -- Lucky before or after the rule of 1's choice ---------------------------------------------


# -- the malus die: exploding or plain ---------------------------------------------------------
@pytest.mark.parametrize("modifier", [0, 3])
def test_plain_malus_die_by_hand(modifier):
    three = _sum(*[hand.die()] * 3)
    for dc in (8, 12, 16, 22, 28):
        need = dc - modifier
        plain = sum(_sf(three, need + m) / 6 for m in range(1, 7))
        exploding = hand.sf(hand.HAND["disadvantage (subtract)"], need)
        roll = Roll(modifier, advantage="disadvantage")
        assert ex.exact(roll, Rules(malus_die="plain")).p_success(dc) == pytest.approx(plain)
        assert ex.exact(roll).p_success(dc) == pytest.approx(exploding, abs=1e-12)


def test_plain_malus_die_the_issues_numbers():
    # issue 25: a plain malus die gives 0.002 to 0.028 more P(success) at +0 from DC 8 to 22
    roll = Roll(0, advantage="disadvantage")
    gain = [
        ex.exact(roll, Rules(malus_die="plain")).p_success(dc) - ex.exact(roll).p_success(dc)
        for dc in (8, 12, 16, 22)
    ]
    assert [round(g, 3) for g in (gain[0], gain[-1])] == [0.028, 0.002]
    assert all(a > b > 0 for a, b in zip(gain, gain[1:]))
    # the mean falls by E[plain d6] = 3.5 instead of 4.2
    assert ex.exact(roll, Rules(malus_die="plain")).mean == pytest.approx(12.6 - 3.5, abs=1e-9)


def test_plain_malus_die_only_under_subtract():
    drop = Roll(0, advantage="disadvantage")
    a = ex.exact(drop, Rules(disadvantage="drop"))
    b = ex.exact(drop, Rules(disadvantage="drop", malus_die="plain"))
    assert np.array_equal(a.total_pmf, b.total_pmf)


# -- hiding ties -------------------------------------------------------------------------------
def test_hiding_ties_against_passives_by_hand():
    # +5 against passives 12 and 14: hidden when 3d6x + 5 >= 14 (the hider wins ties), or > 14
    three = hand.HAND["normal"]
    hider = ex.hide(Roll(5), passive=[12, 14])
    observer = ex.hide(Roll(5), passive=[12, 14], rules=Rules(hiding_ties="observer"))
    assert hider.p_hidden == pytest.approx(hand.sf(three, 9), abs=1e-12)
    assert observer.p_hidden == pytest.approx(hand.sf(three, 10), abs=1e-12)
    # 3d6x >= 9: every throw with a 6 (6 + X + 1 + 1 >= 9), or no 6 and a sum of 9 or more
    assert hider.p_hidden * 216 == pytest.approx(
        sum(6 in f or sum(f) >= 9 for f in itertools.product(range(1, 7), repeat=3)), abs=1e-9
    )
    assert (round(hider.p_hidden, 3), round(observer.p_hidden, 3)) == (0.755, 0.664)  # issue 25
    assert observer.p_each["passive 12"] == pytest.approx(hand.sf(three, 8), abs=1e-12)


def test_hiding_ties_against_an_active_observer_is_the_opposed_test():
    o = ex.opposed(Roll(2), Roll(1))
    hider = ex.hide(Roll(2), active=[Roll(1)])
    observer = ex.hide(Roll(2), active=[Roll(1)], rules=Rules(hiding_ties="observer"))
    assert hider.p_hidden == pytest.approx(o.win + o.tie, abs=1e-12)
    assert observer.p_hidden == pytest.approx(o.win, abs=1e-12)
    # d20 + 0 against d20 + 0, by hand: hidden when S > P: 190 / 400
    d20 = ex.hide(Roll(0), active=[Roll(0)], system="d20", rules=Rules(hiding_ties="observer"))
    assert d20.p_hidden == pytest.approx(190 / 400, abs=1e-12)


def test_hiding_ties_a_failure_reroll_is_spent_on_a_tie_when_the_tie_reveals():
    # a Stealth reroll on failure against passives: the failure is "below the highest
    # passive", or "at or below it" when a tie reveals the hider
    hero = ex.Character(
        "Hero", dict(STR=10, DEX=14, CON=10, INT=10, WIS=10, CHA=10), reroll=ex.Reroll("failure")
    )
    mod = hero.roll("Stealth", reroll_on_failure=False).modifier
    for ties, dc in (("hider", 14), ("observer", 15)):
        p = 1 - (1 - hand.sf(hand.HAND["normal"], dc - mod)) ** 2
        got = ex.hide(hero, passive=[12, 14], rules=Rules(hiding_ties=ties)).p_hidden
        assert got == pytest.approx(p, abs=1e-12)


# -- who notices a Deception --------------------------------------------------------------------
@pytest.mark.parametrize("noticed", ["on_failure", "when_cheated"])
def test_deception_noticed_rebuilt_from_the_two_pmfs(noticed):
    # Persuasion +3, Deception +1, DC 16: aiming past 25 % needs a margin of 3 (dice >= 16);
    # the Deception succeeds with q = P(dice >= 15)
    three = hand.HAND["normal"]
    aim, q = hand.sf(three, 16), hand.sf(three, 15)
    h = ex.haggle(Roll(3), dc=16, deception=Roll(1), rules=Rules(deception_noticed=noticed))
    expected = aim * (1 - q) if noticed == "on_failure" else aim * q
    assert h.p_noticed == pytest.approx(expected, abs=1e-12)
    assert round(h.p_noticed, 3) == {"on_failure": 0.177, "when_cheated": 0.077}[noticed]
    # the price does not depend on who notices
    assert h.pmf.equals(ex.haggle(Roll(3), dc=16, deception=Roll(1)).pmf)


# -- exact and simulated agree under every value of the resolutions' readings ------------------------
N_SIM = 200_000


def _within(simulated: float, exact_p: float, n: int) -> bool:
    """``simulated`` within 5 standard errors of ``exact_p`` (a binomial share of n)."""
    return abs(simulated - exact_p) <= 5 * math.sqrt(max(exact_p * (1 - exact_p), 1e-12) / n)


@pytest.mark.parametrize("ties", ["hider", "observer"])
def test_hiding_ties_simulated_agrees_with_exact(ties):
    rules = Rules(hiding_ties=ties)
    args = {"passive": [12, 14], "active": [Roll(1)], "rules": rules}
    exact_h = ex.hide(Roll(5), **args)
    sim = ex.hide(Roll(5), **args, method="simulate", n=N_SIM, seed=3, threads=1)
    assert _within(sim.p_hidden, exact_h.p_hidden, N_SIM), (sim.p_hidden, exact_h.p_hidden)


@pytest.mark.parametrize("noticed", ["on_failure", "when_cheated"])
def test_deception_noticed_simulated_agrees_with_exact(noticed):
    rules = Rules(deception_noticed=noticed)
    args = {"dc": 16, "deception": Roll(1), "rules": rules}
    exact_h = ex.haggle(Roll(3), **args)
    sim = ex.haggle(Roll(3), **args, method="simulate", n=N_SIM, seed=4, threads=1)
    assert _within(sim.p_noticed, exact_h.p_noticed, N_SIM), (sim.p_noticed, exact_h.p_noticed)
