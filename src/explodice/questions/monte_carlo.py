"""The Monte Carlo engine checked against the exact one: one roll simulated ``n`` times from a
seed, P(success) with its Wilson interval for every DC beside the exact value, and the
estimate at one DC as ``n`` grows (the same seed at each size). An answer that holds both
methods: its provenance is the simulation's (``n``, ``seed``), its ``exact`` columns the
exact engine's.

Shown by the report's page ``monte-carlo``.

>>> from explodice.questions.registry import ask
>>> a = ask("monte_carlo", MonteCarloInputs(Roll(4), Rules(), dc=16, n=2000, seed=1))
>>> p = a.provenance
>>> p.method, p.n, p.seed, sorted(a.tables)
('simulate', 2000, 1, ['bands', 'convergence', 'counts'])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from explodice.engine.exact import exact
from explodice.engine.simulate import simulate
from explodice.game.rules import Roll, Rules
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["MONTE_CARLO_KINDS", "MonteCarloInputs", "QUESTION", "compute"]

#: The columns of the check's tables and their kinds.
MONTE_CARLO_KINDS: dict[str, Kind] = {
    "roll": "name",
    "dc": "dc",
    "total": "count",
    "count": "count",
    "p": "probability",
    "ci_low": "probability",
    "ci_high": "probability",
    "exact": "probability",
    "n": "count",
    "covers": "flag",
}
#: The smallest sample of the convergence.
SMALLEST = 1_000


@dataclass(frozen=True)
class MonteCarloInputs:
    """The ``roll`` and ``rules``; ``dc`` (the convergence's DC), ``n`` rolls and ``seed``
    (the simulation's), ``dcs`` (the bands' DCs) and ``steps`` (the sizes of the convergence,
    from 1,000 to ``n`` rolls on a log scale)."""

    roll: Roll
    rules: Rules
    dc: int
    n: int
    seed: int
    dcs: tuple[int, ...] = tuple(range(3, 61))
    steps: int = 8


def compute(inputs: MonteCarloInputs) -> Answer:
    """Tables ``bands`` (each DC: the simulated P(success), its Wilson interval and the exact
    value), ``counts`` (the simulated totals: what a band is drawn from) and ``convergence``
    (the estimate at ``dc`` for each sample size ``n``, with its interval and the exact
    value); each row's ``covers`` says whether its interval holds the exact value."""
    roll, rules, dc = inputs.roll, inputs.rules, inputs.dc
    ex = exact(roll, rules)
    sim = simulate(roll, rules, n=inputs.n, seed=inputs.seed)
    rows = []
    for n in np.unique(np.geomspace(min(SMALLEST, inputs.n), inputs.n, inputs.steps).astype(int)):
        s = sim if n == inputs.n else simulate(roll, rules, n=int(n), seed=inputs.seed)
        lo, hi = s.ci(dc)
        rows.append(
            {
                "n": int(n),
                "dc": dc,
                "p": float(s.p_success(dc)),
                "ci_low": float(lo),
                "ci_high": float(hi),
                "exact": float(ex.p_success(dc)),
                "covers": bool(lo <= ex.p_success(dc) <= hi),
            }
        )
    bands = sim.success_frame(inputs.dcs).drop(columns=["method", "n", "seed"])
    bands["exact"] = ex.p_success(bands["dc"].to_numpy())
    # a 95% interval misses the exact value about 1 time in 20 by chance: the page counts them
    bands["covers"] = (bands["ci_low"] <= bands["exact"]) & (bands["exact"] <= bands["ci_high"])
    bands.insert(0, "roll", roll.describe())
    counts = sim.to_frame("total")
    prov = Provenance.of(
        "monte_carlo",
        rules,
        method="simulate",
        n=inputs.n,
        seed=inputs.seed,
        unit="rolls",
        notes=("checked against the exact engine",),
    )
    tables = {"bands": bands, "counts": counts, "convergence": pd.DataFrame(rows)}
    return Answer("monte_carlo", tables, MONTE_CARLO_KINDS, prov)


QUESTION = register(
    Question(
        name="monte_carlo",
        summary="the Monte Carlo engine against the exact one: bands and convergence",
        inputs=MonteCarloInputs,
        compute=compute,
        kinds=MONTE_CARLO_KINDS,
        surfaces={"report": ("monte-carlo",)},
    )
)
