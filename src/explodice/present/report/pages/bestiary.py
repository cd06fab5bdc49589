"""The bestiary: the typical monster of each power factor and its 3d6x numbers (the table a
designer prints in a bestiary chapter), then the monsters a flat conversion moves most, with a
figure of the change in each chance by FP. The SRD 5.1's monsters (and the configuration's
own, ``[[monster]]``), names as the SRD writes them, its attribution on both pages."""

from __future__ import annotations

import textwrap

import pandas as pd
from matplotlib.figure import Figure

from explodice.game.bestiary import srd_monsters
from explodice.present import i18n
from explodice.present.builds import shown_builds
from explodice.present.formats import Formatter
from explodice.present.labels import srd_attribution
from explodice.present.plots.bestiary import CHANCE_LABELS, plot_changes_by_fp, plot_fp_conversion
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.bestiary import BestiaryInputs, FpTableInputs
from explodice.questions.registry import ask

__all__ = ["below_caption", "data_fp", "data_moves", "draw_attribution", "draw_fp", "draw_moves"]

#: The monsters (rows) the second page lists.
TOP = 12


def _monsters(ctx: Context) -> tuple:
    return (*ctx.config.monsters, *srd_monsters())


def _attribution_text(ctx: Context) -> str:
    text = srd_attribution(ctx.lang)  # the licence's wording in English, framed in the page's
    return textwrap.fill(text, 190, break_on_hyphens=False, break_long_words=False)


def below_caption(ctx: Context, caption: str) -> tuple[float, float]:
    """Where the SRD's attribution starts (just below the caption, as page_figure wraps it)
    and where the Axes may start below it: for every page that shows the SRD's monsters."""
    lines = textwrap.fill(i18n.keep_together(caption), 150).count("\n") + 1
    y = 0.925 - 0.021 * lines - 0.008
    return y, y - 0.013 * (_attribution_text(ctx).count("\n") + 1) - 0.05


def draw_attribution(ctx: Context, fig: Figure, y: float) -> None:
    """The SRD's attribution (its licence asks for it wherever its monsters are shown), and
    that the names are the SRD's, in English."""
    fig.text(0.04, y, _attribution_text(ctx), fontsize=5.5, color="0.35", va="top")


def data_fp(ctx: Context) -> PageData:
    """The per-FP table over the SRD's monsters and the configuration's (exact)."""
    builds = shown_builds(ctx.config).builds  # as `fp-table CONFIG` reads them
    answer = ask("fp_table", FpTableInputs(_monsters(ctx), builds=builds, rules=ctx.rules))
    return PageData(
        {"fp-table": answer.csv_table("fp_table")}, {"table": answer.tables["fp_table"]}
    )


def draw_fp(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    t = data.shown["table"]

    def whole(v: object) -> str:
        return "—" if pd.isna(v) else str(int(v))  # type: ignore[call-overload]

    rows = [
        (_("monsters"), [str(v) for v in t["count"]]),
        (_("AC (median)"), [ctx.num(v, 1) for v in t.ac]),
        (_("VD flat"), [whole(v) for v in t.vd_flat]),
        (_("VD matched"), [whole(v) for v in t.vd_matched]),
        (_("attack (median)"), [ctx.num(v, 1) for v in t.attack]),
        (_("attack matched"), [whole(v) for v in t.attack_matched]),
        (_("save DC (median)"), [ctx.num(v, 1) for v in t.save_dc]),
        (_("DC flat"), [whole(v) for v in t.save_dc_flat]),
        (_("DC matched"), [whole(v) for v in t.save_dc_matched]),
        (_("HP (median)"), [ctx.num(v, 0) for v in t.hp]),
    ]
    table = pd.DataFrame([[name, *cells] for name, cells in rows], columns=["FP", *t.fp])
    caption = (
        _(
            "Per power factor, the typical monster ({n} monsters: the medians of their AC as first "
            "listed, highest attack bonus, highest save DC and HP) met by the builds at "
            "level FP (1-20). Flat: VD = AC − 10 + defence base + WIS, the attack bonus as printed, "
            "a save DC of DC − 8 + the 3d6x save base. Matched: the 3d6x value whose chances (the "
            "builds hit it, it hits them, they save) are closest to 5e's, least squares over the "
            "builds. An FP without monsters is read between its neighbours. Exact."
        ).format(n=int(t["count"].sum()))
        + " "
        + shown_builds(ctx.config).note(ctx.lang, ctx.config.source)
    )
    y, top = below_caption(ctx, caption)
    fig, (ax,) = page_figure(
        ctx,
        _("The bestiary: the typical monster of each FP, in 3d6x"),
        caption,
        table=table,
        table_height=0.34,
        bottom=0.47,
        top=top,
    )
    plot_fp_conversion(t, ax=ax, lang=ctx.lang, title=_("The 3d6x numbers of the typical monster"))
    draw_attribution(ctx, fig, y)
    return fig


def data_moves(ctx: Context) -> PageData:
    """Every monster against the level-matched builds, sorted by the largest change."""
    builds = shown_builds(ctx.config).builds  # as `bestiary CONFIG` reads them
    answer = ask("bestiary", BestiaryInputs(_monsters(ctx), builds=builds, rules=ctx.rules))
    return PageData(
        {"bestiary": answer.csv_table("bestiary")},
        {"frame": answer.tables["bestiary"], "summary": answer.tables["summary"].iloc[0]},
    )


def draw_moves(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    frame = data.shown["frame"]
    top = frame.head(TOP)
    fmt = Formatter(ctx.lang)  # each kind of number one way, as on every surface
    table = pd.DataFrame(
        {
            _("monster"): top.name,
            "FP": top.fp,
            _("chance"): [_(CHANCE_LABELS[c]) for c in top.chance],
            _("attack, DC or save"): top["item"],
            # the mean over the builds, its change, then the one build it moves most: the
            # largest change read beside the means looked like arithmetic gone wrong
            _("5e (mean)"): [fmt.cell(v, "probability") for v in top.p_d20],
            _("3d6x (mean)"): [fmt.cell(v, "probability") for v in top.p_3d6x],
            _("mean change"): [fmt.cell(v, "change") for v in top.change],
            _("largest change"): [fmt.cell(v, "change") for v in top.largest_change],
            _("for the build"): [_(b) for b in top.worst_build],
        }
    )
    summary = data.shown["summary"]  # the question's: the monsters, the share flagged
    caption = _(
        "Each of the {n} monsters converted flat (VD = AC − 10 + defence base + WIS; DC − 8 + "
        "the 3d6x save base), against the builds at level FP: the change in each "
        "chance, 3d6x − 5e (points: the mean over the builds; lines: each chance's median). "
        "{share} of the chances move by more than {t} for at least one build (the shaded band); "
        "the table lists the largest: each chance's mean over the builds, and the one build it "
        "moves most. Exact."
    ).format(
        n=fmt.cell(summary.monsters, "count"),
        share=fmt.cell(summary.share_flagged, "probability"),
        t=fmt.points(summary.threshold, digits=0, signed=False),  # a change: points
    )
    caption += " " + shown_builds(ctx.config).note(ctx.lang, ctx.config.source)
    y, top = below_caption(ctx, caption)
    fig, (ax,) = page_figure(
        ctx,
        _("The bestiary: the monsters a flat conversion moves most"),
        caption,
        table=table,
        table_height=0.30,
        bottom=0.45,
        top=top,
    )
    plot_changes_by_fp(frame, ax=ax, lang=ctx.lang, title=_("The change in each chance, by FP"))
    draw_attribution(ctx, fig, y)
    return fig
