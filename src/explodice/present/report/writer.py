"""Writing the report: every page to PDF, PNG and CSV, as one unit, whole or not at all.

A report lives in a folder of its own inside ``--out``, and ``--out`` shows it through links:

.. code-block:: text

    out/
      .explodice-report/              the report's own area; nothing else is written there
        lock                          held while a report is written: two writers cannot mix
        run-<time>-<pid>/             one complete report (PDF, PNGs, CSVs, MANIFEST.txt)
        current -> run-<time>-<pid>   the pointer to the report shown
      explodice-report.pdf -> .explodice-report/current/explodice-report.pdf
      ...                             one link per file of the report

A new report is written whole into a new ``run-`` folder while the old one stays readable;
then the pointer ``current`` is replaced in one rename, so every link shows the new report
at once. A kill, an error or Ctrl-C before that rename replaces nothing; the next run removes
what a crashed run left in the report's area. Only links that point into the report's own
area are ever removed; a file of the user's that stands where the report needs a link is
moved aside into ``.explodice-report/displaced/`` (never deleted) and the run says so.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import fcntl
import hashlib
import os
import shutil
import signal
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from tqdm.auto import tqdm

from explodice.core.errors import ExplodiceError
from explodice.core.spreadsheet import to_csv
from explodice.present.explorer import EXPLORER_NAME, write_explorer
from explodice.present.i18n import translator
from explodice.present.labels import rules_text
from explodice.present.report import contents
from explodice.present.report.config import ReportConfig, in_language, load_config

__all__ = ["AREA", "MANIFEST", "PDF_NAME", "ReportBusyError", "ReportWarning", "write_report"]

PDF_NAME = "explodice-report.pdf"
MANIFEST = "MANIFEST.txt"
AREA = ".explodice-report"  # the report's own folder inside --out
CURRENT = "current"
PNG_DPI = 110


class ReportBusyError(ExplodiceError):
    """Another report is being written into the same folder."""


class ReportWarning(UserWarning):
    """Something the user should know about a report that was written (a file moved aside)."""


def write_report(
    config: ReportConfig | str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] = "reports",
    *,
    progress: bool = False,
    date: str | None = None,
    lang: str | None = None,
) -> list[Path]:
    """Write the report into ``out`` and return the paths it shows there.

    The new report is complete on disk before it replaces the old one, in one rename; if
    anything fails or Ctrl-C is pressed first, the old report stays as it was.

    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> paths = write_report(out=out, date="2026-12-01")  # doctest: +SKIP
    """
    matplotlib.use("Agg", force=False)
    if not isinstance(config, ReportConfig):
        config = load_config(config)
    # --lang overrides the configuration's `lang`; explodice's own names follow the language
    config = in_language(config, config.lang if lang is None else lang)
    out = Path(out)
    area = out / AREA
    try:
        area.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExplodiceError(f"`--out` {str(out)!r} cannot be written ({err.strerror}).") from None
    with _locked(area), _interrupt_guard() as interrupted:
        _clean_leftovers(area)
        run = Path(tempfile.mkdtemp(prefix=f"run-{_dt.datetime.now():%Y%m%d-%H%M%S}-", dir=area))
        try:
            names = _write_pages(run, config, progress=progress, date=date)
            if interrupted.is_set():
                raise KeyboardInterrupt
            _switch(area, run)
        except BaseException:
            shutil.rmtree(run, ignore_errors=True)
            raise
        displaced = _link(out, names)
        _clean_leftovers(area)
    if displaced:
        warnings.warn(
            f"{len(displaced)} file(s) of yours stood where the report writes and were moved to "
            f"{displaced[0].parent} (nothing was deleted): {', '.join(p.name for p in displaced)}",
            ReportWarning,
            stacklevel=2,
        )
    return [out / n for n in names]


def _write_pages(run: Path, config: ReportConfig, *, progress: bool, date: str | None) -> list[str]:
    """Every page into ``run``: the PDF, a PNG per page, a CSV per table, the explorer
    (``explorer.html``), then the manifest."""
    names = [PDF_NAME]
    bar = (
        tqdm(total=len(contents.PAGES), unit="page", desc="report", leave=False)
        if progress
        else None
    )
    _ = translator(config.lang)
    meta = {
        "Title": config.title,
        "Creator": "explodice",
        "Subject": _("The designer's report of explodice: {rules}").format(
            rules=rules_text(config.rules, config.lang)
        ),
    }
    try:
        with PdfPages(run / PDF_NAME, metadata=meta) as pdf:
            for page in contents.build_pages(config, date=date):
                pdf.savefig(page.figure)
                png = f"{page.slug}.png"
                page.figure.savefig(run / png, dpi=PNG_DPI)
                names.append(png)
                for name, frame in page.tables.items():
                    csv = f"{page.slug}-{name}.csv"
                    to_csv(frame, run / csv)
                    names.append(csv)
                page.figure.clear()
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    write_explorer(config, run / EXPLORER_NAME, date=date, lang=config.lang)
    names.append(EXPLORER_NAME)
    lines = [f"{_sha256(run / n)}  {n}" for n in names]
    (run / MANIFEST).write_text("\n".join(lines) + "\n", encoding="utf-8")
    names.append(MANIFEST)
    for name in names:
        with open(run / name, "rb") as f:
            os.fsync(f.fileno())
    return names


def _switch(area: Path, run: Path) -> None:
    """Point ``area/current`` at ``run`` in one rename (the moment the new report appears)."""
    tmp = area / f".{CURRENT}-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    os.symlink(run.name, tmp)
    os.replace(tmp, area / CURRENT)


def _target(name: str) -> str:
    return os.path.join(AREA, CURRENT, name)


def _is_ours(path: Path) -> bool:
    """True for a link this module made: it points exactly into the report's area."""
    return path.is_symlink() and os.readlink(path).startswith(os.path.join(AREA, CURRENT, ""))


