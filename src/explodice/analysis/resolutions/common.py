"""What the resolutions share: the result that shows itself in Jupyter (:class:`Shown`), the
distributions of a call's rolls (:func:`prepare`) and their provenance."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.success import (
    as_distribution,
    check_system,
)
from explodice.engine.distribution import Distribution
from explodice.engine.sampling import Sampling
from explodice.game.checks import check_rules
from explodice.game.rules import Roll, Rules
from explodice.game.tables import System

__all__ = [
    "Shown",
    "label_of",
    "prepare",
    "provenance",
    "total_pmf",
]


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


class Shown:
    """Mixin: a result that shows its :meth:`summary` (and :meth:`to_frame`) in Jupyter."""

    def summary(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy one-row (or per-outcome) DataFrame."""
        return pd.DataFrame([self.summary()])

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th style='text-align:left'>{k}</th><td>{_fmt(v)}</td></tr>"
            for k, v in self.summary().items()
        )
        return f"<div><b>{type(self).__name__}</b><table>{rows}</table>{self._extra_html()}</div>"

    def _extra_html(self) -> str:
        return ""


def prepare(
    items: Iterable[Roll | Distribution],
    system: System,
    rules: Rules | None,
    sampling: Sampling,
) -> list[Distribution]:
    """The distributions of one call's rolls (a Distribution passes through)."""
    system = check_system(system)
    rules = check_rules(rules)
    streams = sampling.streams()
    return [as_distribution(item, system, rules, streams) for item in items]


def provenance(dists: Sequence[Distribution]) -> dict[str, Any]:
    sims = [d for d in dists if d.simulated]
    return {
        "system": "/".join(dict.fromkeys(d.system for d in dists)),
        "method": "simulate" if sims else "exact",
        "n": min(d.n for d in sims if d.n is not None) if sims else None,
        "seed": sims[0].seed if sims else None,
    }


def label_of(d: Distribution) -> str:
    return repr(d).split("(", 1)[1].split(";", 1)[0] if d.roll is not None else d.system


def total_pmf(d: Distribution) -> np.ndarray:
    p = d.total_pmf
    return p / p.sum()
