"""Initiative: each creature's rank and P(the party acts first), both systems."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from explodice.present import i18n
from explodice.present.formats import Formatter
from explodice.present.labels import N_
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.initiative import Creature, InitiativeInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """P(rank) of each creature and P(one side acts entirely before the other): the party
    against an orc (DEX +1) and a wolf (+2), exact, in both systems."""
    party = list(ctx.config.party)
    _ = ctx._
    orc, wolf, us, them = _("Orc"), _("Wolf"), _("the party"), _("the monsters")
    creatures: dict[str, Creature] = {c.name: c for c in party}
    creatures |= {orc: 1, wolf: 2}
    sides = {us: [c.name for c in party], them: [orc, wolf]}
    if not party:
        creatures |= {_("Hero"): 2}
        sides = {us: [_("Hero")], them: [orc, wolf]}
    inputs = InitiativeInputs(
        tuple(creatures.items()),
        tuple((side, tuple(names)) for side, names in sides.items()),
        ("3d6x", "d20"),
        ctx.rules,
    )
    answer = ask("initiative", inputs)
    tables = {"ranks": answer.csv_table("ranks"), "sides": answer.csv_table("sides")}
    return PageData(tables, {"creatures": list(creatures), "answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    answer = data.shown["answer"]
    ranks, side_rows = answer.tables["ranks"], answer.tables["sides"]
    fmt = Formatter(ctx.lang)
    first = side_rows[side_rows["first"] == _("the party")].set_index("system").p
    caption = _(
        "A DEX ability check (outside the rule of 1); ties go to the higher DEX "
        "modifier, then a coin. Exact P(rank) against an orc (DEX +1) and a wolf (+2). "
        "The party acts entirely first with P = {p3} in 3d6x, {p20} in d20."
    ).format(p3=fmt.cell(first["3d6x"], "probability"), p20=fmt.cell(first["d20"], "probability"))
    table = fmt.table(
        answer,
        "sides",
        ["system", "first", "second", "p"],
        {"first": N_("acts first"), "second": N_("then"), "p": N_("probability")},
    )
    fig, axes = page_figure(
        ctx, _("Initiative"), caption, ncols=2, table=table, table_height=0.16, right=0.88
    )
    names = data.shown["creatures"]
    for ax, system in zip(axes, ("3d6x", "d20")):
        of = ranks[ranks.system == system]
        wide = of.pivot(index="creature", columns="rank", values="p").reindex(names)
        bottom = np.zeros(len(names))
        for rank in wide.columns:
            ax.bar(names, wide[rank], bottom=bottom, label=_("rank {rank}").format(rank=rank))
            bottom += wide[rank].to_numpy()
        ax.set(
            title=_("{system}: P(rank)").format(system=system),
            ylabel=_("probability"),
            ylim=(0, 1),
        )
        ax.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    # the stacked bars fill the Axes: one legend for both, at the right of the second
    handles, labels = axes[1].get_legend_handles_labels()
    axes[1].legend(
        handles[::-1],
        labels[::-1],
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        frameon=False,
    )
    return fig
