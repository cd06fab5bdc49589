"""The adventuring day, exactly: a Markov chain on each character's gauge levels.

Characters do not interact (overflow stays within a character, NPCs drain nothing), so each
PC's day is a chain on the levels of its four gauges, carried roll by roll as an array
``P[PA, PM, PF, PH]`` of probabilities. A roll of gauge ``g`` moves mass along axis ``g``
(a matrix product with the roll's drain law, the law of a gauge at 0 in row 0: one more
disadvantage source, netted with the roll's own). Under ``overflow="fullest"`` the excess
of a drain past 0 is poured, as in the day kernel, into the fullest non-empty gauges in
order: a fixed map from (other levels, excess) to other levels, computed once. In a mix each
roll is every roll type at once, weighted by its share of the weights; the other characters'
types leave the array as it is.

The roll's laws come from :mod:`explodice.day.rolls` (explosions followed to 40 per die);
drains past every point a character has are lumped, with their exact mean for the points
lost. So nothing is cut but what that module leaves out; :attr:`DayResult.omitted` reports
the mass missing at the end of the day.

The result is a :class:`~explodice.day.simulate.DayResult` with ``method="exact"``: its arrays hold
probabilities and expected counts for one day (``n_days`` is 1), so its tables read like a
simulation's with no sampling noise (``ci_low == ci_high == p``). Two tables, ``"drain"`` and
``"lost"`` (the distributions over days of a day's total drain caused and points lost), need
that running sum in the chain's state: ``distributions=True`` asks for them (:class:`_SumChain`,
one more pass of the day per table row); without it their means are in ``"gauges"``.

>>> from explodice import Character, DayRoll, Scenario
>>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10),
...                  gauge_max={"PA": 1, "PM": 0, "PF": 0, "PH": 0})
>>> day = exact_day(Scenario([hero], [DayRoll("Hero", skill="Athletics", dc=12, repeat=2)]))
>>> round(float(day.first[0, 1]) * 216, 9)   # a gauge of 1 empties at the first 1: 91/216
91.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, shown
from explodice.day import _exact_kernel
from explodice.day.rolls import RollChoices, roll_choices
from explodice.day.scenario import Scenario
from explodice.day.simulate import DayResult, _n_bins
from explodice.engine.exact import exact
from explodice.game.character import GAUGES
from explodice.game.checks import check_rules
from explodice.game.rules import Rules

__all__ = ["STATE_LIMIT", "SUM_WORK_LIMIT", "exact_day"]

STATE_LIMIT = 8_000_000  # gauge-level states per character
# a bound on states x sums x drain entries x rolls of one pass with a running sum in the state;
# the pass skips what is 0 and lumps the drains past the sums, so it runs well below it (the
# example day, 8.5e10, takes about 1.2 s a pass on the 2-core machine)
SUM_WORK_LIMIT = 200_000_000_000


# -- what one roll type does -----------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Law:
    """A roll type's two variants (``e`` = 0: gauge with points, 1: gauge at 0).

    ``succ``, ``drain``: P(success) and the drain PMF with no reroll on failure in hand. A roll
    that carries one has, while the character still has a reroll: ``rr_succ``, and its drain
    in two parts, ``kept`` (the first roll succeeded: the reroll stays) and ``used`` (it failed
    and the reroll was spent), which add up to the roll's whole drain law."""

    succ: tuple[float, float]
    drain: tuple[np.ndarray, np.ndarray]
    rr_succ: tuple[float, float] | None = None
    kept: tuple[np.ndarray, np.ndarray] | None = None
    used: tuple[np.ndarray, np.ndarray] | None = None

    def rerolled_drain(self, e: int) -> np.ndarray:
        """Variant ``e``'s whole drain law with a reroll on failure in hand."""
        return _sum_rows([self.kept[e], self.used[e]])  # type: ignore[index]

    def moments(self, e: int, reroll: bool) -> tuple[float, float, float]:
        """``(P(success), E[drain], E[drain^2])`` of variant ``e``, with a reroll in hand or
        not."""
        if reroll and self.rr_succ is not None:
            q = self.rerolled_drain(e)
            ps = self.rr_succ[e]
        else:
            q, ps = self.drain[e], self.succ[e]
        d = np.arange(q.size, dtype=float)
        return ps, float(q @ d), float(q @ d**2)


