"""Which readings matter: every switch of :class:`~explodice.Rules`, each of its other values,
and how much it moves the numbers a designer balances with (docs/rules.md, "Readings that are
switches").

:func:`sensitivity` moves one switch at a time off ``rules`` (the default
:class:`~explodice.Rules` unless given) and compares, cell by cell, exactly:

- ``dc_table``: P(success), E[drain] per roll and, under the lutte serrée, P(total == DC) (the
  share of rolls settled by bids of HP) on the DC table, per modifier, DC, advantage state,
  kind, policy and reroll: a grid the caller chooses (every kind and Lucky are in it by
  default, or ``rule_of_one_kinds`` and ``lucky_timing`` could not show);
- ``party``: each character's saves and proficient skills on the DC table, with its own
  policy and reroll (:func:`~explodice.success_table` with ``characters=``);
- ``day``: over the day scenario, each PC gauge's P(empty by the long rest) and each
  character's expected successes (:func:`~explodice.exact_day`; where it refuses the day,
  :func:`~explodice.simulate_day` with the stated ``n_days`` and ``seed``, the same seed
  under both rules);
- ``hiding``: P(hidden) of a Stealth roll against one passive Perception equal to each DC,
  and against an active Perception with the same modifier (:func:`~explodice.hide`);
- ``haggle``: P(the seller notices) and the mean price change when Persuasion and Deception
  have the same modifier, DC 16 (:func:`~explodice.haggle`);
- ``attack``: P(hit) and P(critical) of an attack with each modifier of the grid, each advantage
  state and each fixed policy, against the reference builds at levels 1, 5, 10 and 20 (their
  VD under the rules: the combat switches move it), exactly.

The switches and their values are read from the ``Rules`` dataclass
(:func:`explodice.game.rules.switches`), so a value added to a ``Literal`` alias appears here
without an edit: a ``Literal`` switch takes each of its other values, a bool the other one,
and ``rule_of_one_kinds`` adds each kind it lacks (``"+attack"``) and removes each kind it has
(``"-save"``), one at a time. Each switch's declared scope (``"roll"``, ``"day"``,
``"hiding"``, ``"haggle"``) says which parts it can move; the others are left out (NaN in the
table) rather than computed again to give 0. A ``"roll"`` switch reaches the day only through
its rolls' laws: where none of the day's rolls changes, the day is the base day.

A number is never given where an engine would ignore the switch: the day engines do not play
``close_contest``'s bids of HP (they refuse it), so a day under it is marked not computed, with
the reason in ``note``.

>>> s = sensitivity(modifiers=[0, 4], dcs=[12, 16], parts=("dc_table",))
>>> row = s.table.set_index(["switch", "value"]).loc[("malus_die", "plain")]
>>> round(float(row.dc_p_max), 4), row.dc_where
(0.0335, '+4 vs DC 12, disadvantage, ability, keep, lucky')
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, TypeVar, cast, get_args

import numpy as np
import pandas as pd

from explodice.analysis.hiding import hide
from explodice.analysis.resolutions import haggle
from explodice.analysis.success import policy_label, success_table
from explodice.core.errors import (
    ExplodiceError,
    ExplodiceTypeError,
    check_choice,
    check_items,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.day.scenario import Scenario
from explodice.day.simulate import simulate_day
from explodice.engine.attack import attack_odds
from explodice.engine.exact import exact
from explodice.game.build import reference_builds
from explodice.game.character import Character
from explodice.game.checks import check_rules
from explodice.game.reroll import Reroll, as_reroll
from explodice.game.rules import (
    ADVANTAGE_STATES,
    KINDS,
    Advantage,
    Best,
    Policy,
    Roll,
    RollKind,
    Rules,
    check_int,
    parse_policy,
)
from explodice.game.rules import (
    switches as rule_switches,
)
from explodice.game.tables import DC_TABLE, HAGGLE_BASE_DC, MAX_DC, MODIFIERS

__all__ = [
    "BEST_NOTE",
    "DAY_METHODS",
    "PARTS",
    "DayBlindSpot",
    "DayMethod",
    "Part",
    "Sensitivity",
    "Variant",
    "day_blind_spot",
    "day_numbers",
    "sensitivity",
    "variants",
]

#: The parts a sensitivity computes.
Part = Literal["dc_table", "party", "day", "hiding", "haggle", "attack"]
PARTS: tuple[Part, ...] = get_args(Part)
#: The scopes of switch (each switch declares its own: explodice.game.switch.SCOPES) each part
#: can be moved by.
PART_SCOPES = {
    "dc_table": ("roll",),
    "party": ("roll",),
    "day": ("roll", "day"),
    "hiding": ("roll", "hiding"),
    "haggle": ("roll", "haggle"),
    "attack": ("roll", "attack"),
}
#: The levels at which the attack part's targets (the reference builds) are met.
ATTACK_LEVELS = (1, 5, 10, 20)
#: How the day part is computed ("none": it is not).
DayMethod = Literal["exact", "simulate", "none"]
DAY_METHODS: tuple[DayMethod, ...] = get_args(DayMethod)
DEFAULT_N_DAYS = 20_000
DEFAULT_SEED = 2026
#: The measures that are probabilities: the largest change among them ranks the readings.
PROBABILITIES = ("p_success", "p_tie", "p_empty", "p_hidden", "p_noticed", "p_hit", "p_crit")
TOLERANCE = 1e-12  # the exact engine's own accuracy: a smaller change between exact numbers is 0


@dataclass(frozen=True)
class Variant:
    """One switch moved off ``rules``: its name, the value as a label (``"plain"``, ``"True"``,
    ``"+attack"``), the rules it gives and the switch's scope."""

    switch: str
    value: str
    rules: Rules
    scope: str = "roll"


