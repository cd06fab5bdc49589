"""Where numba caches the compiled kernels, wherever explodice is installed.

The kernels are ``@njit(cache=True)``: numba writes them next to their source
(``__pycache__``), else under ``NUMBA_CACHE_DIR``, else in the user's cache folder
(``~/.cache/numba``). With the package and HOME both read-only (a system install, a locked-down
container) none can be written and numba refuses to even define a kernel ("cannot cache
function ...: no locator available"). :func:`prepare_cache`, called by every kernel module
before its first kernel, checks those places the way numba does and, when none is writable,
points numba at a temporary folder for this run, with one :class:`CacheWarning`. The folder
goes into ``NUMBA_CACHE_DIR`` too, so a sweep's worker processes share it without a warning
each, and is removed when the process that made it exits.

>>> prepare_cache(__file__)  # the source tree of the tests is writable: nothing to do
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import warnings
from pathlib import Path

__all__ = ["CacheWarning", "prepare_cache"]


class CacheWarning(UserWarning):
    """numba cannot cache the kernels where it looks: they are cached in a temporary folder."""


def _writable(folder: str | os.PathLike[str]) -> bool:
    """True when ``folder`` exists or can be made, and takes a new file (numba's own test)."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def prepare_cache(source_file: str) -> None:
    """Make sure numba can cache the kernels defined in ``source_file``; call it before the
    module's first ``@njit(cache=True)``."""
    from numba.core import config  # the kernel module imports numba next anyway
    from numba.misc.appdirs import AppDirs

    places = [
        config.CACHE_DIR or None,  # type: ignore[attr-defined]  # config sets it from the environment
        Path(source_file).parent / "__pycache__",
        AppDirs(appname="numba", appauthor=False).user_cache_dir,
    ]
    if any(place is not None and _writable(place) for place in places):
        return
    try:
        folder = tempfile.mkdtemp(prefix="explodice-numba-cache-")
    except OSError:  # not even a temporary folder: numba will say so itself
        return
    config.CACHE_DIR = folder  # type: ignore[attr-defined]  # (set from the environment at import)
    os.environ["NUMBA_CACHE_DIR"] = folder  # worker processes inherit it
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # made here: removed here
    warnings.warn(
        CacheWarning(
            f"numba cannot cache the compiled kernels next to explodice "
            f"({Path(source_file).parent}) nor in {places[2]}: they are cached in {folder} "
            "for this run, and compiled again by the next one (set NUMBA_CACHE_DIR to a "
            "writable folder to keep them)."
        ),
        stacklevel=2,
    )
