"""Files in and out: reading the TOML a designer writes, and writing output that is never half
done.

Every reader reports a problem the same way: the file, then what is wrong, as the error type
of the module that asked. Every writer writes to a temporary sibling, flushes it to disk and
renames it over the target in one step, so a reader sees the old file or the new one, never a
mix; a failure (a full disk, a kill) leaves the old file as it was. The file written gets the
mode a plain ``open(path, "w")`` would give it: the mode of the file it replaces, else
``0o666`` less the user's umask (a temporary file is created ``0o600``: renamed as it is, a
report on a shared drive would be unreadable to the others); :func:`make_folder` does the same
for a new folder (``0o777`` less the umask).

>>> from explodice.core.errors import ExplodiceError
>>> parse_toml("level = 3", source="party.toml", error=ExplodiceError)
{'level': 3}
>>> parse_toml("level = ", source="party.toml", error=ExplodiceError)
Traceback (most recent call last):
...
explodice.core.errors.ExplodiceError: party.toml: not valid TOML: Invalid value (at end of document)
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import socket
import stat
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, fail, reason
from explodice.core.numbers import read_int
from explodice.core.words import N_, Phrase

__all__ = [
    "MAX_TEXT_BYTES",
    "MAX_TOML_DEPTH",
    "atomic_write",
    "atomic_write_text",
    "check_path",
    "check_writable",
    "make_folder",
    "new_file_mode",
    "parse_toml",
    "read_text",
    "read_toml",
    "write_with",
]

#: The largest file a designer's TOML may be: far above any real party or grid.
MAX_TEXT_BYTES = 16 * 1024 * 1024
#: The deepest nesting of tables and arrays accepted in TOML (a real file uses 3 or 4).
MAX_TOML_DEPTH = 32


def check_path(path: Any, field_name: str = "path") -> Path:
    """``path`` (a ``str`` or a path object) as a :class:`Path`; anything else is refused
    (an integer would be opened as a file descriptor).

    >>> check_path("party.toml").name
    'party.toml'
    """
    if not isinstance(path, (str, os.PathLike)):
        raise fail(
            field_name, path, Phrase("a file path (a str or a path object)"), ExplodiceTypeError
        )
    return Path(path)


def read_text(path: str | os.PathLike[str], *, error: type[ExplodiceError]) -> str:
    """The file's UTF-8 text, or ``error("<path>: ...")`` saying why it cannot be read.

    Only regular files of at most :data:`MAX_TEXT_BYTES` are read (not ``/dev/zero``); a
    path that is not text or a path object (an integer would open a file descriptor) is refused.
    """
    check_path(path)
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise error(Phrase("{path}: cannot be read (not a regular file).", path=path))
            data = f.read(MAX_TEXT_BYTES + 1)
    except OSError as err:
        raise error(
            Phrase(
                "{path}: cannot be read ({strerror}).",
                path=path,
                strerror=reason(err),
            )
        ) from None
    if len(data) > MAX_TEXT_BYTES:
        raise error(
            Phrase(
                "{path}: cannot be read (larger than {value} MiB).",
                path=path,
                value=MAX_TEXT_BYTES // 2**20,
            )
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(
            Phrase("{path}: not valid UTF-8 (byte {start}).", path=path, start=err.start)
        ) from None


def _depth(value: Any) -> int:
    """The nesting depth of parsed TOML (iteratively: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


#: tomllib's reasons that hold no value, so that the catalogue says them (Python 3.11-3.13);
#: the others ("Cannot declare 'a' twice") are said as tomllib writes them.
TOML_REASONS = (
    N_("Cannot overwrite a value"),
    N_("Escaped character is not a Unicode scalar value"),
    N_("Expected '=' after a key in a key/value pair"),
    N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"),
    N_("Expected newline or end of document after a statement"),
    N_("Invalid date or datetime"),
    N_("Invalid hex value"),
    N_("Invalid initial character for a key part"),
    N_("Invalid statement"),
    N_("Invalid value"),
    N_("Unclosed array"),
    N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"),
    N_("Unterminated string"),
)
_TOML_WHERE = re.compile(
    r"(?P<what>.*) \((?:at line (?P<line>\d+), column (?P<column>\d+)|at end of document)\)"
)


def _toml_reason(err: tomllib.TOMLDecodeError) -> Phrase | str:
    """tomllib's refusal as a phrase (the same English sentence: "Invalid value (at line 1,
    column 5)"), its reason and place said in the user's language where the catalogue has
    them.

    >>> str(_toml_reason(tomllib.TOMLDecodeError("Invalid value (at line 3, column 5)")))
    'Invalid value (at line 3, column 5)'
    """
    found = _TOML_WHERE.fullmatch(str(err))
    if found is None:
        return str(err)
    what = found["what"]
    said: Phrase | str = Phrase(what) if what in TOML_REASONS else what
    if found["line"] is None:
        return Phrase("{what} (at end of document)", what=said)
    return Phrase(
        "{what} (at line {line}, column {column})",
        what=said,
        line=int(found["line"]),
        column=int(found["column"]),
    )


def parse_toml(text: str, *, source: str, error: type[ExplodiceError]) -> dict[str, Any]:
    """Parsed TOML, or ``error("<source>: not valid TOML: <where>")``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(
            Phrase("{source}: not valid TOML: {err}", source=source, err=_toml_reason(err))
        ) from None
    except RecursionError:
        raise error(
            Phrase(
                "{source}: not valid TOML: nested deeper than {MAX_TOML_DEPTH}",
                source=source,
                MAX_TOML_DEPTH=MAX_TOML_DEPTH,
            )
        ) from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise error(
            Phrase(
                "{source}: tables and arrays nested deeper than {MAX_TOML_DEPTH}.",
                source=source,
                MAX_TOML_DEPTH=MAX_TOML_DEPTH,
            )
        )
    return data


def read_toml(path: str | os.PathLike[str], *, error: type[ExplodiceError]) -> dict[str, Any]:
    """Read and parse a TOML file; both failures raise ``error`` naming the file."""
    return parse_toml(read_text(path, error=error), source=str(path), error=error)


def check_writable(
    path: str | os.PathLike[str],
    *,
    error: type[ExplodiceError],
    what: str = "--out",
    inputs: Iterable[str | os.PathLike[str] | None] = (),
    replace: bool = True,
    folder: bool = False,
    owned: Iterable[str] = (),
) -> Path:
    """``path`` as a Path when a file can be written there, checked before any work starts:
    the one check of every file a command writes.

    Its folder must exist and accept new files. Refused: a folder; something that is not a
    regular file (a FIFO, a device such as ``/dev/null``: the rename would put a regular file
    in its place, so it is refused rather than written through); one of ``inputs``, the
    files the command reads (the same file, also through a symbolic or a hard link); and,
    unless ``replace``, any file that exists. With ``folder``, ``path`` is a folder to write
    into (it may exist, as a folder): an input may not be it, nor lie in one of its ``owned``
    sub-paths (those its writer replaces or removes).

    >>> import tempfile, pathlib
    >>> grid = pathlib.Path(tempfile.mkdtemp()) / "grid.toml"
    >>> _ = grid.write_text("task = 'success'")
    >>> check_writable(grid, error=ExplodiceError, inputs=[grid])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceError: `--out` ... is an input of this command (...grid.toml): writing it would replace it; choose another name.
    """
    if isinstance(path, str) and not path.strip():  # Path("") is the current folder
        raise error(
            Phrase("`{what}` is empty; give the name of a folder.", what=what)
            if folder
            else Phrase("`{what}` is empty; give the name of a file.", what=what)
        )
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    at = {"what": what, "path": str(path)}  # the holes of every refusal below
    for source in inputs:
        if source is not None and (
            _same_file(path, source) or any(_inside(source, path / sub) for sub in owned)
        ):
            raise error(
                Phrase(
                    "`{what}` {path!r} is an input of this command ({source}): writing "
                    "it would replace it; choose another name.",
                    **at,
                    source=source,
                )
            )
    if folder:
        if path.exists() and not path.is_dir():
            raise error(
                Phrase(
                    "`{what}` {path!r} is not a folder; give a folder to write into.",
                    **at,
                )
            )
        return path
    if path.is_dir():
        raise error(Phrase("`{what}` {path!r} is a folder; give a file name.", **at))
    if path.exists() and not path.is_file():
        raise error(
            Phrase(
                "`{what}` {path!r} is not a regular file ({kind}); give the name of "
                "a file to write.",
                **at,
                kind=_kind(path),
            )
        )
    if not replace and (path.exists() or path.is_symlink()):
        raise error(
            Phrase(
                "`{what}` {path!r} already exists; choose another name, remove it "
                "first, or give --force to replace it.",
                **at,
            )
        )
    if not parent.is_dir():
        raise error(
            Phrase(
                "`{what}` {path!r}: the folder {parent!r} does not exist.",
                **at,
                parent=str(parent),
            )
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=parent)
    except OSError as err:
        raise error(
            Phrase(
                "`{what}` {path!r} cannot be written ({strerror}).",
                **at,
                strerror=reason(err),
            )
        ) from None
    os.close(fd)
    os.unlink(probe)
    return path


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def _inside(path: str | os.PathLike[str], folder: Path) -> bool:
    """True when ``path`` (its real location, links followed) lies inside ``folder``."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False


def _kind(path: Path) -> str:
    mode = path.stat().st_mode
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a file"


def umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``/proc``), else
    set and put back at once.

    >>> 0 <= umask() <= 0o777
    True
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode(path: str | os.PathLike[str]) -> int:
    """The permission bits for writing ``path``: those of the regular file there, else
    ``0o666`` less the umask (what ``open(path, "w")`` gives)."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    return 0o666 & ~umask()


def make_folder(parent: str | os.PathLike[str], prefix: str) -> Path:
    """A new folder ``parent/<prefix><random>`` (as :func:`tempfile.mkdtemp`, so it is
    never an existing one) with the mode ``mkdir`` gives, ``0o777`` less the umask, not
    mkdtemp's ``0o700``.

    >>> import tempfile
    >>> make_folder(tempfile.mkdtemp(), "run-").name.startswith("run-")
    True
    """
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(folder, 0o777 & ~umask())
    return folder


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], *, durable: bool = True) -> Iterator[Path]:
    """Yield a temporary sibling of ``path`` to write; on success it replaces ``path`` at once.

    The temporary file is flushed to disk before the rename (``durable=False``: not flushed,
    for a file a reader checks whole before trusting it, as the cache of answers' entries,
    hashed: a power cut may leave it cut short, never half replaced); on any failure (an
    exception, Ctrl-C) it is removed and ``path`` is left as it was. It has the mode of
    :func:`new_file_mode` (a writer that replaces the temporary file, rather than writing
    into it, loses it: write into it).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "odds.csv"
    >>> with atomic_write(target) as tmp:
    ...     _ = tmp.write_text("dc,p\\n16,0.5\\n")
    >>> target.read_text()
    'dc,p\\n16,0.5\\n'
    """
    path = Path(path)
    _remove_leftovers(path)
    mode = new_file_mode(path)
    fd, name = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp", dir=path.parent or ".")
    tmp = Path(name)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held until renamed: a live writer's file is locked
        os.fchmod(fd, mode)  # mkstemp's 0o600 would be renamed as it is
        yield tmp
        if durable:
            _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)  # closing releases the lock
    if durable:
        _fsync_folder(path.parent)


def _temp_prefix(path: Path, pid: int | None = None) -> str:
    """The start of the name of a temporary sibling of ``path``: it names the host and the
    process writing it, so that a later write can tell a killed writer's leftover."""
    host = socket.gethostname().replace("/", "_") or "host"
    return f".{path.name}.explodice-{host}-{os.getpid() if pid is None else pid}-"


