"""Passive values against the roll they stand for: median, mean and the matching base."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from explodice.present import plots
from explodice.present.formats import Formatter
from explodice.present.labels import N_, STATES
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.passive import PassiveInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]

#: The table's columns as the page shows them: (column, header).
SHOWN = (
    ("system", N_("system")),
    ("advantage", N_("advantage (modifier +0)")),
    ("passive", N_("passive")),
    ("median", N_("median")),
    ("mean", N_("mean")),
    ("gap_median", N_("median − passive")),
    ("base_for_median", N_("base matching the median")),
    ("p_roll_at_least", N_("P(roll ≥ passive)")),
)


def data(ctx: Context) -> PageData:
    """The passive value at modifier +0 against the active roll, per system and state (the
    question ``passive``, exact)."""
    answer = ask("passive", PassiveInputs(rules=ctx.rules))
    return PageData({"passive": answer.csv_table("passive")}, {"answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    answer = data.shown["answer"]
    frame = answer.csv_table("passive").drop(columns=["rules"])  # the note: method
    fmt = Formatter(lang)
    # one bar per system and state (the d20 has one disadvantage: the same under both readings)
    rows = []
    for st in STATES:
        for _system, g in frame.groupby("system", sort=False):
            same = g[g.advantage == st.key]
            rows.append(
                (same if len(same) else g[g.advantage == st.advantage]).assign(
                    state=st.label(lang, sep="\n")
                )
            )
    long = pd.concat(rows, ignore_index=True)
    long["series"] = long["system"].map(lambda sy: _("{system} roll: median").format(system=sy))
    normal = frame[(frame.system == "3d6x") & (frame.advantage == "normal")].iloc[0]
    # the base that matches the median differs by state (13 under subtract): one per state,
    # read from the table's own rows
    bases = ", ".join(
        _("{state}: {base}").format(
            state=fmt.cell(row.advantage, "label"), base=fmt.cell(row.base_for_median, "dc")
        )
        for row in frame[frame.system == "3d6x"].itertuples()
    )
    caption = _(
        "A passive value is 10 + modifier, +5 with advantage, −5 with disadvantage (the "
        "black marks). The bars are the active roll's median for each advantage state, "
        "at modifier +0 (every modifier shifts both alike): in d20 the median sits on "
        "the passive value (or 1 point above); 3d6x rolls higher (mean {mean} + "
        "modifier), so the base that would match its median, in place of 10, depends on "
        "the state: {bases}. The table adds the means and how often the roll reaches the "
        "passive value. Exact."
    ).format(mean=fmt.cell(normal["mean"], "number", digits=1), bases=bases)
    shown = fmt.table(answer, "passive", [col for col, _header in SHOWN], dict(SHOWN))
    height = 0.03 + 0.028 * (len(shown) + 1)
    fig, (a,) = page_figure(
        ctx,
        _("Passive values"),
        caption,
        table=shown,
        table_height=height,
        bottom=0.13 + height,  # the state names take two lines, then the axis label
    )
    plots.plot_bars(
        long,
        x="state",
        y="median",
        hue="series",
        ax=a,
        lang=lang,
        xlabel=_("advantage state (modifier +0)"),
        ylabel=_("total"),
        title=_("The active roll's median against the passive value"),
    )
    passive = long.drop_duplicates("state")["passive"].to_numpy()
    a.hlines(
        passive,
        np.arange(len(passive)) - 0.45,
        np.arange(len(passive)) + 0.45,
        color="black",
        lw=2.5,
        label=_("passive value"),
        zorder=3,
    )
    plots.place_legend(a, room=True, fontsize="small")
    return fig
