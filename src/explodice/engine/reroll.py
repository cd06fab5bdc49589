"""The reroll on failure (docs/rules.md, Rerolls), exact and by an independent numpy Monte Carlo.

``Reroll("failure", dc=...)`` is spent when the finished roll fails its DC:

- without advantage or disadvantage the whole roll is thrown again: a new initial throw, its
  own explosions, its own rule-of-1 choice and drain (the drains and kept 1s add up);
- with either, one die only: the one whose reroll gives the best P(success). A kept die of
  the initial throw (with its explosions) is replaced by a fresh exploding d6, or, under
  ``subtract``, the malus die by a fresh one (exploding or plain, as ``Rules.malus_die``). The first throw's choice stands, so its kept 1s
  drain; the rerolled die takes no part in the rule of 1. Among the kept dice the cheapest
  (the lowest contribution: a 1 first) is always the best; between it and the malus die a tie
  goes to the kept die. Dice set aside in a cancelled pair are not rerolled.

``Reroll("one")`` (Lucky) is read by the exact engine and the kernels themselves; the Monte
Carlo here plays it too, before or after the rule of 1's choice (``Rules.lucky_timing``), as
an independent check.

>>> from explodice import Roll, Reroll, exact
>>> p = exact(Roll(0)).p_success(16)
>>> d = exact(Roll(0, reroll=Reroll("failure", dc=16)))
>>> bool(abs(d.p_success(16) - (1 - (1 - p) ** 2)) < 1e-12)
True
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from explodice.core.errors import check_int
from explodice.engine.dice import chains, exploding_sum, malus_pmf
from explodice.engine.distribution import Distribution, histogram_distribution
from explodice.engine.histogram import HIST_D, HIST_T, HIST_T_LO, N_ONES
from explodice.engine.rule_of_one import policy_table
from explodice.engine.seeding import DEFAULT_CHUNK, chunk_sizes, resolve_seed
from explodice.game.rules import Best, MalusDie, Roll, Rules

__all__ = ["exact_failure_reroll", "play", "simulate_reroll"]

_TINY = 1e-18  # states below this probability are skipped


# -- exact ----------------------------------------------------------------------------------
def exact_failure_reroll(roll: Roll, rules: Rules, first: Distribution) -> Distribution:
    """The exact distribution of ``roll`` (which carries ``Reroll("failure", dc=...)``);
    ``first`` is the same roll's exact distribution without the reroll."""
    dc = roll.reroll_dc
    assert dc is not None
    if roll.advantage == "normal":
        pmf, lo = _whole_roll_again(first, dc)
    else:
        base = roll.replace(modifier=0, reroll=None)
        if isinstance(roll.policy, Best):  # its table reads dc - modifier: keep that gap
            base = base.replace(policy=Best(roll.policy.dc - roll.modifier, roll.policy.weight))
        pmf, lo = _one_die(base, rules, dc - roll.modifier)
        lo += roll.modifier
    omitted = max(0.0, 1.0 - float(pmf.sum()))
    return Distribution(pmf, lo, method="exact", omitted=omitted, roll=roll, rules=rules)


def _whole_roll_again(first: Distribution, dc: int) -> tuple[np.ndarray, int]:
    """Success stands; a failure is replaced by an independent second roll whose drain and
    kept 1s add to the first's."""
    p = np.asarray(first.pmf)
    fail = first.totals < dc
    failed = p[fail].sum(axis=0)  # (drain, ones) of the failed first rolls
    nt, nd, no = p.shape
    shape = (2 * nd - 1, 2 * no - 1)
    # (drain, ones) of the two rolls add: a 2-d convolution per total, by FFT
    again = np.fft.irfft2(
        np.fft.rfft2(p, s=shape, axes=(1, 2)) * np.fft.rfft2(failed, s=shape), s=shape, axes=(1, 2)
    )
    out = np.where(np.abs(again) < 1e-17, 0.0, again)  # the FFT's rounding around 0
    out[:, :nd, :no] += p * (~fail)[:, None, None]
    return _trim(np.clip(out, 0.0, None)), first.lo


