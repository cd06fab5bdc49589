"""The plots' shared style: where the numbers come from (:func:`provenance`, written in small
grey type above each Axes by :func:`titled`), legends placed where they cover no data
(:func:`place_legend`), the DC bands of docs/rules.md shaded on an axis
(:func:`shade_dc_bands`), and numbers written the language's way (:func:`share`,
:func:`signed_number`, :func:`log_ticks`). Every plotting module of the package draws with
these; this module imports none of them.

>>> share(0.254), share(0.002), signed_number(-1.585, "fr")
('25%', '< 1%', '−1,585')
"""

from __future__ import annotations

import dataclasses
import textwrap
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from explodice.core.errors import check_choice
from explodice.engine.distribution import Distribution
from explodice.game.rules import DISADVANTAGE_READINGS, Rules
from explodice.game.tables import dc_bands
from explodice.present import i18n
from explodice.present.formats import Formatter
from explodice.present.i18n import Lang
from explodice.present.labels import N_, rules_text

__all__ = [
    "DC_BANDS_3D6X",
    "DC_BANDS_D20",
    "LEGEND_LOCS",
    "NOTE_SIZE",
    "advantage_style",
    "axes_or_current",
    "axes_title",
    "colour_map",
    "common_note",
    "covered",
    "default_xlim",
    "distribution_label",
    "frame_provenance",
    "log_ticks",
    "named_distributions",
    "percent_axis",
    "place_legend",
    "provenance",
    "shade_dc_bands",
    "share",
    "signed_label",
    "signed_number",
    "finish_error_panel",
    "titled",
]

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
NOTE_SIZE = 7
_NOTE_WIDTH = 95
#: Points of text drawn just above an Axes (the DC band names), that its note and title clear.
_ABOVE: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


