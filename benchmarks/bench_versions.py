"""Two versions of explodice side by side in one run: is a change free of speed losses?

    python benchmarks/bench_versions.py d12d814        # that commit against the working tree
    python benchmarks/bench_versions.py d12d814 HEAD   # two commits

Each version is checked out into a temporary git worktree and timed in its own fresh process
(numba's cache warmed first), rounds alternating A, B, A, B..., so the machine's noise falls on
both alike. Only the public API is timed (``import explodice as ex``), the calls that every
version has: the single-roll kernel (plain and with the rule of 1 and its drain, one and two
threads), the exact DC table, and the day kernel on the default scenario. The table gives the
median time of each version and the ratio B/A of rates (above 1: B is faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What one round times, run inside the version's own interpreter (public names only).
PROBE = r"""
import json, sys, time
import explodice as ex

def timed(fn):
    t = time.perf_counter(); fn(); return time.perf_counter() - t

n = int(sys.argv[1])
plain, drain = ex.Roll(0, kind="attack"), ex.Roll(2, kind="check")
for roll in (plain, drain):  # warm numba's cache (compile once per version)
    ex.simulate(roll, n=1000, seed=0, threads=1)
scenario = ex.Scenario(
    [ex.Character("A", dict(STR=14, DEX=12, CON=14, INT=10, WIS=10, CHA=10), level=5)],
    [ex.DayRoll("A", ability="STR", dc=16)], rolls_per_day=40)
ex.simulate_day(scenario, n_days=10, seed=0, threads=1)
out = {
    "plain 3d6x, 1 thread": timed(lambda: ex.simulate(plain, n=n, seed=1, threads=1, progress=False)),
    "plain 3d6x, 2 threads": timed(lambda: ex.simulate(plain, n=n, seed=1, threads=2, progress=False)),
    "rule of 1 + drain, 1 thread": timed(lambda: ex.simulate(drain, n=n, seed=1, threads=1, progress=False)),
    "exact DC table (16 x 6 x 2 states)": timed(lambda: ex.success_table(advantages=["normal", "advantage"])),
    "day kernel, 1 thread": timed(lambda: ex.simulate_day(scenario, n_days=n // 400, seed=1, threads=1)),
}
print(json.dumps(out))
"""


def worktree(ref: str, tmp: Path) -> Path:
    """A checkout of ``ref`` (``"."`` is the working tree itself)."""
    if ref == ".":
        return ROOT
    path = tmp / ref.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), ref], check=True
    )
    return path


def remove_worktrees(trees: dict[str, Path]) -> None:
    """Remove the temporary checkouts :func:`worktree` made (never the working tree)."""
    for tree in trees.values():
        if tree != ROOT:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )


def run_probe(tree: Path, n: int) -> dict[str, float]:
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(n)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the version before (a commit)")
    parser.add_argument(
        "b", nargs="?", default=".", help="the version after (default: the working tree)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=50_000_000, help="rolls per kernel timing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {v: worktree(v, Path(tmp)) for v in (args.a, args.b)}
        try:
            times: dict[str, dict[str, list[float]]] = {v: {} for v in trees}
            for _ in range(args.rounds):
                for version, tree in trees.items():
                    for case, t in run_probe(tree, args.n).items():
                        times[version].setdefault(case, []).append(t)
        finally:
            remove_worktrees(trees)
    a, b = args.a, args.b
    print(f"| case | {a} median s | {b} median s | rate {b} / {a} |")
    print("|---|---:|---:|---:|")
    for case in times[a]:
        ta, tb = statistics.median(times[a][case]), statistics.median(times[b][case])
        print(f"| {case} | {ta:.3f} | {tb:.3f} | {ta / tb:.2f} |")


if __name__ == "__main__":
    main()
