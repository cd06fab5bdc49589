"""The report's pages laid out as a reader sees them, in English and in French: every text and
every legend on the page, and no legend over the data it explains (its lines, markers, bars
and the numbers written on them). Measured on the drawn figures (matplotlib's window extents),
independently of how the plots place their legends: each line is sampled pixel by pixel."""

from __future__ import annotations

import dataclasses

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from explodice.present.report import build_pages, load_config


@pytest.fixture(scope="module", params=["en", "fr"])
def pages(request):
    """Every page of the default report (smaller samples: the layout is the same)."""
    config = dataclasses.replace(load_config(lang=request.param), n=2_000, days=40)
    built = []
    for page in build_pages(config, date="2026-12-01"):
        canvas = FigureCanvasAgg(page.figure)
        canvas.draw()
        built.append((page.slug, page.figure, canvas.get_renderer()))
    return request.param, built


def _drawn_texts(fig, renderer):
    """(what, Text) for every text the page draws: the figure's own, each Axes' title, labels,
    texts and annotations, its tick labels inside its span, its legend's."""
    out = [("figure text", t) for t in fig.texts]
    for ax in fig.axes:
        name = ax.get_title() or ax.get_label() or "axes"
        for artist in ax.get_children():
            if isinstance(artist, Text) and artist.get_visible() and artist.get_text():
                out.append((f"{name}: text", artist))
        for axis, span in (
            (ax.xaxis, (ax.bbox.x0, ax.bbox.x1)),
            (ax.yaxis, (ax.bbox.y0, ax.bbox.y1)),
        ):
            if not axis.get_visible():
                continue
            out.append((f"{name}: axis label", axis.label))
            for tick in axis.get_major_ticks():
                label = tick.label1
                if not (label.get_visible() and label.get_text()):
                    continue
                where = label.get_window_extent(renderer)
                middle = (
                    (where.x0 + where.x1) / 2 if axis is ax.xaxis else (where.y0 + where.y1) / 2
                )
                if span[0] - 1 <= middle <= span[1] + 1:
                    out.append((f"{name}: tick label", label))
        legend = ax.get_legend()
        if legend is not None:
            out += [(f"{name}: legend", t) for t in legend.get_texts()]
            out.append((f"{name}: legend title", legend.get_title()))
    return [(what, t) for what, t in out if t.get_visible() and t.get_text()]


def _within(extent, box) -> bool:
    return (
        box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1
    )


def test_every_text_and_legend_is_on_the_page(pages):
    lang, built = pages
    outside = []
    for slug, fig, renderer in built:
        box = fig.bbox.padded(-1)  # the page, 1 pixel in
        for what, text in _drawn_texts(fig, renderer):
            if not _within(text.get_window_extent(renderer), box):
                outside.append(f"{slug}: {what} {text.get_text()[:40]!r}")
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is not None and not _within(legend.get_window_extent(renderer), box):
                outside.append(f"{slug}: the legend of {ax.get_title()!r}")
    assert not outside, f"{lang}, off the page:\n" + "\n".join(outside)


def _line_points(line: Line2D) -> np.ndarray:
    """The line as drawn, in display pixels: its segments sampled every pixel, and its
    vertices (the markers)."""
    xy = line.get_transform().transform(line.get_path().vertices)
    points = [xy]
    for a, b in zip(xy[:-1], xy[1:]):
        if (
            np.isfinite(a).all()
            and np.isfinite(b).all()
            and line.get_linestyle() not in ("None", " ", "")
        ):
            steps = int(np.hypot(*(b - a))) + 1
            points.append(a + np.linspace(0, 1, steps + 1)[:, None] * (b - a))
    points = np.concatenate(points)
    return points[np.isfinite(points).all(axis=1)]


def _covered_by(legend_box, ax, renderer) -> list[str]:
    """The data of ``ax`` under ``legend_box``."""
    inner = legend_box.padded(-1)
    hit = []
    for artist in ax.get_children():
        if not artist.get_visible() or isinstance(artist, Legend) or artist.get_gid() == "band":
            continue
        if isinstance(artist, Line2D):
            pts = _line_points(artist)
            inside = (
                (pts[:, 0] > inner.x0)
                & (pts[:, 0] < inner.x1)
                & (pts[:, 1] > inner.y0)
                & (pts[:, 1] < inner.y1)
            )
            if inside.any():
                hit.append(f"line {artist.get_label()!r}")
        elif isinstance(artist, Rectangle) and artist is not ax.patch:
            if (
                artist.get_width()
                and artist.get_height()
                and artist.get_window_extent(renderer).overlaps(inner)
            ):
                hit.append("bar")
        elif isinstance(artist, Text) and artist.get_text() and artist.axes is ax:
            extent = artist.get_window_extent(renderer)
            middle = ((extent.x0 + extent.x1) / 2, (extent.y0 + extent.y1) / 2)
            if ax.bbox.contains(*middle) and extent.overlaps(inner):
                hit.append(f"text {artist.get_text()!r}")
    return hit


def test_no_legend_covers_the_data(pages):
    lang, built = pages
    covering = []
    for slug, fig, renderer in built:
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is None:
                continue
            box = legend.get_window_extent(renderer)
            for other in fig.axes:  # its own Axes' data, and any other Axes it reaches
                if other is ax or other.bbox.overlaps(box):
                    hit = _covered_by(box, other, renderer)
                    if hit:
                        covering.append(
                            f"{slug}: the legend of {ax.get_title()!r} covers {hit[:3]}"
                        )
    assert not covering, f"{lang}:\n" + "\n".join(covering)


def _footer(fig):
    """The page's provenance footer (the figure text naming the version and the seed)."""
    return next(
        t for t in fig.texts if t.get_text().startswith("explodice ") and "·" in t.get_text()
    )


def test_the_footer_overlaps_no_other_text_or_table(pages):
    # the French footer takes two lines: it wrote over the x-axis labels of pages 2-4, 9, 11,
    # 13 (DD, "DD (réussite quand total ≥ DD)", "total (dés + modificateur)")
    lang, built = pages
    over = []
    for slug, fig, renderer in built:
        footer = _footer(fig)
        box = footer.get_window_extent(renderer)
        for what, text in _drawn_texts(fig, renderer):
            if text is not footer and text.get_window_extent(renderer).overlaps(box):
                over.append(f"{slug}: {what} {text.get_text()[:40]!r}")
        for ax in fig.axes:
            for table in ax.tables:
                if table.get_window_extent(renderer).overlaps(box):
                    over.append(f"{slug}: a table")
    assert not over, f"{lang}, under the footer:\n" + "\n".join(over)


def test_every_table_cell_holds_its_text(pages):
    # the French DC table per level wrote "écart (par niveau)" and "unique" over their borders
    lang, built = pages
    spilled = []
    for slug, fig, renderer in built:
        for ax in fig.axes:
            for table in ax.tables:
                for cell in table.get_celld().values():
                    text = cell.get_text()
                    if not text.get_text().strip():
                        continue
                    inner, drawn = (
                        cell.get_window_extent(renderer),
                        text.get_window_extent(renderer),
                    )
                    if drawn.x0 < inner.x0 - 0.5 or drawn.x1 > inner.x1 + 0.5:
                        spilled.append(f"{slug}: {text.get_text().strip()!r}")
    assert not spilled, f"{lang}, wider than their cells:\n" + "\n".join(sorted(set(spilled)))
