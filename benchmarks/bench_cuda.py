"""GPU benchmark of ``simulate(..., backend="cuda")``: agreement with the exact engine, rolls/s.

Run on a machine with an NVIDIA GPU and numba-cuda (``pip install -e '.[cuda]'``)::

    python benchmarks/bench_cuda.py            # about a minute on an H200
    python benchmarks/bench_cuda.py --tiny     # no GPU: numba's CUDA simulator, tiny sizes

For each case (plain 3d6x, advantage, rule of 1 with drain) it simulates ``--check`` rolls and
compares the joint histogram (total, drain, kept 1s) with the exact engine by Pearson's
chi-square (bins expecting < 5 rolls pooled; z is the Wilson-Hilferty score, z < 5 passes),
then times ``--rolls`` rolls end to end (host work and copies included, best of ``--repeat``)
and one call of ``--big`` rolls. It prints a markdown table for ``benchmarks/README.md`` and
exits with status 1 if a check fails.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time

if "--tiny" in sys.argv:  # must be set before numba is first imported
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

from explodice import Roll, Rules, exact, simulate  # noqa: E402
from explodice.engine.cuda import chi_square, cuda_status  # noqa: E402

CASES = {  # name -> (roll, target in G rolls/s)
    "plain 3d6x (attack, no rule of 1)": (Roll(0, kind="attack"), 150),
    "advantage (4d6x, attack)": (Roll(0, advantage="advantage", kind="attack"), None),
    "rule of 1 with drain (PC check, keep)": (Roll(0), 60),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="CUDA simulator, a few thousand rolls")
    parser.add_argument("--check", type=float, default=1e9, help="rolls for the chi-square check")
    parser.add_argument("--rolls", type=float, default=2e10, help="rolls per timed call")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per case (best kept)")
    parser.add_argument("--big", type=float, default=1e11, help="rolls of the one-call run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    if args.tiny:
        args.check, args.rolls, args.repeat, args.big = 3_000, 2_000, 1, 4_000
    usable, reason = cuda_status()
    if not usable:
        print(f"No CUDA device: {reason}", file=sys.stderr)
        return 2
    rules = Rules()
    print(f"# bench_cuda {datetime.date.today().isoformat()} on {_device()}\n")
    simulate(Roll(0), rules, n=10_000, seed=0, backend="cuda")  # compile once
    rows, ok = [], True
    for name, (roll, target) in CASES.items():
        d = simulate(roll, rules, n=int(args.check), seed=args.seed, backend="cuda")
        _, dof, z = chi_square(d, exact(roll, rules))
        ok &= z < 5 and d.n == int(args.check)
        best = min(_timed(roll, rules, int(args.rolls), args.seed + i) for i in range(args.repeat))
        rate = args.rolls / best / 1e9
        hit = "" if target is None else (" yes" if rate >= target else " **no**")
        rows.append(
            f"| {name} | {args.rolls:.0e} | {best:.3f} | {rate:.3g} | "
            f"{target or '-'}{hit} | {z:.2f} (dof {dof}) |"
        )
    big_roll = CASES["rule of 1 with drain (PC check, keep)"][0]
    t_big = _timed(big_roll, rules, int(args.big), args.seed)
    print("| case | rolls | seconds | G rolls/s | target G rolls/s | chi-square z |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(
        f"\nOne call of {args.big:.0e} rolls (rule of 1 with drain): {t_big:.2f} s, "
        f"{args.big / t_big / 1e9:.1f} G rolls/s."
    )
    print("Agreement with the exact engine:", "all z < 5" if ok else "**FAILED**")
    return 0 if ok else 1


def _timed(roll: Roll, rules: Rules, n: int, seed: int) -> float:
    start = time.perf_counter()
    d = simulate(roll, rules, n=n, seed=seed, backend="cuda", progress=False)
    elapsed = time.perf_counter() - start
    assert d.counts.sum() == n
    return elapsed


def _device() -> str:
    from numba import cuda

    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return "numba's CUDA simulator"
    try:
        dev = cuda.get_current_device()
        name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
    except Exception as err:  # the simulator's fake device, or a driver problem
        name = f"unknown device ({type(err).__name__})"
    return name


if __name__ == "__main__":
    raise SystemExit(main())
