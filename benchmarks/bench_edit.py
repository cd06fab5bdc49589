"""The report after one build's edit (issue 34), two versions alternating A, B, A, B, ...: each
round from the same kept cache (the one its cold report left), after the report of the
unchanged configuration, the edit made in the file reported (the first ``[[build]]``'s
first score + 2). Prints each run's wall time and the CPU time of its process tree (the
report's process, its drawing helpers), then the medians and their ratios B/A: steadier than
one run each on a machine that other jobs share.

    python benchmarks/bench_edit.py /tmp/main-src /tmp/perbuild-src --rounds 3

Each version reads its own default configuration, written out; numba's caches should be
warm (run ``bench_loop.py`` first, or a report with each version). The environment passes
on: ``EXPLODICE_DRAW_HELPERS=1`` draws with one helper whatever the load (what
``default_helpers`` chooses on a quiet machine of two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_loop import one_build_changed

#: Runs one command; prints its wall time, the CPU time of its process tree and its stderr.
_MEASURE = (
    "import resource, subprocess, sys, time, json; t = time.perf_counter(); "
    "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
    "s = time.perf_counter() - t; u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(json.dumps([r.returncode, s, u.ru_utime + u.ru_stime, r.stderr.decode()[-2000:]]))"
)


def run(src: Path, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``explodice ARGS`` with ``src`` on the path; its stderr."""
    full = dict(os.environ, PYTHONPATH=str(src.resolve()), **env)
    command = [sys.executable, "-m", "explodice.present.cli", *args]
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        env=full,
        capture_output=True,
        text=True,
        check=True,
    )
    code, wall, cpu, err = json.loads(out.stdout)
    if code != 0:
        raise SystemExit(f"{' '.join(args)} failed ({code}) with {src}:\n{err}")
    return wall, cpu, err


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", type=Path, help="the src folder of version A (the baseline)")
    p.add_argument("b", type=Path, help="the src folder of version B")
    p.add_argument("--rounds", type=int, default=3, help="edits of each version (default 3)")
    args = p.parse_args(argv)
    versions = {"A": args.a, "B": args.b}
    times: dict[str, list[tuple[float, float]]] = {v: [] for v in versions}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)

        def place(v: str, name: str) -> Path:
            return work / f"{name}-{v}"

        for v, src in versions.items():
            subprocess.run(
                [sys.executable, "-m", "explodice.present.cli", "report"]
                + ["--write-default-config", str(place(v, "default.toml"))],
                env=dict(os.environ, PYTHONPATH=str(src.resolve())),
                check=True,
                stdout=subprocess.DEVNULL,
            )
            one_build_changed(place(v, "default.toml"), place(v, "changed.toml"))
            shutil.copy(place(v, "default.toml"), place(v, "game.toml"))
            env = {"EXPLODICE_ANSWER_CACHE": str(place(v, "answers"))}
            report = ["report", "--no-progress", "--out", str(place(v, "out"))]
            wall, _, _ = run(src, [*report, str(place(v, "game.toml"))], env)
            print(f"{v} cold report {wall:.1f} s (not compared)", flush=True)
            shutil.copytree(place(v, "answers"), place(v, "kept"))
        for r in range(args.rounds):
            for v, src in versions.items():
                shutil.rmtree(place(v, "answers"))
                shutil.copytree(place(v, "kept"), place(v, "answers"))
                env = {"EXPLODICE_ANSWER_CACHE": str(place(v, "answers"))}
                report = ["report", "--no-progress", "--out", str(place(v, "out"))]
                shutil.copy(place(v, "default.toml"), place(v, "game.toml"))
                run(src, [*report, str(place(v, "game.toml"))], env)  # the unchanged one
                shutil.copy(place(v, "changed.toml"), place(v, "game.toml"))
                load = os.getloadavg()[0]
                wall, cpu, err = run(src, [*report, str(place(v, "game.toml"))], env)
                times[v].append((wall, cpu))
                note = err.strip().splitlines()[0] if err.strip() else ""
                print(f"round {r} {v}: wall {wall:6.1f} s, CPU {cpu:6.1f} s, load {load:4.1f}"
                      f"  {note}", flush=True)  # fmt: skip
    med = {v: [statistics.median(x[i] for x in ts) for i in (0, 1)] for v, ts in times.items()}
    for v, (wall, cpu) in med.items():
        print(f"{v} median: wall {wall:.1f} s, CPU {cpu:.1f} s")
    print(f"B/A: wall {med['B'][0] / med['A'][0]:.2f}, CPU {med['B'][1] / med['A'][1]:.2f}")


if __name__ == "__main__":
    main()
