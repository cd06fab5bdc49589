"""The adventuring day: many simulated days of a Scenario, and the time a gauge takes to empty.

:func:`simulate_day` compiles a :class:`~explodice.Scenario` into plain arrays (through
:func:`explodice.engine.compiled.compile_roll`, the
translation the single-roll kernel uses) and runs
:func:`explodice.day._kernel.day_chunk` on threads (:func:`explodice.engine.chunks.run_chunks`). The rules of RULES.md it plays:

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
import pandas as pd

from explodice.core.errors import ExplodiceTypeError, shown
from explodice.day.reroll_day import day_histograms
from explodice.day.scenario import DayRoll, Scenario
from explodice.engine.chunks import lanes, progress_bar, resolve_threads, run_chunks
from explodice.engine.compiled import compile_roll, throw_table
from explodice.engine.distribution import wilson_interval
from explodice.engine.exact import exact
from explodice.engine.rule_of_one import STATE_SHAPE
from explodice.engine.seeding import chunk_sizes, resolve_seed, seed_record, stream_seeds
from explodice.game.character import GAUGES, Character
from explodice.game.checks import check_rules
from explodice.game.rules import Best, ExplodiceError, Policy, Roll, Rules, check_int
from explodice.game.tables import MAX_GAUGE

__all__ = ["DayResult", "EmptyTime", "rolls_to_empty", "simulate_day", "DEFAULT_CHUNK_DAYS"]

DEFAULT_CHUNK_DAYS = 4096
_MAX_FACES = 6**4
_THROW_ROW = 6**6  # entries of the largest throw table (pools of 3 and 4)
#: The most days one day simulation may run (a designer's runs are 10**4 to 10**6).
MAX_DAYS = 10**9
_WEIGHT_TOTAL = 1 << 30  # non-integer mix weights are rounded to this resolution


# -- compiling a scenario -------------------------------------------------------------------
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


def _mix_lut(mix_cum: np.ndarray) -> np.ndarray:
    """The roll type of each integer weight unit, when they are few enough (else empty)."""
    from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

    dtype = np.int16 if mix_cum.size <= np.iinfo(np.int16).max else np.int32
    if mix_cum[-1] > _day_kernel.MAX_LUT:
        return np.zeros(0, dtype=dtype)
    return np.repeat(np.arange(mix_cum.size), np.diff(mix_cum, prepend=0)).astype(dtype)


def _throw_rows(tables: dict[bytes, int]) -> np.ndarray:
    """The distinct throw tables as rows of 6**6 entries; a pool of 2's 6**5 repeats 6 times
    (a uniform index below 6**6 read modulo 6**5 is uniform below 6**5)."""
    rows = np.empty((len(tables), _THROW_ROW), dtype=np.int16)
    for raw, i in tables.items():
        t = np.frombuffer(raw, dtype=np.int16)
        rows[i] = np.tile(t, _THROW_ROW // t.size)
    return rows


def _day_table(roll: Roll, rules: Rules, pool: int, k_table: bytes | None = None) -> np.ndarray:
    """The throw table the day kernel reads for a variant: 6**5 entries for pools of 2 and 3
    (15 KB, in the L1 cache; 3.6 % of 3d6x throws left to finish), 6**6 for 4 dice (a 6**5
    table would leave 20 % open)."""
    return throw_table(roll, rules, depth=5 if pool <= 3 else 6, k_table=k_table)


def _compile(scenario: Scenario, rules: Rules, policy: Any = None) -> dict[str, Any]:
    """The kernel's arrays for ``scenario`` under ``rules`` (and a state-dependent
    ``policy``: its choice tables become extra variants, looked up by roll and levels)."""
    n_types = len(scenario.rolls)
    faces = np.zeros((3, 3, _MAX_FACES), dtype=np.int8)  # [table, pool 2..4, face index]
    n_faces = np.array([6**2, 6**3, 6**4], dtype=np.int64)
    v_pool = np.zeros(2 * n_types, dtype=np.int64)
    k_tables = np.zeros((2 * n_types, *STATE_SHAPE), dtype=np.int8)
    v_flags = np.zeros((3, 2 * n_types), dtype=np.bool_)  # malus, rule applies, explosion 1s
    n_gauges = 4 * len(scenario.characters)
    t_gauge = np.full(n_types, n_gauges, dtype=np.int64)  # NPCs: the kernel's scratch gauge
    t_check = np.full(n_types, n_gauges, dtype=np.int64)  # the gauge whose 0 gives disadvantage
    t_drains = np.zeros(n_types, dtype=np.bool_)
    t_lucky = np.zeros(n_types, dtype=np.bool_)  # Reroll("one"): the face-by-face path
    t_need = np.zeros(n_types, dtype=np.int64)
    throws: dict[bytes, int] = {}  # equal tables stored once
    v_tab = np.zeros(2 * n_types, dtype=np.int64)
    v_tables: list[np.ndarray] = []  # each variant's own table, as the day kernel reads it
    names = [c.name for c in scenario.characters]
    for r, day_roll in enumerate(scenario.rolls):
        for empty in (0, 1):
            roll = scenario.roll_of(r, gauge_empty=bool(empty))
            c = compile_roll(roll, rules)
            p = c.pool - 2
            faces[:, p, : c.face_n1.size] = (c.face_n1, c.face_n6, c.face_s)
            v = 2 * r + empty
            v_pool[v], k_tables[v] = p, c.k_table
            v_tab[v] = throws.setdefault(c.throw_table.tobytes(), len(throws))
            v_tables.append(_day_table(roll, rules, c.pool))
            v_flags[:, v] = (c.malus, c.rule_applies, c.explosion_ones)
            assert roll.reroll_dc is None  # a reroll on failure goes through reroll_day
            if not empty:
                t_drains[r] = c.drains
                t_lucky[r] = c.lucky
                t_need[r] = day_roll.dc - roll.modifier
                if roll.actor == "pc":
                    base = names.index(day_roll.character) * 4
                    t_gauge[r] = base + GAUGES.index(day_roll.drain_gauge(rules))
                    t_check[r] = base + GAUGES.index(day_roll.gauge)
    t_owner = np.array([names.index(r.character) for r in scenario.rolls], dtype=np.int64)
    policy_var = np.zeros((0, 0, 0), dtype=np.int32)
    c_strides = np.zeros((len(names), 4), dtype=np.int64)
    if policy is not None:  # extra variants 2 n_types + i, read through policy_var
        extra, policy_var, c_strides = policy.lookup(scenario, rules)
        more = len(extra)
        v_pool = np.concatenate([v_pool, np.zeros(more, np.int64)])
        k_tables = np.concatenate([k_tables, np.zeros((more, 5, 5, 21), np.int8)])
        v_flags = np.concatenate([v_flags, np.zeros((3, more), np.bool_)], axis=1)
        v_tab = np.concatenate([v_tab, np.zeros(more, np.int64)])
        for i, (v, k) in enumerate(extra):
            roll = scenario.roll_of(v // 2, gauge_empty=bool(v % 2))
            w = 2 * n_types + i
            v_pool[w], k_tables[w], v_flags[:, w] = v_pool[v], k, v_flags[:, v]
            table = throw_table(roll, rules, k_table=k.tobytes())
            v_tab[w] = throws.setdefault(table.tobytes(), len(throws))
            v_tables.append(_day_table(roll, rules, roll.pool_size(rules), k.tobytes()))
    t_policy = np.array(
        [policy_var.size > 0 and bool((policy_var[:, r] >= 0).any()) for r in range(n_types)],
        dtype=np.bool_,
    )
    seq = scenario.sequence()
    sequence = np.asarray(seq if seq is not None else [-1] * scenario.n_rolls, dtype=np.int64)
    start = scenario.gauge_start()
    gauge_start = np.array([start[c][g] for c in names for g in GAUGES], dtype=np.int64)
    mix_cum = _mix_cum(scenario)
    return dict(
        throws=_throw_rows(throws),
        v_tab=v_tab,
        v_tables=v_tables,
        n_faces=n_faces,
        face_n1=faces[0],
        face_n6=faces[1],
        face_s=faces[2],
        v_pool=v_pool,
        k_tables=k_tables,
        v_malus=v_flags[0],
        v_rule=v_flags[1],
        v_expl=v_flags[2],
        t_lucky=t_lucky,
        t_gauge=t_gauge,
        t_check=t_check,
        t_drains=t_drains,
        t_need=t_need,
        sequence=sequence,
        mix_cum=mix_cum,
        mix_lut=_mix_lut(mix_cum),
        gauge_start=gauge_start,
        overflow_fullest=rules.overflow == "fullest",
        t_owner=t_owner,
        t_policy=t_policy,
        policy_var=policy_var,
        c_strides=c_strides,
    )


def _pack(arrays: dict[str, Any]) -> dict[str, Any]:
    """The day kernel's arguments from :func:`_compile`'s named arrays: the roll types' and
    variants' fields packed into two flat tables (see :mod:`explodice.day._kernel`, which
    reads few arrays in its loop)."""
    from explodice.day import _kernel as k  # numba: only when days are simulated

    n_types = arrays["t_gauge"].size
    types = np.zeros((n_types, k.TYPE_FIELDS), dtype=np.int64)
    for field, name in [
        (k.T_GAUGE, "t_gauge"),
        (k.T_CHECK, "t_check"),
        (k.T_DRAINS, "t_drains"),
        (k.T_NEED, "t_need"),
        (k.T_LUCKY, "t_lucky"),
        (k.T_POLICY, "t_policy"),
        (k.T_OWNER, "t_owner"),
    ]:
        types[:, field] = arrays[name]
    n_var = arrays["v_tab"].size
    offsets: dict[bytes, int] = {}  # equal tables stored once, flat
    v_row = np.zeros(n_var, dtype=np.int64)
    for v, table in enumerate(arrays["v_tables"]):
        v_row[v] = offsets.setdefault(table.tobytes(), sum(len(b) // 2 for b in offsets))
    throws = np.concatenate(
        [np.frombuffer(b, dtype=np.int16) for b in offsets] or [np.zeros(0, np.int16)]
    )
    big = np.array([t.size == k.ROW for t in arrays["v_tables"]], dtype=np.int64)
    variants = np.zeros((n_var, k.VAR_FIELDS), dtype=np.int64)
    for field, values in [
        (k.V_ROW, v_row),
        (k.V_BIG, big),
        (k.V_MALUS, arrays["v_malus"]),
        (k.V_EXPL, arrays["v_expl"]),
        (k.V_POOL, arrays["v_pool"]),
        (k.V_RULE, arrays["v_rule"]),
    ]:
        variants[:, field] = values
    # A state-dependent policy's table: each cell the variant it plays, packed with its
    # fields. A cell the policy leaves to the roll's own policy (-1) gets that policy's
    # variant for the state: 2 r, or 2 r + 1 when the state's check gauge is at 0.
    policy_var = arrays["policy_var"].astype(np.int64)
    n_t, n_r, n_states = policy_var.shape
    variant = 2 * n_types + policy_var
    start, strides = arrays["gauge_start"], arrays["c_strides"]
    state = np.arange(n_states)
    for r in range(n_r):
        h = int(arrays["t_check"][r])
        if h >= start.size:  # an NPC's roll: no state
            continue
        c, j = divmod(h, 4)
        stride, radix = int(strides[c, j]), int(start[h]) + 1
        level = (state // stride) % radix if stride > 0 else np.zeros_like(state)
        own = np.broadcast_to(2 * r + (level == 0), (n_t, n_states))
        variant[:, r] = np.where(policy_var[:, r] >= 0, variant[:, r], own)
    chosen = variants[variant]  # [t, r, state, field]
    policy_pack = (
        chosen[..., k.V_ROW]
        | chosen[..., k.V_MALUS] << k.P_MALUS
        | chosen[..., k.V_EXPL] << k.P_EXPL
        | chosen[..., k.V_BIG] << k.P_BIG
        | variant << k.P_VARIANT
    )
    assert int(variants[:, k.V_ROW].max(initial=0)) <= k.P_ROW
    return dict(
        throws=k.byte_tables(throws),
        types=types.reshape(-1),
        variants=variants.reshape(-1),
        sequence=arrays["sequence"],
        gauge_start=arrays["gauge_start"],
        overflow_fullest=arrays["overflow_fullest"],
        mix_cum=arrays["mix_cum"],
        mix_lut=arrays["mix_lut"],
        policy_pack=np.ascontiguousarray(policy_pack).reshape(-1),
        c_strides=np.ascontiguousarray(arrays["c_strides"]).reshape(-1),
        n_states=n_states,
        n_faces=arrays["n_faces"],
        face_n1=arrays["face_n1"],
        face_n6=arrays["face_n6"],
        face_s=arrays["face_s"],
        k_tables=arrays["k_tables"],
    )


def _n_bins(scenario: Scenario) -> int:
    return int(min(1 << 16, 64 + 16 * scenario.n_rolls))


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
    policy: Any = None,
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
    die by die with numpy instead (:mod:`explodice.day.reroll_day`: one thread, no bar).

    >>> from explodice import Character
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
    >>> s = Scenario([hero], [DayRoll("Hero", ability="STR", dc=12, repeat=10)])
    >>> res = simulate_day(s, n_days=2000, seed=1, threads=1)
    >>> res.n_days, res.n_rolls
    (2000, 10)
    """
    rules = check_rules(rules)
    if not isinstance(scenario, Scenario):
        raise ExplodiceTypeError(
            f"`scenario` must be a Scenario, but {shown(scenario)} was passed."
        )
    n_days = check_int("n_days", n_days, lo=1, hi=MAX_DAYS)
    chunk_days = check_int("chunk_days", chunk_days, lo=1, hi=1 << 30)
    ss = resolve_seed(seed)
    n_threads = resolve_threads(threads)
    if any(scenario.roll_of(r).reroll_dc is not None for r in range(len(scenario.rolls))):
        return _with_rerolls(scenario, rules, n_days, ss, chunk_days)
    sizes = chunk_sizes(n_days, chunk_days, what="chunk_days")
    seeds = stream_seeds(ss, sizes.size)
    arrays = _compile(scenario, rules, policy)
    n_lanes = lanes(sizes.size, n_threads)
    from explodice.day import _kernel as _day_kernel  # numba: only when days are simulated

    outs = [
        _day_kernel.accumulators(
            arrays["gauge_start"].size,
            arrays["sequence"].size,
            arrays["t_gauge"].size,
            _n_bins(scenario),
            int(arrays["gauge_start"].max(initial=0)),
        )
        for _ in range(n_lanes)
    ]

    packed = _pack(arrays)

    def work(c: int, t: int) -> None:
        _day_kernel.day_chunk(seeds[c], sizes[c], outs[t], **packed)

    began = time.perf_counter()
    run_chunks(
        work,
        sizes * scenario.n_rolls,
        threads=n_threads,
        bar=progress_bar(n_days * scenario.n_rolls, progress),
    )
    totals = [sum(out[i] for out in outs) for i in range(len(outs[0]))]
    seconds = time.perf_counter() - began
    first, per_roll, *rest = totals
    keys = ("by_type", "caused", "end", "lost", "sums", "lost_sum")
    return DayResult(
        scenario=scenario,
        rules=rules,
        n_days=n_days,
        seed=seed_record(ss),
        chunk_days=chunk_days,
        seconds=seconds,
        sequence=arrays["sequence"],
        gauge_start=arrays["gauge_start"],
        first=first,
        succ_t=np.ascontiguousarray(per_roll[:, 0]),
        drain_t=np.ascontiguousarray(per_roll[:, 1]),
        **dict(zip(keys, rest)),
    )


