"""The adventuring day, exactly: a Markov chain on each character's gauge levels.

Characters do not interact (overflow stays within a character, NPCs drain nothing), so each
PC's day is a chain on the levels of its four gauges (:class:`~explodice.day.chain.LevelChain`),
carried roll by roll; a roll of gauge ``g`` moves mass along ``g``'s axis by the roll's drain
law, the law of the roll at disadvantage where its hindering gauge is at 0, and pours an excess
past 0 as ``rules.overflow`` says. In a mix each roll is every roll type at once, weighted by
its share; the other characters' types leave the array as it is. The day's facts and the
rolls' laws come compiled (:func:`~explodice.day.compiled.compile_day`), the chain's moves
from :mod:`explodice.day.chain` (how they are played, and what they cost, is said there).
A PC's day under its own policy is played once for every day that reads the same facts of
it (its gauges, its rolls' laws and shares, the overflow): the readings table and the
optimal player's comparison play many days that differ in one character, or none.

The roll's laws come from :mod:`explodice.day.rolls` (explosions followed to 40 per die, the
excess of a drain past every point a character has lumped with its exact mean for the points
lost), so nothing is cut but what that module leaves out; :attr:`DayResult.omitted` reports
the mass missing at the end of the day.

The result is a :class:`~explodice.day.results.DayResult` with ``method="exact"``: its arrays
hold probabilities and expected counts for one day (``n_days`` is 1), so its tables read like
a simulation's with no sampling noise (``ci_low == ci_high == p``). Two tables, ``"drain"``
and ``"lost"`` (the distributions over days of a day's total drain caused and points lost),
need that running sum in the chain's state: ``distributions=True`` asks for them
(:class:`~explodice.day.chain.SumChain`, one more pass of the day per table row); without it
their means are in ``"gauges"``.

>>> from explodice import Character, DayRoll, Scenario
>>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
...                  gauge_max={"PA": 1, "PM": 0, "PF": 0, "PH": 0})
>>> day = exact_day(Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=12, repeat=2)]))
>>> round(float(day.first[0, 1]) * 216, 9)   # a gauge of 1 empties at the first 1: 91/216
91.0
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, shown
from explodice.core.words import Phrase
from explodice.day import results as day_results
from explodice.day.chain import (
    SPLIT_STATES,
    STATE_LIMIT,
    LevelChain,
    SumChain,
    check_states,
    run_parts,
)
from explodice.day.compiled import (
    CompiledCharacter,
    CompiledDay,
    DayPolicy,
    check_day_policy,
    compile_day,
    optimal_unsupported,
)
from explodice.day.results import DayResult
from explodice.day.rolls import DrainLaw
from explodice.day.scenario import Scenario
from explodice.engine.chunks import resolve_threads
from explodice.game.rules import Rules

__all__ = [
    "STATE_LIMIT",
    "SUM_TAIL",
    "SUM_WORK_LIMIT",
    "RollStep",
    "Tally",
    "check_sums",
    "exact_day",
    "optimal_unsupported",
]

# a bound on states x sums x drain entries x rolls of one pass with a running sum in the state;
# the pass skips what is 0 and lumps the drains past the sums, so it runs well below it (the
# example day, 8.5e10, takes about 1.2 s a pass on the 2-core machine)
SUM_WORK_LIMIT = 200_000_000_000
SUM_TAIL = 1e-15  # the running sums stop where a bound on the rest is below this


@dataclass(frozen=True)
class RollStep:
    """One roll type's part of one roll: roll ``t``, type ``r`` (draining gauge ``drained``,
    at disadvantage while ``hindering`` is at 0), taken with probability ``share``."""

    t: int
    r: int
    drained: int
    hindering: int
    share: float


@dataclass(eq=False)
class Tally:
    """Where one pass over a character's day adds its tables (views of the result's)."""

    by_type: np.ndarray
    succ_t: np.ndarray
    drain_t: np.ndarray
    first: np.ndarray
    lost: float = 0.0
    #: where the additions to ``succ_t`` and ``drain_t`` are also written, ``(t, success,
    #: drain)`` in their order (None: nowhere), to add them again into another result
    log: list[tuple[int, float, float]] | None = None

    def account(self, step: RollStep, moments: Any, p_full: float, p_empty: float) -> None:
        """Success and drain of ``step``'s roll type with its hindering gauge above 0 with
        probability ``p_full``, at 0 with ``p_empty``: ``moments(e)`` gives variant ``e``'s
        ``(P(success), E[drain], E[drain^2])``."""
        for e, pe in ((0, p_full), (1, p_empty)):
            ps, m1, m2 = moments(e)
            mass = step.share * pe
            self.by_type[step.r, e] += (mass, mass * ps, mass * m1, mass * m2)
            success, drain = mass * ps, mass * m1
            self.succ_t[step.t] += success
            self.drain_t[step.t] += drain
            if self.log is not None:
                self.log.append((step.t, success, drain))

    @staticmethod
    def scratch(n_types: int, n_rolls: int) -> Tally:
        """A tally whose tables nobody reads (a pass for the running sums)."""
        return Tally(
            np.zeros((n_types, 2, 4)), np.zeros(n_rolls), np.zeros(n_rolls),
            np.zeros((4, n_rolls + 2)),
        )  # fmt: skip


@dataclass(eq=False)
class _Result:
    """The arrays of the exact day's :class:`DayResult`, filled character by character."""

    day: CompiledDay
    first: np.ndarray = field(init=False)
    succ_t: np.ndarray = field(init=False)
    drain_t: np.ndarray = field(init=False)
    by_type: np.ndarray = field(init=False)
    end: np.ndarray = field(init=False)
    sums: np.ndarray = field(init=False)
    lost_sum: np.ndarray = field(init=False)
    caused: np.ndarray | None = None
    lost: np.ndarray | None = None
    omitted: float = 0.0

    def __post_init__(self) -> None:
        d, T = self.day, self.day.n_rolls
        n_g = d.gauge_start.size
        self.first = np.zeros((n_g, T + 2))
        self.succ_t, self.drain_t = np.zeros(T), np.zeros(T)
        self.by_type = np.zeros((len(d.roll_types), 2, 4))
        self.end = np.zeros((n_g, int(d.gauge_start.max(initial=0)) + 1))
        self.sums = np.zeros((n_g, 2))
        self.lost_sum = np.zeros(len(d.characters))

    def tally(self, c: int) -> Tally:
        return Tally(self.by_type, self.succ_t, self.drain_t, self.first[4 * c : 4 * c + 4])

    def result(self, seconds: float) -> DayResult:
        d = self.day
        for rt in d.roll_types:
            if rt.pc:
                self.sums[4 * rt.owner + rt.drained, 0] += self.by_type[rt.index, :, 2].sum()
        return DayResult(
            scenario=d.scenario, rules=d.rules, n_days=1, seed=None, chunk_days=0,
            seconds=seconds, sequence=np.array(d.sequence), gauge_start=np.array(d.gauge_start),
            first=self.first, succ_t=self.succ_t, drain_t=self.drain_t, by_type=self.by_type,
            caused=self.caused, end=self.end, lost=self.lost, sums=self.sums,
            lost_sum=self.lost_sum, method="exact", omitted=self.omitted,
        )  # fmt: skip


