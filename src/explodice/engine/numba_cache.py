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

numba takes a cached kernel as fresh while its own file is unchanged, though the kernel holds
code and constants of other files too (helpers inlined from ``engine/_kernels.py`` or
``day/_vector.py``, tables built in ``engine/dice.py``): an edit there would leave the old
machine code in the cache. So :func:`prepare_cache` also puts a locator of its own first in
numba's list (:class:`SourcesLocator`): a kernel module's functions are cached where numba would
cache them, stamped with a digest of every source they are built from (:func:`sources`, the
module and the explodice modules it imports, transitively), so that an edit to any of them
compiles the kernels again (``tests/test_numba_cache.py``).

>>> prepare_cache(__file__)  # the source tree of the tests is writable: nothing to do
"""

from __future__ import annotations

import ast
import atexit
import functools
import hashlib
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

__all__ = ["CacheWarning", "SourcesLocator", "prepare_cache", "sources"]

_PACKAGE = Path(__file__).resolve().parents[1]  # src/explodice
_KERNEL_FILES: dict[
    str, str
] = {}  # the source of each kernel module -> its variant ("": the default)


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


def _module_file(name: str) -> Path | None:
    """The source of the explodice module ``name`` (``explodice.day._vector``), or None when
    ``name`` is no module (a function or constant imported from one)."""
    path = _PACKAGE.joinpath(*name.split(".")[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path) -> set[Path]:
    """The sources of the explodice modules ``path`` imports (read from its text, not run)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "explodice":
            names.add(node.module or "")
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[0] == "explodice")
    return {p for p in map(_module_file, names) if p is not None}


def sources(source_file: str | os.PathLike[str]) -> list[Path]:
    """Every source a kernel module's compiled code may hold: the module and the explodice
    modules it imports, transitively (their functions inlined, their constants frozen in).

    The kernels' dice read ``MalusDie`` from ``game/rules.py``, so the rules' own imports count:

    >>> found = sorted(p.name for p in sources(Path(__file__).parents[1] / "engine" / "_kernels.py"))
    >>> found[:4], "rules.py" in found, "tables.py" in found, "plots" in str(found)
    (['_kernels.py', 'dice.py', 'errors.py', 'histogram.py'], True, True, False)
    """
    seen: set[Path] = set()
    todo = [Path(source_file).resolve()]
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imports(path))
    return sorted(seen)


@functools.cache
def _digest(source_file: str) -> str:
    """SHA-256 of the text of :func:`sources`, each under its path in the package."""
    h = hashlib.sha256()
    for path in sources(source_file):
        name = path.relative_to(_PACKAGE) if path.is_relative_to(_PACKAGE) else path
        h.update(f"{name}\0".encode())
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _impl_class() -> Any:
    """numba's class that picks a cached function's locator (renamed in numba 0.65)."""
    from numba.core import caching

    return getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]


class SourcesLocator:
    """numba's cache locator for the functions of a kernel module: the place, the file names
    and the stamp of the locator numba would use, the stamp joined with the digest of the
    module's :func:`sources` (an index of another stamp is stale: numba compiles again and
    writes over it), the file names with the module's variant (``plain``: the kernels built on
    the plain Horner schemes are cached beside the vector ones, not over them)."""

    def __init__(self, inner: Any, digest: str, variant: str) -> None:
        self._inner, self._digest, self._variant = inner, digest, variant

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return str(self._inner.get_cache_path())

    def get_source_stamp(self) -> Any:
        return (self._inner.get_source_stamp(), self._digest)

    def get_disambiguator(self) -> str:
        inner = str(self._inner.get_disambiguator())
        return f"{inner}-{self._variant}" if self._variant else inner

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> SourcesLocator | None:
        """The locator of a function of a module that called :func:`prepare_cache`, else
        None (numba asks its own locators)."""
        key = os.path.realpath(py_file)
        if key not in _KERNEL_FILES:
            return None
        for other in _impl_class()._locator_classes:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, _digest(key), _KERNEL_FILES[key])
        return None


def _install_locator() -> None:
    """Put :class:`SourcesLocator` first in numba's list of locators (once)."""
    classes = _impl_class()._locator_classes
    if SourcesLocator not in classes:
        classes.insert(0, SourcesLocator)


def prepare_cache(source_file: str, variant: str = "") -> None:
    """Make sure numba can cache the kernels defined in ``source_file``, and that their cache
    is stale once any of its :func:`sources` changes; call it before the module's first
    ``@njit(cache=True)``. ``variant`` names a build of the module's kernels that is cached
    apart (their code depends on a switch read when they are imported)."""
    from numba.core import config  # the kernel module imports numba next anyway
    from numba.misc.appdirs import AppDirs

    _install_locator()
    _KERNEL_FILES[os.path.realpath(source_file)] = variant

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
