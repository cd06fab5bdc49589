"""The drain of one roll: its distribution, mean and tail, by gauge.

Each kept 1 of a PC's check or save drains one exploding d6 from the gauge of the roll's
ability (docs/rules.md, the rule of 1). The numbers come from the exact engine.

>>> from explodice import Roll
>>> df = drain_frame(Roll(0))
>>> round(float(df.loc[df.drain == 0, "p"].iloc[0]) * 216, 9)  # no 1 among 3 dice: 125/216
125.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import check_items, shown
from explodice.core.words import Phrase
from explodice.engine.exact import exact
from explodice.game.character import ABILITIES, ABILITY_GAUGE
from explodice.game.checks import check_rules
from explodice.game.rules import ExplodiceError, Roll, Rules, check_int

__all__ = ["drain_frame", "drain_summary"]

TAIL_POINTS = (1, 5, 10, 15, 20)


def _labelled_rolls(rolls: Any) -> list[tuple[dict[str, Any], Roll]]:
    """``[(labels, roll)]`` from a Roll, a mapping label -> Roll, or a Character (by ability)."""
    if isinstance(rolls, Roll):
        return [({"label": rolls.describe(), "gauge": None}, rolls)]
    if isinstance(rolls, Mapping):
        out = []
        for label, roll in rolls.items():
            if not isinstance(roll, Roll):
                raise ExplodiceError(
                    Phrase(
                        "`rolls[{label}]` must be a Roll, but {name} was passed.",
                        label=shown(label),
                        name=type(roll).__name__,
                    )
                )
            out.append(({"label": str(label), "gauge": None}, roll))
        return out
    if hasattr(rolls, "roll") and hasattr(rolls, "gauges"):
        # a Character: one save per ability (an ability check without a skill is outside the
        # rule of 1 by default; a save always drains its ability's gauge), without a DC, so
        # without a reroll on failure
        return [
            (
                {"label": ability, "gauge": ABILITY_GAUGE[ability]},
                rolls.roll(ability=ability, kind="save", reroll_on_failure=False),
            )
            for ability in ABILITIES
        ]
    raise ExplodiceError(
        Phrase(
            "`rolls` must be a Roll, a mapping of labels to Rolls or a "
            "Character, but {name} was passed.",
            name=type(rolls).__name__,
        )
    )


def drain_frame(rolls: Any, rules: Rules | None = None, *, upto: int | None = None) -> pd.DataFrame:
    """Tidy drain PMF: one row per (roll, drain) with ``p`` and ``p_at_least`` = P(drain >= x).

    ``rolls`` is a :class:`Roll`, a mapping ``label -> Roll`` or a Character (one save per
    ability, with its gauge). ``upto`` caps the drains listed (default: up to P < 1e-9).

    >>> from explodice import Roll
    >>> df = drain_frame({"keep": Roll(0), "cancel": Roll(0, policy="cancel")}, upto=3)
    >>> list(df.columns)[:4]
    ['label', 'gauge', 'drain', 'p']
    """
    rules = check_rules(rules)
    if upto is not None:
        upto = check_int("upto", upto, lo=0)
    frames = []
    for labels, roll in _labelled_rolls(rolls):
        d = exact(roll, rules)
        pmf = d.drain_pmf
        at_least = np.cumsum(pmf[::-1])[::-1]
        if upto is None:
            stop = int(np.searchsorted(-at_least, -1e-9, side="right"))
        else:
            stop = min(pmf.size, upto + 1)
        frames.append(
            pd.DataFrame(
                {
                    **labels,
                    "drain": np.arange(stop),
                    "p": pmf[:stop],
                    "p_at_least": at_least[:stop],
                    "drain_mean": d.drain_mean,
                    "method": "exact",
                    "rules": rules.describe(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def drain_summary(
    rolls: Any, rules: Rules | None = None, *, tail: tuple[int, ...] = TAIL_POINTS
) -> pd.DataFrame:
    """One row per roll: mean and std of the drain, E[kept 1s], and P(drain >= x) for ``tail``.

    >>> from explodice import Roll
    >>> round(float(drain_summary(Roll(0))["drain_mean"].iloc[0]), 6)
    2.1
    """
    rules = check_rules(rules)
    rows = []
    for labels, roll in _labelled_rolls(rolls):
        d = exact(roll, rules)
        x = np.arange(d.drain_pmf.size)
        var = float((d.drain_pmf * (x - d.drain_mean) ** 2).sum())
        row = {
            **labels,
            "drain_mean": d.drain_mean,
            "drain_std": var**0.5,
            "ones_mean": d.ones_mean,
        }
        for t in check_items("tail", tail, what=Phrase("drain points")):
            row[f"p_drain_ge_{t}"] = d.p_drain_at_least(t)
        rows.append({**row, "method": "exact", "rules": rules.describe()})
    return pd.DataFrame(rows)
