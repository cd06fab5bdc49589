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

:class:`RollClass` and :class:`PolicyChoice` are defined with the question that reads them
(:mod:`explodice.questions.roll_classes`, the roll section's numbers) and named here.

>>> RollClass("save", trigger="failure").key, PolicyChoice("best", 0.05).key
('save/pc/failure', 'best(λ=0.05)')
>>> RollClass("save", trigger="failure").roll("normal", "keep", need=12).reroll
Reroll('failure', dc=12)
"""

from __future__ import annotations

from explodice.game.rules import Best, Policy
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import STATES, State, best_label
from explodice.questions.roll_classes import PolicyChoice, RollClass

__all__ = [
    "LAMBDAS",
    "POLICY_CHOICES",
    "STATES",
    "SLIDER_CLASS",
    "PolicyChoice",
    "RollClass",
    "State",
    "choice_label",
    "own_choice",
]

#: The weights λ of the best(λ) policies offered next to keep and cancel.
LAMBDAS = (0.0, 0.05, 0.2)


#: The class of the slider's subject: a bare modifier, a PC's check.
SLIDER_CLASS = RollClass()


def choice_label(choice: PolicyChoice, lang: Lang) -> str:
    """A policy of the controls as the page names it: ``keep`` (``garder``), ``best(λ=0.05)``
    (``meilleur(λ=0,05)``)."""
    if choice.name == "best":
        assert choice.weight is not None  # a best(λ) choice carries its λ
        return best_label(choice.weight, lang)
    return i18n.translator(lang)(choice.name)


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