# -- the day ------------------------------------------------------------------------------------
def exact_day(
    scenario: Scenario,
    rules: Rules | None = None,
    *,
    policy: DayPolicy | None = None,
    distributions: bool = False,
    threads: int | None = None,
) -> DayResult:
    """The exact day of ``scenario`` under ``rules``, as a DayResult with ``method="exact"``.

    Each character plays its own policy, unless ``policy`` (a
    :class:`~explodice.OptimalPolicy` of this scenario) decides for the characters it covers.
    A character with ``Reroll("failure", per_day=N)`` carries the count of rerolls it still
    holds in the chain's state (one spent on each failed roll while any is left).

    ``distributions=True`` adds the ``"drain"`` and ``"lost"`` tables (the distribution of a
    day's drain caused per gauge and of the points lost per character; the last value means
    "that many or more", as :func:`simulate_day`'s, but stands where a bound on the day's
    drain leaves less than :data:`SUM_TAIL`, at most at simulate_day's): the day is played
    again with that running sum in the state, once per gauge a roll drains and once for the
    points lost, so it costs a few hundred times the day (refused beyond
    :data:`SUM_WORK_LIMIT`).

    ``threads``: 2 play a roll's groups of roll types (those that drain and are hindered by
    the same gauges) in two lanes at once, a roll of one group of a large chain in two halves
    (default: one per core, at most 2); lanes and halves are fixed by the scenario, so the
    numbers are the same for any count.

    >>> from explodice import Character, DayRoll, Scenario
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
    >>> s = Scenario([hero], [DayRoll("Hero", ability="STR", dc=12, repeat=10)])
    >>> r = exact_day(s)
    >>> r.method, r.n_rolls, round(float(r.first[0].sum()), 12)
    ('exact', 10, 1.0)
    """
    day = compile_day(scenario, rules)
    if not isinstance(distributions, bool):
        raise ExplodiceTypeError(
            Phrase(
                "`distributions` must be True or False, but {distributions} was passed.",
                distributions=shown(distributions),
            )
        )
    policy = check_day_policy(policy, day)
    n_threads = resolve_threads(threads)
    began = time.perf_counter()
    deciders = policy.deciders(day) if policy is not None else {}
    res = _Result(day)
    n_bins = 0
    if distributions:
        n_bins = _sum_bins(day, day_results.histogram_bins(scenario), keep_all=policy is not None)
        check_sums(day, n_bins)
        n_g = day.gauge_start.size
        res.caused = np.zeros((n_g, n_bins))  # a gauge no roll drains, an NPC: 0 every day
        res.lost = np.zeros((len(day.characters), n_bins))
        res.caused[:, 0] = res.lost[:, 0] = 1.0
    for ch in day.characters:
        if not ch.plays:  # no gauges, or no rolls: no level moves
            _idle(day, ch, res)
            continue
        check_states(ch.name, ch.start, ch.slots)
        if ch.name in deciders:
            chain = LevelChain(ch.start, day.overflow, n_threads)
            tally = res.tally(ch.index)
            P = _play(day, ch, chain, deciders[ch.name], tally)
            res.lost_sum[ch.index] += tally.lost
            res.omitted += max(0.0, 1.0 - float(P.sum()))
            _ends(res, ch, chain.marginals(P))
        else:  # its own policy: its day is played once for every day that reads the same
            _played(day, ch, n_threads).add_to(res, ch)
        if distributions:
            _distributions(day, ch, deciders.get(ch.name), res, n_bins)
    return res.result(time.perf_counter() - began)


