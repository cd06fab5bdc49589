"""The readings of docs/rules.md's "Readings that are switches" on a whole day: ``lucky_timing`` and
``malus_die`` in every roll of the day's engines (exact day, day kernel, optimal player), each
value against a day worked out here by enumerating the initial throws with tests/hand.py's
exploding die; and ``close_contest``, which the day's engines refuse."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import explodice as ex
from explodice import Reroll, Rules
from tests import hand
from tests.day_helpers import SCORES, Z, close, hero

CHAIN = np.concatenate([np.zeros(6), hand.die()])  # a kept 6: 6 + an exploding die
PLAIN = np.array([0.0] + [1 / 6] * 6)  # a plain d6


def _hand_roll(need, *, lucky, policy, malus=None, pool=3):
    """(P(dice total >= need), P(at least one kept 1 drains)) of one roll, throw by throw:
    Lucky ``None``, ``"before_choice"`` or ``"after_choice"``, policy keep or cancel, the malus
    die ``None``, ``"exploding"`` or ``"plain"``."""
    p_ok = p_drain = 0.0
    for faces in itertools.product(range(1, 7), repeat=pool):
        throws = [(list(faces), 6.0**-pool)]
        if lucky == "before_choice" and 1 in faces:  # the first 1 rerolled, before the choice
            i = faces.index(1)
            throws = [(list(faces[:i]) + [f] + list(faces[i + 1 :]), 6.0 ** -(pool + 1))
                      for f in range(1, 7)]  # fmt: skip
        for fs, q in throws:
            n1, n6 = fs.count(1), fs.count(6)
            rest = sum(f for f in fs if 1 < f < 6)
            k = min(n1, n6) if policy == "cancel" else 0
            ones, fresh = n1 - k, 0
            if lucky == "after_choice" and ones:  # a kept 1 becomes a fresh exploding die
                ones, fresh = ones - 1, 1
            pmf, lo = np.ones(1), 0
            for part in [CHAIN] * (n6 - k) + [hand.die()] * fresh:
                pmf = np.convolve(pmf, part)
            if malus is not None:
                m = hand.die() if malus == "exploding" else PLAIN
                pmf, lo = np.convolve(pmf, m[::-1]), -(m.size - 1)
            p_ok += q * float(pmf[max(need - rest - ones - lo, 0) :].sum())
            p_drain += q * (ones > 0)
    return p_ok, p_drain


def _two_roll_day(policy):
    """Two Athletics checks (STR +2, DC 14) by a hero with Lucky and 1 point of PA: the first
    drains PA whenever a kept 1 drains (a drain is at least 1), so the second is at
    disadvantage exactly then."""
    who = hero(gauges={"PA": 1, "PM": 0, "PF": 0, "PH": 0}, policy=policy, reroll=Reroll("one"))
    return ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=2)])


READINGS = [
    Rules(),
    Rules(lucky_timing="after_choice"),
    Rules(malus_die="plain"),
    Rules(lucky_timing="after_choice", malus_die="plain"),
]
IDS = ["default", "lucky-after", "plain-malus", "both"]


@pytest.mark.parametrize("policy", ["keep", "cancel"])
@pytest.mark.parametrize("rules", READINGS, ids=IDS)
def test_a_two_roll_day_by_hand(rules, policy):
    s = _two_roll_day(policy)
    assert s.roll_of(0).modifier == 2 and s.roll_of(0).lucky
    need = 14 - 2
    ok, drains = _hand_roll(need, lucky=rules.lucky_timing, policy=policy)
    ok_dis, _ = _hand_roll(need, lucky=rules.lucky_timing, policy=policy, malus=rules.malus_die)
    want = [ok, (1 - drains) * ok + drains * ok_dis]
    got = ex.exact_day(s, rules)
    assert got.succ_t == pytest.approx(want, abs=1e-12)
    assert np.cumsum(got.first[0, :-1])[1] == pytest.approx(drains, abs=1e-12)  # PA at 0


def test_the_readings_move_that_day():
    # the hand day above can tell the readings apart (else the test could not fail)
    a = _hand_roll(12, lucky="before_choice", policy="keep")
    b = _hand_roll(12, lucky="after_choice", policy="keep")
    assert b[1] < a[1] - 0.05  # after the choice a rerolled 1 never drains
    e = _hand_roll(12, lucky=None, policy="keep", malus="exploding")[0]
    p = _hand_roll(12, lucky=None, policy="keep", malus="plain")[0]
    assert p - e > 0.01


def _party_day(lucky):
    """A day of the kernel's every path: a sequence, a PC at disadvantage all day (PA 0) with a
    plain or exploding malus die, Lucky or not, and an NPC."""
    reroll = Reroll("one") if lucky else None
    party = [
        hero(gauges={"PA": 0, "PM": 6, "PF": 3, "PH": 2}, policy="keep", reroll=reroll),
        hero("Mage", gauges={"PA": 2, "PM": 5, "PF": 2, "PH": 2}, policy=ex.Best(0, 0.05),
             reroll=reroll),
        ex.Character("Orc", SCORES, actor="npc", reroll=reroll),
    ]  # fmt: skip
    rolls = [
        ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=6),
        ex.DayRoll("Mage", ability="INT", dc=15, repeat=3),
        ex.DayRoll("Mage", skill="Athletics", dc=12, repeat=2),
        ex.DayRoll("Orc", skill="Athletics", dc=12, disadvantages=1, repeat=2),
    ]
    return party, rolls


@pytest.mark.parametrize("mix", [False, True], ids=["sequence", "mix"])
@pytest.mark.parametrize(
    "rules, lucky",
    [(Rules(malus_die="plain"), False), (Rules(lucky_timing="after_choice"), True)],
    ids=["plain-malus", "lucky-after"],
)
def test_simulated_and_exact_day_agree_and_tell_the_readings_apart(rules, lucky, mix):
    party, rolls = _party_day(lucky)
    s = ex.Scenario(party, rolls, rolls_per_day=13 if mix else None)
    n = 30_000
    e = ex.exact_day(s, rules)
    default = ex.exact_day(s, Rules())
    m = ex.simulate_day(s, rules, n_days=n, seed=11, threads=1)
    a, b = e.to_frame("roll_types"), m.to_frame("roll_types")
    d = default.to_frame("roll_types")
    seen = (b.rolls > 1000).to_numpy()
    se = np.sqrt(a.p * (1 - a.p) / b.rolls)[seen]
    assert close(b.p[seen].to_numpy(), a.p[seen].to_numpy(), se.to_numpy()).all()
    # the reading moves some roll type's P(success) by far more than the test's tolerance
    assert (np.abs(a.p - d.p)[seen] > 2 * Z * se).any()
    ga, gb = e.to_frame("empty"), m.to_frame("empty")
    both = ga.merge(gb, on=["character", "gauge", "roll"], suffixes=("_e", "_s"))
    pe = both.p_e.clip(0, 1).to_numpy()
    assert close(both.p_s.to_numpy(), pe, np.sqrt(pe * (1 - pe) / n)).all()


@pytest.mark.parametrize("rules", READINGS[1:], ids=IDS[1:])
def test_the_optimal_player_reads_the_readings(rules):
    # its value is what the exact day gives under its choices, and the kernel plays them too
    party, rolls = _party_day(lucky=True)
    s = ex.Scenario(party[1:], rolls[1:])
    best = ex.optimal_policy(s, rules)
    e = ex.exact_day(s, rules, policy=best)
    mage = [r for r, x in enumerate(s.rolls) for _ in range(x.repeat) if x.character == "Mage"]
    assert best.value["Mage"] == pytest.approx(float(e.succ_t[: len(mage)].sum()), abs=1e-9)
    assert best.value["Mage"] >= float(ex.exact_day(s, rules).succ_t[: len(mage)].sum()) - 1e-12
    n = 30_000
    m = ex.simulate_day(s, rules, n_days=n, seed=3, threads=1, policy=best)
    p = e.succ_t
    assert close(m.succ_t / n, p, np.sqrt(p * (1 - p) / n)).all()


def test_rolls_to_empty_reads_lucky_timing():
    # one gauge of 1 point: the first roll that drains empties it, P = P(a kept 1 drains)
    for timing in ("before_choice", "after_choice"):
        r = ex.rolls_to_empty(2, 1, 14, reroll="one", rules=Rules(lucky_timing=timing))
        _, drains = _hand_roll(12, lucky=timing, policy="keep")
        assert r.pmf[1] == pytest.approx(drains, abs=1e-12)


# -- close_contest: refused at the day's doors --------------------------------------------------
CLOSE = Rules(close_contest=True)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: ex.simulate_day(s, CLOSE, n_days=10),
        lambda s: ex.exact_day(s, CLOSE),
        lambda s: ex.optimal_policy(s, CLOSE),
        lambda s: ex.rolls_to_empty(rules=CLOSE),
        lambda s: ex.rolls_to_empty(rules=CLOSE, method="simulate", n_days=10),
    ],
    ids=["simulate_day", "exact_day", "optimal_policy", "rolls_to_empty", "rolls_to_empty-sim"],
)
def test_close_contest_is_refused_by_the_day(call):
    with pytest.raises(ex.ExplodiceError, match=r"^`close_contest`: the day's engines") as err:
        call(_two_roll_day("keep"))
    assert err.value.field == "close_contest"


def test_size_gauges_refuses_close_contest_before_its_grid():
    with pytest.raises(ex.ExplodiceError, match=r"^`close_contest`: the day's engines"):
        ex.size_gauges(ex.reference_builds()[0], levels=[1], rules=CLOSE)


def test_the_docs_say_which_readings_the_day_reads():
    # README, docs/rules.md and benchmarks/README.md still said that the day engines did not
    # read lucky_timing and malus_die, and that `explodice day` refused them, after they did:
    # a clause that says the day does not read or refuses a switch names only one it does not
    from pathlib import Path

    from explodice.analysis.sensitivity import day_blind_spot
    from explodice.game.rules import switches

    roll = ex.Roll(0, advantage="disadvantage", reroll=Reroll("one"))  # needs every reading
    day_switches = [s for s in switches() if s.scope in ("roll", "day")]
    read = {
        s.name
        for s in day_switches
        if all(
            day_blind_spot(roll, Rules(**{s.name: {v} if s.kind == "set" else v})) is None
            for v in s.values
        )
    }
    assert {"lucky_timing", "malus_die"} <= read and "close_contest" not in read
    root = Path(__file__).resolve().parent.parent
    wrong = []
    for name in ("README.md", "docs/rules.md", "benchmarks/README.md"):
        text = " ".join((root / name).read_text("utf-8").split())
        for clause in re.split(r"[.;,:]\s", text):
            if "day" in clause and ("do not read" in clause or "refuse" in clause):
                wrong += [(name, s, clause) for s in sorted(read) if f"`{s}`" in clause]
    assert wrong == []
