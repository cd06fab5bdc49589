"""Haggling: the price change for each modifier and item type of the seed's table."""

from __future__ import annotations

from typing import Any

from matplotlib import colormaps
from matplotlib.figure import Figure

from explodice.game.tables import HAGGLE_BASE_DC, HAGGLE_CAP_PCT, HAGGLE_STEP_PCT
from explodice.present import i18n, plots
from explodice.present.formats import Formatter
from explodice.present.labels import item_label
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.haggling import HagglingInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]


def data(ctx: Context) -> PageData:
    """The mean price change per modifier and item type, and the distribution of the change
    at the base DC for each modifier (the question ``haggling``, exact)."""
    answer = ask("haggling", HagglingInputs(tuple(ctx.config.modifiers), rules=ctx.rules))
    tables = {"items": answer.csv_table("items"), "dc16": answer.csv_table("changes")}
    return PageData(tables, {"answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    answer = data.shown["answer"]
    table, dist = answer.tables["items"], answer.tables["changes"]
    fmt = Formatter(lang)
    caption = _(
        "Persuasion against the seller (haggling): {step} of the price per point of "
        "margin, capped at {cap} either way. Left: the mean price change (in the buyer's "
        "favour) by modifier and item type (the seed's minimum DCs). Right: the "
        "distribution of the change at DC {dc} for each modifier. Exact."
    ).format(  # one percent format per language: 10% in English, 10 % in French
        step=i18n.percent(HAGGLE_STEP_PCT / 100, lang, 0),
        cap=i18n.percent(HAGGLE_CAP_PCT / 100, lang, 0),
        dc=HAGGLE_BASE_DC,
    )
    fig, (a, b) = page_figure(
        ctx, _("Haggling"), caption, ncols=2, wspace=0.62, left=0.2, right=0.88, bottom=0.14
    )
    items = [item_label(i, lang) for i in table["item"]]
    heat = table.assign(
        item=[_("{item} (DC {dc})").format(item=i, dc=d) for i, d in zip(items, table["dc"])]
    )
    plots.plot_heatmap(
        heat,
        ax=a,
        row="item",
        col="modifier",
        value="mean",
        cmap="RdYlGn",
        fmt=lambda v: fmt.cell(v, "signed", digits=0) + ("%" if lang == "en" else "\xa0%"),
        lang=lang,
        title=_("Mean price change (%) by item type"),
        label=_("mean price change (%)"),
        # a price change in percent, signed (the table's values are in percent already)
        bar_formatter=i18n.change_formatter(lang, unit="percent", per=100),
    )
    a.tick_params(axis="y", labelsize=7)
    wide = dist.pivot(index="modifier", columns="change_pct", values="p").fillna(0.0)
    frame = wide.reset_index()
    changes = [int(c) for c in wide.columns]  # the price changes in percent
    # a change of the price, signed as every change (±0% for none)
    greens = [fmt.cell(c, "signed", digits=0) + ("%" if lang == "en" else "\xa0%") for c in changes]
    frame.columns = ["modifier"] + greens
    plots.plot_outcomes(
        frame.assign(method="exact"),
        x="modifier",
        parts=greens,
        lang=lang,
        colours=[_change_colour(c) for c in changes],
        ax=b,
        xlabel=_("modifier (DC {dc})").format(dc=HAGGLE_BASE_DC),
        title=_("Price change at DC {dc}").format(dc=HAGGLE_BASE_DC),
        legend_title=_("price change"),
    )
    return fig


def _change_colour(change: int) -> Any:
    return colormaps["RdYlGn"](0.5 + change / 60)
