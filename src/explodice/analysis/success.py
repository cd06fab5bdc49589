"""Odds against the DC table, for modifiers or characters, in both systems.

:func:`success_table` gives one tidy row per (modifier, DC, advantage state): by the exact
engine by default, by simulation on request (then with ``ci_low``, ``ci_high``, ``n``,
``seed``). Every modifier reads the same distribution at ``dc - modifier``, so the whole
3d6x table costs one exact distribution per advantage state (milliseconds).
:func:`pivot_success` turns it into the wide grid a designer pastes into a rulebook.

>>> from explodice import success_table, pivot_success
>>> t = success_table(modifiers=[0, 4], dcs=[16])
>>> list(t.columns[:9])
['system', 'modifier', 'dc', 'difficulty', 'advantage', 'disadvantage', 'policy', 'method', 'p']
>>> round(float(t.query("modifier == 0 and advantage == 'normal'").p.iloc[0]), 4)
0.2539
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import (
    ExplodiceTypeError,
    check_choice,
    check_flag,
    check_items,
    fail,
    shown,
)
from explodice.core.words import Phrase
from explodice.engine.d20 import d20
from explodice.engine.distribution import Distribution
from explodice.engine.exact import exact
from explodice.engine.sampling import Method, Sampling, Streams, resolve_sampling
from explodice.engine.simulate import simulate
from explodice.game.character import ABILITIES, Character, resolve_ability, resolve_skill
from explodice.game.checks import check_rules
from explodice.game.reroll import Reroll
from explodice.game.rules import (
    ADVANTAGE_STATES,
    DISADVANTAGE_READINGS,
    Actor,
    Advantage,
    Best,
    Disadvantage,
    ExplodiceError,
    Policy,
    Roll,
    RollKind,
    Rules,
    check_int,
)
from explodice.game.tables import (
    DC_TABLE,
    DC_TABLES,
    DIFFICULTY_FR,
    MAX_DC,
    MODIFIERS,
    SYSTEMS,
    System,
    check_system,
    difficulty_of,
)

__all__ = [
    "DC_TABLE",
    "DC_TABLES",
    "DIFFICULTY_FR",
    "MODIFIERS",
    "SYSTEMS",
    "Sampling",
    "dc_table",
    "pivot_success",
    "refuse_failure_reroll",
    "roll_distribution",
    "success_table",
    "unpivot_success",
]

_STATE_ORDER: tuple[Advantage, ...] = ("normal", "advantage", "disadvantage")


def dc_table(system: System = "3d6x") -> pd.DataFrame:
    """The typical DC table of a system: ``difficulty``, ``difficulty_fr``, ``dc``.

    >>> dc_table().dc.tolist()
    [8, 12, 16, 22, 28, 35]
    """
    table = DC_TABLES[check_system(system)]
    return pd.DataFrame(
        {
            "difficulty": list(table),
            "difficulty_fr": [DIFFICULTY_FR[d] for d in table],
            "dc": list(table.values()),
        }
    )


def roll_distribution(
    roll: Roll,
    *,
    system: System = "3d6x",
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    progress: bool | None = None,
    sampling: Sampling | None = None,
) -> Distribution:
    """The distribution of ``roll`` in either system, exact or simulated (with ``seed`` as
    given: the same numbers as :func:`~explodice.simulate` or :func:`~explodice.d20`).
    ``sampling`` (a :class:`~explodice.Sampling`) or ``method``, ``n``, ``seed``, ``threads``
    say how (default: exact; simulated, 200,000 rolls).

    >>> round(roll_distribution(Roll(3), system="d20").p_success(15), 6)
    0.45
    """
    system, rules = check_system(system), check_rules(rules)
    s = resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads)
    progress = check_flag("progress", progress, none=True)
    if not s.simulated:
        return d20(roll) if system == "d20" else exact(roll, rules)
    if system == "d20":
        return d20(roll, method="simulate", n=s.n, seed=s.seed)
    return simulate(roll, rules, n=s.n, seed=s.seed, threads=s.threads, progress=progress)


def _distribution(roll: Roll, system: System, rules: Rules, streams: Streams) -> Distribution:
    """One distribution of a call: simulated ones each take the call's next stream."""
    s = streams.sampling
    if not s.simulated:
        return d20(roll) if system == "d20" else exact(roll, rules)
    if system == "d20":
        return d20(roll, method="simulate", n=s.n, seed=streams.next())
    return simulate(roll, rules, n=s.n, seed=streams.next(), threads=s.threads)


