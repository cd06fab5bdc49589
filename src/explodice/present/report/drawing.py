"""Drawing on several cores: a page is drawn whole (its one-page PDF and its PNG) by a helper
process while this one computes the next pages' data, or by this one while every helper is
busy.

A page's figure cannot be sent between processes (its tick formatters are local functions),
so a helper draws the page from its data: a figure is drawn from the page's data alone, so
it is the same figure, and its PDF and PNG have the same bytes as a serial run's
(``tests/test_cache.py::test_pages_drawn_in_helpers_are_the_serial_bytes`` checks every
file). A page drawn whole by a helper comes back as its PDF's bytes and the configuration's
fields its drawing read (:func:`~explodice.present.report.reuse.recording`). Drawing is
cheap beside saving: on the default configuration saving a PNG costs about as much as
drawing and saving the PDF page. Whole pages balance the two cores: the report's process
also computes the pages' data and the explorer, so a helper drawing only PNGs waited while
it drew every PDF.

A helper is a plain interpreter that imports explodice (as the warm-up process,
:mod:`.warmup`: a multiprocessing child would run the caller's main script again); it reads
pickled tasks on its standard input and answers on its standard output. If a helper cannot
start, or a page's data cannot be pickled, this process saves the PNG itself.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from explodice.present.report.reuse import dumps

__all__ = [
    "Done",
    "Draw",
    "PngHelpers",
    "default_helpers",
    "draw_pages",
    "outcome",
    "page_task",
    "receive",
    "send",
    "serve",
    "spawn",
    "stop",
]

_SERVE = "from explodice.present.report.drawing import serve; serve()"

#: A page's drawing function (``draw(context, data)``, sent by name) and what is called with
#: the page drawn by a helper (``done(pdf, fields)``: its PDF's bytes and the fields it read).
Draw = Callable[[Any, Any], Any]
Done = Callable[[bytes, set[str]], None]


def default_helpers() -> int:
    """How many helper processes draw PNGs: the cores left idle (the cores less the load
    average, less this process), at most two, none on one core; ``EXPLODICE_DRAW_HELPERS``
    sets it. A helper draws each page a second time, so on a machine already busy it costs
    more than it saves (measured: benchmarks/README.md); the bytes are the same either way."""
    chosen = os.environ.get("EXPLODICE_DRAW_HELPERS")
    if chosen is not None and chosen.strip().isdigit():
        return int(chosen)
    cores = os.cpu_count() or 1
    try:
        idle = cores - os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average: count the cores
        idle = cores
    return max(0, min(2, cores - 1, math.floor(idle - 0.5)))


def send(stream: IO[bytes], obj: Any) -> None:
    """Write ``obj`` (pickled, or bytes already pickled) to ``stream``, its size first."""
    blob = obj if isinstance(obj, bytes) else dumps(obj)
    stream.write(struct.pack("<Q", len(blob)) + blob)
    stream.flush()


def receive(stream: IO[bytes]) -> Any:
    """Read what :func:`send` wrote (EOFError at the end of ``stream``)."""
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    (size,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(size))


class PngHelpers:
    """Helper processes that draw pages and save their PNGs: :meth:`submit` a page, then
    :meth:`finish` (waits, and raises the first helper's error here)."""

    def __init__(self, n: int, context: Any) -> None:
        self._tasks: queue.Queue[Any] = queue.Queue()
        self._errors: list[BaseException] = []
        self._threads: list[threading.Thread] = []
        self._procs: list[subprocess.Popen[bytes]] = []
        self._busy = 0  # pages submitted and not yet drawn
        self._lock = threading.Lock()
        start = dumps(context)
        for _ in range(n):
            proc = spawn(_SERVE)
            if proc is None:  # pragma: no cover - no processes: this one saves the PNGs
                break
            self._procs.append(proc)
            thread = threading.Thread(target=self._feed, args=(proc, start), daemon=True)
            thread.start()
            self._threads.append(thread)

    @property
    def running(self) -> bool:
        return bool(self._procs)

    @property
    def idle(self) -> bool:
        """Whether a helper has nothing to draw (a page submitted now starts at once)."""
        with self._lock:
            return self._busy < len(self._procs)

    def submit(self, draw: Draw, data: Any, path: Path, dpi: int, done: Done) -> bool:
        """Have a helper draw a page whole with ``draw(context, data)`` (a page's ``draw``
        function, sent by name): its PNG saved to ``path``, its one-page PDF sent back, and
        ``done(pdf, fields)`` called (in a thread of this process) with the PDF's bytes and
        the configuration's fields the drawing read. False if it cannot (no helper, ``draw``
        or ``data`` not picklable: this process draws it)."""
        task = page_task(draw, data, path, dpi) if self._procs else None
        if task is None:
            return False
        with self._lock:
            self._busy += 1
        self._tasks.put((task, done))
        return True

    def _feed(self, proc: subprocess.Popen[bytes], start: bytes) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            send(proc.stdin, start)
            while (item := self._tasks.get()) is not None:
                task, done = item
                try:
                    if self._errors:
                        continue
                    send(proc.stdin, task)
                    error = outcome(receive(proc.stdout), done)
                    if error is not None:
                        self._errors.append(error)
                finally:
                    with self._lock:
                        self._busy -= 1
        except BaseException as err:  # noqa: BLE001 - a helper that died: raised by finish
            self._errors.append(RuntimeError(f"a drawing helper stopped ({err!r})"))
            while self._tasks.get() is not None:  # the other helpers (if any) go on
                pass

    def finish(self) -> None:
        """Wait for every submitted page; raise the first error of a helper."""
        for _ in self._threads:
            self._tasks.put(None)
        for thread in self._threads:
            thread.join()
        self.close()
        if self._errors:
            raise self._errors[0]

    def close(self) -> None:
        """Stop the helpers (on an error or Ctrl-C: their pages are not needed)."""
        for proc in self._procs:
            with contextlib.suppress(OSError):
                if proc.stdin is not None:
                    proc.stdin.close()
        for proc in self._procs:
            stop(proc, wait=30)
        self._procs = []


def spawn(code: str) -> subprocess.Popen[bytes] | None:
    """A helper: a plain interpreter running ``code`` with this package on its path, its
    standard input and output piped to this process; None if no process can start."""
    package_root = str(Path(__file__).resolve().parents[3])
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
    try:
        return subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=os.environ | {"PYTHONPATH": path},
        )
    except OSError:  # pragma: no cover - no processes: this one does the work
        return None


