"""The cheap texts and tables of plots/cells.py against matplotlib's own: a heatmap's numbers
drawn by :class:`CellTexts` are the pixels ``ax.text`` draws, and a :func:`cell_table` has the
cells, the column widths and the places of matplotlib's ``ax.table``."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from explodice.present.plots.cells import CellTexts, cell_table, write_cells

TEXTS = ["12", "<1", ">99", "nearly impossible", "—", "g,j", ""]
COLOURS = ["black", "white", "0.3", "red", "black", "blue", "black"]


def _pixels(fig) -> np.ndarray:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def _grid_figure():
    fig = Figure(figsize=(4, 3), dpi=110)
    ax = fig.add_subplot()
    ax.imshow(np.linspace(0, 1, 14).reshape(2, 7), cmap="RdYlGn", aspect="auto")
    return fig, ax


@pytest.mark.parametrize("ha", ["left", "center", "right"])
@pytest.mark.parametrize("va", ["center", "top", "bottom", "baseline"])
def test_cell_texts_draw_the_pixels_of_matplotlibs_texts(ha, va):
    xs, ys = np.arange(7) * 1.0, np.arange(7) % 2 * 1.0
    fig, ax = _grid_figure()
    for x, y, s, c in zip(xs, ys, TEXTS, COLOURS):
        ax.text(x, y, s, ha=ha, va=va, fontsize=6.5, color=c)
    fast, bx = _grid_figure()
    cells = write_cells(bx, xs, ys, TEXTS, fontsize=6.5, colors=COLOURS, ha=ha, va=va)
    assert cells.get_texts() == TEXTS
    assert np.array_equal(_pixels(fig), _pixels(fast))
    # and one text written in each: the texts differ, so do the pixels (the check can fail)
    other, cx = _grid_figure()
    write_cells(cx, xs, ys, TEXTS[::-1], fontsize=6.5, colors=COLOURS, ha=ha, va=va)
    assert not np.array_equal(_pixels(fig), _pixels(other))


def test_cell_texts_are_clipped_to_their_axes_and_measured():
    fig, ax = _grid_figure()
    cells = write_cells(ax, [0, 40], [0, 0], ["in", "far out"], fontsize=7)
    assert cells.get_clip_box() is not None  # as ax.text: clipped to the Axes' box
    renderer = FigureCanvasAgg(fig).get_renderer()
    extent = cells.get_window_extent(renderer)
    alone = Figure(figsize=(4, 3), dpi=110)
    a = alone.add_subplot()
    a.imshow(np.linspace(0, 1, 14).reshape(2, 7), cmap="RdYlGn", aspect="auto")
    t1, t2 = (
        a.text(0, 0, "in", fontsize=7, ha="center", va="center"),
        a.text(40, 0, "far out", fontsize=7, ha="center", va="center"),
    )
    r2 = FigureCanvasAgg(alone).get_renderer()
    union = Bbox.union([t1.get_window_extent(r2), t2.get_window_extent(r2)])
    assert np.allclose(extent.extents, union.extents)
    with pytest.raises(ValueError, match="2 texts for 3 positions"):
        CellTexts([(0, 0), (1, 1), (2, 2)], ["a", "b"])


ROWS = [["fighter", "97.5%", "10"], ["rogue", "<0.1%", "nearly impossible"]]
LABELS = ["build", "P(success)", "DC"]


def _matplotlib_table(fig, widths=None):
    """matplotlib's ``ax.table`` as kit.draw_table made it before plots/cells.py."""
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.5))
    ax.axis("off")
    fit = {} if widths is None else {"colWidths": list(widths), "bbox": (0, 0, 1, 1)}
    t = ax.table(cellText=ROWS, colLabels=LABELS, loc="center", cellLoc="center", **fit)
    t.auto_set_font_size(False)
    t.set_fontsize(7)
    if widths is None:
        t.auto_set_column_width(list(range(len(LABELS))))
        t.scale(1, 1.1)
    return t


def _cell_table(fig, widths=None):
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.5))
    ax.axis("off")
    bbox = None if widths is None else (0, 0, 1, 1)
    return cell_table(ax, ROWS, LABELS, fontsize=7, widths=widths, bbox=bbox)


@pytest.mark.parametrize("widths", [None, [0.5, 0.2, 0.3]])
def test_a_cell_table_is_laid_out_as_matplotlibs_table_in_the_pdf(widths):
    old_fig, new_fig = Figure(figsize=(8, 6)), Figure(figsize=(8, 6))
    old, new = _matplotlib_table(old_fig, widths), _cell_table(new_fig, widths)
    old_fig.savefig(io.BytesIO(), format="pdf")  # matplotlib lays its table out as it draws
    new_fig.savefig(io.BytesIO(), format="pdf")
    assert old.get_celld().keys() == new.get_celld().keys()
    for key, cell in old.get_celld().items():
        mine = new.get_celld()[key]
        assert mine.get_text().get_text() == cell.get_text().get_text()
        got = (mine.get_x(), mine.get_y(), mine.get_width(), mine.get_height())
        want = (cell.get_x(), cell.get_y(), cell.get_width(), cell.get_height())
        assert np.allclose(got, want, rtol=0.02, atol=2e-3), (key, got, want)
        face = "0.9" if key[0] == 0 else "w"
        assert mine.get_facecolor() == matplotlib.colors.to_rgba(face)
    assert new in new_fig.axes[0].tables


def test_a_cell_tables_texts_stand_in_their_cells_in_the_png():
    fig = Figure(figsize=(8, 6), dpi=110)
    table = _cell_table(fig)
    renderer = FigureCanvasAgg(fig).get_renderer()
    for cell in table.get_celld().values():
        box, text = cell.get_window_extent(renderer), cell.get_text().get_window_extent(renderer)
        assert box.x0 < text.x0 and text.x1 < box.x1 and box.y0 < text.y0 and text.y1 < box.y1
        middle = (text.x0 + text.x1) / 2, (text.y0 + text.y1) / 2
        assert abs(middle[0] - (box.x0 + box.x1) / 2) < 1  # centred
    # each drawn: the table's pixels are not blank where its texts stand
    pixels = _pixels(fig)
    assert (pixels[..., :3] < 100).any()


def test_cell_table_rows_take_their_faces():
    fig = Figure(figsize=(8, 6))
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.5))
    table = cell_table(
        ax, ROWS, LABELS, fontsize=6.5, widths=[0.4, 0.3, 0.3], faces=["w", "0.94"],
        header_face="0.85", row_height=1 / 3, loc="upper center",
    )  # fmt: skip
    cells = table.get_celld()
    assert cells[0, 1].get_facecolor() == matplotlib.colors.to_rgba("0.85")
    assert cells[2, 2].get_facecolor() == matplotlib.colors.to_rgba("0.94")
    assert cells[1, 0].get_facecolor() == matplotlib.colors.to_rgba("w")
    assert np.isclose(cells[1, 0].get_height(), 1 / 3)
    assert np.isclose(sum(cells[0, c].get_width() for c in range(3)), 1.0)
