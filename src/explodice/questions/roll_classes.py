"""One class of rolls against a range of needs: P(success) and the expected drain of one roll
against need = DC - modifier, in d20 and in 3d6x, in each advantage state, under each
rule-of-1 policy tried; exact (:func:`~explodice.engine.exact.exact`,
:func:`~explodice.engine.d20.d20`).

A class of rolls (:class:`RollClass`) is what the rule of 1 and rerolls see of a roll: its
kind, actor and reroll trait. The roll at modifier 0 against DC = need is the roll at any
modifier against DC = need + modifier (the engines shift), so one table per class serves every
subject of that class at every modifier; a reroll on failure is spent against each need.

Shown by the explorer's roll section (``roll``): one answer per class of its subjects.

>>> from explodice.game.rules import Rules
>>> from explodice.questions.registry import ask
>>> inputs = RollClassInputs(RollClass(), (8,), ((PolicyChoice("keep").key, PolicyChoice("keep")),),
...                          (("normal", "normal", None),), Rules())
>>> t = ask("roll_classes", inputs).tables["roll"]
>>> t[["system", "policy", "need"]].values.tolist(), round(float(t.p.iloc[1]), 6)
([['d20', '-', 8], ['3d6x', 'keep', 8]], 0.837963)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.engine.rule_of_one import policy_table
from explodice.game.reroll import Reroll, Trigger
from explodice.game.rules import (
    Actor,
    Advantage,
    Best,
    Disadvantage,
    Policy,
    PolicyName,
    Roll,
    RollKind,
    Rules,
)
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["QUESTION", "ROLL_CLASS_KINDS", "PolicyChoice", "RollClass", "RollClassInputs"]

#: The columns of the table and their kinds.
ROLL_CLASS_KINDS: dict[str, Kind] = {
    "system": "name",
    "cls": "name",
    "state": "label",
    "policy": "label",
    "need": "dc",
    "p": "probability",
    "drain": "points",
}


@dataclass(frozen=True)
class RollClass:
    """The rolls of a subject as the rule of 1 and rerolls see them: their ``kind``, ``actor``
    and the ``trigger`` of the character's reroll trait (``"one"``: Lucky, ``"failure"``: a
    reroll on failure, spent against each DC; ``None``: no reroll).

    >>> RollClass("save", trigger="failure").key
    'save/pc/failure'
    >>> RollClass("save", trigger="failure").roll("normal", "keep", need=12).reroll
    Reroll('failure', dc=12)
    """

    kind: RollKind = "check"
    actor: Actor = "pc"
    trigger: Trigger | None = None
    #: the key of the :class:`PolicyChoice` its owner plays (the character's or build's own
    #: policy, best(λ) against each row's DC): the rows of the control's "own" choice
    own: str = "keep"

    @property
    def key(self) -> str:
        """``kind/actor``, then ``/trigger`` when there is a reroll, then ``/own=policy``
        when the owner's policy is not keep."""
        own = () if self.own == "keep" else (f"own={self.own}",)
        return "/".join((self.kind, self.actor, *((self.trigger,) if self.trigger else ()), *own))

    @property
    def bound(self) -> bool:
        """Whether the roll depends on its DC (a reroll on failure is spent against it)."""
        return self.trigger == "failure"

    def roll(self, advantage: Advantage, policy: Policy, need: int) -> Roll:
        """The roll at modifier 0 of this class, its reroll on failure bound to ``need`` (the
        roll at modifier 0 against DC = need is the roll at any modifier against DC = need +
        modifier: the engines shift)."""
        reroll = None
        if self.trigger is not None:
            reroll = Reroll("failure", dc=need) if self.bound else Reroll("one")
        return Roll(
            0, advantage=advantage, kind=self.kind, actor=self.actor, policy=policy, reroll=reroll
        )


@dataclass(frozen=True)
class PolicyChoice:
    """A rule-of-1 policy tried: ``"keep"``, ``"cancel"``, or ``"best"`` with its ``weight`` λ
    (the cancellations that maximise P(success) - λ·E[drain] at each row's DC).

    >>> PolicyChoice("best", 0.05).key, PolicyChoice("best", 0.05).policy(16)
    ('best(λ=0.05)', Best(dc=16, weight=0.05))
    """

    name: PolicyName | Literal["best"]
    weight: float | None = None

    @property
    def key(self) -> str:
        return f"best(λ={self.weight:g})" if self.name == "best" else self.name

    @property
    def knows_dc(self) -> bool:
        """Whether the policy depends on the DC (best(λ) does)."""
        return self.name == "best"

    def policy(self, dc: int) -> Policy:
        """The policy a roll against ``dc`` plays."""
        if self.name != "best":
            return self.name
        assert self.weight is not None  # a best(λ) choice carries its λ
        return Best(dc, self.weight)


@dataclass(frozen=True)
class RollClassInputs:
    """The class of rolls ``cls``, the ``needs`` (DC - modifier) its rows read, the
    ``policies`` tried (each as ``(name, choice)``: the name its rows carry in the ``policy``
    column, in the order they are written; one choice may be written under two names), the
    advantage ``states`` (``(name, advantage, reading)``: the name its rows carry, and the
    reading of disadvantage, ``None``: the rules'), and the ``rules``."""

    cls: RollClass
    needs: tuple[int, ...]
    policies: tuple[tuple[str, PolicyChoice], ...]
    states: tuple[tuple[str, Advantage, Disadvantage | None], ...]
    rules: Rules


