"""Across levels: the base B of a 3d6x save DC (B + PB + the caster's modifier) that gives the
target the same P(save succeeds) as 5e's 8 + PB + modifier, over the gaps between caster and
target that the builds produce at levels 1-20."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from explodice.present import i18n
from explodice.present.builds import shown_builds
from explodice.present.formats import Formatter
from explodice.present.plots.levels import plot_save_dc_bases, plot_save_dc_fit
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.registry import ask
from explodice.questions.save_dc import SaveDCInputs

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """The least-squares fit over every build as caster and as target, each save (exact)."""
    shown = shown_builds(ctx.config)
    answer = ask("save_dc", SaveDCInputs(tuple(shown.builds), ctx.rules))
    tables = {name: answer.csv_table(name) for name in ("gaps", "bases", "cases")}
    return PageData(tables, {"builds": shown, "fit": _Fit(**answer.extra)})


@dataclass(frozen=True)
class _Fit:
    """The fitted numbers the page reads besides the tables (the answer's ``extra``)."""

    base: int
    error: float
    criterion: str
    d20_base: int


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    fit = data.shown["fit"]
    gaps = data.tables["gaps"]
    shown = data.shown["builds"]

    fmt = Formatter(lang)

    def signed(v: float) -> str:  # p_3d6x - p_d20: a change, in percentage points
        return fmt.cell(v, "change")

    table = pd.DataFrame(
        [
            [_("cases")] + [i18n.number(int(v), lang, 0) for v in gaps["count"]],
            [_("share")] + [fmt.cell(v, "probability") for v in gaps.share],
            [_("d20: DC {base} + gap").format(base=fit.d20_base)]
            + [fmt.cell(v, "probability") for v in gaps.p_d20],
            [_("3d6x: DC {base} + gap").format(base=fit.base)]
            + [fmt.cell(v, "probability") for v in gaps.p_3d6x],
            [_("error")] + [signed(v) for v in gaps.error],
        ],
        columns=[_("gap")] + [str(int(g)) for g in gaps.gap],
    )
    caption = _(
        "5e sets a save DC at {d20} + PB + the caster's modifier. In 3d6x, B = {base} gives the "
        "closest P(the target saves) over the {cases} cases (each build casting on its main "
        "ability against each build and each of the six saves, both at the same level, levels "
        "1-20): weighted root mean square error {error} over {gaps} gaps (points sized by their "
        "share of the cases), largest error {worst}. Exact. {builds}."
    ).format(
        d20=fit.d20_base,
        base=fit.base,
        cases=i18n.number(int(gaps["count"].sum()), lang, 0),
        # errors are differences of two probabilities: percentage points, their size
        error=fmt.points(fit.error, signed=False),
        gaps=len(gaps),
        worst=fmt.points(gaps.error.abs().max(), signed=False),
        builds=shown.note(lang, ctx.config.source),
    )
    fig, (a, b) = page_figure(
        ctx,
        _("Across levels: the base of a save DC"),
        caption,
        ncols=2,
        table=table,
        table_height=0.17,
        width_ratios=(1.6, 1),
        bottom=0.30,
    )
    plot_save_dc_fit(
        gaps,
        base=fit.base,
        d20_base=fit.d20_base,
        ax=a,
        lang=lang,
        title=_("P(the target saves) by gap, 5e against 3d6x at B = {base}").format(base=fit.base),
    )
    plot_save_dc_bases(data.tables["bases"], ax=b, lang=lang, title=_("The error of each base B"))
    return fig