def _sum_rows(rows: list[np.ndarray]) -> np.ndarray:
    """The sum of PMFs of different lengths."""
    out = np.zeros(max(q.size for q in rows))
    for q in rows:
        out[: q.size] += q
    return out


def optimal_unsupported(scenario: Scenario) -> str | None:
    """Why the optimal player cannot play ``scenario``, or ``None`` when it can: it does not
    choose around a PC's reroll on failure (whether to spend it is a choice of its own);
    :func:`exact_day` and :func:`simulate_day` play that day under fixed policies."""
    for r, day_roll in enumerate(scenario.rolls):
        pc = scenario.character(day_roll.character).actor == "pc"  # an NPC chooses nothing
        if pc and scenario.roll_of(r).reroll_dc is not None:
            return (
                f"`rolls[{r}]` ({day_roll.label}): the optimal player does not choose around "
                f"a reroll on failure; exact_day and simulate_day play the day under fixed "
                f"policies (or give {day_roll.character} Reroll('failure', per_day=0))."
            )
    return None


def _choices(
    scenario: Scenario, rules: Rules, *, optimal: bool = False
) -> list[tuple[RollChoices, RollChoices]]:
    """Each roll type's choices with its gauge full and at 0 (``optimal``: for the optimal
    player, see :func:`optimal_unsupported`)."""
    reason = optimal_unsupported(scenario) if optimal else None
    if reason is not None:
        raise ExplodiceError(reason)
    out = []
    for r, day_roll in enumerate(scenario.rolls):
        pair = []
        for empty in (False, True):
            roll = scenario.roll_of(r, gauge_empty=empty)
            pair.append(roll_choices(roll, rules, day_roll.dc - roll.modifier))
        out.append(tuple(pair))
    return out


def _fixed_laws(
    scenario: Scenario, rules: Rules, choices: list[tuple[RollChoices, RollChoices]]
) -> list[_Law]:
    """Each roll type under its character's own policy, with its reroll on failure if any.

    Without advantage or disadvantage a failed roll is thrown again whole: its drain adds a
    second roll's (``used`` = failed part * whole law) and it succeeds with ``p + (1 - p) p``.
    With either, one die is rerolled and the first throw's drain stands (``used`` = failed
    part); P(success) is the single-roll engine's (:func:`explodice.exact`)."""
    laws = []
    for r, pair in enumerate(choices):
        succ, drain, kept, used, rr = [], [], [], [], []
        for e, ch in enumerate(pair):
            s, q = ch.under(ch.k_fixed)
            succ.append(s)
            drain.append(q)
            roll = scenario.roll_of(r, gauge_empty=bool(e))
            if roll.reroll_dc is None:
                continue
            p_ok, won, failed = ch.split(ch.k_fixed)
            kept.append(won)
            if roll.advantage == "normal":
                used.append(np.convolve(failed, q))
                rr.append(p_ok + (1.0 - p_ok) * s)
            else:
                used.append(failed)
                rr.append(exact(roll, rules).p_success(scenario.rolls[r].dc))
        if rr:
            laws.append(_Law(tuple(succ), tuple(drain), tuple(rr), tuple(kept), tuple(used)))
        else:
            laws.append(_Law(tuple(succ), tuple(drain)))
    return laws


