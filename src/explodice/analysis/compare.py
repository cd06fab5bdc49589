"""Comparing the systems: equivalent DCs, where 3d6x and d20 diverge, and DCs from targets.

A designer who knows the d20 table asks: for my character, which 3d6x DC gives the odds
that DC 15 gave in d20? :func:`equivalent_dc` answers for one roll, :func:`equivalent_dc_table`
maps the whole d20 table for a reference profile and shows what it gives the others,
:func:`divergence` adds advantage and disadvantage, and :func:`dc_for_probability` and
:func:`suggest_dcs` answer the inverse question (the DC for a target probability).

>>> from explodice import Roll, equivalent_dc
>>> t = equivalent_dc(Roll(4))
>>> t.loc[t.d20_dc == 15, "dc_3d6x"].tolist()
[16]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from explodice.analysis.success import states
from explodice.core.errors import (
    ExplodiceTypeError,
    check_choice,
    check_items,
    check_mapping,
    check_real,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.engine.d20 import d20
from explodice.engine.distribution import Distribution
from explodice.engine.exact import exact
from explodice.game.checks import check_rules
from explodice.game.rules import ADVANTAGE_STATES, ExplodiceError, Roll, Rules, check_int
from explodice.game.tables import (
    D20_DCS,
    DC_TABLES,
    DEFAULT_TARGETS,
    MAX_DC,
    PROFILES,
    System,
    check_system,
    difficulty_of,
)

__all__ = [
    "DEFAULT_TARGETS",
    "MODES",
    "PROFILES",
    "Mode",
    "dc_for_probability",
    "divergence",
    "equivalent_dc",
    "equivalent_dc_table",
    "suggest_dcs",
]

_TIE = 1e-12
#: How dc_for_probability and suggest_dcs pick a DC for a probability.
Mode = Literal["closest", "at_least", "at_most"]
MODES: tuple[Mode, ...] = get_args(Mode)


def _reference(reference: Any, profiles: Mapping[Any, Any], *, none: bool = False) -> Any:
    """``reference`` when it names one of ``profiles`` (``None`` too, where ``none``)."""
    if reference is None and none:
        return None
    return check_choice("reference", reference, tuple(profiles), ExplodiceError)


def _targets(target: Any) -> np.ndarray:
    """A probability or probabilities as a float array: numbers only (no strings, no bools),
    each in [0, 1]."""
    allowed = Phrase("a probability or probabilities")
    if isinstance(target, (str, bytes, Mapping)):
        raise fail("target", target, allowed, ExplodiceTypeError)
    try:
        items = np.asarray(target, dtype=object)
        targets = np.asarray(target, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise fail("target", target, allowed, ExplodiceTypeError) from None
    if any(isinstance(v, (bool, np.bool_, str, bytes)) for v in items.reshape(-1)):
        raise fail("target", target, allowed, ExplodiceTypeError)
    if targets.size == 0:
        raise fail(
            "target", target, Phrase("{allowed} (at least one)", allowed=allowed), ExplodiceError
        )
    if np.any((targets < 0) | (targets > 1)) or np.any(np.isnan(targets)):
        raise fail("target", target, Phrase("in [0, 1]"), ExplodiceError)
    return targets


def _as_roll(value: int | Roll, field_name: str = "roll") -> Roll:
    if isinstance(value, Roll):
        return value
    return Roll(check_int(field_name, value, lo=-100, hi=100))


def _candidates(dist: Distribution) -> np.ndarray:
    """Every DC that matters for ``dist``: from one below its lowest total (P = 1) to one above
    its highest (P = 0)."""
    return np.arange(dist.lo - 1, dist.lo + dist.pmf.shape[0] + 1)


def _closest(p: np.ndarray, target: float, candidates: np.ndarray) -> tuple[int, float]:
    """The candidate whose p is closest to ``target`` (ties: the highest DC)."""
    gap = np.abs(p - target)
    best = np.nonzero(gap <= gap.min() + _TIE)[0][-1]
    return int(candidates[best]), float(p[best])


def equivalent_dc(
    roll: int | Roll,
    *,
    d20_dcs: Mapping[str, int] | Iterable[int] | None = None,
    rules: Rules | None = None,
    tolerance: float = 0.005,
) -> pd.DataFrame:
    """For each d20 DC, the 3d6x DC whose success probability is closest, and how close.

    ``roll`` (or a modifier) is read in both systems: same modifier, advantage and kind.
    Columns: ``difficulty, d20_dc, p_d20, dc_3d6x, p_3d6x, gap`` (``gap = p_3d6x - p_d20``),
    ``difficulty_3d6x`` and ``note``. A d20 DC that is certain (impossible) has no closest
    3d6x DC, since 3d6x is never certain nor impossible above its minimum: it maps to the
    hardest (easiest) 3d6x DC within ``tolerance`` of 1 (of 0), and ``note`` says so.

    >>> equivalent_dc(0).dc_3d6x.tolist()
    [8, 11, 15, 24, 34, 34]
    """
    roll = _as_roll(roll)
    tolerance = check_real("tolerance", tolerance, lo=0, error=ExplodiceError)
    if not tolerance < 0.5:
        raise fail("tolerance", tolerance, Phrase("a probability in [0, 0.5)"), ExplodiceError)
    table = _dc_map(d20_dcs)
    dist_d20 = d20(roll)
    dist_3 = exact(roll, rules)
    candidates = _candidates(dist_3)
    p3 = dist_3.p_success(candidates)
    rows = []
    for name, dc in table.items():
        p = float(dist_d20.p_success(dc))
        note = ""
        if p >= 1 - _TIE:  # certain in d20: the hardest 3d6x DC still within `tolerance`
            note = "certain in d20"
            best = np.nonzero(p3 >= 1 - tolerance)[0][-1]
        elif p <= _TIE:  # impossible in d20: the easiest 3d6x DC within `tolerance` of 0
            note = "impossible in d20"
            best = np.nonzero(p3 <= tolerance)[0][0]
        if note:
            dc3, q = int(candidates[best]), float(p3[best])
        else:
            dc3, q = _closest(p3, p, candidates)
        rows.append(
            {
                "difficulty": name,
                "d20_dc": dc,
                "p_d20": p,
                "dc_3d6x": dc3,
                "p_3d6x": q,
                "gap": q - p,
                "difficulty_3d6x": difficulty_of(dc3, "3d6x"),
                "note": note,
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update({"roll": roll.describe(), "rules": check_rules(rules).describe()})
    return out


def _dc_map(dcs: Mapping[str, int] | Iterable[int] | None) -> dict[str, int]:
    if dcs is None:
        return dict(D20_DCS)
    if isinstance(dcs, Mapping):
        return {str(k): check_int("d20_dcs", v, lo=-MAX_DC, hi=MAX_DC) for k, v in dcs.items()}
    dcs = [check_int("d20_dcs", d, lo=-MAX_DC, hi=MAX_DC) for d in check_items("d20_dcs", dcs)]
    return {difficulty_of(d, "d20") or f"DC {d}": d for d in dcs}


def equivalent_dc_table(
    profiles: Mapping[str, int | Roll] | None = None,
    *,
    reference: str = "trained",
    rules: Rules | None = None,
    d20_dcs: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """The d20 DC table mapped onto 3d6x for a reference profile, with what it gives others.

    For each difficulty, ``dc_3d6x`` is the reference profile's equivalent DC; each profile's
    rows show its d20 odds at the d20 DC and its 3d6x odds at ``dc_3d6x`` (tidy: one row per
    difficulty and profile), ``gap`` the error of the match for that profile.

    Where the reference's d20 odds are certain or impossible (trained +4 cannot reach DC 25
    or 30: both would map to the same far 3d6x DC), the row is matched on the profile that
    tells that d20 DC apart: the one whose d20 odds there are nearest 50 %; where every
    profile is certain (impossible), on the weakest (strongest), by the tolerance rule of
    :func:`equivalent_dc`. ``matched_on`` names the profile each row was matched on.

    >>> t = equivalent_dc_table()
    >>> t[t.profile == "trained"].dc_3d6x.tolist()
    [8, 13, 16, 20, 25, 42]
    >>> t[t.profile == "trained"].matched_on.tolist()[-2:]  # expert +8 has 20 % at DC 25
    ['expert', 'expert']
    """
    profiles = check_mapping(
        "profiles", PROFILES if profiles is None else profiles, what=Phrase("NAME: modifier items")
    )
    reference = _reference(reference, profiles)
    rolls = {name: _as_roll(value, "profiles") for name, value in profiles.items()}
    own = {name: equivalent_dc(roll, d20_dcs=d20_dcs, rules=rules) for name, roll in rolls.items()}
    rows = []
    for i, row in enumerate(own[reference].to_dict("records")):
        on = _matched_on(reference, {name: table.iloc[i] for name, table in own.items()})
        dc3 = int(own[on].dc_3d6x.iloc[i])
        for name, roll in rolls.items():
            p_d20 = float(d20(roll).p_success(row["d20_dc"]))
            p_3 = float(exact(roll, rules).p_success(dc3))
            rows.append(
                {
                    "difficulty": row["difficulty"],
                    "d20_dc": row["d20_dc"],
                    "dc_3d6x": dc3,
                    "matched_on": on,
                    "profile": name,
                    "modifier": roll.modifier,
                    "p_d20": p_d20,
                    "p_3d6x": p_3,
                    "gap": p_3 - p_d20,
                }
            )
    out = pd.DataFrame(rows)
    out.attrs.update({"reference": reference, "rules": check_rules(rules).describe()})
    return out


def _matched_on(reference: str, rows: Mapping[str, Any]) -> str:
    """The profile whose equivalent DC a row of the table takes: the reference, unless its
    d20 odds there are certain or impossible (its ``note``); then the profile whose d20 odds
    are nearest 50 % (the first of the nearest), else, every profile certain (impossible),
    the one with the lowest (highest) equivalent DC."""
    if not rows[reference].note:
        return reference
    inside = [name for name, row in rows.items() if not row.note]
    if inside:
        return min(inside, key=lambda name: abs(rows[name].p_d20 - 0.5))
    pick = min if rows[reference].note == "certain in d20" else max
    return pick(rows, key=lambda name: rows[name].dc_3d6x)


def divergence(
    profiles: Mapping[str, int | Roll] | None = None,
    *,
    reference: str | None = None,
    advantages: Iterable[str] = ("normal", "advantage", "disadvantage"),
    readings: Iterable[str] = ("subtract", "drop"),
    rules: Rules | None = None,
    d20_dcs: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """Where the systems diverge: map each d20 DC to its 3d6x equivalent without advantage
    (for each profile itself, or for ``reference``), then compare the odds with advantage and
    disadvantage (3d6x: each reading). Sorted by ``abs_gap``, largest first.

    >>> d = divergence({"trained": 4})
    >>> d.iloc[0].advantage
    'disadvantage (subtract)'
    """
    profiles = check_mapping(
        "profiles", PROFILES if profiles is None else profiles, what=Phrase("NAME: modifier items")
    )
    reference = _reference(reference, profiles, none=True)
    rules = check_rules(rules)
    advantages = check_items(
        "advantages",
        advantages,
        what=Phrase("states {ADVANTAGE_STATES}", ADVANTAGE_STATES=list(ADVANTAGE_STATES)),
    )
    readings = check_items("readings", readings, what=Phrase("readings of disadvantage"))
    rows = []
    for name, value in profiles.items():
        base = _as_roll(value, "profiles")
        mapper = base if reference is None else _as_roll(profiles[reference], "profiles")
        mapping = equivalent_dc(mapper.replace(advantage="normal"), d20_dcs=d20_dcs, rules=rules)
        for label, adv, state_rules in states("3d6x", advantages, readings, rules):
            roll = base.replace(advantage=adv)
            dist_d20, dist_3 = d20(roll), exact(roll, state_rules)
            for row in mapping.to_dict("records"):
                p_d20 = float(dist_d20.p_success(row["d20_dc"]))
                p_3 = float(dist_3.p_success(row["dc_3d6x"]))
                rows.append(
                    {
                        "profile": name,
                        "modifier": roll.modifier,
                        "difficulty": row["difficulty"],
                        "d20_dc": row["d20_dc"],
                        "dc_3d6x": row["dc_3d6x"],
                        "advantage": label,
                        "p_d20": p_d20,
                        "p_3d6x": p_3,
                        "gap": p_3 - p_d20,
                        "abs_gap": abs(p_3 - p_d20),
                    }
                )
    out = pd.DataFrame(rows).sort_values("abs_gap", ascending=False, kind="stable")
    out = out.reset_index(drop=True)
    out.attrs.update({"rules": rules.describe(), "reference": reference})
    return out


def dc_for_probability(
    roll: int | Roll | Distribution,
    target: float | Iterable[float],
    *,
    system: System = "3d6x",
    rules: Rules | None = None,
    mode: Mode = "closest",
) -> Any:
    """The DC that gives ``roll`` a target probability of success.

    ``mode``: ``"closest"`` (the DC whose P(success) is nearest the target; ties: the higher
    DC), ``"at_least"`` (the highest DC with P(success) >= target) or ``"at_most"`` (the
    lowest DC with P(success) <= target). An int, or an array for several targets. A 3d6x
    roll reaches any total: a target of 0 (or below the exact table's cut) is refused.

    >>> dc_for_probability(Roll(3), 0.45, system="d20"), dc_for_probability(Roll(0), [0.5, 0.25])
    (15, array([12, 16]))
    """
    check_choice("mode", mode, MODES, ExplodiceError)
    targets = _targets(target)
    if isinstance(roll, Distribution):
        dist = roll
    else:
        roll = _as_roll(roll)
        dist = d20(roll) if check_system(system) == "d20" else exact(roll, check_rules(rules))
    candidates = _candidates(dist)
    p = np.asarray(dist.p_success(candidates), dtype=float)
    out = []
    for t in targets.ravel():
        if dist.omitted > 0 and t <= dist.omitted:  # exploding dice: P(success) is never 0
            raise fail(
                "target",
                float(t),
                Phrase(
                    "above {omitted:.0e} for this roll (its exploding dice reach any "
                    "total: no DC gives P(success) 0, and the DC found under that would "
                    "be where the exact table stops)",
                    omitted=dist.omitted,
                ),
                ExplodiceError,
            )
        if mode == "closest":
            out.append(_closest(p, t, candidates)[0])
            continue
        hits = np.nonzero(p >= t - _TIE)[0] if mode == "at_least" else np.nonzero(p <= t + _TIE)[0]
        if hits.size == 0:  # a d20 attack never goes below 5 % nor above 95 %
            raise ExplodiceError(
                Phrase(
                    "`target` must be reachable in mode {mode}: P(success) of this roll "
                    "spans [{min:.4g}, {max:.4g}], but {t!r} was passed.",
                    mode=shown(mode),
                    min=p.min(),
                    max=p.max(),
                    t=float(t),
                )
            )
        out.append(int(candidates[hits[-1] if mode == "at_least" else hits[0]]))
    result = np.array(out).reshape(targets.shape)
    return int(result) if result.ndim == 0 else result


def suggest_dcs(
    targets: Mapping[str, float] | None = None,
    *,
    reference: str = "trained",
    profiles: Mapping[str, int | Roll] | None = None,
    system: System = "3d6x",
    rules: Rules | None = None,
    mode: Mode = "closest",
) -> pd.DataFrame:
    """A DC table from target probabilities per difficulty band for a reference profile,
    with the odds it gives every profile (tidy: one row per difficulty and profile).

    Columns: ``difficulty, target, dc, table_dc`` (the system's typical DC), ``profile,
    modifier, p`` and ``p_table`` (the profile's odds at the typical DC).

    >>> from explodice import Roll, exact
    >>> s = suggest_dcs({"easy": 0.75})
    >>> trained = s[s.profile == "trained"].iloc[0]   # the reference profile, +4
    >>> p = [exact(Roll(4)).p_success(dc) for dc in (12, 13, 14)]   # the DCs around the aim
    >>> bool(int(trained.dc) == 13 and min(p, key=lambda x: abs(x - 0.75)) == trained.p)
    True
    """
    system = check_system(system)
    targets = check_mapping(
        "targets",
        DEFAULT_TARGETS if targets is None else targets,
        what=Phrase("difficulty: probability items"),
    )
    profiles = check_mapping(
        "profiles", PROFILES if profiles is None else profiles, what=Phrase("NAME: modifier items")
    )
    reference = _reference(reference, profiles)
    check_choice("mode", mode, MODES, ExplodiceError)
    rules = check_rules(rules)
    dist_of = {
        name: (d20(r) if system == "d20" else exact(r, rules))
        for name, r in ((n, _as_roll(v, "profiles")) for n, v in profiles.items())
    }
    typical = DC_TABLES[system]
    rows = []
    for band, target in targets.items():
        dc = dc_for_probability(dist_of[reference], target, mode=mode)
        for name, dist in dist_of.items():
            table_dc = typical.get(band)
            rows.append(
                {
                    "difficulty": band,
                    "target": float(target),
                    "dc": dc,
                    "table_dc": table_dc,
                    "profile": name,
                    "modifier": _modifier(dist),
                    "p": float(dist.p_success(dc)),
                    "p_table": float(dist.p_success(table_dc)) if table_dc else np.nan,
                }
            )
    out = pd.DataFrame(rows)
    out.attrs.update({"system": system, "reference": reference, "mode": mode})
    return out


def _modifier(dist: Distribution) -> int:
    return dist.roll.modifier if dist.roll is not None else 0
