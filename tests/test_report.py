"""The report: generated into a temporary folder from a tiny configuration, checked file by
file against the API, and written whole or not at all."""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import os
import signal

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest
from pypdf import PdfReader

from explodice import Roll, Rules, frontier, opposed, sensitivity, success_table
from explodice.core.spreadsheet import safe_cells
from explodice.present import report
from explodice.present.report import ConfigError, contents, load_config, write_report
from explodice.present.report.pages.readings import PAGE_SWITCHES

TINY = """
title = "A tiny test report"
seed = 11

[rules]
disadvantage = "drop"

[table]
modifiers = [0, 4]
profiles = { novice = 0, trained = 4 }

[simulation]
n = 2000
days = 50

[[character]]
name = "Ana"
level = 1
scores = { STR = 14, DEX = 14, CON = 12, INT = 10, WIS = 10, CHA = 8 }
skills = { Stealth = 1 }
gauge_per_level = { PA = 1 }

[[character]]
name = "Bo"
level = 10
scores = { FOR = 10, DEX = 12, CON = 10, INT = 16, SAG = 12, CHA = 14 }
skills = { "Discrétion" = 2 }
policy = "cancel"

[day]
name = "tiny day"
rolls_per_day = 6

[[day.roll]]
character = "Ana"
skill = "Stealth"
dc = 16

[[day.roll]]
character = "Bo"
ability = "INT"
dc = 12
"""


@pytest.fixture(scope="module")
def tiny_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return load_config(path)


