"""The combat questions (docs/rules.md, "Combat"): the attack table, the chances across levels,
and the defence base that keeps 5e's feel.

- :func:`attack_table`: attack modifier x AC (or VD) x advantage state -> P(hit) and
  P(critical) in 3d6x (against VD = AC - 10 + ``defence_base`` + the target's WIS term) beside
  5e (against the AC, naturals as 5e reads them), and the *equivalent VD* of each AC for that
  attacker: the VD whose 3d6x P(hit) is closest to 5e's (as ``equivalent_dc`` gives the DC).
- :func:`combat_progression`: each build at levels 1..20 against a monster of FP = level + k
  (the bestiary's typical monster of that FP unless the designer names their own): P(the build
  hits), P(it crits), P(the monster hits), P(the build saves against its DC), P(the monster
  saves against the build's spell DC), in both systems, with 5e's 65 % mark.
- :func:`fit_defence_base`: the ``defence_base`` whose 3d6x hit chances stay closest to 5e's
  over those cases (least squares or minimax), the error per case, and the base each reading of
  the VD (``wisdom_in_defence``, ``armour_dex_cap``) would take.

Every table is tidy and carries ``method``, ``n``, ``seed`` and the rules that differ from the
defaults (``rules`` column; all of ``rules.describe()`` in ``.attrs``).

>>> t = attack_table(modifiers=[5], acs=[13], advantages=["normal"], rules=Rules(defence_base=10))
>>> round(float(t.p_hit_d20[0]), 2), int(t.vd[0])
(0.65, 13)
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pandas as pd

from explodice.analysis.levels import CRITERIA, Criterion, check_builds
from explodice.core.errors import (
    ExplodiceError,
    check_choice,
    check_int,
    check_items,
    check_unique,
    fail,
)
from explodice.core.words import Phrase
from explodice.engine.attack import AttackOdds, attack_odds
from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.engine.sampling import Method, Sampling, resolve_sampling
from explodice.game.build import LEVELS, Build, check_levels, reference_builds
from explodice.game.character import Character, resolve_ability
from explodice.game.checks import check_rules
from explodice.game.defence import wisdom_term
from explodice.game.monster import Monster, fp_label
from explodice.game.rules import (
    ACTORS,
    ADVANTAGE_STATES,
    ARMOUR_DEX_CAPS,
    WISDOM_IN_DEFENCE,
    Actor,
    Advantage,
    Roll,
    Rules,
)
from explodice.game.tables import (
    D20_AC_BASE,
    DEFENCE_BASE_RANGE,
    FP_VALUES,
    HIT_MARK_D20,
    System,
    parse_fp,
)

__all__ = [
    "DEFAULT_OFFSETS",
    "DefenceBaseFit",
    "attack_table",
    "combat_progression",
    "critical_table",
    "defence_curves",
    "fit_defence_base",
    "fit_from_curves",
    "fp_of",
    "rules_changed",
]

#: The FP offsets of the defence base's fit: a level-matched monster and three FPs each side.
DEFAULT_OFFSETS = (-3, -2, -1, 0, 1, 2, 3)
#: The saves a build and a monster are measured on by default (5e's three most common).
DEFAULT_SAVES = ("DEX", "CON", "WIS")
#: FP by "level + k" when level + k < 1: 0 is FP 1/2, -1 FP 1/4, -2 FP 1/8, -3 FP 0.
_BELOW_ONE = {0: Fraction(1, 2), -1: Fraction(1, 4), -2: Fraction(1, 8), -3: Fraction(0)}


def rules_changed(rules: Rules) -> str:
    """The switches of ``rules`` that differ from the defaults, ``name=value`` joined by
    ``; `` (``""`` for the defaults): the ``rules`` column of every combat table.

    >>> rules_changed(Rules(critical="two_sixes", defence_base=12))
    'defence_base=12; critical=two_sixes'
    """
    default = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        value = getattr(rules, f.name)
        if value != getattr(default, f.name):
            shown = ",".join(sorted(value)) if isinstance(value, frozenset) else value
            out.append(f"{f.name}={shown}")
    return "; ".join(out)


def fp_of(level: int, offset: int) -> Fraction | None:
    """The FP of a monster ``offset`` steps from a party of ``level``: level + offset, the FPs
    below 1 read in 5e's order (0 -> 1/2, -1 -> 1/4, -2 -> 1/8, -3 -> 0); ``None`` beyond.

    >>> fp_of(5, 2), fp_of(1, -2), fp_of(1, -5), fp_of(20, 11)
    (Fraction(7, 1), Fraction(1, 4), None, None)
    """
    value = level + offset
    if value >= 1:
        return Fraction(value) if Fraction(value) in FP_VALUES else None
    return _BELOW_ONE.get(value)


def _provenance(frame: pd.DataFrame, rules: Rules, sampling: Sampling | None, seed: Any) -> None:
    frame["method"] = "exact" if sampling is None or not sampling.simulated else "simulate"
    frame["n"] = pd.array(
        [sampling.n if sampling is not None and sampling.simulated else None] * len(frame),
        dtype="Int64",
    )
    frame["seed"] = seed
    frame["rules"] = rules_changed(rules)
    frame.attrs["rules"] = rules.describe()


# -- the attack table ---------------------------------------------------------------------------
def _states(advantages: Iterable[str], readings: Any, rules: Rules) -> list[tuple[str, Rules]]:
    """(row label, rules) per advantage state; disadvantage once per reading asked."""
    states = check_items("advantages", advantages, what=Phrase("advantage states"))
    states = [check_choice("advantages", a, ADVANTAGE_STATES, ExplodiceError) for a in states]
    check_unique("advantages", states)
    if readings is None:
        reads = [rules.disadvantage]
    elif isinstance(readings, str) and readings == "both":
        reads = ["subtract", "drop"]
    else:
        reads = [
            check_choice("readings", r, ("subtract", "drop"), ExplodiceError)
            for r in check_items("readings", readings, what=Phrase("readings of disadvantage"))
        ]
        check_unique("readings", reads)
    out = []
    for a in states:
        if a == "disadvantage":
            out += [
                (f"disadvantage ({r})", dataclasses.replace(rules, disadvantage=r)) for r in reads
            ]
        else:
            out.append((a, rules))
    return out


def _targets(
    acs: Iterable[int] | None, vds: Iterable[int] | None, term: int, rules: Rules
) -> tuple[list[int], list[int]]:
    """The targets of :func:`attack_table` as (ACs, VDs), each read from the other: VD = AC - 10
    + ``defence_base`` + the WIS ``term`` (ACs 10..22 when neither is given)."""
    if acs is not None and vds is not None:
        raise ExplodiceError(Phrase("give `acs` or `vds`, not both: one is read from the other."))
    if vds is None:
        ac_list = [
            check_int("acs", a, lo=-100, hi=200, error=ExplodiceError)
            for a in check_items("acs", range(10, 23) if acs is None else acs, what=Phrase("ACs"))
        ]
        check_unique("acs", ac_list)
        return ac_list, [a - D20_AC_BASE + rules.defence_base + term for a in ac_list]
    vd_list = [
        check_int("vds", v, lo=-100, hi=200, error=ExplodiceError)
        for v in check_items("vds", vds, what=Phrase("VDs"))
    ]
    check_unique("vds", vd_list)
    return [v - rules.defence_base - term + D20_AC_BASE for v in vd_list], vd_list


def attack_table(
    modifiers: Iterable[int] | None = None,
    acs: Iterable[int] | None = None,
    *,
    vds: Iterable[int] | None = None,
    wis: int = 0,
    actor: Actor = "pc",
    advantages: Iterable[str] = ADVANTAGE_STATES,
    readings: Iterable[str] | str | None = None,
    rules: Rules | None = None,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
    sampling: Sampling | None = None,
) -> pd.DataFrame:
    """P(hit) and P(critical) of an attack with each modifier against each target, in 3d6x beside
    5e, for each advantage state.

    The targets are 5e ACs (``acs``, default 10..22), read in 3d6x as VD = AC - 10 +
    ``defence_base`` + the WIS term of a target with WIS modifier ``wis``; or VDs (``vds``),
    read back as ACs the same way. ``actor``: ``"pc"`` (keeps its 1s) or ``"npc"`` (cancels
    every pair under the rule of 1, when ``rules.rule_of_one_kinds`` holds ``"attack"``).
    ``readings`` (``"both"``, or a list of ``"subtract"`` and
    ``"drop"``) shows each reading of disadvantage (default: the one of ``rules``). Columns:
    ``modifier, advantage, ac, vd, p_hit_d20, p_crit_d20, p_hit_3d6x, p_crit_3d6x, gap``
    (3d6x - 5e), ``equivalent_vd`` (the VD whose 3d6x P(hit) is closest to 5e's, ties to the
    lower VD) and ``p_hit_equivalent``, then the provenance (and, simulated, the Wilson bounds
    of the 3d6x numbers).

    >>> t = attack_table(modifiers=[5], acs=[15], advantages=["normal"], rules=Rules(defence_base=10))
    >>> t.loc[0, ["ac", "vd", "equivalent_vd"]].tolist(), round(float(t.p_hit_d20[0]), 2)
    ([15, 15, 16], 0.55)
    """
    rules = check_rules(rules)
    sampling = resolve_sampling(sampling, method=method, n=n, seed=seed, threads=threads)
    streams = sampling.streams()
    mods = [
        check_int("modifiers", m, lo=-100, hi=100, error=ExplodiceError)
        for m in check_items(
            "modifiers", range(-2, 16) if modifiers is None else modifiers, what=Phrase("modifiers")
        )
    ]
    check_unique("modifiers", mods)
    wis = check_int("wis", wis, lo=-5, hi=10, error=ExplodiceError)
    check_choice("actor", actor, ACTORS, ExplodiceError)
    ac_list, vd_list = _targets(acs, vds, wisdom_term(wis, rules), rules)
    candidates = np.arange(min(vd_list + [0]) - 20, max(vd_list) + 60)
    rows = []
    for label, state_rules in _states(advantages, readings, rules):
        adv = label.split(" ")[0]
        for m in mods:
            roll = Roll(m, advantage=cast(Advantage, adv), kind="attack", actor=actor)
            d = attack_odds(roll, ac_list, state_rules, system="d20")
            if sampling.simulated:
                three = attack_odds(roll, vd_list, state_rules, method="simulate", n=sampling.n,
                                    seed=streams.next(), threads=sampling.threads)  # fmt: skip
            else:
                three = attack_odds(roll, vd_list, state_rules)
            curve = attack_odds(roll, candidates, state_rules).p_hit  # exact: the equivalent
            for i, (ac, vd) in enumerate(zip(ac_list, vd_list)):
                j = int(np.argmin(np.abs(curve - d.p_hit[i])))
                row = {
                    "modifier": m,
                    "advantage": label,
                    "ac": ac,
                    "vd": vd,
                    "p_hit_d20": float(d.p_hit[i]),
                    "p_crit_d20": float(d.p_crit[i]),
                    "p_hit_3d6x": float(three.p_hit[i]),
                    "p_crit_3d6x": float(three.p_crit[i]),
                    "gap": float(three.p_hit[i] - d.p_hit[i]),
                    "equivalent_vd": int(candidates[j]),
                    "p_hit_equivalent": float(curve[j]),
                }
                if three.hit_ci is not None and three.crit_ci is not None:
                    row["p_hit_3d6x_lo"], row["p_hit_3d6x_hi"] = (float(x[i]) for x in three.hit_ci)
                    row["p_crit_3d6x_lo"], row["p_crit_3d6x_hi"] = (
                        float(x[i]) for x in three.crit_ci
                    )
                rows.append(row)
    frame = pd.DataFrame(rows)
    _provenance(frame, rules, sampling, streams.record)
    frame.attrs.update({"question": "attack_table", "wis": wis, "actor": actor})
    return frame


def critical_table(
    modifier: int = 5,
    vd: int | None = None,
    *,
    margins: Iterable[int] = (5, 10),
    advantages: Iterable[str] = ADVANTAGE_STATES,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """P(critical) under each reading of ``Rules.critical`` beside the d20's natural 20, for an
    attack with ``modifier`` against ``vd`` (default: the VD a 5e AC 15 reads, 15 - 10 +
    ``defence_base``), per advantage state (disadvantage under the rules' reading): one row per
    state and ``reading`` (``two_sixes``, ``three_sixes``, ``margin 5`` ..., and ``natural 20``
    for d20) with ``system``, ``p_crit`` and ``p_hit``.

    >>> t = critical_table(advantages=["normal"], margins=[])
    >>> [(r, round(p, 4)) for r, p in zip(t.reading, t.p_crit)]
    [('two_sixes', 0.0741), ('three_sixes', 0.0046), ('natural 20', 0.05)]
    """
    rules = check_rules(rules)
    modifier = check_int("modifier", modifier, lo=-100, hi=100, error=ExplodiceError)
    target = 15 - D20_AC_BASE + rules.defence_base if vd is None else vd
    target = check_int("vd", target, lo=-100, hi=200, error=ExplodiceError)
    readings: list[tuple[str, Any]] = [("two_sixes", "two_sixes"), ("three_sixes", "three_sixes")]
    given = list(margins) if isinstance(margins, (list, tuple, range)) and not margins else None
    readings += [
        (f"margin {m}", check_int("margins", m, lo=1, hi=20, error=ExplodiceError))
        for m in (
            given if given is not None else check_items("margins", margins, what=Phrase("margins"))
        )
    ]
    check_unique("margins", [m for _, m in readings[2:]])
    ac = target - rules.defence_base + D20_AC_BASE
    rows = []
    for label, state_rules in _states(advantages, None, rules):
        roll = Roll(modifier, advantage=cast(Advantage, label.split(" ")[0]), kind="attack")
        for name, value in readings:
            odds = attack_odds(roll, target, dataclasses.replace(state_rules, critical=value))
            rows.append({"advantage": label, "reading": name, "system": "3d6x", "target": target,
                         "p_crit": float(odds.p_crit[0]), "p_hit": float(odds.p_hit[0])})  # fmt: skip
        d = attack_odds(roll, ac, state_rules, system="d20")
        rows.append({"advantage": label, "reading": "natural 20", "system": "d20", "target": ac,
                     "p_crit": float(d.p_crit[0]), "p_hit": float(d.p_hit[0])})  # fmt: skip
    frame = pd.DataFrame(rows)
    frame.insert(0, "modifier", modifier)
    _provenance(frame, rules, None, None)
    frame.attrs["question"] = "critical_table"
    return frame


# -- the chances across levels ------------------------------------------------------------------
MonsterSource = Callable[[Fraction], Monster] | Mapping[Any, Monster] | Sequence[Monster] | None


def _monster_picker(monsters: Any, rules: Rules) -> Callable[[Fraction], Monster | None]:
    """FP -> the monster met: the bestiary's typical one (default), a designer's function, a
    table ``{fp: Monster}``, or a list of monsters (the one of each FP; a list with several of
    one FP is refused: name one per FP)."""
    if monsters is None:
        from explodice.game.bestiary import typical_monster

        return lambda fp: typical_monster(fp, rules=rules)
    if callable(monsters) and not isinstance(monsters, Monster):

        def pick(fp: Fraction) -> Monster | None:
            m = monsters(fp)
            if m is not None and not isinstance(m, Monster):
                raise fail(
                    "monsters",
                    m,
                    Phrase("a function FP -> Monster"),
                    ExplodiceError,
                    wrong_type=True,
                )
            return m

        return pick
    if isinstance(monsters, Monster):
        monsters = [monsters]
    if isinstance(monsters, Mapping):
        table = {}
        for k, m in monsters.items():
            if not isinstance(m, Monster):
                raise fail(
                    f"monsters[{k!r}]", m, Phrase("a Monster"), ExplodiceError, wrong_type=True
                )
            table[parse_fp(k, "monsters")] = m
    else:
        items = check_items("monsters", monsters, what=Phrase("Monsters"))
        table = {}
        for i, m in enumerate(items):
            if not isinstance(m, Monster):
                raise fail(
                    f"monsters[{i}]", m, Phrase("a Monster"), ExplodiceError, wrong_type=True
                )
            if m.fp in table:
                raise ExplodiceError(
                    Phrase(
                        "`monsters` holds two of FP {fp_label} ({name!r}, {name2!r}): give "
                        "one monster per FP, or a function FP -> Monster.",
                        fp_label=fp_label(m.fp),
                        name=table[m.fp].name,
                        name2=m.name,
                    )
                )
            table[m.fp] = m
    return table.get


def _offsets(offsets: Iterable[int]) -> tuple[int, ...]:
    ks = [
        check_int("offsets", k, lo=-30, hi=30, error=ExplodiceError)
        for k in check_items("offsets", offsets, what=Phrase("FP offsets"))
    ]
    return tuple(check_unique("offsets", ks))


def _saves(saves: Iterable[str]) -> tuple[str, ...]:
    given = check_items("saves", saves, what=Phrase("abilities"))
    for s in given:
        resolve_ability(s, field_name="saves")
    check_unique("saves", given, key=lambda s: resolve_ability(s, field_name="saves"))
    return tuple(resolve_ability(s, field_name="saves") for s in given)


def _p_save(roll: Roll, dc: int | None, system: System, rules: Rules) -> float:
    if dc is None:
        return float("nan")
    dist = exact(roll, rules) if system == "3d6x" else d20(roll)
    return float(dist.p_success(dc))


def _case(
    who: Character, monster: Monster, system: System, rules: Rules, saves: tuple[str, ...]
) -> dict[str, float]:
    """The five chances of one build (at one level) against one monster in one system."""
    three = system == "3d6x"
    target = monster.vd(rules) if three else monster.armour_class(rules)
    build_attack = who.attack_roll(target, system=system)
    own: AttackOdds = attack_odds(build_attack, target, rules, system=system)
    defence = who.vd(rules) if three else who.ac
    theirs = attack_odds(monster.attack_roll(system=system), defence, rules, system=system)
    build_saves = [
        _p_save(
            who.roll(ability=a, kind="save", system=system, dc=monster.save_dc(system=system)),
            monster.save_dc(system=system),
            system,
            rules,
        )  # fmt: skip
        for a in saves
    ]
    spell_dc = who.spell_dc(system)
    monster_saves = [
        _p_save(monster.save_roll(a, system=system), spell_dc, system, rules) for a in saves
    ]
    out: dict[str, Any] = {
        "target": target,
        "defence": defence,
        "attack_modifier": build_attack.modifier,
        "monster_attack": monster.attack_bonus(),
        "p_build_hits": float(own.p_hit[0]),
        "p_build_crits": float(own.p_crit[0]),
        "p_monster_hits": float(theirs.p_hit[0]),
        "p_monster_crits": float(theirs.p_crit[0]),
        "monster_dc": monster.save_dc(system=system),
        "p_build_saves": float(np.mean(build_saves)),
        "spell_dc": spell_dc,
        "p_monster_saves": float(np.mean(monster_saves)),
    }
    return out


def combat_progression(
    builds: Build | Sequence[Build] | None = None,
    *,
    monsters: MonsterSource = None,
    levels: Iterable[int] = LEVELS,
    offsets: Iterable[int] = (0,),
    saves: Iterable[str] = DEFAULT_SAVES,
    rules: Rules | None = None,
) -> pd.DataFrame:
    """The chances across levels: each build (default the reference builds) at each level
    against the monster of FP = level + k for each k of ``offsets`` (FPs below 1 in 5e's order,
    :func:`fp_of`), in 3d6x and in 5e, exactly.

    ``monsters``: ``None`` (the bestiary's typical monster of each FP,
    :func:`explodice.game.bestiary.typical_monster`), a function FP -> Monster, a table
    ``{fp: Monster}`` or a list with one monster per FP (an FP without one is left out).
    One row per build, level, offset and system: ``fp``, ``monster``, the build's ``target``
    (the monster's VD in 3d6x, AC in 5e) and ``attack_modifier``, ``p_build_hits``,
    ``p_build_crits``, the monster's ``monster_attack`` against the build's ``defence``,
    ``p_monster_hits``, ``p_monster_crits``, ``p_build_saves`` (against the monster's highest
    save DC, ``monster_dc``; the mean over ``saves``; NaN when it has none), ``p_monster_saves``
    (against the build's spell DC, ``spell_dc``: the save base + PB + its spellcasting or attack
    ability's modifier; the mean over ``saves``), ``mark_d20`` (5e's 65 %), then the provenance.

    >>> t = combat_progression(reference_builds()[:1], levels=[5])
    >>> t[["system", "fp", "target", "attack_modifier"]].values.tolist()
    [['3d6x', '5', 16, 7], ['d20', '5', 15, 7]]
    """
    rules = check_rules(rules)
    builds = check_builds(reference_builds() if builds is None else builds)
    levels = check_levels(levels)
    ks = _offsets(offsets)
    abilities = _saves(saves)
    pick = _monster_picker(monsters, rules)
    rows = []
    for b in builds:
        for lv in levels:
            who = b.at(lv)
            for k in ks:
                fp = fp_of(lv, k)
                monster = None if fp is None else pick(fp)
                if monster is None:
                    continue
                for system in ("3d6x", "d20"):
                    row: dict[str, Any] = {
                        "build": b.name,
                        "level": lv,
                        "offset": k,
                        "fp": fp_label(monster.fp),
                        "monster": monster.name,
                        "system": system,
                    }
                    row.update(_case(who, monster, system, rules, abilities))
                    row["mark_d20"] = HIT_MARK_D20
                    rows.append(row)
    frame = pd.DataFrame(rows)
    _provenance(frame, rules, None, None)
    frame.attrs.update({"question": "combat_progression", "saves": list(abilities)})
    return frame


# -- the defence base -----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class DefenceBaseFit:
    """The fitted ``defence_base`` (:func:`fit_defence_base`).

    ``base``: the base; ``criterion`` and ``error`` (at the base: the root mean square error
    over the cases, or the largest absolute one); ``cases``: one row per build, level, offset
    and direction (``"build hits"``, ``"monster hits"``) with ``p_d20``, ``p_3d6x`` at the base
    and ``error``; ``bases``: both criteria for every base tried; ``readings``: the base and
    error each reading of the VD would take (``wisdom_in_defence`` x ``armour_dex_cap``):
    ``base``, ``error`` (the criterion's value there), ``rmse``, ``max_error``, ``current``.
    """

    base: int
    criterion: str
    error: float
    cases: pd.DataFrame
    bases: pd.DataFrame
    readings: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """The table of cases."""
        return self.cases

    def __repr__(self) -> str:
        return (
            f"DefenceBaseFit(base={self.base}: VD = {self.base} + DEX + WIS + armour + shield; "
            f"{self.criterion} error {self.error:.4f} over {len(self.cases)} cases)"
        )

    def _repr_html_(self) -> str:
        return (
            f"<div><b>{html.escape(repr(self))}</b>"
            f"{self.readings.to_html(index=False, float_format=lambda x: f'{x:.4f}')}</div>"
        )


#: VDs at which a fit reads each attack's law once (every VD a base 0..30 can give lies inside).
_CURVE_VDS = np.arange(-60, 181)

#: The cases of a fit under one reading of the VD and their 3d6x P(hit) at every base tried.
Curves = tuple[pd.DataFrame, np.ndarray]


def _fit_curves(
    builds: Sequence[Build],
    levels: Sequence[int],
    ks: tuple[int, ...],
    pick: Callable[[Fraction], Monster | None],
    rules: Rules,
    tried: np.ndarray,
    laws: dict[Any, np.ndarray],
) -> Curves:
    """The cases and their 3d6x P(hit) at every base tried: ``(frame, p[case, base])``.

    A VD grows with the base one for one, so each case is one attack's law read at
    VD(base 0) + base; ``laws`` caches each attack's P(hit) over :data:`_CURVE_VDS` (and each
    d20 attack's against its AC), which the readings of the VD do not change."""
    at_zero = dataclasses.replace(rules, defence_base=0)

    def law(roll: Roll, system: System) -> np.ndarray:
        key = (roll, system)
        if key not in laws:
            laws[key] = attack_odds(roll, _CURVE_VDS, rules, system=system).p_hit
        return laws[key]

    cases, index = [], []
    for b in builds:
        for lv in levels:
            who = b.at(lv)
            for k in ks:
                fp = fp_of(lv, k)
                monster = None if fp is None else pick(fp)
                if monster is None or monster.ac is None:  # a VD of its own: no base in it
                    continue
                pairs = (
                    ("build hits", who.attack_roll(monster.vd(at_zero)), monster.vd(at_zero),
                     who.attack_roll(monster.ac, system="d20"), monster.ac),
                    ("monster hits", monster.attack_roll(), who.vd(at_zero),
                     monster.attack_roll(system="d20"), who.ac),
                )  # fmt: skip
                for direction, r3, vd0, rd, ac in pairs:
                    p_d20 = float(law(rd, "d20")[ac - _CURVE_VDS[0]])
                    index.append((law(r3, "3d6x"), vd0))
                    cases.append(
                        {
                            "build": b.name,
                            "level": lv,
                            "offset": k,
                            "fp": fp_label(monster.fp),
                            "monster": monster.name,
                            "direction": direction,
                            "ac": ac,
                            "vd_at_0": vd0,
                            "modifier": r3.modifier,
                            "p_d20": p_d20,
                        }  # fmt: skip
                    )
    if not cases:
        return pd.DataFrame(cases), np.empty((0, tried.size))
    curves = np.stack([p[vd0 + tried - _CURVE_VDS[0]] for p, vd0 in index])
    return pd.DataFrame(cases), curves


def _criteria(p3: np.ndarray, p_d20: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    err = p3 - p_d20[:, None]
    return np.sqrt((err**2).mean(axis=0)), np.abs(err).max(axis=0)


def _best(objective: np.ndarray) -> int:
    """The index of the smallest value (ties within 1e-12: the highest base)."""
    return int(np.nonzero(objective <= objective.min() + 1e-12)[0][-1])


def _tried(bases: Iterable[int] | None) -> np.ndarray:
    """The bases a fit tries: ``bases`` checked, default every base of the range (0..30)."""
    lo, hi = DEFENCE_BASE_RANGE
    tried = np.array(
        range(lo, hi + 1)
        if bases is None
        else [
            check_int("bases", x, lo=lo, hi=hi, error=ExplodiceError)
            for x in check_items("bases", bases, what=Phrase("integers"))
        ]
    )
    check_unique("bases", tried.tolist())
    return tried


def _readings(rules: Rules) -> list[tuple[tuple[str, str], Rules]]:
    """Each reading of the VD (``wisdom_in_defence``, ``armour_dex_cap``) and the rules under
    it, the rules' own first."""
    out: list[tuple[tuple[str, str], Rules]] = [
        ((rules.wisdom_in_defence, rules.armour_dex_cap), rules)
    ]
    for w in WISDOM_IN_DEFENCE:
        for cap in ARMOUR_DEX_CAPS:
            if (w, cap) != out[0][0]:
                under = dataclasses.replace(rules, wisdom_in_defence=w, armour_dex_cap=cap)
                out.append(((w, cap), under))
    return out


def defence_curves(
    builds: Build | Sequence[Build] | None = None,
    *,
    monsters: MonsterSource = None,
    levels: Iterable[int] = LEVELS,
    offsets: Iterable[int] = DEFAULT_OFFSETS,
    bases: Iterable[int] | None = None,
    rules: Rules | None = None,
) -> dict[tuple[str, str], Curves]:
    """What :func:`fit_defence_base` fits, under each reading of the VD (``(wisdom_in_defence,
    armour_dex_cap)``, the rules' own first): the cases (one row per build, level, offset and
    direction, :func:`fit_defence_base`'s ``cases`` before the base is chosen) and their 3d6x
    P(hit) at every base tried (``[case, base]``). The cases of several builds are each
    build's put end to end (a question keeps each build's: :func:`fit_from_curves` fits them).

    >>> curves = defence_curves(reference_builds()[:1], levels=[1], offsets=[0])
    >>> [(len(frame), p.shape) for frame, p in curves.values()][0]
    (2, (2, 31))
    """
    rules = check_rules(rules)
    builds = check_builds(reference_builds() if builds is None else builds)
    levels = check_levels(levels)
    ks = _offsets(offsets)
    tried = _tried(bases)
    pick = _monster_picker(monsters, rules)
    laws: dict[Any, np.ndarray] = {}
    return {
        reading: _fit_curves(builds, levels, ks, pick, under, tried, laws)
        for reading, under in _readings(rules)
    }


def fit_defence_base(
    builds: Build | Sequence[Build] | None = None,
    *,
    monsters: MonsterSource = None,
    levels: Iterable[int] = LEVELS,
    offsets: Iterable[int] = DEFAULT_OFFSETS,
    criterion: Criterion = "least_squares",
    bases: Iterable[int] | None = None,
    rules: Rules | None = None,
) -> DefenceBaseFit:
    """The ``defence_base`` for which the 3d6x hit chances stay closest to 5e's: each build
    (default the reference builds) at each level against the monster of FP = level + k for k in
    ``offsets`` (default -3..+3; ``monsters`` as :func:`combat_progression` takes them), both
    ways: the build hits the monster (VD = AC - 10 + base + its WIS term) and the monster hits
    the build (the build's VD). ``criterion``: ``"least_squares"`` (the root mean square error
    over the cases) or ``"minimax"`` (the largest); ties go to the higher base. ``bases``: the
    integers tried (default 0..30). ``readings`` fits again under each reading of
    ``wisdom_in_defence`` and ``armour_dex_cap``.

    >>> fit = fit_defence_base(reference_builds()[:1], levels=[1, 10], offsets=[0])
    >>> fit.base in range(0, 31), list(fit.readings.columns[:3])
    (True, ['wisdom_in_defence', 'armour_dex_cap', 'base'])
    """
    rules = check_rules(rules)
    builds = check_builds(reference_builds() if builds is None else builds)
    levels = check_levels(levels)
    ks = _offsets(offsets)
    check_choice("criterion", criterion, CRITERIA, ExplodiceError)
    curves = defence_curves(
        builds, monsters=monsters, levels=levels, offsets=ks, bases=bases, rules=rules
    )
    return fit_from_curves(
        curves,
        tried=_tried(bases),
        criterion=criterion,
        rules=rules,
        levels=levels,
        offsets=ks,
        builds=[b.name for b in builds],
    )


def fit_from_curves(
    curves: Mapping[tuple[str, str], Curves],
    *,
    tried: np.ndarray,
    criterion: Criterion,
    rules: Rules,
    levels: Sequence[int],
    offsets: Sequence[int],
    builds: Sequence[str],
) -> DefenceBaseFit:
    """:func:`fit_defence_base` from its cases under each reading of the VD
    (:func:`defence_curves`, the rules' own first), the bases ``tried`` and the ``criterion``;
    ``levels``, ``offsets`` and the ``builds``' names go into the tables' provenance."""
    fits = {}
    for reading, (frame, p3) in curves.items():
        if frame.empty:
            raise ExplodiceError(
                Phrase("`monsters`: no monster of an AC is met at these levels and offsets.")
            )
        # C order, as np.stack gives it: the sums over the cases run in the same order (a
        # frame's array is in Fortran order, whose sums along a column are pairwise)
        rmse, worst = _criteria(np.ascontiguousarray(p3), frame.p_d20.to_numpy())
        fits[reading] = (rmse, worst, _best(rmse if criterion == "least_squares" else worst))
    current = (rules.wisdom_in_defence, rules.armour_dex_cap)
    frame, p3 = curves[current]
    frame = frame.copy()
    rmse, worst, j = fits[current]
    base = int(tried[j])
    frame["vd"] = frame.vd_at_0 + base
    frame["p_3d6x"] = p3[:, j]
    frame["error"] = frame.p_3d6x - frame.p_d20
    by_base = pd.DataFrame(
        {"base": tried, "rmse": rmse, "max_error": worst, "chosen": tried == base}
    )
    rows = []
    for w in WISDOM_IN_DEFENCE:
        for cap in ARMOUR_DEX_CAPS:
            r_rmse, r_worst, rj = fits[(w, cap)]
            r_objective = r_rmse if criterion == "least_squares" else r_worst
            rows.append({"wisdom_in_defence": w, "armour_dex_cap": cap, "base": int(tried[rj]),
                         "error": float(r_objective[rj]),
                         "rmse": float(r_rmse[rj]), "max_error": float(r_worst[rj]),
                         "current": (w, cap) == current})  # fmt: skip
    readings = pd.DataFrame(rows)
    objective = rmse if criterion == "least_squares" else worst
    for t in (frame, by_base, readings):
        _provenance(t, rules, None, None)
        t.attrs.update({"question": "fit_defence_base", "criterion": criterion, "base": base,
                        "levels": list(levels), "offsets": list(offsets),
                        "builds": list(builds)})  # fmt: skip
    return DefenceBaseFit(base, criterion, float(objective[j]), frame, by_base, readings)
