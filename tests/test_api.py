"""The public front door: the names the issues promise, and nothing in __all__ that is missing."""

import subprocess
import sys

import explodice as ex

PROMISED = [
    # issue 2
    "Rules",
    "Roll",
    "Best",
    "exact",
    "simulate",
    # issue 3
    "Character",
    "success_table",
    "opposed",
    "group_success",
    "haggle",
    "passive",
    "equivalent_dc",
    # issue 4
    "frontier",
    "Scenario",
    "simulate_day",
    # issue 8
    "sweep",
]


def test_promised_names_are_public():
    assert set(PROMISED) <= set(ex.__all__)
    assert all(hasattr(ex, name) for name in ex.__all__)
    assert len(ex.__all__) == len(set(ex.__all__))


def test_results_answer_the_promised_questions():
    d = ex.exact(ex.Roll(2))
    assert callable(d.p_success) and isinstance(d.mean, float) and isinstance(d.drain_mean, float)
    s = ex.simulate(ex.Roll(2), n=1000, seed=0)
    low, high = s.ci(16)
    assert 0 <= low <= s.p_success(16) <= high <= 1


def test_import_stays_light():
    # plotting, the GPU and the cluster load only when used (checked in a fresh interpreter)
    code = (
        "import sys, explodice; "
        "print(' '.join(m for m in ('matplotlib', 'numba.cuda', 'dask', 'distributed', "
        "'tqdm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
