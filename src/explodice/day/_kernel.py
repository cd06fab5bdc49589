"""Numba kernel of the adventuring day: many days of rolls draining gauges. Arrays in and out.

The dice come from :mod:`explodice.engine._kernels`, the same code as the single-roll kernel, so a
day's roll cannot disagree with :func:`explodice.simulate`: each roll is read from its throw
table (:func:`explodice.engine.compiled.throw_table`, the policy's choice already made), its
drain and malus die from :data:`~explodice.engine._kernels.DRAIN_TABLE`; only the lucky reroll
(which comes between the throw and the choice, or after the choice under
``Rules.lucky_timing="after_choice"``) and a plain malus die (``Rules.malus_die="plain"``), which
the tables do not hold, go face by face through ``face_roll`` (the variant's flags in one
:class:`~explodice.engine.compiled.RollFlags`) and ``drain_of``.
:mod:`explodice.day.kernel_day` packs a compiled Scenario into the arrays below
(:func:`~explodice.day.kernel_day.kernel_day`); nothing here validates.

Roll types ``r`` have two *variants* ``2 r`` (its gauge has points) and ``2 r + 1`` (its gauge
is at 0: one more disadvantage source, netted in Python when the tables were built); a
state-dependent policy adds variants ``2 n_types + i``. Gauges are numbered ``4 c + j`` for
character ``c`` and gauge ``j`` in PA, PM, PF, PH; gauge ``n_g`` is a scratch gauge for the
rolls of NPCs, never empty. A mix draws two roll types per 64-bit output, read through
``mix_lut`` (type of each integer weight unit) when the weights total at most
:data:`MAX_LUT`, else by a search of the cumulative weights ``mix_cum``.

Written for speed (issue 13, part 3: from 47 to about 120 M rolls/s per core on the one-gauge
benchmark; ``benchmarks/README.md``). What a reader should know, each measured:

- **days in blocks, roll by roll.** A chunk's days are played :data:`BLOCK` at a time: roll
  ``t`` of every day of the block, then roll ``t + 1``. Days are independent, so no roll waits
  for the one before it; a roll type's fields, the two variants' tables and its counters are
  read once per roll ``t`` and kept in registers (:func:`_roll_block`, the fast path for a
  sequence; :func:`_roll_days` for a mix or a lucky reroll). The gauge state of a block
  (:func:`gauge_state`) is one flat array, day ``d`` in column ``d``;
- **one 64-bit output a roll, small tables.** Its three digits give the throw (a one-byte copy
  of 6**5-entry tables for 2 and 3 dice, :func:`byte_tables`), the drain and the malus die
  (:data:`DAY_DRAIN`, one byte an entry); what the tables leave open goes to
  :func:`_finish_roll`. Halving the tables' bytes gave 10-20 %: they share the L1 cache;
- **branches the CPU predicts.** The variant of a day's roll (gauge not empty or at 0) is an
  ``if``, each arm with its own constant fields and counters: faster than a select, though
  the days of a block mix full and empty gauges. A policy's choice is kept while the next
  day's is the same;
- **unsigned indices and no helper taking arrays.** numba tests every signed index for a
  negative value, and counted references to the arrays passed to an inlined helper on every
  call (4x slower): the loops are written out, with one array argument at most in the roll.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import int64, njit, uint64

from explodice.engine._kernels import (
    COMPLETE,
    DRAIN_TABLE,
    EXPLODE_DEPTH,
    digits_mixed3,
    drain_from,
    drain_of,
    drain_table,
    face_roll,
    finish_one,
    mixed_threshold,
    seed_state,
    uniform2,
)
from explodice.engine.compiled import RollFlags
from explodice.engine.numba_cache import prepare_cache

prepare_cache(__file__)  # before the first @njit(cache=True): see engine/numba_cache.py

N_GAUGES = 4  # per character
MAX_LUT = 1 << 16  # largest integer weight total read through a lookup table
NEVER = 1 << 40  # first empty roll of a gauge not yet at 0
BLOCK = 1024  # days played side by side, roll by roll
ROW = 6**6  # entries of a throw table for 4 dice
ROW5 = 6**5  # entries of a throw table for 2 or 3 dice
DRAIN_W = DRAIN_TABLE.shape[1]  # 6**5: the first faces of a drain or of the malus die
# DRAIN_TABLE in one byte an entry (the sum of five faces, at most 30, | dice still to roll
# << 5), with a row for every count of kept 1s a throw-table entry holds (0 to 7): half the
# cache lines, which the day's several throw tables need, and no test on the count
_DRAIN8 = drain_table(EXPLODE_DEPTH, 7)
DAY_DRAIN = ((_DRAIN8 & 0xFF) | (_DRAIN8 >> 8) << 5).astype(np.uint8)
OPEN8 = 31  # a throw-table entry's one-byte copy when it leaves dice to roll (byte_tables)
# one output gives the throw, drain and malus digits: the rejection thresholds by table size
THRESHOLD6 = mixed_threshold(ROW, DRAIN_W, DRAIN_W)
THRESHOLD5 = mixed_threshold(ROW5, DRAIN_W, DRAIN_W)

# the fields of a roll type in ``types`` (TYPE_FIELDS int64 each)
# T_FACE: the type goes face by face (Lucky at either timing, or a plain malus die)
T_GAUGE, T_CHECK, T_DRAINS, T_NEED, T_LUCKY, T_POLICY, T_OWNER, T_FACE = range(8)
TYPE_FIELDS = 8
# the fields of a variant in ``variants`` (VAR_FIELDS int64 each)
# V_BIG: a table of 6**6; V_PLAIN: the malus die is a plain d6; V_AFTER: Lucky after the choice
V_ROW, V_MALUS, V_EXPL, V_POOL, V_RULE, V_BIG, V_PLAIN, V_AFTER = range(8)
VAR_FIELDS = 8
# a state-dependent policy's choice in ``policy_pack``: its variant's row, malus,
# explosion-1s and table-size flags and number, packed (simulate._pack)
P_ROW = (1 << 40) - 1
P_MALUS, P_EXPL, P_BIG, P_VARIANT = 40, 41, 42, 43
# the counters of roll type r, gauge not empty (e = 0) or at 0 (e = 1), at 8 r + 4 e: rolls,
# successes, drain, squared drain
H_ALL, H_OK, H_DRAIN, H_DRAIN2 = 0, 1, 2, 3


class DayTables(NamedTuple):
    """A day as :func:`day_chunk` reads it (built by
    :func:`explodice.day.kernel_day.kernel_day`): the fields of the roll types and of their
    variants (``T_*``, ``V_*``), their throw tables (flat: a variant's row starts at its
    ``V_ROW``, :func:`byte_tables`), the sequence of roll
    types (``-1``: drawn from the mix, ``mix_cum``, through ``mix_lut`` when it is not empty),
    the gauges' start, the overflow rule (:data:`OVERFLOW_MODES`) and a state-dependent
    policy's choices: roll type ``r`` with ``T_POLICY`` plays, at roll ``t``, the variant packed
    in ``policy_pack[(t n_types + r) n_states + i]``, ``i`` the flat index of its character's
    levels by ``c_strides[4 c + j]``."""

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


class FaceTables(NamedTuple):
    """What the lucky reroll's face-by-face path reads (``face_roll``): each pool's throws
    (``n_faces``, their 1s, 6s and other faces' sum) and each variant's choice table."""

    n_faces: np.ndarray
    face_n1: np.ndarray
    face_n6: np.ndarray
    face_s: np.ndarray
    k_tables: np.ndarray


@njit(cache=True)
def _take(gs, n, width, g, d, amount, t):
    """Remove up to ``amount`` points from gauge ``g`` of day ``d`` (and from its owner's points
    left); returns what it could not absorb. ``gs`` is a block's gauge state
    (:func:`gauge_state`: ``n`` gauges a section, ``width`` days).

    The first empty roll of ``g`` becomes ``t`` if the gauge is now at 0 and was not before
    (a branch taken once a day at most: the CPU predicts it). Whether a roll drains is a coin
    toss, so the rest has no branch.
    """
    i = g * width + d
    level = gs[i]
    got = min(amount, level)
    gs[i] = level - got
    gs[(3 * n + (g >> 2)) * width + d] -= got
    if got > 0 and got == level:
        gs[(n + g) * width + d] = t
    return amount - got


@njit(cache=True)
def pour_fullest(gs, n, width, g, d, excess, t):
    """Pour ``excess`` into the owner's fullest non-empty gauges of day ``d`` (ties: lowest
    index)."""
    c0 = (g >> 2) * N_GAUGES
    while excess > 0:
        h = -1
        for j in range(c0, c0 + N_GAUGES):
            if gs[j * width + d] > 0 and (h < 0 or gs[j * width + d] > gs[h * width + d]):
                h = j
        if h < 0:
            break
        excess = _take(gs, n, width, h, d, excess, t)
    return excess


#: The overflow rules this kernel plays (``Rules.overflow`` -> ``day_chunk``'s ``overflow``):
#: the excess past an empty gauge is lost, poured by :func:`pour_fullest` (``"best"`` too:
#: without the optimal player's choice, the fullest), or goes to one named gauge (mode
#: ``2 + j``, gauge ``j`` of PA, PM, PF, PH). A new rule is one more number here and one
#: more branch of :func:`pour_excess`.
OVERFLOW_MODES = {"lost": 0, "fullest": 1, "best": 1, "PA": 2, "PM": 3, "PF": 4, "PH": 5}


@njit(cache=True)
def pour_excess(mode, gs, n, width, g, d, excess, t):
    """Where ``excess`` past gauge ``g`` of day ``d`` goes under the overflow rule ``mode``
    (:data:`OVERFLOW_MODES`); returns what no gauge absorbed."""
    if mode == 1:
        return pour_fullest(gs, n, width, g, d, excess, t)
    if mode >= 2:  # one named gauge of the owner's, unless it is g itself
        j = (g >> 2) * N_GAUGES + mode - 2
        if j != g:
            return _take(gs, n, width, j, d, excess, t)
    return excess


@njit(cache=True)
def gauge_state(n_g, width):
    """``(n, gs)``: the gauge state of a block of ``width`` days with ``n_g`` gauges each, in
    four sections of ``n = n_g + 1`` rows of ``width`` (the last gauge, ``n_g``, is the
    scratch gauge of NPCs' rolls): levels (row ``g``), first empty roll (row ``n + g``), drain
    caused (``2 n + g``) and points left by character (``3 n + c``); day ``d`` is column ``d``
    of each row. ``gauge_state(4, 256)`` is ``(5, zeros(5120))``.
    """
    n = n_g + 1
    return n, np.zeros(4 * n * width, dtype=np.int64)


@njit(inline="always", cache=True)
def _pick(u, mix_lut, mix_cum):
    """The roll type of weight unit ``u``."""
    if mix_lut.size > 0:
        return int64(mix_lut[u])
    r = 0
    while mix_cum[r] <= u:
        r += 1
    return r


@njit(inline="always", cache=True)
def _table_roll(st, tables, row, big, malus, expl, drains):
    """One roll from its throw table (at offset ``row`` in the flat tables; 6**6 entries if
    ``big``, else 6**5) and its drain: ``(dice total, drain, st)``.

    One 64-bit output gives three digits (:func:`digits_mixed3`): the table entry, the first
    faces of the drain and those of the malus die, both read through :data:`DAY_DRAIN`
    (its row 0 is all zeros, so a roll that does not drain, or has no malus die, reads 0
    there without a branch). ``tables`` (:func:`byte_tables`) holds each entry in one byte,
    then the int16 entries as pairs of bytes: the rare rolls the first leaves open (dice
    still exploding, a total past 30) and those whose drain or malus die goes past five 6s
    are finished by :func:`_finish_roll` from the int16 entry. (One array, not two: numba
    counted references to a second array on every roll.)
    """
    n = ROW if big else ROW5
    threshold = THRESHOLD6 if big else THRESHOLD5
    u, wd, wm, st = digits_mixed3(uint64(n), uint64(DRAIN_W), uint64(DRAIN_W), threshold, st)
    at = uint64(row) + u  # unsigned indices: no test for a negative index
    x = int64(tables[at])
    ones = x >> 5
    m = int64(DAY_DRAIN[uint64(malus), wm])
    drain = int64(DAY_DRAIN[uint64(ones * drains), wd])
    if x == OPEN8 or (m | drain) >= 32:  # one test for the rare cases
        wide = uint64(tables.size // 3) + (at << uint64(1))  # the int16 entry, little-endian
        e = int64(tables[wide]) | int64(tables[wide + uint64(1)]) << 8
        return _finish_roll(st, e, wd, wm, malus, expl, drains)
    return (x & 0x1F) - m, drain, st


def byte_tables(flat: np.ndarray) -> np.ndarray:
    """The throw tables as :func:`_table_roll` reads them: each entry in one byte,
    ``total | kept 1s << 5``, or :data:`OPEN8` for an entry with dice still to roll or a total
    past 30 (six faces of a 6**6 table can reach 36); then the int16 entries, little-endian.

    >>> t = byte_tables(np.array([3 | 2 << 8, 2048], dtype=np.int16))
    >>> t.tolist()[:2] == [3 | 2 << 5, OPEN8], t.size
    (True, 6)
    """
    e = flat.astype(np.int64)
    total, ones = e & 0xFF, (e >> 8) & 0x7
    small = (e < COMPLETE) & (total < OPEN8)
    one_byte = np.where(small, total | ones << 5, OPEN8).astype(np.uint8)
    return np.concatenate([one_byte, flat.astype("<i2").view(np.uint8)])


@njit(cache=True)
def _finish_roll(st, e, wd, wm, malus, expl, drains):
    """:func:`_table_roll` for an entry or digits the tables leave open (under 1 % of rolls):
    the same law, rolled with the general helpers from its int16 entry ``e``."""
    total, ones, st = finish_one(e, st, False, expl)
    m, st = drain_from(DRAIN_TABLE[malus, wm], st)
    ones_d = ones * drains
    if ones_d < DRAIN_TABLE.shape[0]:
        drain, st = drain_from(DRAIN_TABLE[ones_d, wd], st)
    else:  # more kept 1s than the table's rows (explosions ending on 1s): one die each
        drain, st = drain_of(ones_d, st)
    return total - m, drain, st


@njit(cache=True)
def _roll_block(st, m, t, r, gs, n, day, hot, start):
    """:func:`_roll_days` for roll type ``r`` on every day of the block, without the lucky
    reroll: the fast path (a sequence scenario). The type's fields are read once, its two
    variants' fields chosen by a select, its counters kept in registers; indices are cast to
    unsigned, which spares numba's test for a negative index on every access."""
    types, variants, throws, policy_pack = day.types, day.variants, day.throws, day.policy_pack
    c_strides, n_states, overflow = day.c_strides, day.n_states, day.overflow
    n_types = types.size // TYPE_FIELDS
    b = r * TYPE_FIELDS
    g = types[b + T_GAUGE]
    h = types[b + T_CHECK]
    need = types[b + T_NEED]
    drains = types[b + T_DRAINS]
    policy = types[b + T_POLICY]
    c = types[b + T_OWNER]
    v0 = 2 * r * VAR_FIELDS
    v1 = v0 + VAR_FIELDS
    row0, row1 = variants[v0 + V_ROW], variants[v1 + V_ROW]
    big0, big1 = variants[v0 + V_BIG], variants[v1 + V_BIG]
    mal0, mal1 = variants[v0 + V_MALUS], variants[v1 + V_MALUS]
    exp0, exp1 = variants[v0 + V_EXPL], variants[v1 + V_EXPL]
    same = big0 == big1  # a policy's variants have their base's pool: then one size for all
    i_level = uint64(g * BLOCK)
    i_check = uint64(h * BLOCK)
    i_caused = uint64((2 * n + g) * BLOCK)
    i_first = uint64((n + g) * BLOCK)
    i_left = uint64((3 * n + (g >> 2)) * BLOCK)
    i_own = uint64(N_GAUGES * c * BLOCK)
    i_policy = (t * n_types + r) * n_states
    s0, s1, s2, s3 = c_strides[N_GAUGES * c : N_GAUGES * c + N_GAUGES]
    rest = policy and c < n // N_GAUGES and start[N_GAUGES * c + 1 : N_GAUGES * c + 4].sum() > 0
    # the overflow can only go somewhere if another of the owner's gauges starts with points
    # (levels only fall during a day); else the points left need no keeping
    others = 0
    if g < n - 1:  # not the scratch gauge of NPCs' rolls
        for j in range(N_GAUGES * (g >> 2), N_GAUGES * (g >> 2) + N_GAUGES):
            if j != g:
                others += start[j]
    pour = overflow != 0 and others > 0
    n1 = ok0 = ok1 = dr0 = dr1 = dd0 = dd1 = 0
    x_last = -1  # the last policy choice read (-1: none yet)
    row, big, malus, expl = row0, big0, mal0, exp0
    for d in range(m):
        ud = uint64(d)
        empty = gs[i_check + ud] <= 0
        if policy:  # the choice for the owner's levels (flat index by the strides)
            i = gs[i_own + ud] * s0
            if rest:  # a gauge that starts at 0 stays there: its term is 0
                i += (
                    gs[i_own + uint64(BLOCK) + ud] * s1
                    + gs[i_own + uint64(2 * BLOCK) + ud] * s2
                    + gs[i_own + uint64(3 * BLOCK) + ud] * s3
                )
            x = policy_pack[uint64(i_policy + i)]  # the chosen variant's fields, packed
            if x != x_last:  # a branch: the last day's choice is often this day's too
                x_last = x
                row, malus, expl = x & P_ROW, (x >> P_MALUS) & 1, (x >> P_EXPL) & 1
                big = (x >> P_BIG) & 1
            if same:  # every variant's table has the size of variant 0's: a constant
                total, drain, st = _table_roll(st, throws, row, big0, malus, expl, drains)
            else:
                total, drain, st = _table_roll(st, throws, row, big, malus, expl, drains)
        elif empty:  # each variant in its own arm: its fields and counters stay in registers
            total, drain, st = _table_roll(st, throws, row1, big1, mal1, exp1, drains)
        else:
            total, drain, st = _table_roll(st, throws, row0, big0, mal0, exp0, drains)
        ok = 1 if total >= need else 0
        if empty:  # the CPU predicts it: a gauge stays full, then empty
            n1 += 1
            ok1 += ok
            dr1 += drain
            dd1 += drain * drain
        else:
            ok0 += ok
            dr0 += drain
            dd0 += drain * drain
        # the drain dealt to gauge g: caused, then taken as _take does
        gs[i_caused + ud] += drain
        level = gs[i_level + ud]
        got = min(drain, level)
        gs[i_level + ud] = level - got
        if got > 0 and got == level:
            gs[i_first + ud] = t + 1
        if pour:  # the owner's points left, and the overflow into its other gauges
            left = gs[i_left + ud] - got
            gs[i_left + ud] = left
            # tested in this order, the branch is predictable until some gauge is at 0
            if left > 0 and drain > got:
                pour_excess(overflow, gs, n, BLOCK, g, d, drain - got, t + 1)
    q = 8 * r
    hot[q + H_ALL] += m - n1
    hot[q + H_OK] += ok0
    hot[q + H_DRAIN] += dr0
    hot[q + H_DRAIN2] += dd0
    hot[q + 4 + H_ALL] += n1
    hot[q + 4 + H_OK] += ok1
    hot[q + 4 + H_DRAIN] += dr1
    hot[q + 4 + H_DRAIN2] += dd1
    return ok0 + ok1, dr0 + dr1, st


@njit(cache=True)
def _roll_days(st, m, t, r0, gs, n, day, faces, hot, rt):
    """Roll ``t`` of a block's ``m`` days: roll type ``r0``, or for a mix (``r0 < 0``) each
    day's own draw. Returns ``(successes, summed drain, st)`` and counts by roll type in
    ``hot``. Written out in one function: numba counts references to the arrays an inlined
    helper takes, on every call, which made this loop 4x slower."""
    types, variants, throws, policy_pack = day.types, day.variants, day.throws, day.policy_pack
    c_strides, n_states, overflow = day.c_strides, day.n_states, day.overflow
    mix_cum, mix_lut = day.mix_cum, day.mix_lut
    n_faces, face_n1, face_n6, face_s, k_tables = faces
    n_types = types.size // TYPE_FIELDS
    if r0 < 0:  # drawn from the mix by integer weight, two per 64-bit output
        w_total = mix_cum[-1]
        for d in range(0, m, 2):
            u1, u2, st = uniform2(w_total, w_total, st)
            rt[d] = _pick(u1, mix_lut, mix_cum)
            if d + 1 < m:
                rt[d + 1] = _pick(u2, mix_lut, mix_cum)
    ok_t = 0
    drain_t = 0
    for d in range(m):
        ud = uint64(d)  # unsigned indices: no test for a negative index
        r = r0 if r0 >= 0 else rt[ud]
        b = uint64(r * TYPE_FIELDS)
        g = types[b + uint64(T_GAUGE)]  # the gauge drained (rules.drain_gauge) ...
        h = types[b + uint64(T_CHECK)]  # ... and the one whose 0 gives disadvantage
        # the variant: gauge not empty or at 0, or a state-dependent policy's choice
        empty = 1 if gs[uint64(h * BLOCK) + ud] <= 0 else 0
        v = 2 * r + empty
        if types[b + uint64(T_POLICY)]:
            c = types[b + uint64(T_OWNER)]
            i = 0
            for j in range(N_GAUGES):
                i += gs[(N_GAUGES * c + j) * BLOCK + d] * c_strides[N_GAUGES * c + j]
            v = policy_pack[(t * n_types + r) * n_states + i] >> P_VARIANT
        v *= VAR_FIELDS
        drains = types[b + uint64(T_DRAINS)]
        if types[b + uint64(T_FACE)]:  # Lucky's reroll or a plain malus die: face by face
            p = variants[v + V_POOL]
            flags = RollFlags(
                variants[v + V_MALUS] != 0,
                variants[v + V_PLAIN] != 0,
                types[b + uint64(T_LUCKY)] != 0,
                variants[v + V_AFTER] != 0,
                variants[v + V_RULE] != 0,
                drains != 0,
                variants[v + V_EXPL] != 0,
            )
            k_table = k_tables[v // VAR_FIELDS]
            total, ones, st = face_roll(
                st, n_faces[p], face_n1[p], face_n6[p], face_s[p], k_table, flags
            )
            drain = 0
            if drains:
                drain, st = drain_of(ones, st)
        else:
            total, drain, st = _table_roll(
                st,
                throws,
                variants[v + V_ROW],
                variants[v + V_BIG],
                variants[v + V_MALUS],
                variants[v + V_EXPL],
                drains,
            )
        ok = 1 if total >= types[b + uint64(T_NEED)] else 0
        ok_t += ok
        drain_t += drain
        q = uint64(8 * r + 4 * empty)
        hot[q + uint64(H_ALL)] += 1
        hot[q + uint64(H_OK)] += ok
        hot[q + uint64(H_DRAIN)] += drain
        hot[q + uint64(H_DRAIN2)] += drain * drain
        # the drain dealt to gauge g: caused, then taken as _take does
        gs[uint64((2 * n + g) * BLOCK) + ud] += drain
        k = uint64(g * BLOCK) + ud
        level = gs[k]
        got = min(drain, level)
        gs[k] = level - got
        p_left = uint64((3 * n + (g >> 2)) * BLOCK) + ud
        gs[p_left] -= got
        if got > 0 and got == level:
            gs[uint64((n + g) * BLOCK) + ud] = t + 1
        # tested in this order, the branch is predictable until some gauge is at 0
        if gs[p_left] > 0 and drain > got and overflow != 0:
            pour_excess(overflow, gs, n, BLOCK, g, d, drain - got, t + 1)
    return ok_t, drain_t, st


@njit(cache=True, nogil=True)
def day_chunk(seed_row, size, out, day, faces):
    """Run ``size`` days of ``day`` (:class:`DayTables`) on the stream ``seed_row``
    (uint64[4]), adding into ``out`` (one lane's accumulators, see :func:`accumulators`).
    Releases the GIL: lanes run on Python threads. ``faces`` (:class:`FaceTables`) serve the
    lucky reroll's face-by-face path only. Returns nothing: the counts are added into
    ``out``."""
    types, sequence, gauge_start = day.types, day.sequence, day.gauge_start
    st = seed_state(seed_row)
    first_h, roll_h, type_h, caused_h, end_h, lost_h, sums_h, lost_sum_h = out
    n_rolls = sequence.size
    n_types = types.size // TYPE_FIELDS
    n_g = gauge_start.size
    n_c = n_g // N_GAUGES
    n_bins = caused_h.shape[1]
    B = BLOCK
    n, gs = gauge_state(n_g, B)
    rt = np.zeros(B, dtype=np.int64)  # each day's roll type at this roll (a mix)
    hot = np.zeros(8 * n_types, dtype=np.int64)  # by roll type: [4 e + field], H_*
    start = np.zeros(4 * n, dtype=np.int64)  # each row of gs at the start of a day
    for g in range(n_g):
        start[g] = gauge_start[g]
        start[n + g] = 0 if gauge_start[g] == 0 else NEVER
        start[3 * n + g // N_GAUGES] += gauge_start[g]
    start[n_g] = 1 << 62  # the scratch gauge and its owner: never empty
    start[2 * n - 1] = NEVER
    start[3 * n + n_c] = 1 << 62
    done = 0
    while done < size:
        m = min(B, size - done)
        for row in range(4 * n):
            x = start[row]
            for d in range(m):
                gs[row * B + d] = x
        for t in range(n_rolls):
            r = sequence[t]
            if r >= 0 and not types[r * TYPE_FIELDS + T_FACE]:  # one roll type for all days
                ok_t, drain_t, st = _roll_block(st, m, t, r, gs, n, day, hot, start)
            else:  # a mix, or a roll face by face: day by day
                ok_t, drain_t, st = _roll_days(st, m, t, r, gs, n, day, faces, hot, rt)
            roll_h[t, 0] += ok_t
            roll_h[t, 1] += drain_t
        for g in range(n_g):
            for d in range(m):
                level = gs[g * B + d]
                caused = gs[(2 * n + g) * B + d]
                first_h[g, min(gs[(n + g) * B + d], n_rolls + 1)] += 1
                caused_h[g, min(caused, n_bins - 1)] += 1
                end_h[g, level] += 1
                sums_h[g, 0] += caused
                sums_h[g, 1] += gauge_start[g] - level
        for c in range(n_c):  # what c's gauges were dealt and did not absorb was lost
            for d in range(m):
                lost = 0
                for g in range(N_GAUGES * c, N_GAUGES * c + N_GAUGES):
                    lost += gs[(2 * n + g) * B + d] - gauge_start[g] + gs[g * B + d]
                lost_h[c, min(lost, n_bins - 1)] += 1
                lost_sum_h[c] += lost
        done += m
    for r in range(n_types):
        for e in range(2):
            for k in range(4):
                type_h[r, e, k] += hot[8 * r + 4 * e + k]


def accumulators(n_g: int, n_rolls: int, n_types: int, n_bins: int, top: int) -> tuple:
    """One lane's zeroed accumulators for :func:`day_chunk`; lanes are added at the end.

    - ``first[g, i]``: days where gauge ``g`` first reached 0 after roll ``i`` (0: at the start;
      ``T + 1``: never);
    - ``per_roll[t, 0..1]``: successes and summed drain of roll ``t``;
    - ``by_type[r, e, 0..3]``: rolls, successes, summed drain, summed squared drain of roll
      type ``r`` with its gauge non-empty (``e = 0``) or empty (``e = 1``);
    - ``caused[g, b]``: days by drain caused on gauge ``g`` (clamped to ``n_bins - 1``);
    - ``end[g, level]``: days by the gauge's level at the end of the day (``top`` its maximum);
    - ``lost[c, b]``: days by points lost by character ``c`` (clamped);
    - ``sums[g, 0..1]``: exact totals of points caused and absorbed by gauge ``g``;
      ``lost_sum[c]``: exact total of points character ``c`` lost.
    """
    n_c = n_g // N_GAUGES
    shapes = [
        (n_g, n_rolls + 2),
        (n_rolls, 2),
        (n_types, 2, 4),
        (n_g, n_bins),
        (n_g, top + 1),
        (n_c, n_bins),
        (n_g, 2),
        (n_c,),
    ]
    return tuple(np.zeros(shape, dtype=np.int64) for shape in shapes)
