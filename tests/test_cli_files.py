"""The files the commands write (issues 21 and 26): never over an input, a FIFO or a device,
never over a file of the user's unless asked; the report's links, obstacles and full disks;
a killed writer's leftovers. The command line is run as a subprocess where it is the
subject, in this process where a fault must be injected (a full disk, a kill).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

from explodice.core.errors import ExplodiceError
from explodice.core.files import atomic_write_text, check_writable
from explodice.day.scenario import default_scenario, load_scenario
from explodice.present.cli import main
from explodice.present.report import assemble as report_assemble
from explodice.present.report import contents, load_config, write_report
from tests.test_report import TINY

CLI = [sys.executable, "-m", "explodice_launch"]
PAGES = list(contents.PAGES)  # every page, before a test keeps a few
GRID = 'task = "success"\nseed = 1\n[grid]\nmodifier = [0]\ndc = [12]\n'


def run(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    env = os.environ | {"MPLBACKEND": "Agg"}
    return subprocess.run(
        CLI + list(args), capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd
    )


def refused(out: subprocess.CompletedProcess, *needles: str) -> None:
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert all(n in lines[0] for n in needles), lines[0]


def in_process(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, err.getvalue()


# -- an output that is an input, a FIFO, a device (26.1) ----------------------------------------
def test_an_output_that_is_the_commands_own_input_is_refused(tmp_path):
    cfg = tmp_path / "cfg.toml"
    cfg.write_text(TINY, encoding="utf-8")
    grid = tmp_path / "grid.toml"
    grid.write_text(GRID, encoding="utf-8")
    (tmp_path / "link.toml").symlink_to(cfg)
    os.link(grid, tmp_path / "hard.csv")  # the same file under another name
    cases = [
        (("explore", str(cfg), "--out", str(cfg)), cfg),
        (("explore", str(cfg), "--out", str(tmp_path / "link.toml")), cfg),
        (("sweep", str(grid), "--out", str(grid)), grid),
        (("sweep", str(grid), "--out", str(tmp_path / "hard.csv")), grid),
        (("report", str(cfg), "--out", str(cfg)), cfg),  # a file where the folder goes
    ]
    for args, source in cases:
        before = source.read_bytes()
        refused(run(*args), "--out")
        assert source.read_bytes() == before, args
    # a grid named like its default output (grid.csv beside it) is not replaced either
    named = tmp_path / "odd.csv"
    named.write_text(GRID, encoding="utf-8")
    refused(run("sweep", "odd.csv", cwd=tmp_path), "input")
    assert named.read_text(encoding="utf-8") == GRID


def test_a_configuration_inside_the_reports_own_area_is_refused(tmp_path):
    inside = tmp_path / "out" / ".explodice-report" / "run-19990101-000000-1"
    inside.mkdir(parents=True)
    cfg = inside / "cfg.toml"  # a run folder the next report removes
    cfg.write_text(TINY, encoding="utf-8")
    code, err = in_process(["report", str(cfg), "--out", str(tmp_path / "out")])
    assert code == 2 and "input" in err and err.count("\n") == 1, err
    assert cfg.read_text(encoding="utf-8") == TINY


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_output_is_refused_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    grid = tmp_path / "grid.toml"
    grid.write_text(GRID, encoding="utf-8")
    for args in (
        ("explore", "--out", str(fifo)),
        ("sweep", str(grid), "--out", str(fifo)),
        ("report", "--write-default-config", str(fifo), "--force"),
        ("day", "--write-default-scenario", str(fifo), "--force"),
    ):
        refused(run(*args), "not a regular file", "FIFO")
        assert fifo.is_fifo(), args


def test_a_device_is_refused_by_the_one_check_before_anything_is_written():
    # read-only: the check that every command runs first; nothing is written to /dev/null
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null here")
    for what in ("--out", "--write-default-config", "--write-default-scenario"):
        with pytest.raises(ExplodiceError, match="character device"):
            check_writable("/dev/null", error=ExplodiceError, what=what)
    assert Path("/dev/null").is_char_device()


def test_every_command_that_writes_checks_its_files_first():
    from explodice.present.cli.app import build_parser

    parser = build_parser()
    for argv in (
        ["explore", "--out", "/dev/null"],
        ["sweep", "grid.toml", "--out", "/dev/null"],
        ["report", "--write-default-config", "/dev/null"],
        ["day", "--write-default-scenario", "/dev/null"],
    ):
        args = parser.parse_args(argv)
        outputs = args.writes(args)
        assert [str(o.path) for o in outputs][:1] == ["/dev/null"], argv
        with pytest.raises(ExplodiceError):
            outputs[0].check()  # what main runs before the command: /dev/null is refused


# -- copies of the defaults (21.3) --------------------------------------------------------------
def test_write_default_scenario_then_refuse_to_overwrite_unless_forced(tmp_path):
    target = tmp_path / "my-scenario.toml"
    out = run("day", "--write-default-scenario", str(target))
    assert out.returncode == 0, out.stderr
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# explodice") and "explodice day my-scenario.toml" in text
    assert load_scenario(target) == default_scenario()  # the report's party and day
    target.write_text("# mine\n", encoding="utf-8")
    refused(run("day", "--write-default-scenario", str(target)), "already exists", "--force")
    assert target.read_text(encoding="utf-8") == "# mine\n"
    assert run("day", "--write-default-scenario", str(target), "--force").returncode == 0
    assert load_scenario(target) == default_scenario()
    refused(run("day", "--force"), "--force")  # nothing to replace
    other = str(tmp_path / "other.toml")
    refused(run("day", "--write-default-scenario", other, "--gauge", "5"), "--gauge")


def test_write_default_config_replaces_only_with_force(tmp_path):
    target = tmp_path / "mine.toml"
    target.write_text("# mine\n", encoding="utf-8")
    refused(run("report", "--write-default-config", str(target)), "already exists")
    assert target.read_text(encoding="utf-8") == "# mine\n"
    assert run("report", "--write-default-config", str(target), "--force").returncode == 0
    assert load_config(target).party == load_config().party
    refused(
        run("report", "--write-default-config", str(tmp_path / "x.toml"), "--out", "r"), "--out"
    )


# -- a killed writer's leftover (26.16) ---------------------------------------------------------
def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "explorer.html"
    atomic_write_text(target, "first")
    # a temporary file is named .<name>.explodice-<host>-<pid>-<random>.tmp
    head = f".explorer.html.explodice-{socket.gethostname()}"
    dead = tmp_path / f"{head}-{_dead_pid()}-abcd1234.tmp"
    dead.write_bytes(b"x" * 1_300_000)  # what a kill mid-write leaves: 1.3 MB
    alive = tmp_path / f"{head}-{os.getppid()}-efgh5678.tmp"
    alive.write_bytes(b"still being written")
    other_host = tmp_path / ".explorer.html.explodice-elsewhere-1-ijkl9012.tmp"
    other_host.write_bytes(b"another machine's")
    atomic_write_text(target, "second")
    assert target.read_text() == "second"
    assert not dead.exists()  # a writer of this host that is gone: its leftover goes
    assert alive.exists() and other_host.exists()  # a live writer's, another host's: kept


def test_a_killed_explore_leaves_nothing_the_next_explore_keeps(tmp_path):
    # the real thing: kill `explore` while it writes (its temporary file exists), then run
    # it again; no temporary file of the first survives the second
    code = (
        "import os, signal, sys\n"
        "from explodice.core import files\n"
        "real = files.atomic_write\n"
        "import contextlib\n"
        "@contextlib.contextmanager\n"
        "def dying(path):\n"
        "    with real(path) as tmp:\n"
        "        tmp.write_bytes(b'x' * 1_300_000)\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "        yield tmp\n"
        "files.atomic_write = dying\n"
        "sys.argv = ['explodice', 'explore', '--out', sys.argv[1]]\n"
        "from explodice.present.cli import main\n"
        "sys.exit(main())\n"
    )
    out = tmp_path / "explorer.html"
    env = os.environ | {"MPLBACKEND": "Agg"}
    killed = subprocess.run(
        [sys.executable, "-c", code, str(out)], capture_output=True, env=env, timeout=600
    )
    assert killed.returncode == -9
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and left[0].stat().st_size == 1_300_000
    assert run("explore", "--out", str(out), timeout=600).returncode == 0
    assert [p.name for p in tmp_path.iterdir()] == ["explorer.html"]


# -- the report's links, obstacles and a full disk (26.2, 26.3, 26.9) ---------------------------
@pytest.fixture
def small_report(tmp_path, monkeypatch):
    """A report of its first two pages written into ``tmp_path/out``."""
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY, encoding="utf-8")
    config = load_config(cfg)
    monkeypatch.setattr(contents, "PAGES", PAGES[:2])
    out = tmp_path / "out"
    write_report(config, out, date="2030-01-01")
    return config, out


def _shown(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_symlink()}


def test_a_users_own_link_into_the_report_stays(small_report, monkeypatch):
    config, out = small_report
    mine = out / "latest.pdf"
    mine.symlink_to(".explodice-report/current/explodice-report.pdf")
    page = out / "my-dc-table.png"
    page.symlink_to(".explodice-report/current/02-dc-table.png")
    monkeypatch.setattr(contents, "PAGES", PAGES[:1])  # page 2 is gone now
    write_report(config, out, date="2030-01-02")
    assert mine.is_symlink() and mine.read_bytes()[:4] == b"%PDF"  # the user's link, kept
    assert page.is_symlink()  # the user's, though its page is gone
    assert not (out / "02-dc-table.png").is_symlink()  # the report's own link to it: dropped


def test_a_folder_where_a_page_goes_is_refused_and_nothing_changes(small_report, monkeypatch):
    config, out = small_report
    area = out / ".explodice-report"
    shown, before = os.readlink(area / "current"), _shown(out)
    monkeypatch.setattr(contents, "PAGES", PAGES[:3])
    blocker = out / "03-success-curves.png"  # the new page's PNG: a folder of the user's
    blocker.mkdir()
    (blocker / "notes.txt").write_text("mine")
    code, err = in_process(["report", "--out", str(out), "--no-progress"])
    assert code == 2 and "move it or choose another --out" in err and err.count("\n") == 1
    assert os.readlink(area / "current") == shown  # exit 2: nothing changed
    assert _shown(out) == before
    assert [p.name for p in area.glob("run-*")] == [shown]
    assert (blocker / "notes.txt").read_text() == "mine"


class _FullDisk(io.RawIOBase):
    """A file that fills up after ``room`` bytes: each later write raises ENOSPC."""

    def __init__(self, path: str, room: int) -> None:
        self.file, self.room = open(path, "wb"), room

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.file.write(data)

    def tell(self) -> int:
        return self.file.tell()

    def close(self) -> None:
        self.file.close()
        super().close()


def test_a_disk_full_while_the_pdf_is_written_is_one_line_and_changes_nothing(
    small_report, monkeypatch
):
    config, out = small_report
    area = out / ".explodice-report"
    shown, before = os.readlink(area / "current"), _shown(out)

    # the report's PDF is put together from its pages' (assemble.merge_pages): the disk is
    # full inside its first page
    monkeypatch.setattr(
        report_assemble, "open", lambda path, mode: _FullDisk(path, 20_000), raising=False
    )
    code, err = in_process(["report", "--out", str(out), "--no-progress"])
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "No space left on device" in err and "nothing was changed" in err
    assert "zlib" not in err
    assert os.readlink(area / "current") == shown and _shown(out) == before
    assert [p.name for p in area.glob("run-*")] == [shown]


def _tmpfs(path: Path, size: str) -> bool:
    if shutil.which("mount") is None or os.geteuid() != 0:
        return False
    path.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    return done.returncode == 0


def test_a_full_tmpfs_gives_one_line_and_exit_2(tmp_path):
    disk = tmp_path / "small"
    if not _tmpfs(disk, "300k"):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount rights)")
    try:
        cfg = tmp_path / "tiny.toml"
        cfg.write_text(TINY, encoding="utf-8")
        out = run("report", str(cfg), "--out", str(disk), "--no-progress", timeout=900)
        refused(out, "No space left on device", "nothing was changed")
        assert not (disk / ".explodice-report" / "current").exists()  # nothing was shown
        assert not list(disk.glob("*.pdf"))
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_an_empty_output_name_is_refused_not_read_as_the_current_folder(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(GRID, encoding="utf-8")
    for argv in (
        ["report", "--out", ""],  # wrote the whole report into the current folder
        ["report", "--write-default-config", ""],  # wrote the report instead
        ["day", "--write-default-scenario", ""],  # ran the rolls to empty instead
        ["explore", "--out", " "],
        ["sweep", str(grid), "--out", ""],  # wrote grid.csv instead
    ):
        code, err = in_process(argv)
        assert code == 2 and "is empty" in err and err.count("\n") == 1, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grid.toml"]


WARM_UP_SCRIPT = """
import sys
from explodice.present.report import contents, write_report

