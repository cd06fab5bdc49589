"""Combat: an attack's P(hit) and P(critical) against ACs or VDs (``attack``), P(critical)
under each reading of the 3d6x critical (``critical``), the builds' hit chances across levels
against the monster of their level (``combat_progression``), and the defence base that keeps
5e's hit chances (``defence_base``); 3d6x beside 5e.

Shown by ``explodice attack`` and the explorer's attack view (``attack``), the report's page
``combat-hits`` (``critical``, ``combat_progression``), ``explodice defence-base`` and the page
``defence-base`` (``defence_base``).

>>> a = compute_attack(AttackInputs((5,), (15,), advantages=("normal",), rules=Rules()))
>>> a.provenance.method, a.kind("p_hit_3d6x")
('exact', 'probability')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.combat import (
    DEFAULT_OFFSETS,
    DEFAULT_SAVES,
    attack_table,
    combat_progression,
    critical_table,
    defence_curves,
    fit_from_curves,
)
from explodice.analysis.levels import Criterion
from explodice.game.bestiary import SRD_ATTRIBUTION, SRD_SOURCE
from explodice.game.build import LEVELS, Build
from explodice.game.monster import Monster
from explodice.game.rules import ADVANTAGE_STATES, Rules
from explodice.game.tables import DEFENCE_BASE_RANGE
from explodice.questions.answer import Answer, Kind, Method, Provenance
from explodice.questions.registry import Question, register

__all__ = [
    "ATTACK",
    "COMBAT_KINDS",
    "CRITICAL",
    "DEFENCE_BASE",
    "DEFENCE_CURVES",
    "PROGRESSION",
    "AttackInputs",
    "CriticalInputs",
    "DefenceBaseInputs",
    "ProgressionInputs",
    "compute_attack",
    "compute_critical",
    "compute_defence_base",
    "compute_defence_curves",
    "compute_progression",
]

#: The kinds of the combat tables' columns (one mapping: a column means the same everywhere).
COMBAT_KINDS: dict[str, Kind] = {
    "modifier": "modifier",
    "advantage": "label",
    "ac": "dc",
    "vd": "dc",
    "target": "dc",
    "p_hit_d20": "probability",
    "p_crit_d20": "probability",
    "p_hit_3d6x": "probability",
    "p_crit_3d6x": "probability",
    "p_hit_3d6x_lo": "probability",
    "p_hit_3d6x_hi": "probability",
    "p_crit_3d6x_lo": "probability",
    "p_crit_3d6x_hi": "probability",
    "gap": "change",
    "equivalent_vd": "dc",
    "p_hit_equivalent": "probability",
    "reading": "label",
    "system": "label",
    "p_crit": "probability",
    "p_hit": "probability",
    "build": "name",
    "level": "level",
    "monster": "name",
    "p_build_hits": "probability",
    "p_build_crits": "probability",
    "p_monster_hits": "probability",
    "p_monster_crits": "probability",
    "p_build_saves": "probability",
    "p_monster_saves": "probability",
    "p_d20": "probability",
    "p_3d6x": "probability",
    "error": "change",
    "rmse": "gap",
    "max_error": "gap",
    "current": "flag",
    "chosen": "flag",
    "base": "dc",
    "offset": "modifier",
    "direction": "label",
    "attribution": "name",
    "p_hit_mean": "probability",
    "n_cases": "count",
    "fit_error": "probability",
}


#: The defence bases a fit tries (``defence_curves``' columns).
BASES = range(DEFENCE_BASE_RANGE[0], DEFENCE_BASE_RANGE[1] + 1)


def _plain(frame: Any) -> Any:
    frame = frame.reset_index(drop=True)
    frame.attrs = {}
    return frame


def _srd(monsters: tuple[Monster, ...] | None) -> str:
    """The SRD 5.1's attribution where the monsters met are the SRD's (``None``: its typical
    monster of each FP), else ``""``: its licence asks for it wherever its monsters are
    shown, so it goes into every row of the CSV and the caption's notes."""
    if monsters is None or any(m.source == SRD_SOURCE for m in monsters):
        return SRD_ATTRIBUTION
    return ""


def _attributed(frame: Any, attribution: str) -> Any:
    return _plain(frame).assign(attribution=attribution)


# -- attack ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class AttackInputs:
    """The attack's ``modifiers``, the targets (5e ``acs`` or 3d6x ``vds``: one of them; both
    ``None``: ACs 10-22), the target's ``wis``, the ``actor``, the ``advantages``, the
    ``readings`` of disadvantage (``None``: the rules' one; ``"both"``), the rules, and the
    method (``n`` and ``seed`` where simulated)."""

    modifiers: tuple[int, ...] = (5,)
    acs: tuple[int, ...] | None = None
    vds: tuple[int, ...] | None = None
    wis: int = 0
    actor: str = "pc"
    advantages: tuple[str, ...] = ADVANTAGE_STATES
    readings: str | tuple[str, ...] | None = None
    rules: Rules = Rules()
    method: Method = "exact"
    n: int | None = None
    seed: int | None = None


