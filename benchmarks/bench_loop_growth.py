"""How the designer's loop grows with the number of builds (issue 34): the data of the report's
pages that read ``builds`` and the explorer's data, for a configuration of N builds (the
default configuration's builds repeated, each copy renamed and every score + 1), computed
cold (nothing kept), then after the first build's STR + 2 with the answers of the first run
kept. One process, run from the tree on ``PYTHONPATH``; prints seconds per page.

    PYTHONPATH=src python benchmarks/bench_loop_growth.py 1 5 10
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
import time
from typing import Any

from explodice.analysis.levels.odds import clear_caches
from explodice.present.config import ReportConfig, load_config
from explodice.present.explorer.data import explorer_data
from explodice.present.report import contents
from explodice.present.report.kit import Context
from explodice.present.report.reuse import page_data
from explodice.questions import cache
from explodice.questions.registry import forget

#: The pages whose data read the configuration's builds.
BUILD_PAGES = (
    "levels-progression", "level-dcs", "gauge-sizing", "save-dc", "combat-hits",
    "defence-base", "bestiary-fp", "bestiary",
)  # fmt: skip


def builds(base: ReportConfig, n: int) -> tuple[Any, ...]:
    """``n`` builds: the default's, then copies renamed with every score + 1."""
    out = []
    for i in range(n):
        b = base.builds[i % len(base.builds)]
        if i >= len(base.builds):
            copy = i // len(base.builds) + 1
            scores = {k: v + 1 for k, v in b.scores.items()}
            b = dataclasses.replace(b, name=f"{b.name} {copy}", scores=scores)
        out.append(b)
    return tuple(out)


def edited(config: ReportConfig) -> ReportConfig:
    """``config`` with its first build's STR raised by 2."""
    first, *others = config.builds
    raised = dataclasses.replace(first, scores=first.scores | {"STR": first.scores["STR"] + 2})
    return dataclasses.replace(config, builds=(raised, *others))


def run(config: ReportConfig, folder: str) -> tuple[float, dict[str, float]]:
    """Seconds in all and per page of the pages of builds and the explorer's data, in a new
    run (nothing in memory) keeping answers in ``folder``."""
    forget()
    clear_caches()
    pages = [p for p in contents.PAGES if p.name in BUILD_PAGES]
    start, times = time.perf_counter(), {}
    with cache.session(folder=folder):
        ctx = Context(config, "v", "2026-12-01")
        for spec in pages:
            t = time.perf_counter()
            page_data(spec.name, spec.data, ctx)
            times[spec.name] = time.perf_counter() - t
        t = time.perf_counter()
        explorer_data(config, date="2026-12-01")
        times["explorer data"] = time.perf_counter() - t
    return time.perf_counter() - start, times


def main(argv: list[str]) -> None:
    base = load_config()
    for n in map(int, argv or ["1", "5", "10"]):
        folder = tempfile.mkdtemp()
        try:
            config = dataclasses.replace(base, builds=builds(base, n))
            cold, cold_times = run(config, folder)
            edit, edit_times = run(edited(config), folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"{n} builds: cold {cold:.1f} s, after one build's edit {edit:.1f} s")
        print("   cold  ", {k: round(v, 1) for k, v in cold_times.items()})
        print("   edited", {k: round(v, 1) for k, v in edit_times.items()}, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
