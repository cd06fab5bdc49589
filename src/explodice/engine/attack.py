"""An attack against a defence value: P(hit) and P(critical), in both systems, exact or simulated.

3d6x (docs/rules.md, "Combat"): the attack hits when its total reaches the VD; a critical hit
is read by ``Rules.critical``:

- ``"none"``: there is none;
- ``"two_sixes"`` / ``"three_sixes"``: the initial throw keeps that many 6s or more (a 6
  cancelled against a 1 under the rule of 1 does not count; the malus die never does, nor do
  the explosions); such a roll hits whatever its total, as the d20's natural 20;
- an integer margin: a hit whose total reaches VD + margin.

d20: a natural 1 misses, a natural 20 hits and is the critical (5 %, 9.75 % with advantage,
0.25 % with disadvantage); the target number is the AC.

The exact engine is the oracle: the crit-split law comes from the same initial-throw states as
:func:`~explodice.exact` (:func:`~explodice.engine.exact.exact_kept_sixes`). The Monte Carlo
draws each attack face by face from the same :class:`~explodice.engine.compiled.CompiledRoll`
(:func:`explodice.engine._kernels.chunk_attack`), and gives Wilson intervals.

>>> from explodice import Roll, Rules
>>> a = attack_odds(Roll(5, kind="attack"), [14, 16], Rules(critical="two_sixes"))
>>> [round(float(p) * 216, 9) for p in a.p_crit]   # two or three 6s of 3d6: 15 + 1 of 216
[16.0, 16.0]
>>> float(attack_odds(Roll(5, kind="attack"), 13, system="d20").p_hit[0]) * 20   # 8..20
13.0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, check_choice, check_int
from explodice.engine.chunks import lanes, progress_bar, resolve_threads, run_chunks
from explodice.engine.compiled import compile_roll
from explodice.engine.d20 import d20
from explodice.engine.distribution import as_dcs, wilson_interval
from explodice.engine.exact import exact, exact_kept_sixes
from explodice.engine.histogram import HIST_T, HIST_T_LO
from explodice.engine.sampling import METHODS, Method
from explodice.engine.seeding import (
    DEFAULT_CHUNK,
    MAX_ROLLS,
    chunk_sizes,
    resolve_seed,
    seed_record,
    stream_seeds,
)
from explodice.engine.simulate import simulate
from explodice.game.checks import check_roll, check_rules
from explodice.game.rules import Roll, Rules
from explodice.game.tables import System, check_system

__all__ = ["AttackOdds", "attack_odds", "critical_sixes"]

#: The 6s a critical needs under each reading of ``Rules.critical`` that counts them.
_SIXES = {"two_sixes": 2, "three_sixes": 3}


def critical_sixes(rules: Rules) -> int | None:
    """The kept 6s a critical hit needs under ``rules.critical`` (2 or 3), else ``None``."""
    return _SIXES.get(rules.critical) if isinstance(rules.critical, str) else None


@dataclass(frozen=True, eq=False)
class AttackOdds:
    """P(hit) and P(critical) of one attack against each target of ``targets`` (VDs in 3d6x,
    ACs in d20), with their 95 % Wilson intervals when simulated (``None`` when exact)."""

    roll: Roll
    rules: Rules
    system: System
    targets: np.ndarray
    p_hit: np.ndarray
    p_crit: np.ndarray
    method: Method = "exact"
    n: int | None = None
    seed: int | None = None
    hit_ci: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    crit_ci: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per target: ``target``, ``p_hit``, ``p_crit`` (and their ``_lo``/``_hi``
        when simulated), with ``system``, ``method``, ``n``, ``seed``."""
        out = pd.DataFrame({"target": self.targets, "p_hit": self.p_hit, "p_crit": self.p_crit})
        if self.hit_ci is not None and self.crit_ci is not None:
            out["p_hit_lo"], out["p_hit_hi"] = self.hit_ci
            out["p_crit_lo"], out["p_crit_hi"] = self.crit_ci
        out["system"] = self.system
        out["method"] = self.method
        out["n"] = pd.array([self.n] * len(out), dtype="Int64")
        out["seed"] = self.seed
        return out


def attack_odds(
    roll: Roll,
    targets: int | Iterable[int],
    rules: Rules | None = None,
    *,
    system: System = "3d6x",
    method: Method = "exact",
    n: int = 200_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
) -> AttackOdds:
    """P(hit) and P(critical) of ``roll`` (an attack: its modifier, advantage, actor, policy,
    reroll) against each of ``targets`` (a VD in 3d6x, an AC in d20), under ``rules``.

    ``method`` ``"exact"`` or ``"simulate"`` (``n`` attacks from ``seed``, on ``threads``
    threads: the same seed gives the same numbers whatever the threads).

    >>> from explodice import Roll, Rules
    >>> a = attack_odds(Roll(4, kind="attack"), 20, Rules(critical=4))
    >>> b = attack_odds(Roll(4, kind="attack"), 24, Rules())
    >>> float(a.p_crit[0]) == float(b.p_hit[0])
    True
    """
    roll, rules, system = check_roll(roll), check_rules(rules), check_system(system)
    check_choice("method", method, METHODS, ExplodiceError)
    vds = np.atleast_1d(as_dcs(targets, "targets")).reshape(-1)
    if system == "d20":
        return _d20(roll, rules, vds, method, n, seed)
    if method == "exact":
        p_hit, p_crit = _exact_3d6x(roll, rules, vds)
        return AttackOdds(roll, rules, system, vds, p_hit, p_crit)
    return _simulate_3d6x(roll, rules, vds, n, seed, threads)


