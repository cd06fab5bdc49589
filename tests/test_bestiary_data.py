"""The shipped SRD table is what ``scripts/make_srd_table.py`` derives from the wheel, and it
agrees with the SQLite file read blindly (tests/srd.py)."""

from __future__ import annotations

import csv
import io
import json
from importlib import resources

from tests import srd


def shipped(name: str) -> str:
    return resources.files("explodice").joinpath("data", name).read_text(encoding="utf-8")


def test_shipped_table_is_what_the_script_derives():
    table, source = srd.make_script().derive(srd.wheel())
    assert shipped("srd_monsters.csv") == table
    assert shipped("srd_monsters_source.json") == source


def test_licence_and_attribution_are_the_databases():
    meta = json.loads(shipped("srd_monsters_source.json"))
    assert meta["license"] == "CC-BY-4.0"
    assert meta["attribution"].startswith(
        "This work includes material taken from the System Reference Document 5.1"
    )
    assert meta["version"] == "5.10.0.post5" and meta["monsters"] == 334


def test_rows_agree_with_the_sqlite_file():
    rows = {r["index"]: r for r in csv.DictReader(io.StringIO(shipped("srd_monsters.csv")))}
    raw = {m["index"]: m for m in srd.monsters()}
    assert len(raw) == 334 and rows.keys() == raw.keys()
    for key, m in raw.items():
        r = rows[key]
        assert r["name"] == m["name"]
        assert float(r["fp"]) == m["challenge_rating"]
        assert int(r["ac"]) == m["armor_class"][0]["value"]
        assert int(r["hp"]) == m["hit_points"] and int(r["pb"]) == m["proficiency_bonus"]
        assert int(r["WIS"]) == m["wisdom"] and int(r["DEX"]) == m["dexterity"]
        bonuses = [int(item.rsplit(": ", 1)[1]) for item in r["attacks"].split("; ") if item]
        assert max(bonuses, default=None) == srd.highest_attack(m), key
        dcs = [int(item.rsplit(" ", 1)[1]) for item in r["save_dcs"].split("; ") if item]
        assert max(dcs, default=None) == srd.highest_dc(m), key