def _trim(pmf: np.ndarray) -> np.ndarray:
    """Drop the trailing drain and kept-1s slices that hold nothing."""
    d_any = np.nonzero(pmf.any(axis=(0, 2)))[0]
    o_any = np.nonzero(pmf.any(axis=(0, 1)))[0]
    return np.ascontiguousarray(pmf[:, : d_any[-1] + 1, : o_any[-1] + 1])


def _die(kind: MalusDie = "exploding") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A d6's PMF ``x[v]`` (v from 0), its survival ``P(X >= v)`` and CDF: an exploding one,
    or the malus die of ``kind`` (:func:`~explodice.engine.dice.malus_pmf`)."""
    x, _ = malus_pmf(kind)
    sf = np.concatenate([np.cumsum(x[::-1])[::-1], [0.0]])
    cdf = np.cumsum(x)
    return x, sf, cdf


def _sf(sf: np.ndarray, v: np.ndarray) -> np.ndarray:
    """P(X >= v) for integer arrays v."""
    return sf[np.clip(v, 0, sf.size - 1)]


def _cdf(cdf: np.ndarray, v: np.ndarray) -> np.ndarray:
    """P(X <= v) for integer arrays v."""
    return np.where(v < 0, 0.0, cdf[np.clip(v, 0, cdf.size - 1)])


@lru_cache(maxsize=128)
def _kept_groups(roll: Roll, rules: Rules) -> dict[tuple[int, int, int], np.ndarray]:
    """The initial throw after the rule of 1's choice, grouped by (kept 1s, kept 6s, cheapest
    plain die): the PMF of the plain dice's sum. The cheapest plain die is 1 when a 1 is kept,
    else the lowest face 2..5, 0 when only 6s are kept and -1 when nothing is."""
    pool = roll.pool_size(rules)
    k_table = policy_table(roll, rules)
    groups: dict[tuple[int, int, int], np.ndarray] = {}
    for faces in itertools.product(range(1, 7), repeat=pool):
        n1, n6 = faces.count(1), faces.count(6)
        others = [f for f in faces if 1 < f < 6]
        k = int(k_table[n1, n6, sum(others)])
        a, b = n1 - k, n6 - k
        cheapest = 1 if a else (min(others) if others else (0 if b else -1))
        key = (a, b, cheapest)
        groups.setdefault(key, np.zeros(4 * pool + 6))[a + sum(others)] += (1 / 6) ** pool
    return groups


def _chain_power(single: np.ndarray, b: int) -> np.ndarray:
    """The ``b``-fold sum of independent chains given as ``single[e, v]`` (e: ends on a 1)."""
    out = np.zeros((b + 1, 1))
    out[0, 0] = 1.0
    for _ in range(b):
        nxt = np.zeros((b + 1, out.shape[1] + single.shape[1] - 1))
        for e in range(b + 1):
            for f in range(single.shape[0]):
                if e + f <= b and out[e].any() and single[f].any():
                    nxt[e + f] += np.convolve(out[e], single[f])
        out = nxt
    return out


@lru_cache(maxsize=32)
def _sixes_by_cheapest(b: int, count_ones: bool) -> tuple[tuple[int, np.ndarray], ...]:
    """For ``b`` kept 6s and nothing else kept: ``(c, q[e, v])`` where ``q`` is the joint PMF
    of the chains' sum ``v`` and their 1s ``e`` with the cheapest chain worth ``c``
    (from P(all chains >= c) - P(all chains >= c + 1))."""
    single = chains(1, count_ones)
    out = []
    above = _chain_power(single, b)  # all chains >= 7 (always)
    for c in range(7, single.shape[1]):
        cut = single.copy()
        cut[:, : c + 1] = 0.0
        higher = _chain_power(cut, b)
        q = above.copy()
        q[:, : higher.shape[1]] -= higher
        if q.sum() > _TINY:
            out.append((c, np.clip(q, 0.0, None)))
        above = higher
        if above.sum() <= _TINY:
            break
    for _, q in out:
        q.setflags(write=False)  # cached: shared by every call
    return tuple(out)


@lru_cache(maxsize=128)
def _one_die(roll: Roll, rules: Rules, need: int) -> tuple[np.ndarray, int]:
    """pmf[total, drain, ones] (and lo) of the dice total when one die is rerolled on a
    failure to reach ``need`` (the modifier is 0 here)."""
    applies = roll.rule_of_one_applies(rules)
    count_ones = applies and rules.ones_on_explosions
    kind = roll.malus_die(rules)
    malus = kind is not None
    x, sf, _ = _die()
    mx, _, mcdf = _die(kind or "exploding")  # the malus die, fresh when rerolled
    pool = roll.pool_size(rules)
    max_ones = pool + (pool if count_ones else 0)
    top = 4 * pool + 6 + pool * chains(1, False).shape[1] + 2 * x.size
    t_lo = -x.size - 1
    joint = np.zeros((top - t_lo, max_ones + 1))  # dice total x kept 1s

    def settle(u_pmf: np.ndarray, c: int, ones: int) -> None:
        """Add the outcomes of positive part ``u`` (PMF over u from 0), cheapest die ``c``."""
        col = joint[:, ones]
        us = np.nonzero(u_pmf > _TINY)[0]
        if not malus:
            ok = us[us >= need]
            col[ok - t_lo] += u_pmf[ok]
            bad = us[us < need]
            if bad.size == 0:
                return
            if c < 0:  # nothing kept: nothing to reroll
                col[bad - t_lo] += u_pmf[bad]
                return
            failed = np.zeros(int(bad.max()) + 1)
            failed[bad] = u_pmf[bad]
            again = np.convolve(failed, x)  # u - c + X
            col[np.arange(again.size) - c - t_lo] += again
            return
        # The malus die: every (u, m) pair at once. A failure rerolls the cheapest kept die
        # (u - c + X - m) or the malus die (u - M), whichever gives the better P(success);
        # a tie goes to the kept die.
        ms = np.nonzero(mx > 0)[0]
        w = u_pmf[us][:, None] * mx[ms][None, :]
        t1 = us[:, None] - ms[None, :]
        fail = t1 < need
        col += np.bincount(t1[~fail] - t_lo, weights=w[~fail], minlength=col.size)
        if not fail.any():
            return
        p_malus = _cdf(mcdf, us - need)[:, None]
        die = fail & (_sf(sf, need - t1 + c) >= p_malus) if c >= 0 else np.zeros_like(fail)
        if die.any():  # u - m - c (>= 1 - size: the cheapest die is part of u), plus X
            d = t1[die] - c
            d_lo = int(d.min())
            part = np.convolve(np.bincount(d - d_lo, weights=w[die]), x)
            col[d_lo - t_lo : d_lo - t_lo + part.size] += part
        mal = fail & ~die
        if mal.any():  # u - M over the malus die's values M (mx reversed: from -(size-1))
            v = np.bincount(np.broadcast_to(us[:, None], mal.shape)[mal], weights=w[mal])
            part = np.convolve(v, mx[::-1])
            lo = -(mx.size - 1)
            col[lo - t_lo : lo - t_lo + part.size] += part

    for (a, b, cheapest), rest in _kept_groups(roll, rules).items():
        if cheapest == 0:
            pieces = _sixes_by_cheapest(b, count_ones)
        else:
            pieces = ((cheapest, chains(b, count_ones)),)
        for c, q in pieces:
            for e in range(q.shape[0]):
                if q[e].sum() <= _TINY:
                    continue
                ones = (a + e) if applies else 0
                settle(np.convolve(rest, q[e]), c, ones)

    rows = np.nonzero(joint.sum(axis=1) > 0)[0]
    joint = joint[rows[0] : rows[-1] + 1]
    lo = t_lo + int(rows[0])
    if roll.drains(rules):
        drains = [exploding_sum(o)[0] for o in range(max_ones + 1)]
        width = max(d.size for d in drains)
        pmf = np.zeros((joint.shape[0], width, max_ones + 1))
        for o, d in enumerate(drains):
            pmf[:, : d.size, o] = np.outer(joint[:, o], d)
    else:
        pmf = joint[:, None, :].copy()
    pmf = _trim(pmf)
    pmf.setflags(write=False)
    return pmf, lo


# -- Monte Carlo ----------------------------------------------------------------------------
def _explode(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Exploding d6s: their values and last faces (a die ends on a 1 when its last is 1)."""
    total = np.zeros(shape, dtype=np.int64)
    last = np.zeros(shape, dtype=np.int64)
    alive = np.ones(shape, dtype=bool)
    while alive.any():
        f = rng.integers(1, 7, size=shape)
        total += np.where(alive, f, 0)
        last = np.where(alive, f, last)
        alive &= f == 6
    return total, last


