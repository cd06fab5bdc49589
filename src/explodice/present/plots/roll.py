"""Plots of one roll: its distribution (:func:`plot_pmf`, :func:`plot_at_least`,
:func:`plot_drain`), its odds against a DC (:func:`plot_success_curves`, :func:`plot_heatmap`,
:func:`plot_equivalent_dc`) and the Monte Carlo estimate against the exact value
(:func:`plot_mc_bands`, :func:`plot_convergence`). Each draws onto an Axes and returns it.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import Roll, exact
>>> ax = plot_pmf({"3d6x+0": exact(Roll(0))})
>>> ax.get_xlabel()
'total (dice + modifier)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, fail
from explodice.core.words import Phrase
from explodice.engine.distribution import Distribution
from explodice.present import i18n
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.plots.cells import write_grid
from explodice.present.plots.style import (
    DC_BANDS_3D6X,
    advantage_style,
    axes_or_current,
    colour_map,
    common_note,
    default_xlim,
    distribution_label,
    frame_provenance,
    log_ticks,
    named_distributions,
    percent_axis,
    place_legend,
    provenance,
    shade_dc_bands,
    share,
    signed_label,
    titled,
)
from explodice.questions.compare import CERTAIN

__all__ = [
    "plot_at_least",
    "plot_convergence",
    "plot_drain",
    "plot_equivalent_dc",
    "plot_heatmap",
    "plot_mc_bands",
    "plot_pmf",
    "plot_success_curves",
]


# -- one roll's distribution ----------------------------------------------------------------
def plot_pmf(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution,
    *,
    ax: Any = None,
    log: bool = False,
    xlim: tuple[int, int] | None = None,
    lang: Lang = "en",
) -> Any:
    """P(total = k) of several distributions on one shared total axis (3d6x against d20, say).

    ``log=True`` puts the probability on a log scale, to read the tail.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    named = named_distributions(dists, lang)
    for label, d in named:
        ax.step(
            d.totals,
            d.total_pmf,
            where="mid",
            label=_("{label} (mean {mean})").format(label=label, mean=i18n.number(d.mean, lang, 2)),
        )
    ax.set_xlabel(_("total (dice + modifier)"))
    ax.set_ylabel("P(total = k)" + (_(", log scale") if log else ""))
    if log:
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    else:  # a probability in percent, as every other panel writes it
        ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    ax.set_xlim(*(xlim or default_xlim(named, log)))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(
        ax,
        _("Distribution of the total") + (_(" (tail, log scale)") if log else ""),
        common_note(named, lang),
        lang,
    )
    return ax


def plot_at_least(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution,
    *,
    ax: Any = None,
    log: bool = False,
    xlim: tuple[int, int] | None = None,
    bands: Sequence[tuple[str, int]] | None = None,
    lang: Lang = "en",
) -> Any:
    """The "at least" curve P(total >= k) of several distributions, on a shared axis.

    ``log=True`` shows the tail on a log scale; ``bands`` shades a DC table.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    named = named_distributions(dists, lang)
    for label, d in named:
        ks = np.arange(d.totals[0], d.totals[-1] + 1)
        ax.step(ks, d.sf(ks), where="post", label=label)
    ax.set_xlabel(_("k (total, dice + modifier)"))
    ax.set_ylabel("P(total ≥ k)" + (_(", log scale") if log else ""))
    if log:
        ax.set_yscale("log")
        ax.set_ylim(bottom=1e-9)
        log_ticks(ax.yaxis)
    else:
        ax.set_ylim(0, 1.02)
    ax.set_xlim(*(xlim or default_xlim(named, log)))
    if bands:
        shade_dc_bands(ax, bands, lang=lang)
    if not log:
        ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(
        ax,
        "P(total ≥ k)" + (_(" — the tail, log scale") if log else ""),
        common_note(named, lang),
        lang,
    )
    return ax


def plot_drain(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution,
    *,
    ax: Any = None,
    at_least: bool = False,
    log: bool = True,
    max_drain: int = 40,
    lang: Lang = "en",
) -> Any:
    """The drain distribution (gauge points lost by one roll), or P(drain >= x) with ``at_least``.

    A log scale by default, since the tail is what empties gauges.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    named = named_distributions(dists, lang)
    xs = np.arange(0, max_drain + 1)
    for label, d in named:
        if at_least:
            ys = d.p_drain_at_least(xs)
        else:
            ys = np.zeros(xs.size)
            m = min(xs.size, d.drain_pmf.size)
            ys[:m] = d.drain_pmf[:m]
        ax.step(
            xs,
            np.where(ys > 0, ys, np.nan),
            where="mid",
            label=f"{label} ({_('E[drain]')} {i18n.number(d.drain_mean, lang, 2)})",
        )
    ax.set_xlabel(_("x, drain (gauge points lost by one roll)"))
    ax.set_ylabel(
        (_("P(drain ≥ x)") if at_least else _("P(drain = x)")) + (_(", log scale") if log else "")
    )
    if log:
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(ax, _("Drain of one roll (rule of 1)"), common_note(named, lang), lang)
    return ax


