"""The checks the questions across levels share (builds, risk, names, targets, advantage),
and their tie-break: of several DCs (or bases) equally good, the highest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_items,
    check_real,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.game.build import (
    Build,
    BuildTest,
)
from explodice.game.rules import ADVANTAGE_STATES, Advantage
from explodice.game.tables import (
    DIFFICULTIES,
    TARGET_RANGES,
)

__all__ = [
    "TIE",
    "best_index",
    "check_advantage",
    "check_builds",
    "check_names",
    "check_risk",
    "resolve_targets",
]

#: Two probabilities this close are equal (a tie goes to the higher DC, or base).
TIE = 1e-12


def check_builds(builds: Any, field_name: str = "builds") -> list[Build]:
    """One build or several, as a list with unique names."""
    if isinstance(builds, Build):
        return [builds]
    allowed = Phrase("a Build or a list of them")
    if isinstance(builds, (str, bytes, Mapping)) or not hasattr(builds, "__iter__"):
        raise fail(field_name, builds, allowed, ExplodiceError, wrong_type=True)
    out = check_items(field_name, builds, what=Phrase("Builds"))
    for i, b in enumerate(out):
        if not isinstance(b, Build):
            raise fail(f"{field_name}[{i}]", b, Phrase("a Build"), ExplodiceError, wrong_type=True)
    names = [b.name for b in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ExplodiceError(
            Phrase(
                "`{field_name}` must have unique names, but {dupes} is used twice.",
                field_name=field_name,
                dupes=shown(dupes[0]),
            )
        )
    return out


def check_risk(risk: Any) -> float:
    """A risk in [1e-9, 1): the exact day is cut far below 1e-9."""
    allowed = Phrase("a probability in [1e-9, 1)")
    try:
        value = check_real("risk", risk, lo=1e-9, hi=1, error=ExplodiceError)
    except ExplodiceError as err:
        wrong_type = isinstance(err, TypeError)
        raise fail("risk", risk, allowed, ExplodiceError, wrong_type=wrong_type) from None
    if value >= 1:
        raise fail("risk", risk, allowed, ExplodiceError)
    return value


def check_names(field_name: str, value: Any, what: str = "names") -> list[Any]:
    """A name (or a :class:`BuildTest`) as a list of one, else :func:`check_items`'s
    non-empty list (each item is its caller's to check).

    >>> check_names("saves", "DEX"), check_names("saves", ("DEX", "WIS"))
    (['DEX'], ['DEX', 'WIS'])
    """
    if isinstance(value, (str, BuildTest)):
        return [value]
    return check_items(field_name, value, what=what)


def resolve_targets(targets: Any) -> dict[str, tuple[float, float]]:
    """Target ranges per band: ``{band: (low, high)}``, or ``{band: p}`` (the range ``(p,
    p)``); ``None`` is :data:`~explodice.game.tables.TARGET_RANGES`.

    >>> resolve_targets({"easy": (0.75, 0.95), "hard": 0.3})
    {'easy': (0.75, 0.95), 'hard': (0.3, 0.3)}
    """
    if targets is None:
        return {k: (float(lo), float(hi)) for k, (lo, hi) in TARGET_RANGES.items()}
    if not isinstance(targets, Mapping) or not targets:
        raise ExplodiceTypeError(
            Phrase(
                "`targets` must be a mapping {{band: (low, high)}} or {{band: p}}, "
                "but {targets} was passed.",
                targets=shown(targets),
            )
        )
    out = {}
    for band, value in targets.items():
        where = f"targets.{band}"
        check_choice(where, band, DIFFICULTIES, ExplodiceError)
        pair = value if isinstance(value, (tuple, list)) else (value, value)
        good = len(pair) == 2 and all(
            isinstance(x, (int, float, np.floating)) and not isinstance(x, bool) for x in pair
        )
        if not good or not 0 <= pair[0] <= pair[1] <= 1:
            raise ExplodiceError(
                Phrase(
                    "`{where}` must be a probability or a pair (low, high) with 0 <= low "
                    "<= high <= 1, but {value} was passed.",
                    where=where,
                    value=shown(value),
                )
            )
        out[band] = (float(pair[0]), float(pair[1]))
    return out


def check_advantage(advantage: Any) -> Advantage:
    return check_choice("advantage", advantage, ADVANTAGE_STATES, ExplodiceError)


def best_index(miss: np.ndarray) -> int:
    """The index of the smallest ``miss`` (ties, within 1e-12: the last, the highest DC)."""
    return int(np.nonzero(miss <= miss.min() + TIE)[0][-1])
