"""The total's distribution: 3d6x against d20, "at least" curves and the tail."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from explodice.engine.d20 import d20
from explodice.engine.exact import exact
from explodice.game.rules import Roll
from explodice.present import i18n, plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]

MODIFIER = 4


def data(ctx: Context) -> PageData:
    """The exact distributions of 3d6x+4 (normal, advantage, disadvantage) and d20+4, and
    their totals' table (P(total) and P(at least the total))."""
    rules, _, mod = ctx.rules, ctx._, MODIFIER
    dists = {
        f"3d6x+{mod}": exact(Roll(mod), rules),
        f"3d6x+{mod}, {_('advantage')}": exact(Roll(mod, advantage="advantage"), rules),
        f"3d6x+{mod}, {_('disadvantage')}": exact(Roll(mod, advantage="disadvantage"), rules),
        f"d20+{mod}": d20(Roll(mod)),
    }
    frames = []
    for label, d in dists.items():
        f = d.to_frame("total")
        f.insert(0, "roll", label)
        f["p_at_least"] = d.sf(f["total"].to_numpy())
        f["system"], f["method"] = d.system, d.method
        frames.append(f)
    return PageData({"pmf": pd.concat(frames, ignore_index=True)}, {"distributions": dists})


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang, mod = ctx._, ctx.lang, MODIFIER
    dists = data.shown["distributions"]
    caption = _(
        "For a modifier of +{mod}: the probability of each total, and of reaching at "
        "least k, for 3d6x (normal, advantage, disadvantage) and for the d20. 3d6x "
        "concentrates around its mean ({mean} + modifier) where the d20 is flat, and its "
        "explosions leave a long tail that the log scale shows: very high DCs stay "
        "possible."
    ).format(mod=mod, mean=i18n.number(dists[f"3d6x+{mod}"].mean - mod, lang, 1))
    caption += " " + _("Exact (no sampling).")  # every caption names its method
    fig, (a, b, c) = page_figure(ctx, _("The total: 3d6x against d20"), caption, ncols=3)
    plots.plot_pmf(dists, ax=a, xlim=(0, 45), lang=lang)
    plots.plot_at_least(dists, ax=b, xlim=(0, 45), lang=lang)
    plots.plot_at_least(dists, ax=c, log=True, xlim=(0, 80), lang=lang)
    return fig
