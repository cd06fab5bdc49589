"""3d6x PMFs built by hand from the rules, independently of explodice's dice module.

One exploding die is 6k + r with probability (1/6)**(k+1), for k >= 0 and r in 1..5; a pool is
the convolution of its dice, and the malus die of the ``subtract`` reading is subtracted.
Tests compare the engine with these, never with its own output.
"""

from __future__ import annotations

import itertools

import numpy as np

DEPTH = 25  # explosions kept per die: leaves out (1/6)**25 ~ 1e-20


def die() -> np.ndarray:
    """PMF of one exploding d6 over values 0..6*DEPTH+5 (the rules' formula)."""
    p = np.zeros(6 * DEPTH + 6)
    for k in range(DEPTH):
        for r in range(1, 6):
            p[6 * k + r] = (1 / 6) ** (k + 1)
    return p


def pool(n: int, minus: bool = False) -> tuple[np.ndarray, int]:
    """(PMF, lowest total) of n exploding dice, minus one more when ``minus``."""
    p, lo = np.array([1.0]), 0
    for _ in range(n):
        p = np.convolve(p, die())
    if minus:
        d = die()[::-1]
        p, lo = np.convolve(p, d), -(d.size - 1)
    return p, lo


def sf(pmf_lo: tuple[np.ndarray, int], need: int) -> float:
    """P(total >= need) of a (PMF, lowest total) pair."""
    p, lo = pmf_lo
    return float(p[max(need - lo, 0) :].sum())


#: By advantage state (and reading of disadvantage): the pool's hand-made PMF.
HAND = {
    "normal": pool(3),
    "advantage": pool(4),
    "disadvantage (subtract)": pool(3, True),
    "disadvantage (drop)": pool(2),
}


def lucky_by_hand(need: int, timing: str, policy: str) -> tuple[float, float]:
    """(P(dice total >= need), E[kept 1s that drain]) of 3d6x + 0 with Lucky (a 1 rerolled)
    under ``policy`` ``"keep"`` or ``"cancel"``, the 1 rerolled before the rule of 1's choice
    (``timing="before_choice"``: the new face joins the throw) or after it (a kept 1 becomes a
    fresh exploding die), by walking every initial throw."""
    chain = np.concatenate([np.zeros(6), die()])  # a kept 6: 6 + an exploding die
    p_total = ones_total = 0.0
    for faces in itertools.product(range(1, 7), repeat=3):
        n1, n6, rest = faces.count(1), faces.count(6), sum(f for f in faces if 1 < f < 6)
        outcomes = [(n1, n6, rest, 6.0**-3)]
        if timing == "before_choice" and n1:  # one 1 rerolled, the new face joins the throw
            outcomes = [
                (n1 - 1 + (f == 1), n6 + (f == 6), rest + (f if 1 < f < 6 else 0), 6.0**-4)
                for f in range(1, 7)
            ]
        for a, b, other, q in outcomes:
            k = min(a, b) if policy == "cancel" else 0
            ones, sixes, fresh = a - k, b - k, 0
            if timing == "after_choice" and ones:  # a kept 1 rerolled: a fresh exploding die
                ones, fresh = ones - 1, 1
            pmf = np.ones(1)
            for d in [chain] * sixes + [die()] * fresh:
                pmf = np.convolve(pmf, d)
            p_total += q * float(pmf[max(need - other - ones, 0) :].sum())
            ones_total += q * ones
    return p_total, ones_total
