"""3d6x PMFs built by hand from the rules, independently of explodice's dice module.

One exploding die is 6k + r with probability (1/6)**(k+1), for k >= 0 and r in 1..5; a pool is
the convolution of its dice, and the malus die of the ``subtract`` reading is subtracted.
Tests compare the engine with these, never with its own output.
"""

from __future__ import annotations

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