def compute_attack(inputs: AttackInputs, threads: int | None = None) -> Answer:
    """Table ``attack`` (:func:`~explodice.attack_table`); ``threads`` (a simulation's)
    changes how, never what."""
    kw: dict[str, Any] = {"method": inputs.method, "threads": threads}
    if inputs.method == "simulate":
        kw |= {"n": inputs.n, "seed": inputs.seed}
    frame = attack_table(
        list(inputs.modifiers),
        None if inputs.acs is None else list(inputs.acs),
        vds=None if inputs.vds is None else list(inputs.vds),
        wis=inputs.wis,
        actor=inputs.actor,  # type: ignore[arg-type]
        advantages=list(inputs.advantages),
        readings=inputs.readings,
        rules=inputs.rules,
        **kw,
    )
    simulated = frame.method.iloc[0] == "simulate"
    provenance = Provenance.of(
        "attack",
        inputs.rules,
        method="simulate" if simulated else "exact",
        n=int(frame.n.iloc[0]) if simulated else None,
        seed=int(frame.seed.iloc[0]) if simulated else None,
        unit="rolls",
    )
    return Answer("attack", {"attack": _plain(frame)}, COMBAT_KINDS, provenance)


ATTACK = register(
    Question(
        name="attack",
        summary="an attack's P(hit) and P(critical) against ACs or VDs, 3d6x beside 5e",
        inputs=AttackInputs,
        compute=compute_attack,
        kinds=COMBAT_KINDS,
        surfaces={"cli": ("attack",), "explorer": ("attack",)},
    )
)


# -- the critical ----------------------------------------------------------------------------
@dataclass(frozen=True)
class CriticalInputs:
    """The attack's ``modifier``, its target ``vd`` (``None``: a 5e AC 15's), the
    ``margins`` tried, the ``advantages`` and the rules."""

    modifier: int = 5
    vd: int | None = None
    margins: tuple[int, ...] = (5, 10)
    advantages: tuple[str, ...] = ADVANTAGE_STATES
    rules: Rules = Rules()


def compute_critical(inputs: CriticalInputs) -> Answer:
    """Table ``critical`` (:func:`~explodice.analysis.combat.critical_table`, exact)."""
    frame = critical_table(
        inputs.modifier,
        inputs.vd,
        margins=list(inputs.margins),
        advantages=list(inputs.advantages),
        rules=inputs.rules,
    )
    provenance = Provenance.of("critical", inputs.rules, unit="rolls")
    return Answer("critical", {"critical": _plain(frame)}, COMBAT_KINDS, provenance)


CRITICAL = register(
    Question(
        name="critical",
        summary="P(critical) under each reading of the 3d6x critical beside the natural 20",
        inputs=CriticalInputs,
        compute=compute_critical,
        kinds=COMBAT_KINDS,
        surfaces={"report": ("combat-hits",)},
    )
)


# -- the chances across levels ---------------------------------------------------------------
@dataclass(frozen=True)
class ProgressionInputs:
    """The builds, the rules, the levels, the FP ``offsets`` and the ``saves``; the monsters
    are the SRD's typical monster of each FP (``monsters``: one per FP met, else ``None``)."""

    builds: tuple[Build, ...]
    rules: Rules
    levels: tuple[int, ...] = tuple(LEVELS)
    offsets: tuple[int, ...] = (0,)
    saves: tuple[str, ...] = DEFAULT_SAVES
    monsters: tuple[Monster, ...] | None = None


def compute_progression(inputs: ProgressionInputs) -> Answer:
    """Tables ``progression`` (:func:`~explodice.analysis.combat.combat_progression`) and
    ``summary`` (per system, the mean P(hit) over the builds, levels and both directions).
    Over several builds, each build's rows are its answer asked alone (kept on its own: an
    edit to one build computes only its rows), put end to end, the summary read from them."""
    if len(inputs.builds) > 1:
        parts = [PROGRESSION.ask(replace(inputs, builds=(b,))) for b in inputs.builds]
        rows = pd.concat([a.tables["progression"] for a in parts], ignore_index=True)
        tables = {"progression": rows, "summary": _hit_means(rows)}
        return Answer("combat_progression", tables, COMBAT_KINDS, parts[0].provenance)
    frame = combat_progression(
        list(inputs.builds),
        monsters=None if inputs.monsters is None else list(inputs.monsters),
        levels=list(inputs.levels),
        offsets=list(inputs.offsets),
        saves=list(inputs.saves),
        rules=inputs.rules,
    )
    srd = _srd(inputs.monsters)
    provenance = Provenance.of(
        "combat_progression", inputs.rules, unit="rolls", notes=(srd,) if srd else ()
    )
    tables = {"progression": _attributed(frame, srd), "summary": _hit_means(frame)}
    return Answer("combat_progression", tables, COMBAT_KINDS, provenance)


def _hit_means(frame: Any) -> Any:
    """Table ``summary``: per system, the mean P(hit) over every build, level and direction
    (the build hits the monster, the monster hits the build), what a caption says."""
    hits = frame.melt(id_vars=["system"], value_vars=["p_build_hits", "p_monster_hits"])
    means = hits.groupby("system", sort=False).value.mean()
    return pd.DataFrame({"system": means.index, "p_hit_mean": means.to_numpy()})


