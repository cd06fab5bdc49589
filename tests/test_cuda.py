"""The CUDA backend: dispatch and layout here, the kernels under numba's CUDA simulator.

The simulator must be switched on (``NUMBA_ENABLE_CUDASIM=1``) before ``numba.cuda`` is first
imported, and the rest of the suite uses numba normally, so the kernels run in a subprocess.
Every simulated histogram is checked against the exact engine, bin by bin (5 sigma) and with
scipy's chi-square test, never against output of the CUDA code itself.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from scipy import stats

from explodice import Best, ExplodiceError, Roll, Rules, exact, simulate
from explodice.engine import cuda as cuda_backend
from explodice.engine.cuda import CHUNK, chi_square, chunk_layouts

SIM_N = 3_000

# name -> (Roll kwargs, Rules kwargs, extra settings); policy "best:dc:weight" is a Best
CASES = {
    "check_keep_drain": ({}, {}, {}),
    "attack_plain": ({"kind": "attack"}, {}, {}),
    "advantage_cancel_lucky": (
        {"modifier": 2, "advantage": "advantage", "policy": "cancel", "reroll": "one"},
        {},
        {},
    ),
    "malus_explosion_ones": ({"advantage": "disadvantage"}, {"ones_on_explosions": True}, {}),
    "drop_pool_of_two": (
        {"modifier": 1, "advantage": "disadvantage"},
        {"disadvantage": "drop"},
        {},
    ),
    "best_advantage": (
        {"modifier": 3, "advantage": "advantage", "policy": "best:16:0.02"},
        {"ones_on_explosions": True},
        {},
    ),
    "npc_forced_cancel": ({"actor": "npc"}, {}, {}),
    # the readings of issue 25: Lucky after the rule of 1's choice, a plain malus die
    "lucky_after_choice_cancel": (
        {"policy": "cancel", "reroll": "one"},
        {"lucky_timing": "after_choice"},
        {},
    ),
    "lucky_after_choice_best_explosion_ones": (
        {"modifier": 1, "advantage": "advantage", "policy": "best:16:0.05", "reroll": "one"},
        {"lucky_timing": "after_choice", "ones_on_explosions": True},
        {},
    ),
    "plain_malus": ({"advantage": "disadvantage"}, {"malus_die": "plain"}, {}),
    "plain_malus_lucky_after_npc": (
        {"advantage": "disadvantage", "actor": "npc", "reroll": "one"},
        {"malus_die": "plain", "lucky_timing": "after_choice"},
        {},
    ),
    "three_chunks": ({}, {}, {"chunk": 1_000}),
    "global_fallback": ({"advantage": "advantage"}, {}, {"hot_lo": 40}),
}

SIM_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from explodice import Best, Roll, Rules, simulate
    from explodice.engine import cuda as cuda_backend
    spec = json.loads(sys.argv[1])
    out = {}
    for name, (roll_kw, rules_kw, extra) in spec["cases"].items():
        policy = roll_kw.get("policy", "keep")
        if policy.startswith("best:"):
            _, dc, weight = policy.split(":")
            roll_kw = {**roll_kw, "policy": Best(int(dc), float(weight))}
        cuda_backend.CHUNK = extra.get("chunk", 1 << 30)
        lo = extra.get("hot_lo")
        if lo is not None:
            cuda_backend.hot_lo = lambda roll, rules, lo=lo: lo
        for seed in spec["seeds"].get(name, [spec["seed"]]):
            d = simulate(Roll(**roll_kw), Rules(**rules_kw), n=spec["n"], seed=seed,
                         backend="cuda")
            out[f"{name}/{seed}"] = {"counts": d.counts.tolist(), "lo": d.lo, "n": d.n,
                                     "omitted": d.omitted, "backend": d.backend}
    json.dump(out, sys.stdout)
""")