# -- one character's chain --------------------------------------------------------------------
class _Pour:
    """Where the excess of a drain on gauge ``g`` goes, for every level of the other gauges.

    ``dest[o, x - 1]`` is the index of the others' levels after pouring ``x`` points
    (``x = 1 .. top - 1``) into levels ``o`` (fullest first, ties in PA, PM, PF, PH order,
    each gauge emptied before the next is touched); ``lost[o, x - 1]`` what none absorbed;
    ``x >= top`` (the others' largest total) empties them all. ``others[o]`` is their total.
    """

    def __init__(self, sizes: tuple[int, ...], g: int):
        other = [j for j in range(len(sizes)) if j != g]
        o_sizes = tuple(sizes[j] for j in other)
        grid = np.indices(o_sizes).reshape(len(other), -1).T  # [o, j] levels
        self.n_o = grid.shape[0]
        self.others = grid.sum(axis=1)
        self.top = int(sum(s - 1 for s in o_sizes))
        n_x = max(self.top - 1, 0)
        levels = np.repeat(grid[:, None, :], n_x, axis=1)  # [o, x, j]
        left = np.broadcast_to(np.arange(1, n_x + 1), (self.n_o, n_x)).copy()
        order = np.argsort(-grid, axis=1, kind="stable")  # fullest first, ties: lower index
        rows = np.arange(self.n_o)
        for rank in range(len(other)):
            j = order[:, rank]
            have = levels[rows, :, j]  # [o, x]
            got = np.minimum(have, left)
            levels[rows, :, j] = have - got
            left -= got
        self.lost = left
        self.lost_f = left.astype(float)
        self.others = self.others.astype(np.int64)
        self.dest = (
            np.ravel_multi_index(tuple(levels[..., j] for j in range(len(other))), o_sizes)
            if n_x
            else np.zeros((self.n_o, 0), np.int64)
        )


