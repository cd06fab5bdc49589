"""explodice: probabilities of exploding 3d6 (3d6x) with the rule of 1, against the d20.

Results are immutable :class:`Distribution` objects; the exact engine is the oracle (every
cut of the infinite explosion is explicit and leaves out less than 1e-12), and the Monte
Carlo engine reports its sample size, seed and confidence intervals.

>>> import explodice as ex
>>> round(ex.exact(ex.Roll(0)).mean, 6)
12.6
"""

# the game: rules, characters, the seeds' tables
from explodice.analysis.bestiary import fp_table
from explodice.analysis.close_contest import CloseContest, close_contest, close_opposed
from explodice.analysis.combat import (
    DefenceBaseFit,
    attack_table,
    combat_progression,
    critical_table,
    fit_defence_base,
)
from explodice.analysis.compare import (
    dc_for_probability,
    divergence,
    equivalent_dc,
    equivalent_dc_table,
    suggest_dcs,
)

# the rule of 1 in play
from explodice.analysis.drain import drain_frame, drain_summary
from explodice.analysis.frontier import breakpoints, frontier, implied_lambda
from explodice.analysis.hiding import Hiding, hide
from explodice.analysis.initiative import Initiative, initiative
from explodice.analysis.levels import SaveDCFit, build_day, fit_save_dc, level_dcs, progression
from explodice.analysis.reroll import reroll_worth
from explodice.analysis.resolutions import (
    group_success,
    haggle,
    haggle_table,
    opposed,
    passive,
    passive_table,
    working_together,
)
from explodice.analysis.sensitivity import Sensitivity, sensitivity

# the analysis layer
from explodice.analysis.success import (
    dc_table,
    pivot_success,
    roll_distribution,
    success_table,
    unpivot_success,
)
from explodice.core.errors import ExplodiceError, ExplodiceTypeError, RulesError
from explodice.core.version import __version__ as __version__
from explodice.day.first_passage import rolls_to_empty
from explodice.day.results import DayResult, EmptyTime
from explodice.day.scenario import DayRoll, Scenario, ScenarioFileError, load_scenario
from explodice.day.simulate import simulate_day
from explodice.engine.attack import attack_odds
from explodice.engine.d20 import D20Distribution, d20

# the two engines and their one result type; the d20 reference
from explodice.engine.distribution import Distribution, wilson_interval
from explodice.engine.exact import exact
from explodice.engine.sampling import Sampling
from explodice.engine.simulate import simulate
from explodice.game.bestiary import SRD_ATTRIBUTION, srd_monsters, typical_monster
from explodice.game.build import (
    Build,
    BuildFileError,
    builds_from_tables,
    load_builds,
    reference_builds,
)
from explodice.game.character import (
    SKILLS,
    Character,
    CharacterFileError,
    ProficiencyWarning,
    ability_modifier,
    load_characters,
    proficiency_bonus,
)
from explodice.game.monster import (
    Monster,
    MonsterFileError,
    load_monsters,
    monsters_from_tables,
)
from explodice.game.reroll import Reroll
from explodice.game.rules import Best, Roll, Rules, net_advantage, parse_policy
from explodice.game.tables import DC_TABLE, HAGGLE_DCS

# exact_day, OptimalPolicy and optimal_policy: loaded on first use (see __getattr__ below)
# grids, reports
from explodice.sweeps import SweepError, SweepIncomplete, SweepWarning, sweep
from explodice.sweeps.bestiary import bestiary
from explodice.sweeps.levels import size_gauges

__all__ = [
    # rules and engines
    "Best",
    "Distribution",
    "ExplodiceError",
    "ExplodiceTypeError",
    "Reroll",
    "Roll",
    "Rules",
    "RulesError",
    "Sampling",
    "exact",
    "net_advantage",
    "parse_policy",
    "simulate",
    "wilson_interval",
    # characters and d20
    "SKILLS",
    "Character",
    "CharacterFileError",
    "ProficiencyWarning",
    "D20Distribution",
    "ability_modifier",
    "d20",
    "load_characters",
    "proficiency_bonus",
    # analysis
    "DC_TABLE",
    "HAGGLE_DCS",
    "dc_for_probability",
    "dc_table",
    "divergence",
    "equivalent_dc",
    "equivalent_dc_table",
    "group_success",
    "haggle",
    "haggle_table",
    "opposed",
    "passive",
    "passive_table",
    "pivot_success",
    "roll_distribution",
    "success_table",
    "suggest_dcs",
    "unpivot_success",
    "working_together",
    # rules of the seeds: initiative, hiding, lutte serrée, rerolls
    "CloseContest",
    "Hiding",
    "Initiative",
    "close_contest",
    "close_opposed",
    "hide",
    "initiative",
    "reroll_worth",
    # which readings of the seeds matter
    "Sensitivity",
    "sensitivity",
    # the rule of 1 in play
    "DayResult",
    "DayRoll",
    "EmptyTime",
    "Scenario",
    "ScenarioFileError",
    "breakpoints",
    "OptimalPolicy",
    "drain_frame",
    "drain_summary",
    "exact_day",
    "frontier",
    "implied_lambda",
    "load_scenario",
    "optimal_policy",
    "rolls_to_empty",
    "simulate_day",
    # across levels 1-20: builds and the designer's four questions
    "Build",
    "BuildFileError",
    "SaveDCFit",
    "build_day",
    "builds_from_tables",
    "fit_save_dc",
    "level_dcs",
    "load_builds",
    "progression",
    "reference_builds",
    "size_gauges",
    # combat: attacks against the defence value, monsters by power factor
    "DefenceBaseFit",
    "Monster",
    "MonsterFileError",
    "attack_odds",
    "attack_table",
    "combat_progression",
    "critical_table",
    "fit_defence_base",
    "load_monsters",
    "monsters_from_tables",
    # the bestiary: the SRD 5.1's monsters and the designer's own, converted
    "SRD_ATTRIBUTION",
    "bestiary",
    "fp_table",
    "srd_monsters",
    "typical_monster",
    # grids and reports
    "SweepError",
    "SweepIncomplete",
    "SweepWarning",
    "sweep",
    "write_report",
]


def __getattr__(name: str) -> object:
    """The presentation layer (plots, the report) loads matplotlib, and the exact day's engines
    (``exact_day``, ``optimal_policy``) load numba kernels: they are imported on first use, so
    ``import explodice`` and the single-roll exact engine stay light (no numba). ``from
    explodice import plots`` and ``from explodice import exact_day`` work as before."""
    if name == "exact_day":
        from explodice.day.exact import exact_day

        return exact_day
    if name in ("OptimalPolicy", "optimal_policy"):
        from explodice.day import optimal

        return getattr(optimal, name)
    if name == "write_report":
        from explodice.present.report import write_report

        return write_report
    if name == "plots":
        from explodice.present import plots

        return plots
    raise AttributeError(f"module 'explodice' has no attribute {name!r}")