def _run(code: str, *args: str, simulator: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1" if simulator else "0"}
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def _case_objects(name: str, cases: dict = CASES) -> tuple[Roll, Rules]:
    roll_kw, rules_kw, _ = cases[name]
    policy = roll_kw.get("policy", "keep")
    if policy.startswith("best:"):
        _, dc, weight = policy.split(":")
        roll_kw = {**roll_kw, "policy": Best(int(dc), float(weight))}
    return Roll(**roll_kw), Rules(**rules_kw)


def _simulate_cases(cases: dict, seeds: dict | None = None) -> dict:
    """The cases run once under the CUDA simulator (about 2 s of simulator per case)."""
    if importlib.util.find_spec("numba.cuda") is None:
        pytest.skip("numba.cuda is not installed (pip install 'explodice[cuda]' or '[dev]')")
    spec = {"cases": cases, "n": SIM_N, "seed": 11, "seeds": seeds or {}}
    done = _run(SIM_SCRIPT, json.dumps(spec), simulator=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def simulated() -> dict:
    return _simulate_cases(CASES, {"check_keep_drain": [11, 11, 12]})


def _aligned(result: dict, roll: Roll, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Simulated counts and exact expected counts on one joint grid [total, drain, ones]."""
    counts = np.asarray(result["counts"], dtype=float)
    ref = exact(roll, rules)
    lo = min(result["lo"], ref.lo)
    shape = np.maximum(
        np.array(counts.shape) + [result["lo"] - lo, 0, 0],
        np.array(ref.pmf.shape) + [ref.lo - lo, 0, 0],
    )
    c = np.zeros(shape)
    e = np.zeros(shape)
    c[
        result["lo"] - lo : result["lo"] - lo + counts.shape[0],
        : counts.shape[1],
        : counts.shape[2],
    ] = counts
    e[ref.lo - lo : ref.lo - lo + ref.pmf.shape[0], : ref.pmf.shape[1], : ref.pmf.shape[2]] = (
        ref.pmf * result["n"]
    )
    return c, e


@pytest.mark.parametrize("name", list(CASES))
def test_simulator_agrees_with_exact(simulated: dict, name: str) -> None:
    _agrees(simulated[f"{name}/11"], *_case_objects(name))


def _agrees(result: dict, roll: Roll, rules: Rules) -> None:
    """Bin by bin within 5 sigma of the exact engine, and Pearson's chi-square."""
    assert result["backend"] == "cuda" and result["omitted"] == 0.0
    c, e = _aligned(result, roll, rules)
    assert c.sum() == SIM_N
    assert not c[e == 0].any(), "rolls landed where the exact engine has no mass"
    sigma = np.sqrt(e * (1 - e / SIM_N))
    busy = e > 0
    assert (np.abs(c - e)[busy] <= 5 * sigma[busy] + 1).all()
    # Pearson's chi-square, bins expecting < 5 pooled; scipy gives the p-value
    big = e >= 5
    obs = np.append(c[big], c[~big].sum())
    exp = np.append(e[big], e[~big].sum())
    keep = exp > 0
    p = stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue
    assert p > 1e-6


# The readings of issue 25 crossed with the other switches: every value of every other switch
# (advantage and disadvantage readings, policy, actor, kind, explosion 1s, Lucky) meets each
# new reading at least once, cycling through the values (about 2 s of simulator per case).
_ADV = [("normal", "subtract"), ("advantage", "subtract"), ("disadvantage", "subtract"),
        ("disadvantage", "drop")]  # fmt: skip
_POLICIES = ["keep", "cancel", "best:16:0.05"]


def _reading_cases() -> dict:
    cases = {}
    for i, ((adv, reading), policy) in enumerate(itertools.product(_ADV, _POLICIES)):
        roll = {"modifier": 1, "advantage": adv, "policy": policy, "reroll": "one",
                "actor": ("pc", "npc")[i % 2], "kind": ("check", "attack", "save")[i % 3]}  # fmt: skip
        rules = {"disadvantage": reading, "lucky_timing": "after_choice",
                 "ones_on_explosions": i % 4 < 2}  # fmt: skip
        cases[f"lucky_after_{i}"] = (roll, rules, {})
    for i, (policy, lucky) in enumerate(itertools.product(_POLICIES, [None, "before", "after"])):
        roll = {"modifier": 2, "advantage": "disadvantage", "policy": policy,
                "actor": ("pc", "npc")[i % 2], "kind": ("check", "attack")[i // 2 % 2]}  # fmt: skip
        rules = {"malus_die": "plain", "ones_on_explosions": i % 3 == 0}
        if lucky:
            roll["reroll"] = "one"
            rules["lucky_timing"] = f"{lucky}_choice"
        cases[f"plain_malus_{i}"] = (roll, rules, {})
    return cases


@pytest.mark.slow
def test_simulator_agrees_with_exact_for_every_new_reading_across_the_switches() -> None:
    cases = _reading_cases()
    simulated = _simulate_cases(cases)
    for name in cases:
        _agrees(simulated[f"{name}/11"], *_case_objects(name, cases))


def test_simulator_seed_contract(simulated: dict) -> None:
    a, b, c = (np.asarray(simulated[f"check_keep_drain/{s}"]["counts"]) for s in (11, 11, 12))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_chunk_layouts_cover_n_and_fit_the_block_counters() -> None:
    for n in (1, 15, 3_000, 10**6, CHUNK - 1, CHUNK + 7, 10**11):
        layouts = chunk_layouts(n)
        assert sum(l.rolls for l in layouts) == n
        for l in layouts:
            threads = l.blocks * cuda_backend.THREADS_PER_BLOCK
            assert 1 <= l.blocks <= cuda_backend.MAX_BLOCKS
            assert l.base_rolls * threads + l.extra == l.rolls and 0 <= l.extra < threads
            # a block's uint32 shared counters cannot overflow
            assert (l.base_rolls + 1) * cuda_backend.THREADS_PER_BLOCK < 2**32
    assert len(chunk_layouts(10**11)) == -(-(10**11) // CHUNK)
    assert [(l.blocks, l.base_rolls, l.extra) for l in chunk_layouts(3_000)] == [(1, 11, 184)]


def test_import_does_not_load_numba_cuda() -> None:
    done = _run("import sys, explodice; print('numba.cuda' in sys.modules)", simulator=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_backend_must_be_known() -> None:
    with pytest.raises(
        ExplodiceError,
        match=r"`backend` must be one of \['cpu', 'cuda', 'auto'\]"
        r", but 'gpu' was passed",
    ):
        simulate(Roll(0), n=10, seed=1, backend="gpu")


def test_cuda_without_gpu_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda_backend, "_load", lambda: (None, "no GPU here (test)"))
    with pytest.raises(
        ExplodiceError,
        match=r"`backend` 'cuda' needs an NVIDIA GPU.*no GPU "
        r"here \(test\).*backend='cpu'",
    ):
        simulate(Roll(0), n=10, seed=1, backend="cuda")


def test_auto_without_gpu_is_the_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda_backend, "_load", lambda: (None, "no GPU here (test)"))
    monkeypatch.setattr(cuda_backend, "AUTO_CUDA_ROLLS", 100)
    auto = simulate(Roll(0), n=5_000, seed=3, threads=1, backend="auto")
    cpu = simulate(Roll(0), n=5_000, seed=3, threads=1, backend="cpu")
    assert np.array_equal(auto.counts, cpu.counts) and auto.backend == "cpu"


def test_chi_square_matches_scipy() -> None:
    ref = exact(Roll(0, kind="attack"))
    d = simulate(Roll(0, kind="attack"), n=20_000, seed=5, threads=1)
    stat, dof, z = chi_square(d, ref, min_expected=5.0)
    c, e = _aligned({"counts": d.counts, "lo": d.lo, "n": d.n}, d.roll, d.rules)
    big = e >= 5
    obs = np.append(c[big], c[~big].sum())
    exp = np.append(e[big], e[~big].sum())
    assert stat == pytest.approx(
        stats.chisquare(obs, exp * obs.sum() / exp.sum()).statistic, rel=1e-6
    )
    assert dof == big.sum()
    # Wilson-Hilferty against scipy's quantile: z = 5 is the 1 - Phi(5) point
    assert stats.chi2.sf(stats.chi2.ppf(stats.norm.cdf(z), dof), dof) == pytest.approx(
        stats.norm.sf(z), rel=0.05, abs=1e-9
    )


def test_no_gpu_message_from_a_fresh_process() -> None:
    code = (
        "from explodice import Roll, simulate\n"
        "try:\n    simulate(Roll(0), n=10, seed=1, backend='cuda')\n"
        "except Exception as err:\n    print(type(err).__name__, err)\n"
        "else:\n    print('ran')\n"
    )
    done = _run(code, simulator=False)
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("ran"):
        pytest.skip("this machine has a CUDA GPU")
    assert done.stdout.startswith("ExplodiceError `backend` 'cuda' needs an NVIDIA GPU")


def test_gpu_agrees_with_exact() -> None:
    """On a machine with a CUDA GPU: 1e8 rolls agree with the exact engine, twice the same."""
    code = textwrap.dedent("""
        import numpy as np
        from explodice import Roll, exact, simulate
        from explodice.engine.cuda import chi_square, cuda_available
        if not cuda_available():
            print("no GPU")
        else:
            d = simulate(Roll(0), n=10**8, seed=1, backend="cuda")
            again = simulate(Roll(0), n=10**8, seed=1, backend="cuda")
            print(d.n, d.backend, chi_square(d, exact(Roll(0)))[2] < 5,
                  np.array_equal(d.counts, again.counts))
    """)
    done = _run(code, simulator=False)
    assert done.returncode == 0, done.stderr[-3000:]
    if done.stdout.strip() == "no GPU":
        pytest.skip("no CUDA GPU on this machine")
    assert done.stdout.split() == ["100000000", "cuda", "True", "True"]


PTX_SCRIPT = textwrap.dedent("""
    import types
    from numba import cuda
    from numba.cuda import dispatcher
    # no GPU here: the device functions ask the current device for its compute capability
    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=(9, 0))
    from explodice.engine import cuda as cuda_backend
    cuda_backend._load()  # the numpy patch numba-cuda needs
    from explodice.engine import _cuda_kernels as k
    from numba import types as t
    from explodice.engine.compiled import RollFlags
    flags = t.NamedUniTuple(t.boolean, len(RollFlags._fields), RollFlags)
    sig = (t.int64[:, :, ::1], t.int64[::1], t.uint64, t.uint64, t.int64, t.int64, t.int64,
           t.int8[::1], flags, t.int64, t.int64)
    try:
        ptx, _ = cuda.compile_ptx(k.roll_histogram.py_func, sig, cc=(9, 0))
    except Exception as err:
        if "NotFound" in type(err).__name__ or "nvvm" in str(err).lower():
            print("no NVVM", err)
            raise SystemExit(0)
        raise
    print("ok", ".local" in ptx, "call" in ptx)
""")


def test_kernel_compiles_to_ptx_for_sm90() -> None:
    """Where NVVM and NVRTC are installed, the real compiler types and builds the kernel."""
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed")
    done = _run(PTX_SCRIPT, simulator=False)
    assert done.returncode == 0, done.stderr[-3000:]
    if done.stdout.startswith("no NVVM"):
        pytest.skip(
            "NVVM/NVRTC libraries are not installed (pip install nvidia-nvvm "
            "nvidia-cuda-nvrtc, and put their lib/ on LD_LIBRARY_PATH)"
        )
    assert done.stdout.split() == ["ok", "False", "False"]  # registers only, all inlined
