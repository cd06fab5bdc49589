"""numba's cache of the kernels: stale once any source a kernel is built from changes.

numba checks only a cached function's own file; the kernels hold code and constants of other
files too (helpers inlined from day/_vector.py and engine/_kernels.py, tables built in
engine/dice.py). explodice.engine.numba_cache stamps their cache with a digest of all of them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import explodice
from explodice.engine.numba_cache import sources

# one exploding d6 from level 1 reaches level 0 with P(D = 1) = 1/6 (_chain_kernel._r_pull,
# whose 1/6 is day/_vector.py's SIXTH, frozen into the compiled kernel)
RUN = """
import numpy as np
from explodice.day._chain_kernel import _r_pull
u = np.zeros((8, 1)); u[6, 0] = 1.0
r, S = np.zeros((8, 1)), np.zeros(1)
_r_pull(u, r, S, 2, 1)
print(repr(float(r[7, 0])))
"""


def test_an_edit_to_a_file_a_cached_kernel_is_built_from_is_seen(tmp_path):
    copy = tmp_path / "src" / "explodice"
    shutil.copytree(
        Path(explodice.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    env = dict(
        os.environ,
        PYTHONPATH=str(tmp_path / "src"),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        EXPLODICE_KERNELS="vector",
    )

    def one_die() -> float:
        cmd = [sys.executable, "-c", RUN]
        done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        return float(done.stdout)

    assert one_die() == pytest.approx(1 / 6, rel=1e-15)  # compiled, and cached
    assert one_die() == pytest.approx(1 / 6, rel=1e-15)  # from the cache
    vector = copy / "day" / "_vector.py"
    text = vector.read_text()
    assert text.count("SIXTH = 1.0 / SIDES") == 1
    vector.write_text(text.replace("SIXTH = 1.0 / SIDES", "SIXTH = 0.5 / SIDES"))
    assert one_die() == pytest.approx(0.5 / 6, rel=1e-15)  # the edit is seen
    vector.write_text(text)
    assert one_die() == pytest.approx(1 / 6, rel=1e-15)  # and undone


HELPER = """
from numba import njit

@njit(inline="always")
def helper(x):
    return x + 1.0
"""

KERNEL = """
from numba import njit

from explodice.day._probe_helper import helper
from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)

@njit(cache=True)
def kernel(x):
    return helper(x)
"""


def test_an_edit_to_a_helper_a_cached_kernel_inlines_is_seen(tmp_path):
    # a kernel module of two files, as day/_chain_kernel.py and day/_vector.py are
    copy = tmp_path / "src" / "explodice"
    shutil.copytree(
        Path(explodice.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    (copy / "day" / "_probe_helper.py").write_text(HELPER)
    (copy / "day" / "_probe.py").write_text(KERNEL)
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"), NUMBA_CACHE_DIR=str(tmp_path / "c"))

    def kernel() -> float:
        cmd = [sys.executable, "-c", "from explodice.day._probe import kernel; print(kernel(1.0))"]
        done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        return float(done.stdout)

    assert kernel() == 2.0
    assert kernel() == 2.0  # from the cache
    (copy / "day" / "_probe_helper.py").write_text(HELPER.replace("x + 1.0", "x + 2.0"))
    assert kernel() == 3.0


def test_the_sources_of_a_kernel_module_are_the_modules_it_imports():
    day = Path(explodice.__file__).parent / "day"
    names = {p.relative_to(day.parent).as_posix() for p in sources(day / "_chain_kernel.py")}
    assert {"day/_chain_kernel.py", "day/_vector.py", "engine/numba_cache.py"} <= names
    assert "day/rolls.py" in names  # imported by _vector.py: transitively
    assert "day/chain.py" not in names  # the kernels' caller is not a source of theirs
