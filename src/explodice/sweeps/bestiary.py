"""The bestiary converted, monster by monster, through :func:`~explodice.sweep`: each batch of
monsters is one case of a sweep, so a bestiary of thousands of a designer's monsters can go to
a local process pool or a Dask cluster as ``explodice sweep`` does (``executor=``); the SRD's
334 run here, in this process. The per-monster computation is
:func:`explodice.analysis.bestiary.monster_rows`.

>>> from explodice import Rules
>>> t = bestiary(name="goblin", fp="1/4", rules=Rules(defence_base=10))
>>> t[["name", "chance", "item", "p_d20", "p_3d6x"]].round(3).head(2).values.tolist()
[['Goblin', 'build_hits', '', 0.555, 0.778], ['Goblin', 'monster_hits', 'Scimitar', 0.51, 0.52]]
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.analysis.bestiary import (
    DEFAULT_THRESHOLD,
    _provenance,
    check_threshold,
    level_sides,
    monster_rows,
)
from explodice.analysis.levels import check_builds
from explodice.core.errors import (
    ExplodiceError,
    check_flag,
    check_int,
    check_items,
    check_text,
    check_unique,
)
from explodice.core.words import Phrase
from explodice.game.bestiary import check_monsters
from explodice.game.build import Build, reference_builds
from explodice.game.checks import check_rules
from explodice.game.monster import Monster
from explodice.game.rules import Rules
from explodice.game.tables import fold_name, parse_fp
from explodice.sweeps.levels import AUTO_POOL_SECONDS, SerialExecutor
from explodice.sweeps.run import sweep
from explodice.sweeps.tasks import SweepWarning, Task

__all__ = ["BATCH", "bestiary", "select_monsters"]

#: Monsters per case of the sweep.
BATCH = 25
#: Prior seconds of one monster against five builds, both systems: 2.6-3.7 ms measured cold on
#: the 2-core machine (benchmarks/bench_bestiary.py), so a local pool starts only past about
#: 6,700 monsters (AUTO_POOL_SECONDS).
_MONSTER_COST = 0.003


@dataclass(frozen=True)
class _Batch:
    """One batch of monsters (picklable: it travels to workers)."""

    monsters: tuple[Monster, ...]
    builds: tuple[Build, ...]
    rules: Rules
    per_build: bool

    def __call__(self, case: dict[str, Any], seed: Any) -> pd.DataFrame:
        i = int(case["batch"])
        rows: list[dict[str, Any]] = []
        sides: dict[int, Any] = {}
        for m in self.monsters[i * BATCH : (i + 1) * BATCH]:
            if m.level not in sides:
                sides[m.level] = level_sides(self.builds, m.level, self.rules)
            rows += monster_rows(m, sides[m.level], rules=self.rules, per_build=self.per_build)
        return pd.DataFrame(rows)


def _listed(field_name: str, value: Any, what: str) -> list[Any]:
    """One value, or a non-empty list of them."""
    if isinstance(value, (str, int, float)):
        return [value]
    return check_items(field_name, value, what=what)


def _folded_type(t: Any) -> str:
    return fold_name(check_text("types", t, what=Phrase("creature types")) or "")


def select_monsters(
    monsters: Iterable[Monster] | None = None,
    *,
    fp: Any = None,
    types: Any = None,
    name: str | None = None,
) -> tuple[Monster, ...]:
    """The monsters of a bestiary (default the SRD's) of the FPs ``fp`` (one or a list), of
    the creature types ``types`` (case and accents aside), whose name holds ``name``.

    >>> [m.name for m in select_monsters(fp=17, types="dragon")]
    ['Adult Gold Dragon', 'Adult Red Dragon', 'Dragon Turtle']
    """
    pool = check_monsters(monsters)
    if fp is not None:
        fps = check_unique("fp", _listed("fp", fp, "power factors"), key=parse_fp)
        wanted = {parse_fp(f, "fp") for f in fps}
        pool = tuple(m for m in pool if m.fp in wanted)
    if types is not None:
        kinds = {
            fold_name(check_text("types", t, what=Phrase("creature types")) or "")
            for t in check_unique(
                "types", _listed("types", types, "creature types"), key=_folded_type
            )
        }
        pool = tuple(m for m in pool if fold_name(m.creature_type) in kinds)
    if name is not None:
        part = fold_name(check_text("name", name, what=Phrase("a part of a monster's name")) or "")
        pool = tuple(m for m in pool if part in fold_name(m.name))
    return pool


def bestiary(
    monsters: Iterable[Monster] | None = None,
    *,
    fp: Any = None,
    types: Any = None,
    name: str | None = None,
    flagged: bool = False,
    threshold: float = DEFAULT_THRESHOLD,
    builds: Build | Sequence[Build] | None = None,
    rules: Rules | None = None,
    per_build: bool = False,
    executor: Any = None,
    workers: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Each monster of a bestiary converted to 3d6x, and how its chances move against the
    level-matched builds (docs/rules.md, "The bestiary").

    ``monsters``: default the SRD 5.1's 334 (:func:`~explodice.srd_monsters`), or any list of
    :class:`~explodice.Monster` (a designer's, the SRD's and a designer's together); filtered
    by ``fp`` (one or a list), ``types`` (creature types) and ``name`` (a part of it). Each
    monster of FP f meets ``builds`` (default the reference builds) at level f clamped to
    1..20.

    One row per monster, chance and item (:data:`~explodice.analysis.bestiary.CHANCES`:
    ``build_hits``; ``monster_hits`` per attack; ``build_saves`` per save DC;
    ``monster_saves`` per ability): the monster converted (``ac``, ``vd``, ``attacks``,
    ``save_dcs_d20``, ``save_dcs_3d6x``, ``saves``, ``skills``), the item's ``bonus``,
    ``target_d20`` and ``target_3d6x`` (the AC and VD, or the DCs), ``p_d20``, ``p_3d6x`` and
    ``change`` (the mean over the builds), ``largest_change`` (the build's change farthest
    from 0), ``worst_build``, and ``flagged`` (\\|largest_change\\| > ``threshold``, 0.10 by
    default), sorted by \\|largest_change\\|, largest first. ``flagged=True`` keeps the flagged
    rows only. ``per_build``: one row per build instead (``build``, ``p_d20``, ``p_3d6x``,
    ``change``; flagged where \\|change\\| > ``threshold``). ``method``, ``n``, ``seed``:
    exact; ``attrs``: the rules, builds, sources and the SRD's attribution.

    ``executor``: ``None`` runs a small bestiary here and a large one on a local pool;
    ``"serial"``, ``"local"``, or any executor :func:`~explodice.sweep` takes.
    """
    rules = check_rules(rules)
    pool = select_monsters(monsters, fp=fp, types=types, name=name)
    threshold = check_threshold(threshold)
    flagged = check_flag("flagged", flagged, error=ExplodiceError)
    per_build = check_flag("per_build", per_build, error=ExplodiceError)
    builds = check_builds(reference_builds() if builds is None else builds)
    if workers is not None:
        check_int("workers", workers, lo=1, hi=4096, error=ExplodiceError)
    if not pool:
        asked = {"fp": fp, "types": types, "name": name}
        given = ", ".join(f"{k}={v!r}" for k, v in asked.items() if v is not None)
        raise ExplodiceError(
            Phrase(
                "the filters must leave at least one monster, but {value} leave none "
                "of the {n_check_monsters} given.",
                value=given or "none",
                n_check_monsters=len(check_monsters(monsters)),
            )
        )
    frame = _sweep(pool, tuple(builds), rules, per_build, executor, workers, progress)
    change = frame["change"] if per_build else frame["largest_change"]
    frame["flagged"] = change.abs() > threshold
    frame = frame.iloc[np.argsort(-change.abs().to_numpy(), kind="stable")]
    if flagged:
        frame = frame[frame.flagged]
    frame = frame.reset_index(drop=True)
    frame["method"], frame["n"], frame["seed"] = "exact", None, None
    frame.attrs.update(_provenance("bestiary", pool, builds, rules))
    frame.attrs.update({"threshold": threshold, "monsters": len(pool)})
    return frame


def _sweep(
    pool: tuple[Monster, ...],
    builds: tuple[Build, ...],
    rules: Rules,
    per_build: bool,
    executor: Any,
    workers: int | None,
    progress: bool | None,
) -> pd.DataFrame:
    batches = -(-len(pool) // BATCH)
    task = Task(
        "bestiary",
        {"batch": None},
        _Batch(pool, builds, rules, per_build),
        lambda c: BATCH * _MONSTER_COST,
    )
    prior = len(pool) * _MONSTER_COST
    if executor is None:
        executor = SerialExecutor() if prior < AUTO_POOL_SECONDS else None
    elif isinstance(executor, str) and executor in ("serial", "local"):
        executor = SerialExecutor() if executor == "serial" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SweepWarning)
        warnings.filterwarnings("ignore", message="IProgress not found")
        frame = sweep(
            {"batch": list(range(batches))},
            task,
            executor=executor,
            workers=workers,
            seed=0,  # exact: no random stream is drawn
            progress=progress,
        )
    failed = frame[frame.error.notna()]
    if not failed.empty:
        raise ExplodiceError(
            Phrase("bestiary: a batch of monsters failed: {error}", error=failed.iloc[0].error)
        )
    return frame.drop(columns=["batch", "case", "method", "n", "seed", "error"])
