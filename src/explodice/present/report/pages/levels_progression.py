"""Across levels: P(success) of each build's main test per level and difficulty band, 3d6x
against the game's DC table beside d20 against 5e's, framed where it leaves the band's target
range."""

from __future__ import annotations

from matplotlib.figure import Figure

from explodice.game.tables import DC_TABLES
from explodice.present import i18n
from explodice.present.builds import first_builds, shown_builds
from explodice.present.labels import build_test_label
from explodice.present.plots.levels import OUTSIDE_EDGE, OUTSIDE_LABEL, plot_level_grid
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.progression import ProgressionInputs
from explodice.questions.registry import ask

__all__ = ["MAX_BUILDS", "data", "draw"]

#: The builds one page has room for (the CSV holds every build).
MAX_BUILDS = 6


def data(ctx: Context) -> PageData:
    """Each build's main test at levels 1-20, every band, both systems (exact)."""
    shown = shown_builds(ctx.config)
    inputs = ProgressionInputs(tuple(shown.builds), ctx.rules)
    answer = ask("progression", inputs)
    return PageData({"progression": answer.csv_table("progression")}, {"builds": shown})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    frame = data.tables["progression"]
    shown = data.shown["builds"]
    names, left_out = first_builds(list(dict.fromkeys(frame.build)), MAX_BUILDS, lang)
    caption = _(
        "P(success) of each build's main test at each level, by difficulty band: 3d6x against "
        "the game's DC table ({dc3}) beside d20 against 5e's ({dc20}), each build with its own "
        "increases, proficiency and rule-of-1 policy; cells in percent. Exact. A framed cell leaves the band's "
        "target range (what 5e gives its trained build over levels 1-20). {builds}."
    ).format(
        dc3=" ".join(str(v) for v in DC_TABLES["3d6x"].values()),
        dc20=" ".join(str(v) for v in DC_TABLES["d20"].values()),
        builds=shown.note(lang, ctx.config.source),
    )
    caption += f" {left_out}" if left_out else ""
    fig, axes = page_figure(
        ctx,
        _("Across levels: success by band, 3d6x beside d20"),
        caption,
        nrows=len(names),
        ncols=2,
        left=0.12,
        right=0.93,
        bottom=0.09,
        wspace=0.04,
        hspace=0.75 if len(names) > 3 else 0.45,
    )
    for row, name in enumerate(names):
        rows = frame[frame.build == name]
        first = rows.iloc[0]
        test = build_test_label(first.test, first.kind, first.ability, lang)
        for col, system in enumerate(("3d6x", "d20")):
            part = rows[rows.system == system]
            mods = sorted(set(part.modifier))
            plot_level_grid(
                part,
                ax=axes[2 * row + col],
                lang=lang,
                band_labels=col == 0,
                title=_("{build} · {test}, {system} (modifier {lo:+d} to {hi:+d})").format(
                    build=name, test=test, system=system, lo=mods[0], hi=mods[-1]
                ),
            )
    import matplotlib.patches as mpatches

    bar = fig.colorbar(axes[0].images[0], ax=axes, fraction=0.02, pad=0.01, label=_("P(success)"))
    bar.ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    fig.legend(
        handles=[mpatches.Patch(facecolor="white", label=_(OUTSIDE_LABEL), **OUTSIDE_EDGE)],
        loc="lower right",
        bbox_to_anchor=(0.93, 0.035),
        fontsize=7,
        frameon=False,
    )
    return fig
