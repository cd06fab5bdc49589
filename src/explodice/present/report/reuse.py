"""What the report keeps between runs (:mod:`explodice.questions.cache`): each page's data,
keyed by the parts of the configuration it reads; the written files, keyed by the whole.

A page's data is kept under the values of the configuration's fields its ``data`` function
read when it was computed (and the report's date, if it read it): a page that reads the
rules and the day is computed anew when either changes, and only then. Which fields a page
reads is recorded while it runs (:func:`recording`: every field read through the
configuration, or a copy of it, is noted; a copy pickled or compared counts as all read),
and kept with the page (its *index*): the same code reading the same values reads the same
fields, so the index names every field the data depends on. The data themselves are kept
pickled, behind the cache's hash of them (an entry not whole, or another key's, is never
unpickled).

A page's drawing (its one-page PDF and its PNG) is kept the same way, under its data (the
hash of the data kept, so a page whose data did not change is not drawn again), its number
and the contents, and the values of the configuration's fields its ``draw`` function read
(:func:`kept_drawing`, :func:`keep_drawing`); the report's PDF is put together from the
pages' PDFs, kept or drawn anew.

The files (PDF, PNGs, CSVs, explorer, MANIFEST) of a report are kept under the whole
configuration, the date and the language: a report of the same configuration on the same day
copies them. The explorer's page is kept the same way, so ``explodice explore`` after a
report of the same configuration and day writes it at once.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import hashlib
import io
import json
import pickle
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from explodice.core.files import atomic_write
from explodice.core.spreadsheet import to_csv
from explodice.present.config import ReportConfig
from explodice.present.report.kit import Context, PageData
from explodice.questions import cache
from explodice.questions.registry import canonical

__all__ = [
    "count_kept",
    "dumps",
    "explorer",
    "keep_drawing",
    "keep_files",
    "kept_data",
    "kept_drawing",
    "kept_only",
    "page_data",
    "recording",
    "report_key",
    "restore_files",
    "write_csv",
]

_FIELDS = frozenset(f.name for f in dataclasses.fields(ReportConfig))
_READS: list[set[str]] = []


def dumps(value: Any) -> bytes:
    """``value`` pickled, a read-only mapping (a configuration's) as the mapping it shows."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = copyreg.dispatch_table | {types.MappingProxyType: _proxy}
    pickler.dump(value)
    return out.getvalue()


def _proxy(m: types.MappingProxyType[Any, Any]) -> tuple[Any, ...]:
    return (read_only, (dict(m),))


def read_only(mapping: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    """A read-only view of ``mapping`` (what an unpickled read-only mapping is)."""
    return types.MappingProxyType(mapping)


def _note(*names: str) -> None:
    for reads in _READS:
        reads.update(names)


class _Recording(ReportConfig):
    """A :class:`ReportConfig` that notes each field read (into every open recording)."""

    def __getattribute__(self, name: str) -> Any:
        if name in _FIELDS:
            _note(name)
        elif name == "__dict__":
            _note(*_FIELDS)
        return object.__getattribute__(self, name)

    def __reduce_ex__(self, protocol: Any) -> Any:  # pickled: read whole, a plain copy
        _note(*_FIELDS)
        return (_plain, (dict(object.__getattribute__(self, "__dict__")),))


def _plain(fields: dict[str, Any]) -> ReportConfig:
    config = object.__new__(ReportConfig)
    config.__dict__.update(fields)
    return config


class _RecordingContext(Context):
    """A :class:`Context` that notes a read of the report's date (as the field ``date``)."""

    def __getattribute__(self, name: str) -> Any:
        if name == "date":
            _note("date")
        return object.__getattribute__(self, name)


@contextlib.contextmanager
def recording(ctx: Context) -> Iterator[tuple[Context, set[str]]]:
    """A copy of ``ctx`` whose configuration notes the fields read, and the set they go in."""
    config = object.__new__(_Recording)
    object.__getattribute__(config, "__dict__").update(vars(ctx.config))
    copy = _RecordingContext(config, ctx.version, ctx.date, ctx.cache, ctx.contents)
    reads: set[str] = set()
    _READS.append(reads)
    try:
        yield copy, reads
    finally:
        _READS.remove(reads)


def _values(ctx: Context, fields: list[str]) -> dict[str, Any]:
    return {
        f: _canonical(ctx.date if f == "date" else getattr(ctx.config, f)) for f in sorted(fields)
    }


#: The canonical form of the values last asked, by identity (each kept with its value, so
#: that an identity is never reused): a report asks the same builds and day for every page.
_CANONICAL: dict[int, tuple[Any, Any]] = {}


def _canonical(value: Any) -> Any:
    kept = _CANONICAL.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    form = canonical(value)
    if len(_CANONICAL) > 256:
        _CANONICAL.clear()
    _CANONICAL[id(value)] = (value, form)
    return form


def page_data(
    name: str,
    data: Callable[[Context], PageData],
    ctx: Context,
    before: Callable[[], None] = lambda: None,
) -> PageData:
    """Page ``name``'s data: kept from an earlier run when the fields it read then hold the
    same values, else computed by ``data(ctx)`` after ``before()`` (counted in the session's
    ``computed`` as ``page:<name>``) and kept."""
    return kept_data(name, data, ctx, before)[0]


def kept_data(
    name: str,
    data: Callable[[Context], PageData],
    ctx: Context,
    before: Callable[[], None] = lambda: None,
) -> tuple[PageData, str | None]:
    """:func:`page_data`, and the hash of the data as kept (None: not kept, no session or
    data that cannot be pickled): what :func:`kept_drawing` keys the page's drawing by."""
    s = cache.current()
    if s is None or s.folder is None:
        before()
        if s is not None:
            s.computed.append(f"page:{name}")
        return data(ctx), None
    got = _kept(name, ctx)
    if got is not None:
        s.reused.append(f"page:{name}")
        return got
    before()
    with recording(ctx) as (copy, reads):
        result = data(copy)
    s.computed.append(f"page:{name}")
    try:
        payload = dumps(result)
    except Exception:  # noqa: BLE001 - data that cannot be kept are computed each run
        return result, None
    fields = sorted(reads)
    cache.store("page", cache.key_of("page", name, _values(ctx, fields)), payload)
    cache.store("page-index", cache.key_of("page-index", name), json.dumps(fields).encode())
    return result, hashlib.sha256(payload).hexdigest()


def kept_only(name: str, ctx: Context) -> tuple[PageData, str] | None:
    """Page ``name``'s data and hash if an earlier run kept them (as :func:`kept_data` reads
    them), else None; nothing recorded in the session: the caller counts the page reused
    (:func:`count_kept`) when it reaches it, and a page not kept is looked up again."""
    s = cache.current()
    if s is None or s.folder is None:
        return None
    mark = len(s.ignored)
    got = _kept(name, ctx)
    del s.ignored[mark:]
    return got


def count_kept(name: str) -> None:
    """Count page ``name``'s data, read by :func:`kept_only`, as reused."""
    s = cache.current()
    if s is not None:
        s.reused.append(f"page:{name}")


def _kept(name: str, ctx: Context) -> tuple[PageData, str] | None:
    """Page ``name``'s data and their hash, kept by an earlier run with the same values of the
    fields it read then; None if not (an entry not whole counted as ignored)."""
    index = cache.load("page-index", cache.key_of("page-index", name), f"page:{name}")
    if index is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        fields = json.loads(index)
        key = cache.key_of("page", name, _values(ctx, fields))
        payload = cache.load("page", key, f"page:{name}")
        if payload is not None:
            kept = pickle.loads(payload)  # whole and hashed: the cache's own bytes
            if isinstance(kept, PageData):
                return kept, hashlib.sha256(payload).hexdigest()
    return None


def _drawing_key(slug: str, digest: str, ctx: Context, fields: list[str]) -> str:
    return cache.key_of("drawing", slug, digest, canonical(ctx.contents), _values(ctx, fields))


def kept_drawing(slug: str, digest: str | None, ctx: Context) -> tuple[bytes, bytes] | None:
    """The one-page PDF and the PNG of page ``slug`` (``07-day``) drawn by an earlier run from
    the data of hash ``digest`` (:func:`kept_data`) with the same values of the fields its
    drawing read then, or None (then it is drawn, and :func:`keep_drawing` keeps it)."""
    s = cache.current()
    if digest is None or s is None or s.folder is None:
        return None
    index = cache.load("drawing-index", cache.key_of("drawing-index", slug), f"drawing:{slug}")
    if index is None:
        return None
    try:
        fields = json.loads(index)
        payload = cache.load("drawing", _drawing_key(slug, digest, ctx, fields), slug)
    except (ValueError, TypeError):
        return None
    if payload is None:
        return None
    kept = pickle.loads(payload)  # whole and hashed: the cache's own bytes
    if not (isinstance(kept, tuple) and len(kept) == 2):
        return None
    s.reused.append(f"drawing:{slug}")
    return kept


def keep_drawing(
    slug: str, digest: str | None, ctx: Context, fields: set[str], pdf: bytes, png: bytes
) -> None:
    """Keep page ``slug``'s one-page ``pdf`` and ``png``, drawn from the data of hash
    ``digest`` reading ``fields`` of the configuration (:func:`recording`)."""
    s = cache.current()
    if digest is None or s is None or s.folder is None:
        return
    chosen = sorted(fields)
    cache.store("drawing", _drawing_key(slug, digest, ctx, chosen), dumps((pdf, png)))
    cache.store("drawing-index", cache.key_of("drawing-index", slug), json.dumps(chosen).encode())


def write_csv(frame: Any, path: Path, digest: str | None, name: str) -> None:
    """Write table ``name`` of a page's data (of hash ``digest``, :func:`kept_data`) as CSV
    to ``path``: the bytes kept by an earlier run from the same data, else written by
    :func:`~explodice.core.spreadsheet.to_csv` and kept (a CSV depends on its table alone;
    a kept page's 45 CSVs took 0.3 s to write again)."""
    key = None if digest is None else cache.key_of("csv", digest, name)
    payload = None if key is None else cache.load("csv", key, f"csv:{name}")
    if payload is not None:
        path.write_bytes(payload)
        return
    to_csv(frame, path)
    if key is not None:
        cache.store("csv", key, path.read_bytes())


def report_key(config: ReportConfig, date: str, what: str = "report") -> str:
    """The key of a report's (or ``what``'s) files: the whole configuration, date and
    language."""
    return cache.key_of(what, canonical(config), date, config.lang)


def restore_files(key: str, folder: Path) -> list[str] | None:
    """Copy the files kept under ``key`` into ``folder``; their names, or None if any is
    missing (then nothing is restored)."""
    names_raw = cache.load("files", key)
    if names_raw is None:
        return None
    try:
        names = json.loads(names_raw)
    except ValueError:
        return None
    payloads = []
    for name in names:
        payload = cache.load("file", cache.key_of("file", key, name), name)
        if payload is None:
            return None
        payloads.append(payload)
    for name, payload in zip(names, payloads):
        (folder / name).write_bytes(payload)
    s = cache.current()
    if s is not None:
        s.reused.append(f"files:{len(names)}")
    return list(names)


def keep_files(key: str, folder: Path, names: list[str]) -> None:
    """Keep the files ``names`` of ``folder`` under ``key``."""
    for name in names:
        cache.store("file", cache.key_of("file", key, name), (folder / name).read_bytes())
    cache.store("files", key, json.dumps(names).encode())


def explorer(
    config: ReportConfig, out: Path, *, date: str, write: Callable[..., Path] | None = None
) -> Path:
    """Write the explorer of ``config`` (in its language) on ``date`` to ``out``: the page
    kept from an earlier run (a report's, or ``explodice explore``'s) of the same
    configuration and date, else made by ``write`` (default
    :func:`~explodice.present.explorer.write_explorer`) and kept."""
    if write is None:
        from explodice.present.explorer import write_explorer  # the explorer imports the report

        write = write_explorer

    key = report_key(config, date, "explorer")
    payload = cache.load("file", cache.key_of("file", key, "explorer"), "explorer")
    if payload is not None:
        with atomic_write(out) as tmp:
            tmp.write_bytes(payload)
        s = cache.current()
        if s is not None:
            s.reused.append("explorer")
        return out
    path = write(config, out, date=date, lang=config.lang)
    s = cache.current()
    if s is not None:
        s.computed.append("explorer")
        cache.store("file", cache.key_of("file", key, "explorer"), path.read_bytes())
    return path
