"""Across levels: the gauge maximum each build needs at each level so that a gauge empties
before the long rest on at most one day in ten, by the exact day, against the build's own
maximum and the points per level that would meet the need."""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.figure import Figure

from explodice.analysis.levels import DAY_ROLLS
from explodice.game.build import LEVELS
from explodice.game.tables import DC_TABLES
from explodice.present import i18n
from explodice.present.answers import method_text
from explodice.present.builds import first_builds, shown_builds
from explodice.present.formats import Formatter
from explodice.present.plots.levels import plot_gauge_needs
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.gauge_sizing import SizingInputs
from explodice.questions.registry import ask
from explodice.sweeps.levels import SIZING_RISK

__all__ = ["MAX_BUILDS", "RISK", "data", "draw"]

#: The risk the page sizes the gauges at: a gauge empty before the long rest on one day in ten.
RISK = SIZING_RISK
#: The builds the page has room for (the CSV holds every build).
MAX_BUILDS = 10


def data(ctx: Context) -> PageData:
    """Each build on its own day (12 rolls of its proficient skills and saves at DC 16),
    levels 1-20, every gauge the day drains (exact day)."""
    shown = shown_builds(ctx.config)
    answer = ask(
        "gauge_sizing", SizingInputs(tuple(shown.builds), ctx.rules, risk=RISK), progress=False
    )
    return PageData(
        {"gauges": answer.csv_table("gauges"), "lines": answer.csv_table("lines")},
        {"builds": shown, "answer": answer},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    frame = data.tables["gauges"]
    shown = data.shown["builds"]
    kept, left_out = first_builds(list(dict.fromkeys(frame.build)), MAX_BUILDS, lang)
    levels = sorted(set(frame.level)) or list(LEVELS)
    first, last = int(levels[0]), int(levels[-1])
    answer = data.shown["answer"]
    fmt = Formatter(lang)
    lines = answer.tables["lines"]
    lines = lines[lines.build.isin(kept)] if not lines.empty else lines
    rows = []
    for r in lines.itertuples():
        rows.append(
            [
                r.build,
                r.gauge,
                f"{r.need_first} → {r.need_last}",
                _("{base} + {per} per level").format(base=r.line_base, per=r.line_per_level),
                f"{r.have_first} → {r.have_last}",
                fmt.cell(r.first_level_met, "level") if pd.notna(r.first_level_met) else _("never"),
                fmt.cell(r.risk_first, "probability"),
                fmt.cell(r.risk_last, "probability"),
            ]
        )
    span = _("level {a} → {b}").format(a=first, b=last)
    table = pd.DataFrame(
        rows,
        columns=[
            _("build"),
            _("gauge"),
            _("needs ({levels})").format(levels=span),
            _("least maximum, every level"),
            _("has ({levels})").format(levels=span),
            _("meets the need from level"),
            _("P(empty) at level {level}").format(level=first),
            _("P(empty) at level {level}").format(level=last),
        ],
    )
    caption = _(
        "Solid: the smallest maximum of each gauge such that it empties before the long rest "
        "on at most {risk} of the days; dashed: the build's own maximum (score + points x "
        "level). The table: the need at the first and last level, the least maximum of the form "
        "base + points x level that meets the need at every level, and what the build has. The day: each build alone, {rolls} rolls drawn from its proficient skills "
        "(weight 3) and saves (weight 1), all at DC {dc}, the same at every level. The day is "
        "{method}; each gauge sized alone (another gauge's excess not poured into it). "
        "{builds}."
    ).format(
        risk=i18n.percent(RISK, lang, 0),
        method=method_text(answer.provenance, lang, rules=False),
        rolls=DAY_ROLLS,
        dc=DC_TABLES["3d6x"]["moderate"],
        builds=shown.note(lang, ctx.config.source),
    )
    caption += f" {left_out}" if left_out else ""
    if frame.empty:  # all NPCs, or no kind of roll under the rule of 1
        fig, (ax,) = page_figure(
            ctx, _("Across levels: the gauge points each build needs"), caption
        )
        ax.axis("off")
        ax.text(
            0.5,
            0.5,
            _("No roll of the builds' days drains a gauge under these rules: nothing to size."),
            ha="center",
            va="center",
            fontsize=11,
        )
        return fig
    ncols = min(len(kept), 5)
    nrows = math.ceil(len(kept) / ncols)
    height = 0.03 + 0.024 * (len(table) + 1)
    fig, axes = page_figure(
        ctx,
        _("Across levels: the gauge points each build needs"),
        caption,
        nrows=nrows,
        ncols=ncols,
        table=table,
        table_height=height,
        bottom=0.11 + height,
        wspace=0.35,
    )
    for ax, name in zip(axes, kept):
        plot_gauge_needs(frame[frame.build == name], ax=ax, lang=lang, title=name)
    for ax in axes[len(kept) :]:
        ax.remove()
    return fig