def _exact_3d6x(roll: Roll, rules: Rules, vds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    dist = exact(roll, rules)
    at = np.asarray(dist.p_success(vds), dtype=float).reshape(-1)
    crit = rules.critical
    sixes = critical_sixes(rules)
    if crit == "none":
        return at, np.zeros(vds.shape)
    if sixes is None:  # a margin: a hit whose total reaches VD + margin
        return at, np.asarray(dist.p_success(vds + int(crit)), dtype=float).reshape(-1)
    pmf, lo = exact_kept_sixes(roll, rules, sixes)
    below = np.concatenate([[0.0], np.cumsum(pmf)])  # mass of totals < lo + i
    index = np.clip(vds - lo, 0, pmf.size)
    return at + below[index], np.full(vds.shape, float(pmf.sum()))


def _d20(
    roll: Roll, rules: Rules, acs: np.ndarray, method: Method, n: int, seed: Any
) -> AttackOdds:
    """d20: natural 1 misses, natural 20 hits and is the critical."""
    if roll.kind != "attack":
        roll = roll.replace(kind="attack")
    dist = d20(roll, method=method, n=n, seed=seed, naturals=True)
    p_hit = np.asarray(dist.p_success(acs), dtype=float).reshape(-1)
    p_crit = np.full(acs.shape, dist.p_natural_20)
    if method == "exact":
        return AttackOdds(roll, rules, "d20", acs, p_hit, p_crit)
    assert dist.n is not None
    hits = np.rint(p_hit * dist.n).astype(np.int64)
    crits = np.rint(p_crit * dist.n).astype(np.int64)
    return AttackOdds(
        roll,
        rules,
        "d20",
        acs,
        p_hit,
        p_crit,
        "simulate",
        dist.n,
        dist.seed,
        wilson_interval(hits, dist.n),
        wilson_interval(crits, dist.n),
    )


def _simulate_3d6x(
    roll: Roll, rules: Rules, vds: np.ndarray, n: int, seed: Any, threads: int | None
) -> AttackOdds:
    n = check_int("n", n, lo=1, hi=MAX_ROLLS)
    sixes = critical_sixes(rules)
    if sixes is None:  # no critical, or a margin: the roll's own simulated law
        dist = simulate(roll, rules, n=n, seed=seed, threads=threads)
        assert dist.counts is not None
        totals = dist.counts.sum(axis=(1, 2))
        sf = np.concatenate([np.cumsum(totals[::-1])[::-1], [0]])
        hit_counts = sf[np.clip(vds - dist.lo, 0, totals.size)]
        if rules.critical == "none":
            crit_counts = np.zeros(vds.shape, dtype=np.int64)
        else:
            crit_counts = sf[np.clip(vds + int(rules.critical) - dist.lo, 0, totals.size)]
        entropy = dist.seed
    else:
        if roll.reroll_dc is not None:
            exact_kept_sixes(roll, rules, sixes)  # its refusal, one message for both engines
        hist, entropy = _attack_histogram(roll, rules, sixes, n, seed, threads)
        lo = HIST_T_LO + roll.modifier
        crit_total = int(hist[1].sum())
        sf = np.concatenate([np.cumsum(hist[0][::-1])[::-1], [0]])
        hit_counts = sf[np.clip(vds - lo, 0, hist.shape[1])] + crit_total
        crit_counts = np.full(vds.shape, crit_total, dtype=np.int64)
    return AttackOdds(
        roll,
        rules,
        "3d6x",
        vds,
        hit_counts / n,
        crit_counts / n,
        "simulate",
        n,
        entropy,
        wilson_interval(hit_counts, n),
        wilson_interval(crit_counts, n),
    )


def _attack_histogram(
    roll: Roll, rules: Rules, sixes: int, n: int, seed: Any, threads: int | None
) -> tuple[np.ndarray, int | None]:
    """``h[critical, total - HIST_T_LO]`` of ``n`` attacks (dice totals, without the modifier),
    in fixed chunks with their own streams: the same seed, the same counts on any threads."""
    from explodice.engine import _kernels  # numba, on first use only

    ss = resolve_seed(seed)
    n_threads = resolve_threads(threads)
    sizes = chunk_sizes(n, DEFAULT_CHUNK)
    seeds = stream_seeds(ss, sizes.size)
    n_lanes = lanes(sizes.size, n_threads)
    hists = np.zeros((n_lanes, 2, HIST_T), dtype=np.int64)
    r = compile_roll(roll, rules)
    flags = r.flags()

    def work(c: int, t: int) -> None:
        _kernels.chunk_attack(
            hists[t],
            seeds[c],
            sizes[c],
            r.face_n1,
            r.face_n6,
            r.face_s,
            r.k_table,
            flags,
            sixes,
            HIST_T_LO,
        )

    run_chunks(work, sizes, threads=n_threads, bar=progress_bar(n, False))
    return hists.sum(axis=0), seed_record(ss)