# -- a character's day under its own policy, played once ------------------------------------------
@dataclass(frozen=True, eq=False)
class _Played:
    """What one PC's day under its own policy adds to a :class:`_Result`: its roll types'
    rows of ``by_type`` (in ``roll_types``' order), the additions to ``succ_t`` and
    ``drain_t`` in their order, its gauges' rows of ``first``, the points it lost, the mass
    its chain left out and the end-of-day levels (``chain.marginals``)."""

    rows: np.ndarray
    log: tuple[tuple[int, float, float], ...]
    first: np.ndarray
    lost: float
    omitted: float
    marginals: np.ndarray

    def add_to(self, res: _Result, ch: CompiledCharacter) -> None:
        """Into ``res`` as :func:`exact_day` would, playing ``ch``'s day there: the same
        additions in the same order, so the same numbers to the last bit."""
        res.by_type[list(ch.roll_types)] = self.rows
        for t, success, drain in self.log:
            res.succ_t[t] += success
            res.drain_t[t] += drain
        res.first[4 * ch.index : 4 * ch.index + 4] = self.first
        res.lost_sum[ch.index] += self.lost
        res.omitted += self.omitted
        _ends(res, ch, self.marginals)


_PLAYED: OrderedDict[tuple[Any, ...], _Played] = OrderedDict()  # the last days played
_PLAYED_LIMIT = 512  # a few kB each
_PLAYED_LOCK = threading.Lock()  # its look-up and its eviction, one thread at a time


def _played(day: CompiledDay, ch: CompiledCharacter, threads: int) -> _Played:
    """PC ``ch``'s day under its own policy, played once for every day whose facts it reads
    are the same (:func:`_facts`): the readings table moves one switch at a time, most of
    them leave most characters' rolls alone; the fixed policies of the optimal player's
    comparison share theirs with the day's."""
    key = _facts(day, ch, threads)
    with _PLAYED_LOCK:  # a sweep may play days on several threads
        played = _PLAYED.get(key)
        if played is not None:
            _PLAYED.move_to_end(key)
            return played
    T = day.n_rolls
    log: list[tuple[int, float, float]] = []
    by_type = np.zeros((len(day.roll_types), 2, 4))
    tally = Tally(by_type, np.zeros(T), np.zeros(T), np.zeros((4, T + 2)), log=log)
    chain = LevelChain(ch.start, day.overflow, threads)
    P = _play(day, ch, chain, None, tally)
    played = _Played(
        by_type[list(ch.roll_types)], tuple(log), tally.first, tally.lost,
        max(0.0, 1.0 - float(P.sum())), chain.marginals(P),
    )  # fmt: skip
    with _PLAYED_LOCK:
        _PLAYED[key] = played
        while len(_PLAYED) > _PLAYED_LIMIT:
            _PLAYED.popitem(last=False)
    return played