#: Seconds after which a temporary file of ours that no writer holds counts as a dead
#: writer's whatever its name says (its PID reused by another process, another host's name:
#: a container gets a new one each run).
STALE_SECONDS = 600


def _remove_leftovers(path: Path) -> None:
    """Remove the temporary siblings of ``path`` that killed writers left (a kill mid-write
    cannot run the clean-up): a regular file named as :func:`atomic_write` names them
    (``.<name>.explodice-<host>-<pid>-<random>.tmp``), which no writer holds locked (a writer
    holds its temporary file locked until it renames it), and whose writer is gone: a
    process of this host that has ended, or a file untouched for :data:`STALE_SECONDS`. A
    live writer's file stays, and no other file is touched."""
    head = f".{path.name}.explodice-"
    host = _temp_prefix(path, pid=0)[len(head) : -len("-0-")]
    folder = path.parent if str(path.parent) else Path(".")
    try:
        names = [n for n in os.listdir(folder) if n.startswith(head) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        try:
            writer, pid_text, _ = name[len(head) : -len(".tmp")].rsplit("-", 2)
            pid = read_int(pid_text, signed=False)
            age = time.time() - os.lstat(folder / name).st_mtime
        except (ValueError, OSError):  # not one of ours, or gone already
            continue
        gone = (writer == host and pid > 0 and not _alive(pid)) or age > STALE_SECONDS
        if gone:
            _remove_unlocked(folder / name)


def _remove_unlocked(path: Path) -> None:
    """Remove ``path``, a regular file, unless a live writer holds it locked."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # a link, or not ours to read: left alone
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.unlink(path)
    except OSError:  # BlockingIOError: a live writer holds it
        return
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_write`."""
    with atomic_write(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_with(path: str | os.PathLike[str], writer: Callable[[Path], Any]) -> Path:
    """Call ``writer(tmp_path)`` and move the result over ``path`` atomically."""
    with atomic_write(path) as tmp:
        writer(tmp)
    return Path(path)


def _fsync(path: Path) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:  # pragma: no cover - some systems cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
