"""Tasks of tests/test_sweep_faults.py, importable by a Dask worker process (as
``tests.sweep_faults_tasks:mark``): each case leaves a mark, so a test knows that cases ran
before it kills the scheduler or the workers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def mark(case: dict[str, Any], seed: Any) -> dict[str, Any]:
    """Sleep ``case["sleep"]`` seconds, leave ``case["marks"]/<a>``, return ``2 a``."""
    time.sleep(float(case.get("sleep", 0.2)))
    Path(case["marks"], str(case["a"])).touch()
    return {"twice": 2 * case["a"]}