def stop(proc: subprocess.Popen[bytes], *, wait: float = 0.0) -> None:
    """End helper ``proc``: its input closed, ``wait`` seconds for it to finish, then
    terminated (killed if it lingers); its output closed. Harmless on one already ended."""
    with contextlib.suppress(OSError):
        if proc.stdin is not None:
            proc.stdin.close()
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def page_task(draw: Draw, data: Any, path: Path, dpi: int) -> bytes | None:
    """A page to draw whole, pickled for a helper (:func:`draw_pages`); None if it cannot be
    sent (``draw`` or ``data`` not picklable: this process draws it)."""
    try:
        return dumps((draw, data, str(path), dpi))
    except Exception:  # noqa: BLE001 - this process draws it
        return None


def outcome(answer: tuple[str, Any], done: Done) -> Exception | None:
    """A helper's answer to a page (:func:`draw_pages`): ``done(pdf, fields)`` called with the
    page drawn, or the helper's error returned (to be raised in this process)."""
    status, detail = answer
    if status == "oserror":
        return OSError(*detail)
    if status != "ok":
        return RuntimeError(f"a page could not be drawn:\n{detail}")
    done(*detail)
    return None


def serve() -> None:
    """A helper's loop: read the report's context, then pages to draw until the input ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the report's process stops its helpers
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    try:
        ctx = receive(stdin)
    except EOFError:
        return
    draw_pages(ctx, stdin, lambda answer: send(stdout, answer))


def draw_pages(ctx: Any, stdin: IO[bytes], answer: Callable[[tuple[str, Any]], None]) -> None:
    """Draw the pages read on ``stdin`` (``(draw, data, path, dpi)``, as :meth:`PngHelpers.submit`
    sends them) until it ends, each answered with ``answer(("ok", (pdf, fields)))``,
    ``answer(("oserror", (errno, strerror)))`` or ``answer(("error", traceback))``. Also the
    data helper's last task, once its pages and the explorer are done (:mod:`.ahead`)."""
    import matplotlib

    from explodice.present.report.assemble import page_pdf, page_png
    from explodice.present.report.reuse import recording

    matplotlib.use("Agg")
    while True:
        try:
            draw, data, path, dpi = receive(stdin)
        except EOFError:
            return
        try:
            with matplotlib.rc_context({"text.parse_math": False}):
                with recording(ctx) as (copy, reads):  # as the report's process draws a page
                    figure = draw(copy, data)
                pdf = page_pdf(figure)  # its PDF, then its PNG
                page_png(figure, path, dpi)
            figure.clear()
            answer(("ok", (pdf, set(reads))))
        except OSError as err:
            answer(("oserror", (err.errno, err.strerror or str(err))))
        except Exception:  # noqa: BLE001 - sent to the report's process, raised there
            answer(("error", traceback.format_exc()))
