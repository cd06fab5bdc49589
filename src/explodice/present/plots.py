"""Plots of explodice results: each function draws onto an Axes and returns it.

Every function takes results (a :class:`~explodice.Distribution` or a tidy DataFrame from the
analysis layer), never computes a probability itself, labels its axes and units, and writes
the provenance of the numbers (system, exact or Monte Carlo with n and seed, rules switches)
on the Axes. ``ax=None`` draws on the current Axes; nothing here calls ``plt.show()``.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from explodice import Roll, exact
>>> from explodice.present.plots import plot_pmf
>>> ax = plot_pmf({"3d6x+0": exact(Roll(0))})
>>> ax.get_xlabel()
'total (dice + modifier)'
"""

from __future__ import annotations

import dataclasses
import textwrap
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, check_choice, fail
from explodice.engine.distribution import Distribution
from explodice.game.rules import DISADVANTAGE_READINGS, Rules
from explodice.game.tables import dc_bands
from explodice.present import i18n
from explodice.present.labels import N_, rules_text

if TYPE_CHECKING:  # at run time, from __getattr__ (those modules import this one)
    from explodice.present.level_plots import (
        plot_gauge_needs,
        plot_level_grid,
        plot_save_dc_bases,
        plot_save_dc_fit,
    )
    from explodice.present.readings import plot_readings

__all__ = [
    "DC_BANDS_3D6X",
    "DC_BANDS_D20",
    "provenance",
    "frame_provenance",
    "plot_pmf",
    "plot_at_least",
    "plot_success_curves",
    "plot_heatmap",
    "plot_drain",
    "plot_mc_bands",
    "plot_convergence",
    "plot_equivalent_dc",
    "plot_frontier",
    "plot_depletion",
    "plot_outcomes",
    "plot_bars",
    # drawn in their own modules, reached from here too (see __getattr__)
    "plot_level_grid",
    "plot_gauge_needs",
    "plot_save_dc_fit",
    "plot_save_dc_bases",
    "plot_readings",
    "place_legend",
    "covered",
    "log_ticks",
    "share",
    "signed_number",
]

#: The plotting functions of other modules of the presentation layer, by the module that
#: draws them: ``explodice.plots.plot_level_grid`` works as ``plot_pmf`` does. They are
#: imported on first use (:func:`__getattr__`), since those modules import this one's helpers.
ELSEWHERE = {
    "plot_level_grid": "explodice.present.level_plots",
    "plot_gauge_needs": "explodice.present.level_plots",
    "plot_save_dc_fit": "explodice.present.level_plots",
    "plot_save_dc_bases": "explodice.present.level_plots",
    "plot_readings": "explodice.present.readings",
}


