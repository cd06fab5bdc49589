"""Lutte serrée (the optional close contest): how often a test ties its DC, and a tie settled by
secret bids of HP: who wins, what each side pays, how many rounds; exact
(:func:`~explodice.close_contest`, closed forms; P(total = DC) from the exact PMFs).

Shown by the report's page ``lutte-serree`` and ``explodice contest``.

>>> a = compute(CloseContestInputs((("uniform:3", "uniform:3"),)))
>>> round(float(a.tables["bids"].p_win_a.iloc[0]), 6)
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from explodice.analysis.close_contest import close_contest
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.game.rules import Roll, Rules
from explodice.game.tables import DC_TABLES, SYSTEMS, System
from explodice.questions.answer import Answer, Kind, Provenance
from explodice.questions.registry import Question, register

__all__ = ["CLOSE_CONTEST_KINDS", "CloseContestInputs", "QUESTION", "bid_text", "compute"]

#: The columns of the tables and their kinds.
CLOSE_CONTEST_KINDS: dict[str, Kind] = {
    "system": "name",
    "modifier": "modifier",
    "dc": "dc",
    "p_tie": "probability",
    "bids_a": "name",
    "bids_b": "name",
    "p_win_a": "probability",
    "p_win_b": "probability",
    "hp_a_mean": "points",
    "hp_b_mean": "points",
    "rounds_mean": "number",
    "hp_a": "count",
    "p": "probability",
}


@dataclass(frozen=True)
class CloseContestInputs:
    """The ``contests`` (pairs of bid models, A's and B's, each as :func:`~explodice.
    close_contest` reads it: a bid, ``"uniform:B"`` or a tuple of probabilities of bids 0, 1,
    ...), the ``modifiers`` whose P(total = DC) is asked at each DC of each system's table
    (none: no ``ties`` rows), the ``systems`` and the rules."""

    contests: tuple[tuple[Any, Any], ...]
    modifiers: tuple[int, ...] = ()
    systems: tuple[System, ...] = SYSTEMS
    rules: Rules = Rules()


def bid_text(model: Any) -> str:
    """A bid model as the data writes it: ``3``, ``uniform:5``, ``0.5,0.5``."""
    if isinstance(model, (tuple, list)):
        return ",".join(repr(float(p)) for p in model)
    return str(model).strip()


def _ties(inputs: CloseContestInputs) -> pd.DataFrame:
    """P(total = DC) of each modifier at each DC of each system's table."""
    rows = []
    for system in (s for s in SYSTEMS if s in inputs.systems):
        for m in inputs.modifiers:
            d = exact(Roll(m), inputs.rules) if system == "3d6x" else d20(Roll(m))
            for dc in DC_TABLES[system].values():
                p = float(d.p_success(dc) - d.p_success(dc + 1))
                rows.append({"system": system, "modifier": m, "dc": dc, "p_tie": p})
    return pd.DataFrame(rows, columns=["system", "modifier", "dc", "p_tie"])


def compute(inputs: CloseContestInputs) -> Answer:
    """Tables ``ties`` (system, modifier, dc, p_tie), ``bids`` (one row per contest: bids_a,
    bids_b, p_win_a, p_win_b, hp_a_mean, hp_b_mean, rounds_mean) and ``hp`` (the PMF of the
    HP A pays in each contest: bids_a, bids_b, hp_a, p)."""
    bids, hp = [], []
    for model_a, model_b in inputs.contests:
        c = close_contest(model_a, model_b)
        names = {"bids_a": bid_text(model_a), "bids_b": bid_text(model_b)}
        bids.append(names | c.summary())
        pmf = c.hp_pmf("a")
        hp.append(pd.DataFrame({**names, "hp_a": pmf.index.to_numpy(), "p": pmf.to_numpy()}))
    tables = {
        "ties": _ties(inputs),
        "bids": pd.DataFrame(bids),
        "hp": pd.concat(hp, ignore_index=True) if hp else pd.DataFrame(),
    }
    prov = Provenance.of("close_contest", inputs.rules, unit="rolls")
    return Answer("close_contest", tables, CLOSE_CONTEST_KINDS, prov)


QUESTION = register(
    Question(
        name="close_contest",
        summary="lutte serrée: how often a test ties its DC, and what the bids of HP cost",
        inputs=CloseContestInputs,
        compute=compute,
        kinds=CLOSE_CONTEST_KINDS,
        surfaces={"report": ("lutte-serree",), "cli": ("contest",)},
    )
)