def variants(rules: Rules | None = None) -> list[Variant]:
    """Every switch of ``rules`` moved to each of its other values, one at a time.

    >>> [v.value for v in variants() if v.switch == "rule_of_one_kinds"]
    ['-check', '+ability', '-save', '+attack']
    """
    rules = check_rules(rules)
    out = []
    for sw in rule_switches():
        current = getattr(rules, sw.name)
        if sw.kind == "set":
            for member in sw.values:
                sign = "-" if member in current else "+"
                moved = _moved(rules, sw.name, frozenset(current ^ {member}))
                out.append(Variant(sw.name, f"{sign}{member}", moved, sw.scope))
        else:
            for value in sw.values:
                if value != current:
                    moved = _moved(rules, sw.name, value)
                    out.append(Variant(sw.name, str(value), moved, sw.scope))
    return out


def _moved(rules: Rules, name: str, value: Any) -> Rules:
    return dataclasses.replace(rules, **{name: value})


# -- what a part measures: long frames of (part, measure, case, key columns..., value) ------
class _Columns:
    """A part's long frame, built block by block (one block: the cells of one measure, with
    the same keys) and made a DataFrame once: as ``pd.concat`` of one frame per block, with
    a block's scalar keys repeated on its rows, but without a DataFrame per block."""

    def __init__(self) -> None:
        self.keys: dict[str, list[Any]] = {}
        self.values: list[np.ndarray] = []

    def add(self, values: np.ndarray, case: list[str], **keys: Any) -> None:
        """One block: its ``values``, each cell's ``case`` and its keys (a scalar each)."""
        n = len(values)
        self.keys.setdefault("case", []).extend(case)
        for name, key in keys.items():
            self.keys.setdefault(name, []).extend([key] * n)
        self.values.append(np.asarray(values, dtype=float))

    def frame(self, part: str, **tiled: np.ndarray) -> pd.DataFrame:
        """The frame (once): ``part``, the measure, the case, the ``tiled`` columns (the
        same values in every block: repeated block by block), the other keys, ``value``."""
        blocks = len(self.values)
        data: dict[str, Any] = {"part": part, "measure": self.keys.pop("measure", [])}
        data["case"] = self.keys.pop("case", [])
        data |= {name: np.tile(column, blocks) for name, column in tiled.items()}
        data |= self.keys
        data["value"] = np.concatenate(self.values) if self.values else np.zeros(0)
        return pd.DataFrame(data)


@dataclass(frozen=True)
class _Grid:
    modifiers: tuple[int, ...]
    dcs: tuple[int, ...]
    advantages: tuple[Advantage, ...]
    kinds: tuple[RollKind, ...]
    policies: tuple[Policy, ...]
    rerolls: tuple[Reroll | None, ...]


def _dc_part(rules: Rules, g: _Grid) -> pd.DataFrame:
    """P(success), E[drain] and, under the lutte serrée, P(total == DC) (the share of rolls
    settled by bids of HP) of every cell of the grid: a PC's roll, exact."""
    need = np.array(g.dcs)[None, :] - np.array(g.modifiers)[:, None]  # DC - modifier
    cols = _Columns()
    for kind, adv, policy, reroll in itertools.product(
        g.kinds, g.advantages, g.policies, g.rerolls
    ):
        base = Roll(0, advantage=adv, kind=kind, reroll=reroll)
        if isinstance(policy, Best):  # best(λ) knows each cell's DC: a table per DC - modifier
            p, drain, above = (np.empty(need.shape) for _ in range(3))
            for value in np.unique(need):
                d = exact(base.replace(policy=Best(int(value), policy.weight)), rules)
                cells = need == value
                p[cells], above[cells] = d.p_success([int(value), int(value) + 1])
                drain[cells] = d.drain_mean
        else:
            d = exact(base.replace(policy=policy), rules)
            p, above = np.asarray(d.p_success(need)), np.asarray(d.p_success(need + 1))
            drain = np.full(need.shape, d.drain_mean)
        tie = p - above if rules.close_contest else np.zeros(need.shape)
        label = policy_label(policy)
        lucky = "" if reroll is None else f", {reroll}"
        case = [
            f"{m:+d} vs DC {dc}, {adv}, {kind}, {label}{lucky}" for m in g.modifiers for dc in g.dcs
        ]
        for measure, values in (("p_success", p), ("drain_mean", drain), ("p_tie", tie)):
            cols.add(
                values.ravel(),
                measure=measure,
                case=case,
                advantage=adv,
                kind=kind,
                policy=label,
                reroll="none" if reroll is None else str(reroll),
            )
    return cols.frame(
        "dc_table",
        modifier=np.repeat(g.modifiers, len(g.dcs)),
        dc=np.tile(g.dcs, len(g.modifiers)),
    )


