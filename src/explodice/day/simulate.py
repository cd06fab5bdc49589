"""The adventuring day simulated: many days of a Scenario, played by the day kernel.

:func:`simulate_day` reads a day compiled once (:func:`explodice.day.compiled.compile_day`: its
rolls through :func:`explodice.engine.compiled.compile_roll`, the translation the single-roll
kernel uses), packs it into the day kernel's arrays
(:func:`explodice.day.kernel_day.kernel_day`) and runs :func:`explodice.day._kernel.day_chunk` on threads
(:func:`explodice.engine.chunks.run_chunks`). The rules of docs/rules.md it plays:

- each drain goes to the gauge `rules.drain_gauge` names (a skill check: its skill's gauge by
  default; a save or an ability check: its ability's); past 0 the excess overflows
  (``rules.overflow``): ``"fullest"`` pours it into the same character's non-empty gauge with
  the most points left, then the next fullest, and so on (ties: the first in PA, PM, PF, PH
  order); what no gauge can absorb is *lost*. ``"lost"``: the excess is lost at once;
- a gauge at 0 adds one disadvantage source to every roll of its abilities (netted with the
  roll's own sources), so the pool, the malus die, the policy table and the 1s all change;
- each character's policy applies to all its rolls (``Best`` against each roll's own DC);
  NPCs drain nothing and have no gauges.

Seeds follow :func:`explodice.simulate`: ``chunk_days`` days per chunk, one spawned stream per
chunk, so 1 thread and 16 give the same numbers. The time one gauge takes to empty is
:mod:`explodice.day.first_passage`.
"""

from __future__ import annotations

import time

import numpy as np

from explodice.core.errors import ExplodiceTypeError, check_int, fail
from explodice.core.words import Phrase
from explodice.day.compiled import CompiledDay, DayPolicy, check_day_policy, compile_day
from explodice.day.kernel_day import kernel_day
from explodice.day.reroll_day import day_histograms
from explodice.day.results import DayResult, histogram_bins
from explodice.day.scenario import Scenario
from explodice.engine.chunks import lanes, progress_bar, resolve_threads, run_chunks
from explodice.engine.seeding import chunk_sizes, resolve_seed, seed_record, stream_seeds
from explodice.game.rules import ExplodiceError, Rules

__all__ = ["DEFAULT_CHUNK_DAYS", "MAX_DAYS", "accumulators", "simulate_day"]

DEFAULT_CHUNK_DAYS = 4096
#: The most days one day simulation may run (a designer's runs are 10**4 to 10**6).
MAX_DAYS = 10**9