def as_distribution(
    item: Roll | Distribution, system: System, rules: Rules, streams: Streams
) -> Distribution:
    """A Distribution passes through; a Roll is computed (``streams``: the call's
    :meth:`Sampling.streams`)."""
    if isinstance(item, Distribution):
        return item
    if isinstance(item, Roll):
        return _distribution(item, system, rules, streams)
    raise ExplodiceTypeError(
        Phrase("expected a Roll or a Distribution, but {item} was passed.", item=shown(item))
    )


def refuse_failure_reroll(item: Any, field_name: str, where: str) -> None:
    """Refuse a roll (or a distribution of one) that carries a reroll on failure where there
    is no DC to fail: ``where`` says which test (an opposed test, initiative ...)."""
    roll = item.roll if isinstance(item, Distribution) else item
    if isinstance(roll, Roll) and roll.reroll_dc is not None:
        err = ExplodiceError(
            Phrase(
                "`{field_name}` must not carry a reroll on failure in {where}, which "
                "has no DC to fail (Reroll('one'), Lucky, is allowed), but {reroll} "
                "was passed.",
                field_name=field_name,
                where=where,
                reroll=shown(roll.reroll),
            )
        )
        err.field = field_name
        raise err


def resolve_readings(
    readings: Iterable[str] | str | None, rules: Rules
) -> tuple[Disadvantage, ...]:
    """The readings of disadvantage to show: the rules' own by default, ``"both"``, or a list.

    >>> resolve_readings(None, Rules(disadvantage="drop")), resolve_readings("both", Rules())
    (('drop',), ('subtract', 'drop'))
    """
    if readings is None:
        return (rules.disadvantage,)
    if isinstance(readings, str):
        if readings == "both":
            return DISADVANTAGE_READINGS
        readings = [readings]
    listed = check_items(
        "readings",
        readings,
        what=Phrase(
            "readings {DISADVANTAGE_READINGS}", DISADVANTAGE_READINGS=list(DISADVANTAGE_READINGS)
        ),
    )
    out = tuple(check_choice("readings", r, DISADVANTAGE_READINGS) for r in listed)
    if not out:
        raise ExplodiceError(
            Phrase("`readings` must name at least one reading, but [] was passed.")
        )
    return out


def states(
    system: System, advantages: Iterable[str], readings: Iterable[str], rules: Rules
) -> list[tuple[str, Advantage, Rules]]:
    """``(label, advantage, rules)`` per advantage state; 3d6x disadvantage once per reading."""
    out: list[tuple[str, Advantage, Rules]] = []
    chosen = [
        check_choice("advantages", adv, ADVANTAGE_STATES, ExplodiceError)
        for adv in check_items(
            "advantages",
            advantages,
            what=Phrase("states {ADVANTAGE_STATES}", ADVANTAGE_STATES=list(ADVANTAGE_STATES)),
        )
    ]
    what = f"readings {list(DISADVANTAGE_READINGS)}"
    read = [
        check_choice("readings", r, DISADVANTAGE_READINGS, ExplodiceError)
        for r in check_items("readings", readings, what=what)
    ]
    for adv in sorted(chosen, key=_STATE_ORDER.index):
        if adv == "disadvantage" and system == "3d6x":
            for reading in read:
                out.append(
                    (
                        f"disadvantage ({reading})",
                        adv,
                        dataclasses.replace(rules, disadvantage=reading),
                    )
                )
        else:
            out.append((adv, adv, rules))
    return out


def policy_label(policy: Policy, actor: Actor = "pc", system: System = "3d6x") -> str:
    """The policy as a table label: 'keep', 'cancel', 'best(λ=0.1)', 'npc', or 'none' (d20)."""
    if system == "d20":
        return "none"
    if actor == "npc":
        return "npc"
    if isinstance(policy, Best):
        return f"best(λ={policy.weight:g})"
    return str(policy)