def _party_part(rules: Rules, party: Sequence[Character], g: _Grid) -> pd.DataFrame:
    """Each character's saves and proficient skills on the DC table (success_table)."""
    t = success_table(characters=list(party), dcs=g.dcs, advantages=g.advantages, rules=rules)
    state = t["advantage"].str.split(" (", regex=False).str[0]  # "disadvantage (drop)"
    frames = []
    for measure, column in (("p_success", "p"), ("drain_mean", "drain_mean")):
        frames.append(
            pd.DataFrame(
                {
                    "part": "party",
                    "measure": measure,
                    "case": t["character"]
                    + ": "
                    + t["test"]
                    + ", DC "
                    + t["dc"].astype(str)
                    + ", "
                    + state,
                    "character": t["character"],
                    "test": t["test"],
                    "dc": t["dc"],
                    "advantage": state,
                    "value": t[column].to_numpy(dtype=float),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def _hiding_part(rules: Rules, g: _Grid) -> pd.DataFrame:
    rows: list[tuple[str, int, object, float]] = []  # the DC, or pd.NA against an active roll
    for m in g.modifiers:
        for dc in g.dcs:
            h = hide(Roll(m), passive=[dc], rules=rules)
            rows.append((f"Stealth {m:+d} vs passive {dc}", m, dc, h.p_hidden))
        h = hide(Roll(m), active=[Roll(m)], rules=rules)
        rows.append((f"Stealth {m:+d} vs active Perception {m:+d}", m, pd.NA, h.p_hidden))
    df = pd.DataFrame(rows, columns=["case", "modifier", "dc", "value"])
    return df.assign(part="hiding", measure="p_hidden")


def _haggle_part(rules: Rules, g: _Grid) -> pd.DataFrame:
    rows = []
    for m in g.modifiers:
        h = haggle(Roll(m), dc=HAGGLE_BASE_DC, deception=Roll(m), rules=rules)
        case = f"Persuasion and Deception {m:+d}, DC {HAGGLE_BASE_DC}"
        rows.append((case, m, "p_noticed", h.p_noticed))
        rows.append((case, m, "price_mean", h.mean))
    df = pd.DataFrame(rows, columns=["case", "modifier", "measure", "value"])
    return df.assign(part="haggle", dc=HAGGLE_BASE_DC)


def _attack_odds(
    m: int, adv: Advantage, policy: Any, vds: list[int], rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """P(hit) and P(critical) of an attack of modifier ``m`` against each of ``vds``; best(λ)
    knows its target, as it knows a DC: played against each VD (VD - modifier, as on the DC
    table), a fixed policy against all at once."""
    if not isinstance(policy, Best):
        odds = attack_odds(Roll(m, advantage=adv, kind="attack", policy=policy), vds, rules)
        return np.asarray(odds.p_hit), np.asarray(odds.p_crit)
    p_hit, p_crit = np.empty(len(vds)), np.empty(len(vds))
    for i, vd in enumerate(vds):
        roll = Roll(0, advantage=adv, kind="attack", policy=Best(vd - m, policy.weight))
        odds = attack_odds(roll, [vd - m], rules)
        p_hit[i], p_crit[i] = odds.p_hit[0], odds.p_crit[0]
    return p_hit, p_crit


def _attack_part(rules: Rules, g: _Grid) -> pd.DataFrame:
    """P(hit) and P(critical) of attacks on the grid's modifiers, advantage states and
    policies (best(λ) against each VD), against the reference builds at :data:`ATTACK_LEVELS` (their VD under ``rules``)."""
    targets = [
        (f"{b.name} at level {lv}", b.at(lv).vd(rules))
        for b in reference_builds()
        for lv in ATTACK_LEVELS
    ]
    vds = [vd for _, vd in targets]
    cols = _Columns()
    for adv, policy in itertools.product(g.advantages, g.policies):
        for m in g.modifiers:
            p_hit, p_crit = _attack_odds(m, adv, policy, vds, rules)
            case = [f"{m:+d} vs {name}, {adv}, {policy}" for name, _ in targets]
            for measure, values in (("p_hit", p_hit), ("p_crit", p_crit)):
                cols.add(
                    values,
                    measure=measure,
                    case=case,
                    modifier=m,
                    advantage=adv,
                    policy=policy_label(policy),
                )
    return cols.frame("attack")


# -- the day ----------------------------------------------------------------------------------
#: Readings the day engines (exact_day, simulate_day) do not read yet: for each switch, what a
#: roll of the day must not need. Remove an entry when the day engines honour it.
_DAY_IGNORES: dict[str, tuple[str, Callable[[Roll, Rules], bool]]] = {
    # the day counts a total equal to its DC as a success: it plays no bids of HP
    "close_contest": ("can tie its DC (bids of HP)", lambda r, u: u.close_contest),
}


#: Why overflow="best" moves no number of the day's fixed policies (RULES: they pour into the
#: fullest); the optimal player's gain is benchmarks/bench_overflow_best.py's.
BEST_NOTE = (
    "the day's fixed policies pour into the fullest under 'best' too: only the optimal player "
    "(optimal_policy) chooses the gauge an excess goes to"
)


def _day_rolls(day: Scenario) -> list[tuple[str | None, bool, Roll]]:
    """Every roll the day can make: each roll type, its gauge with points and at 0."""
    return [
        (day_roll.label, empty, day.roll_of(r, gauge_empty=empty))
        for r, day_roll in enumerate(day.rolls)
        for empty in (False, True)
    ]


@dataclass(frozen=True)
class DayBlindSpot:
    """A reading the day engines do not read yet (:data:`_DAY_IGNORES`), and the roll of the
    day that needs it: ``switch`` and its ``value``, the roll type's ``roll`` label (``None``
    for a bare roll), what that roll does (``needs``) and whether only with its gauge at 0.
    ``str()`` says it in a sentence."""

    switch: str
    value: Any
    roll: str | None
    needs: str
    gauge_empty: bool = False

    def __str__(self) -> str:
        who = "the roll" if self.roll is None else repr(self.roll)
        when = " when its gauge is at 0" if self.gauge_empty else ""
        return (
            f"the day engines do not read {self.switch}={self.value} yet, and {who} "
            f"{self.needs}{when}"
        )


def day_blind_spot(day: Scenario | Roll, rules: Rules) -> DayBlindSpot | None:
    """Why the day engines (``simulate_day``, ``exact_day``) would give a wrong number for
    ``day`` (a scenario, or one roll repeated) under ``rules``, or None when they read every
    switch that its rolls need. A caller refuses the day, or shows it as not computed.

    >>> from explodice import Roll
    >>> str(day_blind_spot(Roll(0), Rules(close_contest=True)))
    'the day engines do not read close_contest=True yet, and the roll can tie its DC (bids of HP)'
    >>> day_blind_spot(Roll(0, advantage="disadvantage"), Rules(malus_die="plain")) is None
    True
    """
    rules = check_rules(rules)
    rolls = [(None, False, day)] if isinstance(day, Roll) else _day_rolls(day)
    for name, (what, needs) in _DAY_IGNORES.items():
        for label, empty, roll in rolls:
            if needs(roll, rules):
                return DayBlindSpot(name, getattr(rules, name), label, what, empty)
    return None


def _same_rolls(day: Scenario, a: Rules, b: Rules) -> bool:
    """True when every roll of the day has the same exact law under ``a`` and ``b`` (with its
    reroll on failure, and without it: once the day's rerolls are spent)."""
    for _, _, roll in _day_rolls(day):
        for r in {roll, roll.replace(reroll=None) if roll.reroll_dc is not None else roll}:
            x, y = exact(r, a), exact(r, b)
            if x.lo != y.lo or x.pmf.shape != y.pmf.shape or not np.array_equal(x.pmf, y.pmf):
                return False
    return True


def day_numbers(
    day: Scenario, rules: Rules, n_days: int | None = None, seed: int | None = None
) -> pd.DataFrame:
    """The day's numbers that :func:`sensitivity` compares, one row each (``case``,
    ``character``, ``gauge``, ``measure``, ``value``): P(empty by the long rest) per PC gauge
    and expected successes per character and for the party, exact, or simulated when
    ``n_days`` is given (with ``seed``). Cached (a notebook or a report asks again): empty
    the cache with ``day_numbers.cache_clear()``.
    """
    return _day_numbers(day, rules, n_days, seed).copy()


@lru_cache(maxsize=64)
def _day_numbers(day: Scenario, rules: Rules, n_days: int | None, seed: int | None) -> pd.DataFrame:
    if n_days is not None:
        res = simulate_day(day, rules, n_days=n_days, seed=seed)
    else:
        from explodice.day.exact import exact_day  # numba: only when a day is asked for

        res = exact_day(day, rules)
    gauges = res.to_frame("gauges")
    types = res.to_frame("roll_types")
    owner = {r.label: r.character for r in day.rolls}
    per_day = types.groupby(types["type"].map(owner), sort=False)["successes"].sum()
    per_day = per_day / res.n_days
    rows = [
        (f"{c} {g}", c, g, "p_empty", p)
        for c, g, p in zip(gauges["character"], gauges["gauge"], gauges["p_empty"])
    ]
    rows += [(f"{c}: successes", c, pd.NA, "successes", s) for c, s in per_day.items()]
    rows.append(("party: successes", pd.NA, pd.NA, "successes", float(per_day.sum())))
    df = pd.DataFrame(rows, columns=["case", "character", "gauge", "measure", "value"])
    return df.assign(part="day")


day_numbers.cache_clear = _day_numbers.cache_clear  # type: ignore[attr-defined]


@dataclass
class _Day:
    """The day part: its scenario and method; ``how`` records how each variant's was made."""

    day: Scenario
    method: str
    n_days: int
    seed: int
    how: dict[tuple[str, str], str] = field(default_factory=dict)

    def pair(self, base: Rules, other: Rules, simulate: bool) -> tuple[pd.DataFrame, ...]:
        n_days, seed = (self.n_days, self.seed) if simulate else (None, None)
        return tuple(day_numbers(self.day, r, n_days, seed) for r in (base, other))

    def frames(
        self, rules: Rules, moved: list[Variant], notes: dict[tuple[str, str], str]
    ) -> list[pd.DataFrame]:
        """Each variant's day against the base day, by the same method and seed; a day the
        engines cannot play right is left out, with the reason in ``notes``."""
        blind = day_blind_spot(self.day, rules)
        out = []
        for v in moved:
            key = (v.switch, v.value)
            if v.scope not in PART_SCOPES["day"]:
                continue
            reason = blind or day_blind_spot(self.day, v.rules)
            if reason is not None:
                notes[key] = f"day not computed: {reason}"
                continue
            if v.rules.overflow == "best" and rules.overflow == "fullest":
                notes[key] = BEST_NOTE  # computed all the same: the fixed policies' day
            simulate = self.method == "simulate"
            same = v.scope == "roll" and _same_rolls(self.day, rules, v.rules)
            try:
                base, changed = self.pair(rules, rules if same else v.rules, simulate)
            except ExplodiceError as err:
                if simulate:
                    notes[key] = f"day not computed: {err}"
                    continue
                simulate = True  # exact_day refused the day: both rules by one simulation
                try:
                    base, changed = self.pair(rules, rules if same else v.rules, simulate)
                except ExplodiceError as err2:
                    notes[key] = f"day not computed: {err}; {err2}"
                    continue
                notes[key] = f"day simulated: exact_day refused it ({err})"
            how = f"simulate (n_days={self.n_days}, seed={self.seed})" if simulate else "exact"
            self.how[key] = how + (" (its rolls do not change: the base day)" if same else "")
            out.append(_delta(v, base, changed, exact_numbers=not simulate))
        return out


def _delta(
    v: Variant, base: pd.DataFrame, changed: pd.DataFrame, *, exact_numbers: bool = True
) -> pd.DataFrame:
    """The cells of a part under ``v`` against the same cells under the base rules; between
    exact numbers a change below :data:`TOLERANCE` is the engines' rounding, so 0."""
    out = base.rename(columns={"value": "default"})
    keys = ["part", "measure", "case"]
    out = out.merge(changed[[*keys, "value"]].rename(columns={"value": "changed"}), on=keys)
    delta = out["changed"] - out["default"]
    out["delta"] = delta.where(delta.abs() >= TOLERANCE, 0.0) if exact_numbers else delta
    return out.assign(switch=v.switch, value=v.value)


# -- the result -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sensitivity:
    """The result of :func:`sensitivity`.

    - ``table``: one row per switch and value, sorted by ``largest`` (the largest change of
      any probability: P(success), P(total == DC) under the lutte serrée, P(gauge empty),
      P(hidden), P(noticed); ``largest_where`` says which and where), then by ``drain_max``.
      ``reads``: the switch's scope. ``dc_p_max``/``dc_p_mean``: max and mean |Δp| over the
      DC table's cells (``dc_where``: the cell of the max); ``drain_max``/``drain_mean``: the
      same for E[drain] per roll; ``dc_p_tie_max``; ``party_p_max``; ``day_p_empty_max``,
      ``day_successes_max`` (expected successes per character and day, and the party's);
      ``hiding_p_max``; ``haggle_p_noticed_max``; ``attack_p_hit_max``, ``attack_p_crit_max``;
      each ``*_where`` names where its max is.
      A part out of the switch's scope, or not computed, is NaN; ``day_method`` says how the
      day was computed and ``note`` why a part was not.
    - ``detail``: every cell, long form: ``switch, value, part, measure, case`` (and the
      case's keys: modifier, dc, advantage ...), ``default`` (under ``rules``), ``changed``
      (under the switch) and ``delta`` = changed - default.
    - ``by_measure``: max and mean |Δ| per switch, value, part and measure.

    All three carry the provenance in ``.attrs``: ``rules``, ``method`` (per part), ``n_days``
    and ``seed`` (of the day's simulations, when there were any), the grid, ``seconds``.
    """

    table: pd.DataFrame
    detail: pd.DataFrame = field(repr=False)
    by_measure: pd.DataFrame = field(repr=False)

    def to_frame(self, what: str = "table") -> pd.DataFrame:
        """``"table"`` (one row per switch and value), ``"detail"`` or ``"by_measure"``."""
        frames = {"table": self.table, "detail": self.detail, "by_measure": self.by_measure}
        return frames[check_choice("what", what, tuple(frames), ExplodiceError)]

    def _repr_html_(self) -> str:
        cols = ["switch", "value", "largest", "largest_where", "drain_max", "note"]
        return (
            f"<div><b>Which readings matter</b> (against {self.table.attrs['rules']})"
            f"{self.table[cols].to_html(index=False, float_format='{:.4f}'.format, na_rep='')}</div>"
        )


_SUMMARY = {  # table column prefix: (part, measure)
    "dc_p": ("dc_table", "p_success"),
    "drain": ("dc_table", "drain_mean"),
    "dc_p_tie": ("dc_table", "p_tie"),
    "party_p": ("party", "p_success"),
    "day_p_empty": ("day", "p_empty"),
    "day_successes": ("day", "successes"),
    "hiding_p": ("hiding", "p_hidden"),
    "haggle_p_noticed": ("haggle", "p_noticed"),
    "attack_p_hit": ("attack", "p_hit"),
    "attack_p_crit": ("attack", "p_crit"),
}
_WITH_MEAN = ("dc_p", "drain")  # the summaries that also show their mean |Δ|


def _by_measure(detail: pd.DataFrame) -> pd.DataFrame:
    columns = ["switch", "value", "part", "measure", "max", "mean", "where"]
    if detail.empty:
        return pd.DataFrame(columns=columns)
    d = detail.assign(abs_delta=detail["delta"].abs())
    keys = columns[:4]
    groups = d.groupby(keys, sort=False)["abs_delta"]
    top = d.loc[groups.idxmax(), keys + ["abs_delta", "case"]]
    top = top.rename(columns={"abs_delta": "max", "case": "where"})
    top["where"] = top["where"].where(top["max"] > 0, None)  # no change: nowhere in particular
    return top.merge(groups.mean().rename("mean").reset_index(), on=keys)[columns]


def _table(
    moved: list[Variant],
    by_measure: pd.DataFrame,
    notes: dict[tuple[str, str], str],
    day_how: dict[tuple[str, str], str],
) -> pd.DataFrame:
    keyed = by_measure.set_index(list(by_measure.columns[:4])).iterrows()
    # a 4-level MultiIndex labels its rows with 4-tuples, which pandas types as Hashable
    index = {cast(tuple[Any, ...], k): row for k, row in keyed}
    rows = []
    for v in moved:
        key = (v.switch, v.value)
        row: dict[str, Any] = {"switch": v.switch, "value": v.value, "reads": v.scope}
        for prefix, (part, measure) in _SUMMARY.items():
            hit = index.get((*key, part, measure))
            row[f"{prefix}_max"] = np.nan if hit is None else float(hit["max"])
            if prefix in _WITH_MEAN:
                row[f"{prefix}_mean"] = np.nan if hit is None else float(hit["mean"])
            row["dc_where" if prefix == "dc_p" else f"{prefix}_where"] = (
                hit["where"] if hit is not None and pd.notna(hit["where"]) else None
            )
        probabilities = [
            (float(hit["max"]), f"{k[2]}: {hit['where']}" if pd.notna(hit["where"]) else None)
            for k, hit in index.items()
            if k[:2] == key and k[3] in PROBABILITIES
        ]
        row["largest"], row["largest_where"] = max(probabilities, default=(np.nan, None))
        row["day_method"] = day_how.get(key)
        row["note"] = notes.get(key, "")
        row["rules"] = v.rules.describe()
        rows.append(row)
    table = pd.DataFrame(rows)
    lead = ["switch", "value", "largest", "largest_where", "reads"]
    table = table[lead + [c for c in table.columns if c not in lead]]
    return table.sort_values(
        ["largest", "drain_max", "switch", "value"],
        ascending=[False, False, True, True],
        na_position="last",
        kind="stable",
    ).reset_index(drop=True)


# -- the front door -----------------------------------------------------------------------------
def _as_party(value: Any) -> tuple[Character, ...] | None:
    if value is None:
        return None
    if isinstance(value, Character):
        value = [value]
    allowed = Phrase("a list of Characters (or a configuration with .party, .day and .rules)")
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise fail("party", value, allowed, ExplodiceError, wrong_type=True)
    try:
        party = tuple(value)
    except TypeError:  # a 0-d array
        raise fail("party", value, allowed, ExplodiceError, wrong_type=True) from None
    for i, c in enumerate(party):
        if not isinstance(c, Character):
            raise fail(f"party[{i}]", c, Phrase("a Character"), ExplodiceError, wrong_type=True)
    return party or None


_Name = TypeVar("_Name", bound=str)


def _choices(name: str, values: Any, allowed: tuple[_Name, ...]) -> tuple[_Name, ...]:
    """A non-empty list of names from ``allowed``, repeats dropped."""
    items = check_items(name, values, what=Phrase("values from {allowed}", allowed=list(allowed)))
    return tuple(dict.fromkeys(check_choice(name, x, allowed, ExplodiceError) for x in items))


def _lucky_or_none(value: Any) -> Reroll | None:
    reroll = as_reroll(value, "rerolls")
    if reroll is not None and reroll.trigger != "one":
        raise ExplodiceError(
            Phrase(
                "`rerolls` must hold None or Reroll('one') (Lucky): a reroll on "
                "failure takes each cell's DC, so it is not on this grid, but "
                "{reroll!r} was passed.",
                reroll=reroll,
            )
        )
    return reroll


def _grid(
    modifiers: Iterable[int],
    dcs: Iterable[int] | None,
    advantages: Iterable[str],
    kinds: Iterable[str],
    policies: Iterable[Any],
    rerolls: Iterable[Any],
) -> _Grid:
    return _Grid(
        modifiers=tuple(
            check_int("modifiers", m, lo=-100, hi=100)
            for m in check_items("modifiers", modifiers, what=Phrase("modifiers"))
        ),
        dcs=tuple(
            check_int("dcs", d, lo=-MAX_DC, hi=MAX_DC)
            for d in check_items(
                "dcs", DC_TABLE.values() if dcs is None else dcs, what=Phrase("DCs")
            )
        ),
        advantages=_choices("advantages", advantages, ADVANTAGE_STATES),
        kinds=_choices("kinds", kinds, KINDS),
        policies=tuple(
            parse_policy(p, dc=0, field_name="policies")
            for p in check_items("policies", policies, what=Phrase("policies"))
        ),
        rerolls=tuple(_lucky_or_none(r) for r in check_items("rerolls", rerolls)),
    )


def _parts_wanted(
    parts: Iterable[str] | None, party: Any, day: Scenario | None, day_method: str
) -> tuple[str, ...]:
    """The parts :func:`sensitivity` computes: ``parts``, checked against those its inputs
    allow (default: all of them)."""
    available = {"dc_table", "hiding", "haggle", "attack"}
    if party is not None:
        available.add("party")
    if day is not None and day_method != "none":
        available.add("day")
    if parts is None:
        return tuple(p for p in PARTS if p in available)
    wanted = _choices("parts", parts, PARTS)
    missing = [p for p in wanted if p not in available]
    if missing:
        raise ExplodiceError(
            Phrase(
                "`parts` {missing} need their input: 'party' a party, 'day' a day "
                "scenario (and day_method other than 'none').",
                missing=missing,
            )
        )
    return wanted


def _out_of_scope(moved: list[Variant], wanted: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """Why a switch's value has no number: the parts that read it are not computed."""
    notes: dict[tuple[str, str], str] = {}
    for v in moved:
        if not any(v.scope in PART_SCOPES[p] for p in wanted):
            notes[(v.switch, v.value)] = (
                f"{v.switch} is read by the {v.scope} only, which this call does not compute"
            )
    return notes


def _provenance(
    rules: Rules,
    wanted: tuple[str, ...],
    days: _Day | None,
    n_days: int,
    seed: int,
    grid: _Grid,
) -> dict[str, Any]:
    """The ``attrs`` of a :class:`Sensitivity`'s tables: rules, methods, sample, grid, parts
    (the seconds it took are added by the caller)."""
    simulated = days is not None and any("simulate" in h for h in days.how.values())
    return {
        "rules": rules.describe(),
        "method": {p: "exact" for p in wanted if p != "day"}
        | ({"day": sorted(set(days.how.values()))} if days is not None else {}),
        "n_days": n_days if simulated else None,
        "seed": seed if simulated else None,
        "scenario": days.day.name if days is not None else None,
        "modifiers": list(grid.modifiers),
        "dcs": list(grid.dcs),
        "advantages": list(grid.advantages),
        "kinds": list(grid.kinds),
        "policies": [policy_label(p) for p in grid.policies],
        "rerolls": [str(r) if r is not None else "none" for r in grid.rerolls],
        "parts": list(wanted),
    }


def sensitivity(
    party: Any = None,
    day: Scenario | None = None,
    *,
    rules: Rules | None = None,
    switches: Iterable[str] | None = None,
    modifiers: Iterable[int] | None = None,
    dcs: Iterable[int] | None = None,
    advantages: Iterable[str] = ("normal", "advantage", "disadvantage"),
    kinds: Iterable[str] = KINDS,
    policies: Iterable[Any] = ("keep", "cancel"),
    rerolls: Iterable[Any] = (None, "one"),
    parts: Iterable[str] | None = None,
    day_method: DayMethod = "exact",
    n_days: int | None = None,
    seed: int | None = None,
) -> Sensitivity:
    """Which readings matter: every switch of ``rules`` at each of its other values, and the
    change it makes in P(success), E[drain], the day and the resolutions (module docstring).

    ``party`` is a list of Characters, or a configuration with ``.party``, ``.day`` and
    ``.rules`` (and optionally ``.modifiers``, ``.seed``, ``.days``), read by duck typing;
    ``day`` is a :class:`~explodice.Scenario` (by default the configuration's).
    ``switches`` names the switches to move (default: every one). The DC table's grid:
    ``modifiers`` (default the configuration's, else -5..+10), ``dcs`` (the DC table),
    ``advantages``, ``kinds`` (every kind, so that ``rule_of_one_kinds`` shows), ``policies``
    (``"keep"``, ``"cancel"``, ``Best``, ``"best:λ"`` or a number λ: best(λ) against each
    cell's DC) and ``rerolls`` (``None``, ``"one"``: Lucky). ``parts``: any of :data:`PARTS`
    (default: every part its inputs allow). ``day_method``: ``"exact"``
    (:func:`~explodice.exact_day`, and :func:`~explodice.simulate_day` with ``n_days`` days and
    ``seed`` where it refuses the day), ``"simulate"`` or ``"none"``.

    >>> s = sensitivity(modifiers=[0], dcs=[16], parts=("hiding",))
    >>> s.table.iloc[0][["switch", "value"]].tolist()
    ['hiding_ties', 'observer']
    """
    began = time.perf_counter()
    config = None
    if party is not None and hasattr(party, "party") and hasattr(party, "day"):
        config, party = party, party.party
        day = config.day if day is None else day
        rules = getattr(config, "rules", None) if rules is None else rules
    rules = check_rules(rules)
    party_ = _as_party(party)
    if day is not None and not isinstance(day, Scenario):
        raise ExplodiceTypeError(
            Phrase("`day` must be a Scenario or None, but {day} was passed.", day=shown(day))
        )
    if modifiers is None:
        modifiers = getattr(config, "modifiers", None) or MODIFIERS
    grid = _grid(modifiers, dcs, advantages, kinds, policies, rerolls)
    day_method = check_choice("day_method", day_method, DAY_METHODS, ExplodiceError)
    if n_days is None:
        n_days = getattr(config, "days", None) or DEFAULT_N_DAYS
    n_days = check_int("n_days", n_days, lo=1, hi=10**9, error=ExplodiceError)
    if seed is None:
        seed = getattr(config, "seed", DEFAULT_SEED)
    seed = check_int("seed", seed, lo=0, error=ExplodiceError)
    wanted = _parts_wanted(parts, party_, day, day_method)
    moved = variants(rules)
    if switches is not None:
        names = _choices("switches", switches, tuple(dict.fromkeys(v.switch for v in moved)))
        moved = [v for v in moved if v.switch in names]

    measures: dict[str, Callable[[Rules], pd.DataFrame]] = {
        "dc_table": lambda r: _dc_part(r, grid),
        "party": lambda r: _party_part(r, party_ or (), grid),
        "hiding": lambda r: _hiding_part(r, grid),
        "haggle": lambda r: _haggle_part(r, grid),
        "attack": lambda r: _attack_part(r, grid),
    }
    frames = []
    for part in (p for p in wanted if p != "day"):
        in_scope = [v for v in moved if v.scope in PART_SCOPES[part]]
        if not in_scope:
            continue
        base = measures[part](rules)
        frames += [_delta(v, base, measures[part](v.rules)) for v in in_scope]
    notes = _out_of_scope(moved, wanted)
    days = None
    if "day" in wanted and day is not None:
        days = _Day(day, day_method, n_days, seed)
        frames += days.frames(rules, moved, notes)
    detail = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    by_measure = _by_measure(detail)
    table = _table(moved, by_measure, notes, days.how if days is not None else {})
    attrs = _provenance(rules, wanted, days, n_days, seed, grid)
    attrs["seconds"] = time.perf_counter() - began
    for frame in (table, detail, by_measure):
        frame.attrs.clear()
        frame.attrs.update(attrs)
    return Sensitivity(table, detail, by_measure)
