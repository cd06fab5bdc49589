"""Rerolls: what a reroll on failure and the Lucky trait are worth, in success and drain."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from explodice.present import i18n, plots
from explodice.present.formats import Formatter
from explodice.present.labels import REROLL
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.registry import ask
from explodice.questions.reroll import RerollInputs

__all__ = ["MODIFIERS", "data", "draw"]

MODIFIERS = (0, 4, 8)


def data(ctx: Context) -> PageData:
    """P(success) and E[drain] with and without each reroll, per modifier, DC and advantage
    state, in both systems: the ``reroll`` question (exact)."""
    inputs = RerollInputs(
        MODIFIERS,
        ctx.rules,
        systems=("3d6x", "d20"),
        triggers=("failure", "one"),
        advantages=("normal", "advantage"),
    )
    answer = ask("reroll", inputs)
    return PageData({"worth": answer.csv_table("worth")}, {"answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    frame = data.tables["worth"]
    caption = _(
        "Exact. A reroll on failure without advantage turns p into 1 - (1 - p)²; "
        "with advantage only the best die is rerolled. In 3d6x the roll thrown again "
        "drains again (right); Lucky (a 1 rerolled before the rule of 1) drains less, by "
        "the same whatever the modifier and the DC. "
        "Table: 3d6x +4, no advantage."
    )
    triggers = {k: _(v) for k, v in REROLL.items()}
    normal = frame[frame.advantage == "normal"]
    fmt = Formatter(ctx.lang)
    table = normal[(normal.system == "3d6x") & (normal.modifier == 4)][
        ["trigger", "dc", "p", "p_reroll", "gain", "drain_added"]
    ].copy()
    kinds = data.shown["answer"].kinds
    for col in ("p", "p_reroll", "gain", "drain_added"):  # each by its kind: gain in pp
        table[col] = [fmt.cell(v, kinds[col]) for v in table[col]]
    table["trigger"] = table["trigger"].map(triggers)
    table.columns = [
        _("reroll"),
        _("DC"),
        _("P(success)"),
        _("P(success) with the reroll"),
        _("gained"),
        _("E[drain] added"),
    ]
    title = _("What is a reroll worth?")
    fig, (a, b) = page_figure(
        ctx,
        title,
        caption,
        ncols=2,
        table=table,
        table_height=0.04 + 0.021 * (len(table) + 1),
        left=0.09,  # the gains' ticks carry their sign and unit (+25 pp): room for the label
    )
    # colour: the modifier; line: the system (solid 3d6x, dotted d20); marker: the reroll
    # looked up by the frame's values (the groupby keys, which pandas types as Hashable)
    colours: dict[Any, str] = {m: f"C{i}" for i, m in enumerate(MODIFIERS)}
    styles: dict[Any, str] = {"3d6x": "-", "d20": ":"}
    markers: dict[Any, str] = {"failure": "o", "one": "x"}
    for (system, trigger), part in normal.groupby(["system", "trigger"], sort=False):
        for m in MODIFIERS:
            rows = part[part.modifier == m]
            a.plot(rows.dc, rows.gain, styles[system], color=colours[m], marker=markers[trigger])
    a.set(
        xlabel=_("DC"),
        ylabel=_("P(success) gained"),
        title=_("Gain in success (no advantage)"),
    )
    a.yaxis.set_major_formatter(i18n.change_formatter(ctx.lang))  # a change: signed, as the table
    x3 = normal[normal.system == "3d6x"]
    for (trigger, mod), rows in x3.groupby(["trigger", "modifier"]):
        b.plot(rows.dc, rows.drain_added, color=colours[mod], marker=markers[trigger])
    b.axhline(0, color="0.5", lw=0.6)
    b.set(
        xlabel=_("DC"),
        ylabel=_("E[drain] added per test"),
        title=_("3d6x: drain added by the reroll"),
    )
    b.yaxis.set_major_formatter(i18n.number_formatter(ctx.lang))
    keys = [
        *(
            Line2D([], [], color=c, label=_("modifier {m}").format(m=f"{m:+d}"))
            for m, c in colours.items()
        ),
        *(
            Line2D([], [], color="0.3", marker=mk, ls="none", label=triggers[t])
            for t, mk in markers.items()
        ),
    ]
    systems = [Line2D([], [], color="0.3", ls=s, label=sy) for sy, s in styles.items()]
    plots.place_legend(a, room=True, handles=keys + systems, fontsize=6.5, ncol=2)
    plots.place_legend(b, room=True, handles=keys, fontsize=6.5, ncol=2)
    return fig
