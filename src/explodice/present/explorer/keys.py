"""The explorer's keys: what a choice of its controls stands for, as small frozen values.

The page's tables (:class:`~explodice.present.explorer.ExplorerData`) name each choice by a
string, the ``key``, which Vega's filters compare; in Python the choices are these values, and
every label is computed from them, never parsed back from a key:

- :class:`RollClass`: the kind, actor and reroll trait of a subject (``check/pc``,
  ``save/pc/failure``), which set the rule of 1 and the reroll;
- :class:`PolicyChoice`: a rule-of-1 policy of the controls (``keep``, ``cancel``,
  ``best(λ=0.05)``, the best(λ) policy at each row's own DC);
- :class:`~explodice.present.labels.State`: an advantage state with its reading of
  disadvantage (``disadvantage (drop)``).

>>> RollClass("save", trigger="failure").key, PolicyChoice("best", 0.05).key
('save/pc/failure', 'best(λ=0.05)')
>>> RollClass("save", trigger="failure").roll("normal", "keep", need=12).reroll
Reroll('failure', dc=12)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from explodice.game.reroll import Reroll, Trigger
from explodice.game.rules import Actor, Advantage, Best, Policy, PolicyName, Roll, RollKind
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import STATES, State, best_label

__all__ = [
    "LAMBDAS",
    "POLICY_CHOICES",
    "STATES",
    "SLIDER_CLASS",
    "PolicyChoice",
    "RollClass",
    "State",
    "own_choice",
]

#: The weights λ of the best(λ) policies offered next to keep and cancel.
LAMBDAS = (0.0, 0.05, 0.2)


@dataclass(frozen=True)
class RollClass:
    """The rolls of a subject as the rule of 1 and rerolls see them: their ``kind``, ``actor``
    and the ``trigger`` of the character's reroll trait (``"one"``: Lucky, ``"failure"``: a
    reroll on failure, spent against each DC; ``None``: no reroll)."""

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


#: The class of the slider's subject: a bare modifier, a PC's check.
SLIDER_CLASS = RollClass()


@dataclass(frozen=True)
class PolicyChoice:
    """A rule-of-1 policy of the controls: ``"keep"``, ``"cancel"``, or ``"best"`` with its
    ``weight`` λ (the cancellations that maximise P(success) - λ·E[drain] at each row's DC)."""

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

    def label(self, lang: Lang) -> str:
        """``keep`` (``garder``), ``best(λ=0.05)`` (``meilleur(λ=0,05)``)."""
        if self.name == "best":
            assert self.weight is not None  # a best(λ) choice carries its λ
            return best_label(self.weight, lang)
        return i18n.translator(lang)(self.name)


def own_choice(policy: Policy) -> PolicyChoice:
    """The choice of the controls that plays a character's or build's own ``policy``: keep,
    cancel, or best(λ) against each row's DC (a Best's own DC is the one of its day).

    >>> own_choice(Best(16, 0.05)).key
    'best(λ=0.05)'
    """
    if isinstance(policy, Best):
        return PolicyChoice("best", float(policy.weight))
    return PolicyChoice(policy)


#: The policies the controls offer, in order.
POLICY_CHOICES = (
    PolicyChoice("keep"),
    PolicyChoice("cancel"),
    *(PolicyChoice("best", w) for w in LAMBDAS),
)
