"""Rerolls in the d20 system (docs/rules.md, Rerolls; seed 001's halfling Lucky trait).

- ``Reroll("one")``: a d20 showing 1 is rerolled once and the new face stands (with
  advantage or disadvantage, one die showing 1 is rerolled, then the higher or lower kept).
- ``Reroll("failure", dc=...)``: when the roll fails, the d20 is rolled again; with advantage
  or disadvantage one die only, the one whose reroll gives the best P(success) (ties: a die
  showing 1, then the lower die).

Both are computed exactly by enumerating the two dice, and simulated with plain numpy.

>>> from explodice import Roll, Reroll
>>> p = kept_face_pmf_with_reroll(Roll(0, reroll=Reroll("one")), naturals=False)
>>> round(float(p[10:].sum()), 6)  # P(d20 >= 11) with Lucky: 0.5 + 0.05 x 0.5
0.525
"""

from __future__ import annotations

import numpy as np

from explodice.game.rules import Advantage, Roll

__all__ = ["kept_face_pmf_with_reroll", "simulate_faces"]

_F = np.arange(1, 21)


def _succeeds(face: np.ndarray, roll: Roll, naturals: bool) -> np.ndarray:
    """Whether a kept face succeeds against the reroll's DC (naturals: 1 misses, 20 hits)."""
    dc = roll.reroll_dc
    ok = face + roll.modifier >= dc
    if naturals:
        ok = (face == 20) | ((face != 1) & ok)
    return ok


def _keep(a: np.ndarray, b: np.ndarray, advantage: Advantage) -> np.ndarray:
    if advantage == "advantage":
        return np.maximum(a, b)
    if advantage == "disadvantage":
        return np.minimum(a, b)
    return a


def kept_face_pmf_with_reroll(roll: Roll, *, naturals: bool) -> np.ndarray:
    """P(kept face = f) for f = 1..20 once the roll's reroll is played (exact)."""
    adv = roll.advantage
    pmf = np.zeros(21)
    if adv == "normal":
        pairs = [(f, 1, 1 / 20) for f in range(1, 21)]  # the second die is unused
    else:
        pairs = [(a, b, 1 / 400) for a in range(1, 21) for b in range(1, 21)]
    lucky = roll.lucky
    for a, b, p in pairs:
        if lucky and a == 1:  # the die showing 1 (the first when both are)
            for x in range(1, 21):
                pmf[int(_keep(np.array(x), np.array(b), adv))] += p / 20
            continue
        if lucky and b == 1 and adv != "normal":
            for x in range(1, 21):
                pmf[int(_keep(np.array(a), np.array(x), adv))] += p / 20
            continue
        kept = int(_keep(np.array(a), np.array(b), adv))
        if roll.reroll_dc is None or _succeeds(np.array(kept), roll, naturals):
            pmf[kept] += p
            continue
        if adv == "normal":
            pmf[1:] += p / 20
            continue
        # one die again: the one giving the better P(success); ties to a 1, then the lower die
        new_a = _keep(_F, np.full(20, b), adv)
        new_b = _keep(np.full(20, a), _F, adv)
        pa = _succeeds(new_a, roll, naturals).mean()
        pb = _succeeds(new_b, roll, naturals).mean()
        order = [(pa, a == 1, -a, new_a), (pb, b == 1, -b, new_b)]
        best = max(order, key=lambda t: t[:3])[3]
        np.add.at(pmf, best, p / 20)
    return pmf[1:]


def simulate_faces(
    roll: Roll, rng: np.random.Generator, size: int, *, naturals: bool
) -> np.ndarray:
    """``size`` kept faces with the roll's reroll, played die by die with numpy."""
    adv = roll.advantage
    a = rng.integers(1, 21, size=size)
    b = rng.integers(1, 21, size=size) if adv != "normal" else np.full(size, 20)
    if roll.lucky:
        fresh = rng.integers(1, 21, size=size)
        on_a = a == 1
        on_b = ~on_a & (b == 1) & (adv != "normal")
        a = np.where(on_a, fresh, a)
        b = np.where(on_b, fresh, b)
    kept = _keep(a, b, adv)
    if roll.reroll_dc is None:
        return kept
    fail = ~_succeeds(kept, roll, naturals)
    fresh = rng.integers(1, 21, size=size)
    if adv == "normal":
        return np.where(fail, fresh, kept)
    # P(success) of each choice, from the 20 faces the fresh die can show
    faces = _F[None, :]
    pa = _succeeds(_keep(faces, b[:, None], adv), roll, naturals).mean(axis=1)
    pb = _succeeds(_keep(a[:, None], faces, adv), roll, naturals).mean(axis=1)
    key_a = np.stack([pa, a == 1, -a], axis=1)
    key_b = np.stack([pb, b == 1, -b], axis=1)
    diff = key_a - key_b
    first = np.argmax(diff != 0, axis=1)
    pick_a = diff[np.arange(size), first] >= 0
    again = np.where(pick_a, _keep(fresh, b, adv), _keep(a, fresh, adv))
    return np.where(fail, again, kept)
