"""Compare two written reports page for page: what a refactor must leave unchanged.

Usage::

    explodice report --out /tmp/before            # on the commit before the change
    explodice report --out /tmp/after             # on the change
    python scripts/compare_reports.py /tmp/before /tmp/after

Every CSV is compared byte for byte, every PNG pixel for pixel (decoded, so the PNG
encoder's metadata does not count), the PDF by its number of pages and the text of each
page (``pdftotext``, from poppler-utils, when it is installed), and the explorer's HTML
byte for byte. It prints one line per file that differs and exits 1 if any does, 0 if the
two reports are the same.

>>> from pathlib import Path
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
...     _ = (Path(a) / "t.csv").write_text("x\\n1\\n"), (Path(b) / "t.csv").write_text("x\\n2\\n")
...     differences(Path(a), Path(b))
['t.csv: the bytes differ (first at line 2)']
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

#: Files that name the moment that wrote them, not what the report shows (the MANIFEST
#: hashes the PDF, whose bytes carry its creation time; its pages are compared by their text).
SKIPPED = {"MANIFEST.txt"}


def _shown(folder: Path) -> set[Path]:
    """The report's files as the user sees them (its hidden run folders left out)."""
    return {
        p.relative_to(folder)
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    }


def _csv(a: Path, b: Path) -> str | None:
    if a.read_bytes() == b.read_bytes():
        return None
    lines_a, lines_b = a.read_text().splitlines(), b.read_text().splitlines()
    for i, (x, y) in enumerate(zip(lines_a, lines_b), start=1):
        if x != y:
            return f"the bytes differ (first at line {i})"
    return f"{len(lines_a)} lines against {len(lines_b)}"


def _png(a: Path, b: Path) -> str | None:
    import matplotlib.image as mpimg
    import numpy as np

    x, y = mpimg.imread(a), mpimg.imread(b)
    if x.shape != y.shape:
        return f"sizes {x.shape} and {y.shape}"
    changed = np.any(x != y, axis=-1) if x.ndim == 3 else x != y
    share = float(changed.mean())
    return None if share == 0 else f"{share:.2%} of the pixels differ"


def _pdf_pages(path: Path) -> list[str] | None:
    if shutil.which("pdftotext") is None:
        return None
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.split("\f")


def _pdf(a: Path, b: Path) -> str | None:
    pages_a, pages_b = _pdf_pages(a), _pdf_pages(b)
    if pages_a is None or pages_b is None:
        return None  # pdftotext missing: the PNGs show the same pages
    if len(pages_a) != len(pages_b):
        return f"{len(pages_a)} pages against {len(pages_b)}"
    for i, (x, y) in enumerate(zip(pages_a, pages_b), start=1):
        if x != y:
            return f"the text of page {i} differs"
    return None


def _bytes(a: Path, b: Path) -> str | None:
    return None if a.read_bytes() == b.read_bytes() else "the bytes differ"


COMPARE = {".csv": _csv, ".png": _png, ".pdf": _pdf}


def differences(before: Path, after: Path) -> list[str]:
    """One line per file of either report that is missing from the other or differs."""
    names_a, names_b = _shown(before), _shown(after)
    out = [f"{n}: only in {before}" for n in sorted(names_a - names_b) if n.name not in SKIPPED]
    out += [f"{n}: only in {after}" for n in sorted(names_b - names_a) if n.name not in SKIPPED]
    for name in sorted(names_a & names_b):
        if name.name in SKIPPED:
            continue
        why = COMPARE.get(name.suffix, _bytes)(before / name, after / name)
        if why is not None:
            out.append(f"{name}: {why}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the report written before the change")
    parser.add_argument("after", type=Path, help="the report written after it")
    args = parser.parse_args(argv)
    found = differences(args.before, args.after)
    for line in found:
        print(line)
    print(f"{len(found)} files differ" if found else "the two reports are the same")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