def _facts(day: CompiledDay, ch: CompiledCharacter, threads: int) -> tuple[Any, ...]:
    """Everything :func:`_play` reads of ``day`` for PC ``ch`` under its own policy: the
    overflow, its gauges and rerolls, its roll types (their gauges and their laws, by value)
    and their shares at each roll; and the threads (the same numbers for any, but a test
    compares them)."""
    local = {r: i for i, r in enumerate(ch.roll_types)}
    types = tuple(
        (rt.drained, rt.hindering, *(_laws(v) for v in rt.variants))
        for rt in (day.roll_types[r] for r in ch.roll_types)
    )
    shares = tuple(
        tuple((local[r], w) for r, w in day.shares_at(t, ch.index).items())
        for t in range(day.n_rolls)
    )
    return (day.overflow, ch.start, ch.slots, ch.unlimited, threads, types, shares)


def _laws(variant: Any) -> tuple[Any, ...]:
    """A roll variant's laws as the exact day reads them: P(success) and the drain laws,
    with its reroll on failure in hand and without it."""
    success, law = variant.fixed
    rr = variant.rerolled
    held = None if rr is None else (rr.success, rr.kept.ones.tobytes(), rr.used.ones.tobytes())
    return (success, law.ones.tobytes(), held)


def _ends(res: _Result, ch: CompiledCharacter, marg: np.ndarray) -> None:
    """The end-of-day levels of ``ch``'s gauges and the points each absorbed."""
    for j in range(4):
        m = marg[j, : ch.start[j] + 1]
        res.end[4 * ch.index + j, : m.size] = m
        res.sums[4 * ch.index + j, 1] = float(m @ (ch.start[j] - np.arange(m.size)))


def _distributions(
    day: CompiledDay, ch: CompiledCharacter, decider: Any, res: _Result, n_bins: int
) -> None:
    """The day again, a running sum in the state: one pass per table row."""
    assert res.caused is not None and res.lost is not None
    drained = sorted({day.roll_types[r].drained for r in ch.roll_types})
    for track, j in [("caused", j) for j in drained] + [("lost", 0)]:
        chain = SumChain(ch.start, day.overflow, n_bins, track, j)
        scratch = Tally.scratch(len(day.roll_types), day.n_rolls)
        P = _play(day, ch, chain, decider, scratch)
        row = res.caused[4 * ch.index + j] if track == "caused" else res.lost[ch.index]
        row[:] = chain.sums(P)


def _play(
    day: CompiledDay, ch: CompiledCharacter, chain: LevelChain, decider: Any, tally: Tally
) -> np.ndarray:
    """Character ``ch``'s day on ``chain``: its tables added into ``tally``; the final
    probabilities (the counts of rerolls left summed out)."""
    T = day.n_rolls
    P = np.zeros((ch.slots, chain.n * chain.n_bins))  # P[u]: with u rerolls left
    P[-1] = chain.start_probabilities()
    pe_prev = chain.empty_mass(chain.states(P[-1]))
    tally.first[:, 0] = pe_prev
    laws: dict[Any, np.ndarray] = {}  # a group's mixed laws, built once
    spare: list[np.ndarray] = []  # arrays of P's shape free for a roll's results
    for t in range(T):
        shares = day.shares_at(t, ch.index)
        if shares:
            old, P = P, _roll(day, ch, chain, decider, tally, P, t, shares, laws, spare)
            spare.append(old)  # its memory serves the next roll (no new pages each roll)
        pe = chain.empty_mass(chain.states(P[0] if ch.slots == 1 else P.sum(axis=0)))
        tally.first[:, t + 1] = np.maximum(pe - pe_prev, 0.0)
        pe_prev = pe
    tally.first[:, T + 1] = np.maximum(1.0 - pe_prev, 0.0)
    return P[0] if ch.slots == 1 else P.sum(axis=0)


