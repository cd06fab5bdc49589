"""Answers kept on disk between runs: a designer's second report of an unchanged
configuration recomputes nothing, and an edit recomputes only what reads it.

Where: ``$XDG_CACHE_HOME/explodice/answers`` (by default ``~/.cache/explodice/answers``),
beside the explorer's bundle; ``EXPLODICE_ANSWER_CACHE`` names another folder, or ``off``.
Clearing it is removing that folder (``rm -r ~/.cache/explodice/answers``): nothing else
reads it. It holds at most :data:`MAX_BYTES` (``EXPLODICE_ANSWER_CACHE_MB`` to change): the
entries read least recently go first when a run ends above it.

What: each entry is one file, named by its key, a content hash (sha256) of what it answers
(the question's name and inputs, rules included: :meth:`Question.key
<explodice.questions.registry.Question.key>`) and of the code that answers it
(:func:`fingerprint`: the package's version and the bytes of its source and data, with the
versions of the libraries that compute and draw): never a time. An entry starts with a
header line (its format, kind, key, and the sha256 and size of what follows); an entry whose
header, key or hash does not match (a file cut short, garbage, another key's answer) is
ignored, counted in :attr:`Session.ignored`, and written again: a cache never changes a
number. Entries are written whole or not at all (:func:`~explodice.core.files.atomic_write`),
not flushed to disk (an entry a power cut left short fails its hash).

Who: :meth:`Question.ask <explodice.questions.registry.Question.ask>` reads and writes
answers through :func:`recall` and :func:`keep` while a :func:`session` is open (the report
and the explorer open one; ``--no-cache`` opens none); the report keeps its pages' data and
files the same way (:func:`load`, :func:`store`).

>>> import tempfile
>>> with session(folder=tempfile.mkdtemp()) as s:
...     store("demo", key_of("demo", 1), b"payload")
...     load("demo", key_of("demo", 1)), load("demo", key_of("demo", 2))
(b'payload', None)
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from explodice.core.files import atomic_write
from explodice.core.version import __version__
from explodice.questions.answer import Answer

__all__ = [
    "MAX_BYTES",
    "Session",
    "answers_folder",
    "cache_folder",
    "current",
    "fingerprint",
    "keep",
    "key_of",
    "load",
    "recall",
    "session",
    "store",
]

#: The format of an entry's header (a change makes every older entry foreign: ignored).
FORMAT = 1
#: The most the folder holds after a run, in bytes (``EXPLODICE_ANSWER_CACHE_MB``).
MAX_BYTES = 512 * 2**20
#: The libraries whose version is part of every key: they compute or draw what is kept.
LIBRARIES = ("numpy", "pandas", "numba", "matplotlib", "scipy", "altair", "pypdf")

_ACTIVE: list[Session] = []


def cache_folder() -> Path:
    """explodice's cache: ``$XDG_CACHE_HOME/explodice``, by default ``~/.cache/explodice``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "explodice"


def answers_folder() -> Path | None:
    """Where answers are kept: ``EXPLODICE_ANSWER_CACHE`` if set (``off``: nowhere, None),
    else ``<cache_folder()>/answers``."""
    chosen = os.environ.get("EXPLODICE_ANSWER_CACHE", "")
    if chosen.lower() in ("off", "0", "no", "none"):
        return None
    return Path(chosen) if chosen else cache_folder() / "answers"