def _laws(rows: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drain laws as rows of ``width`` entries, with their tails ``P(d >= j)`` and
    ``E[d; d >= j]`` taken over the whole law (not only the entries kept)."""
    size = max(width, max(q.size for q in rows)) + 1
    qs = np.zeros((len(rows), size))
    for i, q in enumerate(rows):
        qs[i, : q.size] = q
    t0 = np.cumsum(qs[:, ::-1], axis=1)[:, ::-1]
    t1 = np.cumsum((qs * np.arange(size))[:, ::-1], axis=1)[:, ::-1]
    return (
        np.ascontiguousarray(qs[:, :width]),
        np.ascontiguousarray(t0[:, :width]),
        np.ascontiguousarray(t1[:, :width]),
    )


class _Chain:
    """One PC's gauge levels over the day: a flat C-order array of probabilities ``P``."""

    def __init__(self, start: list[int], fullest: bool):
        self.sizes = tuple(s + 1 for s in start)
        self.n = int(np.prod(self.sizes))
        self.P = np.zeros(self.n)
        self.P[np.ravel_multi_index(tuple(start), self.sizes)] = 1.0
        self.fullest = fullest
        self.pours = {g: _Pour(self.sizes, g) for g in range(4)}
        strides = np.array([int(np.prod(self.sizes[j + 1 :])) for j in range(4)])
        self.strides = strides
        levels = np.indices(self.sizes).reshape(4, -1)
        self.levels = levels
        self.base = {}
        for g in range(4):
            other = [j for j in range(4) if j != g]
            grid = np.indices(tuple(self.sizes[j] for j in other)).reshape(3, -1)
            self.base[g] = (strides[other] @ grid).astype(np.int64)
        self.empty_law = {g: (levels[g] == 0).astype(np.int64) for g in range(4)}
        self._laws: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    n_bins = 1  # no running sum in the state (see _SumChain)

    def states(self, P: np.ndarray) -> np.ndarray:
        """The probabilities of the gauge levels alone."""
        return P

    def width(self, g: int) -> int:
        """Drain entries a roll of gauge ``g`` reads: its levels and the others' total."""
        return self.sizes[g] + self.pours[g].top + 2

    def marginals(self) -> np.ndarray:
        """``[g, l]`` = P(gauge g at level l)."""
        return _exact_kernel.marginals(self.P, np.array(self.sizes, dtype=np.int64))

    def laws(
        self, key: Any, g: int, rows: Callable[[], list[np.ndarray]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tables of the drain laws ``rows()`` for a roll of gauge ``g``, built the first
        time ``key`` is asked for."""
        if key not in self._laws:
            self._laws[key] = _laws(rows(), self.width(g))
        return self._laws[key]

    def move(
        self,
        out: np.ndarray,
        g: int,
        law: np.ndarray,
        tables: tuple[np.ndarray, np.ndarray, np.ndarray],
        weight: float,
        mass: np.ndarray,
        P: np.ndarray | None = None,
    ) -> float:
        """Add ``weight`` times the array (``P``, default the chain's) after a roll of gauge
        ``g`` into ``out`` (state ``i`` drains by law ``law[i]`` of ``tables``); return the
        expected points lost."""
        pour = self.pours[g]
        qs, t0, t1 = tables
        return _exact_kernel.move(
            self.P if P is None else P,
            out,
            self.base[g],
            int(self.strides[g]),
            self.sizes[g],
            law,
            qs,
            t0,
            t1,
            pour.dest,
            pour.lost_f,
            pour.others,
            pour.top,
            self.fullest and pour.top > 0,
            float(weight),
            mass,
        )


class _SumChain(_Chain):
    """A :class:`_Chain` whose state also holds a running sum over the day, ``0 ..
    n_bins - 1`` (the last: that many or more): the drain caused on gauge ``gauge``
    (``track="caused"``) or the points lost (``track="lost"``). ``P`` is flat, ``[state *
    n_bins + sum]``; the laws it reads are wide enough that every drain past them is
    clamped."""

    def __init__(self, start: list[int], fullest: bool, n_bins: int, track: str, gauge: int = 0):
        super().__init__(start, fullest)
        self.n_bins = n_bins
        self.track, self.gauge = track, gauge
        base_p = self.P
        self.P = np.zeros(self.n * n_bins)
        self.P[::n_bins] = base_p
        self.at = {}
        for g in range(4):  # each state's level of g and index of the others' levels
            o_of = np.empty(self.n, np.int64)
            for lv in range(self.sizes[g]):
                o_of[self.base[g] + lv * self.strides[g]] = np.arange(self.base[g].size)
            self.at[g] = (np.ascontiguousarray(self.levels[g]), o_of)

    def width(self, g: int) -> int:
        return self.n_bins + self.sizes[g] + self.pours[g].top + 2

    def states(self, P: np.ndarray) -> np.ndarray:
        return P.reshape(self.n, self.n_bins).sum(axis=1)

    def marginals(self) -> np.ndarray:
        return _exact_kernel.marginals(self.states(self.P), np.array(self.sizes, dtype=np.int64))

    def sums(self) -> np.ndarray:
        """P(the running sum = S) at the end: the table's row."""
        return self.P.reshape(self.n, self.n_bins).sum(axis=0)

    def move(self, out, g, law, tables, weight, mass, P=None):  # noqa: D102 (as _Chain.move)
        pour = self.pours[g]
        qs, t0, t1 = tables
        level, o_of = self.at[g]
        track = {"caused": 1 if g == self.gauge else 0, "lost": 2}[self.track]
        return _exact_kernel.move_sum(
            self.P if P is None else P,
            out,
            self.n_bins,
            level,
            o_of,
            self.base[g],
            int(self.strides[g]),
            law,
            qs,
            t0,
            t1,
            pour.dest,
            pour.lost,
            pour.others,
            self.fullest and pour.top > 0,
            track,
            float(weight),
            mass,
        )


def check_states(name: str, levels: list[int], slots: int = 1) -> None:
    """Refuse a character whose gauge levels (times ``slots``, the counts of rerolls it may
    still hold) make more than :data:`STATE_LIMIT` states."""
    n = int(np.prod([lv + 1 for lv in levels])) * slots
    if n > STATE_LIMIT:
        held = f" x {slots} counts of rerolls left" if slots > 1 else ""
        raise ExplodiceError(
            f"`scenario`: character {name!r} has gauges {dict(zip(GAUGES, levels))}{held}, "
            f"{n:,} states; the exact day allows at most {STATE_LIMIT:,} per character "
            "(use simulate_day)."
        )


def check_sums(scenario: Scenario, n_bins: int) -> None:
    """Refuse the ``"drain"`` and ``"lost"`` distributions of a day whose passes with a
    running sum could take more than :data:`SUM_WORK_LIMIT` multiply-adds a pass (a few
    seconds)."""
    start = scenario.gauge_start()
    for who in scenario.characters:
        if who.actor != "pc":
            continue
        levels = [int(start[who.name][g]) for g in GAUGES]
        slots = _budget(who, scenario.n_rolls)[0]
        check_states(who.name, levels, slots)  # the day itself first
        n = int(np.prod([lv + 1 for lv in levels])) * slots
        work = n * n_bins * (n_bins + sum(levels) + 2) * scenario.n_rolls
        if work > SUM_WORK_LIMIT:
            raise ExplodiceError(
                f"`distributions`: character {shown(who.name)} has {n:,} states; the day's "
                f"drain and lost distributions put a running sum of {n_bins} values in each, "
                f"a bound of {work:.1e} multiply-adds over {scenario.n_rolls} rolls, more than "
                f"{SUM_WORK_LIMIT:.0e}. Their means are in the 'gauges' table; simulate_day "
                "gives the distributions (on the command line: `day` without --exact)."
            )


SUM_TAIL = 1e-15  # the running sums stop where a bound on the rest is below this


def _sum_bins(
    scenario: Scenario,
    laws: list[_Law],
    owner: np.ndarray,
    n_bins: int,
    extra: list[list[np.ndarray]] | None = None,
) -> int:
    """How many values a day's running sum needs (at most ``n_bins``, the last meaning "that
    many or more"): a bin past which a bound on every PC's total drain leaves less than
    :data:`SUM_TAIL`. The bound: each roll's drain, whatever the state, is at most (in
    distribution) the law whose tail is the largest of its roll type's laws (and of
    ``extra[r]``: under a state-dependent policy, the law that keeps every 1); the day's total
    is then at most their independent sum."""
    seq = scenario.sequence()
    weights = np.array([r.weight for r in scenario.rolls], dtype=float)
    weights /= weights.sum()
    worst = []
    for r, law in enumerate(laws):
        rows = list(law.drain) + ([law.rerolled_drain(e) for e in (0, 1)] if law.rr_succ else [])
        rows += extra[r] if extra is not None else []
        tail = np.zeros(n_bins + 1)
        for q in rows:
            t = np.cumsum(q[::-1])[::-1]
            m = min(t.size, n_bins + 1)
            tail[:m] = np.maximum(tail[:m], t[:m])
        pmf = np.maximum(-np.diff(tail), 0.0)  # its PMF on 0 .. n_bins - 1,
        pmf[-1] += tail[-1]  # the last value meaning "that many or more"
        worst.append(pmf)
    nothing = np.zeros(n_bins)  # another character's roll drains none of these gauges
    nothing[0] = 1.0
    need = 1
    for c, who in enumerate(scenario.characters):
        if who.actor != "pc":
            continue
        total = np.zeros(n_bins)
        total[0] = 1.0
        for t in range(scenario.n_rolls):
            law = np.zeros(n_bins)
            for r in [seq[t]] if seq is not None else range(len(laws)):
                w = 1.0 if seq is not None else weights[r]
                law += w * (worst[r] if owner[r] == c else nothing)
            full = np.convolve(total, law)
            total = full[:n_bins]
            total[-1] += full[n_bins:].sum()
        tail = np.cumsum(total[::-1])[::-1]
        small = np.flatnonzero(tail < SUM_TAIL)
        need = max(need, int(small[0]) + 1 if small.size else n_bins)
    return min(need, n_bins)


def _budget(who: Any, n_rolls: int) -> tuple[int, bool]:
    """``(slots, unlimited)``: a character's counts of rerolls on failure left (0 .. slots - 1,
    at most one per roll it makes) and whether it has no daily cap (every failed roll is
    rerolled: no count to keep)."""
    rr = who.reroll
    if rr is None or rr.trigger != "failure":
        return 1, False
    if rr.per_day is None:
        return 1, True
    return min(rr.per_day, n_rolls) + 1, False


def _gauge_index(scenario: Scenario, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Per roll type: the gauge its drain hits and the gauge whose 0 gives it disadvantage
    (they differ for a skill rolled with another ability under ``drain_gauge="skill"``)."""
    drained = np.array([GAUGES.index(r.drain_gauge(rules)) for r in scenario.rolls], np.int64)
    checked = np.array([GAUGES.index(r.gauge) for r in scenario.rolls], np.int64)
    return drained, checked


@dataclass(eq=False)
class _Tally:
    """Where one pass over a character's day adds its tables (views of the result's)."""

    by_type: np.ndarray
    succ_t: np.ndarray
    drain_t: np.ndarray
    first: np.ndarray
    lost: float = 0.0

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.by_type, self.succ_t, self.drain_t


# -- the day ------------------------------------------------------------------------------------
def exact_day(
    scenario: Scenario,
    rules: Rules | None = None,
    *,
    policy: Any = None,
    distributions: bool = False,
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

    >>> from explodice import Character, DayRoll, Scenario
    >>> hero = Character("Hero", dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10))
    >>> s = Scenario([hero], [DayRoll("Hero", ability="STR", dc=12, repeat=10)])
    >>> r = exact_day(s)
    >>> r.method, r.n_rolls, round(float(r.first[0].sum()), 12)
    ('exact', 10, 1.0)
    """
    rules = check_rules(rules)
    if not isinstance(scenario, Scenario):
        raise ExplodiceTypeError(
            f"`scenario` must be a Scenario, but {type(scenario).__name__} was passed."
        )
    if not isinstance(distributions, bool):
        raise ExplodiceTypeError(
            f"`distributions` must be True or False, but {shown(distributions)} was passed."
        )
    began = time.perf_counter()
    choices = _choices(scenario, rules, optimal=policy is not None)
    laws = _fixed_laws(scenario, rules, choices)
    deciders = policy.deciders(scenario, rules, choices) if policy is not None else {}
    T = scenario.n_rolls
    names = [c.name for c in scenario.characters]
    n_types = len(scenario.rolls)
    n_g = 4 * len(names)
    seq = scenario.sequence()
    sequence = np.asarray(seq if seq is not None else [-1] * T, dtype=np.int64)
    weights = np.array([r.weight for r in scenario.rolls], dtype=float)
    weights /= weights.sum()
    start = scenario.gauge_start()
    gauge_start = np.array([start[c][g] for c in names for g in GAUGES], dtype=np.int64)
    owner = np.array([names.index(r.character) for r in scenario.rolls])
    drained, checked = _gauge_index(scenario, rules)

    first = np.zeros((n_g, T + 2))
    succ_t = np.zeros(T)
    drain_t = np.zeros(T)
    by_type = np.zeros((n_types, 2, 4))
    end = np.zeros((n_g, int(gauge_start.max(initial=0)) + 1))
    sums = np.zeros((n_g, 2))
    lost_sum = np.zeros(len(names))
    caused = lost = None
    if distributions:
        # a state-dependent policy may keep any 1 a fixed one cancels: bound it by keeping all
        keep_all = (
            [[ch.under(np.zeros_like(ch.k_fixed))[1] for ch in pair] for pair in choices]
            if policy is not None
            else None
        )
        n_bins = _sum_bins(scenario, laws, owner, _n_bins(scenario), keep_all)
        check_sums(scenario, n_bins)
        caused = np.zeros((n_g, n_bins))  # a gauge no roll drains, an NPC: 0 every day
        lost = np.zeros((len(names), n_bins))
        caused[:, 0] = lost[:, 0] = 1.0
    omitted = 0.0
    moments = [[[law.moments(e, rr) for rr in (False, True)] for e in (0, 1)] for law in laws]

    def account(
        tally: _Tally, r: int, w: float, p_f: float, p_e: float, t: int, rr: bool = False
    ) -> None:
        """Success and drain of roll type ``r`` taken with probability ``w`` at roll ``t``,
        its gauge above 0 with probability ``p_f``, at 0 with ``p_e`` (fixed policies), a
        reroll on failure in hand (``rr``) or not."""
        for e, pe in ((0, p_f), (1, p_e)):
            ps, m1, m2 = moments[r][e][rr]
            mass = w * pe
            tally.by_type[r, e] += (mass, mass * ps, mass * m1, mass * m2)
            tally.succ_t[t] += mass * ps
            tally.drain_t[t] += mass * m1

    def shares_at(t: int, c: int) -> dict[int, float]:
        types = [sequence[t]] if sequence[t] >= 0 else range(n_types)
        w = {int(r): (1.0 if sequence[t] >= 0 else float(weights[r])) for r in types}
        return {r: x for r, x in w.items() if owner[r] == c}

    def mixed(
        rs: list[int], shares: dict[int, float], spend: list[int], part: str, unlimited: bool
    ) -> list[np.ndarray]:
        """The drain law of a group of roll types (one per variant), each weighted by its
        share: ``"kept"`` what stays at the same count of rerolls (all of it when they have no
        daily cap), ``"used"`` the failures that spend one; ``spend``: the types that may."""
        rows = []
        for e in (0, 1):
            used = [shares[r] * laws[r].used[e] for r in spend]
            if part == "used":
                terms = used
            else:
                terms = [
                    shares[r] * (laws[r].kept[e] if r in spend else laws[r].drain[e]) for r in rs
                ]
                terms += used if unlimited else []
            rows.append(_sum_rows(terms) / sum(shares[r] for r in rs))
        return rows

    def play(
        c: int, chain: _Chain, slots: int, unlimited: bool, decide: Any, tally: _Tally
    ) -> None:
        """Character ``c``'s day on ``chain`` (its final probabilities left in ``chain.P``),
        its tables added into ``tally``."""
        P = np.zeros((slots, chain.P.size))  # P[u]: the probabilities with u rerolls left
        P[-1] = chain.P
        pe_prev = chain.marginals()[:, 0]
        tally.first[:, 0] = pe_prev
        for t in range(T):
            shares = shares_at(t, c)
            if shares:
                new = P * (1.0 - sum(shares.values()))
                groups: dict[tuple[int, int], list[int]] = {}
                for r in shares:
                    groups.setdefault((int(drained[r]), int(checked[r])), []).append(r)
                for (gd, gc), rs in groups.items():
                    if decide is not None:  # the optimal player: no reroll, one slot
                        chain.P = P[0]
                        for r in rs:
                            tally.lost += decide.move(
                                chain, new[0], t, r, gd, gc, shares[r], *tally.arrays()
                            )
                        continue
                    total = sum(shares[r] for r in rs)
                    sig = (gd, gc, tuple(rs), tuple(shares[r] for r in rs))
                    for u in range(slots):
                        spend = [r for r in rs if (unlimited or u > 0) and laws[r].rr_succ]
                        kept = chain.laws(  # built once per group and slot kind, then cached
                            (*sig, bool(spend), "kept"),
                            gd,
                            partial(mixed, rs, shares, spend, "kept", unlimited),
                        )
                        mass = np.zeros(2)
                        tally.lost += chain.move(
                            new[u], gd, chain.empty_law[gc], kept, total, mass, P=P[u]
                        )
                        if spend and not unlimited:  # the failures spend one: to u - 1
                            used = chain.laws(
                                (*sig, True, "used"),
                                gd,
                                partial(mixed, rs, shares, spend, "used", unlimited),
                            )
                            tally.lost += chain.move(
                                new[u - 1],
                                gd,
                                chain.empty_law[gc],
                                used,
                                total,
                                np.zeros(2),
                                P=P[u],
                            )
                        for r in rs:  # mass[e]: P(gauge full / at 0) times the group's share
                            account(
                                tally, r, shares[r], mass[0] / total, mass[1] / total, t, r in spend
                            )
                P = new
            chain.P = P.sum(axis=0)
            pe = chain.marginals()[:, 0]
            tally.first[:, t + 1] = np.maximum(pe - pe_prev, 0.0)
            pe_prev = pe
        tally.first[:, T + 1] = np.maximum(1.0 - pe_prev, 0.0)

    npc = _Tally(by_type, succ_t, drain_t, np.zeros((4, T + 2)))
    for c, who in enumerate(scenario.characters):
        mine = np.flatnonzero(owner == c)
        levels = [int(start[who.name][g]) for g in GAUGES]
        slots, unlimited = _budget(who, T)
        if who.actor != "pc" or mine.size == 0:  # no gauges, or no rolls: no level moves
            held = np.zeros(slots)  # P(u rerolls left)
            held[-1] = 1.0
            for t in range(T):
                shares = shares_at(t, c)
                new = held * (1.0 - sum(shares.values()))
                for r, w in shares.items():
                    law = laws[r]
                    for u in range(slots):
                        rr = law.rr_succ is not None and (unlimited or u > 0)
                        account(npc, r, w * held[u], 1.0, 0.0, t, rr)
                        p_fail = 1.0 - law.kept[0].sum() if rr and not unlimited else 0.0
                        new[u] += w * held[u] * (1.0 - p_fail)
                        if p_fail:
                            new[u - 1] += w * held[u] * p_fail
                held = new
            for j in range(4):
                first[4 * c + j, 0 if levels[j] == 0 else T + 1] = 1.0
                end[4 * c + j, levels[j]] = 1.0
            continue
        check_states(who.name, levels, slots)
        chain = _Chain(levels, rules.overflow == "fullest")
        tally = _Tally(by_type, succ_t, drain_t, first[4 * c : 4 * c + 4])
        play(c, chain, slots, unlimited, deciders.get(who.name), tally)
        lost_sum[c] += tally.lost
        omitted += max(0.0, 1.0 - float(chain.P.sum()))
        marg = chain.marginals()
        for j in range(4):
            m = marg[j, : levels[j] + 1]
            end[4 * c + j, : m.size] = m
            sums[4 * c + j, 1] = float(m @ (levels[j] - np.arange(m.size)))
        if distributions:  # the day again, a running sum in the state: one pass per table row
            for track, j in [("caused", j) for j in sorted(set(drained[mine]))] + [("lost", 0)]:
                aug = _SumChain(levels, rules.overflow == "fullest", n_bins, track, int(j))
                scratch = _Tally(
                    np.zeros_like(by_type), np.zeros(T), np.zeros(T), np.zeros((4, T + 2))
                )
                play(c, aug, slots, unlimited, deciders.get(who.name), scratch)
                row = caused[4 * c + j] if track == "caused" else lost[c]
                row[:] = aug.sums()
    for r in range(n_types):
        if scenario.character(scenario.rolls[r].character).actor == "pc":
            sums[4 * owner[r] + drained[r], 0] += by_type[r, :, 2].sum()
    return DayResult(
        scenario=scenario,
        rules=rules,
        n_days=1,
        seed=None,
        chunk_days=0,
        seconds=time.perf_counter() - began,
        sequence=sequence,
        gauge_start=gauge_start,
        first=first,
        succ_t=succ_t,
        drain_t=drain_t,
        by_type=by_type,
        caused=caused,
        end=end,
        lost=lost,
        sums=sums,
        lost_sum=lost_sum,
        method="exact",
        omitted=omitted,
    )