def _link(out: Path, names: list[str]) -> list[Path]:
    """Link every name of the report in ``out``; drop our links to names it no longer has.

    Returns the user's files that had to be moved aside to make room (never deleted).
    """
    displaced: list[Path] = []
    aside: Path | None = None
    wanted = set(names)
    for name in names:
        path = out / name
        if _is_ours(path) and os.readlink(path) == _target(name):
            continue
        if path.is_symlink() or path.exists():
            if path.is_dir() and not path.is_symlink():
                raise ExplodiceError(
                    f"{path} is a folder where the report writes a file; "
                    "move it or choose another --out."
                )
            if aside is None:  # one new folder per run: a file moved aside is never overwritten
                (out / AREA / "displaced").mkdir(exist_ok=True)
                aside = Path(
                    tempfile.mkdtemp(
                        prefix=f"{_dt.datetime.now():%Y%m%d-%H%M%S}-", dir=out / AREA / "displaced"
                    )
                )
            os.replace(path, aside / name)
            displaced.append(aside / name)
        tmp = out / f".{name}.{os.getpid()}.link"
        tmp.unlink(missing_ok=True)
        os.symlink(_target(name), tmp)
        os.replace(tmp, path)
    for path in out.iterdir():
        if path.name not in wanted and _is_ours(path):
            path.unlink()
    return displaced


def _clean_leftovers(area: Path) -> None:
    """Remove what crashed or replaced runs left: every ``run-`` folder but the current one."""
    current = area / CURRENT
    shown = os.readlink(current) if current.is_symlink() else None
    for path in area.iterdir():
        if path.name.startswith("run-") and path.name != shown:
            shutil.rmtree(path, ignore_errors=True)
        elif path.name.startswith(f".{CURRENT}-"):
            path.unlink(missing_ok=True)


@contextlib.contextmanager
def _locked(area: Path) -> Iterator[None]:
    """Hold the report area's lock, or raise :class:`ReportBusyError` at once."""
    fd = os.open(area / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ReportBusyError(
                f"another report is being written into {area.parent}; "
                "wait for it to finish or choose another --out."
            ) from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextlib.contextmanager
def _interrupt_guard() -> Iterator[threading.Event]:
    """Record Ctrl-C even where a library swallows the KeyboardInterrupt it raises.

    The report checks the record before it switches to the new report, so a Ctrl-C at any
    moment before the switch replaces nothing; one after it (while the links are laid) leaves
    the new report shown, and the next run lays any link still missing.
    """
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: Any) -> None:
        pressed.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
