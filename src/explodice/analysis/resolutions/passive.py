"""Passive values (docs/rules.md, "Passive checks"): the fixed number a roll stands for, and
the share of active rolls that beat it (:func:`passive`, :func:`passive_table`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from explodice.analysis.resolutions.common import Shown, prepare
from explodice.analysis.success import (
    MODIFIERS,
    check_system,
    states,
)
from explodice.core.errors import check_items
from explodice.core.words import Phrase
from explodice.engine.sampling import Sampling
from explodice.game.checks import check_roll, check_rules
from explodice.game.rules import Roll, Rules
from explodice.game.tables import System

__all__ = [
    "Passive",
    "passive",
    "passive_table",
]


@dataclass(frozen=True)
class Passive(Shown):
    """A passive value (10 + modifier, +5 with advantage, -5 with disadvantage) against the
    roll it stands for: its median and mean, the gaps, and the base that would match the
    median (``median - modifier - (±5)``, in place of the 10 of the rules)."""

    value: int
    modifier: int
    advantage: str
    median: int
    mean: float
    p_roll_at_least: float  # P(an active roll reaches the passive value)
    system: System = "3d6x"

    @property
    def gap_median(self) -> int:
        """median - passive value: how far the passive value sits below the typical roll."""
        return self.median - self.value

    @property
    def gap_mean(self) -> float:
        """mean - passive value."""
        return self.mean - self.value

    @property
    def base_for_median(self) -> int:
        """The base that would put the passive value at the roll's median (10 in the rules)."""
        return self.median - self.modifier - _PASSIVE_SHIFT[self.advantage]

    def summary(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "modifier": self.modifier,
            "advantage": self.advantage,
            "passive": self.value,
            "median": self.median,
            "mean": self.mean,
            "gap_median": self.gap_median,
            "gap_mean": self.gap_mean,
            "base_for_median": self.base_for_median,
            "p_roll_at_least": self.p_roll_at_least,
        }


_PASSIVE_SHIFT = {"normal": 0, "advantage": 5, "disadvantage": -5}


def passive(roll: Roll, *, system: System = "3d6x", rules: Rules | None = None) -> Passive:
    """The passive value of ``roll`` against the real roll's median and mean.

    >>> p = passive(Roll(0))
    >>> p.value, p.median, round(p.mean, 1), p.base_for_median
    (10, 11, 12.6, 11)
    """
    roll = check_roll(roll)
    (d,) = prepare([roll], system, rules, Sampling())
    value = 10 + roll.modifier + _PASSIVE_SHIFT[roll.advantage]
    return Passive(
        value=value,
        modifier=roll.modifier,
        advantage=roll.advantage,
        median=d.median,
        mean=d.mean,
        p_roll_at_least=float(d.p_success(value)),
        system=d.system,
    )


def passive_table(
    modifiers: Iterable[int] = MODIFIERS,
    *,
    system: System = "3d6x",
    advantages: Iterable[str] = ("normal", "advantage", "disadvantage"),
    readings: Iterable[str] = ("subtract", "drop"),
    rules: Rules | None = None,
) -> pd.DataFrame:
    """:func:`passive` for each modifier and advantage state, as a tidy DataFrame.

    >>> passive_table([0], advantages=["normal"]).base_for_median.tolist()
    [11]
    """
    system = check_system(system)
    modifiers = check_items("modifiers", modifiers, what=Phrase("modifiers"))
    rows = []
    for label, adv, state_rules in states(system, advantages, readings, check_rules(rules)):
        for m in modifiers:
            row = passive(Roll(m, advantage=adv), system=system, rules=state_rules).summary()
            rows.append(row | {"advantage": label})
    return pd.DataFrame(rows)