PROGRESSION = register(
    Question(
        name="combat_progression",
        summary="each build's hit and save chances by level against the monster of its level",
        inputs=ProgressionInputs,
        compute=compute_progression,
        kinds=COMBAT_KINDS,
        surfaces={"report": ("combat-hits",)},
    )
)


# -- the defence base ------------------------------------------------------------------------
@dataclass(frozen=True)
class DefenceBaseInputs:
    """The builds, the rules, the monsters met (``None``: the SRD's typical one of each FP),
    the levels, the FP ``offsets`` and the fit's ``criterion``."""

    builds: tuple[Build, ...]
    rules: Rules
    monsters: tuple[Monster, ...] | None = None
    levels: tuple[int, ...] = tuple(LEVELS)
    offsets: tuple[int, ...] = DEFAULT_OFFSETS
    criterion: Criterion = "least_squares"


def compute_defence_base(inputs: DefenceBaseInputs) -> Answer:
    """Tables ``readings``, ``cases``, ``bases`` and ``summary`` (the ``base``, ``n_cases``,
    the criterion's ``fit_error`` and the largest error of a case, ``max_error``); ``extra``:
    the fitted ``base``, its ``error`` and the ``criterion`` (:func:`~explodice.
    fit_defence_base`, exact). The fit reads every build at once: each build's cases are
    asked alone (``defence_curves``, kept on its own: an edit to one build computes only its
    cases), put end to end, and fitted (:func:`~explodice.analysis.combat.fit_from_curves`)."""
    parts = [DEFENCE_CURVES.ask(replace(inputs, builds=(b,))) for b in inputs.builds]
    readings = [_reading(name) for name in parts[0].tables if name.startswith("cases ")]
    curves = {
        r: (
            pd.concat([a.tables[f"cases {r[0]} {r[1]}"] for a in parts], ignore_index=True),
            np.concatenate([a.tables[f"curves {r[0]} {r[1]}"].to_numpy() for a in parts]),
        )
        for r in readings
    }
    fit = fit_from_curves(
        curves,
        tried=np.array(BASES),
        criterion=inputs.criterion,
        rules=inputs.rules,
        levels=inputs.levels,
        offsets=inputs.offsets,
        builds=[b.name for b in inputs.builds],
    )
    srd = _srd(inputs.monsters)
    tables = {name: _attributed(getattr(fit, name), srd) for name in ("readings", "cases", "bases")}
    tables["summary"] = pd.DataFrame(  # what a caption says: the base, its errors, the cases
        {
            "base": [int(fit.base)],
            "n_cases": [len(fit.cases)],
            "fit_error": [float(fit.error)],
            "max_error": [float(fit.cases.error.abs().max())],
        }
    )
    extra = {"base": int(fit.base), "error": float(fit.error), "criterion": fit.criterion}
    provenance = Provenance.of(
        "defence_base", inputs.rules, unit="rolls", notes=(srd,) if srd else ()
    )
    return Answer("defence_base", tables, COMBAT_KINDS, provenance, extra)


def _reading(name: str) -> tuple[str, str]:
    """The reading of the VD a table of ``defence_curves`` is of: ``cases W CAP`` -> (W, CAP)."""
    _, w, cap = name.split(" ")
    return w, cap


def compute_defence_curves(inputs: DefenceBaseInputs) -> Answer:
    """One build's part of the defence base's fit (:func:`~explodice.analysis.combat.
    defence_curves`): under each reading of the VD ``W CAP`` (the rules' own first), tables
    ``cases W CAP`` (one row per level, offset and direction) and ``curves W CAP`` (each
    case's 3d6x P(hit) at every base tried, a column per base)."""
    curves = defence_curves(
        list(inputs.builds),
        monsters=None if inputs.monsters is None else list(inputs.monsters),
        levels=list(inputs.levels),
        offsets=list(inputs.offsets),
        rules=inputs.rules,
    )
    tables = {}
    for (w, cap), (frame, p3) in curves.items():
        tables[f"cases {w} {cap}"] = frame
        tables[f"curves {w} {cap}"] = pd.DataFrame(p3, columns=[str(b) for b in BASES])
    provenance = Provenance.of("defence_curves", inputs.rules, unit="rolls")
    return Answer("defence_curves", tables, COMBAT_KINDS, provenance)


#: A part of ``defence_base`` (one build's cases), kept on its own; no surface shows it, so it
#: is not in the catalogue.
DEFENCE_CURVES: Question[DefenceBaseInputs] = Question(
    name="defence_curves",
    summary="one build's cases of the defence base's fit, at every base",
    inputs=DefenceBaseInputs,
    compute=compute_defence_curves,
    kinds=COMBAT_KINDS,
)


DEFENCE_BASE = register(
    Question(
        name="defence_base",
        summary="the base of the VD that keeps 3d6x's hit chances closest to 5e's",
        inputs=DefenceBaseInputs,
        compute=compute_defence_base,
        kinds=COMBAT_KINDS,
        surfaces={"report": ("defence-base",), "cli": ("defence-base",)},
    )
)
