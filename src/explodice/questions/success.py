"""The DC table: P(success) for each modifier, DC and advantage state (each reading of
disadvantage asked), exact unless the inputs ask for a simulation
(:func:`~explodice.success_table`).

Shown by the report's pages ``dc-table`` and ``success-curves``, and ``explodice table``
(the d20 comparison's curves ask it too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explodice.analysis.success import success_table
from explodice.game.rules import Policy, Rules
from explodice.game.tables import System
from explodice.questions.answer import Answer, Kind, Method, Provenance
from explodice.questions.registry import Question, register

__all__ = ["QUESTION", "SUCCESS_KINDS", "SuccessInputs", "compute"]

#: The columns of the success table and their kinds.
SUCCESS_KINDS: dict[str, Kind] = {
    "modifier": "modifier",
    "dc": "dc",
    "advantage": "label",
    "disadvantage": "label",
    "p": "probability",
    "ci_low": "probability",
    "ci_high": "probability",
    "drain_mean": "number",
    "system": "name",
}


@dataclass(frozen=True)
class SuccessInputs:
    """The table's rows: ``modifiers`` and ``dcs`` (``None``: the defaults), the ``system``,
    the ``advantages``, the ``readings`` of disadvantage (``None``: the rules'; ``"both"``),
    the roll's ``kind``, ``actor`` and ``policy``, and the method (``n``, ``seed`` where
    simulated)."""

    modifiers: tuple[int, ...] | None
    rules: Rules
    dcs: tuple[int, ...] | None = None
    system: System = "3d6x"
    advantages: tuple[str, ...] | None = None
    readings: Any = None
    kind: str = "check"
    actor: str = "pc"
    policy: Policy = "keep"
    method: Method = "exact"
    n: int | None = None
    seed: int | None = None


def compute(inputs: SuccessInputs, **how: Any) -> Answer:
    """The one table ``success``; ``how``: ``threads`` (how, never what)."""
    extra: dict[str, Any] = (
        {} if inputs.advantages is None else {"advantages": list(inputs.advantages)}
    )
    table = success_table(
        list(inputs.modifiers) if inputs.modifiers is not None else None,
        list(inputs.dcs) if inputs.dcs is not None else None,
        system=inputs.system,
        readings=inputs.readings,
        rules=inputs.rules,
        kind=inputs.kind,  # type: ignore[arg-type]  # checked by success_table
        actor=inputs.actor,  # type: ignore[arg-type]
        policy=inputs.policy,
        method=inputs.method,
        n=inputs.n,
        seed=inputs.seed,
        **extra,
        **how,
    )
    table.attrs = {}
    method = str(table["method"].iloc[0]) if "method" in table and len(table) else "exact"
    prov = Provenance.of(
        "success",
        inputs.rules,
        method="simulate" if method != "exact" else "exact",
        n=int(table["n"].iloc[0]) if method != "exact" else None,
        seed=int(table["seed"].iloc[0]) if method != "exact" else None,
        unit="rolls",
    )
    return Answer("success", {"success": table.reset_index(drop=True)}, SUCCESS_KINDS, prov)


QUESTION = register(
    Question(
        name="success",
        summary="the DC table: P(success) for each modifier, DC and advantage state",
        inputs=SuccessInputs,
        compute=compute,
        kinds=SUCCESS_KINDS,
        surfaces={"report": ("dc-table", "success-curves"), "cli": ("table",)},
    )
)
