"""Opposed tests: P(A wins), P(tie: the status quo holds) and P(A loses) of side A's rolls
against side B's, in each system (:func:`~explodice.opposed`); exact, or simulated when the
inputs ask (then each probability carries its 95% Wilson interval at the ``n`` rolls of each
side: P(A wins) from two samples of ``n`` is a Mann-Whitney statistic, whose variance is at
most p(1 - p)/n, so the interval is, if anything, wide).

Shown by the report's page ``opposed`` and ``explodice opposed``.

>>> a = compute(OpposedInputs((Roll(0),), Roll(0), systems=("d20",)))
>>> a.tables["opposed"][["win", "tie", "loss"]].round(6).values.tolist()
[[0.475, 0.05, 0.475]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.resolutions import opposed
from explodice.engine.sampling import DEFAULT_N, Sampling
from explodice.game.rules import Roll, Rules
from explodice.game.tables import SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Method, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["OPPOSED_KINDS", "OUTCOMES", "OpposedInputs", "QUESTION", "compute", "wilson"]

#: The outcomes for side A, in the table's order.
OUTCOMES = ("win", "tie", "loss")
#: The columns of the table and their kinds.
OPPOSED_KINDS: dict[str, Kind] = {
    "system": "name",
    "a": "name",
    "b": "name",
    "modifier_a": "modifier",
    "modifier_b": "modifier",
    **{col: "probability" for o in OUTCOMES for col in (o, f"{o}_low", f"{o}_high")},
    "mean_margin": "signed",
}


@dataclass(frozen=True)
class OpposedInputs:
    """Side A's rolls (``a``: one row each), side B's roll ``b``, the ``systems``, the rules,
    and the method (``n`` rolls of each side and ``seed`` where simulated; ``seed`` ``None``:
    fresh entropy, the seed drawn recorded)."""

    a: tuple[Roll, ...]
    b: Roll
    systems: tuple[System, ...] = ("3d6x",)
    rules: Rules = Rules()
    method: Method = "exact"
    n: int = DEFAULT_N
    seed: int | None = 0


def wilson(p: Any, n: int, z: float = 1.959963984540054) -> tuple[Any, Any]:
    """The 95% Wilson score interval of a proportion ``p`` (an array) observed over ``n``.

    >>> [round(float(x), 4) for x in wilson(0.5, 100)]  # as wilson_interval(50, 100)
    [0.4038, 0.5962]
    """
    p = np.asarray(p, dtype=float)
    z2 = z * z / n
    centre = (p + z2 / 2) / (1 + z2)
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n)) / (1 + z2)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def compute(inputs: OpposedInputs, threads: int | None = None) -> Answer:
    """Table ``opposed``: one row per system and roll of side A (``a``, ``b``: the rolls as
    the engine writes them; ``win``, ``tie``, ``loss``, ``mean_margin``; where simulated,
    ``<outcome>_low`` and ``<outcome>_high``). ``threads`` changes how, never what."""
    simulated = inputs.method == "simulate"
    seed = inputs.seed
    if simulated and seed is None:  # fresh entropy, recorded so that the run can be replayed
        seed = int(np.random.default_rng().integers(2**63))
    sampling = Sampling(inputs.method, n=inputs.n, seed=seed, threads=threads)
    rows = []
    for system in (s for s in SYSTEMS if s in inputs.systems):
        for roll in inputs.a:
            o = opposed(roll, inputs.b, system=system, rules=inputs.rules, sampling=sampling)
            rows.append(
                {
                    "system": system,
                    "a": o.a,
                    "b": o.b,
                    "modifier_a": roll.modifier,
                    "modifier_b": inputs.b.modifier,
                    "win": o.win,
                    "tie": o.tie,
                    "loss": o.loss,
                    "mean_margin": float(o.margin.index.to_numpy() @ o.margin.to_numpy()),
                }
            )
    frame = pd.DataFrame(rows)
    if simulated:
        for outcome in OUTCOMES:
            low, high = wilson(frame[outcome].to_numpy(), inputs.n)
            at = list(frame.columns).index(outcome) + 1
            frame.insert(at, f"{outcome}_high", high)
            frame.insert(at, f"{outcome}_low", low)
    prov = Provenance.of(
        "opposed",
        inputs.rules,
        method=inputs.method,
        n=inputs.n,
        seed=seed,
        unit="rolls",
        policies=roller_policies(  # each roll of side A, then side B's
            (f"{side} {r.modifier:+d}", r)
            for side, r in [*(("A", x) for x in inputs.a), ("B", inputs.b)]
        ),
    )
    return Answer("opposed", {"opposed": frame}, OPPOSED_KINDS, prov)


QUESTION = register(
    Question(
        name="opposed",
        summary="an opposed test: P(win), P(tie: the status quo), P(loss), both systems",
        inputs=OpposedInputs,
        compute=compute,
        kinds=OPPOSED_KINDS,
        surfaces={"report": ("opposed",), "cli": ("opposed",)},
    )
)
