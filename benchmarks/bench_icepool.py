"""The exact engine against icepool on the same questions, in one run (issue 15).

icepool (https://pypi.org/project/icepool/) is the reference library for exact dice
probabilities: it works with integer weights (exact fractions), explodice with float64 PMFs.
Install it for this benchmark only: ``pip install -e '.[bench]'``. Then

    python benchmarks/bench_icepool.py            # about a minute

Both sides answer, from a cold start (explodice's caches cleared; icepool's dice built anew,
its own caches warm after the first repeat, as a user's session would have them):

1. the full DC table: modifiers -5..+10 x the six DCs x normal, advantage and both readings
   of disadvantage (subtract: 3d6x minus a malus die; drop: 2d6x). The default check keeps
   every die (``keep``), so its total is the plain exploding sum and icepool writes it as
   ``N @ d6.explode(depth=16)``;
2. one ``best(λ)`` policy, ``Roll(4, policy=Best(16, 0.05))`` at DC 16: P(success) and
   E[drain]. icepool has no rule of 1, so the choice is enumerated in icepool terms: for each
   multiset of the initial throw (``d6.pool(3).expand()``), each k of pairs cancelled gives
   the continuation die ``s + a + 6 b + b @ X`` (a kept 1s, b kept 6s, X the exploding d6);
   icepool's own probabilities pick the k with the best P(success) - λ · 4.2 a (ties to the
   larger k), and the throw is mapped to that die (and to ``a @ X`` for the drain);
3. an opposed test, ``Roll(3)`` against ``Roll(1, advantage="advantage")``: P(win), P(tie),
   P(loss).

The explosion cut is the same on both sides: at most 16 explosions per die
(``explodice.engine.dice.MAX_EXPLOSIONS``, ``depth=16`` in icepool). They differ only in what
happens past it: explodice leaves out a chain of 17 sixes (probability 6**-17 per die,
reported in ``omitted``), icepool counts it as its last 6. So the answers may differ by a few
times 6**-17 ≈ 6e-14, plus float64 rounding on explodice's side.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction

import numpy as np

import explodice as ex
from explodice.engine.dice import EXPLODING_DIE_MEAN, MAX_EXPLOSIONS
from explodice.engine.exact import _joint
from explodice.engine.rule_of_one import chain_survival, policy_table

try:
    import icepool
except ImportError as err:  # pragma: no cover - the benchmark's own dependency
    raise SystemExit("bench_icepool.py needs icepool: pip install -e '.[bench]'") from err

MODIFIERS = list(range(-5, 11))
DCS = [8, 12, 16, 22, 28, 35]
STATES = [
    ("normal", "subtract"),
    ("advantage", "subtract"),
    ("disadvantage", "subtract"),
    ("disadvantage", "drop"),
]
BEST = ex.Roll(4, policy=ex.Best(16, 0.05))
OPPOSED = (ex.Roll(3), ex.Roll(1, advantage="advantage"))


def clear_explodice() -> None:
    """Forget every cached distribution and policy table: a cold exact engine."""
    _joint.cache_clear()
    policy_table.cache_clear()
    chain_survival.cache_clear()


# -- explodice ------------------------------------------------------------------------------
def explodice_table() -> np.ndarray:
    out = []
    for adv, reading in STATES:
        base = ex.exact(ex.Roll(0, advantage=adv), ex.Rules(disadvantage=reading))
        out.append([base.p_success(np.array(DCS) - m) for m in MODIFIERS])
    return np.array(out, dtype=float)  # [state, modifier, dc]


def explodice_best() -> np.ndarray:
    d = ex.exact(BEST)
    return np.array([d.p_success(BEST.policy.dc), d.drain_mean])


def explodice_opposed() -> np.ndarray:
    o = ex.opposed(*OPPOSED)
    return np.array([o.win, o.tie, o.loss])


# -- icepool --------------------------------------------------------------------------------
def exploding_d6() -> icepool.Die:
    return icepool.d6.explode(depth=MAX_EXPLOSIONS)


def icepool_dice() -> list:
    x = exploding_d6()
    return [3 @ x, 4 @ x, 3 @ x - x, 2 @ x]  # the order of STATES


def icepool_table() -> np.ndarray:
    out = []
    for die in icepool_dice():
        out.append([[float(die.probability(">=", dc - m)) for dc in DCS] for m in MODIFIERS])
    return np.array(out)


def icepool_best() -> np.ndarray:
    x = exploding_d6()
    policy = BEST.policy
    need = policy.dc - BEST.modifier
    chosen: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def choice(*faces: int) -> tuple[int, int, int]:
        """(kept 1s, kept 6s, sum of the other faces) for the best k of this throw."""
        if faces not in chosen:
            n1, n6 = faces.count(1), faces.count(6)
            s = sum(f for f in faces if f not in (1, 6))
            best, best_value = None, None
            for k in range(min(n1, n6) + 1):
                a, b = n1 - k, n6 - k
                p = (s + a + 6 * b + b @ x).probability(">=", need)
                value = p - Fraction(policy.weight) * Fraction(EXPLODING_DIE_MEAN) * a
                if best_value is None or value >= best_value:  # ties go to the larger k
                    best, best_value = (a, b, s), value
            chosen[faces] = best
        return chosen[faces]

    def total(*faces: int) -> icepool.Die:
        a, b, s = choice(*faces)
        return s + a + 6 * b + b @ x

    def drain(*faces: int) -> icepool.Die:
        a, _, _ = choice(*faces)
        return a @ x if a else icepool.Die([0])

    throws = icepool.d6.pool(3).expand()
    totals = throws.map(total, star=True)
    drains = throws.map(drain, star=True)
    return np.array([float(totals.probability(">=", need)), float(drains.mean())])


def icepool_opposed() -> np.ndarray:
    x = exploding_d6()
    a, b = OPPOSED
    margin = (3 @ x + a.modifier) - (4 @ x + b.modifier)
    return np.array(
        [
            float(margin.probability(">", 0)),
            float(margin.probability("==", 0)),
            float(margin.probability("<", 0)),
        ]
    )


QUESTIONS = {
    "full DC table (4 x 16 x 6 = 384 P(success))": (explodice_table, icepool_table),
    "best(λ=0.05), DC 16, +4: P(success), E[drain]": (explodice_best, icepool_best),
    "opposed, +3 against +1 with advantage: win, tie, loss": (explodice_opposed, icepool_opposed),
}


def timed(fn, repeats: int, before=None) -> tuple[float, float, np.ndarray]:
    """(first call s, best of the repeats s, answer); ``before`` runs untimed before each."""
    times = []
    for _ in range(repeats + 1):
        if before is not None:
            before()
        t = time.perf_counter()
        answer = fn()
        times.append(time.perf_counter() - t)
    return times[0], min(times[1:]), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ex.exact(ex.Roll(0))  # import-time work out of the way; the caches are cleared below
    rows = []
    for name, (ours, theirs) in QUESTIONS.items():
        f0, f1, fa = timed(ours, args.repeats, clear_explodice)
        i0, i1, ia = timed(theirs, args.repeats)
        rows.append(
            {
                "question": name,
                "explodice first (ms)": 1e3 * f0,
                "explodice best (ms)": 1e3 * f1,
                "icepool first (ms)": 1e3 * i0,
                "icepool best (ms)": 1e3 * i1,
                "icepool / explodice (best)": i1 / f1,
                "largest |difference|": float(np.max(np.abs(fa - ia))),
            }
        )
    result = {"date": time.strftime("%Y-%m-%d %H:%M"), "icepool": icepool.__version__, "rows": rows}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"## explodice's exact engine against icepool {result['icepool']}, {result['date']}\n")
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for row in rows:
        print(
            "| "
            + " | ".join(
                f"{v:.2e}"
                if k == "largest |difference|"
                else f"{v:.1f}"
                if isinstance(v, float)
                else str(v)
                for k, v in row.items()
            )
            + " |"
        )


if __name__ == "__main__":
    main()