# -- tables of odds -------------------------------------------------------------------------
def plot_success_curves(
    table: pd.DataFrame,
    *,
    ax: Any = None,
    bands: Sequence[tuple[str, int]] | None = DC_BANDS_3D6X,
    hue: str = "modifier",
    style: str = "advantage",
    title: str | None = None,
    lang: Lang = "en",
) -> Any:
    """P(success) against DC: one colour per ``hue`` value, one line style per advantage state.

    ``table`` is tidy, with columns ``dc``, ``p`` and the ``hue`` and ``style`` columns
    (``ci_low``/``ci_high`` draw confidence bands when present); ``bands`` shades and names the
    DC table. A numeric ``hue`` is named in the legend ("modifier +4"), a text one is not; the
    ``style`` value is left out of the legend when the table holds only one.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    colours = colour_map(pd.unique(table[hue]))
    one_style = table[style].nunique() == 1
    for (h, s), g in table.groupby([hue, style], sort=False):
        g = g.sort_values("dc")
        label = f"{h}" if isinstance(h, str) else f"{_(hue)} {signed_label(h)}"
        ax.plot(
            g["dc"],
            g["p"],
            advantage_style(s),
            color=colours[h],
            label=label if one_style else f"{label}, {_(str(s))}",
        )
        if {"ci_low", "ci_high"} <= set(g.columns) and (g["ci_high"] > g["ci_low"]).any():
            ax.fill_between(g["dc"], g["ci_low"], g["ci_high"], color=colours[h], alpha=0.2)
    ax.set_xlabel(_("DC (success when total ≥ DC)"))
    ax.set_ylabel(_("P(success)"))
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    if bands:
        shade_dc_bands(ax, bands, lang=lang)
    place_legend(ax, room=True, fontsize="x-small", ncol=2)
    ax.grid(alpha=0.3)
    titled(
        ax,
        title or _("Success against DC (line style: advantage state)"),
        frame_provenance(table, lang),
        lang,
    )
    return ax


def plot_heatmap(
    table: pd.DataFrame,
    *,
    ax: Any = None,
    row: str = "modifier",
    col: str = "dc",
    value: str = "p",
    cmap: str = "RdYlGn",
    fmt: str | Callable[[float], str] = "{:.0%}",
    title: str | None = None,
    label: str | None = None,
    lang: Lang = "en",
    bar_formatter: Any = None,
) -> Any:
    """A ``row`` × ``col`` heatmap of ``value`` (P(success) by default), each cell annotated.

    ``label`` names the colour bar (default: P(success), or the ``value`` column) and
    ``bar_formatter`` writes its ticks (default: percent for P(success), else plain numbers).
    Percentages (the default ``fmt``) are never a false 0 % or 100 %: ``< 1 %`` and ``> 99 %``
    instead. Modifiers run from the highest down; other rows keep the table's order (the same
    in every language, where sorting their translated names would not).
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    grid = table.pivot_table(index=row, columns=col, values=value, aggfunc="first")
    if row == "modifier":
        grid = grid.sort_index(ascending=False)
    else:
        grid = grid.reindex(pd.unique(table[row]))
    data = grid.to_numpy(dtype=float)
    if value == "p":
        vmin, vmax = 0.0, 1.0
    else:  # a signed quantity: centre the colour map on 0
        vmax = float(np.nanmax(np.abs(data))) or 1.0
        vmin = -vmax
    image = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(
        range(grid.shape[1]),
        [signed_label(c) if col == "modifier" else str(c) for c in grid.columns],
    )
    ax.set_yticks(
        range(grid.shape[0]), [signed_label(r) if row == "modifier" else str(r) for r in grid.index]
    )
    light = (0.2, 0.85) if value == "p" else (-0.6 * vmax, 0.6 * vmax)
    ax.set_xlabel(_(col) if col != "dc" else _("DC"))
    ax.set_ylabel(_(row))
    size = 7 if data.size <= 120 else 5
    write_grid(
        ax,
        data,
        lambda v: share(v, lang) if fmt == "{:.0%}" else fmt(v) if callable(fmt) else fmt.format(v),
        fontsize=size,
        light=light,
    )
    bar = ax.figure.colorbar(
        image,
        ax=ax,
        fraction=0.04,
        pad=0.02,
        label=label or (_("P(success)") if value == "p" else _(value)),
    )
    if bar_formatter is not None:
        bar.ax.yaxis.set_major_formatter(bar_formatter)
    elif value == "p":
        bar.ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    elif lang != "en":
        bar.ax.yaxis.set_major_formatter(i18n.number_formatter(lang))
    ax.set_xlim(-0.5, grid.shape[1] - 0.5)
    ax.set_ylim(grid.shape[0] - 0.5, -0.5)
    titled(
        ax,
        title
        or _("{value} by {row} and {col}").format(
            value=_("P(success)") if value == "p" else _(value), row=_(row), col=_(col)
        ),
        frame_provenance(table, lang),
        lang,
    )
    return ax


