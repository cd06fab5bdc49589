"""The pages' data on the second core: a helper process computes the data of the costliest
pages (:data:`AHEAD`) and the explorer while this one computes the other pages and draws.

Drawing a page needs its data only, and the explorer needs no page: the helper computes
:data:`AHEAD`'s pages in the report's order (each before this process reaches it: the day
and the day's policies, pages 7 and 8, first; the readings, the last page, last), then writes
the explorer, while this process computes every other page and draws and saves the pages;
then, idle, it draws pages whole as this process hands them over (:meth:`DataHelper.submit`,
as the PNG helpers of :mod:`.drawing` do: the same bytes), so that neither core waits at the
end (after an edit its few pages are done long before this process has drawn the pages of
the builds). The pages an earlier run kept are read by this process, never sent to the
helper (:func:`.reuse.kept_only`). Nothing is done twice: the questions the explorer
shares with pages (the day, the bestiary) are those of pages the helper computes, so it
reads them from its own memory. Unlike the PNG helpers (:mod:`.drawing`, which draw each
page a second time) the helper pays even on a busy machine: on the default configuration
it takes about half of a cold report's CPU time (27 s of 55 s, measured under load) off this
process.

Each page's data come back pickled (:func:`.reuse.dumps`) with the hash :func:`.reuse.kept_data`
keys its drawing by, what the helper's session of the cache reused and computed, and the
warnings raised, which this process adds and raises when it reaches the page, in the page's
order: the report, its files and what it says are those of a run in one process
(``tests/test_cache.py`` compares every byte). A page the helper could not compute (an error,
a helper that died, a ``data`` function that cannot be sent) is computed here, where its error,
if any, is raised as in one process.

A helper is a plain interpreter that imports explodice (as the warm-up, :mod:`.warmup`),
started (:func:`start`) before this process imports the pages, so that both import at once.
On a first run it compiles the day's kernels itself (no warm-up process then).
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explodice.present.report.drawing import (
    Done,
    Draw,
    draw_pages,
    outcome,
    page_task,
    receive,
    send,
    spawn,
    stop,
)
from explodice.present.report.kit import Context, PageData
from explodice.present.report.reuse import dumps
from explodice.questions import cache as answer_cache

__all__ = ["AHEAD", "DataHelper", "serve", "start", "wanted"]

#: The pages whose data the helper computes, in the report's order: the costliest (the day's
#: policies, the readings), the day and the bestiary (whose answers the explorer reads), and
#: the levels and combat chapters' costliest, so that on the default configuration the two
#: processes finish together (measured: 27 s and 28 s of CPU under load).
AHEAD = (
    "day",
    "day-policies",
    "gauge-sizing",
    "save-dc",
    "combat-hits",
    "defence-base",
    "bestiary-fp",
    "bestiary",
    "readings",
)

_SERVE = "from explodice.present.report.ahead import serve; serve()"

#: One result: the page's pickled data (None: not computed there), the hash of its data as
#: kept, the session's new reused, computed and ignored names, the warnings raised, an error.
Result = tuple[bytes | None, str | None, tuple[list[str], list[str], list[str]], list[Any], str]


def start() -> subprocess.Popen[bytes] | None:
    """The helper's interpreter, started now: it imports the pages while this process does,
    then waits for its job (:class:`DataHelper`); None if no process can start."""
    return spawn(_SERVE)


def wanted() -> bool:
    """Whether a report computes pages on a second core: ``EXPLODICE_DATA_HELPER`` ``1``
    (yes) or ``0`` (no); else on two cores or more. Not gated on the load average: on the
    shared machine it read 3-4 while a report with the helper took 27.4 s against 53.7 s
    without (CPU 48.7 s against 48.0 s); where the cores are truly busy, the helper costs its
    start and the caches both processes fill (about 2-5 s of CPU: measured once 52.9 s
    against 48.3 s). On a first run too (numba's cache empty): the helper compiles the day's
    kernels as it computes the day's pages, in place of the warm-up process, while the report's
    process compiles the roll kernel (measured under load: the report's process 33 s of CPU
    and the helper 37 s, against 57 s and the warm-up's 13 s)."""
    chosen = os.environ.get("EXPLODICE_DATA_HELPER", "").strip()
    if chosen in ("0", "1"):
        return chosen == "1"
    return (os.cpu_count() or 1) >= 2


class DataHelper:
    """A helper process computing pages' data and the explorer (:meth:`page`, :meth:`explorer`
    wait for a result; None: do it here)."""

    def __init__(
        self,
        ctx: Context,
        pages: list[tuple[str, Callable[[Context], PageData]]],
        explorer: tuple[Callable[..., Any], Path, str] | None,
        proc: subprocess.Popen[bytes] | None = None,
    ) -> None:
        self._results: dict[str, Result] = {}
        self._arrived: set[str] = set()  # every result received, taken or not
        self._drawing: list[Done] = []  # pages sent to draw
        self._errors: list[Exception] = []  # the drawing's
        self._done = threading.Condition()
        self._open = True
        session = answer_cache.current()
        folder = session.folder if session is not None else None
        sent = [(n, f) for n, f in pages if _picklable(f)]
        if explorer is not None and not _picklable(explorer[0]):
            explorer = None
        self._expected = {n for n, _ in sent} | ({"explorer"} if explorer else set())
        try:
            job = dumps((Context(ctx.config, ctx.version, ctx.date, {}, ctx.contents),
                         session is not None, folder, sent, explorer))  # fmt: skip
        except Exception:  # noqa: BLE001 - what cannot be sent is done here
            self._expected = set()
        self._proc: subprocess.Popen[bytes] | None = None
        if not self._expected:
            if proc is not None:
                stop(proc)
            return
        self._proc = proc if proc is not None else start()
        if self._proc is None:  # pragma: no cover - no processes: this one computes everything
            self._expected = set()
            return
        assert self._proc.stdin is not None
        try:
            send(self._proc.stdin, job)
        except OSError:  # pragma: no cover - it died at once: this one computes everything
            self._expected = set()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        try:
            while True:
                name, result = receive(self._proc.stdout)
                if name == "drawn":  # a page drawn whole, in the order they were sent
                    error = outcome(result, self._drawing[0])
                    with self._done:
                        self._drawing.pop(0)
                        self._errors.extend([error] if error is not None else [])
                        self._done.notify_all()
                    continue
                with self._done:
                    self._results[name] = result
                    self._arrived.add(name)
                    self._done.notify_all()
        except BaseException:  # noqa: BLE001 - the end, or a helper that died: done here
            with self._done:
                self._open = False
                self._done.notify_all()

    @property
    def idle(self) -> bool:
        """Whether the helper is done with its pages and the explorer and draws nothing: a
        page submitted now is drawn at once."""
        with self._done:
            return self._open and self._expected <= self._arrived and not self._drawing

    def submit(self, draw: Draw, data: Any, path: Path, dpi: int, done: Done) -> bool:
        """Have the helper, once :attr:`idle`, draw a page whole (as
        :meth:`.drawing.PngHelpers.submit`); False if it cannot (this process draws it)."""
        if self._proc is None or self._proc.stdin is None or not self.idle:
            return False
        task = page_task(draw, data, path, dpi)
        if task is None:
            return False
        with self._done:
            self._drawing.append(done)
        try:
            send(self._proc.stdin, task)
        except OSError:  # it stopped: this process draws the page
            with self._done:
                self._drawing.remove(done)
            return False
        return True

    def finish(self) -> None:
        """Wait for the pages sent to draw; raise the first error of their drawing."""
        with self._done:
            self._done.wait_for(lambda: not self._drawing or not self._open)
            if self._drawing:
                self._errors.append(RuntimeError("the data helper stopped while drawing a page"))
            if self._errors:
                raise self._errors[0]

    def _wait(self, name: str) -> Result | None:
        if name not in self._expected:
            return None
        with self._done:
            self._done.wait_for(lambda: name in self._results or not self._open)
            result = self._results.pop(name, None)
        if result is None:
            return None
        _account(result)
        return result

    def page(self, name: str) -> tuple[PageData, str | None] | None:
        """Page ``name``'s data and its hash as kept, computed by the helper; None if it did
        not (then this process computes it)."""
        result = self._wait(name)
        if result is None or result[0] is None:
            return None
        return pickle.loads(result[0]), result[1]

    def explorer(self) -> bool:
        """Wait for the explorer; False if the helper did not write it."""
        result = self._wait("explorer")
        return result is not None and not result[4]

    def close(self) -> None:
        """Stop the helper (its work is done, or no longer needed)."""
        if self._proc is not None:
            stop(self._proc)
            self._proc = None


def _picklable(obj: Any) -> bool:
    try:
        pickle.dumps(obj)
    except Exception:  # noqa: BLE001 - a local function (a test's stand-in): done here
        return False
    return True


def _account(result: Result) -> None:
    """Add the helper's reused, computed and ignored names to this process's session, and
    raise its warnings here."""
    session = answer_cache.current()
    if session is not None:
        reused, computed, ignored = result[2]
        session.reused.extend(reused)
        session.computed.extend(computed)
        session.ignored.extend(ignored)
    for message, category, filename, lineno in result[3]:
        warnings.warn_explicit(message, category, filename, lineno)


def serve() -> None:
    """The helper: read the job (the context, whether a session of the cache is open and its
    folder, the pages, the explorer), compute each, and send each result as it is done."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the report's process stops its helper
    import explodice.present.report.contents  # noqa: F401 - the pages, while the job comes

    try:
        ctx, in_session, folder, pages, explorer = receive(sys.stdin.buffer)
    except EOFError:
        return
    out = os.fdopen(os.dup(1), "wb")  # the results; anything printed goes to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    with answer_cache.session(folder is not None, folder) if in_session else _none() as s:
        for name, data in pages:
            send(out, (name, _run(s, functools.partial(_page, name, data, ctx))))
        if explorer is not None:
            write, path, date = explorer
            send(out, ("explorer", _run(s, functools.partial(_explorer, ctx, write, path, date))))
    # then, idle, pages to draw whole while the report's process draws the others
    draw_pages(ctx, sys.stdin.buffer, lambda answer: send(out, ("drawn", answer)))


@contextlib.contextmanager
def _none() -> Any:
    yield None


def _page(name: str, data: Callable[[Context], PageData], ctx: Context) -> tuple[bytes, Any]:
    from explodice.present.report import reuse

    result, digest = reuse.kept_data(name, data, ctx)
    return dumps(result), digest


def _explorer(ctx: Context, write: Callable[..., Any], path: Path, date: str) -> tuple[None, None]:
    from explodice.present.report import reuse

    reuse.explorer(ctx.config, path, date=date, write=write)
    return None, None


def _run(session: Any, job: Callable[[], tuple[Any, Any]]) -> Result:
    """``job()``'s payload and hash, with what ``session`` recorded and the warnings raised
    meanwhile; on an error, no payload and the traceback."""
    marks = [len(x) for x in _lists(session)]
    error = ""
    with warnings.catch_warnings(record=True) as caught:
        try:
            payload, digest = job()
        except Exception:  # noqa: BLE001 - this page is computed again in the report's process
            payload, digest, error = None, None, traceback.format_exc()
    records = tuple(x[m:] for x, m in zip(_lists(session), marks))
    if error:  # the report's process computes it again and records it then
        records = ([], [], [])
    said = [(w.message, w.category, w.filename, w.lineno) for w in caught]
    if error:
        said = []
    return payload, digest, records, said, error  # type: ignore[return-value]


def _lists(session: Any) -> tuple[list[str], list[str], list[str]]:
    if session is None:
        return [], [], []
    return session.reused, session.computed, session.ignored