def _malus(rng: np.random.Generator, n: int, kind: MalusDie) -> np.ndarray:
    """``n`` malus dice of ``kind``: exploding d6s, or plain ones (1..6)."""
    return _explode(rng, (n,))[0] if kind == "exploding" else rng.integers(1, 7, size=n)


def _throw(rng: np.random.Generator, n: int, roll: Roll, rules: Rules) -> dict[str, np.ndarray]:
    """``n`` rolls played die by die from docs/rules.md: dice total (no modifier), kept 1s, drain,
    the cheapest kept plain die or chain (-1: nothing kept) and the malus die (0: none)."""
    pool = roll.pool_size(rules)
    faces = rng.integers(1, 7, size=(n, pool))
    if roll.lucky_before_choice(rules):  # one die showing 1 is rerolled, before the choice
        has_one = (faces == 1).any(axis=1)
        first_one = np.argmax(faces == 1, axis=1)
        new = rng.integers(1, 7, size=n)
        rows = np.nonzero(has_one)[0]
        faces[rows, first_one[rows]] = new[rows]
    n1 = (faces == 1).sum(axis=1)
    n6 = (faces == 6).sum(axis=1)
    plain = np.where((faces > 1) & (faces < 6), faces, 0)
    table_roll = roll if roll.lucky else roll.replace(reroll=None)  # Lucky's timing informs best
    k = policy_table(table_roll, rules)[n1, n6, plain.sum(axis=1)].astype(np.int64)
    a, b = n1 - k, n6 - k
    chain_x, chain_last = _explode(rng, (n, pool))
    live = np.arange(pool)[None, :] < b[:, None]  # the first b chains are the kept 6s
    chain_val = np.where(live, 6 + chain_x, 0)
    total = a + plain.sum(axis=1) + chain_val.sum(axis=1)
    if roll.lucky_after_choice(rules):  # one kept 1 rerolled after the choice: summed, no drain
        fresh = a > 0
        total += np.where(fresh, _explode(rng, (n,))[0] - 1, 0)
        a = a - fresh
    applies = roll.rule_of_one_applies(rules)
    ones = a + ((live & (chain_last == 1)).sum(axis=1) if rules.ones_on_explosions else 0)
    ones = ones if applies else np.zeros(n, dtype=np.int64)
    big = 1 << 30
    cheapest_plain = np.where(plain > 0, plain, big).min(axis=1)
    cheapest_chain = np.where(live, chain_val, big).min(axis=1)
    cheapest = np.where(
        a > 0,
        1,
        np.where(cheapest_plain < big, cheapest_plain, np.where(b > 0, cheapest_chain, -1)),
    )
    malus = np.zeros(n, dtype=np.int64)
    kind = roll.malus_die(rules)
    if kind is not None:
        malus = _malus(rng, n, kind)
    drain = np.zeros(n, dtype=np.int64)
    if roll.drains(rules):
        width = int(ones.max(initial=0))
        if width:
            d, _ = _explode(rng, (n, width))
            drain = np.where(np.arange(width)[None, :] < ones[:, None], d, 0).sum(axis=1)
    return {
        "total": total - malus,
        "ones": ones,
        "drain": drain,
        "cheapest": cheapest,
        "malus": malus,
    }