def _grid(
    base: Roll | tuple[Roll, Reroll],
    mods: np.ndarray,
    dcs: np.ndarray,
    system: System,
    rules: Rules,
    streams: Streams,
) -> dict[str, np.ndarray]:
    """p, ci_low, ci_high, p_complication, drain_mean over (modifier, dc), from base (mod 0);
    ``(base, reroll)`` for a reroll on failure, which depends on each cell's DC."""
    if isinstance(base, tuple):
        return _failure_grid(*base, mods, dcs, system, rules, streams)
    need = dcs[None, :] - mods[:, None]
    if not isinstance(base.policy, Best) or system == "d20":
        dist = _distribution(base, system, rules, streams)
        lo, hi = dist.ci(need)
        comp = 1.0 - dist.ones_pmf[0] / dist.ones_pmf.sum()
        return {
            "p": dist.p_success(need),
            "ci_low": lo,
            "ci_high": hi,
            "p_tie": dist.p_success(need) - dist.p_success(need + 1),  # total == DC
            "p_complication": np.full(need.shape, comp),
            "drain_mean": np.full(need.shape, dist.drain_mean),
        }
    # best(λ) knows the DC: its table depends on dc - modifier only.
    out = {
        k: np.empty(need.shape)
        for k in ("p", "ci_low", "ci_high", "p_tie", "p_complication", "drain_mean")
    }
    for value in np.unique(need):
        roll = base.replace(policy=Best(int(value), base.policy.weight))
        dist = _distribution(roll, system, rules, streams)
        cells = need == value
        out["p"][cells] = dist.p_success(int(value))
        out["ci_low"][cells], out["ci_high"][cells] = dist.ci(int(value))
        out["p_tie"][cells] = dist.p_success(int(value)) - dist.p_success(int(value) + 1)
        out["p_complication"][cells] = 1.0 - dist.ones_pmf[0] / dist.ones_pmf.sum()
        out["drain_mean"][cells] = dist.drain_mean
    return out


def _failure_grid(
    base: Roll,
    reroll: Reroll,
    mods: np.ndarray,
    dcs: np.ndarray,
    system: System,
    rules: Rules,
    streams: Streams,
) -> dict[str, np.ndarray]:
    """The grid of a roll with a reroll on failure: one distribution per cell."""
    shape = (mods.size, dcs.size)
    out = {
        k: np.empty(shape)
        for k in ("p", "ci_low", "ci_high", "p_tie", "p_complication", "drain_mean")
    }
    for i, m in enumerate(mods):
        for j, dc in enumerate(dcs):
            roll = base.replace(modifier=int(m), reroll=reroll.with_dc(int(dc)))
            if isinstance(roll.policy, Best):
                roll = roll.replace(policy=Best(int(dc), roll.policy.weight))
            dist = _distribution(roll, system, rules, streams)
            out["p"][i, j] = dist.p_success(int(dc))
            out["ci_low"][i, j], out["ci_high"][i, j] = dist.ci(int(dc))
            out["p_tie"][i, j] = dist.p_success(int(dc)) - dist.p_success(int(dc) + 1)
            out["p_complication"][i, j] = 1.0 - dist.ones_pmf[0] / dist.ones_pmf.sum()
            out["drain_mean"][i, j] = dist.drain_mean
    return out


@dataclass(frozen=True)
class _Spec:
    """One test to tabulate: its modifier, kind, actor, policy and label columns."""

    modifier: int
    kind: RollKind
    actor: Actor
    policy: Policy
    labels: tuple[tuple[str, Any], ...] = ()
    reroll: Reroll | None = None  # a character's trait; a reroll on failure takes each DC


def _character_specs(
    characters: Sequence[Character], tests: Iterable[Any] | None, system: System
) -> list[_Spec]:
    specs = []
    for c in characters:
        if not isinstance(c, Character):
            raise ExplodiceTypeError(
                Phrase("`characters` must hold Character objects, but {c} was passed.", c=shown(c))
            )
        wanted = (
            list(tests)
            if tests is not None
            else (
                [f"save {a}" for a in ABILITIES]
                + list(dict.fromkeys(s for s, m in c.skills.items() if m))
            )
        )
        for test in wanted:
            roll, label = _character_roll(c, test, system)
            specs.append(
                _Spec(
                    roll.modifier,
                    roll.kind,
                    roll.actor,
                    roll.policy,
                    (("character", c.name), ("test", label), ("kind", roll.kind)),
                    c.reroll,
                )
            )
    return specs


