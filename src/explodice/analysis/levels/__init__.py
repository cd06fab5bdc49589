"""The questions across levels 1-20 (docs/rules.md, "Levels"), one module per question.

The level is a column and the build is the input: every table here has ``level`` in it.

- :mod:`.odds`: P(success) and E[drain] of one roll at every DC (:func:`odds_of`), from one
  exact distribution per roll *shape* (advantage, kind, policy, reroll: the modifier is a
  shift), so the builds and levels that share a shape share it (cached);
- :mod:`.progression`: how each build's tests fare level by level, band by band
  (:func:`progression`), a lookup of those odds over the builds x levels table;
- :mod:`.dcs`: per difficulty band, the DC of each level that puts a build's test closest to
  its target, and the single flat table with the smallest worst miss (:func:`level_dcs`);
- :mod:`.save_dc`: the base B of a 3d6x save DC, B + PB + the caster's modifier, fitted to
  5e's 8 + PB + modifier over the gaps between caster and target (:func:`fit_save_dc`);
- :mod:`.gauges`: one (build, level) case of :func:`explodice.size_gauges`
  (:func:`gauge_rows`), the exact day called in one place (:func:`p_empty_by_maximum`);
- :mod:`.checks`: the checks they share, and their tie-break.

Gauge sizing's grid over builds and levels runs through the sweeps layer
(:mod:`explodice.sweeps.levels`), so a large one can go to a Dask cluster; the others are
computed here directly.

>>> from explodice import reference_builds   # the fighter's Athletics in d20: +5, then +11
>>> t = progression(reference_builds()[:1], levels=[1, 17], tests=["Athletics"],
...                 targets={"moderate": (0.5, 0.9)}, systems=["d20"])
>>> [(r.level, r.dc, round(r.p, 2), r.in_target) for r in t.itertuples()]  # (21 - 15 + mod) / 20
[(1, 15, 0.55, True), (17, 15, 0.85, True)]
"""

from explodice.analysis.levels.checks import (
    check_builds,
    check_names,
    check_risk,
    resolve_targets,
)
from explodice.analysis.levels.dcs import level_dcs
from explodice.analysis.levels.gauges import (
    DAY_ROLLS,
    BuildDay,
    build_day,
    gauge_rows,
    p_empty_by_maximum,
    placed_day,
    points_per_level,
)
from explodice.analysis.levels.odds import Odds, clear_caches, odds_of
from explodice.analysis.levels.progression import progression, progression_rows
from explodice.analysis.levels.save_dc import CRITERIA, Criterion, SaveDCFit, fit_save_dc

__all__ = [
    "CRITERIA",
    "DAY_ROLLS",
    "Criterion",
    "Odds",
    "SaveDCFit",
    "BuildDay",
    "build_day",
    "check_builds",
    "check_names",
    "check_risk",
    "clear_caches",
    "fit_save_dc",
    "gauge_rows",
    "level_dcs",
    "odds_of",
    "p_empty_by_maximum",
    "placed_day",
    "points_per_level",
    "progression",
    "progression_rows",
    "resolve_targets",
]