@functools.cache
def fingerprint() -> str:
    """A hash of the code that computes and draws: the package's version, every file of its
    source and data (so an edit of a checkout, same version, is new code), and the versions
    of :data:`LIBRARIES`."""
    h = hashlib.sha256(f"explodice {__version__}\n".encode())
    for lib in LIBRARIES:
        try:
            h.update(f"{lib} {metadata.version(lib)}\n".encode())
        except metadata.PackageNotFoundError:  # pragma: no cover - an optional library
            h.update(f"{lib} -\n".encode())
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(str(path.relative_to(root)).encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def key_of(*parts: Any) -> str:
    """The key of an entry: a sha256 of ``parts`` (plain JSON data) and :func:`fingerprint`."""
    text = json.dumps([FORMAT, fingerprint(), *parts], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Session:
    """What one run (a report, an explorer) read and wrote: ``reused`` and ``computed``
    answers and pages by name, ``ignored`` entries (corrupt or foreign: rewritten), and the
    ``folder`` (None: nothing is kept, every answer is computed)."""

    folder: Path | None
    reused: list[str] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def current() -> Session | None:
    """The open session, if any."""
    return _ACTIVE[-1] if _ACTIVE else None


@contextlib.contextmanager
def session(
    enabled: bool = True, folder: str | os.PathLike[str] | None = None
) -> Iterator[Session]:
    """Keep answers on disk while the block runs (``enabled=False``, or
    ``EXPLODICE_ANSWER_CACHE=off``: count them only); on leaving, trim the folder to
    :data:`MAX_BYTES`."""
    place = (Path(folder) if folder is not None else answers_folder()) if enabled else None
    s = Session(place)
    _ACTIVE.append(s)
    try:
        yield s
    finally:
        _ACTIVE.remove(s)
        if place is not None:
            with contextlib.suppress(OSError):
                trim(place)


def _path(folder: Path, kind: str, key: str) -> Path:
    return folder / kind / key[:2] / key


def load(kind: str, key: str, name: str = "") -> bytes | None:
    """The payload kept under ``kind``/``key`` in the open session, or None (no session, no
    entry, or an entry that is not whole and this key's: then it is counted as ignored)."""
    s = current()
    if s is None or s.folder is None:
        return None
    path = _path(s.folder, kind, key)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head, sep, payload = raw.partition(b"\n")
    try:
        header = json.loads(head) if sep else None
    except ValueError:
        header = None
    if not (
        isinstance(header, dict)
        and header.get("format") == FORMAT
        and header.get("kind") == kind
        and header.get("key") == key
        and header.get("size") == len(payload)
        and header.get("sha256") == hashlib.sha256(payload).hexdigest()
    ):
        s.ignored.append(name or key)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # read now: trimmed last
    return payload


def store(kind: str, key: str, payload: bytes) -> None:
    """Keep ``payload`` under ``kind``/``key`` in the open session (whole or not at all); a
    cache that cannot be written (a full disk, a read-only folder) is skipped silently."""
    s = current()
    if s is None or s.folder is None:
        return
    path = _path(s.folder, kind, key)
    header = {
        "format": FORMAT,
        "kind": kind,
        "key": key,
        "size": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # not flushed to disk (two fsyncs an entry, 0.3-1 s of a report's 150 entries): an
        # entry cut short by a power cut fails its header's hash and is written again
        with atomic_write(path, durable=False) as tmp:
            tmp.write_bytes(json.dumps(header).encode() + b"\n" + payload)
    except OSError:
        pass


def recall(name: str, key: str) -> Answer | None:
    """The answer of question ``name`` kept under its ``key`` (:meth:`Question.key`), or
    None; a hit is counted as reused."""
    s = current()
    payload = load("answer", key_of("answer", key), name)
    if payload is None or s is None:
        return None
    try:
        answer = Answer.from_json(payload.decode())
    except Exception:  # noqa: BLE001 - whole and hashed, but not an answer: ignored
        s.ignored.append(name)
        return None
    if answer.question != name:
        s.ignored.append(name)
        return None
    s.reused.append(name)
    return answer


def keep(name: str, key: str, answer: Answer) -> None:
    """Keep ``answer`` of question ``name`` under its ``key``; counted as computed."""
    s = current()
    if s is None:
        return
    s.computed.append(name)
    if s.folder is not None:  # --no-cache: nothing is written, so nothing is serialised
        store("answer", key_of("answer", key), answer.to_json().encode())


def trim(folder: Path, limit: int | None = None) -> None:
    """Remove the entries read least recently until ``folder`` holds at most ``limit`` bytes
    (default :data:`MAX_BYTES`, or ``EXPLODICE_ANSWER_CACHE_MB``)."""
    if limit is None:
        mb = os.environ.get("EXPLODICE_ANSWER_CACHE_MB")
        limit = int(float(mb) * 2**20) if mb else MAX_BYTES
    entries = []
    for path in folder.glob("*/*/*"):
        with contextlib.suppress(OSError):
            st = path.stat()
            entries.append((st.st_mtime, st.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        with contextlib.suppress(OSError):
            path.unlink()
            total -= size
