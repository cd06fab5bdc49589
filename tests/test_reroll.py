"""Rerolls (docs/rules.md, Rerolls): Reroll("one") and Reroll("failure", dc=...), both systems.

Expected values come from the rules by hand (the two self-checks of docs/rules.md, d20 dice
counted on paper) and from a brute-force enumerator written here, apart from the engine.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import explodice as ex
from explodice import Best, Reroll, Roll, Rules
from explodice.engine.reroll import simulate_reroll
from tests import hand

Z = 4.5


def test_reroll_validation():
    with pytest.raises(ex.RulesError, match="trigger"):
        Reroll("twice")
    with pytest.raises(ex.RulesError, match="Reroll.dc"):
        Reroll("one", dc=12)
    with pytest.raises(ex.RulesError, match="roll's DC"):
        Roll(0, reroll=Reroll("failure"))
    with pytest.raises(ex.RulesError, match="reroll"):
        Roll(0, reroll="sometimes")
    assert Roll(0, reroll="lucky").reroll == Reroll("one")


@pytest.mark.parametrize("modifier, dc", [(0, 16), (4, 22), (-2, 8), (8, 28)])
def test_failure_reroll_without_advantage_is_one_minus_square(modifier, dc):
    # docs/rules.md's self-check: two independent tries, 1 - (1 - p)^2
    p = ex.exact(Roll(modifier)).p_success(dc)
    d = ex.exact(Roll(modifier, reroll=Reroll("failure", dc=dc)))
    assert d.p_success(dc) == pytest.approx(1 - (1 - p) ** 2, abs=1e-12)
    # the second roll drains on its own: E = 2.1 + P(fail) x 2.1 under keep
    assert d.drain_mean == pytest.approx(2.1 * (1 + (1 - p)), abs=1e-9)
    assert d.ones_mean == pytest.approx(0.5 * (1 + (1 - p)), abs=1e-12)
    q = ex.d20(Roll(modifier)).p_success(dc)
    assert ex.d20(Roll(modifier, reroll=Reroll("failure", dc=dc))).p_success(dc) == pytest.approx(
        1 - (1 - q) ** 2, abs=1e-12
    )


def test_d20_lucky_self_check_and_hand_counts():
    assert ex.d20(Roll(0, reroll=Reroll("one"))).p_success(11) == pytest.approx(0.525, abs=1e-12)
    # d20+3 against 14 needs 11+. Advantage: both below 11 (1/4), one die again: 1/2
    assert ex.d20(Roll(3, advantage="advantage", reroll=Reroll("failure", dc=14))).p_success(
        14
    ) == pytest.approx(0.75 + 0.25 * 0.5, abs=1e-12)
    # disadvantage: the lower die again succeeds when the other shows 11+ (P 1/2 given failure
    # with exactly one die 11+) and the new one too: 0.25 + 0.5 x 0.5
    assert ex.d20(Roll(3, advantage="disadvantage", reroll=Reroll("failure", dc=14))).p_success(
        14
    ) == pytest.approx(0.5, abs=1e-12)
    # Lucky under advantage: pairs with a 1 reroll it: P(max >= 11) counted pair by pair
    count = 0.0
    for a, b in itertools.product(range(1, 21), repeat=2):
        if a == 1:
            count += sum(max(x, b) >= 11 for x in range(1, 21)) / 20
        elif b == 1:
            count += sum(max(a, x) >= 11 for x in range(1, 21)) / 20
        else:
            count += max(a, b) >= 11
    lucky = ex.d20(Roll(3, advantage="advantage", reroll=Reroll("one")))
    assert lucky.p_success(14) == pytest.approx(count / 400, abs=1e-12)
    # a natural 1 is rarer with Lucky: 1/20 x 1/20
    assert ex.d20(Roll(0, reroll=Reroll("one"))).p_natural_1 == pytest.approx(1 / 400)


# -- a brute-force enumerator of the single-die reroll ---------------------------------------
DEPTH = 3  # explosions enumerated per die; the rest is the bound below


def _die(depth=DEPTH):
    return [(6 * j + r, (1 / 6) ** (j + 1)) for j in range(depth + 1) for r in range(1, 6)]


def _sf_truncated(depth=DEPTH):
    values = np.zeros(6 * depth + 8)
    for v, p in _die(depth):
        values[v] += p
    sf = np.cumsum(values[::-1])[::-1]
    return lambda need: 1.0 if need <= 1 else (float(sf[need]) if need < sf.size else 0.0)


def brute_p_success(modifier, dc, pool, malus, cancel, plain_malus=False):
    """P(success) of a roll with one die rerolled on failure, walked face by face; the malus
    die (when ``malus``) is a plain d6 when ``plain_malus``."""
    sf = _sf_truncated()
    need = dc - modifier
    total_p = 0.0
    mass = 0.0
    if plain_malus:
        malus_values = [(m, 1 / 6) for m in range(1, 7)]
        malus_sf = lambda need: min(max(7 - need, 0), 6) / 6  # noqa: E731 - P(plain d6 >= need)
    else:
        malus_values = _die() if malus else [(0, 1.0)]
        malus_sf = sf
    for faces in itertools.product(range(1, 7), repeat=pool):
        p0 = (1 / 6) ** pool
        n1, n6 = faces.count(1), faces.count(6)
        k = min(n1, n6) if cancel else 0
        plain = [1] * (n1 - k) + [f for f in faces if 1 < f < 6]
        b = n6 - k
        for xs in itertools.product(_die(), repeat=b):
            p1 = p0 * np.prod([q for _, q in xs]) if b else p0
            dice = plain + [6 + v for v, _ in xs]
            for m, pm in malus_values:
                p = p1 * pm
                mass += p
                t = sum(dice) - m
                if t >= need:
                    total_p += p
                    continue
                best = max((sf(need - (t - c)) for c in dice), default=0.0)
                if malus:  # a fresh malus die m': t + m - m' >= need
                    best = max(best, 1.0 - malus_sf(t + m - need + 1))
                total_p += p * best
    return total_p, 1.0 - mass


@pytest.mark.parametrize(
    "advantage, modifier, dc, cancel, malus_die",
    [
        ("advantage", 0, 16, False, "exploding"),
        ("advantage", 2, 22, True, "exploding"),
        ("advantage", -1, 12, False, "exploding"),
        ("disadvantage", 2, 16, False, "exploding"),
        ("disadvantage", 0, 12, True, "exploding"),
        # Rules(malus_die="plain"): the die rerolled may be the plain malus die
        ("disadvantage", 2, 16, False, "plain"),
        ("disadvantage", 0, 12, True, "plain"),
        ("disadvantage", 4, 8, False, "plain"),
    ],
)
def test_single_die_reroll_equals_brute_force(advantage, modifier, dc, cancel, malus_die):
    pool, malus = (4, False) if advantage == "advantage" else (3, True)
    plain = malus_die == "plain"
    brute, omitted = brute_p_success(modifier, dc, pool, malus, cancel, plain_malus=plain)
    roll = Roll(
        modifier,
        advantage=advantage,
        policy="cancel" if cancel else "keep",
        reroll=Reroll("failure", dc=dc),
    )
    exact = ex.exact(roll, Rules(malus_die=malus_die)).p_success(dc)
    # the enumerator leaves out the longer chains: at most their mass, and (1/6)^(DEPTH+1)
    # per rerolled die's own cut
    slack = omitted + (1 / 6) ** (DEPTH + 1) + 1e-12
    assert abs(exact - brute) <= slack
    without = ex.exact(roll.replace(reroll=None), Rules(malus_die=malus_die)).p_success(dc)
    assert exact > without + 0.02  # it helps


def test_single_die_reroll_keeps_the_first_throws_drain():
    # the first throw's choice stands and the rerolled die is outside the rule of 1
    for adv in ("advantage", "disadvantage"):
        roll = Roll(1, advantage=adv, reroll=Reroll("failure", dc=18))
        assert ex.exact(roll).drain_mean == pytest.approx(
            ex.exact(roll.replace(reroll=None)).drain_mean, abs=1e-9
        )


# -- Monte Carlo against exact ----------------------------------------------------------------
CASES = [
    (Roll(2, reroll=Reroll("failure", dc=16)), Rules()),
    (Roll(2, advantage="advantage", policy="cancel", reroll=Reroll("failure", dc=20)), Rules()),
    (
        Roll(1, advantage="disadvantage", reroll=Reroll("failure", dc=14)),
        Rules(ones_on_explosions=True),
    ),
    (
        Roll(0, advantage="disadvantage", reroll=Reroll("failure", dc=12)),
        Rules(disadvantage="drop"),
    ),
    (Roll(3, advantage="disadvantage", reroll=Reroll("one")), Rules()),
    (Roll(3, policy=ex.Best(16, 0.05), reroll=Reroll("failure", dc=16)), Rules()),
    (
        Roll(4, advantage="advantage", policy=ex.Best(18, 0.0), reroll=Reroll("failure", dc=18)),
        Rules(),
    ),
    # the readings of issue 25: a plain malus die rerolled on failure; Lucky after the choice
    (
        Roll(1, advantage="disadvantage", reroll=Reroll("failure", dc=14)),
        Rules(malus_die="plain", ones_on_explosions=True),
    ),
    (
        Roll(2, advantage="disadvantage", policy="cancel", reroll=Reroll("one")),
        Rules(malus_die="plain", lucky_timing="after_choice"),
    ),
    (
        Roll(1, policy=ex.Best(16, 0.05), reroll=Reroll("one")),
        Rules(lucky_timing="after_choice"),
    ),
]


@pytest.mark.parametrize("roll, rules", CASES, ids=[r.describe() for r, _ in CASES])
def test_numpy_monte_carlo_agrees_with_exact(roll, rules):
    n = 60_000
    d = ex.exact(roll, rules)
    s = simulate_reroll(roll, rules, n=n, seed=CASES.index((roll, rules)))
    for dc in (10, 14, 18, 24):
        p = d.p_success(dc)
        assert abs(s.p_success(dc) - p) <= Z * np.sqrt(p * (1 - p) / n) + 1e-12
    assert abs(s.mean - d.mean) <= Z * d.std / np.sqrt(n)
    x = np.arange(d.drain_pmf.size)
    sd = np.sqrt(d.drain_pmf @ (x - d.drain_mean) ** 2)
    assert abs(s.drain_mean - d.drain_mean) <= Z * sd / np.sqrt(n) + 1e-12
    if roll.reroll.trigger == "one":  # the numba kernels play it too
        k = ex.simulate(roll, rules, n=n, seed=1, threads=1)
        assert abs(k.mean - d.mean) <= Z * d.std / np.sqrt(n)


def test_simulate_routes_a_failure_reroll_and_is_reproducible():
    # simulate() plays a reroll on failure through the numpy path (one thread): the same seed
    # gives the same counts, and the result agrees with the exact engine within its error
    roll = Roll(2, reroll=Reroll("failure", dc=16))
    n = 20_000
    a = ex.simulate(roll, n=n, seed=4)
    b = ex.simulate(roll, n=n, seed=4)
    assert np.array_equal(a.counts, b.counts) and a.n == n
    p = ex.exact(roll).p_success(16)
    assert abs(a.p_success(16) - p) <= Z * np.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("adv", ["normal", "advantage", "disadvantage"])
@pytest.mark.parametrize("reroll", [Reroll("one"), Reroll("failure", dc=14)], ids=str)
def test_d20_simulated_agrees_with_exact(adv, reroll):
    roll = Roll(3, advantage=adv, reroll=reroll, kind="attack")
    d = ex.d20(roll)
    n = 100_000
    s = ex.d20(roll, method="simulate", n=n, seed=9)
    for dc in (8, 14, 20):
        p = d.p_success(dc)
        assert abs(s.p_success(dc) - p) <= Z * np.sqrt(p * (1 - p) / n) + 1e-12


def test_character_trait_binds_the_roll_dc():
    scores = dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=8)
    lucky = ex.Character("Pip", scores, reroll="one")
    assert lucky.roll("Athletics").reroll == Reroll("one")
    stubborn = ex.Character("Bo", scores, reroll=Reroll("failure"))
    assert stubborn.roll("Athletics", dc=14).reroll == Reroll("failure", dc=14)
    with pytest.raises(ex.ExplodiceError, match="dc"):
        stubborn.roll("Athletics")
    (c,) = ex.game.character.characters_from_toml(
        '[[character]]\nname = "Pip"\nreroll = "lucky"\n'
        "scores = { STR = 10, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 10 }\n"
    )
    assert c.reroll == Reroll("one")


def test_a_failure_reroll_is_refused_on_cuda_not_ignored():
    with pytest.raises(ex.ExplodiceError, match="cuda"):
        ex.simulate(Roll(0, reroll=Reroll("failure", dc=12)), n=1000, backend="cuda")
    with pytest.raises(ex.ExplodiceError, match="reroll on failure"):
        ex.frontier(Roll(0, reroll=Reroll("failure", dc=12)), 12)


def test_character_tables_carry_the_reroll_trait():
    scores = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)  # Athletics +2 +2 = +4
    party = [
        ex.Character("A", scores, skills={"Athletics": 1}, reroll="one"),
        ex.Character("B", scores, skills={"Athletics": 1}, reroll=Reroll("failure")),
        ex.Character("C", scores, skills={"Athletics": 1}),
    ]
    t = (
        ex.success_table(
            characters=party, tests=["Athletics"], dcs=[12], advantages=["normal"], system="d20"
        )
        .set_index("character")
        .p
    )
    # d20 + 4 against 12 needs 8+: 0.65; Lucky adds 0.05 x 0.65; a reroll 1 - 0.35^2
    assert t["C"] == pytest.approx(0.65) and t["A"] == pytest.approx(0.65 + 0.05 * 0.65)
    assert t["B"] == pytest.approx(1 - 0.35**2)
    t = (
        ex.success_table(characters=party, tests=["Athletics"], dcs=[16], advantages=["normal"])
        .set_index("character")
        .p
    )
    p = ex.exact(Roll(4)).p_success(16)
    assert t["B"] == pytest.approx(1 - (1 - p) ** 2, abs=1e-12) and t["C"] == pytest.approx(p)


def test_a_character_with_a_reroll_on_failure_in_every_analysis_that_takes_characters():
    # found in review: callers without a DC crashed on this trait (initiative, drain, hiding,
    # the explorer's subjects, the report's group page)

    scores = dict(STR=10, DEX=14, CON=10, INT=10, WIS=12, CHA=10)
    plain = ex.Character("A", scores, skills={"Stealth": 1})
    rerolls = ex.Character("A", scores, skills={"Stealth": 1}, reroll=ex.Reroll("failure"))
    # initiative has no DC to fail: the trait cannot be spent, the odds are the plain ones
    wolf = ex.Roll(2)
    a = ex.initiative({"A": plain, "W": wolf}).ranks
    b = ex.initiative({"A": rerolls, "W": wolf}).ranks
    assert a.p.tolist() == pytest.approx(b.p.tolist(), abs=1e-12)
    ex.drain_frame(rerolls)  # one save per ability, without a DC: no crash
    # against passive observers alone, failing is falling under the highest passive: the
    # reroll is spent against that DC, p -> 1 - (1 - p)**2
    p = ex.hide(plain, passive=[12, 15]).p_hidden
    assert ex.hide(rerolls, passive=[12, 15]).p_hidden == pytest.approx(1 - (1 - p) ** 2, abs=1e-12)
    with pytest.raises(ex.ExplodiceError, match="active observer"):
        ex.hide(rerolls, active=[plain])


@pytest.mark.parametrize("policy", ["cancel", "keep"])
@pytest.mark.parametrize("timing", ["before_choice", "after_choice"])
def test_lucky_timing_by_enumeration_of_the_initial_throws(timing, policy):
    d = ex.exact(Roll(0, policy=policy, reroll="one"), Rules(lucky_timing=timing))
    for dc in (8, 12, 16, 22):
        p, ones = hand.lucky_by_hand(dc, timing, policy)
        assert d.p_success(dc) == pytest.approx(p, abs=1e-12)
    assert d.ones_mean == pytest.approx(ones, abs=1e-12)
    assert d.drain_mean == pytest.approx(4.2 * ones, abs=1e-9)  # an exploding d6 per kept 1


def test_lucky_timing_the_issues_numbers():
    # issue 25: with Lucky, cancel, +0, DC 16: 0.309 today, 0.234 under the literal reading
    # (the issue's numbers, rounded from the enumeration of the throws)
    before = ex.exact(Roll(0, policy="cancel", reroll="one")).p_success(16)
    after = ex.exact(Roll(0, policy="cancel", reroll="one"), Rules(lucky_timing="after_choice"))
    by_hand = [hand.lucky_by_hand(16, t, "cancel")[0] for t in ("before_choice", "after_choice")]
    assert [round(p, 3) for p in by_hand] == [0.309, 0.234]
    assert [before, after.p_success(16)] == pytest.approx(by_hand, abs=1e-12)
    # keep: E[kept 1s] = E[1s] - P(at least one 1) = 1/2 - (1 - (5/6)^3)
    keep = ex.exact(Roll(0, reroll="one"), Rules(lucky_timing="after_choice"))
    assert keep.ones_mean == pytest.approx(0.5 - (1 - (5 / 6) ** 3), abs=1e-12)


def test_lucky_timing_does_not_change_a_roll_outside_the_rule_of_one():
    # an attack keeps every die: the 1 rerolled before or after the (empty) choice is one
    # fresh exploding die either way
    a, b = (
        ex.exact(Roll(2, kind="attack", reroll="one"), Rules(lucky_timing=t))
        for t in ("before_choice", "after_choice")
    )
    dcs = list(range(3, 60))  # equal up to the cut (1/6)**17 of the longest chain
    assert np.allclose(a.p_success(dcs), b.p_success(dcs), rtol=0, atol=1e-13)


def test_best_knows_a_kept_one_will_be_rerolled_after_the_choice():
    # one 1, one 6 and a 3, needing 12: cancelling leaves 3; keeping them, the 1 is rerolled
    # (a fresh die, no drain) and the 6 explodes: 3 + 6 + X + Y >= 12 always. So best keeps,
    # for any λ, where before the choice it would weigh a draining 1
    from explodice.engine.rule_of_one import policy_table

    for weight in (0.0, 0.05, 10.0):
        roll = Roll(0, policy=Best(12, weight), reroll="one")
        k = policy_table(roll, Rules(lucky_timing="after_choice"))
        assert k[1, 1, 3] == 0
    # before the choice a large λ cancels that pair (a 1 that drains 4.2 on average)
    assert policy_table(Roll(0, policy=Best(12, 10.0), reroll="one"), Rules())[1, 1, 3] == 1


def test_the_reroll_command_reads_its_rolls_under_the_rules_given(capsys):
    """Review 4.7: `explodice reroll` takes the roll's rules options (it asked under Rules()):
    at disadvantage read as "drop", P(success) is the two-dice enumeration's (tests/brute.py),
    and the header says the reading."""
    import json

    from explodice.present.cli import main
    from tests import brute

    argv = ["reroll", "-m", "0", "--dc", "16", "--advantage", "disadvantage"]
    assert main([*argv, "--disadvantage", "drop", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    dropped = brute.enumerate_roll(Roll(0, advantage="disadvantage"), Rules(disadvantage="drop"), 9)
    p = sum(q for (total, _, _), q in dropped.items() if total >= 16)
    assert row["p"] == pytest.approx(p, abs=1e-6)
    assert main([*argv, "--disadvantage", "drop"]) == 0
    assert "disadvantage=drop" in capsys.readouterr().out.splitlines()[1]