def _character_roll(c: Character, test: Any, system: System) -> tuple[Roll, str]:
    """'Perception' (skill check), 'DEX' (ability check), 'save DEX' or ('save', 'DEX')."""
    if isinstance(test, tuple) and len(test) == 2 and isinstance(test[0], str):
        if test[0] == "save" and isinstance(test[1], str):
            test = f"save {test[1]}"
    if not isinstance(test, str):
        allowed = Phrase("skill or ability names or 'save <ability>'")
        raise fail("tests", test, allowed, ExplodiceError, wrong_type=True)
    words = test.split()
    if len(words) == 2 and "save" in (words[0].lower(), words[1].lower()):
        ability = resolve_ability(
            words[1] if words[0].lower() == "save" else words[0], field_name="tests"
        )
        return c.roll(ability=ability, kind="save", system=system, dc=0), f"save {ability}"
    try:
        ability = resolve_ability(test, field_name="tests")
    except ExplodiceError:
        skill = resolve_skill(test, field_name="tests")
        return c.roll(skill, system=system, dc=0), skill  # dc: binds a failure reroll
    return c.roll(ability=ability, system=system, dc=0), ability


def _specs(
    modifiers: Iterable[int] | None,
    characters: Sequence[Character] | Character | None,
    tests: Iterable[Any] | None,
    system: System,
    kind: RollKind,
    actor: Actor,
    policy: Policy,
) -> list[_Spec]:
    """The tests of a success table: each character's (``tests``, else its saves and skills),
    else one per modifier (default -5..+10)."""
    if characters is not None:
        if modifiers is not None:
            raise ExplodiceError(
                Phrase(
                    "`modifiers` must be None when `characters` is given, but "
                    "{modifiers} was passed.",
                    modifiers=shown(modifiers),
                )
            )
        characters = (
            [characters]
            if isinstance(characters, Character)
            else check_items("characters", characters, what=Phrase("Character objects"))
        )
        tests = None if tests is None else check_items("tests", tests, what=Phrase("tests"))
        return _character_specs(characters, tests, system)
    mods = (
        MODIFIERS
        if modifiers is None
        else check_items("modifiers", modifiers, what=Phrase("modifiers"))
    )
    return [_Spec(check_int("modifiers", m, lo=-100, hi=100), kind, actor, policy) for m in mods]


def _group_columns(
    specs: list[_Spec],
    idx: list[int],
    group: tuple[RollKind, Actor, Policy, Reroll | None],
    state: tuple[int, str, Advantage, Rules],
    dc_arr: np.ndarray,
    difficulties: np.ndarray,
    system: System,
    streams: Any,
) -> dict[str, np.ndarray]:
    """The rows of one group of tests (``idx`` into ``specs``: the same kind, actor, policy
    and reroll) in one advantage state (its index, label, advantage and rules), each against
    every DC: the columns of the table, with ``_order`` and ``_state`` to sort them by."""
    g_kind, g_actor, g_policy, g_reroll = group
    s_i, label, adv, state_rules = state
    base = Roll(
        0,
        advantage=adv,
        kind=g_kind,
        actor=g_actor,
        policy=g_policy,
        reroll=g_reroll if g_reroll is None or g_reroll.trigger == "one" else None,
    )
    cell: Roll | tuple[Roll, Reroll] = base
    if g_reroll is not None and g_reroll.trigger == "failure":
        cell = (base, g_reroll)
    mods_arr = np.array([specs[i].modifier for i in idx])
    grid = _grid(cell, mods_arr, dc_arr, system, state_rules, streams)
    size = grid["p"].size
    cols = {
        "_order": np.repeat(idx, dc_arr.size),
        "_state": np.full(size, s_i),
        "modifier": np.repeat(mods_arr, dc_arr.size),
        "dc": np.tile(dc_arr, len(idx)),
        "difficulty": np.tile(difficulties, len(idx)),
        "advantage": np.full(size, label, dtype=object),
        "disadvantage": np.full(
            size, state_rules.disadvantage if adv == "disadvantage" else None, dtype=object
        ),
        "policy": np.full(size, policy_label(g_policy, g_actor, system), dtype=object),
    }
    cols |= {k: v.ravel() for k, v in grid.items()}
    for name in dict(specs[idx[0]].labels):
        cols[name] = np.repeat(
            np.array([dict(specs[i].labels)[name] for i in idx], dtype=object), dc_arr.size
        )
    return cols