print("the script ran", flush=True)
contents.PAGES[:] = [p for p in contents.PAGES if p.name == "day"]  # it waits for the warm-up
write_report(out=sys.argv[1])
"""


def test_a_script_without_the_main_guard_writes_a_report_once(tmp_path):
    # the report's warm-up process imported the caller's script again (multiprocessing's
    # spawn): the script ran twice and its second run failed with a 'bootstrapping' traceback
    script = tmp_path / "make_report.py"
    script.write_text(WARM_UP_SCRIPT, encoding="utf-8")
    env = os.environ | {"MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("the script ran") == 1
    assert "bootstrapping" not in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "out" / "explodice-report.pdf").is_symlink()


def test_the_default_copies_get_the_modes_of_the_umask(tmp_path):
    # issue 21: files written through a temporary file kept mkstemp's 0600
    env = os.environ | {"MPLBACKEND": "Agg"}
    for argv in (
        ["day", "--write-default-scenario", str(tmp_path / "s.toml")],
        ["report", "--write-default-config", str(tmp_path / "c.toml")],
    ):
        done = subprocess.run(
            CLI + argv,
            capture_output=True,
            env=env,
            timeout=300,
            preexec_fn=lambda: os.umask(0o022),
        )
        assert done.returncode == 0, done.stderr
    for name in ("s.toml", "c.toml"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o644, name


def _readme_sweep_snippet() -> str:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Sweeps over a design space") :]
    block = section[section.index("```python\n") + len("```python\n") :]
    return block[: block.index("```")]


def test_the_readmes_sweep_snippet_runs_as_a_script_and_a_forgotten_guard_is_named(tmp_path):
    # issue 21: run as a plain script, the snippet's workers ran the whole file again ("36 of
    # 36 cases failed ... RuntimeError: An attempt has been made to start a new process
    # before ..."): the snippet has the guard, and without it one SweepError names the fix
    snippet = _readme_sweep_snippet().replace("10**6", "1000")
    assert 'if __name__ == "__main__":' in snippet
    env = os.environ | {"MPLBACKEND": "Agg"}
    script = tmp_path / "guarded.py"
    script.write_text(snippet + '    print("cases", len(df), df.error.notna().sum())\n')
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["cases", "36", "0"] and "RuntimeError" not in done.stderr
    unguarded = "\n".join(line.strip() for line in snippet.splitlines() if "__main__" not in line)
    script.write_text(unguarded + '\nprint("cases", len(df))\n')
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("explodice.sweeps.tasks.SweepError") or "SweepError" in last, last
    assert 'if __name__ == "__main__":' in last
    assert "cases" not in done.stdout  # no half-done sweep was printed as a result
