"""The total's distribution: 3d6x against d20, "at least" curves and the tail."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.game.rules import Advantage, Roll
from explodice.game.tables import System
from explodice.present import i18n, plots
from explodice.present.answers import pmf_distribution
from explodice.present.formats import Formatter
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.odds import OddsInputs
from explodice.questions.registry import ask

__all__ = ["ROLLS", "data", "draw"]

MODIFIER = 4
#: The axes' first total when a roll can fall below 0 (3d6x+4 with the malus die subtracted:
#: P(total < -10) is under 0.1 %).
XMIN = -10
#: The rolls drawn: (label, system, advantage state), each one ``odds`` answer.
ROLLS: tuple[tuple[str, System, Advantage], ...] = (
    ("3d6x+{mod}", "3d6x", "normal"),
    ("3d6x+{mod}, {advantage}", "3d6x", "advantage"),
    ("3d6x+{mod}, {disadvantage}", "3d6x", "disadvantage"),
    ("d20+{mod}", "d20", "normal"),
)


def data(ctx: Context) -> PageData:
    """The exact distributions of 3d6x+4 (normal, advantage, disadvantage) and d20+4 (the
    ``odds`` question, one answer each), and their totals' table (P(total) and P(at least
    the total)), each row named by the page's ``curve``."""
    _ = ctx._
    answers, frames = {}, []
    for label, system, state in ROLLS:
        name = label.format(mod=MODIFIER, advantage=_("advantage"), disadvantage=_("disadvantage"))
        inputs = OddsInputs(Roll(MODIFIER, advantage=state), ctx.rules, system)
        answers[name] = answer = ask("odds", inputs)
        frames.append(answer.csv_table("pmf").assign(curve=name))
    return PageData({"pmf": pd.concat(frames, ignore_index=True)}, {"answers": answers})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang, mod = ctx._, ctx.lang, MODIFIER
    answers = data.shown["answers"]
    dists = {name: pmf_distribution(a, ctx.rules) for name, a in answers.items()}
    mean = float(answers[f"3d6x+{mod}"].tables["summary"]["mean"].iloc[0])
    caption = _(
        "For a modifier of +{mod}: the probability of each total, and of reaching at "
        "least k, for 3d6x (normal, advantage, disadvantage) and for the d20. 3d6x "
        "concentrates around its mean ({mean} + modifier) where the d20 is flat, and its "
        "explosions leave a long tail that the log scale shows: very high DCs stay "
        "possible."
    ).format(mod=mod, mean=i18n.number(mean - mod, lang, 1))
    below = {name: float(a.tables["summary"]["p_negative"].iloc[0]) for name, a in answers.items()}
    fmt = Formatter(lang)
    for name, p in below.items():  # a subtracted malus die: totals under 0, on the axes
        if p > 0:
            caption += " " + _(
                "{roll} falls below 0 with probability {p} (the subtracted die); the "
                "axes start at {low}."
            ).format(roll=name, p=fmt.cell(p, "probability"), low=fmt.cell(XMIN, "modifier"))
    caption += " " + _("Exact (no sampling).")  # every caption names its method
    title = _("The total: 3d6x against d20")
    fig, (a, b, c) = page_figure(ctx, title, caption, ncols=3, bottom=0.2)
    low = XMIN if any(p > 0 for p in below.values()) else 0
    plots.plot_pmf(dists, ax=a, xlim=(low, 45), lang=lang)
    plots.plot_at_least(dists, ax=b, xlim=(low, 45), lang=lang)
    plots.plot_at_least(dists, ax=c, log=True, xlim=(low, 80), lang=lang)
    # the three panels draw the same rolls: one legend under them (the first's, with the
    # means), so that no panel grows its y axis past its data to make room for one
    handles, labels = a.get_legend_handles_labels()
    for ax in (a, b, c):
        ax.get_legend().remove()
    a.autoscale(axis="y")
    a.set_ylim(bottom=0)
    b.set_ylim(0, 1.02)
    b.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    fig.legend(
        handles,
        labels,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.05),
        ncol=4,
        fontsize="small",
        frameon=False,
    )
    return fig
