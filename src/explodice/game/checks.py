"""Checks that an argument is one of the game's objects: the same refusal everywhere.

A wrong object (``rules=1``, ``roll="3d6"``) is refused with :class:`ExplodiceTypeError`, the
package's error that is also a ``TypeError``, never read as the default or left to fail later
with an ``AttributeError``.

>>> check_rules(None) == Rules()
True
>>> check_rules("drop")
Traceback (most recent call last):
...
explodice.core.errors.ExplodiceTypeError: `rules` must be a Rules or None, but 'drop' was passed.
"""

from __future__ import annotations

from typing import Any

from explodice.core.errors import ExplodiceTypeError, shown
from explodice.core.words import Phrase
from explodice.game.rules import Roll, Rules

__all__ = ["check_roll", "check_rules"]


def check_rules(rules: Any, field_name: str = "rules") -> Rules:
    """``rules`` itself, or the default :class:`Rules` for ``None``; anything else is refused."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        err = ExplodiceTypeError(
            Phrase(
                "`{field_name}` must be a Rules or None, but {rules} was passed.",
                field_name=field_name,
                rules=shown(rules),
            )
        )
        err.field = field_name
        raise err
    return rules


def check_roll(roll: Any, field_name: str = "roll") -> Roll:
    """``roll`` when it is a :class:`Roll`; anything else is refused.

    >>> check_roll(Roll(2)).modifier
    2
    """
    if not isinstance(roll, Roll):
        err = ExplodiceTypeError(
            Phrase(
                "`{field_name}` must be a Roll, but {roll} was passed.",
                field_name=field_name,
                roll=shown(roll),
            )
        )
        err.field = field_name
        raise err
    return roll
