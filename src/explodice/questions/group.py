"""Group tests and working together: P(success) against each DC of the party's group test (at
least half of the members succeed), of its working together (the best member leads with
advantage) and of each member alone; exact (:func:`~explodice.group_success`,
:func:`~explodice.working_together`).

Shown by the report's page ``group``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explodice.analysis.resolutions import group_success, working_together
from explodice.game.character import Character
from explodice.game.rules import Roll, Rules
from explodice.questions.answer import Answer, Kind, Provenance, roller_policies
from explodice.questions.registry import Question, register

__all__ = ["GROUP_KINDS", "GroupInputs", "QUESTION", "compute"]

#: The columns of the table and their kinds.
GROUP_KINDS: dict[str, Kind] = {
    "dc": "dc",
    "how": "label",
    "member": "name",
    "modifier": "modifier",
    "need": "count",
    "size": "count",
    "policy": "name",
    "reroll": "label",
    "p": "probability",
}


@dataclass(frozen=True)
class GroupInputs:
    """The ``party`` (its characters, each with its own policy and reroll), the ``skill``,
    the ``dcs`` and the rules."""

    party: tuple[Character, ...]
    skill: str = "Stealth"
    dcs: tuple[int, ...] = tuple(range(4, 37))
    rules: Rules = Rules()


def _member(ch: Character, roll: Roll) -> dict[str, object]:
    """A member's columns: its name, modifier, rule-of-1 policy and reroll (two members at
    one modifier differ by these)."""
    reroll = roll.reroll.trigger if roll.reroll is not None else ""
    policy = str(roll.policy)
    return {"member": ch.name, "modifier": roll.modifier, "policy": policy, "reroll": reroll}


def compute(inputs: GroupInputs) -> Answer:
    """Table ``group``: per DC, ``how`` the party rolls (``group``: at least ``need`` of
    ``size``; ``together``: ``member`` leads with advantage; ``alone``: ``member`` with its
    ``modifier``), the member's rule-of-1 ``policy`` and ``reroll`` (``one``: Lucky;
    ``failure``; empty: none), and ``p``."""
    party = list(inputs.party)
    rows = []
    for dc in inputs.dcs:
        rolls = [ch.roll(inputs.skill, dc=dc) for ch in party]  # a reroll on failure: the DC
        g = group_success(rolls, dc=dc, rules=inputs.rules)
        t = working_together(rolls, dc, rules=inputs.rules)
        base = {"dc": dc, "need": g.need, "size": len(rolls)}
        none = {"member": "", "modifier": pd.NA, "policy": "", "reroll": ""}
        rows.append(base | {"how": "group", **none, "p": g.p})
        rows.append(base | {"how": "together", **_member(party[t.leader], rolls[t.leader])})
        rows[-1]["p"] = t.p
        rows += [
            base | {"how": "alone", **_member(ch, r), "p": p}
            for ch, r, p in zip(party, rolls, g.p_each)
        ]
    columns = ["dc", "how", "member", "modifier", "policy", "reroll", "need", "size", "p"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["modifier"] = frame["modifier"].astype("Int64")
    prov = Provenance.of(
        "group",
        inputs.rules,
        unit="rolls",
        policies=roller_policies((c.name, c) for c in party),
    )
    return Answer("group", {"group": frame}, GROUP_KINDS, prov)


QUESTION = register(
    Question(
        name="group",
        summary="a group test and working together against each DC, beside each member alone",
        inputs=GroupInputs,
        compute=compute,
        kinds=GROUP_KINDS,
        surfaces={"report": ("group",)},
    )
)