@pytest.fixture(scope="module")
def written(tiny_config, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    (out / ".gitkeep").write_text("")
    # a foreign MANIFEST.txt (an older version's, or the designer's) naming a file of theirs,
    # and files of the designer's own: the report may not delete any of them
    (out / "99-old-page.png").write_bytes(b"old")
    (out / report.MANIFEST).write_text("explodice-report.pdf\n99-old-page.png\nnotes.txt\n")
    (out / "notes.txt").write_text("the designer's own file")
    with pytest.warns(report.ReportWarning, match="nothing was deleted"):
        paths = write_report(tiny_config, out, date="2026-01-02")
    return out, paths


def test_the_pdf_opens_with_one_page_per_builder(written):
    out, paths = written
    reader = PdfReader(out / report.PDF_NAME)
    assert len(reader.pages) == len(report.PAGES) == 25
    first = reader.pages[0].extract_text()
    assert "A tiny test report" in first and "2026-01-02" in first and "drop" in first
    assert "Seed: 11" in first


def test_one_png_per_page_and_the_csvs_beside_them(written):
    out, paths = written
    pngs = sorted(p.name for p in out.glob("*.png") if p.is_symlink())
    assert len(pngs) == len(report.PAGES)
    assert all((out / n).stat().st_size > 10_000 for n in pngs)
    csvs = {p.name for p in out.glob("*.csv")}
    for name in (
        "02-dc-table-success.csv",
        "06-rule-of-one-frontier.csv",
        "07-day-gauges.csv",
        "09-opposed-opposed.csv",
        "05-d20-comparison-equivalent-dc-table.csv",
        "12-haggling-items.csv",
        "11-group-group.csv",
        "10-passive-passive.csv",
        "13-monte-carlo-convergence.csv",
        "08-day-policies-policies.csv",
        "14-rerolls-worth.csv",
        "15-initiative-sides.csv",
        "16-lutte-serree-ties.csv",
        "17-levels-progression-progression.csv",
        "18-level-dcs-dcs.csv",
        "19-gauge-sizing-gauges.csv",
        "20-save-dc-gaps.csv",
        "21-combat-hits-progression.csv",
        "21-combat-hits-critical.csv",
        "22-defence-base-cases.csv",
        "22-defence-base-readings.csv",
        "23-bestiary-fp-fp-table.csv",
        "24-bestiary-bestiary.csv",
        "25-readings-readings.csv",
        "25-readings-by-measure.csv",
    ):
        assert name in csvs
    policies = pd.read_csv(out / "08-day-policies-policies.csv")
    assert (policies.optimal_gain >= -1e-9).all()  # no fixed policy beats the optimal player
    assert set(policies.policy) == {"keep", "cancel", "best fixed λ", "optimal"}
    # MANIFEST.txt: "<sha256>  <name>" for every file of the report, and the hashes hold
    lines = [line.split() for line in (out / report.MANIFEST).read_text().splitlines()]
    listed = {name: digest for digest, name in lines}
    assert "explorer.html" in listed and (out / "explorer.html").stat().st_size > 500_000
    assert set(listed) | {report.MANIFEST} == {p.name for p in paths}
    for name, digest in listed.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert (out / ".gitkeep").exists()
    # one complete report in the report's own area, shown through links
    area = out / ".explodice-report"
    assert [p.name for p in area.glob("run-*")] == [os.readlink(area / "current")]
    assert all(os.readlink(p).startswith(".explodice-report/current/") for p in paths)


def test_csv_numbers_match_the_api(written, tiny_config):
    out, _ = written
    rules = Rules(disadvantage="drop")
    table = pd.read_csv(out / "02-dc-table-success.csv")
    api = success_table([0, 4], rules=rules)
    merged = table.merge(api, on=["modifier", "dc", "advantage"], suffixes=("", "_api"))
    assert len(merged) == len(api) and (merged.p - merged.p_api).abs().max() < 1e-12

    front = pd.read_csv(out / "06-rule-of-one-frontier.csv")
    case = front[front.case == "3d6x+4 vs DC 16"]
    assert case.p_success.tolist() == pytest.approx(frontier(4, 16, rules=rules).p_success.tolist())

    opp = pd.read_csv(out / "09-opposed-opposed.csv")
    row = opp[(opp.system == "3d6x") & (opp.modifier_a == 3)].iloc[0]
    api_o = opposed(Roll(3), Roll(0), rules=rules)
    assert (row.win, row.tie, row.loss) == pytest.approx((api_o.win, api_o.tie, api_o.loss))

    conv = pd.read_csv(out / "13-monte-carlo-convergence.csv")
    assert conv.n.max() == 2000 and set(conv.seed) == {11}
    # the day exact (issue 31), as `explodice day` and the explorer compute it
    from explodice.day.exact import exact_day

    gauges = pd.read_csv(out / "07-day-gauges.csv")
    assert set(gauges.method) == {"exact"} and gauges.n.isna().all()
    direct = exact_day(tiny_config.day, tiny_config.rules).to_frame("gauges")
    assert gauges.p_empty.tolist() == direct.p_empty.tolist()


def test_the_readings_page_is_sensitivitys_own_table(written, tiny_config):
    out, _ = written
    table = pd.read_csv(out / "25-readings-readings.csv")
    # computed here: the configuration's rules, party and day; the day exact, as every
    # surface computes it (issue 31)
    s = sensitivity(tiny_config, day_method="exact", switches=PAGE_SWITCHES)
    shown = safe_cells(s.table)  # a value "-check" is written "'-check" (no formula)
    assert list(zip(table.switch, table.value)) == list(zip(shown.switch, shown.value))
    for column in ("largest", "dc_p_max", "drain_max", "party_p_max", "day_p_empty_max"):
        assert table[column].to_numpy(dtype=float) == pytest.approx(
            s.table[column].to_numpy(dtype=float), abs=1e-12, nan_ok=True
        ), column
    assert table.n_days.isna().all() and table.seed.isna().all()  # nothing sampled
    assert set(table.against) == {Rules(disadvantage="drop").describe()}
    # under "drop" no roll has a malus die: the plain one changes nothing in the day, which
    # is computed (0); a reading the day engines cannot play yet: no number, and the reason
    plain = table.set_index(["switch", "value"]).loc[("malus_die", "plain")]
    assert plain.day_p_empty_max == 0 and pd.isna(plain.note)
    close = table.set_index(["switch", "value"]).loc[("close_contest", "True")]
    assert pd.isna(close.day_p_empty_max) and "do not read close_contest=True" in close.note


def test_a_failed_page_leaves_the_previous_report_intact(written, tiny_config, monkeypatch):
    out, paths = written
    before = {p.name: p.read_bytes() for p in paths}
    area = out / ".explodice-report"
    shown = os.readlink(area / "current")

    def broken(ctx):
        raise RuntimeError("page builder failed")

    built = list(contents.PAGES)
    built[4] = dataclasses.replace(built[4], data=broken)  # after some pages are written
    monkeypatch.setattr(contents, "PAGES", built)
    with pytest.raises(RuntimeError, match="page builder failed"):
        write_report(tiny_config, out, date="2030-12-31")
    assert {p.name: p.read_bytes() for p in paths} == before
    assert os.readlink(area / "current") == shown
    assert [p.name for p in area.glob("run-*")] == [shown]  # the half-built run is gone


def test_an_interrupted_report_replaces_nothing(written, tiny_config, monkeypatch):
    # Ctrl-C swallowed by a library (a matplotlib callback) must still stop the switch
    out, paths = written
    before = {p.name: p.read_bytes() for p in paths}
    first = contents.PAGES[0]

    def swallowed(ctx):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            pass  # what a callback that catches everything does
        return first.data(ctx)

    swallowing = dataclasses.replace(first, data=swallowed)
    monkeypatch.setattr(contents, "PAGES", [swallowing, *contents.PAGES[1:3]])
    with pytest.raises(KeyboardInterrupt):
        write_report(tiny_config, out, date="2030-12-31")
    assert {p.name: p.read_bytes() for p in paths} == before


def test_two_writers_cannot_interleave(written, tiny_config):
    out, _ = written
    fd = os.open(out / ".explodice-report" / "lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another writer holds the folder
        with pytest.raises(report.ReportBusyError, match="another report"):
            write_report(tiny_config, out, date="2030-12-31")
    finally:
        os.close(fd)


def test_leftovers_of_a_crashed_run_are_cleaned_on_the_next_start(
    tmp_path, tiny_config, monkeypatch
):
    crashed = tmp_path / ".explodice-report" / "run-19990101-000000-1"
    crashed.mkdir(parents=True)
    (crashed / "explodice-report.pdf").write_bytes(b"half")
    monkeypatch.setattr(contents, "PAGES", list(contents.PAGES[:2]))
    write_report(tiny_config, tmp_path, date="2030-12-31")
    assert not crashed.exists()
    assert (tmp_path / "02-dc-table.png").is_symlink()
    # a page the new report no longer has loses its link; the user's files are untouched
    (tmp_path / "keep.md").write_text("mine")
    monkeypatch.setattr(contents, "PAGES", list(contents.PAGES[:1]))
    write_report(tiny_config, tmp_path, date="2030-12-31")
    assert not (tmp_path / "02-dc-table.png").is_symlink()
    assert (tmp_path / "keep.md").read_text() == "mine"


def test_a_foreign_manifest_costs_the_user_nothing(written):
    out, _ = written
    assert (out / "99-old-page.png").read_bytes() == b"old"
    assert (out / "notes.txt").read_text() == "the designer's own file"
    assert (out / ".gitkeep").exists()
    moved = list((out / ".explodice-report" / "displaced").glob("*/MANIFEST.txt"))
    assert [m.read_text() for m in moved] == ["explodice-report.pdf\n99-old-page.png\nnotes.txt\n"]


def test_the_embedded_default_is_a_party_of_levels_1_5_10_with_a_day():
    config = load_config()
    assert sorted(c.level for c in config.party) == [1, 5, 10]
    assert len({str(c.policy) for c in config.party}) == 3
    assert config.day.n_rolls > 0 and config.source == "embedded default"


@pytest.mark.parametrize(
    "text, needle",
    [
        ("colour = 'red'\n", "`colour`"),
        ("[rules]\ndisadvantage = 'halve'\n", "disadvantage"),
        ("[rules]\nmalus_die = 'loaded'\n", "malus_die"),
        ("[rules]\nhiding_ties = 'both'\n", "hiding_ties"),
        ("[rules]\nreadings = 1\n", "rules.readings"),
        ("[simulation]\nn = 0\n", "simulation.n"),
        ("[table]\nmodifiers = []\n", "table.modifiers"),
        ("seed = -1\n", "seed"),
        ("title = [\n", "not valid TOML"),
    ],
)
def test_config_errors_name_the_file_and_the_key(tmp_path, text, needle):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and needle in str(err.value)


def test_write_default_config_round_trips(tmp_path):
    path = report.write_default_config(tmp_path / "mine.toml")
    assert load_config(path).party == load_config().party
    with pytest.raises(ConfigError, match="already exists"):
        report.write_default_config(path)


# -- names the designer writes are data ----------------------------------------------------
HOSTILE_NAMES = ("$x$ a_b^c", "\\\\frac{1}{2}", "=1+1", "@SUM(A1)")
HOSTILE = """
title = "$t$ \\\\frac{1}{2} report"
seed = 5

[table]
modifiers = [-1, 4]
profiles = { "-p$" = 0, "+q" = 4 }

[simulation]
n = 2000
days = 20

[day]
name = "=day$"
rolls_per_day = 4
""" + "".join(
    f"""
[[character]]
name = "{name}"
level = 1
scores = {{ STR = 14, DEX = 12, CON = 12, INT = 10, WIS = 10, CHA = 8 }}
skills = {{ Stealth = 1 }}
gauge_per_level = {{ PA = 1 }}

[[day.roll]]
character = "{name}"
skill = "Stealth"
dc = 14
"""
    for name in HOSTILE_NAMES
)


def test_hostile_names_are_written_literally(tmp_path, monkeypatch):
    """A name holding mathtext ($, \\, _, ^) shows as written in the PDF; a name a spreadsheet
    would run as a formula is written with a leading ' in the CSVs, numbers untouched."""
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    shown = {"title", "d20-comparison", "day", "group", "initiative"}
    monkeypatch.setattr(contents, "PAGES", [p for p in contents.PAGES if p.name in shown])
    write_report(path, tmp_path / "out", date="2026-01-02")
    out = tmp_path / "out"
    text = "\n".join(p.extract_text() for p in PdfReader(out / report.PDF_NAME).pages)
    names = [n.replace("\\\\", "\\") for n in HOSTILE_NAMES]
    for name in [*names, "$t$ \\frac{1}{2} report", "=day$", "-p$", "+q"]:
        assert name in text, name

    def table(name):  # the pages are numbered in the shortened list
        (found,) = out.glob(f"*-{name}.csv")
        return pd.read_csv(found)

    party = table("title-party")
    assert list(party.name) == ["$x$ a_b^c", "\\frac{1}{2}", "'=1+1", "'@SUM(A1)"]
    curves = table("d20-comparison-equivalent-dc")
    assert set(curves.profile) == {"'-p$", "'+q"} and set(curves.modifier) == {0, 4}
    gauges = table("day-gauges")
    assert "'=1+1" in set(gauges.character)
    assert not list(out.glob("*-dc-table-success.csv"))  # only the pages asked for


def test_every_csv_goes_through_the_spreadsheet_guard():
    """One place writes CSV (explodice.core.spreadsheet.to_csv): no other `.to_csv(`."""
    from pathlib import Path

    import explodice

    src = Path(explodice.__file__).parent
    writers = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if ".to_csv(" in p.read_text(encoding="utf-8") and p.name != "spreadsheet.py"
    ]
    assert writers == []


@pytest.mark.parametrize(
    "cell, written",
    [
        ("=1+1", "'=1+1"),
        ("+q", "'+q"),
        ("-p", "'-p"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-3", "-3"),
        ("+4", "+4"),
        ("-1.5e3", "-1.5e3"),
        ("Bo", "Bo"),
        ("", ""),
    ],
)
def test_the_spreadsheet_guard_quotes_formulas_only(cell, written):
    from explodice.core.spreadsheet import safe_cells

    frame = pd.DataFrame({"name": [cell], "modifier": [-3], "p": [-0.5]})
    safe = safe_cells(frame)
    assert safe.name.iloc[0] == written
    assert safe.modifier.iloc[0] == -3 and safe.p.iloc[0] == -0.5  # numbers untouched


def test_the_command_lines_csv_quotes_a_formula_name(tmp_path, capsys):
    from io import StringIO

    from explodice.present.cli import main

    path = tmp_path / "day.toml"
    path.write_text(
        """
[[character]]
name = "=1+1"
level = 1
scores = { STR = 10, DEX = 14, CON = 10, INT = 10, WIS = 10, CHA = 10 }
skills = { Stealth = 1 }
gauge_per_level = { PA = 1 }

[[roll]]
character = "=1+1"
skill = "Stealth"
dc = 14
""",
        encoding="utf-8",
    )
    assert main(["day", str(path), "--days", "50", "--seed", "1", "--format", "csv"]) == 0
    table = pd.read_csv(StringIO(capsys.readouterr().out))
    assert set(table.character) == {"'=1+1"} and (table.start > 0).all()
