"""Two versions of explodice side by side in one run: is a change free of speed losses?

    python benchmarks/bench_versions.py d12d814        # that commit against the working tree
    python benchmarks/bench_versions.py d12d814 HEAD   # two commits

Each version is checked out into a temporary git worktree (``"."`` is the working tree itself)
and runs in its own Python process, importing that checkout's ``src`` (nothing is installed).
The processes answer calls to the functions of a *probe*: Python source that uses only the
public API (``import explodice as ex``), so one probe times every version that has those calls.
Calls alternate A, B, A, B..., so the machine's noise falls on both alike. This script's own
probe times the single-roll kernel (plain and with the rule of 1 and its drain, one and two
threads), the exact DC table and the day kernel on a small scenario, and prints the median
time of each version and the ratio B/A of rates (above 1: B is faster).

The other benchmarks compare versions the same way (``bench_kernel.py``, ``bench_day.py``)::

    from bench_versions import versions

    with versions(["a216fc1", "."], PROBE) as (before, after):
        seconds = before.call("timed", n=10**7)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# The process of one version: runs the probe, then answers one JSON call per line. What the
# probe prints goes to stderr; stdout carries only the answers.
WORKER = r"""
import json, sys
answers, sys.stdout = sys.stdout, sys.stderr
probe = {"__name__": "probe"}
exec(sys.argv[1], probe)
import explodice
print(json.dumps({"ok": explodice.__file__}), file=answers, flush=True)
for line in sys.stdin:
    request = json.loads(line)
    try:
        answer = {"ok": probe[request["call"]](**request["kwargs"])}
    except Exception as err:  # the caller raises it, with the version's name
        answer = {"error": f"{type(err).__name__}: {err}"}
    print(json.dumps(answer), file=answers, flush=True)
"""


class Version:
    """One version of explodice (a checkout in ``tree``) in its own process, answering calls
    to the functions of ``probe``. ``name`` is the ref it was checked out from."""

    def __init__(self, name: str, tree: Path, probe: str) -> None:
        self.name, self.tree = name, tree
        env = dict(os.environ, PYTHONPATH=str(tree / "src"))
        self._proc = subprocess.Popen(
            [sys.executable, "-u", "-c", WORKER, probe],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        where = Path(self._answer())
        if tree.resolve() not in where.resolve().parents:  # an installed copy would be wrong
            raise RuntimeError(f"{name}: imported explodice from {where}, not from {tree}")

    def call(self, function: str, **kwargs: Any) -> Any:
        """``function(**kwargs)`` of the probe, run in this version's process (JSON in, out)."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"call": function, "kwargs": kwargs}) + "\n")
        self._proc.stdin.flush()
        return self._answer()

    def _answer(self) -> Any:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name}: the process stopped (exit {self._proc.wait()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{self.name}: {answer['error']}")
        return answer["ok"]

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=60)


def checkout(ref: str, tmp: Path) -> Path:
    """A checkout of ``ref`` in a temporary git worktree (``"."`` is the working tree itself)."""
    if ref == ".":
        return ROOT
    path = tmp / ref.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), ref], check=True
    )
    return path


def remove_worktrees(trees: dict[str, Path]) -> None:
    """Remove the temporary checkouts :func:`checkout` made (never the working tree)."""
    for tree in trees.values():
        if tree != ROOT:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )


@contextlib.contextmanager
def versions(refs: Sequence[str], probe: str) -> Iterator[list[Version]]:
    """A :class:`Version` per ref, each running ``probe``; the worktrees are removed after."""
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, Path] = {}
        running: list[Version] = []
        try:
            for ref in refs:
                trees[ref] = checkout(ref, Path(tmp))
                running.append(Version(ref, trees[ref], probe))
            yield running
        finally:
            for version in running:
                version.close()
            remove_worktrees(trees)


# What one round times (public names only).
PROBE = r"""
import time
import explodice as ex

def timed(fn):
    t = time.perf_counter(); fn(); return time.perf_counter() - t

plain, drain = ex.Roll(0, kind="attack"), ex.Roll(2, kind="check")
scenario = ex.Scenario(
    [ex.Character("A", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=10), level=5)],
    [ex.DayRoll("A", ability="STR", dc=16)], rolls_per_day=40)

def warm():
    for roll in (plain, drain):  # numba's cache: compile once per version
        ex.simulate(roll, n=1000, seed=0, threads=1)
    ex.simulate_day(scenario, n_days=10, seed=0, threads=1)

def one_round(n):
    return {
        "plain 3d6x, 1 thread": timed(lambda: ex.simulate(plain, n=n, seed=1, threads=1, progress=False)),
        "plain 3d6x, 2 threads": timed(lambda: ex.simulate(plain, n=n, seed=1, threads=2, progress=False)),
        "rule of 1 + drain, 1 thread": timed(lambda: ex.simulate(drain, n=n, seed=1, threads=1, progress=False)),
        "exact DC table (16 x 6 x 2 states)": timed(lambda: ex.success_table(advantages=["normal", "advantage"])),
        "day kernel, 1 thread": timed(lambda: ex.simulate_day(scenario, n_days=n // 400, seed=1, threads=1)),
    }
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the version before (a commit)")
    parser.add_argument(
        "b", nargs="?", default=".", help="the version after (default: the working tree)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=50_000_000, help="rolls per kernel timing")
    args = parser.parse_args()
    times: dict[str, dict[str, list[float]]] = {args.a: {}, args.b: {}}
    with versions([args.a, args.b], PROBE) as running:
        for version in running:
            version.call("warm")
        for _ in range(args.rounds):
            for version in running:
                for case, t in version.call("one_round", n=args.n).items():
                    times[version.name].setdefault(case, []).append(t)
    a, b = args.a, args.b
    print(f"| case | {a} median s | {b} median s | rate {b} / {a} |")
    print("|---|---:|---:|---:|")
    for case in times[a]:
        ta, tb = statistics.median(times[a][case]), statistics.median(times[b][case])
        print(f"| {case} | {ta:.3f} | {tb:.3f} | {ta / tb:.2f} |")


if __name__ == "__main__":
    main()
