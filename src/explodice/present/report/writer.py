"""Writing the report: every page to PDF, PNG and CSV, as one unit, whole or not at all.

A report lives in a folder of its own inside ``--out``, and ``--out`` shows it through links:

.. code-block:: text

    out/
      .explodice-report/              the report's own area; nothing else is written there
        lock                          held while a report is written: two writers cannot mix
        run-<time>-<pid>/             one complete report (PDF, PNGs, CSVs, MANIFEST.txt)
        current -> run-<time>-<pid>   the pointer to the report shown
        links                         the names of the links the report made in out/
      explodice-report.pdf -> .explodice-report/current/explodice-report.pdf
      ...                             one link per file of the report

A new report is written whole into a new ``run-`` folder while the old one stays readable;
then the pointer ``current`` is replaced in one rename, so every link shows the new report
at once. A kill, an error (a full disk included) or Ctrl-C before that rename replaces
nothing; the next run removes what a crashed run left in the report's area. What would stop
the links (a folder of the user's where a file goes) is checked before the rename, so an
error means nothing changed. Only links the report made, as listed in ``links``, are ever
removed (a link of the user's into the report, ``latest.pdf -> .explodice-report/current/
...``, stays); a file of the user's that stands where the report needs a link is moved aside
into ``.explodice-report/displaced/`` (never deleted) and the run says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import errno
import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from explodice.core.errors import ExplodiceError, reason
from explodice.core.files import atomic_write_text, check_path, make_folder
from explodice.core.version import __version__
from explodice.core.words import Phrase
from explodice.present.config import ReportConfig, in_language, load_config
from explodice.present.i18n import Lang, translator
from explodice.present.labels import rules_text
from explodice.present.report import drawing, reuse
from explodice.present.report.kit import Context, PageData
from explodice.questions import cache as answer_cache

__all__ = [
    "AREA",
    "MANIFEST",
    "PDF_NAME",
    "ReportBusyError",
    "ReportWarning",
    "last_session",
    "write_report",
]

PDF_NAME = "explodice-report.pdf"
MANIFEST = "MANIFEST.txt"
AREA = ".explodice-report"  # the report's own folder inside --out
CURRENT = "current"
LINKS = "links"  # in the report's area: the names of the links it made in --out
PNG_DPI = 110
_LAST: list[answer_cache.Session] = []


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
    lang: Lang | None = None,
    cache: bool = True,
    helpers: int | None = None,
    ahead: bool | None = None,
) -> list[Path]:
    """Write the report into ``out`` and return the paths it shows there.

    The new report is complete on disk before it replaces the old one, in one rename; if
    anything fails or Ctrl-C is pressed first, the old report stays as it was.

    ``cache``: keep answers, pages' data and files between runs (:mod:`.reuse`, under
    :func:`~explodice.questions.cache.answers_folder`); ``False`` computes everything and
    keeps nothing. :func:`last_session` then says what was reused and what computed.
    ``helpers``: processes that draw pages whole beside this one (default
    :func:`~.drawing.default_helpers`, less the one of ``ahead``; 0: this one draws
    everything); ``ahead``: a process computes the costliest pages' data and the explorer
    beside this one (default :func:`.ahead.wanted`: on two cores or more); the bytes are the
    same.

    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> paths = write_report(out=out, date="2026-12-01")  # doctest: +SKIP
    """
    if not isinstance(config, ReportConfig):
        config = load_config(config)
    # --lang overrides the configuration's `lang`; explodice's own names follow the language
    config = in_language(config, config.lang if lang is None else lang)
    out = check_path(out, "out")
    area = out / AREA
    try:
        area.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ExplodiceError(
            Phrase(
                "`--out` {out!r} cannot be written ({strerror}).",
                out=str(out),
                strerror=reason(err),
            )
        ) from None
    with _locked(area), _interrupt_guard() as interrupted:
        _clean_leftovers(area)
        run = make_folder(area, prefix=f"run-{_dt.datetime.now():%Y%m%d-%H%M%S}-")
        previous = os.readlink(area / CURRENT) if (area / CURRENT).is_symlink() else None
        try:
            try:
                with answer_cache.session(cache) as session:
                    _LAST[:] = [session]
                    names = _write_pages(
                        run,
                        config,
                        progress=progress,
                        date=date or _dt.date.today().isoformat(),
                        helpers=helpers,
                        ahead=ahead,
                    )
            except Exception as err:
                cause = _os_error(err)
                if cause is None:
                    raise
                # e.g. a full disk: zlib's "Error -2 while flushing" hides the OSError
                raise ExplodiceError(
                    Phrase(
                        "the report cannot be written into {out} ({value}); nothing was changed.",
                        out=out,
                        value=cause.strerror or cause,
                    )
                ) from None
            if interrupted.is_set():
                raise KeyboardInterrupt
            _check_obstacles(out, names)  # before the switch: an error changes nothing
            _switch(area, run)
        except BaseException:
            shutil.rmtree(run, ignore_errors=True)
            raise
        try:
            displaced = _link(out, names)
        except BaseException:  # the links could not be laid: the previous report again
            if previous is not None and (area / previous).is_dir():
                _switch(area, area / previous)
            raise
        _clean_leftovers(area)
    if displaced:
        warnings.warn(
            f"{len(displaced)} file(s) of yours stood where the report writes and were moved to "
            f"{displaced[0].parent} (nothing was deleted): {', '.join(p.name for p in displaced)}",
            ReportWarning,
            stacklevel=2,
        )
    return [out / n for n in names]


def _write_pages(
    run: Path,
    config: ReportConfig,
    *,
    progress: bool,
    date: str,
    helpers: int | None,
    ahead: bool | None,
) -> list[str]:
    """Every page into ``run``: the PDF, a PNG per page, a CSV per table, the explorer
    (``explorer.html``), then the manifest; or, when this configuration was reported on this
    date before (the cache of an open session), the files kept then."""
    key = reuse.report_key(config, date)
    names = reuse.restore_files(key, run)
    if names is None:
        # imported here: a report kept whole is copied without them (matplotlib, the pages,
        # the explorer, numba's kernels take seconds to import)
        from explodice.present.report import ahead as aheads

        if ahead is None:
            ahead = aheads.wanted()
        if helpers is None:
            helpers = max(0, drawing.default_helpers() - ahead)
        # the data helper's interpreter starts now, importing while this process imports
        spawned = aheads.start() if ahead else None
        try:
            names = _draw_pages(
                run, config, progress=progress, date=date, helpers=helpers, spawned=spawned
            )
        finally:
            if spawned is not None:
                drawing.stop(spawned)
        lines = [f"{_sha256(run / n)}  {n}" for n in names]
        (run / MANIFEST).write_text("\n".join(lines) + "\n", encoding="utf-8")
        names.append(MANIFEST)
        reuse.keep_files(key, run, names)
    for name in names:
        with open(run / name, "rb") as f:
            os.fsync(f.fileno())
    return names


def _draw_pages(
    run: Path,
    config: ReportConfig,
    *,
    progress: bool,
    date: str,
    helpers: int,
    spawned: subprocess.Popen[bytes] | None,
) -> list[str]:
    """Every page's PDF page, PNG and CSVs into ``run``, page by page, then the explorer: a
    page's data (kept from an earlier run where what it reads is unchanged,
    :func:`.reuse.kept_data`; else computed, here or, with a data helper (``spawned``), the
    costliest pages' by it while this one works, :mod:`.ahead`; numba's first compilations
    overlapped, :mod:`.warmup`), its drawing (kept where its data and what it reads are
    unchanged, :func:`.reuse.kept_drawing`; else drawn, whole by one of ``helpers`` processes
    with nothing to draw, :mod:`.drawing`, or by the data helper once its pages and the
    explorer are done, or here); then the report's PDF put together from the pages' PDFs
    (:func:`.assemble.merge_pages`), and the explorer (by the data helper after its pages,
    else here while the drawing helpers finish): the same bytes whatever was kept,
    and in one process or several."""
    import matplotlib
    from tqdm.auto import tqdm

    from explodice.present.explorer import EXPLORER_NAME, write_explorer
    from explodice.present.report import assemble, contents
    from explodice.present.report.warmup import stop

    matplotlib.use("Agg", force=False)
    names = [PDF_NAME]
    specs = contents.PAGES
    ctx = Context(config, __version__, date, contents=_contents(specs))
    explorer = (write_explorer, run / EXPLORER_NAME, date)
    early, ready = _data_helper(ctx, specs, explorer, spawned) if spawned else (None, {})
    pool = drawing.PngHelpers(helpers, dataclasses.replace(ctx, cache={})) if helpers else None
    drawers = [d for d in (pool, early) if d is not None]  # the data helper draws once idle
    warm = _warm_up(ctx, early is not None)
    bar = None
    if progress:
        bar = tqdm(total=len(specs), unit="page", desc="report", leave=False, disable=None)
    pdfs: list[bytes] = []
    drawn: list[tuple[str, str | None, set[str], bytes, Path]] = []

    def drawn_by_helper(i: int, slug: str, digest: str | None, png: Path) -> Any:
        def done(pdf: bytes, reads: set[str]) -> None:  # in a thread of the helpers' pool
            pdfs[i] = pdf
            drawn.append((slug, digest, reads, pdf, png))

        return done

    try:
        # Every text of a page is written literally: a name holding `$` is not mathtext
        with matplotlib.rc_context({"text.parse_math": False}):
            for number, spec in enumerate(specs, 1):
                slug = f"{number:02d}-{spec.name}"
                if spec.name in ready:  # kept: read before the helper was given its pages
                    got: tuple[PageData, str | None] | None = ready.pop(spec.name)
                    reuse.count_kept(spec.name)
                else:
                    got = early.page(spec.name) if early is not None else None
                if got is None:
                    got = reuse.kept_data(spec.name, spec.data, ctx, before=warm)
                data, digest = got
                png = run / f"{slug}.png"
                kept = reuse.kept_drawing(slug, digest, ctx)
                if kept is not None:
                    pdfs.append(kept[0])
                    png.write_bytes(kept[1])
                else:
                    # a helper with nothing to draw draws the page whole (this process goes on
                    # to the next page's data); else this process draws it
                    pdfs.append(b"")
                    done = drawn_by_helper(len(pdfs) - 1, slug, digest, png)
                    if not any(
                        d.idle and d.submit(spec.draw, data, png, PNG_DPI, done) for d in drawers
                    ):
                        pdfs[-1], reads = _draw_here(spec, data, ctx, png)
                        drawn.append((slug, digest, reads, pdfs[-1], png))
                names.append(png.name)
                for name, frame in data.tables.items():
                    csv = f"{slug}-{name}.csv"
                    reuse.write_csv(frame, run / csv, digest, name)
                    names.append(csv)
                if bar is not None:
                    bar.update(1)
        if early is None:  # while the helpers draw their last pages
            reuse.explorer(config, run / EXPLORER_NAME, date=date, write=write_explorer)
        for d in drawers:
            d.finish()
        for slug, digest, reads, pdf, png in drawn:
            reuse.keep_drawing(slug, digest, ctx, reads, pdf, png.read_bytes())
        assemble.merge_pages(pdfs, run / PDF_NAME, _metadata(config))
        if early is not None and not early.explorer():
            reuse.explorer(config, run / EXPLORER_NAME, date=date, write=write_explorer)
    finally:
        stop(ctx.cache.pop("warm-up", None))
        for d in drawers:
            d.close()
        if bar is not None:
            bar.close()
    return [*names, EXPLORER_NAME]


def _contents(specs: list[Any]) -> tuple[tuple[int, str], ...]:
    """The table of contents: each page's number and entry, the title page's left out."""
    return tuple((number, spec.contents) for number, spec in enumerate(specs, 1))[1:]


def _warm_up(ctx: Context, helper: bool) -> Callable[[], None]:
    """What to run before the first page computed (none if every page is kept), once: where
    numba's cache lacks the day's kernels, the roll kernel compiled here while they compile
    in the data helper (``helper``: it computes the day's pages) or else in a warm-up
    process (:mod:`.warmup`)."""

    def start() -> None:
        from explodice.present.report.warmup import compiled, start_day_warm_up, warm_roll_kernel

        if "warm-up" in ctx.cache:
            return
        config = ctx.config
        ctx.cache["warm-up"] = None
        if not helper:
            ctx.cache["warm-up"] = start_day_warm_up(
                config.day, config.rules, simulated=config.day_method == "simulate"
            )
        if ctx.cache["warm-up"] is not None or (helper and not compiled()):
            warm_roll_kernel()  # compiles here while the day kernels compile there

    return start


def _draw_here(spec: Any, data: Any, ctx: Context, png: Path) -> tuple[bytes, set[str]]:
    """A page drawn in this process: its one-page PDF and the configuration's fields its
    drawing read; its PNG saved to ``png``."""
    from explodice.present.report import assemble

    with reuse.recording(ctx) as (copy, reads):
        figure = spec.draw(copy, data)
    pdf = assemble.page_pdf(figure)
    assemble.page_png(figure, png, PNG_DPI)
    figure.clear()
    return pdf, set(reads)


def _data_helper(
    ctx: Context, specs: list[Any], explorer: tuple[Any, Path, str], spawned: Any
) -> tuple[Any, dict[str, tuple[PageData, str]]]:
    """The process (``spawned``, :func:`.ahead.start`) that computes the pages of
    :data:`.ahead.AHEAD`, in its order, then writes the explorer (``(write_explorer, path,
    date)``); and the data of those pages an earlier run kept, read here (the helper is not
    waited for: after an edit its interpreter is still starting when this process reaches the
    day's pages)."""
    from explodice.present.report.ahead import AHEAD, DataHelper

    chosen = sorted((s for s in specs if s.name in AHEAD), key=lambda s: AHEAD.index(s.name))
    ready = {s.name: got for s in chosen if (got := reuse.kept_only(s.name, ctx)) is not None}
    sent = [(s.name, s.data) for s in chosen if s.name not in ready]
    return DataHelper(ctx, sent, explorer, spawned), ready


def _metadata(config: ReportConfig) -> dict[str, str]:
    """The report PDF's title, subject and creator."""
    _ = translator(config.lang)
    return {
        "Title": config.title,
        "Creator": "explodice",
        "Subject": _("The designer's report of explodice: {rules}").format(
            rules=rules_text(config.rules, config.lang)
        ),
    }


def last_session() -> answer_cache.Session | None:
    """What the last :func:`write_report` of this process reused and computed (its answers
    and pages, ``page:<name>`` for a page whose data were computed anew)."""
    return _LAST[0] if _LAST else None


def _switch(area: Path, run: Path) -> None:
    """Point ``area/current`` at ``run`` in one rename (the moment the new report appears)."""
    tmp = area / f".{CURRENT}-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    os.symlink(run.name, tmp)
    os.replace(tmp, area / CURRENT)


def _target(name: str) -> str:
    return os.path.join(AREA, CURRENT, name)


#: The errors of a file system that refuses to store the report (full, read-only, denied).
STORAGE_ERRORS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EFBIG,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.EIO,
}


def _os_error(err: BaseException | None) -> OSError | None:
    """The storage error behind ``err`` (itself, or what it was raised while handling: a full
    disk surfaces as zlib's error while the PDF is closed), if any."""
    seen = 0
    while err is not None and seen < 20:
        if isinstance(err, OSError) and err.errno in STORAGE_ERRORS:
            return err
        err, seen = err.__cause__ or err.__context__, seen + 1
    return None


def _made(out: Path) -> list[str]:
    """The names of the links the report made in ``out`` (its list, in its own area)."""
    try:
        text = (out / AREA / LINKS).read_text(encoding="utf-8")
    except OSError:  # a report of an earlier version, or none: no link is known to be ours
        return []
    return [line for line in text.splitlines() if line and "/" not in line]


def _ours(path: Path, name: str) -> bool:
    """True for a link the report made and the user left as it was."""
    return path.is_symlink() and os.readlink(path) == _target(name)


def _check_obstacles(out: Path, names: list[str]) -> None:
    """Refuse what would stop :func:`_link` once the new report is shown: a folder where a
    link goes (a file is moved aside; a folder is not). Links can be made in ``out``."""
    for name in names:
        path = out / name
        if path.is_dir() and not path.is_symlink():
            raise ExplodiceError(
                Phrase(
                    "{path} is a folder where the report writes a file; move it or "
                    "choose another --out.",
                    path=path,
                )
            )
    probe = out / f".{AREA}.{os.getpid()}.probe"
    try:
        probe.unlink(missing_ok=True)
        os.symlink(AREA, probe)
        probe.unlink()
    except OSError as err:
        raise ExplodiceError(
            Phrase(
                "`--out` {out!r}: the report's links cannot be made there ({strerror}).",
                out=str(out),
                strerror=reason(err),
            )
        ) from None


def _link(out: Path, names: list[str]) -> list[Path]:
    """Link every name of the report in ``out``; drop the links it made (its list) to names
    it no longer has, and only those.

    Returns the user's files that had to be moved aside to make room (never deleted).
    """
    displaced: list[Path] = []
    aside: Path | None = None
    wanted = set(names)
    made = _made(out)
    for name in names:
        path = out / name
        if _ours(path, name):
            continue
        if path.is_symlink() or path.exists():
            if path.is_dir() and not path.is_symlink():  # checked before: a race
                raise ExplodiceError(
                    Phrase(
                        "{path} is a folder where the report writes a file; move it or "
                        "choose another --out.",
                        path=path,
                    )
                )
            if aside is None:  # one new folder per run: a file moved aside is never overwritten
                (out / AREA / "displaced").mkdir(exist_ok=True)
                aside = make_folder(
                    out / AREA / "displaced", f"{_dt.datetime.now():%Y%m%d-%H%M%S}-"
                )
            os.replace(path, aside / name)
            displaced.append(aside / name)
        tmp = out / f".{name}.{os.getpid()}.link"
        tmp.unlink(missing_ok=True)
        os.symlink(_target(name), tmp)
        os.replace(tmp, path)
    atomic_write_text(out / AREA / LINKS, "".join(f"{n}\n" for n in names))
    for name in made:
        if name not in wanted and _ours(out / name, name):
            (out / name).unlink()
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
    fd = os.open(area / "lock", os.O_RDWR | os.O_CREAT, 0o666)  # less the umask, as every file
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ReportBusyError(
                Phrase(
                    "another report is being written into {parent}; wait for it to "
                    "finish or choose another --out.",
                    parent=area.parent,
                )
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
