"""Temporary files a killed writer left (issue 30.14): the next write of the same file removes
them once their writer is safely gone, and never a file the user made, nor one a live writer
holds.

A writer names its temporary sibling ``.NAME.explodice-HOST-PID-RANDOM.tmp`` and holds it
locked until it renames it. Here leftovers are made by a real process killed (SIGKILL) inside
its write, or laid by hand the way such a process leaves them: with the PID of a live process
(a PID reused, as a container's next run gets the same one) or another host's name (a
container gets a new hostname each run), touched long ago.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explodice.core.files import STALE_SECONDS, atomic_write, atomic_write_text
from explodice.present.cli import main

ROOT = Path(__file__).resolve().parents[1]
HOST = socket.gethostname().replace("/", "_") or "host"
OLD = time.time() - STALE_SECONDS - 60


def _leftover(folder: Path, target: str, host: str, pid: int, *, old: bool) -> Path:
    path = folder / f".{target}.explodice-{host}-{pid}-k3x_q9.tmp"
    path.write_text("half a page")
    if old:
        os.utime(path, (OLD, OLD))
    return path


def _killed_mid_write(target: Path) -> Path:
    """The temporary file a real writer leaves when SIGKILL stops it inside its write."""
    code = (
        "import os, signal, sys\n"
        "from explodice.core.files import atomic_write\n"
        "with atomic_write(sys.argv[1]) as tmp:\n"
        "    tmp.write_text('half a page')\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    env = os.environ | {"PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run([sys.executable, "-c", code, str(target)], env=env, timeout=60)
    assert run.returncode == -signal.SIGKILL
    (left,) = target.parent.glob(f".{target.name}.explodice-*.tmp")
    return left


def test_a_writer_killed_mid_write_leaves_a_file_the_next_write_removes(tmp_path):
    target = tmp_path / "e.html"
    left = _killed_mid_write(target)
    atomic_write_text(target, "the page")
    assert not left.exists() and target.read_text() == "the page"


@pytest.mark.parametrize(
    "host, pid",
    [(HOST, os.getpid()), (HOST, 1), ("a-container-of-yesterday", 12)],
    ids=["this PID reused", "a live PID", "another hostname"],
)
def test_an_old_unlocked_leftover_is_removed_whatever_its_name_says(tmp_path, host, pid):
    target = tmp_path / "e.html"
    left = _leftover(tmp_path, "e.html", host, pid, old=True)
    atomic_write_text(target, "the page")
    assert not left.exists()  # was kept forever: its PID alive, or another host's name


def test_a_recent_leftover_of_another_host_stays(tmp_path):
    # on a shared drive another machine may be writing it now
    left = _leftover(tmp_path, "e.html", "another-machine", 12, old=False)
    atomic_write_text(tmp_path / "e.html", "the page")
    assert left.exists()


def test_a_live_writers_file_stays_even_when_old(tmp_path):
    target = tmp_path / "e.html"
    with atomic_write(target) as tmp:  # a writer at work holds its file locked
        tmp.write_text("a page being written")
        os.utime(tmp, (OLD, OLD))
        atomic_write_text(tmp_path / "e.html", "another writer's page")  # cleans leftovers
        assert tmp.exists()
    assert target.read_text() == "a page being written"


def test_files_of_the_user_are_never_removed(tmp_path):
    target = tmp_path / "e.html"
    mine = [
        tmp_path / ".e.html.notes.tmp",
        tmp_path / f".e.html.explodice-{HOST}-notapid-x.tmp",
        tmp_path / f".e.html.explodice-{HOST}-12-x.txt",
    ]
    for path in mine:
        path.write_text("mine")
        os.utime(path, (OLD, OLD))
    kept = tmp_path / "kept.txt"
    kept.write_text("mine")
    link = tmp_path / f".e.html.explodice-{HOST}-999999-ln.tmp"
    link.symlink_to(kept)
    os.utime(link, (OLD, OLD), follow_symlinks=False)
    atomic_write_text(target, "the page")
    assert all(p.exists() for p in mine) and link.is_symlink() and kept.exists()


def test_explore_removes_what_a_killed_explore_left(tmp_path, capsys):
    out = tmp_path / "e.html"
    left = _leftover(tmp_path, "e.html", "a-container-of-yesterday", 12, old=True)
    config = tmp_path / "tiny.toml"
    from tests.test_report import TINY

    config.write_text(TINY, encoding="utf-8")
    assert main(["explore", str(config), "--out", str(out)]) == 0
    assert out.exists() and not left.exists()
