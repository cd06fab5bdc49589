"""The adventuring day: many simulated days of a Scenario, and the time a gauge takes to empty.

:func:`simulate_day` reads a day compiled once (:func:`explodice.day.compiled.compile_day`: its
rolls through :func:`explodice.engine.compiled.compile_roll`, the translation the single-roll
kernel uses), packs it into the day kernel's arrays (:func:`kernel_day`) and runs
:func:`explodice.day._kernel.day_chunk` on threads (:func:`explodice.engine.chunks.run_chunks`).
The rules of docs/rules.md it plays:

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
chunk, so 1 thread and 16 give the same numbers.

>>> r = rolls_to_empty(modifier=2, gauge=1, dc=16)   # exact: 216/91 rolls on average
>>> round(r.mean * 91, 6)
216.0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceTypeError, check_choice, check_int, fail, shown
from explodice.day.compiled import (
    CompiledDay,
    DayPolicy,
    check_day_policy,
    check_day_rules,
    compile_day,
)
from explodice.day.reroll_day import day_histograms
from explodice.day.results import DayResult, EmptyTime, histogram_bins
from explodice.day.scenario import DayRoll, Scenario
from explodice.engine.chunks import lanes, progress_bar, resolve_threads, run_chunks
from explodice.engine.compiled import throw_table
from explodice.engine.exact import exact
from explodice.engine.sampling import METHODS, Method
from explodice.engine.seeding import chunk_sizes, resolve_seed, seed_record, stream_seeds
from explodice.game.character import Character
from explodice.game.reroll import Reroll, as_reroll
from explodice.game.rules import Best, ExplodiceError, Policy, Roll, Rules
from explodice.game.tables import MAX_GAUGE

__all__ = [
    "DEFAULT_CHUNK_DAYS",
    "DayResult",
    "EmptyTime",
    "KernelDay",
    "accumulators",
    "kernel_day",
    "rolls_to_empty",
    "simulate_day",
]

DEFAULT_CHUNK_DAYS = 4096
_MAX_FACES = 6**4
#: The most days one day simulation may run (a designer's runs are 10**4 to 10**6).
MAX_DAYS = 10**9
_WEIGHT_TOTAL = 1 << 30  # non-integer mix weights are rounded to this resolution


# -- the day as the kernel reads it -------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class KernelDay:
    """The day kernel's arrays (:class:`explodice.day._kernel.DayTables` and
    :class:`~explodice.day._kernel.FaceTables` name them): the roll types' and variants'
    fields packed in two flat tables (``types``, ``variants``), their throw tables
    (``throws``), the sequence or the mix (``mix_cum``, ``mix_lut``), the gauges' start, a
    state-dependent policy's choices (``policy_pack``), and the lucky reroll's face tables."""

    throws: np.ndarray
    types: np.ndarray
    variants: np.ndarray
    sequence: np.ndarray
    gauge_start: np.ndarray
    overflow: int
    mix_cum: np.ndarray
    mix_lut: np.ndarray
    policy_pack: np.ndarray
    c_strides: np.ndarray
    n_states: int
    n_faces: np.ndarray
    face_n1: np.ndarray
    face_n6: np.ndarray
    face_s: np.ndarray
    k_tables: np.ndarray

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``day_chunk`` (all but the stream, size and output): its
        two records, ``day`` and ``faces``."""
        from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

        day = _day_kernel.DayTables(*(getattr(self, f) for f in _day_kernel.DayTables._fields))
        faces = _day_kernel.FaceTables(*(getattr(self, f) for f in _day_kernel.FaceTables._fields))
        return {"day": day, "faces": faces}


def _mix_cum(scenario: Scenario) -> np.ndarray:
    """Cumulative integer weights of the roll types (exact when the weights are integers)."""
    w = [r.weight for r in scenario.rolls]
    if all(float(x).is_integer() for x in w) and sum(w) < 2**31:
        ints = [int(x) for x in w]
    else:  # largest remainder to a total of 2**30
        fr = [Fraction(x) / Fraction(sum(w)) * _WEIGHT_TOTAL for x in w]
        ints = [math.floor(f) for f in fr]
        order = sorted(range(len(w)), key=lambda i: fr[i] - ints[i], reverse=True)
        for i in order[: _WEIGHT_TOTAL - sum(ints)]:
            ints[i] += 1
    return np.cumsum(np.asarray(ints, dtype=np.int64))


