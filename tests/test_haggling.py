"""Haggling (Persuasion against the seed's item DCs): 10 % a point of margin, capped at 25 %.

The 3d6x PMFs come from tests/hand.py: built by hand from the rules, not from explodice's dice module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import explodice as ex
from explodice import ExplodiceError, Roll
from tests.hand import HAND

Z = 4.5


def _hand_change(margin: int) -> int:
    if margin > 0:
        return min(10 * margin, 25)
    if margin < 0:
        return max(10 * margin, -25)
    return 0


def test_haggle_d20_by_hand():
    h = ex.haggle(Roll(0), dc=10, system="d20")
    # faces 1-7: -25; 8: -20; 9: -10; 10: 0; 11: +10; 12: +20; 13-20: +25
    assert h.pmf.to_dict() == pytest.approx(
        {-25: 7 / 20, -20: 0.05, -10: 0.05, 0: 0.05, 10: 0.05, 20: 0.05, 25: 8 / 20}
    )
    assert h.mean == pytest.approx(1.25)


def test_haggle_3d6x_against_engine_pmf():
    for roll, dc in ((Roll(0), 16), (Roll(4, advantage="advantage"), 22)):
        h = ex.haggle(roll, dc=dc)
        d = ex.exact(roll)
        mean = sum(p * _hand_change(t - dc) for t, p in zip(d.totals, d.total_pmf))
        assert h.mean == pytest.approx(mean, abs=1e-10)
        assert h.p_better == pytest.approx(d.p_success(dc + 1))


def test_haggle_items_of_the_seed():
    assert ex.HAGGLE_DCS == {
        "weapons": 16,
        "armour": 16,
        "magic components": 16,
        "common items": 16,
        "magic items": 22,
        "legendary magic items": 35,
        "sacred magic items": 28,
        "works of art": 22,
        "gems": 22,
    }
    assert ex.haggle(Roll(0), item="Oeuvre d'art").dc == 22
    assert ex.haggle(Roll(0), item="objets magiques légendaires").dc == 35
    assert ex.haggle(Roll(0)).dc == 16
    with pytest.raises(ExplodiceError, match="item"):
        ex.haggle(Roll(0), item="chaussettes")
    # the seed's DCs are minima ("DD 22 ou plus"): higher is fine, lower is refused
    assert ex.haggle(Roll(0), item="gems", dc=25).dc == 25
    with pytest.raises(ExplodiceError, match=r"`dc` must be at least 22 for gems.*16"):
        ex.haggle(Roll(0), item="gems", dc=16)
    t = ex.haggle_table([0, 4])
    assert (
        len(t) == 2 * 9
        and t.groupby("item")["mean"].apply(lambda s: s.is_monotonic_increasing).all()
    )


def test_haggle_simulated_within_error():
    h = ex.haggle(Roll(0), dc=16, method="simulate", n=40_000, seed=2)
    hand, lo = HAND["normal"]
    change = np.array([_hand_change(lo + i - 16) for i in range(hand.size)])
    mean = float(change @ hand)
    sd = math.sqrt(float(change**2 @ hand) - mean**2)
    assert h.method == "simulate" and h.n == 40_000
    assert abs(h.mean - mean) < 4.5 * sd / math.sqrt(40_000)


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


def test_haggling_with_deception_simulated_within_error():
    n = 100_000
    exact = ex.haggle(Roll(5), dc=16, deception=Roll(1))
    sim = ex.haggle(Roll(5), dc=16, deception=Roll(1), method="simulate", n=n, seed=4)
    x = exact.pmf.index.to_numpy()
    sd = np.sqrt(exact.pmf.to_numpy() @ (x - exact.mean) ** 2)
    assert abs(sim.mean - exact.mean) <= Z * sd * np.sqrt(2 / n)  # two independent samples
    p = exact.p_noticed
    assert abs(sim.p_noticed - p) <= Z * np.sqrt(2 * p * (1 - p) / n)


def test_haggle_3d6x_by_hand():
    """Review 2.6: a 3d6x value found apart from the engine: tests/hand.py's three exploding
    dice (+0, DC 16), each total's change by the rules' steps (10 points a margin, capped 25)."""
    p, lo = HAND["normal"]
    want: dict[int, float] = {}
    for k, q in enumerate(p):
        change = _hand_change(lo + k - 16)
        want[change] = want.get(change, 0.0) + float(q)
    h = ex.haggle(Roll(0), dc=16)
    assert set(h.pmf.index) == set(want)
    for change, q in want.items():
        assert h.pmf[change] == pytest.approx(q, abs=1e-12), change
    assert h.mean == pytest.approx(sum(c * q for c, q in want.items()), abs=1e-10)
    assert h.p_better == pytest.approx(sum(q for c, q in want.items() if c > 0), abs=1e-12)


def test_every_french_item_row_is_plural_and_the_seeds_spelling_still_reads():
    # page 12 wrote "Oeuvre d'art" and "Composante magique" (the seed's table, singular)
    # beside "Pierres précieuses", "Armes": every row plural, the seed's spelling still read
    from explodice.game.tables import HAGGLE_DCS_FR, resolve_item
    from explodice.present.labels import item_label

    assert item_label("works of art", "fr") == "Œuvres d'art"
    assert item_label("magic components", "fr") == "Composantes magiques"
    assert all(name.split()[0].endswith("s") for name in HAGGLE_DCS_FR.values())
    for typed in ("Oeuvre d'art", "Œuvres d'art", "oeuvres d'art"):
        assert resolve_item(typed) == "works of art"
    assert resolve_item("Composante magique") == resolve_item("composantes magiques")
