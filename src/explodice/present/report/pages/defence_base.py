"""Combat: the defence base that keeps 3d6x's hit chances closest to 5e's, its error per case,
and the base each reading of the VD would take."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from explodice.present import i18n
from explodice.present.builds import shown_builds
from explodice.present.formats import Formatter
from explodice.present.labels import switch_value
from explodice.present.plots.combat import WHO, plot_defence_bases
from explodice.present.plots.style import axes_title
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.present.report.pages.bestiary import below_caption, draw_attribution
from explodice.questions.combat import DefenceBaseInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """The least-squares fit over every build, level 1-20 and FP offset -3..+3, both ways."""
    shown = shown_builds(ctx.config)
    answer = ask("defence_base", DefenceBaseInputs(tuple(shown.builds), ctx.rules))
    tables = {name: answer.csv_table(name) for name in ("cases", "bases", "readings")}
    return PageData(tables, {"builds": shown, "fit": SimpleNamespace(**answer.extra),
                             "answer": answer})  # fmt: skip


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    fit = data.shown["fit"]
    cases = data.tables["cases"]
    readings = data.tables["readings"]
    fmt = Formatter(lang)
    summary = data.shown["answer"].tables["summary"].iloc[0]  # the question's summary
    table = pd.DataFrame(
        [
            [
                switch_value("wisdom_in_defence", r["wisdom_in_defence"], lang),
                switch_value("armour_dex_cap", r["armour_dex_cap"], lang),
                str(r["base"]),
                fmt.points(r["rmse"], signed=False),  # differences of probabilities: points
                fmt.points(r["max_error"], signed=False),
            ]
            for r in readings.to_dict("records")
        ],
        columns=[
            _("WIS in the VD"),
            _("DEX in armour"),
            _("base"),
            _("RMS error"),
            _("largest error"),
        ],  # fmt: skip
    )
    caption = _(
        "The defence base {base} keeps 3d6x's P(hit) closest to 5e's over {cases} cases (each "
        "build at levels 1-20 against the SRD's typical monster of FP = level − 3 .. level + 3, "
        "both ways: the build hits the monster, the monster hits the build): root mean square "
        "error {error}, largest {worst}. Left: both criteria by base; right: the error of each "
        "case by level (3d6x − 5e). The table: the base each reading of the VD would take. "
        "{without}Exact. {builds}."
    ).format(
        base=fmt.cell(summary.base, "dc"),
        cases=fmt.cell(summary.n_cases, "count"),
        error=fmt.points(summary.fit_error, signed=False),
        worst=fmt.points(summary.max_error, signed=False),
        without=_without_wisdom(readings, fmt),
        builds=data.shown["builds"].note(lang, ctx.config.source),
    )
    y, top = below_caption(ctx, caption)  # the SRD's typical monsters: its attribution
    fig, (a, b) = page_figure(ctx, _("Combat: the defence base and its errors"), caption,
                              ncols=2, table=table, table_height=0.2, bottom=0.30,
                              top=top)  # fmt: skip
    draw_attribution(ctx, fig, y)
    plot_defence_bases(data.tables["bases"], ax=a, lang=lang, title=_("The error of each base"))
    for direction, marker, colour in (
        ("build hits", "o", "#1f5fa8"),
        ("monster hits", "s", "#b03a2e"),
    ):
        part = cases[cases.direction == direction]
        b.scatter(part.level + (part.offset * 0.08), part.error, s=4, marker=marker, alpha=0.5,
                  color=colour, label=_(WHO[f"p_{direction.replace(' ', '_')}"]))  # fmt: skip
    b.axhline(0, color="0.3", lw=0.8)
    b.xaxis.set_major_locator(MaxNLocator(integer=True))  # levels: whole numbers
    b.set_xlabel(_("level"), fontsize=7)
    b.set_ylabel(_("error in P(hit): 3d6x − 5e"), fontsize=7)
    b.yaxis.set_major_formatter(i18n.change_formatter(lang))
    b.tick_params(labelsize=6.5)
    b.grid(alpha=0.3)
    b.legend(fontsize=6.5, loc="lower right")
    axes_title(b, _("The error of each case at base {base}").format(base=fit.base), fontsize=8.5)
    return fig


def _without_wisdom(readings: pd.DataFrame, fmt: Formatter) -> str:
    """What the table shows of taking WIS out of the VD (the row of the rules' DEX in armour
    without WIS) beside the rules' own reading: its base and both errors, read from the
    answer's table; empty where the rules already leave WIS out."""
    current = readings[readings.current]
    if current.empty or current.wisdom_in_defence.iloc[0] == "none":
        return ""
    now = current.iloc[0]
    out = readings[(readings.wisdom_in_defence == "none")
                   & (readings.armour_dex_cap == now.armour_dex_cap)]  # fmt: skip
    if out.empty:
        return ""
    row = out.iloc[0]
    return fmt._(
        "Taking WIS out of the VD (base {base}): root mean square error {rmse} instead of "
        "{rmse_now}, largest {worst} instead of {worst_now}. "
    ).format(
        base=fmt.cell(row.base, "dc"),
        rmse=fmt.points(row.rmse, signed=False),
        rmse_now=fmt.points(now.rmse, signed=False),
        worst=fmt.points(row.max_error, signed=False),
        worst_now=fmt.points(now.max_error, signed=False),
    )