# -- Monte Carlo ----------------------------------------------------------------------------
def plot_mc_bands(
    sim: Distribution,
    *,
    exact: Distribution | None = None,
    ax: Any = None,
    dcs: Iterable[int] | None = None,
    level: float = 0.95,
    lang: Lang = "en",
) -> Any:
    """A simulated success curve with its Wilson confidence band, over the exact curve if given."""
    if not isinstance(sim, Distribution) or sim.n is None or not sim.simulated:
        wrong_type = not isinstance(sim, Distribution)
        allowed = Phrase("a simulated Distribution (with counts)")
        raise fail("sim", sim, allowed, ExplodiceError, wrong_type=wrong_type)
    n = sim.n
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    if dcs is None:
        dcs = np.arange(max(sim.totals[0], 1), sim.quantile(0.9999) + 2)
    dcs = np.asarray(list(dcs))
    p = sim.p_success(dcs)
    lo, hi = sim.ci(dcs, level)
    label = distribution_label(None, sim, lang)
    ax.fill_between(
        dcs,
        lo,
        hi,
        alpha=0.3,
        step="mid",
        label=_("{level} Wilson band").format(level=i18n.percent(level, lang, 0)),
    )
    ax.plot(dcs, p, ".", ms=3, label=f"Monte Carlo, n={i18n.number(n, lang, 0)}")
    if exact is not None:
        ax.plot(dcs, exact.p_success(dcs), "-", lw=0.8, color="black", label=_("exact"))
    ax.set_xlabel(_("DC (success when total ≥ DC)"))
    ax.set_ylabel(_("P(success)"))
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(percent_axis(lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(
        ax, _("Monte Carlo against exact: {roll}").format(roll=label), provenance(sim, lang), lang
    )
    return ax


def plot_convergence(
    frame: pd.DataFrame,
    *,
    exact: float | None = None,
    ax: Any = None,
    title: str | None = None,
    lang: Lang = "en",
) -> Any:
    """Monte Carlo estimates against n (log axis), with their intervals, converging on ``exact``.

    ``frame`` has one row per run: ``n``, ``p``, ``ci_low``, ``ci_high`` (and ``seed``).
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    f = frame.sort_values("n")
    ax.fill_between(
        f["n"],
        f["ci_low"],
        f["ci_high"],
        alpha=0.25,
        label=_("{level} interval").format(level=i18n.percent(0.95, lang, 0)),
    )
    ax.plot(f["n"], f["p"], "o-", ms=3, label=_("estimate"))
    if exact is not None:
        ax.axhline(
            exact, color="black", lw=0.8, label=f"{_('exact')} {i18n.percent(exact, lang, 2)}"
        )
    ax.set_xscale("log")
    log_ticks(ax.xaxis)
    ax.set_xlabel(_("n, rolls simulated (log scale)"))
    ax.set_ylabel(_("estimated P(success)"))
    ax.yaxis.set_major_formatter(percent_axis(decimals=1, lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3, which="both")
    titled(
        ax,
        title or _("Convergence of the Monte Carlo estimate"),
        _convergence_method(f, lang),
        lang,
    )
    return ax


def _convergence_method(f: pd.DataFrame, lang: Lang) -> str:
    """The convergence's method line in words: ``Monte Carlo, n = 1,000 to 200,000`` and the
    seed and rules (its ``method`` column holds an identifier, ``simulate``)."""
    _ = i18n.translator(lang)
    words = _("Monte Carlo, n = {low} to {high}").format(
        low=i18n.number(int(f["n"].min()), lang, 0), high=i18n.number(int(f["n"].max()), lang, 0)
    )
    rest = frame_provenance(f.drop(columns=["n", "method"], errors="ignore"), lang)
    return "; ".join(x for x in (words, rest) if x)


# -- comparisons ------------------------------------------------------------------------------
def plot_equivalent_dc(
    table: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "d20_dc",
    y: str = "dc_3d6x",
    hue: str = "profile",
    gap: str | None = "gap",
    lang: Lang = "en",
) -> Any:
    """The d20 DC on x, the 3d6x DC with the closest odds on y, one line per ``hue``.

    A d20 DC the profile always reaches (``note``: certain in d20) is matched by any 3d6x DC
    up to its point: the point is a ▼ and says so (``any DC ≤ 12``).
    ``gap`` (a column of probability differences, if present) is written beside each point, in
    percentage points as every change of a probability (``+3.8 pp``, never ``+> 99%``):
    the first line's gaps above-left of its points, the others' below-right, so that lines
    running close together do not print over each other.
    """
    ax = axes_or_current(ax)
    _ = i18n.translator(lang)
    colours = colour_map(pd.unique(table[hue]))
    for k, (h, g) in enumerate(table.groupby(hue, sort=False)):
        g = g.sort_values(x)
        ax.plot(
            g[x],
            g[y],
            "o-",
            color=colours[h],
            label=f"{h}" if isinstance(h, str) else f"{_(hue)} {signed_label(h)}",
        )
        notes = g["note"] if "note" in g.columns else pd.Series("", index=g.index)
        certain = g[notes == CERTAIN]
        if len(certain):  # certain in d20: any 3d6x DC up to the point, marked ▼
            ax.plot(certain[x], certain[y], "v", color=colours[h], ms=9, mfc="white", zorder=3)
        if gap is not None and gap in g.columns:
            above = k % 2 == 0
            for xv, yv, gv, note in zip(g[x], g[y], g[gap], notes):
                if pd.isna(yv) or pd.isna(gv):  # no equivalent (impossible in d20): no point
                    continue
                bound = note == CERTAIN  # a bound, in words, over (under) its ▼
                ax.annotate(
                    Formatter(lang).equivalent_dc(yv, note)
                    if bound
                    else Formatter(lang).points(gv),  # a change of a probability: points
                    (xv, yv),
                    textcoords="offset points",
                    xytext=((0, 8) if above else (0, -8))
                    if bound
                    else (-4, 5)
                    if above
                    else (4, -6),
                    ha="center" if bound else "right" if above else "left",
                    va="bottom" if above else "top",
                    fontsize=6,
                    color=colours[h],
                    # readable where it crosses another profile's line or the same-DC line
                    bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.75},
                    zorder=4,
                )
    missing = table[table[y].isna()]
    if len(missing):  # a d20 DC a profile cannot reach has no 3d6x DC: say so on the chart
        text = "; ".join(
            _("{who}: d20 DC {dcs}").format(
                who=h if isinstance(h, str) else f"{_(hue)} {signed_label(h)}",
                dcs=", ".join(str(v) for v in g[x]),
            )
            for h, g in missing.groupby(hue, sort=False)
        )
        ax.text(
            0.98,
            0.02,
            _("impossible in d20, no equivalent:") + "\n" + text,
            transform=ax.transAxes,
            ha="right",
            va="bottom",
            fontsize=6,
            color="0.3",
        )
    ax.plot([0, 35], [0, 35], color="0.6", lw=0.8, ls="--", label=_("same DC"))
    ax.set_xlim(table[x].min() - 3, table[x].max() + 3)
    ax.set_xlabel(_("d20 DC"))
    ax.set_ylabel(_("3d6x DC with the closest P(success)"))
    shade_dc_bands(ax, DC_BANDS_3D6X, vertical=False, lang=lang)
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    titled(ax, _("Equivalent DCs: d20 → 3d6x"), frame_provenance(table, lang), lang)
    return ax