def play(
    rng: np.random.Generator, n: int, roll: Roll, rules: Rules, may_reroll: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n`` rolls played die by die with the roll's reroll: ``(total with modifier, drain,
    kept 1s, rerolled)``. ``may_reroll`` (bools) limits a reroll on failure to some rows (a
    character's rerolls left in a day); ``rerolled`` says which rows spent one."""
    r = _throw(rng, n, roll, rules)
    total, drain, ones = r["total"] + roll.modifier, r["drain"], r["ones"]
    dc = roll.reroll_dc
    rerolled = np.zeros(n, dtype=bool)
    if dc is None:
        return total, drain, ones, rerolled
    failed = total < dc
    if may_reroll is not None:
        failed &= may_reroll
    fail = np.nonzero(failed)[0]
    rerolled[fail] = True
    if roll.advantage == "normal":  # the whole roll again
        again = play(rng, fail.size, roll.replace(reroll=None), rules)
        total[fail] = again[0]
        drain[fail] += again[1]
        ones[fail] += again[2]
        return total, drain, ones, rerolled
    _, sf, _ = _die()
    kind = roll.malus_die(rules)
    t1, c, m = total[fail], r["cheapest"][fail], r["malus"][fail]
    p_die = np.where(c >= 0, _sf(sf, dc - t1 + c), -1.0)
    p_malus = _cdf(_die(kind)[2], t1 + m - dc) if kind is not None else np.full(fail.size, -1.0)
    fresh = _explode(rng, (fail.size,))[0]
    # the exploding malus die, when rerolled, reads the same fresh draw (today's stream)
    fresh_malus = rng.integers(1, 7, size=fail.size) if kind == "plain" else fresh
    new = np.where(p_die >= p_malus, np.where(c >= 0, t1 - c + fresh, t1), t1 + m - fresh_malus)
    total[fail] = new
    return total, drain, ones, rerolled


def simulate_reroll(
    roll: Roll,
    rules: Rules | None = None,
    *,
    n: int = 1_000_000,
    seed: int | np.random.SeedSequence | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> Distribution:
    """Simulate ``roll`` with its reroll by plain numpy, die by die (independent of the
    numba kernels and of the exact engine's grouping). Fixed chunks, one spawned stream each:
    the same seed gives the same counts.

    >>> from explodice import Roll, Reroll
    >>> d = simulate_reroll(Roll(0, reroll=Reroll("failure", dc=16)), n=20_000, seed=1)
    >>> d.n, d.method
    (20000, 'simulate')
    """
    rules = Rules() if rules is None else rules
    n = check_int("n", n, lo=1, hi=10**10)
    ss = resolve_seed(seed)
    sizes = chunk_sizes(n, min(chunk_size, 1 << 20))
    # one fixed histogram, each chunk added as it is played: memory stays flat for any n
    # (kept 1s of two throws reach 8; totals and drains beyond the edges are clamped there)
    counts = np.zeros((2 * N_ONES, HIST_D, HIST_T), dtype=np.int64)
    clamped = 0
    for size, child in zip(sizes, ss.spawn(sizes.size)):
        rng = np.random.Generator(np.random.PCG64(child))
        total, drain, ones = play(rng, int(size), roll, rules)[:3]
        t = np.asarray(total) - roll.modifier - HIST_T_LO
        d = np.asarray(drain)
        outside = (t < 0) | (t >= HIST_T) | (d >= HIST_D)
        clamped += int(outside.sum())
        t, d = np.clip(t, 0, HIST_T - 1), np.minimum(d, HIST_D - 1)
        np.add.at(counts, (np.minimum(ones, 2 * N_ONES - 1), d, t), 1)
    return histogram_distribution(
        counts, HIST_T_LO, n=n, seed=ss, clamped=clamped, roll=roll, rules=rules
    )
