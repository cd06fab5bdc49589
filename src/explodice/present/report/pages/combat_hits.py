"""Combat: the hit chances of each build by level against the monster of its level, 3d6x beside
5e, and P(critical) under each reading of the 3d6x critical beside the natural 20."""

from __future__ import annotations

from matplotlib.figure import Figure

from explodice.game.tables import HIT_MARK_D20
from explodice.present import i18n
from explodice.present.builds import shown_builds
from explodice.present.formats import Formatter
from explodice.present.plots.combat import plot_critical, plot_hits_by_level
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.present.report.pages.bestiary import below_caption, draw_attribution
from explodice.questions.combat import CriticalInputs, ProgressionInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """Every build at levels 1-20 against the SRD's typical monster of its level (exact), and
    P(critical) of a +5 attack against the VD of a 5e AC 15."""
    shown = shown_builds(ctx.config)
    progression = ask("combat_progression", ProgressionInputs(tuple(shown.builds), ctx.rules))
    critical = ask("critical", CriticalInputs(5, rules=ctx.rules))
    tables = {
        "progression": progression.csv_table("progression"),
        "critical": critical.csv_table("critical"),
    }
    return PageData(tables, {"builds": shown, "progression": progression})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    table = data.tables["progression"]
    shown = data.shown["builds"]
    names = list(dict.fromkeys(table.build))[:5]
    answer = data.shown["progression"]
    means = answer.tables["summary"].set_index("system").p_hit_mean  # the question's summary
    fmt = Formatter(lang)
    caption = _(
        "Each build at levels 1-20 against the SRD's typical monster of FP = its level (the "
        "median AC, attack bonus and save DC of the SRD's monsters of that FP): P(the build hits "
        "it) and P(it hits the build), 3d6x (VD = {base} + DEX + WIS + armour + shield; a "
        "monster's VD = AC − 10 + {base} + WIS) solid, 5e (against the AC) dashed, beside 5e's "
        "mark of {mark}. Over the page, 3d6x's P(hit) is {mean3} on average against 5e's {mean5}. "
        "Last panel: P(critical) of a +5 attack under each reading of the 3d6x critical, beside "
        "the natural 20. Exact. {builds}."
    ).format(
        base=ctx.rules.defence_base,
        mark=i18n.percent(HIT_MARK_D20, lang, 0),
        mean3=fmt.cell(means["3d6x"], "probability"),
        mean5=fmt.cell(means["d20"], "probability"),
        builds=shown.note(lang, ctx.config.source),
    )
    y, top = below_caption(ctx, caption)  # the SRD's typical monsters: its attribution
    fig, axes = page_figure(ctx, _("Combat: hit chances by level, 3d6x beside 5e"), caption,
                            nrows=2, ncols=3, top=top)  # fmt: skip
    draw_attribution(ctx, fig, y)
    flat = list(axes.flat) if hasattr(axes, "flat") else list(axes)
    for ax, name in zip(flat, names):  # one legend, on the first panel
        plot_hits_by_level(table, build=name, ax=ax, lang=lang, title=name,
                           legend=name == names[0])  # fmt: skip
    for ax in flat[len(names) : -1]:
        ax.set_visible(False)
    plot_critical(data.tables["critical"], ax=flat[-1], lang=lang,
                  title=_("P(critical), +5 against VD {vd}").format(
                      vd=int(data.tables["critical"].target.iloc[0])))  # fmt: skip
    return fig
