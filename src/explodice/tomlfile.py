"""Reading the TOML files a designer writes (parties, scenarios, report configs, sweep grids).

Every reader reports a problem the same way: the file, then what is wrong, as the error type
of the module that asked.

>>> from explodice.rules import ExplodiceError
>>> parse_toml("level = 3", source="party.toml", error=ExplodiceError)
{'level': 3}
>>> parse_toml("level = ", source="party.toml", error=ExplodiceError)
Traceback (most recent call last):
...
explodice.rules.ExplodiceError: party.toml: not valid TOML: Invalid value (at end of document)
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from .rules import ExplodiceError

__all__ = ["parse_toml", "read_text", "read_toml"]


def read_text(path: str | os.PathLike[str], *, error: type[ExplodiceError]) -> str:
    """The file's text, or ``error("<path>: cannot be read (<reason>).")``."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise error(f"{path}: cannot be read ({err.strerror}).") from None


def parse_toml(text: str, *, source: str, error: type[ExplodiceError]) -> dict[str, Any]:
    """Parsed TOML, or ``error("<source>: not valid TOML: <where>")``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{source}: not valid TOML: {err}") from None


def read_toml(path: str | os.PathLike[str], *, error: type[ExplodiceError]) -> dict[str, Any]:
    """Read and parse a TOML file; both failures raise ``error`` naming the file."""
    return parse_toml(read_text(path, error=error), source=str(path), error=error)
