"""The odds of one roll: the distribution of its total and its P(success) against DCs, exact
unless the inputs ask for a simulation (:func:`~explodice.roll_distribution`; then every
probability carries its Wilson interval).

Shown by ``explodice odds`` (its ``--pmf`` the total's table) and the report's page
``distribution`` (one answer per roll it draws).

>>> from explodice.questions.registry import ask
>>> a = ask("odds", OddsInputs(Roll(0), Rules(), dcs=(8,)))
>>> a.provenance.method, round(float(a.tables["success"].p.iloc[0]), 6), sorted(a.tables)
('exact', 0.837963, ['pmf', 'success', 'summary'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from explodice.analysis.success import roll_distribution
from explodice.engine.distribution import Distribution
from explodice.game.rules import Roll, Rules
from explodice.game.tables import DC_TABLES, System
from explodice.questions.answer import Answer, Kind, Method, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["ODDS_KINDS", "OddsInputs", "QUESTION", "compute", "roll_policies"]

#: The columns of the odds' tables and their kinds.
ODDS_KINDS: dict[str, Kind] = {
    "system": "name",
    "roll": "name",
    "dc": "dc",
    "p": "probability",
    "p_tie": "probability",
    "ci_low": "probability",
    "ci_high": "probability",
    "total": "count",
    "count": "count",
    "p_at_least": "probability",
    "mean": "number",
    "median": "count",
    "std": "number",
    "drain_mean": "number",
    "ones_mean": "number",
    "p_negative": "probability",
}


@dataclass(frozen=True)
class OddsInputs:
    """One ``roll`` (modifier, advantage, kind, actor, policy, reroll) in a ``system`` under
    ``rules``, against ``dcs`` (``None``: the system's DC table), exact or simulated (``n``
    rolls, ``seed``; a seed of ``None``: fresh entropy, recorded in the answer)."""

    roll: Roll
    rules: Rules
    system: System = "3d6x"
    dcs: tuple[int, ...] | None = None
    method: Method = "exact"
    n: int | None = None
    seed: int | None = None


def roll_policies(roll: Roll) -> tuple[tuple[str, str, str], ...]:
    """``(who, policy, reroll)`` of one roll, for the provenance."""
    return roller_policies([("roll", roll)])


def compute(inputs: OddsInputs, **how: Any) -> Answer:
    """Tables ``success`` (P(total >= DC) for each DC, with ``p_tie`` = P(total == DC) under
    lutte serrée, and the roll's mean, median and expected drain), ``pmf`` (P(total) and P(total >= total) for each total) and ``summary``
    (mean, median, std, expected drain, kept 1s and ``p_negative``, P(total < 0)); ``how``: ``threads``, ``progress``."""
    roll, rules, system = inputs.roll, inputs.rules, inputs.system
    dist = roll_distribution(
        roll,
        system=system,
        rules=rules,
        method=inputs.method,
        n=inputs.n if inputs.method == "simulate" else None,
        seed=inputs.seed,
        **how,
    )
    dcs = list(inputs.dcs) if inputs.dcs is not None else list(DC_TABLES[system].values())
    label = dist.label
    success = dist.success_frame(dcs).drop(columns=["method", "n", "seed"])
    if not dist.simulated:  # an exact p has no interval
        success = success.drop(columns=["ci_low", "ci_high"])
    success.insert(0, "system", system)
    success.insert(1, "roll", label)
    if rules.close_contest:  # lutte serrée: a total equal to the DC goes to bids
        success.insert(list(success.columns).index("p") + 1, "p_tie", _ties(dist, dcs))
    # the roll's summary on every row, as scripts have read it
    success["mean"], success["median"] = float(dist.mean), int(dist.median)
    success["drain_mean"] = float(dist.drain_mean)
    pmf = dist.to_frame("total")
    pmf.insert(0, "system", system)
    pmf.insert(1, "roll", label)
    pmf["p_at_least"] = dist.sf(pmf["total"].to_numpy())
    summary = pd.DataFrame(
        {
            "system": [system],
            "roll": [label],
            "mean": [float(dist.mean)],
            "median": [int(dist.median)],
            "std": [float(dist.std)],
            "drain_mean": [float(dist.drain_mean)],
            "ones_mean": [float(dist.ones_mean)],
            # a subtracted malus die can take the total below 0, off an axis that starts there
            "p_negative": [float(pmf.loc[pmf["total"] < 0, "p"].sum())],
        }
    )
    prov = Provenance.of(
        "odds",
        rules,
        method="simulate" if dist.simulated else "exact",
        n=dist.n,
        seed=dist.seed,
        unit="rolls",
        cut=float(dist.omitted) if not dist.simulated else 0.0,
        policies=roll_policies(roll),
    )
    tables = {"success": success, "pmf": pmf, "summary": summary}
    return Answer("odds", tables, ODDS_KINDS, prov, {"label": label})


def _ties(dist: Distribution, dcs: list[int]) -> list[float]:
    """P(total == DC) for each DC: the share of P(success) that bids settle (lutte serrée)."""
    return [float(dist.p_success(dc) - dist.p_success(dc + 1)) for dc in dcs]


QUESTION = register(
    Question(
        name="odds",
        summary="one roll's distribution and its P(success) against DCs",
        inputs=OddsInputs,
        compute=compute,
        kinds=ODDS_KINDS,
        surfaces={"report": ("distribution",), "cli": ("odds",)},
    )
)
