"""The Monte Carlo engine checked against the exact one: bands and convergence."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from explodice.engine.distribution import Distribution
from explodice.game.rules import Roll
from explodice.present import i18n, plots
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.monte_carlo import MonteCarloInputs
from explodice.questions.registry import ask

__all__ = ["data", "draw"]

ROLL, DC = Roll(4, advantage="advantage"), 22


def data(ctx: Context) -> PageData:
    """``n`` simulated rolls of 3d6x+4 with advantage against the exact distribution (the
    ``monte_carlo`` question): P(success) with its Wilson band for every DC, and the estimate
    at DC 22 as n grows."""
    c = ctx.config
    answer = ask("monte_carlo", MonteCarloInputs(ROLL, ctx.rules, DC, c.n, c.seed))
    convergence = answer.csv_table("convergence")
    convergence.attrs["rules"] = ctx.rules  # the plot's note names them in the page's language
    return PageData(
        {"bands": answer.csv_table("bands"), "convergence": convergence},
        {"answer": answer},
    )


def _simulated(answer: Any, rules: Any) -> Distribution:
    """The simulated roll as the band plot reads it: the answer's counts of each total."""
    counts = answer.tables["counts"]
    totals = counts["total"].to_numpy(dtype=np.int64)
    lo = int(totals.min())
    k = np.zeros(int(totals.max()) - lo + 1, dtype=np.int64)
    k[totals - lo] = counts["count"].to_numpy(dtype=np.int64)
    prov = answer.provenance
    return Distribution(
        (k / prov.n).reshape(-1, 1, 1),
        lo,
        method="simulate",
        n=prov.n,
        seed=prov.seed,
        roll=ROLL,
        rules=rules,
        counts=k.reshape(-1, 1, 1),
    )


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    answer = data.shown["answer"]
    sim = _simulated(answer, ctx.rules)
    bands = answer.tables["bands"]
    convergence = answer.tables["convergence"]
    caption = _(
        "The Monte Carlo engine against the exact one, for {roll}: left, n = {n} "
        "simulated rolls with their 95% Wilson band over the exact curve; right, the "
        "estimate of P(total ≥ {dc}) as n grows (seed {seed}), its interval narrowing "
        "around the exact value. A 95% Wilson interval holds the exact value in about 19 runs of "
        "20: about 1 estimate in 20 falls just outside it by chance, which is no failure. "
        "Here {bands_in} of {bands} bands and {steps_in} of {steps} intervals hold it: "
        "every band is read from one sample, so a sample a little high misses at "
        "neighbouring DCs together. "
        "Simulated numbers elsewhere in this report carry such intervals."
    ).format(
        roll=_("3d6x+4 with advantage"),
        n=i18n.number(c.n, lang, 0),
        dc=DC,
        seed=c.seed,
        bands_in=int(bands.covers.sum()),
        bands=len(bands),
        steps_in=int(convergence.covers.sum()),
        steps=len(convergence),
    )
    fig, (a, b) = page_figure(ctx, _("Monte Carlo against exact"), caption, ncols=2)
    shown = bands[bands.dc <= 50]
    plots.plot_mc_bands(sim, ax=a, dcs=shown.dc, lang=lang)
    a.plot(shown.dc, shown.exact, "-", lw=0.8, color="black", label=_("exact"))
    plots.place_legend(a, room=True, fontsize="small")
    convergence = data.tables["convergence"]
    plots.plot_convergence(
        convergence,
        exact=float(convergence.exact.iloc[0]),
        ax=b,
        lang=lang,
        title=_("Convergence of P(total ≥ {dc})").format(dc=DC),
    )
    return fig
