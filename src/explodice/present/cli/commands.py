"""The commands of ``explodice``, in the order of ``explodice --help``: the one list a new
command is added to (see :mod:`explodice.present.cli`)."""

from __future__ import annotations

from explodice.present.cli import (
    attack,
    bestiary,
    compare,
    contest,
    day,
    dc,
    defence_base,
    explore,
    frontier,
    hide,
    initiative,
    levels,
    odds,
    opposed,
    readings,
    report,
    reroll,
    save_dc,
    size_gauges,
    sweep,
    table,
)
from explodice.present.cli.base import Command

__all__ = ["COMMANDS"]

COMMANDS: list[Command] = [
    odds.COMMAND,
    table.COMMAND,
    frontier.COMMAND,
    opposed.COMMAND,
    compare.COMMAND,
    dc.COMMAND,
    day.COMMAND,
    levels.COMMAND,
    size_gauges.COMMAND,
    save_dc.COMMAND,
    attack.COMMAND,
    defence_base.COMMAND,
    bestiary.BESTIARY,
    bestiary.FP_TABLE,
    readings.COMMAND,
    report.COMMAND,
    explore.COMMAND,
    sweep.COMMAND,
    initiative.COMMAND,
    hide.COMMAND,
    contest.COMMAND,
    reroll.COMMAND,
]
