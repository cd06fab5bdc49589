"""The exact engine's paths never import numba or a kernel module (issue 15: first-call latency).

Each check runs in a fresh interpreter, since this test session has imported everything.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

KERNELS = ["explodice.engine._kernels", "explodice.day._kernel", "explodice.engine._cuda_kernels"]
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _loaded_after(code: str) -> list[str]:
    """The kernel modules and numba found in sys.modules after running ``code`` afresh."""
    watch = KERNELS + ["numba"]
    script = (
        f"{code}\nimport json, sys\nprint(json.dumps([m for m in {watch!r} if m in sys.modules]))"
    )
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_exact_paths_load_no_kernel():
    code = """
import explodice as ex
assert abs(ex.exact(ex.Roll(0)).p_success(8) - 181 / 216) < 1e-12  # by hand: P(3d6x >= 8)
ex.exact(ex.Roll(1, advantage="advantage", policy=ex.Best(16, 0.1)))
ex.success_table()
ex.opposed(ex.Roll(3), ex.Roll(1, advantage="advantage"))
ex.rolls_to_empty(2, gauge=20, dc=16)
ex.progression(ex.reference_builds(), levels=[1, 20])
ex.level_dcs(levels=[1, 20])
ex.fit_save_dc(levels=[1, 20])
"""
    assert _loaded_after(code) == []


def test_cli_odds_loads_no_kernel():
    code = """
from explodice.present.cli import main
assert main(["odds", "-m", "2", "--dc", "16"]) == 0
"""
    assert _loaded_after(code) == []


def test_simulation_loads_its_kernel_when_asked():
    code = """
import explodice as ex
ex.simulate(ex.Roll(0), n=1000, seed=1)
"""
    assert _loaded_after(code) == ["explodice.engine._kernels", "numba"]


def test_a_report_kept_whole_imports_neither_matplotlib_nor_numba(tmp_path):
    """The designer's second report of an unchanged configuration copies the files kept by the
    first (issue 34): it draws nothing and computes nothing, so it imports neither."""
    first = f"""
import pathlib
import explodice.present.explorer as explorer
from explodice.present.report import contents, write_report
def stand_in(config, out, **how):
    pathlib.Path(out).write_text("stand-in")
    return pathlib.Path(out)
explorer.write_explorer = stand_in
contents.PAGES = [p for p in contents.PAGES if p.name == "title"]
write_report(out={str(tmp_path / "a")!r}, date="2026-12-01")
"""
    again = f"""
import sys
from explodice.present.report import last_session, write_report
write_report(out={str(tmp_path / "b")!r}, date="2026-12-01")
s = last_session()
assert s.reused[0].startswith("files:") and not s.computed, s
print([m for m in ("matplotlib", "numba") if m in sys.modules])
"""
    env = dict(
        os.environ,
        PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
        EXPLODICE_ANSWER_CACHE=str(tmp_path / "answers"),
    )
    for code in (first, again):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
    assert out.stdout.strip().splitlines()[-1] == "[]"
