"""The base B of a 3d6x save DC, B + PB + the caster's modifier, fitted to 5e's 8 + PB +
modifier over the gaps between caster and target (:func:`fit_save_dc`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from explodice.analysis.levels.checks import (
    best_index,
    check_builds,
    check_names,
)
from explodice.analysis.levels.odds import odds_of
from explodice.core.errors import (
    ExplodiceError,
    check_choice,
    check_int,
    check_text,
    check_unique,
)
from explodice.core.words import Phrase
from explodice.game.build import (
    LEVELS,
    Build,
    BuildTest,
    check_levels,
    parse_test,
    reference_builds,
)
from explodice.game.character import ABILITIES
from explodice.game.checks import check_rules
from explodice.game.rules import Rules
from explodice.game.tables import (
    D20_SAVE_DC_BASE,
)

__all__ = [
    "CRITERIA",
    "SIDE_DCS",
    "Criterion",
    "SaveDCFit",
    "fit_save_dc",
    "fit_save_dc_from_sides",
    "save_side",
]

Criterion = Literal["least_squares", "minimax"]
CRITERIA: tuple[Criterion, ...] = get_args(Criterion)


@dataclass(frozen=True, repr=False)
class SaveDCFit:
    """The fitted base of 3d6x's save DC (:func:`fit_save_dc`).

    ``base``: B, the DC being B + PB + the caster's modifier; ``criterion`` and ``error`` (its
    value at B: the weighted root mean square error, or the largest absolute error);
    ``gaps``: one row per gap (PB + caster's modifier - target's save modifier) with its
    ``count``, ``share``, ``p_d20`` (5e, DC 8 + PB + modifier), ``p_3d6x`` (at B) and
    ``error`` (p_3d6x - p_d20); ``cases``: one row per level, caster, target and save;
    ``bases``: both criteria for every base tried.
    """

    base: int
    criterion: str
    error: float
    gaps: pd.DataFrame
    cases: pd.DataFrame
    bases: pd.DataFrame
    d20_base: int = D20_SAVE_DC_BASE

    def to_frame(self) -> pd.DataFrame:
        """The table of gaps."""
        return self.gaps

    def __repr__(self) -> str:
        return (
            f"SaveDCFit(base={self.base}: DC = {self.base} + PB + modifier (5e: "
            f"{self.d20_base} + PB + modifier); {self.criterion} error {self.error:.4f} over "
            f"{len(self.gaps)} gaps, {int(self.gaps['count'].sum())} cases)"
        )

    def _repr_html_(self) -> str:
        return (
            f"<div><b>{html.escape(repr(self))}</b>"
            f"{self.gaps.to_html(index=False, float_format=lambda x: f'{x:.4f}')}</div>"
        )


def _save_dc_inputs(
    builds: list[Build], casters: Any, saves: Any, bases: Any
) -> tuple[list[Build], list[str], np.ndarray]:
    """:func:`fit_save_dc`'s casters (builds), saves (abilities) and bases tried, checked."""
    names = [b.name for b in builds]
    if casters is None:
        caster_builds = builds
    else:
        wanted = [
            check_choice("casters", c, tuple(names), ExplodiceError)
            for c in check_names("casters", casters, "names of builds")
        ]
        check_unique("casters", wanted)  # each case counted once
        caster_builds = [b for b in builds if b.name in wanted]
    given_saves = [
        check_text("saves", s, what=Phrase("abilities"))
        for s in check_names("saves", saves, "abilities")
    ]
    save_list = [parse_test(f"{s} save", "saves").ability for s in given_saves]
    check_unique("saves", given_saves, key=lambda s: parse_test(f"{s} save", "saves").ability)
    tried = (
        np.arange(-20, 61)
        if bases is None
        else np.array(
            [
                check_int("bases", b, lo=-1000, hi=1000, error=ExplodiceError)
                for b in check_names("bases", bases, "integers")
            ]
        )
    )
    return caster_builds, save_list, tried


