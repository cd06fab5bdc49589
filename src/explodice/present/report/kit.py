"""The page kit: what every report page is made of.

- :class:`Context`: what a page reads (the configuration, the version and date, the report's
  language and its number formats, the contents);
- :class:`PageData`: what a page's ``data`` function returns (its tidy tables, and the results
  its drawing reads besides);
- :func:`page_figure` and :func:`draw_table`: a landscape figure with title, caption, Axes, an
  optional table and the provenance footer, for a page's ``draw`` function;
- :class:`Page`: a page as the writer writes it (number, slug, figure, tables).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from explodice.game.rules import Rules
from explodice.present import i18n
from explodice.present.config import ReportConfig
from explodice.present.i18n import Lang
from explodice.present.labels import rules_text, switch_label
from explodice.questions.answer import changed_switches

__all__ = [
    "PAGE_SIZE",
    "Context",
    "Page",
    "PageData",
    "draw_table",
    "exact_columns",
    "page_figure",
]

PAGE_SIZE = (11.69, 8.27)  # A4 landscape, inches
#: Characters of the footer's small type that fit across the page (then it takes two lines).
FOOTER_WIDTH = 180
#: The height of one line of the footer's small type, as a share of the page's height.
FOOTER_LINE = 0.015


@dataclass(frozen=True)
class PageData:
    """What a page shows, computed by its ``data`` function: ``tables``, its tidy tables
    (each written beside the page as ``<slug>-<name>.csv``; every probability of the page is
    computed here), and ``shown``, the results its drawing reads besides them (distributions
    to plot, the reason a page cannot be drawn), by name."""

    tables: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    shown: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Page:
    """One report page as the writer writes it: its ``number`` in the PDF, its ``slug``
    (``07-day``: it names the PNG, ``<slug>.png``, and the CSVs, ``<slug>-<table>.csv``), its
    line in the contents, its figure and its tidy tables."""

    number: int
    slug: str
    contents: str
    figure: Any
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


@dataclass
class Context:
    """What every page reads: the configuration, the report's version and date, a cache the
    pages share (the warm-up process), and the contents: ``(number, line)`` of every page
    after the title (English lines, translated where shown)."""

    config: ReportConfig
    version: str
    date: str
    cache: dict[str, Any] = field(default_factory=dict)
    contents: tuple[tuple[int, str], ...] = ()

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def lang(self) -> Lang:
        """The report's language (``"en"`` or ``"fr"``)."""
        return self.config.lang

    def _(self, text: str) -> str:
        """``text`` (an English label) in the report's language."""
        return i18n.translator(self.lang)(text)

    def pct(self, x: Any, digits: int = 1) -> str:
        """A probability as the language writes it: ``49.1%`` (``49,1 %``), never a false 0 %."""
        return "—" if pd.isna(x) else i18n.percent(float(x), self.lang, digits)

    def num(self, x: Any, digits: int | None = 1) -> str:
        """A number the report's way: ``12.6`` (``12,6``)."""
        return "—" if pd.isna(x) else i18n.number(float(x), self.lang, digits)

    def rules_sentence(self) -> str:
        """`` Rules off their defaults: overflow = lost.`` when the configuration moves a
        switch (every caption ends with it), else nothing."""
        moved = changed_switches(self.rules)
        if not moved:
            return ""
        _ = self._
        return " " + _("Rules off their defaults: {rules}.").format(
            rules=", ".join(f"{switch_label(k, self.lang)} = {_(v)}" for k, v in moved)
        )

    def day(self) -> str:
        """The report's date, as its language writes it."""
        return i18n.date(self.date, self.lang)

    def footer(self) -> str:
        """The provenance line of every page; on two lines when it would not fit across the
        page (a long configuration path, French's longer words)."""
        c = self.config
        text = self._(
            "explodice {version} · {date} · config: {source} · seed {seed} · {rules}"
        ).format(
            version=self.version,
            date=self.day(),
            source=self._(c.source),
            seed=c.seed,
            rules=rules_text(c.rules, self.lang),
        )
        return textwrap.fill(
            i18n.keep_together(text), FOOTER_WIDTH, break_long_words=False, break_on_hyphens=False
        )


def page_figure(
    ctx: Context,
    title: str,
    caption: str,
    *,
    nrows: int = 1,
    ncols: int = 1,
    table: pd.DataFrame | None = None,
    table_height: float = 0.22,
    width_ratios: Sequence[float] | None = None,
    **grid: Any,
) -> tuple[Any, list[Any]]:
    """A landscape page: title, caption sentence, a grid of Axes, an optional table, a footer."""
    from matplotlib.figure import Figure  # imported here: a report kept whole draws nothing

    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.04, 0.965, title, fontsize=15, weight="bold", va="top")
    caption = textwrap.fill(i18n.keep_together(caption + ctx.rules_sentence()), 150)
    fig.text(0.04, 0.925, caption, fontsize=9, va="top", color="0.15")
    footer = ctx.footer()
    fig.text(0.04, 0.012, footer, fontsize=6.5, color="0.4", va="bottom")
    # a footer on two lines (French, a long configuration path) lifts what stands above it
    lifted = FOOTER_LINE * footer.count("\n")
    bottom = 0.08 + lifted + (table_height if table is not None else 0.0)
    # the Axes start below the caption, leaving room for their titles, notes and band names
    top = 0.80 - 0.02 * caption.count("\n")
    layout = {
        "left": 0.07,
        "right": 0.96,
        "top": top,
        "bottom": bottom,
        "wspace": 0.3,
        "hspace": 0.55,
    } | grid
    spec = fig.add_gridspec(nrows, ncols, width_ratios=width_ratios, **layout)
    axes = [fig.add_subplot(spec[i, j]) for i in range(nrows) for j in range(ncols)]
    if table is not None:
        draw_table(fig, table, (0.07, 0.045 + lifted, 0.89, table_height - 0.01))
    return fig, axes


def draw_table(
    fig: Any,
    table: pd.DataFrame,
    rect: tuple[float, float, float, float],
    loc: str = "center",
    *,
    widths: Sequence[float] | None = None,
    fontsize: float | None = None,
) -> None:
    """Draw a (small, already formatted) DataFrame as a table in ``rect`` of the figure
    (centred, or at ``loc``: ``"upper left"``, say); with ``widths`` (the columns' shares) it
    fills ``rect`` exactly, in ``fontsize``. Every cell keeps a space either side of its text,
    so that a narrow column (a lone ``0``) never touches its borders. The table is
    :func:`~explodice.present.plots.cells.cell_table`'s: laid out once, drawn without a
    matplotlib ``Text`` per cell."""
    from explodice.present.plots.cells import cell_table  # matplotlib: only where drawn

    ax = fig.add_axes(rect)
    ax.axis("off")
    columns = len(table.columns)  # a wide table (the 34 FPs of 5e's ladder) in smaller type
    cell_table(
        ax,
        [[str(v) for v in row] for row in table.itertuples(index=False)],
        [str(c) for c in table.columns],
        fontsize=fontsize or (7 if columns <= 12 else 6 if columns <= 28 else 5),
        loc=loc,
        widths=widths,
        bbox=None if widths is None else (0, 0, 1, 1),
        spaced=True,
    )


def exact_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the provenance columns of an exact table for its CSV: ``method``
    ``exact``, ``n`` and ``seed`` empty (nothing is sampled)."""
    return frame.assign(method="exact", n=None, seed=None)
