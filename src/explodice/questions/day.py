"""The party's adventuring day: every gauge's fate, P(gauge empty) after each roll for every
gauge that can empty (its own drains or another gauge's overflow), and each roll's and roll
type's success. Exact by default (:func:`~explodice.exact_day`, about a second at level 20);
simulated when the inputs ask (:func:`~explodice.simulate_day`, then every probability
carries its Wilson interval and every mean its standard error where the engine gives one).

Shown by the report's page ``day``, ``explodice day SCENARIO`` and the explorer's party day.

>>> from explodice.questions.registry import ask
>>> from explodice.day.scenario import default_scenario
>>> a = ask("day", DayInputs(default_scenario(), Rules()))
>>> a.provenance.method, sorted(a.tables)
('exact', ['empty', 'first_empty', 'gauges', 'roll_types', 'success'])
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.sensitivity import day_blind_spot
from explodice.day.scenario import Scenario
from explodice.game.rules import Rules
from explodice.questions.answer import Answer, Kind, Method, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = [
    "DAY_KINDS",
    "DayInputs",
    "QUESTION",
    "can_empty",
    "compute",
    "day_policies",
    "emptying",
]

#: The columns of the day's tables and their kinds.
DAY_KINDS: dict[str, Kind] = {
    "character": "name",
    "gauge": "name",
    "start": "count",
    "p_empty": "probability",
    "ci_low": "probability",
    "ci_high": "probability",
    "can_empty": "flag",
    "first_empty_mean": "number",
    "first_empty_median": "count",
    "caused_mean": "points",
    "absorbed_mean": "points",
    "end_mean": "points",
    "lost_mean": "points",
    "policy": "label",
    "roll": "count",
    "p": "probability",
    "count": "count",
    "never": "flag",
    "type": "name",
    "state": "label",
    "advantage": "label",
    "rolls": "number",
    "successes": "number",
    "drain_mean": "number",
    "drain_se": "number",
}
#: The engines' columns that the answer's provenance holds (method, n, seed, rules).
_STAMPS = ["n_days", "seed", "method", "rules", "scenario"]


@dataclass(frozen=True)
class DayInputs:
    """The day's inputs: the ``scenario`` (party, gauges, rolls, each character's policy and
    reroll), the ``rules``, the ``method`` and, where simulated, ``n_days`` and ``seed``."""

    scenario: Scenario
    rules: Rules
    method: Method = "exact"
    n_days: int = 2000
    seed: int | None = 0


def day_policies(scenario: Scenario) -> tuple[tuple[str, str, str], ...]:
    """``(name, policy, reroll)`` of each character of the day, for the provenance."""
    return roller_policies((c.name, c) for c in scenario.characters)


def can_empty(gauges: pd.DataFrame, cut: float) -> pd.Series:
    """The gauges that can empty over the day: P(empty by the end) above the exact answer's
    cut (``cut`` 0: a simulated answer, any day on which it emptied), whether the day drains
    them or another gauge's excess pours into them (overflow)."""
    return gauges.p_empty > cut


def emptying(answer: Answer, table: str = "empty") -> pd.DataFrame:
    """The rows of ``table`` of a day's answer that belong to a gauge that can empty (the
    curves a surface draws), with the provenance columns."""
    gauges = answer.tables["gauges"]
    keep = gauges[gauges.can_empty][["character", "gauge"]]
    return answer.csv_table(table).merge(keep, on=["character", "gauge"])


def compute(inputs: DayInputs) -> Answer:
    """The day's tables: ``gauges`` (every PC gauge, with ``can_empty``: the surfaces show
    those), ``empty`` (P(empty after roll t) of every PC gauge), ``first_empty``, ``success``
    (by roll) and ``roll_types``
    (each roll type, its gauge not empty or empty); ``extra["not computed"]``: the reason
    when the day engines cannot play these rules (no tables then)."""
    day, rules = inputs.scenario, inputs.rules
    spot = day_blind_spot(day, rules)
    if spot is not None:  # the day engines would ignore a reading: no number, the reason
        prov = Provenance.of("day", rules, policies=day_policies(day), notes=("not computed",))
        return Answer("day", {}, DAY_KINDS, prov, {"not computed": spot.switch})
    if inputs.method == "exact":
        from explodice.day.exact import exact_day  # numba: only when asked

        result = exact_day(day, rules)
        prov = Provenance.of(
            "day", rules, method="exact", cut=result.omitted, policies=day_policies(day)
        )
    else:
        from explodice.day.simulate import simulate_day

        result = simulate_day(day, rules, n_days=inputs.n_days, seed=inputs.seed)
        prov = Provenance.of(  # the seed it drew when none was given: recorded
            "day",
            rules,
            method="simulate",
            n=inputs.n_days,
            seed=int(result.seed),
            policies=day_policies(day),
        )
    gauges = result.to_frame("gauges").drop(columns=_STAMPS)
    gauges["can_empty"] = can_empty(gauges, prov.cut)
    tables = {
        "gauges": gauges,
        "empty": result.to_frame("empty").drop(columns=_STAMPS),
        "first_empty": result.to_frame("first_empty").drop(columns=_STAMPS),
        "success": result.to_frame("success").drop(columns=_STAMPS),
        "roll_types": result.to_frame("roll_types").drop(columns=_STAMPS),
    }
    return Answer("day", tables, DAY_KINDS, prov, {"omitted": float(result.omitted)})


QUESTION = register(
    Question(
        name="day",
        summary="the party's gauges and successes over an adventuring day",
        inputs=DayInputs,
        compute=compute,
        kinds=DAY_KINDS,
        surfaces={"report": ("day",), "cli": ("day",), "explorer": ("day",)},
    )
)
