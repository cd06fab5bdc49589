"""The surfaces' side of the catalogue of questions: the inputs each question takes from a
report configuration (one function per question, read by the report's page, the explorer and
the command), and the words every caption and header says about an answer's provenance.

An adapter (a page, a command, an explorer section) asks its question with these inputs, then
lays out and formats the answer (:mod:`explodice.present.formats`); it never computes a
probability or rounds on its own.

>>> from explodice.questions.answer import Provenance
>>> from explodice.game.rules import Rules
>>> method_text(Provenance.of("day", Rules(malus_die="plain")), "en")
'exact (no sampling); rules off their defaults: malus_die = plain'
>>> method_text(Provenance.of("day", Rules(), method="simulate", n=2000, seed=7), "fr")
'simulé : 2\\u202f000 journées, graine 7, intervalles à 95\\xa0%'
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import switch_label, written_value
from explodice.questions.answer import Answer, Provenance
from explodice.questions.day import DayInputs
from explodice.questions.readings import ReadingsInputs

__all__ = ["day_inputs", "for_plot", "method_text", "pmf_distribution", "readings_inputs"]


def day_inputs(config: Any, scenario: Any = None, method: Any = None) -> DayInputs:
    """The day question's inputs from a report configuration: its day (or ``scenario``), its
    rules, and its ``[simulation]`` day method, days and seed (``method`` overrides)."""
    return DayInputs(
        config.day if scenario is None else scenario,
        config.rules,
        method or getattr(config, "day_method", "exact"),
        config.days,
        config.seed,
    )


def readings_inputs(config: Any, **grid: Any) -> ReadingsInputs:
    """The readings' inputs from a report configuration: its party, day, rules, modifiers,
    and day method, days and seed; ``grid``: any other field of
    :class:`~explodice.questions.readings.ReadingsInputs`."""
    base = ReadingsInputs(
        party=tuple(config.party),
        day=config.day,
        rules=config.rules,
        modifiers=tuple(config.modifiers),
        day_method=getattr(config, "day_method", "exact"),
        n_days=config.days,
        seed=config.seed,
    )
    return dataclasses.replace(base, **grid)


def method_text(prov: Provenance, lang: Lang, *, rules: bool = True) -> str:
    """How an answer was obtained, in ``lang``, for a caption or a header: ``exact (no
    sampling)``, or ``simulated: 2,000 days, seed 7, 95% intervals``; then the rules switches
    off their defaults (``rules``)."""
    _ = i18n.translator(lang)
    if prov.exact:
        text = _("exact (no sampling)")
    else:
        unit = _("days") if prov.unit == "days" else _("rolls")
        text = _("simulated: {n} {unit}, seed {seed}, {level} intervals").format(
            n=i18n.number(prov.n or 0, lang, 0),
            unit=unit,
            seed=prov.seed,
            level=i18n.percent(0.95, lang, 0),
        )
    if rules and prov.rules:
        text += "; " + _("rules off their defaults: {rules}").format(
            rules=", ".join(
                f"{switch_label(k, lang)} = {written_value(k, v, lang)}" for k, v in prov.rules
            )
        )
    return text


def for_plot(answer: Answer, name: str, rules: Any) -> pd.DataFrame:
    """Table ``name`` with the provenance columns a figure's note reads (``method``, ``n``,
    ``seed``) and the rules in ``.attrs``."""
    frame = answer.csv_table(name).drop(columns=["rules"])
    frame.attrs["rules"] = rules
    return frame


def pmf_distribution(answer: Answer, rules: Any = None) -> Any:
    """The total's distribution that an ``odds`` answer's ``pmf`` table holds, for the plots
    that draw a :class:`~explodice.Distribution` (its probabilities are the answer's, each
    total where the table has it, 0 between)."""
    import numpy as np

    from explodice.engine.distribution import Distribution

    pmf = answer.tables["pmf"]
    totals = pmf["total"].to_numpy(dtype=np.int64)
    lo = int(totals.min())
    p = np.zeros(int(totals.max()) - lo + 1)
    p[totals - lo] = pmf["p"].to_numpy(dtype=float)
    prov = answer.provenance
    system = str(pmf["system"].iloc[0])
    return Distribution.from_total_pmf(
        p,
        lo,
        method=prov.method,
        n=prov.n,
        seed=prov.seed,
        system=system,
        rules=rules if system == "3d6x" else None,
    )
