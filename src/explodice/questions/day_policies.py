"""The party's day under four rule-of-1 policies, exactly: keep, cancel, the best fixed weight
λ (of a few, each played all day) and the optimal state-dependent player
(:func:`~explodice.optimal_policy`, backward dynamic programming over the exact day): each
PC's expected successes over the day, the optimal player's gain over each policy, and the
optimal player's thresholds.

Shown by the report's page ``day-policies``.

>>> from explodice.day.scenario import default_scenario
>>> DayPoliciesInputs(default_scenario(), Rules()).lambdas
(0.0, 0.02, 0.05, 0.1, 0.2)
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.sensitivity import day_blind_spot
from explodice.day.compiled import optimal_unsupported
from explodice.day.scenario import Scenario
from explodice.game.rules import Rules
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.day import day_policies
from explodice.questions.registry import Question, register

__all__ = ["DAY_POLICIES_KINDS", "LAMBDAS", "POLICIES", "DayPoliciesInputs", "QUESTION", "compute"]

#: The fixed weights λ tried (the best of them, played all day, is one of the four policies).
LAMBDAS = (0.0, 0.02, 0.05, 0.1, 0.2)
#: The policies compared, in the table's order.
POLICIES = ("keep", "cancel", "best fixed λ", "optimal")

#: The columns of the tables and their kinds.
DAY_POLICIES_KINDS: dict[str, Kind] = {
    "character": "name",
    "policy": "label",
    "weight": "number",
    "successes": "number",
    "optimal_gain": "signed",
    "type": "name",
    "gauge": "name",
    "roll": "count",
    "n1": "count",
    "n6": "count",
    "s": "count",
    "cancel_up_to": "count",
    "monotone": "flag",
}


@dataclass(frozen=True)
class DayPoliciesInputs:
    """The day's ``scenario`` (party, gauges, rolls; the NPCs' own policies), the ``rules``
    and the fixed weights ``lambdas`` tried for the best fixed λ. Always exact: the optimal
    player is computed on the exact day."""

    scenario: Scenario
    rules: Rules
    lambdas: tuple[float, ...] = LAMBDAS


def _policies(best: object, lambdas: tuple[float, ...]) -> pd.DataFrame:
    """The optimal player's comparison, one row per PC and policy in :data:`POLICIES`' order,
    with ``weight`` the λ of the best fixed λ's row (NaN on the others)."""
    table = best.compare(lambdas=lambdas)  # type: ignore[attr-defined]
    table["policy"] = pd.Categorical(table["policy"], POLICIES, ordered=True)
    table = table.sort_values(["character", "policy"], kind="stable").reset_index(drop=True)
    table["policy"] = table["policy"].astype(str)
    weights = {f"best(λ={w:g})": float(w) for w in lambdas}  # compare()'s label of each λ
    table["weight"] = [weights.get(d, float("nan")) for d in table.detail]
    return table[["character", "policy", "weight", "successes", "optimal_gain"]]


def compute(inputs: DayPoliciesInputs) -> Answer:
    """Tables ``policies`` (``character, policy, weight, successes, optimal_gain``) and
    ``thresholds`` (the optimal player's, :meth:`~explodice.OptimalPolicy.to_frame`);
    ``extra["unsupported"]``: why the optimal player cannot play the day (a reroll on
    failure), or ``extra["not computed"]``: the switch the day engines cannot read (no tables
    then)."""
    day, rules = inputs.scenario, inputs.rules
    prov = Provenance.of("day_policies", rules, policies=day_policies(day))
    reason = optimal_unsupported(day)
    if reason is not None:
        return Answer("day_policies", {}, DAY_POLICIES_KINDS, prov, {"unsupported": reason})
    spot = day_blind_spot(day, rules)
    if spot is not None:
        return Answer("day_policies", {}, DAY_POLICIES_KINDS, prov, {"not computed": spot.switch})
    from explodice.day.optimal import optimal_policy  # numba: only when asked

    best = optimal_policy(day, rules)
    thresholds = best.to_frame("thresholds").reset_index(drop=True)
    thresholds.attrs = {}
    tables = {"policies": _policies(best, inputs.lambdas), "thresholds": thresholds}
    return Answer("day_policies", tables, DAY_POLICIES_KINDS, prov)


QUESTION = register(
    Question(
        name="day_policies",
        summary="each PC's day under keep, cancel, the best fixed λ and the optimal player",
        inputs=DayPoliciesInputs,
        compute=compute,
        kinds=DAY_POLICIES_KINDS,
        surfaces={"report": ("day-policies",)},
    )
)