_PDrain = tuple[float, float]  # P(success), E[drain]
#: P(success) and E[drain] of the 3d6x rolls that read their need (a best(λ) policy, a reroll
#: on failure), by need, for each (class with its owner's policy aside, advantage, policy,
#: rules): the classes that differ only by their owner's policy play the same rolls against
#: needs that overlap. Emptied past :data:`_AT_NEED_SIZE` keys (about a hundred needs each).
_AT_NEED: dict[tuple[RollClass, Advantage, PolicyChoice, Rules], dict[int, _PDrain]] = {}
_AT_NEED_SIZE = 1_000
#: P(success) of a best(λ) roll at each of its totals (from its lowest, ``lo``, to one past
#: its highest) and its E[drain], by (class with its owner's policy aside, advantage, rules,
#: policy table): best(λ) rolls against needs far apart often cancel the same pairs in every
#: throw, and the exact engine reads a policy through its table only (on the default
#: explorer, 312 distributions for 3,072 rolls). Emptied past :data:`_BY_TABLE_SIZE` entries
#: (about a hundred floats each).
_BY_TABLE: dict[tuple[RollClass, Advantage, Rules, bytes], tuple[int, np.ndarray, float]] = {}
_BY_TABLE_SIZE = 10_000


def _three(
    cls: RollClass, adv: Advantage, choice: PolicyChoice, needs: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """P(success) and E[drain] of the class's 3d6x roll at each need under one policy."""
    if not (choice.knows_dc or cls.bound):
        d = exact(cls.roll(adv, choice.policy(0), 0), rules)
        return np.asarray(d.p_success(needs), dtype=float), np.full(needs.size, d.drain_mean)
    base = dataclasses.replace(cls, own="keep")
    for kept, size in ((_AT_NEED, _AT_NEED_SIZE), (_BY_TABLE, _BY_TABLE_SIZE)):
        if len(kept) >= size:
            kept.clear()
    known = _AT_NEED.setdefault((base, adv, choice, rules), {})
    for need in needs.tolist():
        if need not in known:
            known[need] = _at_need(base, cls.roll(adv, choice.policy(need), need), need, rules)
    got = [known[need] for need in needs.tolist()]
    return np.array([g[0] for g in got]), np.array([g[1] for g in got])


def _at_need(base: RollClass, roll: Roll, need: int, rules: Rules) -> _PDrain:
    """P(success) and E[drain] of ``roll`` (of the class ``base``) against ``need``: a best(λ)
    roll's from the distribution of its policy table (:data:`_BY_TABLE`), read as
    :meth:`~explodice.engine.distribution.Distribution.p_success` reads it."""
    if roll.reroll_dc is not None or not isinstance(roll.policy, Best):
        d = exact(roll, rules)
        return d.p_success(need), d.drain_mean
    key = (base, roll.advantage, rules, policy_table(roll, rules).tobytes())
    got = _BY_TABLE.get(key)  # read once: another thread may empty the dict meanwhile
    if got is None:
        d = exact(roll, rules)
        totals = np.append(d.totals, d.totals[-1] + 1)  # P(total >= one past the last) = 0
        got = _BY_TABLE[key] = (int(d.totals[0]), d.p_success(totals), d.drain_mean)
    lo, p, drain = got
    return float(p[min(max(need - lo, 0), p.size - 1)]), drain


def compute(inputs: RollClassInputs) -> Answer:
    """The one table ``roll``: per state, d20's rows (policy ``-``, no drain), then 3d6x's
    for each policy tried."""
    cls, needs = inputs.cls, np.asarray(inputs.needs, dtype=np.int64)
    frames = []
    for state, adv, reading in inputs.states:
        rules = dataclasses.replace(inputs.rules, disadvantage=reading) if reading else inputs.rules
        if cls.bound:
            p20 = [d20(cls.roll(adv, "keep", int(n))).p_success(int(n)) for n in needs]
        else:
            p20 = d20(cls.roll(adv, "keep", 0)).p_success(needs)
        frames.append(
            pd.DataFrame({"system": "d20", "cls": cls.key, "state": state, "policy": "-",
                          "need": needs, "p": np.asarray(p20, dtype=float), "drain": 0.0})
        )  # fmt: skip
        done: dict[PolicyChoice, tuple[np.ndarray, np.ndarray]] = {}
        for name, choice in inputs.policies:
            if choice not in done:  # a choice written under two names is computed once
                done[choice] = _three(cls, adv, choice, needs, rules)
            p, drain = done[choice]
            frames.append(
                pd.DataFrame({"system": "3d6x", "cls": cls.key, "state": state, "policy": name,
                              "need": needs, "p": p, "drain": drain})
            )  # fmt: skip
    table = pd.concat(frames, ignore_index=True)
    prov = Provenance.of("roll_classes", inputs.rules, unit="rolls")
    return Answer("roll_classes", {"roll": table}, ROLL_CLASS_KINDS, prov)


QUESTION = register(
    Question(
        name="roll_classes",
        summary="one class of rolls: P(success) and drain against each need, per system, "
        "advantage state and policy",
        inputs=RollClassInputs,
        compute=compute,
        kinds=ROLL_CLASS_KINDS,
        surfaces={"explorer": ("roll",)},
    )
)
