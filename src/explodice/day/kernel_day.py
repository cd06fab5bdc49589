"""The day as the kernel reads it: a compiled day packed into the day kernel's flat arrays.

:func:`kernel_day` turns a :class:`~explodice.day.compiled.CompiledDay` (its rolls compiled by
:func:`explodice.engine.compiled.compile_roll`, the translation the single-roll kernel uses)
and an optional state-dependent policy into the day kernel's two records
(:class:`~explodice.day._kernel.DayTables`, :class:`~explodice.day._kernel.FaceTables`): the
roll types' and variants' fields (the ``T_*`` and ``V_*`` of :mod:`explodice.day._kernel`),
their throw tables, the sequence or the mix of roll types, the gauges' start, the policy's
choices and the lucky reroll's face tables. :func:`explodice.day.simulate.simulate_day` hands
them to :func:`explodice.day._kernel.day_chunk`.

>>> mix_lut(np.array([2, 3, 6])).tolist()   # weights 2, 1, 3: one entry per weight unit
[0, 0, 1, 2, 2, 2]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from explodice.day.compiled import CompiledDay, DayPolicy
from explodice.day.scenario import Scenario
from explodice.engine.compiled import throw_table
from explodice.game.rules import Roll, Rules

__all__ = ["kernel_day", "mix_lut"]

_MAX_FACES = 6**4
_WEIGHT_TOTAL = 1 << 30  # non-integer mix weights are rounded to this resolution


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


def kernel_day(day: CompiledDay, policy: DayPolicy | None = None) -> dict[str, Any]:
    """Pack a compiled day (and a state-dependent ``policy``: its choice tables become extra
    variants, looked up by roll and levels) into the day kernel's arrays: the keyword
    arguments of ``day_chunk`` but its stream, size and output, its two records ``day`` and
    ``faces``."""
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
    tables = k.DayTables(
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
    )
    lucky = k.FaceTables(
        n_faces=np.array([6**2, 6**3, 6**4], dtype=np.int64),
        face_n1=faces[0],
        face_n6=faces[1],
        face_s=faces[2],
        k_tables=np.ascontiguousarray(np.stack(k_tables)),
    )
    return {"day": tables, "faces": lucky}


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