def _save_cases(
    levels: list[int],
    caster_builds: list[Build],
    builds: list[Build],
    save_list: list[str],
    tried: np.ndarray,
    d20_base: int,
    rules: Rules,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Every case of :func:`fit_save_dc` (level, caster, target, save), one row each with 5e's
    P(save) at 8 + gap, and 3d6x's P(save) at each base tried (``[case, base]``)."""
    cases = []
    p3_rows = []
    for lv in levels:
        for caster in caster_builds:
            c = caster.at(lv)
            assert caster.main is not None
            spell = c.proficiency_bonus + c.modifier(caster.main)
            for target in builds:
                who = target.at(lv)
                for ability in save_list:
                    test = BuildTest("save", ability)
                    r3 = test.roll(who, dc=0, system="3d6x")
                    rd = test.roll(who, dc=0, system="d20")
                    gap = spell - r3.modifier
                    o3 = odds_of(r3, rules, "3d6x")
                    p3_rows.append(np.asarray(o3.p(tried + gap), dtype=float))
                    cases.append(
                        {
                            "level": lv,
                            "caster": caster.name,
                            "target": target.name,
                            "save": ability,
                            "pb": c.proficiency_bonus,
                            "caster_modifier": c.modifier(caster.main),
                            "save_modifier": r3.modifier,
                            "gap": gap,
                            "dc_d20": d20_base + spell,
                            "p_d20": float(
                                odds_of(rd, rules, "d20").p(d20_base + spell - rd.modifier)
                            ),
                        }
                    )
    return pd.DataFrame(cases), np.stack(p3_rows)


def _by_gap(
    frame: pd.DataFrame, p3: np.ndarray, tried: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cases grouped by gap: each gap's count, share, mean P(save) in 5e and in 3d6x at
    each base tried (``[gap, base]``)."""
    gaps = np.sort(frame.gap.unique())
    index = np.searchsorted(gaps, frame.gap.to_numpy())
    count = np.bincount(index, minlength=gaps.size).astype(float)
    share = count / count.sum()
    p_d20 = np.bincount(index, weights=frame.p_d20.to_numpy(), minlength=gaps.size) / count
    p_3 = (
        np.stack(
            [np.bincount(index, weights=p3[:, j], minlength=gaps.size) for j in range(tried.size)],
            axis=1,
        )
        / count[:, None]
    )
    return gaps, count, share, p_d20, p_3


def fit_save_dc(
    builds: Build | Sequence[Build] | None = None,
    *,
    levels: Iterable[int] = LEVELS,
    casters: Iterable[str] | None = None,
    saves: Iterable[str] = ABILITIES,
    criterion: Criterion = "least_squares",
    bases: Iterable[int] | None = None,
    d20_base: int = D20_SAVE_DC_BASE,
    rules: Rules | None = None,
) -> SaveDCFit:
    """The base B for which a 3d6x save DC of B + PB + the caster's modifier gives the target
    the same P(save succeeds) as 5e's 8 + PB + modifier.

    The gaps are those the builds produce: at each level, each caster (``casters``: names of
    ``builds``, default all; its modifier is its main ability's) against each build as target
    and each save of ``saves`` (default all six), every such case counted once, both at the
    same level. gap = PB + caster's modifier - target's save modifier; in 5e the save succeeds
    when d20 >= 8 + gap, in 3d6x when 3d6x >= B + gap (the target's own roll: its policy,
    reroll and, in 5e, a save proficient twice read once).

    ``criterion``: ``"least_squares"`` (default) minimises the squared error of the gaps
    weighted by how often each occurs; ``"minimax"`` the largest error over the gaps that
    occur. Ties go to the higher base. ``bases``: the integers tried (default -20..60).

    >>> from explodice import reference_builds
    >>> fit = fit_save_dc(reference_builds())   # the base of the smallest weighted error
    >>> bool(fit.error == fit.bases.rmse.min() == fit.bases.set_index("base").rmse[fit.base])
    True
    """
    rules = check_rules(rules)
    builds = check_builds(reference_builds() if builds is None else builds)
    levels = check_levels(levels)
    check_choice("criterion", criterion, CRITERIA, ExplodiceError)
    names = [b.name for b in builds]
    caster_builds, save_list, tried = _save_dc_inputs(builds, casters, saves, bases)
    d20_base = check_int("d20_base", d20_base, lo=-1000, hi=1000, error=ExplodiceError)
    frame, p3 = _save_cases(levels, caster_builds, builds, save_list, tried, d20_base, rules)
    return _fitted(frame, p3, tried, criterion, d20_base, rules, levels, names)


def _fitted(
    frame: pd.DataFrame,
    p3: np.ndarray,
    tried: np.ndarray,
    criterion: str,
    d20_base: int,
    rules: Rules,
    levels: list[int],
    names: list[str],
) -> SaveDCFit:
    """The fit over the cases ``frame`` and their 3d6x P(save) at each base ``tried``."""
    gaps, count, share, p_d20, p_3 = _by_gap(frame, p3, tried)
    err = p_3 - p_d20[:, None]  # [gap, base]
    rmse = np.sqrt((share[:, None] * err**2).sum(axis=0))
    worst = np.abs(err).max(axis=0)
    objective = rmse if criterion == "least_squares" else worst
    j = best_index(objective)
    base = int(tried[j])
    frame["dc_3d6x"] = base + frame.pb + frame.caster_modifier
    frame["p_3d6x"] = p3[:, j]
    frame["error"] = frame.p_3d6x - frame.p_d20
    table = pd.DataFrame(
        {
            "gap": gaps.astype(int),
            "count": count.astype(int),
            "share": share,
            "p_d20": p_d20,
            "p_3d6x": p_3[:, j],
            "error": err[:, j],
        }
    )
    by_base = pd.DataFrame(
        {"base": tried, "rmse": rmse, "max_error": worst, "chosen": tried == base}
    )
    provenance = {
        "question": "fit_save_dc",
        "rules": rules.describe(),
        "method": "exact",
        "n": None,
        "seed": None,
        "criterion": criterion,
        "base": base,
        "d20_base": d20_base,
        "levels": levels,
        "builds": names,
    }
    for t in (table, frame, by_base):
        t.attrs.update(provenance)
    return SaveDCFit(base, criterion, float(objective[j]), table, frame, by_base, d20_base)


#: The DCs (B + PB + the caster's modifier) at which a build's part of the fit reads its saves
#: (:func:`save_side`): every DC a fit of the default bases (-20..60) asks of a caster of PB
#: +2..+6 and modifier -5..+10 (scores 1..30), and 5e's 8 + PB + modifier among them.
SIDE_DCS = np.arange(-20 + 2 - 5, 60 + 6 + 10 + 1)


def save_side(
    build: Build,
    *,
    levels: Iterable[int] = LEVELS,
    saves: Iterable[str] = ABILITIES,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """One build's part of :func:`fit_save_dc`, what the fit reads of it as a caster and as a
    target, kept apart so that an edit to one build computes only its part
    (:func:`fit_save_dc_from_sides`): one row per level and save, with its ``pb`` and
    ``caster_modifier`` (its main ability's; NA without one), the save's modifier in each
    system (``save_modifier``, ``d20_modifier``), and P(the save succeeds) against every DC
    of :data:`SIDE_DCS` in each system (columns ``3d6x DC`` and ``d20 DC``).

    >>> from explodice import reference_builds
    >>> side = save_side(reference_builds()[0], levels=[1], saves=["DEX"])
    >>> side.shape, round(float(side["3d6x -23"].iloc[0]), 9), float(side["d20 76"].iloc[0])
    ((1, 206), 1.0, 0.0)
    """
    rules = check_rules(rules)
    save_list = _save_dc_inputs([build], None, saves, None)[1]
    rows, p3, pd20 = [], [], []
    for lv in check_levels(levels):
        c = build.at(lv)
        for ability in save_list:
            test = BuildTest("save", ability)
            r3 = test.roll(c, dc=0, system="3d6x")
            rd = test.roll(c, dc=0, system="d20")
            p3.append(np.asarray(odds_of(r3, rules, "3d6x").p(SIDE_DCS - r3.modifier), float))
            pd20.append(np.asarray(odds_of(rd, rules, "d20").p(SIDE_DCS - rd.modifier), float))
            rows.append(
                {
                    "level": lv,
                    "save": ability,
                    "pb": c.proficiency_bonus,
                    "caster_modifier": pd.NA if build.main is None else c.modifier(build.main),
                    "save_modifier": r3.modifier,
                    "d20_modifier": rd.modifier,
                }
            )
    frame = pd.DataFrame(rows).astype({"caster_modifier": "Int64"})
    curves = pd.DataFrame(
        np.hstack([np.stack(p3), np.stack(pd20)]),
        columns=[f"{system} {dc}" for system in ("3d6x", "d20") for dc in SIDE_DCS],
    )
    return pd.concat([frame, curves], axis=1)


def fit_save_dc_from_sides(
    builds: Sequence[Build],
    sides: Sequence[pd.DataFrame],
    *,
    levels: Iterable[int] = LEVELS,
    casters: Iterable[str] | None = None,
    saves: Iterable[str] = ABILITIES,
    criterion: Criterion = "least_squares",
    d20_base: int = D20_SAVE_DC_BASE,
    rules: Rules | None = None,
) -> SaveDCFit:
    """:func:`fit_save_dc` of ``builds`` read from each build's part (``sides``, in the
    builds' order: :func:`save_side` of the same levels and saves): the same cases, in the
    same order, the same probabilities; a DC outside the parts' :data:`SIDE_DCS` (a base of
    5e's far from 8) is computed from the builds, as :func:`fit_save_dc` does."""
    rules = check_rules(rules)
    builds = check_builds(builds)
    levels = check_levels(levels)
    check_choice("criterion", criterion, CRITERIA, ExplodiceError)
    names = [b.name for b in builds]
    caster_builds, save_list, tried = _save_dc_inputs(builds, casters, saves, None)
    d20_base = check_int("d20_base", d20_base, lo=-1000, hi=1000, error=ExplodiceError)
    by_name = dict(zip(names, sides))
    cases = _cases_from_sides(levels, [b.name for b in caster_builds], names, save_list,
                              tried, d20_base, by_name)  # fmt: skip
    if cases is None:
        cases = _save_cases(levels, caster_builds, builds, save_list, tried, d20_base, rules)
    return _fitted(*cases, tried, criterion, d20_base, rules, levels, names)


def _cases_from_sides(
    levels: list[int],
    casters: list[str],
    targets: list[str],
    save_list: list[str],
    tried: np.ndarray,
    d20_base: int,
    sides: Mapping[str, pd.DataFrame],
) -> tuple[pd.DataFrame, np.ndarray] | None:
    """:func:`_save_cases` read from the builds' parts, or None where a DC lies outside them."""
    lo, hi = int(SIDE_DCS[0]), int(SIDE_DCS[-1])
    rows: dict[str, dict[tuple[Any, Any], Any]] = {
        n: {(r.level, r.save): r for r in f.itertuples(index=False)} for n, f in sides.items()
    }
    p3 = {n: f[[f"3d6x {dc}" for dc in SIDE_DCS]].to_numpy() for n, f in sides.items()}
    pd20 = {n: f[[f"d20 {dc}" for dc in SIDE_DCS]].to_numpy() for n, f in sides.items()}
    place = {n: {key: i for i, key in enumerate(rows[n])} for n in sides}
    cases, p3_rows = [], []
    for lv in levels:
        for caster in casters:
            c = rows[caster][lv, save_list[0]]
            assert not pd.isna(c.caster_modifier)  # a caster has a main ability
            pb, modifier = int(c.pb), int(c.caster_modifier)
            spell = pb + modifier
            dcs = tried + spell
            if dcs.min() < lo or dcs.max() > hi or not lo <= d20_base + spell <= hi:
                return None
            for target in targets:
                for ability in save_list:
                    i = place[target][lv, ability]
                    t = rows[target][lv, ability]
                    p3_rows.append(p3[target][i, dcs - lo])
                    cases.append(
                        {
                            "level": lv,
                            "caster": caster,
                            "target": target,
                            "save": ability,
                            "pb": pb,
                            "caster_modifier": modifier,
                            "save_modifier": int(t.save_modifier),
                            "gap": spell - int(t.save_modifier),
                            "dc_d20": d20_base + spell,
                            "p_d20": float(pd20[target][i, d20_base + spell - lo]),
                        }
                    )
    return pd.DataFrame(cases), np.stack(p3_rows)