def mix_lut(mix_cum: np.ndarray) -> np.ndarray:
    """The roll type of each integer weight unit, when they are few enough (else empty)."""
    from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

    dtype = np.int16 if mix_cum.size <= np.iinfo(np.int16).max else np.int32
    if mix_cum[-1] > _day_kernel.MAX_LUT:
        return np.zeros(0, dtype=dtype)
    return np.repeat(np.arange(mix_cum.size), np.diff(mix_cum, prepend=0)).astype(dtype)


def _day_table(roll: Roll, rules: Rules, pool: int, k_table: bytes | None = None) -> np.ndarray:
    """The throw table the day kernel reads for a variant: 6**5 entries for pools of 2 and 3
    (15 KB, in the L1 cache; 3.6 % of 3d6x throws left to finish), 6**6 for 4 dice (a 6**5
    table would leave 20 % open)."""
    return throw_table(roll, rules, depth=5 if pool <= 3 else 6, k_table=k_table)


def kernel_day(day: CompiledDay, policy: DayPolicy | None = None) -> KernelDay:
    """Pack a compiled day (and a state-dependent ``policy``: its choice tables become extra
    variants, looked up by roll and levels) into the day kernel's arrays."""
    from explodice.day import _kernel as k  # numba: only when days are simulated

    n_types = len(day.roll_types)
    n_g = day.gauge_start.size  # NPCs' rolls go to the kernel's scratch gauge n_g
    types = np.zeros((n_types, k.TYPE_FIELDS), dtype=np.int64)
    rows: list[tuple[int, int, np.ndarray]] = []  # (variant, pool, day table) in order
    faces = np.zeros((3, 3, _MAX_FACES), dtype=np.int8)  # [table, pool 2..4, face index]
    k_tables, flags = [], []
    for rt in day.roll_types:
        c0 = rt.variants[0].kernel
        base = 4 * rt.owner
        types[rt.index, k.T_GAUGE] = base + rt.drained if rt.pc else n_g
        types[rt.index, k.T_CHECK] = base + rt.hindering if rt.pc else n_g
        types[rt.index, k.T_DRAINS] = c0.drains
        types[rt.index, k.T_NEED] = rt.variants[0].need
        types[rt.index, k.T_LUCKY] = c0.lucky
        # the throw tables hold neither Lucky's reroll nor a plain malus die
        types[rt.index, k.T_FACE] = c0.lucky or any(v.kernel.plain_malus for v in rt.variants)
        types[rt.index, k.T_OWNER] = rt.owner
        for var in rt.variants:
            assert var.roll.reroll_dc is None  # a reroll on failure goes through reroll_day
            c = var.kernel
            faces[:, c.pool - 2, : c.face_n1.size] = (c.face_n1, c.face_n6, c.face_s)
            k_tables.append(c.k_table)
            flags.append(
                (
                    c.malus,
                    c.rule_applies,
                    c.explosion_ones,
                    c.pool - 2,
                    c.plain_malus,
                    c.lucky_after,
                )
            )
            rows.append((len(rows), c.pool, _day_table(var.roll, day.rules, c.pool)))
    policy_var = np.zeros((0, 0, 0), dtype=np.int32)
    c_strides = np.zeros((len(day.characters), 4), dtype=np.int64)
    if policy is not None:  # extra variants 2 n_types + i, read through policy_var
        extra, policy_var, c_strides = policy.lookup(day)
        for v, table in extra:
            var = day.roll_types[v // 2].variants[v % 2]
            k_tables.append(np.ascontiguousarray(table))
            flags.append(flags[v])
            pool = var.roll.pool_size(day.rules)
            rows.append((len(rows), pool, _day_table(var.roll, day.rules, pool, table.tobytes())))
    for r in range(n_types):
        types[r, k.T_POLICY] = policy_var.size > 0 and bool((policy_var[:, r] >= 0).any())
    variants, throws = _variant_table(k, rows, flags)
    return KernelDay(
        throws=k.byte_tables(throws),
        types=types.reshape(-1),
        variants=variants.reshape(-1),
        sequence=np.asarray(day.sequence),
        gauge_start=np.asarray(day.gauge_start),
        overflow=k.OVERFLOW_MODES[day.overflow],
        mix_cum=(cum := _mix_cum(day.scenario)),
        mix_lut=mix_lut(cum),
        policy_pack=_policy_pack(k, day, variants, policy_var, c_strides),
        c_strides=np.ascontiguousarray(c_strides).reshape(-1),
        n_states=int(policy_var.shape[2]),
        n_faces=np.array([6**2, 6**3, 6**4], dtype=np.int64),
        face_n1=faces[0],
        face_n6=faces[1],
        face_s=faces[2],
        k_tables=np.ascontiguousarray(np.stack(k_tables)),
    )


def _variant_table(
    k: Any, rows: list[tuple[int, int, np.ndarray]], flags: list[tuple[Any, ...]]
) -> tuple[np.ndarray, np.ndarray]:
    """The variants' fields (``V_*``) and their throw tables, flat (equal tables once)."""
    offsets: dict[bytes, int] = {}
    variants = np.zeros((len(rows), k.VAR_FIELDS), dtype=np.int64)
    for v, _, table in rows:
        row = offsets.setdefault(table.tobytes(), sum(len(b) // 2 for b in offsets))
        malus, rule, expl, pool, plain, after = flags[v]
        variants[v, k.V_ROW] = row
        variants[v, k.V_BIG] = table.size == k.ROW
        variants[v, k.V_MALUS] = malus
        variants[v, k.V_EXPL] = expl
        variants[v, k.V_POOL] = pool
        variants[v, k.V_RULE] = rule
        variants[v, k.V_PLAIN] = plain
        variants[v, k.V_AFTER] = after
    assert int(variants[:, k.V_ROW].max(initial=0)) <= k.P_ROW
    throws = np.concatenate(
        [np.frombuffer(b, dtype=np.int16) for b in offsets] or [np.zeros(0, np.int16)]
    )
    return variants, throws


def _policy_pack(
    k: Any, day: CompiledDay, variants: np.ndarray, policy_var: np.ndarray, strides: np.ndarray
) -> np.ndarray:
    """A state-dependent policy's table: each cell the variant it plays, packed with its
    fields. A cell the policy leaves to the roll's own policy (-1) gets that policy's
    variant for the state: 2 r, or 2 r + 1 when the state's hindering gauge is at 0."""
    policy_var = policy_var.astype(np.int64)
    n_t, n_r, n_states = policy_var.shape
    variant = 2 * len(day.roll_types) + policy_var
    start = day.gauge_start
    state = np.arange(n_states)
    for r in range(n_r):
        rt = day.roll_types[r]
        if not rt.pc:  # an NPC's roll: no state
            continue
        c, j = rt.owner, rt.hindering
        stride, radix = int(strides[c, j]), int(start[4 * c + j]) + 1
        level = (state // stride) % radix if stride > 0 else np.zeros_like(state)
        own = np.broadcast_to(2 * r + (level == 0), (n_t, n_states))
        variant[:, r] = np.where(policy_var[:, r] >= 0, variant[:, r], own)
    chosen = variants[variant]  # [t, r, state, field]
    pack = (
        chosen[..., k.V_ROW]
        | chosen[..., k.V_MALUS] << k.P_MALUS
        | chosen[..., k.V_EXPL] << k.P_EXPL
        | chosen[..., k.V_BIG] << k.P_BIG
        | variant << k.P_VARIANT
    )
    return np.ascontiguousarray(pack).reshape(-1)


# -- the simulation -------------------------------------------------------------------------
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

    >>> from explodice import Character
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
            "progress", progress, "True, False or None (a bar for long runs)", ExplodiceTypeError
        )
    policy = check_day_policy(policy, day)
    if policy is not None and day.overflow == "best":
        raise ExplodiceError(
            "`policy`: under overflow='best' the optimal player also picks the gauge each "
            "excess goes to, which the day kernel does not play (it pours into the fullest); "
            "play it with exact_day(..., policy=...)."
        )
    if any(rt.reroll_on_failure for rt in day.roll_types):
        if policy is not None:
            raise ExplodiceError(
                "`policy`: a day with a reroll on failure is simulated die by die, which "
                "cannot play an optimal policy; play it with exact_day(..., policy=...)."
            )
        return _with_rerolls(day, n_days, ss, chunk_days)
    sizes = chunk_sizes(n_days, chunk_days, what="chunk_days")
    seeds = stream_seeds(ss, sizes.size)
    packed = kernel_day(day, policy).arguments()
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


# -- the simple question --------------------------------------------------------------------
def _first_passage(drain_pmf: np.ndarray, gauge: int, tol: float) -> tuple[np.ndarray, float]:
    """P(T = t) for T = first t with (sum of t drains) >= gauge, until P(T > t) < tol."""
    below = np.zeros(gauge)  # P(S_t = s, S_t < gauge), s = 0..gauge-1
    below[0] = 1.0
    q = drain_pmf[:gauge]
    pmf = [0.0]
    while below.sum() >= tol and len(pmf) < 1_000_000:
        nxt = np.convolve(below, q)[:gauge]
        pmf.append(float(below.sum() - nxt.sum()))
        below = nxt
    return np.asarray(pmf), float(below.sum())


def rolls_to_empty(
    modifier: int = 0,
    gauge: int = 20,
    dc: int = 16,
    *,
    policy: Policy | float = "keep",
    advantage: str = "normal",
    kind: str = "check",
    rules: Rules | None = None,
    method: Method = "exact",
    n_days: int = 100_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    reroll: Reroll | str | None = None,
) -> EmptyTime:
    """After how many rolls does one gauge of ``gauge`` points first reach 0?

    One PC repeats one roll (``modifier``, ``dc``, ``advantage``, ``kind``) under ``policy``
    (``"keep"``, ``"cancel"``, a weight λ for ``Best(dc, λ)``, or a ``Best``), with its
    ``reroll``: ``Reroll("one")`` (Lucky: fewer 1s, a slower drain) or ``Reroll("failure")``
    (spent against ``dc`` on each failed roll: its drain adds to the first's).
    ``method="exact"`` sums the exact drain PMF (an absorbing chain: disadvantage at 0 cannot
    matter before the first passage); ``"simulate"`` runs :func:`simulate_day` (with
    ``progress``).

    >>> r = rolls_to_empty(modifier=2, gauge=20, dc=16)
    >>> round(r.mean, 2), r.median
    (11.22, 10)
    """
    rules = check_day_rules(rules)  # close_contest refused: no bids of HP on a day
    gauge = check_int("gauge", gauge, lo=1, hi=MAX_GAUGE)
    if isinstance(policy, (int, float)) and not isinstance(policy, bool):
        policy = Best(dc, policy)
    reroll = as_reroll(reroll)
    if reroll is not None and reroll.trigger == "failure":
        if reroll.dc not in (None, dc):
            raise ExplodiceError(
                f"`reroll` {shown(reroll)} is spent against the roll's DC ({dc}): give "
                "Reroll('failure') without a DC, or with that one."
            )
        reroll = reroll.with_dc(dc)
    roll = Roll(modifier, advantage=advantage, kind=kind, policy=policy, reroll=reroll)  # type: ignore[arg-type]
    check_choice("method", method, METHODS, ExplodiceError)
    q = exact(roll, rules).drain_pmf
    if not roll.drains(rules):
        raise ExplodiceError(
            f"`kind` {kind!r} drains nothing under these rules "
            f"({rules.describe()}): the gauge never empties."
        )
    pmf, beyond = _first_passage(q, gauge, 1e-12)
    if method == "exact":
        return EmptyTime(pmf, beyond, roll, gauge, dc, rules, "exact")
    survival = 1.0 - np.cumsum(pmf)
    horizon = int(np.argmax(survival < 1e-7)) if (survival < 1e-7).any() else pmf.size
    hero = Character(
        "pc",
        dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10),
        gauge_max={"PA": gauge, "PM": 0, "PF": 0, "PH": 0},
        policy=roll.policy,
        reroll=reroll,  # a trait: a reroll on failure is spent against each roll's DC
    )
    what: dict[str, Any] = {"skill": "Athletics"} if kind == "check" else {"ability": "STR"}
    scenario = Scenario(
        [hero],
        [
            DayRoll(
                "pc",
                **what,
                kind=roll.kind,
                dc=dc,
                bonus=modifier,
                advantages=int(advantage == "advantage"),
                disadvantages=int(advantage == "disadvantage"),
                repeat=horizon,
            )
        ],
        name="rolls_to_empty",
    )
    res = simulate_day(
        scenario, rules, n_days=n_days, seed=seed, threads=threads, progress=progress
    )
    counts = res.first[0, : horizon + 1]
    return EmptyTime(
        counts / n_days,
        float(res.first[0, -1]) / n_days,
        roll,
        gauge,
        dc,
        rules,
        "simulate",
        n_days=n_days,
        seed=res.seed,
        counts=counts,
    )
