"""The explorer as the cold report writes it (issue 34): in a new process, the data of the
pages whose answers it shares (the report's helper computes them first: ``ahead.AHEAD``),
then ``reuse.explorer`` of the embedded default configuration, the cache of answers off;
prints the CPU seconds of the explorer alone (``time.process_time``: steadier than the wall
on a shared machine) per version and round, then the medians, the ratios to the first
version, and whether every version wrote the same bytes.

    python benchmarks/bench_explorer.py A=/tmp/main-src B=src --rounds 2

Each version is ``NAME=SRC``. Run a report of each version first if numba's cache of its
``src`` may be empty.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = """
import sys, time
from pathlib import Path
from explodice.core.version import __version__
from explodice.present.config import in_language, load_config
from explodice.present.explorer import write_explorer
from explodice.present.report import contents, reuse
from explodice.present.report.ahead import AHEAD
from explodice.present.report.kit import Context
from explodice.questions import cache

config = load_config(None)
config = in_language(config, config.lang)
ctx = Context(config, __version__, "2026-12-05", contents=())
pages = {s.name: s for s in contents.PAGES}
with cache.session(False):
    for name in AHEAD:
        pages[name].data(ctx)
    began = time.process_time()
    reuse.explorer(config, Path(sys.argv[1]), date="2026-12-05", write=write_explorer)
    print(time.process_time() - began)
"""


def explorer_cpu(src: Path) -> tuple[float, str]:
    """CPU seconds of the explorer with ``src`` on the path, and the SHA-256 of its page."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "explorer.html"
        env = dict(os.environ, PYTHONPATH=str(src.resolve()), EXPLODICE_ANSWER_CACHE="off")
        run = subprocess.run(
            [sys.executable, "-c", _RUN, str(out)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return float(run.stdout.split()[-1]), hashlib.sha256(out.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("versions", nargs="+", help="NAME=SRC, the first the baseline")
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args(argv)
    versions = [(name, Path(src)) for name, _, src in (v.partition("=") for v in args.versions)]
    cpu: dict[str, list[float]] = {name: [] for name, _ in versions}
    pages: set[str] = set()
    for r in range(args.rounds):
        for name, src in versions:  # alternated round by round: the load falls on each alike
            seconds, digest = explorer_cpu(src)
            cpu[name].append(seconds)
            pages.add(digest)
            print(f"round {r + 1} {name}: explorer {seconds:.2f} s of CPU", flush=True)
    base = statistics.median(cpu[versions[0][0]])
    for name, _ in versions:
        median = statistics.median(cpu[name])
        print(f"{name}: median {median:.2f} s of CPU, {median / base:.2f}x the first version")
    print("the same explorer.html" if len(pages) == 1 else f"{len(pages)} different pages")


if __name__ == "__main__":
    main()
