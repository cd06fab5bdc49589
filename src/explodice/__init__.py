"""explodice: probabilities of exploding 3d6 (3d6x) with the rule of 1, against the d20.

Results are immutable :class:`Distribution` objects; the exact engine is the oracle (every
cut of the infinite explosion is explicit and leaves out less than 1e-12), and the Monte
Carlo engine reports its sample size, seed and confidence intervals.

>>> import explodice as ex
>>> round(ex.exact(ex.Roll(0)).mean, 6)
12.6
"""

# the rules and the two engines
from .rules import Best, ExplodiceError, Roll, Rules, RulesError, net_advantage
from .distribution import Distribution, wilson_interval
from .exact import exact
from .simulate import simulate

# characters and the d20 reference
from .character import (
    SKILLS,
    Character,
    CharacterFileError,
    ability_modifier,
    load_characters,
    proficiency_bonus,
)
from .d20 import D20Distribution, d20

# the analysis layer
from .tables import DC_TABLE, dc_table, pivot_success, roll_distribution, success_table, unpivot_success
from .resolutions import (
    HAGGLE_DCS,
    group_success,
    haggle,
    haggle_table,
    opposed,
    passive,
    passive_table,
    working_together,
)
from .compare import dc_for_probability, divergence, equivalent_dc, equivalent_dc_table, suggest_dcs

# the rule of 1 in play
from .drain import drain_frame, drain_summary
from .frontier import breakpoints, frontier, implied_lambda
from .scenario import DayRoll, Scenario, ScenarioFileError, load_scenario
from .day import DayResult, EmptyTime, rolls_to_empty, simulate_day

# grids, reports
from .sweep import SweepError, SweepWarning, sweep
from .report import write_report

__version__ = "0.1.0"

__all__ = [
    # rules and engines
    "Best", "Distribution", "ExplodiceError", "Roll", "Rules", "RulesError", "exact",
    "net_advantage", "simulate", "wilson_interval",
    # characters and d20
    "SKILLS", "Character", "CharacterFileError", "D20Distribution", "ability_modifier", "d20",
    "load_characters", "proficiency_bonus",
    # analysis
    "DC_TABLE", "HAGGLE_DCS", "dc_for_probability", "dc_table", "divergence", "equivalent_dc",
    "equivalent_dc_table", "group_success", "haggle", "haggle_table", "opposed", "passive",
    "passive_table", "pivot_success", "roll_distribution", "success_table", "suggest_dcs",
    "unpivot_success", "working_together",
    # the rule of 1 in play
    "DayResult", "DayRoll", "EmptyTime", "Scenario", "ScenarioFileError", "breakpoints",
    "drain_frame", "drain_summary", "frontier", "implied_lambda", "load_scenario",
    "rolls_to_empty", "simulate_day",
    # grids and reports
    "SweepError", "SweepWarning", "sweep", "write_report",
]
