"""Drawing and saving the report's pages, two versions side by side in one run: CPU seconds of
each page's drawing (its ``draw`` function), its one-page PDF (``assemble.page_pdf``) and its
PNG at 110 dpi, on the embedded default configuration.

    python benchmarks/bench_drawing.py 183a6ad          # that commit against the working tree
    python benchmarks/bench_drawing.py 183a6ad HEAD --rounds 3

Each version runs in its own process (``bench_versions.versions``: a temporary git worktree,
its ``src`` imported). The pages' data are computed once, by the second version (answer cache
off), and handed to both as a pickle: the two versions must share the pages' data (a change
to the drawing only), and neither computes a probability while timed. Pages alternate A, B,
A, B... within each round; each page's time is the least of its rounds (CPU seconds,
``time.process_time``: the machine is shared, wall time is noise).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_versions import versions  # noqa: E402

PROBE = r"""
import io, pickle, time
import matplotlib
matplotlib.use("Agg")
from explodice.core.version import __version__
from explodice.present.config import in_language, load_config
from explodice.present.report import assemble, contents
from explodice.present.report.kit import Context
from explodice.questions import cache as answer_cache

SPECS = {s.name: s for s in contents.PAGES}
CTX = Context(
    in_language(load_config(None), "en"), __version__, "2026-12-05",
    contents=tuple((n, s.contents) for n, s in enumerate(contents.PAGES, 1))[1:],
)
DATA = {}

def compute(path):
    with answer_cache.session(False):
        data = {name: spec.data(CTX) for name, spec in SPECS.items()}
    with open(path, "wb") as f:
        pickle.dump(data, f)
    return list(SPECS)

def load(path):
    with open(path, "rb") as f:
        DATA.update(pickle.load(f))
    timed("title")  # fonts and caches warm
    return len(DATA)

def timed(page):
    spec = SPECS[page]
    with matplotlib.rc_context({"text.parse_math": False}):
        t0 = time.process_time()
        fig = spec.draw(CTX, DATA[page])
        t1 = time.process_time()
        assemble.page_pdf(fig)
        t2 = time.process_time()
        fig.savefig(io.BytesIO(), format="png", dpi=110)
        t3 = time.process_time()
    fig.clear()
    return [t1 - t0, t2 - t1, t3 - t2]
"""


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", help="the version before (a commit)")
    p.add_argument("b", nargs="?", default=".", help="the version after (default: working tree)")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, versions([args.a, args.b], PROBE) as (a, b):
        data = str(Path(tmp) / "pages.pickle")
        pages = b.call("compute", path=data)
        a.call("load", path=data), b.call("load", path=data)
        best: dict[str, dict[str, list[float]]] = {args.a: {}, args.b: {}}
        for _ in range(args.rounds):
            for page in pages:
                for version, name in ((a, args.a), (b, args.b)):
                    got = version.call("timed", page=page)
                    old = best[name].get(page, got)
                    best[name][page] = [min(x, y) for x, y in zip(old, got)]
    print(f"{'page':20s} {'A draw/pdf/png':>20s} {'B draw/pdf/png':>20s} {'A s':>6s} {'B s':>6s}")
    totals = {args.a: [0.0] * 3, args.b: [0.0] * 3}
    for page in pages:
        row = [best[args.a][page], best[args.b][page]]
        for name, parts in zip((args.a, args.b), row):
            totals[name] = [t + x for t, x in zip(totals[name], parts)]
        shown = ["/".join(f"{x:.2f}" for x in parts) for parts in row]
        print(f"{page:20s} {shown[0]:>20s} {shown[1]:>20s} {sum(row[0]):6.2f} {sum(row[1]):6.2f}")
    ta, tb = totals[args.a], totals[args.b]
    print(f"{'total':20s} " + " ".join(f"{'/'.join(f'{x:.1f}' for x in t):>20s}" for t in (ta, tb)))
    print(
        f"A ({args.a}) {sum(ta):.2f} s, B ({args.b}) {sum(tb):.2f} s: B/A = {sum(tb) / sum(ta):.2f}"
    )


if __name__ == "__main__":
    main()
