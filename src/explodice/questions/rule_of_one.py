"""The rule of 1: the drain of rolls (its law, by points, and its summary) and the
success/drain frontier of cancelling 1s against 6s for rolls against DCs, with the λ a
sensible player implies (:func:`~explodice.drain_frame`, :func:`~explodice.drain_summary`,
:func:`~explodice.frontier`). Exact.

Shown by the report's page ``rule-of-one`` and ``explodice frontier`` (one roll and DC).

>>> from explodice.questions.registry import ask
>>> a = ask("rule_of_one", RuleOfOneInputs(Rules(), cases=((Roll(2), 16),)))
>>> f = a.tables["frontier"]
>>> list(f.policy.iloc[[0, -1]]), a.provenance.method
(['keep', 'cancel'], 'exact')
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.drain import drain_frame, drain_summary
from explodice.analysis.frontier import frontier
from explodice.game.rules import Roll, Rules
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["QUESTION", "RULE_OF_ONE_KINDS", "RuleOfOneInputs", "compute"]

#: The columns of the rule of 1's tables and their kinds.
RULE_OF_ONE_KINDS: dict[str, Kind] = {
    "label": "label",
    "gauge": "name",
    "drain": "points",
    "p": "probability",
    "p_at_least": "probability",
    "drain_mean": "number",
    "drain_std": "number",
    "ones_mean": "number",
    "p_drain_ge_1": "probability",
    "p_drain_ge_5": "probability",
    "p_drain_ge_10": "probability",
    "p_drain_ge_15": "probability",
    "p_drain_ge_20": "probability",
    "policy": "label",
    "lambda_lo": "number",
    "lambda_hi": "number",
    "p_success": "probability",
    "price": "number",
    "knee": "flag",
    "roll": "name",
    "dc": "dc",
    "implied_lambda": "number",
}
#: The analyses' own provenance columns (the answer's provenance holds them).
_STAMPS = ["method", "rules"]


@dataclass(frozen=True)
class RuleOfOneInputs:
    """The ``rules``; ``drains``: the rolls whose drain is asked, ``(label, roll)`` (the
    label a word of the data, translated where shown), with the drains listed up to
    ``upto``; ``cases``: the ``(roll, DC)`` pairs whose cancel frontier is asked."""

    rules: Rules
    drains: tuple[tuple[str, Roll], ...] = ()
    cases: tuple[tuple[Roll, int], ...] = ()
    upto: int = 40


def compute(inputs: RuleOfOneInputs) -> Answer:
    """Tables ``drain`` (P(drain = x) and P(drain >= x) of each roll of ``drains``),
    ``drain_summary`` (its mean, spread, kept 1s and tail) and ``frontier`` (each case's
    policies from keep to cancel, with the case's ``roll``, ``dc`` and ``implied_lambda``)."""
    rules = inputs.rules
    tables: dict[str, pd.DataFrame] = {}
    if inputs.drains:
        rolls = dict(inputs.drains)
        tables["drain"] = drain_frame(rolls, rules, upto=inputs.upto).drop(columns=_STAMPS)
        tables["drain_summary"] = drain_summary(rolls, rules).drop(columns=_STAMPS)
    fronts = []
    for roll, dc in inputs.cases:
        f = frontier(roll, dc, rules=rules)
        f["implied_lambda"] = float(f.attrs["implied_lambda"])
        fronts.append(f.drop(columns=_STAMPS))
    if fronts:
        tables["frontier"] = pd.concat(fronts, ignore_index=True)
    for frame in tables.values():
        frame.attrs = {}
    rolls_of = [r for _, r in inputs.drains] + [r for r, _ in inputs.cases]
    policies = roller_policies((r.describe(), r) for r in rolls_of)
    prov = Provenance.of("rule_of_one", rules, unit="rolls", policies=policies)
    return Answer("rule_of_one", tables, RULE_OF_ONE_KINDS, prov)


QUESTION = register(
    Question(
        name="rule_of_one",
        summary="the drain of a roll and the success/drain frontier of cancelling 1s",
        inputs=RuleOfOneInputs,
        compute=compute,
        kinds=RULE_OF_ONE_KINDS,
        surfaces={"report": ("rule-of-one",), "cli": ("frontier",)},
    )
)