def simulate_day(
    scenario: Scenario,
    rules: Rules | None = None,
    *,
    n_days: int = 100_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    chunk_days: int = DEFAULT_CHUNK_DAYS,
    progress: bool | None = None,
    policy: DayPolicy | None = None,
) -> DayResult:
    """Simulate ``n_days`` days of ``scenario`` and return their histograms as a DayResult.

    ``policy`` (an :class:`~explodice.OptimalPolicy` of this scenario and rules) chooses for
    the characters it covers, by roll and gauge levels, instead of their own policies.

    The same ``seed`` and ``chunk_days`` give the same numbers for any ``threads``.
    ``progress`` shows a bar (tqdm) counting rolls, moving per chunk (by default only for runs
    of 2e8 rolls or more, as :func:`explodice.simulate`). Ctrl-C stops the run between two
    chunks (within a fraction of a second for ordinary days), closes the bar and raises
    ``KeyboardInterrupt``.

    A scenario where a character rerolls failures (``Reroll("failure", per_day=N)``) is played
    die by die with numpy instead (:mod:`explodice.day.reroll_day`: one thread, no bar, no
    ``policy``).

    >>> from explodice import Character, DayRoll
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
    >>> s = Scenario([hero], [DayRoll("Hero", ability="STR", dc=12, repeat=10)])
    >>> res = simulate_day(s, n_days=2000, seed=1, threads=1)
    >>> res.n_days, res.n_rolls
    (2000, 10)
    """
    day = compile_day(scenario, rules)
    n_days = check_int("n_days", n_days, lo=1, hi=MAX_DAYS)
    chunk_days = check_int("chunk_days", chunk_days, lo=1, hi=1 << 30)
    ss = resolve_seed(seed)
    n_threads = resolve_threads(threads)
    if progress is not None and not isinstance(progress, bool):
        raise fail(
            "progress",
            progress,
            Phrase("True, False or None (a bar for long runs)"),
            ExplodiceTypeError,
        )
    policy = check_day_policy(policy, day)
    if policy is not None and day.overflow == "best":
        raise ExplodiceError(
            Phrase(
                "`policy`: under overflow='best' the optimal player also picks the "
                "gauge each excess goes to, which the day kernel does not play (it "
                "pours into the fullest); play it with exact_day(..., policy=...)."
            )
        )
    if any(rt.reroll_on_failure for rt in day.roll_types):
        if policy is not None:
            raise ExplodiceError(
                Phrase(
                    "`policy`: a day with a reroll on failure is simulated die by die, "
                    "which cannot play an optimal policy; play it with exact_day(..., "
                    "policy=...)."
                )
            )
        return _with_rerolls(day, n_days, ss, chunk_days)
    sizes = chunk_sizes(n_days, chunk_days, what="chunk_days")
    seeds = stream_seeds(ss, sizes.size)
    packed = kernel_day(day, policy)
    from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

    outs = [accumulators(day) for _ in range(lanes(sizes.size, n_threads))]

    def work(c: int, t: int) -> None:
        _day_kernel.day_chunk(seeds[c], sizes[c], outs[t], **packed)

    began = time.perf_counter()
    run_chunks(
        work,
        sizes * scenario.n_rolls,
        threads=n_threads,
        bar=progress_bar(n_days * scenario.n_rolls, progress),
    )
    names = ("first", "per_roll", "by_type", "caused", "end", "lost", "sums", "lost_sum")
    totals = {k: np.sum([out[i] for out in outs], axis=0) for i, k in enumerate(names)}
    return _result(day, n_days, ss, chunk_days, time.perf_counter() - began, totals)


def accumulators(day: CompiledDay) -> tuple[np.ndarray, ...]:
    """One lane's zeroed accumulators for the day kernel (see its ``accumulators``)."""
    from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

    return _day_kernel.accumulators(
        day.gauge_start.size,
        day.n_rolls,
        len(day.roll_types),
        histogram_bins(day.scenario),
        int(day.gauge_start.max(initial=0)),
    )


def _result(
    day: CompiledDay,
    n_days: int,
    ss: np.random.SeedSequence,
    chunk_days: int,
    seconds: float,
    h: dict[str, np.ndarray],
) -> DayResult:
    """A simulated DayResult from the histograms ``h`` (the kernel's accumulators, by name)."""
    return DayResult(
        scenario=day.scenario,
        rules=day.rules,
        n_days=n_days,
        seed=seed_record(ss),
        chunk_days=chunk_days,
        seconds=seconds,
        sequence=np.array(day.sequence),
        gauge_start=np.array(day.gauge_start),
        first=h["first"],
        succ_t=np.ascontiguousarray(h["per_roll"][:, 0]),
        drain_t=np.ascontiguousarray(h["per_roll"][:, 1]),
        by_type=h["by_type"],
        caused=h["caused"],
        end=h["end"],
        lost=h["lost"],
        sums=h["sums"],
        lost_sum=h["lost_sum"],
    )


def _with_rerolls(
    day: CompiledDay, n_days: int, ss: np.random.SeedSequence, chunk_days: int
) -> DayResult:
    """A day whose characters reroll failures: numpy, die by die (:mod:`.reroll_day`)."""
    began = time.perf_counter()
    h = day_histograms(
        day, n_days=n_days, seed=ss, chunk_days=chunk_days, n_bins=histogram_bins(day.scenario)
    )
    return _result(day, n_days, ss, chunk_days, time.perf_counter() - began, h)
