"""The Vega libraries the explorer inlines: Vega, Vega-Lite and vega-embed, in one script.

``vl-convert-python`` makes the bundle with the JavaScript engine it embeds (Deno's V8), its
only use in explodice: the charts' Vega-Lite is compiled by the page itself, in the browser.
That engine reserves a very large address space when it starts, and dies with SIGTRAP under
an address-space limit (``ulimit -v``, even one of 40 GB), taking its process with it. So
:func:`vega_bundle`

- reads the bundle from explodice's cache (``$XDG_CACHE_HOME/explodice``, by default
  ``~/.cache/explodice``), where it is kept once made: it depends only on the versions of
  vl-convert and of Vega-Lite, both in its file name; with the bundle cached, the explorer is
  written without the engine, under any limit, and about ten seconds sooner;
- else makes it in a child process (which first raises its soft address-space limit to the
  hard one, where it can), so that the engine's death is one line of :class:`BundleError`
  saying what to do, never the death of explodice.

>>> bundle_path().name  # doctest: +SKIP
'vega-bundle-vl-convert-1.9.0.post1-vega-lite-v6_4.js'
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from explodice.core.errors import ExplodiceError
from explodice.core.files import atomic_write_text
from explodice.core.words import Phrase

__all__ = ["BundleError", "bundle_path", "cache_folder", "vega_bundle", "vega_lite_version"]

#: What the child process runs: lift its soft address-space limit if it can, then bundle.
_CHILD = """
import resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
if soft != hard:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    except (ValueError, OSError):
        pass
import vl_convert
sys.stdout.buffer.write(vl_convert.javascript_bundle(vl_version=sys.argv[1]).encode("utf-8"))
"""


class BundleError(ExplodiceError):
    """The Vega libraries could not be bundled for the explorer (vl-convert's engine died)."""


def cache_folder() -> Path:
    """explodice's cache: ``$XDG_CACHE_HOME/explodice``, by default ``~/.cache/explodice``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "explodice"


def vega_lite_version() -> str:
    """The Vega-Lite version of Altair's charts, as vl-convert names it: ``v6_4`` (Altair's
    ``SCHEMA_VERSION`` is ``v6.4.1``)."""
    import altair as alt

    return "_".join(alt.SCHEMA_VERSION.split(".")[:2])


def bundle_path(vl_version: str | None = None) -> Path:
    """Where the bundle of Vega-Lite ``vl_version`` (default: Altair's) is cached, for the
    installed vl-convert."""
    vl_version = vl_version or vega_lite_version()
    from importlib.metadata import version

    return (
        cache_folder()
        / f"vega-bundle-vl-convert-{version('vl-convert-python')}-vega-lite-{vl_version}.js"
    )


def vega_bundle(vl_version: str | None = None) -> str:
    """Vega, Vega-Lite ``vl_version`` (default: Altair's, :func:`vega_lite_version`) and
    vega-embed as one script: from the cache, else made in a child process and cached (a cache
    that cannot be written is only slower). Raises :class:`BundleError` when the child dies."""
    vl_version = vl_version or vega_lite_version()
    path = bundle_path(vl_version)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    if text:
        return text
    text = _bundle_in_child(vl_version)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    except OSError:
        pass  # a read-only home: the next explorer bundles again
    return text


def _bundle_in_child(vl_version: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, vl_version], capture_output=True, check=False
    )
    if done.returncode == 0 and done.stdout:
        return done.stdout.decode("utf-8")
    if done.returncode < 0:
        try:
            how = Phrase("died ({signal})", signal=signal.Signals(-done.returncode).name)
        except ValueError:
            how = Phrase("died (signal {signal})", signal=-done.returncode)
    else:
        last = done.stderr.decode("utf-8", "replace").strip().splitlines()
        how = (
            Phrase("failed ({last})", last=last[-1])
            if last
            else Phrase("failed (exit status {status})", status=done.returncode)
        )
    raise BundleError(
        Phrase(
            "the JavaScript engine that bundles Vega for the explorer "
            "(vl-convert-python) {how}{limit_note}; write the explorer once "
            "without the limit: the bundle is then kept in {cache_folder} and "
            "needs no engine again.",
            how=how,
            limit_note=_limit_note(),
            cache_folder=cache_folder(),
        )
    )


def _limit_note() -> Phrase | str:
    """Why the engine died, when an address-space limit is the likely cause: the hard limit
    (the child lifts its soft limit to it), else the soft one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = hard if hard != resource.RLIM_INFINITY else soft
    if limit == resource.RLIM_INFINITY:
        return ""
    return Phrase(
        " under the address-space limit of {gib:.1f} GiB (ulimit -v): it needs more",
        gib=limit / 2**30,
    )