def _with_rerolls(
    scenario: Scenario, rules: Rules, n_days: int, ss: np.random.SeedSequence, chunk_days: int
) -> DayResult:
    """A day whose characters reroll failures: numpy, die by die (:mod:`.reroll_day`)."""
    began = time.perf_counter()
    h = day_histograms(
        scenario, rules, n_days=n_days, seed=ss, chunk_days=chunk_days, n_bins=_n_bins(scenario)
    )
    return DayResult(
        scenario=scenario,
        rules=rules,
        n_days=n_days,
        seed=seed_record(ss),
        chunk_days=chunk_days,
        seconds=time.perf_counter() - began,
        sequence=h["sequence"],
        gauge_start=h["gauge_start"],
        first=h["first"],
        succ_t=np.ascontiguousarray(h["per_roll"][:, 0]),
        drain_t=np.ascontiguousarray(h["per_roll"][:, 1]),
        **{k: h[k] for k in ("by_type", "caused", "end", "lost", "sums", "lost_sum")},
    )


@dataclass(frozen=True, eq=False, repr=False)
class DayResult:
    """Histograms of many simulated days, read as tidy tables with :meth:`to_frame`.

    Tables: ``"gauges"`` (one row per PC gauge: start, P(ever empty), first-empty roll mean
    and median, drain caused and absorbed, end level), ``"first_empty"`` (the roll after which
    a gauge first reached 0; ``roll`` 0 = empty at the start, NA with ``never`` = never),
    ``"empty"`` (P(gauge at 0 after roll t)), ``"success"`` (success rate and mean drain of
    roll t), ``"roll_types"`` (each roll type, its gauge not empty or empty), ``"drain"`` (distribution
    of a day's drain caused per gauge) and ``"lost"`` (points no gauge could absorb, per
    character). Every table carries ``n_days``, ``seed``, ``method`` and ``rules``.

    A result of :func:`explodice.exact_day` has ``method="exact"``: its arrays hold
    probabilities and expected counts for one day (``n_days`` is 1, shown as NA), its
    intervals are the values themselves, and ``omitted`` is the probability its cut left out;
    ``caused`` and ``lost`` are ``None`` when their distributions were not computed.
    """

    scenario: Scenario
    rules: Rules
    n_days: int
    seed: Any
    chunk_days: int
    seconds: float
    sequence: np.ndarray
    gauge_start: np.ndarray
    first: np.ndarray
    succ_t: np.ndarray
    drain_t: np.ndarray
    by_type: np.ndarray
    caused: np.ndarray | None
    end: np.ndarray
    lost: np.ndarray | None
    sums: np.ndarray
    lost_sum: np.ndarray
    method: str = "simulate"
    omitted: float = 0.0

    @property
    def exact(self) -> bool:
        """True for a result of the exact day (no sampling noise)."""
        return self.method == "exact"

    def _num(self, x: Any) -> Any:
        """A count as an int (simulated) or an expected count as a float (exact)."""
        return float(x) if self.exact else int(x)

    @property
    def n_rolls(self) -> int:
        """Rolls per day."""
        return int(self.sequence.size)

    @property
    def rolls_per_second(self) -> float:
        """The kernel's rate in this run (compilation included on a first call)."""
        return self.n_days * self.n_rolls / max(self.seconds, 1e-9)

    def _gauges(self) -> list[tuple[int, str, str]]:
        """``(index, character, gauge)`` of every PC gauge."""
        return [
            (4 * i + j, c.name, g)
            for i, c in enumerate(self.scenario.characters)
            if c.actor == "pc"
            for j, g in enumerate(GAUGES)
        ]

    def _stamp(self, df: pd.DataFrame) -> pd.DataFrame:
        df["n_days"] = pd.NA if self.exact else self.n_days
        df["seed"] = str(self.seed)
        df["method"] = self.method
        df["rules"] = self.rules.describe()
        df["scenario"] = self.scenario.name
        return df

    def _with_ci(self, df: pd.DataFrame, count: str, n: Any, level: float) -> pd.DataFrame:
        df["p"] = df[count] / n
        if self.exact:
            df["ci_low"] = df["ci_high"] = df["p"]
        else:
            df["ci_low"], df["ci_high"] = wilson_interval(df[count].to_numpy(), n, level)
        return df

    def to_frame(self, what: str = "gauges", *, level: float = 0.95) -> pd.DataFrame:
        """One of the tidy tables named in the class docstring."""
        tables = {
            "gauges": self._gauges_frame,
            "first_empty": self._first_frame,
            "empty": self._empty_frame,
            "success": self._success_frame,
            "roll_types": self._types_frame,
            "drain": self._drain_frame,
            "lost": self._lost_frame,
        }
        if what not in tables:
            raise ExplodiceError(
                f"`what` must be one of {list(tables)}, but {shown(what)} was passed."
            )
        if getattr(self, {"drain": "caused", "lost": "lost"}.get(what, "first")) is None:
            raise ExplodiceError(
                f"`what`: this exact day was computed without the {shown(what)} table (a "
                "distribution over days of a day's total: the running sum in the chain's "
                "state); ask exact_day(..., distributions=True) for it (`explodice day "
                "--exact --table drain`), or read its mean in the 'gauges' table."
            )
        return self._stamp(tables[what](level))

    def _first_frame(self, level: float) -> pd.DataFrame:
        rows = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            for i in np.flatnonzero(self.first[g]):
                rows.append(
                    {
                        "character": who,
                        "gauge": name,
                        "roll": pd.NA if i == T + 1 else int(i),
                        "never": bool(i == T + 1),
                        "count": self._num(self.first[g, i]),
                    }
                )
        df = pd.DataFrame(rows, columns=["character", "gauge", "roll", "never", "count"])
        df["roll"] = df["roll"].astype("Int64")
        return self._with_ci(df, "count", self.n_days, level)

    def _empty_frame(self, level: float) -> pd.DataFrame:
        frames = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            frames.append(
                pd.DataFrame(
                    {
                        "character": who,
                        "gauge": name,
                        "roll": np.arange(T + 1),
                        "count": np.cumsum(self.first[g, : T + 1]),
                    }
                )
            )
        frames = frames or [_no_rows("character", "gauge", "roll", "count")]  # an all-NPC party
        return self._with_ci(pd.concat(frames, ignore_index=True), "count", self.n_days, level)

    def _success_frame(self, level: float) -> pd.DataFrame:
        seq = self.sequence
        labels = [self.scenario.rolls[r].label if r >= 0 else "mix" for r in seq]
        df = pd.DataFrame(
            {
                "roll": np.arange(1, self.n_rolls + 1),
                "type": labels,
                "successes": self.succ_t,
                "drain_mean": self.drain_t / self.n_days,
            }
        )
        return self._with_ci(df, "successes", self.n_days, level)

    def _types_frame(self, level: float) -> pd.DataFrame:
        rows = []
        for r, day_roll in enumerate(self.scenario.rolls):
            for e, state in enumerate(("gauge not empty", "gauge empty")):
                n, succ, dsum, dsq = (self._num(x) for x in self.by_type[r, e])
                mean = dsum / n if n else np.nan
                var = dsq / n - mean * mean if n else np.nan
                rows.append(
                    {
                        "type": day_roll.label,
                        "gauge": day_roll.gauge,
                        "state": state,
                        "advantage": self.scenario.roll_of(r, gauge_empty=bool(e)).advantage,
                        "rolls": n,
                        "successes": succ,
                        "drain_mean": mean,
                        "drain_se": (0.0 if self.exact else math.sqrt(max(var, 0.0) / n))
                        if n
                        else np.nan,
                    }
                )
        df = pd.DataFrame(rows)
        n = df["rolls"].to_numpy()
        df["p"] = np.where(n > 0, df["successes"] / np.where(n > 0, n, 1), np.nan)
        lo, hi = zip(
            *(
                (s / m, s / m)
                if self.exact and m
                else wilson_interval(s, m, level)
                if m
                else (np.nan, np.nan)
                for s, m in zip(df["successes"], n)
            )
        )
        df["ci_low"], df["ci_high"] = lo, hi
        return df

    def _drain_frame(self, level: float) -> pd.DataFrame:
        frames = []
        for g, who, name in self._gauges():
            nz = np.flatnonzero(self.caused[g])
            frames.append(
                pd.DataFrame(
                    {"character": who, "gauge": name, "drain": nz, "count": self.caused[g, nz]}
                )
            )
        frames = frames or [_no_rows("character", "gauge", "drain", "count")]  # an all-NPC party
        df = self._with_ci(pd.concat(frames, ignore_index=True), "count", self.n_days, level)
        df["clamped"] = df["drain"] == self.caused.shape[1] - 1  # "this many or more"
        return df

    def _lost_frame(self, level: float) -> pd.DataFrame:
        rows = []
        for i, c in enumerate(self.scenario.characters):
            if c.actor != "pc":
                continue
            for b in np.flatnonzero(self.lost[i]):
                rows.append(
                    {
                        "character": c.name,
                        "lost": int(b),
                        "count": self._num(self.lost[i, b]),
                        "lost_mean": self.lost_sum[i] / self.n_days,
                        "clamped": bool(b == self.lost.shape[1] - 1),
                    }
                )
        df = pd.DataFrame(rows, columns=["character", "lost", "count", "lost_mean", "clamped"])
        return self._with_ci(df, "count", self.n_days, level)

    def _gauges_frame(self, level: float) -> pd.DataFrame:
        rows = []
        T = self.n_rolls
        for g, who, name in self._gauges():
            f = self.first[g]
            emptied = self._num(f[: T + 1].sum())
            idx = np.arange(T + 1)
            cdf = np.cumsum(f[: T + 1])
            lo, hi = (
                (emptied, emptied) if self.exact else wilson_interval(emptied, self.n_days, level)
            )
            rows.append(
                {
                    "character": who,
                    "gauge": name,
                    "start": int(self.gauge_start[g]),
                    "p_empty": emptied / self.n_days,
                    "ci_low": lo,
                    "ci_high": hi,
                    "first_empty_mean": (f[: T + 1] * idx).sum() / emptied if emptied else np.nan,
                    "first_empty_median": int(np.searchsorted(cdf, self.n_days / 2))
                    if emptied * 2 >= self.n_days
                    else pd.NA,
                    "caused_mean": self.sums[g, 0] / self.n_days,
                    "absorbed_mean": self.sums[g, 1] / self.n_days,
                    "end_mean": (self.end[g] * np.arange(self.end.shape[1])).sum() / self.n_days,
                    "lost_mean": self.lost_sum[g // 4] / self.n_days,
                    "policy": str(self.scenario.characters[g // 4].policy),
                }
            )
        return pd.DataFrame(rows, columns=_GAUGE_COLUMNS)  # the columns even with no gauge

    def __repr__(self) -> str:
        how = (
            f"exact, omitted={self.omitted:.1e}"
            if self.exact
            else f"n_days={self.n_days:,}, seed={self.seed}"
        )
        return f"DayResult({self.scenario.describe()}; {how}; {self.rules.describe()})"

    def _repr_html_(self) -> str:
        table = self.to_frame("gauges").drop(columns=["seed", "method", "rules", "scenario"])
        return (
            f"<div><b>{self!r}</b>"
            f"{table.to_html(index=False, float_format='%.4f', na_rep='—')}</div>"
        )


# -- the simple question --------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class EmptyTime:
    """Rolls until one gauge first reaches 0: ``pmf[t]`` = P(empty after roll t), t >= 1.

    ``p_beyond`` is the mass past the last roll tracked (``pmf.size - 1``); ``counts`` and
    ``n_days`` are set when simulated.
    """

    pmf: np.ndarray
    p_beyond: float
    roll: Roll
    gauge: int
    dc: int
    rules: Rules
    method: str
    n_days: int | None = None
    seed: Any = None
    counts: np.ndarray | None = None

    @property
    def mean(self) -> float:
        """E[rolls until the gauge is empty] (over the rolls tracked)."""
        return float((self.pmf * np.arange(self.pmf.size)).sum() / self.pmf.sum())

    def quantile(self, q: float) -> int:
        """The smallest t with P(empty by roll t) >= q."""
        if isinstance(q, bool) or not isinstance(q, (int, float, np.floating)) or not 0 <= q <= 1:
            raise ExplodiceError(f"`q` must be a probability in [0, 1], but {shown(q)} was passed.")
        cdf = np.cumsum(self.pmf)
        if cdf[-1] < q - 1e-12:
            raise ExplodiceError(
                f"`q` = {shown(q)} lies beyond the rolls computed: the gauge is empty by roll "
                f"{cdf.size - 1} with probability {cdf[-1]:.6g} (P(later) = {self.p_beyond:.3g})."
            )
        return int(np.searchsorted(cdf, q - 1e-12))

    @property
    def median(self) -> int:
        """The median number of rolls."""
        return self.quantile(0.5)

    def to_frame(self, *, level: float = 0.95) -> pd.DataFrame:
        """Tidy: one row per number of rolls, ``p``, ``cdf`` (and counts, CIs when simulated)."""
        t = np.flatnonzero(self.pmf)
        df = pd.DataFrame({"rolls": t, "p": self.pmf[t], "cdf": np.cumsum(self.pmf)[t]})
        if self.counts is not None:
            df["count"] = self.counts[t]
            df["ci_low"], df["ci_high"] = wilson_interval(
                df["count"].to_numpy(), self.n_days, level
            )
        for key, value in (
            ("gauge", self.gauge),
            ("roll_desc", self.roll.describe()),
            ("dc", self.dc),
            ("method", self.method),
            ("n_days", self.n_days),
            ("seed", str(self.seed)),
            ("rules", self.rules.describe()),
        ):
            df[key] = value
        return df

    def __repr__(self) -> str:
        how = self.method if self.n_days is None else f"{self.method}, n_days={self.n_days:,}"
        return (
            f"EmptyTime(gauge {self.gauge}, {self.roll.describe()}, DC {self.dc}; {how}; "
            f"mean={self.mean:.4f}, median={self.median}, p_beyond={self.p_beyond:.1e})"
        )

    def _repr_html_(self) -> str:
        return f"<div><b>{self!r}</b>{self.to_frame().head(40).to_html(index=False)}</div>"


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


_GAUGE_COLUMNS = [
    "character",
    "gauge",
    "start",
    "p_empty",
    "ci_low",
    "ci_high",
    "first_empty_mean",
    "first_empty_median",
    "caused_mean",
    "absorbed_mean",
    "end_mean",
    "lost_mean",
    "policy",
]


def _no_rows(*columns: str) -> pd.DataFrame:
    """A table with these integer columns and no row (a party without a PC drains nothing)."""
    return pd.DataFrame({c: np.zeros(0, dtype=np.int64) for c in columns})


def rolls_to_empty(
    modifier: int = 0,
    gauge: int = 20,
    dc: int = 16,
    *,
    policy: Policy | float = "keep",
    advantage: str = "normal",
    kind: str = "check",
    rules: Rules | None = None,
    method: str = "exact",
    n_days: int = 100_000,
    seed: int | np.random.SeedSequence | None = None,
    threads: int | None = None,
    progress: bool | None = None,
) -> EmptyTime:
    """After how many rolls does one gauge of ``gauge`` points first reach 0?

    One PC repeats one roll (``modifier``, ``dc``, ``advantage``, ``kind``) under ``policy``
    (``"keep"``, ``"cancel"``, a weight λ for ``Best(dc, λ)``, or a ``Best``).
    ``method="exact"`` sums the exact drain PMF (an absorbing chain: disadvantage at 0 cannot
    matter before the first passage); ``"simulate"`` runs :func:`simulate_day` (with
    ``progress``).

    >>> r = rolls_to_empty(modifier=2, gauge=20, dc=16)
    >>> round(r.mean, 2), r.median
    (11.22, 10)
    """
    rules = check_rules(rules)
    gauge = check_int("gauge", gauge, lo=1, hi=MAX_GAUGE)
    if isinstance(policy, (int, float)) and not isinstance(policy, bool):
        policy = Best(dc, policy)
    roll = Roll(modifier, advantage=advantage, kind=kind, policy=policy)
    if method not in ("exact", "simulate"):
        raise ExplodiceError(
            f"`method` must be one of ['exact', 'simulate'], but {shown(method)} was passed."
        )
    q = exact(roll, rules).drain_pmf
    if not roll.drains(rules):
        raise ExplodiceError(
            f"`kind` {shown(kind)} drains nothing under these rules "
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
    )
    what = {"skill": "Athletics"} if kind == "check" else {"ability": "STR"}  # STR: PA
    scenario = Scenario(
        [hero],
        [
            DayRoll(
                "pc",
                **what,
                kind=kind,
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