# -- labelling helpers ----------------------------------------------------------------------
def axes_or_current(ax: Any) -> Any:
    """``ax``, or matplotlib's current Axes when it is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    return ax


def provenance(dist: Distribution, lang: Lang = "en") -> str:
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
        how = i18n.semicolons([how, rules_text(dist.rules, lang)], lang)
    return how


def frame_provenance(frame: pd.DataFrame, lang: Lang = "en") -> str:
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
    return i18n.semicolons(parts, lang)


def _isnan(v: Any) -> bool:
    try:
        return bool(np.isnan(v))
    except TypeError:
        return False


def titled(ax: Any, title: str, note: str = "", lang: Lang = "en") -> None:
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
            fontsize=NOTE_SIZE - 0.5,
            color="0.35",
            annotation_clip=False,
        )
    axes_title(ax, title, pad=6 + above + 8.5 * len(lines))


def axes_title(ax: Any, title: str, **kw: Any) -> Any:
    """``ax.set_title(title, **kw)`` at the top of the Axes, placed once: where matplotlib
    places it when no tick label stands above the Axes (none of the report's does), without
    measuring every y tick label again at each save to find out (``y=1.0``)."""
    return ax.set_title(title, y=1.0, **kw)


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


def measuring_renderer(fig: Any) -> Any:
    """The renderer that measures texts and legends on ``fig`` before it is saved: its
    canvas's, one for the figure's life (a figure made without a canvas that draws, as the
    report's pages are, would make a new renderer, and measure every text anew, at each
    measure)."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig.canvas.get_renderer()


def covered(ax: Any, box: Any) -> int:
    """How many of the Axes' data artists a box in display coordinates covers: lines (and
    their markers), bars, markers of scatter plots and the texts written on the data; the DC
    bands' shading and the legend itself do not count."""
    return sum(hit(box) for hit in _obstacles(ax))


def _obstacles(ax: Any) -> list[Any]:
    """One test per data artist of ``ax`` (see :func:`covered`): whether a box in display
    coordinates covers it; the artists measured once, at the Axes' present limits."""
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle
    from matplotlib.text import Text

    ax.get_xlim(), ax.get_ylim()  # autoscaling is lazy: the limits settle before measuring
    renderer = measuring_renderer(ax.get_figure(root=True))
    legend = ax.get_legend()
    inside = ax.bbox  # the Axes' own box, in display coordinates
    tests: list[Any] = []
    for artist in ax.get_children():
        if not artist.get_visible() or artist is legend or artist.get_gid() == "band":
            continue
        if isinstance(artist, Line2D):
            path = artist.get_transform().transform_path(artist.get_path())
            vertices = np.asarray(path.vertices)
            marked = artist.get_marker() not in (None, "None", "", " ")
            if len(vertices):
                tests.append(
                    lambda box, path=path, vertices=vertices, marked=marked: bool(
                        path.intersects_bbox(box, filled=False)
                        or (marked and box.count_contains(vertices))
                    )
                )
        elif isinstance(artist, Rectangle):
            if artist.get_width() and artist.get_height() and artist is not ax.patch:
                extent = artist.get_window_extent(renderer)
                tests.append(lambda box, extent=extent: bool(extent.overlaps(box)))
        elif isinstance(artist, PolyCollection):
            continue  # a confidence band: the line it surrounds counts
        elif isinstance(artist, Text) and artist.get_text() and artist.axes is ax:
            extent = artist.get_window_extent(renderer)  # a text on the data, not a title
            middle = ((extent.x0 + extent.x1) / 2, (extent.y0 + extent.y1) / 2)
            if inside.contains(*middle):
                tests.append(lambda box, extent=extent: bool(extent.overlaps(box)))
        elif hasattr(artist, "get_offsets") and artist.get_offsets() is not None:
            offsets = artist.get_offset_transform().transform(artist.get_offsets())
            if len(offsets):
                tests.append(lambda box, offsets=offsets: bool(box.count_contains(offsets)))
    return tests


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
    The legend is made once and moved from place to place; the data are measured once for
    each height of the y axis.
    """
    from matplotlib.ticker import FixedLocator

    renderer = measuring_renderer(ax.get_figure(root=True))
    legend = ax.legend(loc=locs[0], **kw)

    def hits(loc: str, tests: list[Any], pad: float = 2) -> int:
        legend.set_loc(loc)
        box = legend.get_window_extent(renderer).padded(pad)
        return sum(hit(box) for hit in tests)

    def first_free() -> Any:
        tests = _obstacles(ax)
        for loc in locs:
            if not hits(loc, tests):
                return legend
        return None

    if first_free() is not None:
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
            if first_free() is not None:
                return legend
        ax.set_ylim(*lim)
        if not log:
            ax.yaxis.set_major_locator(FixedLocator(list(ticks)))
    if outside:
        return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)
    tests = _obstacles(ax)
    least = min(locs, key=lambda loc: hits(loc, tests, pad=0))
    legend.set_loc(least)
    return legend


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


def signed_number(x: float, lang: Lang = "en", decimals: int = 3) -> str:
    """A signed difference with ``decimals`` decimals, as the tables write it
    (:meth:`~explodice.present.formats.Formatter.signed`): ``+0.015``, ``−1.585``
    (``+0,015``); ``±0.000`` for no change (an exact zero, or rounding noise such as a gain
    of -3.6e-15), ``+< 0.001`` for a change that rounds to zero.

    >>> signed_number(0.0153), signed_number(-1.585, "fr"), signed_number(0.0), signed_number(-3.6e-15)
    ('+0.015', '−1,585', '±0.000', '±0.000')
    """
    return Formatter(lang).signed(x, decimals)


def default_xlim(named: list[tuple[str, Distribution]], log: bool) -> tuple[float, float]:
    """The totals worth showing: from the 1e-6 quantile to the 1 - 1e-3 one (1 - 1e-7 on a
    log scale, to show the tail), with one total of margin."""
    tail = 1e-7 if log else 1e-3
    lo = min(d.quantile(1e-6) for _, d in named)
    hi = max(d.quantile(1 - tail) for _, d in named)
    return lo - 1, hi + 1


def distribution_label(key: Any, dist: Distribution, lang: Lang = "en") -> str:
    """A curve's legend label: ``key`` when it is a name, else the roll (``3d6x+2, advantage``)."""
    if isinstance(key, str):
        return key
    roll = dist.roll
    if roll is None:
        return dist.system
    _ = i18n.translator(lang)
    label = f"{dist.system}{signed_label(roll.modifier)}, {_(roll.advantage)}"
    if dist.system == "3d6x" and roll.policy != "keep":
        label += f", {_(str(roll.policy))}"
    return label


def named_distributions(
    dists: Mapping[str, Distribution] | Sequence[Distribution] | Distribution, lang: Lang = "en"
) -> list[tuple[str, Distribution]]:
    """One distribution, a list or a mapping of named ones, as (label, distribution) pairs."""
    if isinstance(dists, Distribution):
        dists = [dists]
    items = dists.items() if isinstance(dists, Mapping) else ((None, d) for d in dists)
    return [(distribution_label(k, d, lang), d) for k, d in items]


def common_note(named: list[tuple[str, Distribution]], lang: Lang = "en") -> str:
    """The provenance of every distribution drawn, each different one on its line."""
    notes = list(dict.fromkeys(provenance(d, lang) for _, d in named))
    return "\n".join(notes)


def shade_dc_bands(
    ax: Any,
    bands: Sequence[tuple[str, int]] = DC_BANDS_3D6X,
    *,
    vertical: bool = True,
    lang: Lang = "en",
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
                    fontsize=NOTE_SIZE - 0.5,
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
                fontsize=NOTE_SIZE,
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
    renderer = measuring_renderer(ax.get_figure(root=True))
    extent = note.get_window_extent(renderer)
    if extent.x1 > ax.bbox.x1 + 1:
        row = note.xyann[1]
        note.xy = (lim[1], 1.0)
        note.set_horizontalalignment("right")
        note.xyann = (-1, row)
        extent = note.get_window_extent(renderer)
        if any(extent.padded(2).overlaps(other) for other in written):
            note.xyann = (-1, row + 16)  # above both rows
            _ABOVE[ax] = max(_ABOVE.get(ax, 0.0), 27.0)
            extent = note.get_window_extent(renderer)
    written.append(extent)


# -- small helpers --------------------------------------------------------------------------
def advantage_style(state: Any) -> str:
    """The line style of an advantage state (or a system): solid, dashed, dotted."""
    return _ADVANTAGE_STYLE.get(str(state), "-")


def signed_label(v: Any) -> str:
    """A tick or legend label: an integer with its sign and the report's minus (``+2``,
    ``−3``, as every other negative number of the figures), anything else as written.

    >>> signed_label(2), signed_label(-3), signed_label(0), signed_label("x")
    ('+2', '−3', '+0', 'x')
    """
    if isinstance(v, (int, np.integer)):
        return ("+" if v >= 0 else "\u2212") + str(abs(int(v)))
    return str(v)


def colour_map(values: Iterable[Any]) -> dict[Any, Any]:
    """One colour per value: tab10 for up to ten values, else spread over viridis."""
    import matplotlib as mpl

    values = list(values)
    cmap = mpl.colormaps["tab10" if len(values) <= 10 else "viridis"]
    n = max(len(values) - 1, 1)
    return {v: cmap(i if len(values) <= 10 else i / n) for i, v in enumerate(values)}


def percent_axis(decimals: int = 0, lang: Lang = "en") -> Any:
    """A tick formatter writing probabilities in percent, the language's way."""
    return i18n.percent_formatter(lang, decimals)


def share(p: float, lang: Lang = "en") -> str:
    """A probability in whole percent as the language writes it (:func:`~explodice.present.
    i18n.percent`, the same on every surface), never a false 0 % or 100 %: ``< 1%``,
    ``> 99%``; a probability certain up to the exact engine's cut is 100 %.

    >>> share(0.254), share(0.002), share(0.0), share(0.254, "fr"), share(0.999999999999939)
    ('25%', '< 1%', '0%', '25\\xa0%', '100%')
    >>> share(0.945), share(0.945, "fr")
    ('95%', '95\\xa0%')
    """
    return i18n.percent(p, lang, 0)


def finish_error_panel(ax: Any, xlabel: str, ylabel: str, lang: Lang, title: str | None) -> Any:
    """The axes of a fit's error by base (the save DC's, the defence value's): the labels,
    the error in percentage points from 0 (a difference of probabilities, never %), the grid,
    the legend and the title."""
    ax.set_xlabel(xlabel, fontsize=7)
    ax.set_ylabel(ylabel, fontsize=7)
    ax.yaxis.set_major_formatter(i18n.change_formatter(lang, 1, signed=False))
    ax.tick_params(labelsize=6.5)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    place_legend(ax, room=True, outside=False, fontsize=6.5)
    if title:
        axes_title(ax, title, fontsize=8.5, pad=4)
    return ax
