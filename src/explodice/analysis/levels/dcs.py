"""The DC table across levels that keeps a build's test on its target, band by band
(:func:`level_dcs`).

>>> from explodice import reference_builds   # d20: P = (21 - DC + mod) / 20, DC = 11 + mod;
>>> # the fighter's Athletics: STR 16 and PB 2 at level 1 (+5), STR 20 and PB 6 at 20 (+11)
>>> fighter = reference_builds()[0]
>>> t = level_dcs({"moderate": 0.5}, build=fighter, levels=[1, 20], system="d20")
>>> t.query("table == 'level'")[["level", "modifier", "dc"]].values.tolist()
[[1, 5, 16], [20, 11, 22]]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from explodice.analysis.levels.checks import (
    best_index,
    check_advantage,
    check_builds,
    resolve_targets,
)
from explodice.analysis.levels.odds import odds_of
from explodice.game.build import (
    LEVELS,
    Build,
    BuildTest,
    check_levels,
    parse_test,
    reference_builds,
)
from explodice.game.checks import check_rules
from explodice.game.rules import Advantage, Rules
from explodice.game.tables import (
    DC_TABLES,
    System,
    check_system,
)

__all__ = [
    "level_dcs",
]


def _build_dcs(
    b: Build,
    t: BuildTest,
    levels: list[int],
    aims: dict[str, float],
    system: System,
    rules: Rules,
    advantage: Advantage,
) -> pd.DataFrame:
    """The rows of :func:`level_dcs` for one build's test: per band, its level, flat and
    typical tables."""
    typical = DC_TABLES[system]
    rolls = [t.roll(b.at(lv), dc=0, system=system, advantage=advantage) for lv in levels]
    mods = np.array([r.modifier for r in rolls])
    odds = [odds_of(r, rules, system) for r in rolls]
    lo = min(int(o.needs()[0]) + m for o, m in zip(odds, mods))
    hi = max(int(o.needs()[-1]) + m for o, m in zip(odds, mods))
    dcs = np.arange(lo, hi + 1)
    p = np.stack([np.asarray(o.p(dcs - m), dtype=float) for o, m in zip(odds, mods)])
    rows = []
    for band, aim in aims.items():
        gap = np.abs(p - aim)  # [level, dc]
        flat = best_index(gap.max(axis=0))
        chosen = {
            "level": [best_index(gap[i]) for i in range(len(levels))],
            "flat": [flat] * len(levels),
            "typical": [int(typical[band] - lo)] * len(levels),
        }
        for table, cols in chosen.items():
            for i, lv in enumerate(levels):
                j = cols[i]
                dc = int(lo + j)
                pj = float(p[i, j]) if 0 <= j < dcs.size else float(odds[i].p(dc - mods[i]))
                rows.append(
                    {
                        "build": b.name,
                        "test": t.label,
                        "level": lv,
                        "modifier": int(mods[i]),
                        "difficulty": band,
                        "target": aim,
                        "table": table,
                        "dc": dc,
                        "p": pj,
                        "miss": pj - aim,
                    }
                )
    frame = pd.DataFrame(rows)
    frame["worst_miss"] = frame.groupby(["difficulty", "table"]).miss.transform(
        lambda s: s.abs().max()
    )
    return frame


def level_dcs(
    targets: Mapping[str, float | tuple[float, float]] | None = None,
    *,
    build: Build | Sequence[Build] | None = None,
    test: str | BuildTest | None = None,
    levels: Iterable[int] = LEVELS,
    system: System = "3d6x",
    rules: Rules | None = None,
    advantage: Advantage = "normal",
) -> pd.DataFrame:
    """The DC table across levels that keeps a build's test on its target per band.

    ``targets``: ``{band: p}``, or ``{band: (low, high)}`` aiming at the middle of the range;
    default the middles of :func:`progression`'s ranges,
    :data:`~explodice.game.tables.TARGET_RANGES` (very easy 0.975, easy 0.875, moderate 0.7,
    hard 0.45, very hard 0.2, nearly impossible 0.075), so the table found keeps the build
    inside its ranges. ``build``: one build or several (each
    its own tables), default the reference fighter; ``test``: default each build's
    :meth:`~explodice.Build.main_test` (the fighter's Athletics: trained, main ability).

    Tidy, one row per build, band, level and ``table``:

    - ``"level"``: the DC of that level whose P(success) is closest to the target (ties: the
      higher DC, as :func:`~explodice.dc_for_probability`);
    - ``"flat"``: the single DC for all the levels that minimises the worst miss over the levels
      asked (ties: the higher DC);
    - ``"typical"``: the system's printed DC.

    Columns: ``build, test, level, modifier, difficulty, target, table, dc, p, miss`` (p -
    target) and ``worst_miss`` (the largest ``abs(miss)`` of that table and band over the
    levels). Exact engine, integer DCs. A best(λ) policy and a reroll on failure are played
    against each DC; their DCs are searched where the same roll without them has P(success)
    in [1e-9, 1 - 1e-9] (and 4 DCs beyond each side).

    >>> from explodice import reference_builds   # d20, +5: P = (26 - DC) / 20 is 0.75 at DC 11
    >>> t = level_dcs({"easy": 0.75}, build=reference_builds()[0], levels=[1], system="d20")
    >>> [(r.table, r.dc, round(r.miss, 2)) for r in t.itertuples()]   # the printed DC 10: 0.8
    [('level', 11, 0.0), ('flat', 11, 0.0), ('typical', 10, 0.05)]
    """
    system, rules = check_system(system), check_rules(rules)
    advantage = check_advantage(advantage)
    aims = {band: (lo + hi) / 2 for band, (lo, hi) in resolve_targets(targets).items()}
    builds = check_builds(reference_builds()[0] if build is None else build, "build")
    levels = check_levels(levels)
    frames = [
        _build_dcs(
            b,
            b.main_test() if test is None else parse_test(test),
            levels,
            aims,
            system,
            rules,
            advantage,
        )
        for b in builds
    ]
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(
        {
            "question": "level_dcs",
            "system": system,
            "rules": rules.describe(),
            "method": "exact",
            "n": None,
            "seed": None,
            "targets": aims,
            "advantage": advantage,
            "levels": levels,
        }
    )
    return out
