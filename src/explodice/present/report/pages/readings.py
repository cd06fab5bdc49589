"""Which readings matter: every switch of the rules moved alone to each of its other values,
and the largest change it makes in a probability a designer balances with, ranked
(:func:`~explodice.sensitivity` on the configuration's rules, party and day)."""

from __future__ import annotations

import textwrap

import pandas as pd
from matplotlib.figure import Figure

from explodice.game.rules import COMBAT_SWITCHES
from explodice.game.rules import switches as rule_switches
from explodice.present import i18n
from explodice.present.answers import readings_inputs
from explodice.present.plots.readings import plot_readings
from explodice.present.plots.style import axes_title
from explodice.present.readings import (
    SUMMARIES,
    readings_csv,
    readings_frame,
)
from explodice.present.report.kit import Context, PageData, draw_table, page_figure
from explodice.present.report.warmup import wait_for
from explodice.questions.registry import ask

__all__ = ["PAGE_SWITCHES", "data", "draw"]

#: The switches the page moves: every one but combat's, which the combat pages read (its
#: attack part would double the page's rows; ``explodice readings`` shows them).
PAGE_SWITCHES = tuple(
    dict.fromkeys(sw.name for sw in rule_switches() if sw.name not in COMBAT_SWITCHES)
)


def data(ctx: Context) -> PageData:
    """The readings' answer (:mod:`explodice.questions.readings`) on the configuration: the
    sensitivity table (one row per switch and value) with its provenance columns, the
    largest and mean change per part and measure, and the cell of each row's largest change.
    The day is the configuration's ``[simulation] day``: exact by default."""
    c = ctx.config
    if c.day is not None:
        wait_for(ctx)  # the day's kernels, compiled by the warm-up process
    answer = ask("readings", readings_inputs(c, switches=PAGE_SWITCHES))
    return PageData(
        {
            "readings": readings_csv(answer, "table"),
            "by-measure": readings_csv(answer, "by_measure"),
            "largest": readings_csv(answer, "largest"),
        }
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    table = data.tables["readings"]
    a = table.attrs
    shown = readings_frame(table, data.tables["largest"], lang, rules=c.rules, day=c.day)
    simulated = a.get("n_days") is not None
    short = (
        _("day simulated, {days} days, seed {seed}").format(
            days=i18n.number(a["n_days"], lang, 0), seed=a["seed"]
        )
        if simulated
        else _("day exact")
    )
    day = (
        _("the day simulated ({days} days, seed {seed}, the same seed under both rules)").format(
            days=i18n.number(a["n_days"], lang, 0), seed=a["seed"]
        )
        if simulated
        else _("the day computed exactly")
    )
    caption = _(
        "Each switch of the rules moved alone to each of its other values, against this "
        "configuration's rules: a bar is the largest change it makes in a probability "
        "(P(success) on the DC table and in the party's tests, the day's P(gauge empty), "
        "P(hidden), P(noticed)), in percentage points, with where it happens, and the table "
        "its largest change of the drain per roll and of the day. Single rolls are exact, "
        "{day}; a reading the day engines cannot play yet is not computed, never 0."
    ).format(day=day)
    caption += " " + _(
        "The combat switches (the VD's base, WIS and DEX in the VD, the critical) are read on "
        "the combat pages, and by explodice readings."
    )
    title = _("Which readings matter: the open readings of the seeds, ranked")
    fig, (ax,) = page_figure(ctx, title, caption, left=0.17, right=0.535, bottom=0.09)
    plot_readings(shown, ax=ax, lang=lang, width=48)
    axes_title(
        ax,
        _("{n} readings; single rolls exact; {day}").format(n=len(shown), day=short),
        fontsize=7,
        loc="left",
        color="0.35",
    )
    summary = pd.DataFrame(
        {
            _("reading"): shown["reading"],
            **{_(header): shown[column] for column, header in SUMMARIES},
        }
    )
    height = min(0.6, 0.027 * (len(summary) + 1))
    top = 0.80 - 0.02 * textwrap.fill(caption, 150).count("\n")  # below the caption
    fig.text(
        0.565,
        top + 0.035,
        _("The largest change of the drain and of the day"),
        fontsize=9,
        weight="bold",
    )
    fig.text(
        0.565,
        top + 0.012,
        _(
            "E[drain]: gauge points per roll; successes: per day; —: a part the switch is not read by"
        ),
        fontsize=6.5,
        color="0.3",
    )
    # the reading, then SUMMARIES' three columns; the French readings are long ("égalités en
    # discrétion = à l'observateur"), and so are the day's headers ("journée : réussites")
    widths = [0.425, 0.175, 0.19, 0.21]
    draw_table(fig, summary, (0.565, top - height, 0.41, height), widths=widths, fontsize=6.3)
    notes = [
        _("{reading}: {note}").format(reading=r.reading, note=r.note)
        for r in shown.itertuples()
        if r.note
    ]
    if notes:
        text = "\n".join(
            line for note in notes for line in textwrap.wrap(note, 88, subsequent_indent="   ")
        )
        fig.text(0.565, top - height - 0.03, _("Notes:") + "\n" + text, fontsize=6, va="top")
    return fig