def _roll(
    day: CompiledDay,
    ch: CompiledCharacter,
    chain: LevelChain,
    decider: Any,
    tally: Tally,
    P: np.ndarray,
    t: int,
    shares: dict[int, float],
    laws: dict[Any, np.ndarray],
    spare: list[np.ndarray],
) -> np.ndarray:
    """One roll of ``ch``'s day: each group of its roll types that drain and are hindered by
    the same gauges moves the mass in one step, weighted by the group's share. ``spare``:
    arrays of ``P``'s shape it may write its result in (it takes them from the list)."""
    stay = 1.0 - sum(shares.values())
    groups: dict[tuple[int, int], list[int]] = {}
    for r in shares:
        rt = day.roll_types[r]
        groups.setdefault((rt.drained, rt.hindering), []).append(r)
    steps = [[RollStep(t, r, gd, gc, shares[r]) for r in rs] for (gd, gc), rs in groups.items()]
    if decider is not None:  # the optimal player: no reroll, one slot
        new = _take(spare, P)
        np.multiply(P, max(stay, 0.0), out=new)
        for group in steps:
            for step in group:
                decider.move(chain, P[0], new[0], step, tally)
        return new
    plays = [_group_moves(day, ch, group, laws) for group in steps]
    return _play_moves(day, ch, chain, tally, P, stay, steps, plays, spare)


def _take(spare: list[np.ndarray], P: np.ndarray) -> np.ndarray:
    """An array of ``P``'s shape, from ``spare`` if it has one (its content is left as is)."""
    return spare.pop() if spare else np.empty_like(P)


@dataclass(frozen=True, eq=False)
class _Move:
    """One move of a roll: the mass with ``src`` rerolls held, after a drain of gauge
    ``drained`` by ``law`` (its rows: gauge ``hindering`` with points, at 0), into the mass
    with ``dst`` rerolls held, weighted by ``weight``."""

    src: int
    dst: int
    drained: int
    hindering: int
    law: np.ndarray
    weight: float


@dataclass(frozen=True, eq=False)
class _SlotMoves:
    """A group's moves from one count of rerolls held: what keeps the count (``kept``) and
    the failures that spend one (``used``, or None); ``spend``: the roll types that reroll."""

    kept: _Move
    used: _Move | None
    spend: tuple[int, ...]


def _group_moves(
    day: CompiledDay, ch: CompiledCharacter, steps: list[RollStep], laws: dict[Any, np.ndarray]
) -> list[_SlotMoves]:
    """A group of roll types under their own policies, count of rerolls by count: the rolls
    that succeed or cannot reroll keep the count, the failures that spend one lower it."""
    gd, gc = steps[0].drained, steps[0].hindering
    total = sum(s.share for s in steps)
    out = []
    for u in range(ch.slots):
        spend = [s.r for s in steps if (ch.unlimited or u > 0) and _rerolls(day, s.r)]
        key = (gd, gc, tuple((s.r, s.share) for s in steps), bool(spend))
        if (*key, "kept") not in laws:
            laws[(*key, "kept")] = _group_laws(day, steps, spend, "kept", ch.unlimited)
        used = None
        if spend and not ch.unlimited:  # the failures spend one: to u - 1
            if (*key, "used") not in laws:
                laws[(*key, "used")] = _group_laws(day, steps, spend, "used", ch.unlimited)
            used = _Move(u, u - 1, gd, gc, laws[(*key, "used")], total)
        kept = _Move(u, u, gd, gc, laws[(*key, "kept")], total)
        out.append(_SlotMoves(kept, used, tuple(spend)))
    return out


