"""Running seeded chunks of work on threads, reproducibly.

A simulation of ``n`` rolls (or days) is cut into fixed-size chunks, each with its own random
stream spawned from the seed (:func:`explodice.engine.seeding.stream_seeds`). :func:`run_chunks`
runs them on *lanes*: each lane is one Python thread with its own accumulators, taking the
next chunk not yet taken, and the numba chunk kernels release the GIL, so the lanes run in
parallel. Which lane ran a chunk does not matter: a chunk's numbers depend only on its own
stream, and the caller adds the lanes' integer counts at the end, so the sum is the same
whatever the number of threads. Memory is one set of accumulators per lane, whatever ``n``.

Long runs show a progress bar (tqdm) moving per chunk, and Ctrl-C stops them between chunks.

>>> import numpy as np
>>> totals = np.zeros(2, dtype=np.int64)
>>> def work(c, lane):
...     totals[lane] += c
>>> run_chunks(work, np.array([5, 5, 5, 5]), threads=2)
>>> int(totals.sum())
6
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from explodice.core.errors import check_flag
from explodice.game.rules import check_int

__all__ = ["AUTO_PROGRESS_UNITS", "lanes", "progress_bar", "resolve_threads", "run_chunks"]

AUTO_PROGRESS_UNITS = 200_000_000  # rolls: about a second of the kernel on these machines
MAX_THREADS = 1024
#: False in a sweep's worker processes: the sweep shows its own bar, and a worker's would
#: mix with it on the terminal (or show when the user asked for none).
SHOW_BARS = True


def resolve_threads(threads: int | None) -> int:
    """A thread count in 1..1024; ``None`` means one per core."""
    if threads is None:
        return os.cpu_count() or 1
    return check_int("threads", threads, lo=1, hi=MAX_THREADS)


def lanes(n_chunks: int, threads: int) -> int:
    """How many lanes (threads with their own accumulators) ``n_chunks`` chunks need."""
    return max(1, min(threads, n_chunks))


def progress_bar(
    total: int, progress: bool | None, *, unit: str = "roll", desc: str = "simulate"
) -> Any:
    """A tqdm bar of ``total`` units, or None; ``progress=None`` shows it for long runs.

    ``progress`` must be ``True``, ``False`` or ``None`` (``"yes"`` or an array is refused:
    every engine's ``progress=`` comes here)."""
    progress = check_flag("progress", progress, none=True)
    if not SHOW_BARS:
        return None
    if progress is None:
        progress = total >= AUTO_PROGRESS_UNITS
    if not progress:
        return None
    from tqdm.auto import tqdm

    # disable=None: no bar where stderr is not a terminal (a log file, a pipe)
    return tqdm(total=total, unit=unit, unit_scale=True, desc=desc, leave=False, disable=None)


def run_chunks(
    work: Callable[[int, int], None], units: np.ndarray, *, threads: int, bar: Any = None
) -> None:
    """Call ``work(c, lane)`` once for every chunk ``c``; ``units[c]`` moves the bar.

    Each lane takes the next chunk as soon as it is free (so a slow core does not hold the
    others back). On Ctrl-C the lanes finish the chunk in hand and stop, then
    ``KeyboardInterrupt`` is raised here. An error in a lane stops the others and is raised
    here.
    """
    n_chunks = len(units)
    n_lanes = lanes(n_chunks, threads)
    stop = threading.Event()
    lock = threading.Lock()
    queue = iter(range(n_chunks))

    def lane(t: int) -> None:
        while not stop.is_set():
            with lock:
                c = next(queue, None)
            if c is None:
                return
            try:
                work(c, t)
            except BaseException:
                stop.set()  # the other lanes stop after their chunk in hand
                raise
            if bar is not None:
                with lock:
                    bar.update(int(units[c]))

    try:
        if n_lanes == 1:
            lane(0)  # in this thread: Ctrl-C arrives when a chunk returns
            return
        with ThreadPoolExecutor(max_workers=n_lanes, thread_name_prefix="explodice") as pool:
            futures = [pool.submit(lane, t) for t in range(n_lanes)]
            try:
                pending = set(futures)
                while pending:
                    done, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
                    for f in done:
                        f.result()
            except BaseException:
                stop.set()
                wait(futures)
                raise
    finally:
        if bar is not None:
            bar.close()
