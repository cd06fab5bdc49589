"""The d20 comparison: for each profile, the 3d6x DC whose odds are closest to each d20 DC,
and the d20 DC table mapped onto 3d6x."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.present import plots
from explodice.present.answers import method_text
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang, translator
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.compare import CERTAIN, CompareInputs
from explodice.questions.registry import ask
from explodice.questions.success import SuccessInputs

__all__ = ["data", "draw"]


def reference(profiles: dict[str, int], lang: Lang = "en") -> str:
    """The profile whose odds map the d20 DC table: ``trained`` (in English or in ``lang``),
    else the first."""
    names = ("trained", translator(lang)("trained"))
    return next((n for n in names if n in profiles), next(iter(profiles)))


def data(ctx: Context) -> PageData:
    """Each profile's equivalent DCs and the equivalent DC table of the reference profile (the
    ``compare`` question), and the success curves of both systems (the ``success`` question,
    DCs 1 to 40); exact."""
    profiles = dict(ctx.config.profiles)
    inputs = CompareInputs(tuple(profiles.items()), ctx.rules, reference(profiles, ctx.lang))
    answer = ask("compare", inputs)
    curves = pd.concat(
        [
            ask(
                "success",
                SuccessInputs(
                    tuple(profiles.values()),
                    ctx.rules,
                    tuple(range(1, 41)),
                    system=system,
                    advantages=("normal",),
                ),
            ).csv_table("success")
            for system in ("3d6x", "d20")
        ],
        ignore_index=True,
    )
    equivalent = answer.csv_table("equivalent")
    for frame in (curves, equivalent):  # the plots' notes name them in the page's language
        frame.attrs["rules"] = ctx.rules
    return PageData(
        {
            "equivalent-dc": equivalent,
            "equivalent-dc-table": answer.csv_table("table"),
            "curves": curves,
        },
        {"answer": answer},
    )


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    profiles = dict(ctx.config.profiles)
    ref = reference(profiles, lang)
    answer = data.shown["answer"]
    fmt = Formatter(lang)
    table = answer.tables["table"]
    # a row the reference cannot tell apart (certain or impossible in d20) is matched on another
    # a d20 DC no profile reaches has no 3d6x DC: the cell says so, the odds are d20's alone
    # a d20 DC every profile always reaches is matched by any 3d6x DC up to the one found
    table = table.assign(
        dc_3d6x=[
            _(note)
            if pd.isna(dc)
            else fmt.equivalent_dc(dc, note) + ("" if on == ref else f" ({on})")
            for dc, on, note in zip(table.dc_3d6x, table.matched_on, table.note)
        ]
    )
    shown = (
        table.assign(
            cell=[
                f"{'—' if pd.isna(p3) else fmt.cell(p3, 'probability')} "
                f"(d20 {fmt.cell(pd20, 'probability')})"
                for p3, pd20 in zip(table.p_3d6x, table.p_d20)
            ]
        )
        .pivot(index=["difficulty", "d20_dc", "dc_3d6x"], columns="profile", values="cell")
        .reindex(columns=list(profiles))
        .reset_index()
    )
    shown = shown.sort_values("d20_dc")
    shown["difficulty"] = shown["difficulty"].map(_)
    shown.columns = [
        _("difficulty"),
        _("d20 DC"),
        _("3d6x DC ({profile})").format(profile=ref),
    ] + [
        _("{profile} {modifier}: 3d6x (d20)").format(profile=p, modifier=f"{profiles[p]:+d}")
        for p in profiles
    ]
    caption = _(
        "For each profile's modifier, the 3d6x DC whose odds are closest to each d20 DC "
        "(left, the gap 3d6x − d20 beside each point), and the success curves of both "
        "systems (right). The table maps the d20 DC table onto 3d6x for the {reference} "
        "profile and gives every profile's odds there, in 3d6x and (in brackets) d20; where "
        "d20 is certain or impossible for that profile, the DC is matched on the profile named "
        "beside it (the one whose d20 odds there are nearest 50%). A d20 DC a profile cannot "
        "reach (d20 odds 0%) has no equivalent: 3d6x is never impossible above its minimum, "
        "so neither the chart nor the table gives one."
    ).format(reference=ref)
    if (data.tables["equivalent-dc"].note == CERTAIN).any():
        caption += " " + _(
            "▼: d20 always succeeds there, and any 3d6x DC up to the point matches it as "
            "well (the closest odds 3d6x gives)."
        )
    how = method_text(answer.provenance, lang, rules=False)
    caption += " " + how[:1].upper() + how[1:] + "."
    title = _("3d6x against d20: equivalent DCs")
    fig, (a, b) = page_figure(ctx, title, caption, ncols=2, table=shown, table_height=0.24)
    plots.plot_equivalent_dc(data.tables["equivalent-dc"], ax=a, lang=lang)
    plots.plot_success_curves(
        data.tables["curves"],
        ax=b,
        style="system",
        bands=None,
        lang=lang,
        title=_("Success against DC (solid 3d6x, dashed d20)"),
    )
    return fig