def _table(
    parts: dict[str, list[Any]],
    dc_arr: np.ndarray,
    system: System,
    rules: Rules,
    sampling: Sampling,
    streams: Any,
    kind: RollKind | None,
) -> pd.DataFrame:
    """The table from its parts' columns: rows ordered by test (as given), then advantage
    state, then DC (as given); its provenance in columns and ``attrs`` (``kind`` is None for
    characters' tests)."""
    data: dict[str, Any] = {k: np.concatenate(v) for k, v in parts.items()}  # + scalars below
    order = np.lexsort(
        (
            np.tile(np.arange(dc_arr.size), data["dc"].size // dc_arr.size),
            data["_state"],
            data["_order"],
        )
    )
    data = {k: v[order] for k, v in data.items()}
    columns: list[str] = [c for c in ("character", "test", "kind") if c in data]
    columns += ["system", "modifier", "dc", "difficulty", "advantage"]
    columns += ["disadvantage"] if system == "3d6x" else []
    columns += ["policy", "method", "p"]
    data |= {"system": system, "method": sampling.method}
    if sampling.simulated:
        columns += ["ci_low", "ci_high", "n", "seed"]
        data |= {"n": sampling.n, "seed": streams.record}
    columns += ["p_tie"] if rules.close_contest else []  # lutte serrée: ties go to the bids
    columns += ["p_complication", "drain_mean"]
    table = pd.DataFrame({c: data[c] for c in columns}, index=pd.RangeIndex(order.size))
    table.attrs.update(
        {
            "system": system,
            "method": sampling.method,
            "rules": rules if system == "3d6x" else None,
            "kind": kind,
            "n": sampling.n if sampling.simulated else None,
            "seed": streams.record,
        }
    )
    return table


def success_table(
    modifiers: Iterable[int] | None = None,
    dcs: Iterable[int] | None = None,
    *,
    system: System = "3d6x",
    characters: Sequence[Character] | None = None,
    tests: Iterable[Any] | None = None,
    advantages: Iterable[str] = _STATE_ORDER,
    readings: Iterable[str] | str | None = None,
    rules: Rules | None = None,
    kind: RollKind = "check",
    actor: Actor = "pc",
    policy: Policy = "keep",
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> pd.DataFrame:
    """P(success) for each modifier (or each character's test), DC and advantage state.

    Defaults: modifiers -5..+10, the system's DC table (3d6x 8..35, d20 5..30) and every
    advantage state. The reading of disadvantage is the one of ``rules``; ``readings``
    (``"both"`` or a list such as ``["subtract", "drop"]``) shows others side by side
    instead. In 3d6x, disadvantage rows are labelled with their reading
    (``"disadvantage (subtract)"``) and the ``disadvantage`` column holds it. ``policy`` may be
    ``Best(dc, weight)``: each row then uses its own DC with that weight. With ``characters``,
    rows get ``character``, ``test`` and ``kind`` columns (``tests``: skill or ability
    names or ``"save DEX"``; by default each save and each proficient skill). ``sampling``
    (a :class:`~explodice.Sampling`) or ``method``, ``n``, ``seed``, ``threads`` say how the
    distributions are computed (default: exact; simulated, 200,000 rolls each).

    Columns: ``system, modifier, dc, difficulty, advantage, policy, method, p``, then
    ``p_complication`` (P(at least one kept 1) in 3d6x, P(natural 1) in d20) and
    ``drain_mean``; simulated tables add ``ci_low, ci_high, n, seed``. With
    ``rules.close_contest`` (lutte serrée) on, ``p_tie`` is P(total == DC): the share of ``p``
    that is settled by bids of HP instead (see :mod:`explodice.analysis.close_contest`).

    >>> t = success_table(modifiers=[3], dcs=[15], system="d20", advantages=["advantage"])
    >>> round(float(t.p.iloc[0]), 4)
    0.6975
    """
    system = check_system(system)
    rules = check_rules(rules)
    readings = resolve_readings(readings, rules)
    advantages = check_items(
        "advantages",
        advantages,
        what=Phrase("states {ADVANTAGE_STATES}", ADVANTAGE_STATES=list(ADVANTAGE_STATES)),
    )
    sampling = resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads)
    streams = sampling.streams()
    Roll(kind=kind, actor=actor, policy=policy)  # validates kind, actor, policy
    dc_list = (
        list(DC_TABLES[system].values())
        if dcs is None
        else [
            check_int("dcs", d, lo=-MAX_DC, hi=MAX_DC)
            for d in check_items("dcs", dcs, what=Phrase("DCs"))
        ]
    )
    specs = _specs(modifiers, characters, tests, system, kind, actor, policy)
    dc_arr = np.asarray(dc_list, dtype=int)
    difficulties = np.array([difficulty_of(int(d), system) for d in dc_arr], dtype=object)
    groups: dict[tuple[RollKind, Actor, Policy, Reroll | None], list[int]] = {}
    for i, spec in enumerate(specs):
        groups.setdefault((spec.kind, spec.actor, spec.policy, spec.reroll), []).append(i)
    parts: dict[str, list[Any]] = {}
    for s_i, (label, adv, state_rules) in enumerate(states(system, advantages, readings, rules)):
        for group, idx in groups.items():
            state = (s_i, label, adv, state_rules)
            cols = _group_columns(specs, idx, group, state, dc_arr, difficulties, system, streams)
            for k, v in cols.items():
                parts.setdefault(k, []).append(v)
    return _table(
        parts, dc_arr, system, rules, sampling, streams, kind if characters is None else None
    )


def pivot_success(
    table: pd.DataFrame,
    *,
    index: str | Sequence[str] = "modifier",
    columns: str | Sequence[str] = ("advantage", "dc"),
    values: str = "p",
) -> pd.DataFrame:
    """The wide grid of a tidy success table (rows: modifiers; columns: advantage x DC).

    Each cell must be unique: filter the table first if it holds several policies or
    characters (an error says so otherwise). :func:`unpivot_success` goes back.

    >>> wide = pivot_success(success_table(modifiers=[0, 1], dcs=[8, 16], advantages=["normal"]))
    >>> wide.shape
    (2, 2)
    """
    if not isinstance(table, pd.DataFrame):
        raise ExplodiceTypeError(
            Phrase(
                "`table` must be a DataFrame from success_table, but {table} was passed.",
                table=shown(table),
            )
        )
    index = _column_names("index", index)
    columns = _column_names("columns", columns)
    values = _column_names("values", values, one=True)[0]
    missing = [c for c in index + columns + [values] if c not in table.columns]
    if missing:
        raise ExplodiceError(
            Phrase(
                "`table` must have the columns {missing}, but its columns are {columns}.",
                missing=missing,
                columns=list(table.columns),
            )
        )
    dup = table.duplicated(subset=index + columns)
    if dup.any():
        row = table.loc[dup, index + columns].iloc[0].to_dict()
        raise ExplodiceError(
            Phrase(
                "`table` must have one row per {value} to pivot, but {row} repeats; "
                "filter it (by policy, character, ...) first.",
                value=index + columns,
                row=row,
            )
        )
    wide = table.pivot(index=index, columns=columns, values=values)
    order = table[columns].drop_duplicates()
    if len(columns) == 1:
        wide = wide.reindex(columns=order[columns[0]].tolist())
    else:
        wide = wide.reindex(columns=pd.MultiIndex.from_frame(order))
    wide = wide.reindex(index=table[index].drop_duplicates().set_index(index).index)
    wide.attrs.update(table.attrs)
    return wide


def _column_names(field_name: str, value: Any, *, one: bool = False) -> list[str]:
    """A column name, or (unless ``one``) a list of them, as a list."""
    allowed = "a column name" if one else "a column name or a list of them"
    if isinstance(value, str):
        return [value]
    if one or isinstance(value, (bytes, Mapping)) or not isinstance(value, (list, tuple)):
        raise fail(field_name, value, allowed, ExplodiceError, wrong_type=True)
    names = check_items(field_name, value, what=Phrase("column names"))
    if not all(isinstance(v, str) for v in names):
        raise fail(field_name, value, allowed, ExplodiceError, wrong_type=True)
    return names


def unpivot_success(wide: pd.DataFrame, *, values: str = "p") -> pd.DataFrame:
    """The tidy rows of a wide grid made by :func:`pivot_success` (index and column levels
    become columns, the cells the ``values`` column).
    """
    if not isinstance(wide, pd.DataFrame):
        raise fail("wide", wide, Phrase("a DataFrame from pivot_success"), ExplodiceTypeError)
    values = _column_names("values", values, one=True)[0]
    long = wide.melt(ignore_index=False, value_name=values).reset_index()
    return long.dropna(subset=[values]).reset_index(drop=True)
