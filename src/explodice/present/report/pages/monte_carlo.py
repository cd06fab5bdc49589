"""The Monte Carlo engine checked against the exact one: bands and convergence."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from explodice.engine.exact import exact
from explodice.engine.simulate import simulate
from explodice.game.rules import Roll
from explodice.present import i18n, plots
from explodice.present.report.kit import Context, PageData, page_figure

__all__ = ["data", "draw"]

ROLL, DC = Roll(4, advantage="advantage"), 22


def data(ctx: Context) -> PageData:
    """``n`` simulated rolls of 3d6x+4 with advantage against the exact distribution: P(success)
    with its Wilson band for every DC, and the estimate at DC 22 as n grows."""
    c = ctx.config
    ex = exact(ROLL, ctx.rules)
    sim = simulate(ROLL, ctx.rules, n=c.n, seed=c.seed)
    rows = []
    for n in np.unique(np.geomspace(1_000, c.n, 8).astype(int)):
        s = sim if n == c.n else simulate(ROLL, ctx.rules, n=int(n), seed=c.seed)
        lo, hi = s.ci(DC)
        rows.append(
            {
                "n": int(n),
                "dc": DC,
                "p": s.p_success(DC),
                "ci_low": lo,
                "ci_high": hi,
                "exact": ex.p_success(DC),
                "method": "simulate",
                "seed": c.seed,
            }
        )
    bands = sim.success_frame(range(3, 61))
    bands["exact"] = ex.p_success(bands["dc"].to_numpy())
    bands["roll"] = ROLL.describe()
    return PageData(
        {"bands": bands, "convergence": pd.DataFrame(rows)}, {"simulated": sim, "exact": ex}
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    sim, ex = data.shown["simulated"], data.shown["exact"]
    caption = _(
        "The Monte Carlo engine against the exact one, for {roll}: left, n = {n} "
        "simulated rolls with their 95% Wilson band over the exact curve; right, the "
        "estimate of P(total ≥ {dc}) as n grows (seed {seed}), converging on the exact "
        "value. Simulated numbers elsewhere in this report carry such intervals."
    ).format(roll=_("3d6x+4 with advantage"), n=i18n.number(c.n, lang, 0), dc=DC, seed=c.seed)
    fig, (a, b) = page_figure(ctx, _("Monte Carlo against exact"), caption, ncols=2)
    plots.plot_mc_bands(sim, exact=ex, ax=a, dcs=range(3, 51), lang=lang)
    convergence = data.tables["convergence"]
    plots.plot_convergence(
        convergence,
        exact=float(convergence.exact.iloc[0]),
        ax=b,
        lang=lang,
        title=_("Convergence of P(total ≥ {dc})").format(dc=DC),
    )
    return fig
