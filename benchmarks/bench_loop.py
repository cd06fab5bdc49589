"""The designer's loop (issue 34), two versions side by side in one run: the report of a
configuration with the cache of answers empty, the same report again, the report after one
build's score changed (the edit made in the file reported, as a designer makes it),
``explodice explore`` after the report, and a first report with
numba's cache empty (what a fresh clone pays besides its venv). Each run is its own process
tree; its wall time and peak memory (``ru_maxrss`` of the largest process of the tree:
the report's own, a drawing helper's or the warm-up's) are printed.

    python benchmarks/bench_loop.py /work/main/src src        # today's main against this tree
    python benchmarks/bench_loop.py /work/main/src src --skip-first

Each version reads its own default configuration, written out (two versions may not read
each other's files: a key one adds is refused by the other); a version without a cache (A,
main) computes everything each time. Prints one line per step and
version, then the ratios B/A (below 1: B is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Runs one command, then prints its wall time and the peak memory of its process tree.
_MEASURE = (
    "import resource, subprocess, sys, time, json; t = time.perf_counter(); "
    "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
    "s = time.perf_counter() - t; "
    "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
    "print(json.dumps([r.returncode, s, m, r.stderr.decode()[-2000:]]))"
)


#: With --a-once, the step whose time of A stands for these (A computes everything each time).
ONCE = {
    "the same report again": "report, cache of answers empty",
    "one build's score changed": "report, cache of answers empty",
}


def measure(src: Path, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds and peak MiB of ``explodice ARGS`` with ``src`` on the path; its stderr."""
    full = dict(os.environ, PYTHONPATH=str(src.resolve()), **env)
    command = [sys.executable, "-m", "explodice.present.cli", *args]
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        env=full,
        capture_output=True,
        text=True,
        check=True,
    )
    code, seconds, kib, err = json.loads(out.stdout)
    if code != 0:
        raise SystemExit(f"{' '.join(args)} failed ({code}) with {src}:\n{err}")
    return seconds, kib / 1024, err


def one_build_changed(config: Path, changed: Path) -> None:
    """``config`` with the first build's first score raised by 2, written to ``changed``."""
    text = config.read_text(encoding="utf-8")
    start = text.index("[[build]]")
    match = re.compile(r"(scores\s*=\s*\{\s*\w+\s*=\s*)(\d+)").search(text, start)
    assert match is not None, "the default configuration has a [[build]] with scores"
    raised = str(int(match.group(2)) + 2)
    changed.write_text(text[: match.start(2)] + raised + text[match.end(2) :], encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", type=Path, help="the src folder of version A (the baseline)")
    p.add_argument("b", type=Path, help="the src folder of version B")
    p.add_argument("--skip-first", action="store_true", help="leave out the first run")
    p.add_argument(
        "--skip-warm-up", action="store_true", help="numba's caches of both are warm already"
    )
    p.add_argument(
        "--a-once",
        action="store_true",
        help="A keeps nothing between runs (main): time its report once, and compare B's "
        "second report and its report after the edit with that time",
    )
    args = p.parse_args(argv)
    results: dict[str, dict[Path, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for v, src in (("a", args.a), ("b", args.b)):  # each its own default, written out
            subprocess.run(
                [sys.executable, "-m", "explodice.present.cli", "report"]
                + ["--write-default-config", str(work / f"game-{v}.toml")],
                env=dict(os.environ, PYTHONPATH=str(src.resolve())),
                check=True,
                stdout=subprocess.DEVNULL,
            )
            one_build_changed(work / f"game-{v}.toml", work / f"changed-{v}.toml")
            shutil.copy(work / f"game-{v}.toml", work / f"edited-{v}.toml")
        steps: list[tuple[str, list[str], dict[str, str]]] = []
        report = ["report", "--no-progress", "--out"]
        # the edit is made in the file reported (as a designer does): the same path, so the
        # footer of every page (which names the file) is unchanged
        cfg, new = "game-{}.toml", "edited-{}.toml"
        # {} in a command or a value: a name of this version's own in the temporary folder
        if not args.skip_first:
            first = {"NUMBA_CACHE_DIR": "numba-{}", "EXPLODICE_ANSWER_CACHE": "answers-first-{}"}
            steps.append(("first report (numba's cache empty)", [*report, "first-{}", cfg], first))
        if not args.skip_warm_up:
            warm = {"EXPLODICE_ANSWER_CACHE": "off"}
            steps.append(("warm-up (not timed)", [*report, "warm-{}", cfg], warm))
        steps += [
            ("report, cache of answers empty", [*report, "loop-{}", new], {}),
            ("the same report again", [*report, "loop-{}", new], {}),
            ("one build's score changed", [*report, "loop-{}", new], {}),
            ("explore after the report", ["explore", new, "--out", "x-{}.html"], {}),
        ]
        for name, command, extra in steps:
            if name == "one build's score changed":  # the designer edits the file reported
                for v in ("a", "b"):
                    shutil.copy(work / f"changed-{v}.toml", work / f"edited-{v}.toml")
            for v, src in (("a", args.a), ("b", args.b)):
                if v == "a" and args.a_once and name in ONCE:
                    results.setdefault(name, {})[src] = results[ONCE[name]][src]
                    print(f"{name:38s} A (the time of: {ONCE[name]})", flush=True)
                    continue
                env = {"EXPLODICE_ANSWER_CACHE": "answers-{}", **extra}
                env = {k: x if x == "off" else str(work / x.format(v)) for k, x in env.items()}
                cmd = [str(work / c.format(v)) if "{}" in c else c for c in command]
                seconds, mib, err = measure(src, cmd, env)
                results.setdefault(name, {})[src] = (seconds, mib)
                note = err.strip().splitlines()[0] if v == "b" and err.strip() else ""
                print(f"{name:38s} {v.upper()} {seconds:7.1f} s {mib:7.0f} MiB  {note}", flush=True)
    print("\nratios B/A of wall time (below 1: B is faster):")
    for name, by in results.items():
        if "not timed" not in name:
            (ta, _), (tb, _) = by[args.a], by[args.b]
            print(f"  {name:38s} {tb / ta:6.2f}  ({ta:.1f} s -> {tb:.1f} s)")


if __name__ == "__main__":
    main()
