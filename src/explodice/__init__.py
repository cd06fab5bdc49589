"""explodice: probabilities of exploding 3d6 (3d6x) with the rule of 1, against the d20.

Results are immutable :class:`Distribution` objects; the exact engine is the oracle (every
cut of the infinite explosion is explicit and leaves out less than 1e-12), and the Monte
Carlo engine reports its sample size, seed and confidence intervals.

>>> import explodice as ex
>>> round(ex.exact(ex.Roll(0)).mean, 6)
12.6
"""

from .distribution import Distribution, wilson_interval
from .exact import exact
from .simulate import simulate
from .rules import Best, ExplodiceError, Roll, Rules, RulesError, net_advantage
from .character import (
    SKILLS,
    Character,
    CharacterFileError,
    ability_modifier,
    load_characters,
    proficiency_bonus,
)

from .drain import drain_frame, drain_summary
from .frontier import breakpoints, frontier, implied_lambda
from .scenario import DayRoll, Scenario, ScenarioFileError, load_scenario
from .day import DayResult, EmptyTime, rolls_to_empty, simulate_day

__version__ = "0.1.0"

__all__ = [
    "DayResult",
    "DayRoll",
    "EmptyTime",
    "Scenario",
    "ScenarioFileError",
    "breakpoints",
    "drain_frame",
    "drain_summary",
    "frontier",
    "implied_lambda",
    "load_scenario",
    "rolls_to_empty",
    "simulate_day",
    "SKILLS",
    "Character",
    "CharacterFileError",
    "ability_modifier",
    "load_characters",
    "proficiency_bonus",
    "Best",
    "Distribution",
    "ExplodiceError",
    "Roll",
    "Rules",
    "RulesError",
    "exact",
    "simulate",
    "net_advantage",
    "wilson_interval",
]
