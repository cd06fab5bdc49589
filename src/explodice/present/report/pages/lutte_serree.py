"""Lutte serrée: how often a test ties its DC, and what the bids cost each side."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from explodice.present import i18n, plots
from explodice.present.formats import Formatter
from explodice.present.labels import N_, bid_words
from explodice.present.plots.style import signed_label
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.close_contest import CloseContestInputs, bid_text
from explodice.questions.registry import ask

__all__ = ["MODIFIERS", "data", "draw"]

MODIFIERS = (0, 4, 8)
#: The bids' table as the page shows it: column -> header.
HEADERS = {
    "bids_a": N_("A bids"),
    "bids_b": N_("B bids"),
    "p_win_a": N_("A wins"),
    "p_win_b": N_("B wins"),
    "hp_a_mean": N_("HP paid by A"),
    "hp_b_mean": N_("HP paid by B"),
    "rounds_mean": N_("rounds of bids"),
}


#: The bid models the page pits against each other (every pair but fixed 3 against itself).
MODELS = (3, "uniform:5", "uniform:10")
#: The pair whose HP paid by A the page draws.
EXAMPLE = (3, "uniform:5")


def data(ctx: Context) -> PageData:
    """P(total = DC) per system, modifier and DC of the table; the bids' outcomes and costs
    for pairs of bid models; the HP A pays when it bids 3 against B's uniform 0-5 (the
    question ``close_contest``, exact)."""
    pairs = tuple((a, b) for a in MODELS for b in MODELS if not a == b == 3)
    inputs = CloseContestInputs(pairs, MODIFIERS, rules=ctx.rules)
    answer = ask("close_contest", inputs)
    tables = {name: answer.csv_table(name) for name in ("ties", "bids")}
    return PageData(tables, {"answer": answer})


def draw(ctx: Context, data: PageData) -> Figure:
    _ = ctx._
    caption = _(
        "An optional rule (rules text 001): a tie goes to secret bids of HP; the higher bid wins and "
        "pays, equal bids are paid by both and bid again (Aleksandr: 3/3 then 4/3 costs "
        "him 7 HP, the brigand 3). Left: P(total = DC); right: HP paid by A. Exact."
    )
    answer = data.shown["answer"]
    ties = answer.tables["ties"]
    fmt = Formatter(ctx.lang)
    bids = answer.tables["bids"]
    table = fmt.table(
        answer,
        "bids",
        list(HEADERS),
        HEADERS,
    )
    for col in ("bids_a", "bids_b"):  # a bid model in words
        models = {bid_text(m): m for m in MODELS}
        table[_(HEADERS[col])] = [bid_words(models[v], ctx.lang) for v in bids[col]]
    fig, (a, b) = page_figure(
        ctx, _("Lutte serrée"), caption, ncols=2, table=table, table_height=0.28
    )
    # a system's lines can coincide (d20's P(total = DC) is 5 % whatever the modifier): each
    # later line's markers smaller, the earlier ones hollow rings around them, so that a line
    # drawn under another still shows
    lines = list(ties.groupby(["system", "modifier"], sort=False))
    systems = [system for (system, _m), _part in lines]
    for i, ((system, m), part) in enumerate(lines):
        later = systems[i + 1 :].count(system)  # lines of its system drawn over it
        a.plot(
            part.dc,
            part.p_tie,
            "-" if system == "3d6x" else ":",
            marker="o",
            ms=4 + 2.5 * later,
            mfc="none" if later else None,
            mew=1.3,
            label=f"{system} {signed_label(m)}",
        )
    a.set(xlabel=_("DC"), ylabel=_("P(total = DC)"), title=_("How often a test ties its DC"))
    a.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang, 1))
    plots.place_legend(a, room=True, fontsize=7)
    hp = answer.tables["hp"]
    mine = hp[(hp.bids_a == bid_text(EXAMPLE[0])) & (hp.bids_b == bid_text(EXAMPLE[1]))]
    pmf = pd.Series(mine.p.to_numpy(), index=mine.hp_a.to_numpy())
    shown = pmf[pmf.index <= pmf.index[int(np.searchsorted(pmf.cumsum().to_numpy(), 0.999))]]
    example = bids[(bids.bids_a == bid_text(EXAMPLE[0])) & (bids.bids_b == bid_text(EXAMPLE[1]))]
    b.bar(shown.index, shown.to_numpy())
    b.set(
        xlabel=_("HP paid by A"),
        ylabel=_("probability"),
        title=_("A bids 3, B uniform 0-5: A wins {p}").format(
            p=fmt.cell(example.p_win_a.iloc[0], "probability")
        ),
    )
    b.yaxis.set_major_formatter(i18n.percent_formatter(ctx.lang))
    return fig