def _play_moves(
    day: CompiledDay,
    ch: CompiledCharacter,
    chain: LevelChain,
    tally: Tally,
    P: np.ndarray,
    stay: float,
    steps: list[list[RollStep]],
    plays: list[list[_SlotMoves]],
    spare: list[np.ndarray],
) -> np.ndarray:
    """The groups' moves: with several groups, in two lanes (groups 0, 2, ... and 1, 3, ...),
    each writing its own copy of the result, on two threads when the chain has them and is
    large (:data:`~explodice.day.chain.SPLIT_STATES`); the lanes' copies are then added, so
    the numbers do not depend on the threads. The tables are tallied afterwards, group by
    group."""
    n_lanes = 2 if len(plays) > 1 and chain.n_bins == 1 else 1
    outs = [_take(spare, P) for _ in range(n_lanes)]
    if stay > 0.0:
        np.multiply(P, stay, out=outs[0])

    def lane(i: int) -> list[list[tuple[Any, ...]]]:
        fresh = set(range(ch.slots)) if (i > 0 or stay <= 0.0) else set()
        who = None if n_lanes == 1 else i
        done = []
        for moves in plays[i::n_lanes]:
            got = []
            for sm in moves:
                got.append(tuple(_apply(chain, P, outs[i], m, fresh, who) if m else None
                                 for m in (sm.kept, sm.used)))  # fmt: skip
            done.append(got)
        return done

    big = n_lanes > 1 and chain.n >= SPLIT_STATES  # a small chain: threads cost more than they save
    lanes = run_parts(lane, n_lanes, chain.threads if big else 1)
    for extra in outs[1:]:
        np.add(outs[0], extra, out=outs[0])
        spare.append(extra)
    for k, (group, moves) in enumerate(zip(steps, plays)):
        results = lanes[k % n_lanes][k // n_lanes]
        for sm, (kept, used) in zip(moves, results):
            mass, lost = kept
            tally.lost += lost
            if used is not None:
                tally.lost += used[1]
            share = mass / sm.kept.weight  # P(hindering gauge not empty / at 0)
            for s in group:
                variants = day.roll_types[s.r].variants
                rr = s.r in sm.spend
                tally.account(s, lambda e, v=variants, rr=rr: v[e].moments(rr), *share)
    return outs[0]


def _apply(
    chain: LevelChain, P: np.ndarray, out: np.ndarray, m: _Move, fresh: set[int], lane: int | None
) -> tuple[np.ndarray, float]:
    """Play move ``m`` of ``P`` into ``out``: written there if its count of rerolls is still
    ``fresh`` (not written yet in this lane), else added."""
    first = m.dst in fresh
    fresh.discard(m.dst)
    return chain.move(P[m.src], out[m.dst], m.drained, m.hindering, m.law, m.weight, first, lane)


def _rerolls(day: CompiledDay, r: int) -> bool:
    return day.roll_types[r].variants[0].rerolled is not None


def _group_laws(
    day: CompiledDay, steps: list[RollStep], spend: list[int], part: str, unlimited: bool
) -> np.ndarray:
    """The drain laws of a group of roll types (row ``e``: hindering gauge not empty or at 0),
    each type weighted by its share: ``"kept"`` what stays at the same count of rerolls (all
    of it when they have no daily cap), ``"used"`` the failures that spend one."""
    total = sum(s.share for s in steps)
    rows = []
    for e in (0, 1):
        parts: list[DrainLaw] = []
        weights: list[float] = []
        for s in steps:
            var = day.roll_types[s.r].variants[e]
            rr = var.rerolled if s.r in spend else None
            if part == "used" or (rr is not None and unlimited):
                if rr is not None:
                    parts.append(rr.used)
                    weights.append(s.share / total)
            if part == "kept":
                parts.append(rr.kept if rr is not None else var.fixed[1])
                weights.append(s.share / total)
        rows.append(DrainLaw.mix(parts, weights).ones if parts else np.zeros(1))
    width = max(row.size for row in rows)
    return np.array([np.pad(row, (0, width - row.size)) for row in rows])


def _idle(day: CompiledDay, ch: CompiledCharacter, res: _Result) -> None:
    """A character whose levels do not move (an NPC, or a PC without rolls): its rolls'
    tables, with the counts of rerolls it still holds, and its gauges where they start."""
    slots, T = ch.slots, day.n_rolls
    held = np.zeros(slots)  # P(u rerolls left)
    held[-1] = 1.0
    tally = res.tally(ch.index)
    for t in range(T):
        shares = day.shares_at(t, ch.index)
        new = held * (1.0 - sum(shares.values()))
        for r, w in shares.items():
            var = day.roll_types[r].variants[0]
            rr = var.rerolled
            for u in range(slots):
                spend = rr is not None and (ch.unlimited or u > 0)
                step = RollStep(t, r, 0, 0, w * held[u])
                tally.account(step, lambda e, v=var, s=spend: v.moments(s), 1.0, 0.0)
                p_fail = 0.0
                if rr is not None and spend and not ch.unlimited:
                    p_fail = 1.0 - rr.kept.moments()[0]
                new[u] += w * held[u] * (1.0 - p_fail)
                if p_fail:
                    new[u - 1] += w * held[u] * p_fail
        held = new
    for j in range(4):
        res.first[4 * ch.index + j, 0 if ch.start[j] == 0 else T + 1] = 1.0
        res.end[4 * ch.index + j, ch.start[j]] = 1.0


# -- the running sums' size --------------------------------------------------------------------------
def check_sums(day: CompiledDay, n_bins: int) -> None:
    """Refuse the ``"drain"`` and ``"lost"`` distributions of a day whose passes with a
    running sum could take more than :data:`SUM_WORK_LIMIT` multiply-adds a pass (a few
    seconds)."""
    for ch in day.characters:
        if not ch.pc:
            continue
        check_states(ch.name, ch.start, ch.slots)  # the day itself first
        n = int(np.prod([lv + 1 for lv in ch.start])) * ch.slots
        work = n * n_bins * (n_bins + sum(ch.start) + 2) * day.n_rolls
        if work > SUM_WORK_LIMIT:
            raise ExplodiceError(
                Phrase(
                    "`distributions`: character {name} has {n:,} states; the day's drain "
                    "and lost distributions put a running sum of {n_bins} values in "
                    "each, a bound of {work:.1e} multiply-adds over {n_rolls} rolls, "
                    "more than {SUM_WORK_LIMIT:.0e}. Their means are in the 'gauges' "
                    "table; simulate_day gives the distributions (on the command line: "
                    "`day` without --exact).",
                    name=shown(ch.name),
                    n=n,
                    n_bins=n_bins,
                    work=work,
                    n_rolls=day.n_rolls,
                    SUM_WORK_LIMIT=SUM_WORK_LIMIT,
                )
            )


def _sum_bins(day: CompiledDay, n_bins: int, keep_all: bool) -> int:
    """How many values a day's running sum needs (at most ``n_bins``, the last meaning "that
    many or more"): a bin past which a bound on every PC's total drain leaves less than
    :data:`SUM_TAIL`. The bound: each roll's drain, whatever the state, is at most (in
    distribution) the law whose tail is the largest of its roll type's laws (and, under a
    state-dependent policy, ``keep_all``, of the law that keeps every 1); the day's total is
    then at most their independent sum."""
    worst = [_worst_law(rt, n_bins, keep_all) for rt in day.roll_types]
    nothing = np.zeros(n_bins)  # another character's roll drains none of these gauges
    nothing[0] = 1.0
    need = 1
    for ch in day.characters:
        if not ch.pc:
            continue
        total = np.zeros(n_bins)
        total[0] = 1.0
        for t in range(day.n_rolls):
            law = np.zeros(n_bins)
            for r, w in day.scenario.shares_at(t).items():
                law += w * (worst[r] if day.roll_types[r].owner == ch.index else nothing)
            full = np.convolve(total, law)
            total = full[:n_bins]
            total[-1] += full[n_bins:].sum()
        tail = np.cumsum(total[::-1])[::-1]
        small = np.flatnonzero(tail < SUM_TAIL)
        need = max(need, int(small[0]) + 1 if small.size else n_bins)
    return min(need, n_bins)


def _worst_law(rt: Any, n_bins: int, keep_all: bool) -> np.ndarray:
    """The PMF (on 0 .. n_bins - 1, the last "that many or more") of the law whose tail is
    the largest among roll type ``rt``'s."""
    rows = [var.fixed[1].pmf for var in rt.variants]
    rows += [var.rerolled.whole.pmf for var in rt.variants if var.rerolled is not None]
    if keep_all:  # a state-dependent policy may keep any 1 a fixed one cancels
        for var in rt.variants:
            ch = var.choices
            rows.append(ch.law(np.zeros_like(ch.k_fixed))[1].pmf)
    tail = np.zeros(n_bins + 1)
    for q in rows:
        t = np.cumsum(q[::-1])[::-1]
        m = min(t.size, n_bins + 1)
        tail[:m] = np.maximum(tail[:m], t[:m])
    pmf = np.maximum(-np.diff(tail), 0.0)  # its PMF on 0 .. n_bins - 1,
    pmf[-1] += tail[-1]  # the last value meaning "that many or more"
    return pmf
