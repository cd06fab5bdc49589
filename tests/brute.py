"""A literal, slow enumerator of docs/rules.md, written apart from the engine, as a test oracle.

It walks every sequence of faces, one die at a time, with explosion chains cut after
``depth`` explosions (the omitted sequences are simply dropped), and applies the rules in the
order docs/rules.md gives them. Compare it with the engine run at the same cut.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

EXPLODING_MEAN = 4.2


def chains(depth: int) -> list[tuple[tuple[int, ...], float]]:
    """Every face sequence of one exploding die with at most ``depth`` explosions."""
    out = []
    for k in range(depth + 1):
        for r in range(1, 6):
            out.append(((6,) * k + (r,), (1 / 6) ** (k + 1)))
    return out


def dice_sums(n: int, depth: int) -> dict[tuple[int, int], float]:
    """{(sum of n exploding dice, how many of them end on a 1): p}."""
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, int], float] = defaultdict(float)
        for (t, e), p in dist.items():
            for faces, q in chains(depth):
                nxt[(t + sum(faces), e + (faces[-1] == 1))] += p * q
        dist = nxt
    return dict(dist)


def pool_of(roll, rules) -> tuple[int, bool]:
    if roll.advantage == "advantage":
        return 4, False
    if roll.advantage == "disadvantage":
        return (2, False) if rules.disadvantage == "drop" else (3, True)
    return 3, False


def malus_faces(rules, depth: int) -> dict[int, float]:
    """{value of the subtracted die: p}: an exploding d6 cut at ``depth``, or a plain d6."""
    if getattr(rules, "malus_die", "exploding") == "plain":
        return {m: 1 / 6 for m in range(1, 7)}
    return {m: p for (m, _), p in dice_sums(1, depth).items()}


def lucky_timing(roll, rules) -> str | None:
    """None without Lucky, else "before_choice" or "after_choice"."""
    if roll.reroll is None or roll.reroll.trigger != "one":
        return None
    return getattr(rules, "lucky_timing", "before_choice")


def throws(pool: int, lucky: bool):
    """Initial throws (faces, p), after the lucky reroll of one 1 when it applies."""
    for faces in itertools.product(range(1, 7), repeat=pool):
        p = (1 / 6) ** pool
        if lucky and 1 in faces:
            i = faces.index(1)
            for new in range(1, 7):
                yield faces[:i] + (new,) + faces[i + 1 :], p / 6
        else:
            yield faces, p


def p_success_given(
    kept_other: int,
    kept_sixes: int,
    malus: bool,
    need: int,
    depth: int,
    fresh: int = 0,
    rules=None,
) -> float:
    """P(kept_other + sum over kept sixes of (6 + X) + ``fresh`` more exploding dice - malus
    >= need), by enumeration (the malus die of ``rules``)."""
    total = 0.0
    for (v, _), p in dice_sums(kept_sixes + fresh, depth).items():
        base = kept_other + 6 * kept_sixes + v
        if malus:
            for m, q in malus_faces(rules, depth).items():
                if base - m >= need:
                    total += p * q
        elif base >= need:
            total += p
    return total


def after_choice(roll, rules, ones: int) -> tuple[int, int]:
    """(kept 1s that stay, fresh dice): Lucky after the choice rerolls one kept 1, which then
    neither adds 1 nor drains; the new die is an exploding d6, summed."""
    if lucky_timing(roll, rules) == "after_choice" and ones > 0:
        return ones - 1, 1
    return ones, 0


def choose_k(roll, rules, faces, malus, depth) -> int:
    n1, n6 = faces.count(1), faces.count(6)
    if roll.kind not in rules.rule_of_one_kinds:
        return 0
    if roll.actor == "npc" or roll.policy == "cancel":
        return min(n1, n6)
    if roll.policy == "keep":
        return 0
    best_k, best_v = 0, None
    need = roll.policy.dc - roll.modifier
    mid = sum(f for f in faces if 1 < f < 6)
    for k in range(min(n1, n6) + 1):
        a, fresh = after_choice(roll, rules, n1 - k)
        b = n6 - k
        ones = a + (b / 5 if rules.ones_on_explosions else 0)
        v = (
            p_success_given(mid + a, b, malus, need, depth, fresh, rules)
            - roll.policy.weight * EXPLODING_MEAN * ones
        )
        if best_v is None or v >= best_v - 1e-12:
            best_k, best_v = k, v if best_v is None else max(v, best_v)
    return best_k


def enumerate_roll(roll, rules, depth: int) -> dict[tuple[int, int, int], float]:
    """{(total, drain, kept 1s): p} for the roll, every die cut after ``depth`` explosions."""
    pool, malus = pool_of(roll, rules)
    under_rule = roll.kind in rules.rule_of_one_kinds
    drains = under_rule and roll.actor == "pc"
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for faces, p in throws(pool, lucky_timing(roll, rules) == "before_choice"):
        k = choose_k(roll, rules, faces, malus, depth)
        kept = list(faces)
        for _ in range(k):  # set aside k pairs of one 1 and one 6
            kept.remove(1)
            kept.remove(6)
        ones, fresh = after_choice(roll, rules, kept.count(1))
        if fresh:  # Lucky after the choice: that 1 is rerolled, it no longer adds 1
            kept.remove(1)
        sixes = kept.count(6)
        base = sum(kept) + roll.modifier
        # the kept 6s' chains, then the fresh die (its own 1s never drain)
        chains_and_fresh: dict[tuple[int, int], float] = defaultdict(float)
        for (v, e), q in dice_sums(sixes, depth).items():
            for (w, _), qq in dice_sums(fresh, depth).items():
                chains_and_fresh[(v + w, e)] += q * qq
        for (v, e), q in chains_and_fresh.items():
            kept_ones = (ones + (e if rules.ones_on_explosions else 0)) if under_rule else 0
            mal = malus_faces(rules, depth) if malus else {0: 1.0}
            for m, r in mal.items():
                total = base + v - m
                if drains:
                    for (d, _), s in dice_sums(kept_ones, depth).items():
                        out[(total, d, kept_ones)] += p * q * r * s
                else:
                    out[(total, 0, kept_ones)] += p * q * r
    return dict(out)


def play(faces: list[int], explosions: list[int], modifier: int) -> int:
    """The total of one concrete throw: initial faces, then the faces added by explosions."""
    assert all(f in range(1, 7) for f in faces + explosions)
    needed = faces.count(6) + explosions.count(6)
    assert needed == len(explosions), "each 6 adds exactly one die"
    return sum(faces) + sum(explosions) + modifier


def exact_fraction_at_least(k: int) -> Fraction:
    """P(3d6x >= k) for k <= 18 by counting the 216 throws: any 6 makes a total >= 7 + ..."""
    count = 0
    for faces in itertools.product(range(1, 7), repeat=3):
        # a kept 6 adds at least 1 more; totals of throws with a 6 are at least their sum + 1
        s = sum(faces) + faces.count(6)  # the smallest total this throw can reach
        if s >= k:
            count += 1
        elif 6 in faces:
            raise ValueError("k too large for counting without explosions")
    return Fraction(count, 216)