def __getattr__(name: str) -> Any:
    """A plotting function of :data:`ELSEWHERE`, from the module that draws it.

    >>> from explodice import plots
    >>> plots.plot_readings.__module__
    'explodice.present.readings'
    """
    if name in ELSEWHERE:
        import importlib

        return getattr(importlib.import_module(ELSEWHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The typical DC tables of docs/rules.md, as (name, DC) pairs in increasing order.
DC_BANDS_3D6X = dc_bands("3d6x")
DC_BANDS_D20 = dc_bands("d20")

_ADVANTAGE_STYLE = {
    "advantage": "-",
    "normal": "--",
    "disadvantage": ":",
    "disadvantage (subtract)": ":",
    "disadvantage (drop)": "-.",
    "3d6x": "-",
    "d20": "--",
}
_NOTE_SIZE = 7
_NOTE_WIDTH = 95
#: Points of text drawn just above an Axes (the DC band names), that its note and title clear.
_ABOVE: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


# -- labelling helpers ----------------------------------------------------------------------
def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    return ax


def provenance(dist: Distribution, lang: str = "en") -> str:
    """Where a distribution's numbers come from, in one line: system, method, n, seed, rules.

    >>> from explodice import Roll, exact
    >>> provenance(exact(Roll(0))).split(";")[0]
    '3d6x exact'
    """
    _ = i18n.translator(lang)
    if dist.simulated and dist.n is not None:
        how = (
            f"{dist.system} Monte Carlo, n={i18n.number(dist.n, lang, 0)}, {_('seed')}={dist.seed}"
        )
    else:
        how = f"{dist.system} {_(dist.method)}"
    if dist.rules is not None and dist.system == "3d6x":
        how += f"; {rules_text(dist.rules, lang)}"
    return how


def frame_provenance(frame: pd.DataFrame, lang: str = "en") -> str:
    """The provenance of a tidy table: its ``method``, ``n`` and ``seed`` columns and the rules.

    The rules are read from ``frame.attrs["rules"]`` (a :class:`~explodice.Rules`) or from a
    ``disadvantage`` column; absent columns are skipped.
    """
    _ = i18n.translator(lang)
    parts: list[str] = []
    for col in ("system", "method", "n", "n_days", "seed"):
        if col in frame.columns:
            vals = [v for v in pd.unique(frame[col]) if v is not None and not _isnan(v)]
            if vals:  # thousands separators for sizes, never for seeds
                shown = ", ".join(
                    i18n.number(int(v), lang, 0)
                    if col != "seed" and isinstance(v, (int, np.integer))
                    else _(str(v))
                    for v in vals[:3]
                )
                name = {"n_days": N_("n_days"), "seed": N_("seed")}.get(col, col)
                parts.append(f"{_(name)}={shown}" if col in ("n", "n_days", "seed") else shown)
    rules = frame.attrs.get("rules")
    if isinstance(rules, Rules):
        readings = []
        if "disadvantage" in frame.columns:
            readings = [r for r in pd.unique(frame["disadvantage"]) if isinstance(r, str)]
        if len(readings) == 1:  # the rows say which reading they used: trust them
            reading = check_choice("disadvantage", readings[0], DISADVANTAGE_READINGS)
            rules = dataclasses.replace(rules, disadvantage=reading)
        parts.append(rules_text(rules, lang, readings if len(readings) > 1 else None))
    elif "rules" in frame.columns:
        parts += [str(r) for r in pd.unique(frame["rules"])[:2]]
    elif "disadvantage" in frame.columns:
        readings = [r for r in pd.unique(frame["disadvantage"]) if isinstance(r, str)]
        if readings:
            parts.append(_("disadvantage") + "=" + "/".join(_(r) for r in readings))
    return "; ".join(parts)


def _isnan(v: Any) -> bool:
    try:
        return bool(np.isnan(v))
    except TypeError:
        return False


def _titled(ax: Any, title: str, note: str = "", lang: str = "en") -> None:
    """Set the title, with the provenance ``note`` in small grey type between it and the Axes;
    in a language other than English, plain number ticks are written the language's way."""
    if lang != "en":
        from matplotlib.ticker import ScalarFormatter

        for axis in (ax.xaxis, ax.yaxis):
            if (
                isinstance(axis.get_major_formatter(), ScalarFormatter)
                and axis.get_scale() == "linear"
            ):
                axis.set_major_formatter(i18n.number_formatter(lang))
    width = _note_width(ax)
    lines = [w for line in note.splitlines() for w in textwrap.wrap(line, width)]
    above = _ABOVE.get(ax, 0.0)
    if lines:
        ax.annotate(
            "\n".join(lines),
            xy=(0, 1),
            xycoords="axes fraction",
            xytext=(0, 3 + above),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize=_NOTE_SIZE - 0.5,
            color="0.35",
            annotation_clip=False,
        )
    ax.set_title(title, pad=6 + above + 8.5 * len(lines))


def _note_width(ax: Any) -> int:
    """Characters of the small provenance type that fit across the Axes."""
    try:
        inches = ax.get_position().width * ax.figure.get_figwidth()
    except AttributeError:  # pragma: no cover - a SubFigure or unusual container
        return _NOTE_WIDTH
    return max(30, min(_NOTE_WIDTH * 2, int(inches * 21)))


#: Where a legend may go inside its Axes, in the order tried.
LEGEND_LOCS = (
    "upper right",
    "upper left",
    "lower left",
    "lower right",
    "center right",
    "center left",
    "upper center",
    "lower center",
)
#: The factors the y axis may grow by above the data, to give a legend room.
_ROOM_STEPS = (1.15, 1.3, 1.45, 1.6, 1.8, 2.0)


def covered(ax: Any, box: Any) -> int:
    """How many of the Axes' data artists a box in display coordinates covers: lines (and
    their markers), bars, markers of scatter plots and the texts written on the data; the DC
    bands' shading and the legend itself do not count."""
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle
    from matplotlib.text import Text

    ax.get_xlim(), ax.get_ylim()  # autoscaling is lazy: the limits settle before measuring
    legend = ax.get_legend()
    inside = ax.bbox  # the Axes' own box, in display coordinates
    count = 0
    for artist in ax.get_children():
        if not artist.get_visible() or artist is legend or artist.get_gid() == "band":
            continue
        if isinstance(artist, Line2D):
            path = artist.get_transform().transform_path(artist.get_path())
            vertices = np.asarray(path.vertices)
            marked = artist.get_marker() not in (None, "None", "", " ")
            if len(vertices) and (
                path.intersects_bbox(box, filled=False) or (marked and box.count_contains(vertices))
            ):
                count += 1
        elif isinstance(artist, Rectangle):
            if artist.get_width() and artist.get_height() and artist is not ax.patch:
                count += artist.get_window_extent().overlaps(box)
        elif isinstance(artist, PolyCollection):
            continue  # a confidence band: the line it surrounds counts
        elif isinstance(artist, Text) and artist.get_text() and artist.axes is ax:
            extent = artist.get_window_extent()  # a text on the data, not a title
            middle = ((extent.x0 + extent.x1) / 2, (extent.y0 + extent.y1) / 2)
            count += bool(extent.overlaps(box) and inside.contains(*middle))
        elif hasattr(artist, "get_offsets") and artist.get_offsets() is not None:
            offsets = artist.get_offset_transform().transform(artist.get_offsets())
            count += bool(len(offsets) and box.count_contains(offsets))
    return count


def place_legend(
    ax: Any,
    *,
    locs: Sequence[str] = LEGEND_LOCS,
    room: bool = False,
    outside: bool = True,
    **kw: Any,
) -> Any:
    """Draw the Axes' legend where it covers none of its data (:func:`covered`).

    The first of ``locs`` that is free; else, with ``room``, the same with the y axis grown
    above the data (up to twice its height, its ticks kept where they were); else, with
    ``outside``, outside the Axes at their right (the page leaves the room); else the place
    where it covers least. ``kw`` goes to ``ax.legend`` (``fontsize``, ``ncol``, ``title``).
    """
    from matplotlib.ticker import FixedLocator

    def first_free() -> Any:
        for loc in locs:
            legend = ax.legend(loc=loc, **kw)
            if not covered(ax, legend.get_window_extent().padded(2)):
                return legend
        return None

    legend = first_free()
    if legend is not None:
        return legend
    if room:
        lim, ticks = ax.get_ylim(), ax.get_yticks()
        log = ax.get_yscale() == "log"
        for factor in _ROOM_STEPS:
            if log:
                lo, hi = np.log10(lim)
                ax.set_ylim(lim[0], 10 ** (lo + (hi - lo) * factor))
            else:
                ax.set_ylim(lim[0], lim[0] + (lim[1] - lim[0]) * factor)
            if not log:
                ax.yaxis.set_major_locator(
                    FixedLocator([t for t in ticks if lim[0] <= t <= lim[1] + 1e-9])
                )
            legend = first_free()
            if legend is not None:
                return legend
        ax.set_ylim(*lim)
        if not log:
            ax.yaxis.set_major_locator(FixedLocator(list(ticks)))
    if outside:
        return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)
    least = min(locs, key=lambda loc: covered(ax, ax.legend(loc=loc, **kw).get_window_extent()))
    return ax.legend(loc=least, **kw)


def log_ticks(axis: Any) -> None:
    """Label a log axis with powers of ten written in plain text (``10⁻⁴``), no mathtext: the
    report writes every text literally (a name holding ``$`` stays as written)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    axis.set_major_formatter(FuncFormatter(lambda x, pos: _power_of_ten(x)))
    axis.set_minor_formatter(NullFormatter())


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power_of_ten(x: float) -> str:
    """``10⁻⁴`` for 1e-4; empty for a number that is not a power of ten."""
    if not x > 0:
        return ""
    exponent = np.log10(x)
    if abs(exponent - round(exponent)) > 1e-9:
        return ""
    return "10" + str(int(round(exponent))).translate(_SUPERSCRIPT)


def signed_number(x: float, lang: str = "en", decimals: int = 3) -> str:
    """A signed difference with ``decimals`` decimals, the language's way: ``+0.015``,
    ``−1.585`` (``+0,015``); ``0`` for an exact zero and ``0.000`` for a value that rounds to
    zero (a gain of -3.6e-15 is rounding noise, not a loss).

    >>> signed_number(0.0153), signed_number(-1.585, "fr"), signed_number(0.0), signed_number(-3.6e-15)
    ('+0.015', '−1,585', '0', '0.000')
    """
    if x == 0:
        return "0"
    text = i18n.number(abs(x), lang, decimals)
    if float(i18n.number(abs(x), "en", decimals).replace(",", "")) == 0:
        return text
    return ("+" if x > 0 else "−") + text


def _default_xlim(named: list[tuple[str, Distribution]], log: bool) -> tuple[float, float]:
    tail = 1e-7 if log else 1e-3
    lo = min(d.quantile(1e-6) for _, d in named)
    hi = max(d.quantile(1 - tail) for _, d in named)
    return lo - 1, hi + 1


def _label_of(key: Any, dist: Distribution, lang: str = "en") -> str:
    if isinstance(key, str):
        return key
    roll = dist.roll
    if roll is None:
        return dist.system
    _ = i18n.translator(lang)
    label = f"{dist.system}{roll.modifier:+d}, {_(roll.advantage)}"
    if dist.system == "3d6x" and roll.policy != "keep":
        label += f", {_(str(roll.policy))}"
    return label


def _named(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution, lang: str = "en"
) -> list[tuple[str, Distribution]]:
    if isinstance(dists, Distribution):
        dists = [dists]
    items = dists.items() if isinstance(dists, Mapping) else ((None, d) for d in dists)
    return [(_label_of(k, d, lang), d) for k, d in items]


def _common_note(named: list[tuple[str, Distribution]], lang: str = "en") -> str:
    notes = list(dict.fromkeys(provenance(d, lang) for _, d in named))
    return "\n".join(notes)


def shade_dc_bands(
    ax: Any,
    bands: Sequence[tuple[str, int]] = DC_BANDS_3D6X,
    *,
    vertical: bool = True,
    lang: str = "en",
) -> Any:
    """Shade and name the bands of a DC table on the x axis (or the y axis).

    On the x axis the names stand just above the Axes, in two staggered rows, where no curve
    runs through them (a name that would run past the Axes' right end ends there instead, a
    row higher if it would then cover its neighbour); on the y axis the upper bands are named
    at the left and the lower ones at the right, away from a rising line.
    """
    _ = i18n.translator(lang)
    written: list[Any] = []  # the names above the Axes, and their extents
    edges = [dc for _, dc in bands]
    lim = ax.get_xlim() if vertical else ax.get_ylim()
    ends = edges[1:] + [max(lim[1], edges[-1] + 5)]
    span = ax.axvspan if vertical else ax.axhspan
    for i, ((name, start), end) in enumerate(zip(bands, ends)):
        span(
            start, end, color="0.5", alpha=0.10 if i % 2 == 0 else 0.04, lw=0, zorder=0, gid="band"
        )
        label = f"{_(name)} ({_('DC')} {start})"
        if vertical:  # above the Axes, every other name a row higher
            if lim[0] <= start < lim[1]:
                note = ax.annotate(
                    label,
                    xy=(start, 1.0),
                    xycoords=ax.get_xaxis_transform(),
                    xytext=(1, 2 + 8 * (i % 2)),
                    textcoords="offset points",
                    ha="left",
                    va="bottom",
                    fontsize=_NOTE_SIZE - 0.5,
                    color="0.3",
                    annotation_clip=False,
                )
                _ABOVE[ax] = max(_ABOVE.get(ax, 0.0), 19.0)
                _fit_band_name(ax, note, lim, written)
        else:
            right = start < lim[0] + 0.6 * (lim[1] - lim[0])
            ax.text(
                0.995 if right else 0.005,
                start + 0.3,
                label,
                transform=ax.get_yaxis_transform(),
                ha="right" if right else "left",
                va="bottom",
                fontsize=_NOTE_SIZE,
                color="0.3",
            )
    if vertical:
        ax.set_xlim(*lim)
    else:
        ax.set_ylim(*lim)
    return ax


def _fit_band_name(ax: Any, note: Any, lim: tuple[float, float], written: list[Any]) -> None:
    """Keep a band's name above the Axes within their width: one that runs past their right
    end is right-aligned on it, and lifted a row if it then covers a name already written."""
    extent = note.get_window_extent()
    if extent.x1 > ax.bbox.x1 + 1:
        row = note.xyann[1]
        note.xy = (lim[1], 1.0)
        note.set_horizontalalignment("right")
        note.xyann = (-1, row)
        extent = note.get_window_extent()
        if any(extent.padded(2).overlaps(other) for other in written):
            note.xyann = (-1, row + 16)  # above both rows
            _ABOVE[ax] = max(_ABOVE.get(ax, 0.0), 27.0)
            extent = note.get_window_extent()
    written.append(extent)


# -- one roll's distribution ----------------------------------------------------------------
def plot_pmf(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution,
    *,
    ax: Any = None,
    log: bool = False,
    xlim: tuple[int, int] | None = None,
    lang: str = "en",
) -> Any:
    """P(total = k) of several distributions on one shared total axis (3d6x against d20, say).

    ``log=True`` puts the probability on a log scale, to read the tail.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    named = _named(dists, lang)
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
    ax.set_xlim(*(xlim or _default_xlim(named, log)))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    _titled(
        ax,
        _("Distribution of the total") + (_(" (tail, log scale)") if log else ""),
        _common_note(named, lang),
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
    lang: str = "en",
) -> Any:
    """The "at least" curve P(total >= k) of several distributions, on a shared axis.

    ``log=True`` shows the tail on a log scale; ``bands`` shades a DC table.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    named = _named(dists, lang)
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
    ax.set_xlim(*(xlim or _default_xlim(named, log)))
    if bands:
        shade_dc_bands(ax, bands, lang=lang)
    if not log:
        ax.yaxis.set_major_formatter(i18n.percent_formatter(lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    _titled(
        ax,
        "P(total ≥ k)" + (_(" — the tail, log scale") if log else ""),
        _common_note(named, lang),
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
    lang: str = "en",
) -> Any:
    """The drain distribution (gauge points lost by one roll), or P(drain >= x) with ``at_least``.

    A log scale by default, since the tail is what empties gauges.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    named = _named(dists, lang)
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
    _titled(ax, _("Drain of one roll (rule of 1)"), _common_note(named, lang), lang)
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
    lang: str = "en",
) -> Any:
    """P(success) against DC: one colour per ``hue`` value, one line style per advantage state.

    ``table`` is tidy, with columns ``dc``, ``p`` and the ``hue`` and ``style`` columns
    (``ci_low``/``ci_high`` draw confidence bands when present); ``bands`` shades and names the
    DC table. A numeric ``hue`` is named in the legend ("modifier +4"), a text one is not; the
    ``style`` value is left out of the legend when the table holds only one.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    colours = _colour_map(pd.unique(table[hue]))
    one_style = table[style].nunique() == 1
    for (h, s), g in table.groupby([hue, style], sort=False):
        g = g.sort_values("dc")
        label = f"{h}" if isinstance(h, str) else f"{_(hue)} {_signed(h)}"
        ax.plot(
            g["dc"],
            g["p"],
            _advantage_style(s),
            color=colours[h],
            label=label if one_style else f"{label}, {_(str(s))}",
        )
        if {"ci_low", "ci_high"} <= set(g.columns) and (g["ci_high"] > g["ci_low"]).any():
            ax.fill_between(g["dc"], g["ci_low"], g["ci_high"], color=colours[h], alpha=0.2)
    ax.set_xlabel(_("DC (success when total ≥ DC)"))
    ax.set_ylabel(_("P(success)"))
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(_percent(lang=lang))
    if bands:
        shade_dc_bands(ax, bands, lang=lang)
    place_legend(ax, room=True, fontsize="x-small", ncol=2)
    ax.grid(alpha=0.3)
    _titled(
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
    lang: str = "en",
) -> Any:
    """A ``row`` × ``col`` heatmap of ``value`` (P(success) by default), each cell annotated.

    ``label`` names the colour bar (default: P(success), or the ``value`` column). Percentages
    (the default ``fmt``) are never a false 0 % or 100 %: ``< 1 %`` and ``> 99 %`` instead.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    grid = table.pivot_table(index=row, columns=col, values=value, aggfunc="first")
    grid = grid.sort_index(ascending=False)
    data = grid.to_numpy(dtype=float)
    if value == "p":
        vmin, vmax = 0.0, 1.0
    else:  # a signed quantity: centre the colour map on 0
        vmax = float(np.nanmax(np.abs(data))) or 1.0
        vmin = -vmax
    image = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(
        range(grid.shape[1]), [_signed(c) if col == "modifier" else str(c) for c in grid.columns]
    )
    ax.set_yticks(
        range(grid.shape[0]), [_signed(r) if row == "modifier" else str(r) for r in grid.index]
    )
    light = (0.2, 0.85) if value == "p" else (-0.6 * vmax, 0.6 * vmax)
    ax.set_xlabel(_(col) if col != "dc" else _("DC"))
    ax.set_ylabel(_(row))
    size = 7 if data.size <= 120 else 5
    for (i, j), v in np.ndenumerate(data):
        if not np.isnan(v):
            text = share(v, lang) if fmt == "{:.0%}" else fmt(v) if callable(fmt) else fmt.format(v)
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=size,
                color="black" if light[0] < v < light[1] else "white",
            )
    bar = ax.figure.colorbar(
        image,
        ax=ax,
        fraction=0.04,
        pad=0.02,
        label=label or (_("P(success)") if value == "p" else _(value)),
    )
    if value == "p":
        bar.ax.yaxis.set_major_formatter(_percent(lang=lang))
    elif lang != "en":
        bar.ax.yaxis.set_major_formatter(i18n.number_formatter(lang))
    ax.set_xlim(-0.5, grid.shape[1] - 0.5)
    ax.set_ylim(grid.shape[0] - 0.5, -0.5)
    _titled(
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
    lang: str = "en",
) -> Any:
    """A simulated success curve with its Wilson confidence band, over the exact curve if given."""
    if not isinstance(sim, Distribution) or sim.n is None or not sim.simulated:
        wrong_type = not isinstance(sim, Distribution)
        allowed = "a simulated Distribution (with counts)"
        raise fail("sim", sim, allowed, ExplodiceError, wrong_type=wrong_type)
    n = sim.n
    ax = _axes(ax)
    _ = i18n.translator(lang)
    if dcs is None:
        dcs = np.arange(max(sim.totals[0], 1), sim.quantile(0.9999) + 2)
    dcs = np.asarray(list(dcs))
    p = sim.p_success(dcs)
    lo, hi = sim.ci(dcs, level)
    label = _label_of(None, sim, lang)
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
    ax.yaxis.set_major_formatter(_percent(lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    _titled(
        ax, _("Monte Carlo against exact: {roll}").format(roll=label), provenance(sim, lang), lang
    )
    return ax


def plot_convergence(
    frame: pd.DataFrame,
    *,
    exact: float | None = None,
    ax: Any = None,
    title: str | None = None,
    lang: str = "en",
) -> Any:
    """Monte Carlo estimates against n (log axis), with their intervals, converging on ``exact``.

    ``frame`` has one row per run: ``n``, ``p``, ``ci_low``, ``ci_high`` (and ``seed``).
    """
    ax = _axes(ax)
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
    ax.yaxis.set_major_formatter(_percent(decimals=1, lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3, which="both")
    _titled(
        ax,
        title or _("Convergence of the Monte Carlo estimate"),
        frame_provenance(f.drop(columns=["n"], errors="ignore"), lang),
        lang,
    )
    return ax


# -- comparisons and the rule of 1 ----------------------------------------------------------
def plot_equivalent_dc(
    table: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "d20_dc",
    y: str = "dc_3d6x",
    hue: str = "profile",
    gap: str | None = "gap",
    lang: str = "en",
) -> Any:
    """The d20 DC on x, the 3d6x DC with the closest odds on y, one line per ``hue``.

    ``gap`` (a column of probability differences, if present) is written beside each point:
    the first line's gaps above-left of its points, the others' below-right, so that lines
    running close together do not print over each other.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    colours = _colour_map(pd.unique(table[hue]))
    for k, (h, g) in enumerate(table.groupby(hue, sort=False)):
        g = g.sort_values(x)
        ax.plot(
            g[x],
            g[y],
            "o-",
            color=colours[h],
            label=f"{h}" if isinstance(h, str) else f"{_(hue)} {_signed(h)}",
        )
        if gap is not None and gap in g.columns:
            above = k % 2 == 0
            for xv, yv, gv in zip(g[x], g[y], g[gap]):
                ax.annotate(
                    _signed_share(gv, lang),
                    (xv, yv),
                    textcoords="offset points",
                    xytext=(-4, 5) if above else (4, -6),
                    ha="right" if above else "left",
                    va="bottom" if above else "top",
                    fontsize=6,
                    color=colours[h],
                )
    ax.plot([0, 35], [0, 35], color="0.6", lw=0.8, ls="--", label=_("same DC"))
    ax.set_xlim(table[x].min() - 3, table[x].max() + 3)
    ax.set_xlabel(_("d20 DC"))
    ax.set_ylabel(_("3d6x DC with the closest P(success)"))
    shade_dc_bands(ax, DC_BANDS_3D6X, vertical=False, lang=lang)
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    _titled(ax, _("Equivalent DCs: d20 → 3d6x"), frame_provenance(table, lang), lang)
    return ax


def plot_frontier(
    frame: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "drain_mean",
    y: str = "p_success",
    hue: str | None = None,
    label_col: str | None = "policy",
    lang: str = "en",
) -> Any:
    """The success/drain frontier: E[drain] on x, P(success) on y, one point per policy.

    The ends (``keep``, ``cancel``) and a few λ values are labelled from ``label_col``; a
    label that would fall on one already written (the best(λ) points that coincide with keep,
    say) is left out. ``keep``, the right end, is labelled below its point, inside the Axes.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    span_x = float(np.ptp(frame[x].to_numpy(dtype=float))) or 1.0
    span_y = float(np.ptp(frame[y].to_numpy(dtype=float))) or 1.0
    placed: list[tuple[float, float]] = []
    for h, g in groups:
        g = g.sort_values(x)
        (line,) = ax.plot(g[x], g[y], "o-", ms=3, label=None if h is None else str(h))
        if "knee" in g.columns and g["knee"].any():
            k = g[g["knee"].astype(bool)]
            ax.plot(k[x], k[y], "*", ms=10, color=line.get_color(), mec="black", mew=0.5)
        if label_col and label_col in g.columns:
            labels = _frontier_labels(g, label_col, lang)
            names = [str(v) for v in g[label_col]]  # keep first, then cancel, then the λ
            ends = tuple(names.index(e) for e in ("keep", "cancel") if e in names) or (0,)
            order = [*ends, *(i for i in range(len(g)) if i not in ends)]
            for i in order:
                xv, yv, lv = float(g[x].iloc[i]), float(g[y].iloc[i]), labels[i]
                if not (i in ends or h is None or i % max(1, len(g) // 4) == 0):
                    continue
                spot = (xv / span_x, yv / span_y)
                if any(abs(spot[0] - a) < 0.06 and abs(spot[1] - b) < 0.03 for a, b in placed):
                    continue
                placed.append(spot)
                right_end = names[i] == "keep"
                ax.annotate(
                    lv,
                    (xv, yv),
                    textcoords="offset points",
                    xytext=(-3, -4) if right_end else (4, 4),
                    ha="right" if right_end else "left",
                    va="top" if right_end else "bottom",
                    fontsize=6,
                )
    ax.plot([], [], "*", ms=8, color="0.5", mec="black", mew=0.5, label=_("implied λ (the knee)"))
    ax.set_xlabel(_("E[drain] per roll (gauge points)"))
    ax.set_ylabel(_("P(success)"))
    ax.yaxis.set_major_formatter(_percent(decimals=1, lang=lang))
    place_legend(ax, room=True, fontsize="small")
    ax.grid(alpha=0.3)
    _titled(
        ax, _("Success against drain: the cancel frontier"), frame_provenance(frame, lang), lang
    )
    return ax


def plot_depletion(
    frame: pd.DataFrame,
    *,
    ax: Any = None,
    x: str = "roll",
    y: str = "p",
    hue: str = "character",
    style: str | None = "gauge",
    ylabel: str | None = None,
    title: str | None = None,
    lang: str = "en",
) -> Any:
    """Gauge depletion over a day: P(gauge empty after roll t), one line per gauge.

    ``frame`` is tidy (the ``"empty"`` table of a day simulation) with the columns ``x``,
    ``y``, ``hue`` and ``style``; ``ci_low``/``ci_high`` draw bands when present. Any per-roll
    curve of a day (the success rate, say) draws the same way with ``y`` and ``ylabel``.
    """
    ax = _axes(ax)
    _ = i18n.translator(lang)
    keys = [hue] + ([style] if style else [])
    styles = (
        {v: s for v, s in zip(pd.unique(frame[style]), ["-", "--", ":", "-."] * 8)} if style else {}
    )
    colours = _colour_map(pd.unique(frame[hue]))
    for key, g in frame.groupby(keys, sort=False):
        h = key[0] if isinstance(key, tuple) else key
        s = key[1] if style else None
        g = g.sort_values(x)
        label = f"{h}" + (f", {s}" if style else "")
        ax.plot(g[x], g[y], styles.get(s, "-"), color=colours[h], label=label)
        if {"ci_low", "ci_high"} <= set(g.columns):
            ax.fill_between(g[x], g["ci_low"], g["ci_high"], color=colours[h], alpha=0.15)
    ax.set_xlabel(_("roll of the day, t"))
    ax.set_ylabel(ylabel or _("P(gauge empty after roll t)"))
    if y.startswith("p"):
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(_percent(lang=lang))
    if len(frame):  # no curve (no gauge drains): no legend to draw
        place_legend(ax, room=True, fontsize="x-small", ncol=2)
    ax.grid(alpha=0.3)
    _titled(ax, title or _("Gauges over an adventuring day"), frame_provenance(frame, lang), lang)
    return ax


def plot_outcomes(
    frame: pd.DataFrame,
    *,
    x: str,
    ax: Any = None,
    parts: Sequence[str] = ("win", "tie", "loss"),
    colours: Sequence[str] = ("tab:green", "0.7", "tab:red"),
    labels: Sequence[str] | None = None,
    legend: bool = True,
    legend_title: str | None = None,
    xlabel: str | None = None,
    title: str | None = None,
    lang: str = "en",
) -> Any:
    """Stacked bars of outcome probabilities (win / tie / loss by default) against ``x``.

    The bars fill the Axes, so the legend (``labels``, default the parts' names, under
    ``legend_title``) stands outside them, at their right: the page leaves that room, or
    draws one legend for several Axes (``legend=False`` on the others)."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    f = frame.sort_values(x)
    pos = np.arange(len(f))
    bottom = np.zeros(len(f))
    names = list(labels) if labels is not None else [_(part) for part in parts]
    for part, colour, name in zip(parts, colours, names):
        vals = f[part].to_numpy(dtype=float)
        ax.bar(pos, vals, bottom=bottom, color=colour, label=name, width=0.8)
        for i, (v, b) in enumerate(zip(vals, bottom)):
            if v >= 0.06:
                ax.text(i, b + v / 2, share(v, lang), ha="center", va="center", fontsize=6)
        bottom += vals
    ax.set_xticks(pos, [_signed(v) for v in f[x]])
    ax.set_xlabel(xlabel or _(x))
    ax.set_ylabel(_("probability"))
    ax.set_ylim(0, 1.0)
    ax.yaxis.set_major_formatter(_percent(lang=lang))
    if legend:
        handles, shown = ax.get_legend_handles_labels()
        ax.legend(
            handles[::-1],  # top to bottom, as the bars are stacked
            shown[::-1],
            title=legend_title,
            fontsize="x-small",
            title_fontsize="x-small",
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            frameon=False,
            alignment="left",
        )
    _titled(ax, title or _("Outcomes"), frame_provenance(frame, lang), lang)
    return ax


def plot_bars(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    ax: Any = None,
    hue: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    title: str | None = None,
    percent: bool = False,
    decimals: int | None = None,
    signed: bool = False,
    lang: str = "en",
) -> Any:
    """Grouped bars of ``y`` against ``x`` (one colour per ``hue``), values written on the bars
    in one format: a probability in whole percent (``percent``; one that is not zero is never
    written 0 %: ``< 1 %``), else a number with ``decimals`` decimals (default: three
    significant digits of the largest value), ``signed`` for a difference (:func:`signed_number`:
    ``+0.015``, ``0`` for an exact 0, ``0.000`` for rounding noise)."""
    ax = _axes(ax)
    _ = i18n.translator(lang)
    xs = list(pd.unique(frame[x]))
    hues = list(pd.unique(frame[hue])) if hue else [None]
    width = 0.8 / len(hues)
    colours = _colour_map(hues)
    if decimals is None:  # whole numbers stay whole; else 3 significant digits of the largest
        values = frame[y].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        top = float(np.max(np.abs(values), initial=0.0))
        whole = bool(np.all(values == np.round(values)))
        decimals = 0 if whole or top == 0 else max(0, 2 - int(np.floor(np.log10(top))))

    def written(v: float) -> str:
        if percent:
            return share(v, lang)
        if signed:
            return signed_number(v, lang, decimals)
        return "0" if v == 0 else i18n.number(v, lang, decimals)

    for k, h in enumerate(hues):
        g = frame if h is None else frame[frame[hue] == h]
        vals = [g.loc[g[x] == v, y].iloc[0] if (g[x] == v).any() else np.nan for v in xs]
        pos = np.arange(len(xs)) + (k - (len(hues) - 1) / 2) * width
        ax.bar(pos, vals, width=width, color=colours[h], label=None if h is None else f"{h}")
        for p_, v in zip(pos, vals):
            if not np.isnan(v):
                text = written(v)  # below a bar that goes down, else above (0.000 included)
                down = text.startswith(("−", "-"))
                ax.text(p_, v, text, ha="center", va="top" if down else "bottom", fontsize=6)
    ax.set_xticks(range(len(xs)), [_signed(v) for v in xs])
    ax.set_xlabel(xlabel or _(x))
    ax.set_ylabel(ylabel or _(y))
    if percent:
        ax.yaxis.set_major_formatter(_percent(lang=lang))
    if hue:
        place_legend(ax, room=True, fontsize="small", title=_(hue))
    ax.grid(alpha=0.3, axis="y")
    _titled(
        ax, title or _("{y} by {x}").format(y=_(y), x=_(x)), frame_provenance(frame, lang), lang
    )
    return ax


def _frontier_labels(frame: pd.DataFrame, label_col: str, lang: str = "en") -> list[str]:
    """'keep', 'cancel', and 'λ≥x' for the best(λ) segments of a frontier table."""
    _ = i18n.translator(lang)
    out = []
    for _i, row in frame.iterrows():
        name = _(str(row[label_col]))
        if str(row[label_col]) == "best" and "lambda_lo" in frame.columns:
            lo = float(f"{row['lambda_lo']:.2g}")
            name = f"λ≥{i18n.number(lo, lang, None)}"
        out.append(name)
    return out


# -- small helpers --------------------------------------------------------------------------
def _advantage_style(state: Any) -> str:
    return _ADVANTAGE_STYLE.get(str(state), "-")


def _signed(v: Any) -> str:
    if isinstance(v, (int, np.integer)):
        return f"{int(v):+d}"
    return str(v)


def _colour_map(values: Iterable[Any]) -> dict[Any, Any]:
    import matplotlib as mpl

    values = list(values)
    cmap = mpl.colormaps["tab10" if len(values) <= 10 else "viridis"]
    n = max(len(values) - 1, 1)
    return {v: cmap(i if len(values) <= 10 else i / n) for i, v in enumerate(values)}


def _percent(decimals: int = 0, lang: str = "en") -> Any:
    return i18n.percent_formatter(lang, decimals)


def share(p: float, lang: str = "en") -> str:
    """A probability in whole percent, never a false 0 % or 100 %: ``< 1 %``, ``> 99 %``.

    >>> share(0.254), share(0.002), share(0.0), share(0.254, "fr")
    ('25%', '< 1%', '0%', '25\xa0%')
    """
    if lang != "en":
        return i18n.percent(p, lang, 0)
    if 0 < p < 0.005:
        return "< 1%"
    if 0.995 <= p < 1:
        return "> 99%"
    return f"{p:.0%}"


def _signed_share(p: float, lang: str = "en") -> str:
    """A signed difference of probabilities in whole percent (``+3%``; ``+3 %`` in French);
    a difference that is not zero is never written 0 %: ``< 1 %``."""
    if 0 < abs(p) < 0.005:
        return share(abs(p), lang)
    if lang == "en":
        return f"{p:+.0%}"
    return ("+" if p >= 0 else "−") + i18n.percent(abs(p), lang, 0)
