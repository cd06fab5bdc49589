"""Files and folders written by explodice get the modes the user's umask gives (issue 21.1).

Every writer goes through a temporary file or folder (``mkstemp`` makes 0o600, ``mkdtemp``
0o700) renamed into place: renamed as they were, a report or an explorer put on a shared
drive could be read by no one else. Each test sets the umask itself (022, then 077) and puts
the previous one back; pytest-xdist runs each worker in its own process.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from explodice.core.files import atomic_write_text, make_folder, new_file_mode, write_with
from explodice.present.config import write_default_config
from explodice.present.explorer import write_explorer
from explodice.present.report import MANIFEST, PDF_NAME, load_config, write_report
from explodice.present.report import contents as pages_module
from explodice.present.report.writer import AREA
from explodice.sweeps import write_results
from tests.test_report import TINY  # the report tests' small party and day

MASKS = [0o022, 0o077]


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def file_mode(mask: int) -> int:
    return 0o666 & ~mask


def folder_mode(mask: int) -> int:
    return 0o777 & ~mask


@pytest.mark.parametrize("mask", MASKS, ids=oct)
def test_the_report_folder_and_every_file_in_it_follow_the_umask(tmp_path, monkeypatch, mask):
    config_path = tmp_path / "tiny.toml"
    config_path.write_text(TINY, encoding="utf-8")
    # two pages (one with a CSV table), the explorer and the manifest: every kind of file
    monkeypatch.setattr(pages_module, "PAGES", list(pages_module.PAGES[:2]))
    out = tmp_path / "out"
    with umask(mask):
        paths = write_report(load_config(config_path), out, date="2026-01-02")
    run = (out / AREA / "current").resolve()
    assert run.name.startswith("run-")
    assert mode(run) == folder_mode(mask)  # was 0o700 under any umask
    assert mode(out / AREA) == folder_mode(mask)
    names = {p.name for p in paths}
    kinds = {Path(n).suffix for n in names}
    assert {".pdf", ".png", ".csv", ".html", ".txt"} <= kinds, names
    assert PDF_NAME in names and MANIFEST in names
    for name in names:
        assert mode(run / name) == file_mode(mask), name  # explorer.html was 0o600


@pytest.mark.parametrize("mask", MASKS, ids=oct)
def test_explore_out_default_config_and_sweep_output_follow_the_umask(tmp_path, mask):
    config_path = tmp_path / "tiny.toml"
    config_path.write_text(TINY, encoding="utf-8")
    with umask(mask):
        explorer = write_explorer(load_config(config_path), tmp_path / "x.html", date="2026-01-02")
        config = write_default_config(tmp_path / "my-game.toml")
        written = write_results(pd.DataFrame({"case": [0], "p": [0.5]}), tmp_path / "grid.csv")
    for path in (explorer, config, *written):
        assert mode(path) == file_mode(mask), path  # -rw------- before


@pytest.mark.parametrize("mask", MASKS, ids=oct)
def test_the_atomic_writers_and_make_folder_follow_the_umask(tmp_path, mask):
    with umask(mask):
        text = atomic_write_text(tmp_path / "a.txt", "x")
        other = write_with(tmp_path / "b.csv", lambda tmp: tmp.write_text("y"))
        folder = make_folder(tmp_path, "run-")
        assert new_file_mode(tmp_path / "new") == file_mode(mask)
    assert mode(text) == mode(other) == file_mode(mask)
    assert mode(folder) == folder_mode(mask)


def test_a_file_replaced_keeps_its_own_mode(tmp_path):
    # as `open(path, "w")` would: a file the user made group-writable stays so
    path = tmp_path / "results.csv"
    path.write_text("old")
    os.chmod(path, 0o664)
    with umask(0o077):
        atomic_write_text(path, "new")
    assert path.read_text() == "new" and mode(path) == 0o664


@pytest.mark.parametrize("mask", [0o002, *MASKS], ids=oct)
def test_the_report_lock_follows_the_umask(tmp_path, mask):
    # issue 30.13: opened 0o644, the lock of a report on a shared drive under umask 002 was
    # not the group's to take
    from explodice.present.report.writer import _locked

    with umask(mask), _locked(tmp_path):
        pass
    assert mode(tmp_path / "lock") == file_mode(mask)
