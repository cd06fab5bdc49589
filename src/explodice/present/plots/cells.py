"""Many small texts drawn cheaply: the numbers written in a heatmap's cells
(:class:`CellTexts`) and the report's tables (:class:`CellTable`, :func:`cell_table`).

matplotlib draws each :class:`~matplotlib.text.Text` by laying it out anew (its font looked up,
its metrics measured) and each cell of a :class:`~matplotlib.table.Table` by measuring its text
and its rectangle again, at every save: a page of 1,700 cell numbers or an 870-cell table cost
more than a second to save as PDF and PNG. Here each distinct string is measured once per
renderer and every text is handed to the renderer directly, in the place, font and colour a
``Text`` would have had; a table is laid out once, when it is made (its columns' widths
measured without a renderer, the same for the PDF and the PNG), its cells' rectangles drawn
with one graphics context per colour, then their texts. Nothing is mathtext: a ``$`` is
written as it is.

>>> from matplotlib.figure import Figure
>>> fig = Figure(); ax = fig.add_subplot()
>>> cells = write_cells(ax, [0, 1], [0, 0], ["12", "<1"], fontsize=6)
>>> cells.get_texts()
['12', '<1']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.artist import Artist
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.table import Cell, Table
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.transforms import Bbox, IdentityTransform
from numpy.typing import ArrayLike

__all__ = ["CellTable", "CellTexts", "cell_table", "write_cells", "write_grid"]

#: What measures a table's texts when it is made: the fonts' own widths, in points.
_MEASURE = TextToPath()


class CellTexts(Artist):
    """One-line texts, each at a point (in ``transform``'s coordinates), in one font and
    alignment, each in its colour: drawn as so many :class:`~matplotlib.text.Text` would be
    (the same layout: a template ``Text`` measures each distinct string once per renderer)."""

    zorder = 3  # as a Text

    def __init__(
        self,
        xy: Any,
        texts: Sequence[str],
        *,
        colors: Sequence[Any] | Any = "black",
        fontproperties: FontProperties | None = None,
        ha: str = "center",
        va: str = "center",
        transform: Any = None,
    ) -> None:
        super().__init__()
        self._xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        self._texts = [str(t) for t in texts]
        if len(self._texts) != len(self._xy):
            raise ValueError(f"{len(self._texts)} texts for {len(self._xy)} positions")
        rgba = [colors] * len(self._texts) if isinstance(colors, str) else list(colors)
        self._rgba = [mcolors.to_rgba(c) for c in rgba]
        self._font = (fontproperties or FontProperties()).copy()
        self._ha, self._va = ha, va
        # lays each string out as a Text would (ha left, on its baseline: see _offsets)
        self._template = Text(0, 0, "", fontproperties=self._font, ha="left", va="baseline")
        self._template.set_transform(IdentityTransform())
        if transform is not None:
            self.set_transform(transform)

    def set_figure(self, fig: Any) -> None:
        super().set_figure(fig)
        self._template.set_figure(fig)

    def get_texts(self) -> list[str]:
        """The strings written, in order."""
        return list(self._texts)

    def _boxes(self, renderer: Any) -> dict[str, Any]:
        """Each distinct string's extent from the start of its baseline, as a Text lays out
        one line: its width, the font's ascent and descent or the string's own where they
        exceed them (the font's read once, from a Text holding a full stop)."""
        self._template.set_text(".")
        line = self._template.get_window_extent(renderer)
        ascent, descent = line.y1, -line.y0
        boxes = {}
        for s in dict.fromkeys(self._texts):
            if s:
                w, h, d = renderer.get_text_width_height_descent(s, self._font, ismath=False)
                boxes[s] = Bbox.from_extents(0, -max(d, descent), w, max(h - d, ascent))
        return boxes

    def _offsets(self, box: Any) -> tuple[float, float]:
        """From a text's anchor to the start of its baseline (``box``: its extent drawn from
        the start of its baseline), for the alignment asked."""
        dx = {"left": 0.0, "center": -box.x1 / 2, "right": -box.x1}[self._ha]
        dy = {
            "baseline": 0.0,
            "center": -(box.y0 + box.y1) / 2,
            "top": -box.y1,
            "bottom": -box.y0,
        }[self._va]
        return dx, dy

    def _placed(self, renderer: Any) -> list[tuple[int, str, float, float, Any]]:
        """(index, string, x, y, extent) of each text to draw, in display coordinates."""
        boxes = self._boxes(renderer)
        points = self.get_transform().transform(self._xy)
        out = []
        for i, (s, (x, y)) in enumerate(zip(self._texts, points)):
            if s and np.isfinite(x) and np.isfinite(y):
                dx, dy = self._offsets(boxes[s])
                out.append((i, s, x + dx, y + dy, boxes[s].translated(x + dx, y + dy)))
        return out

    def _clip(self, gc: Any) -> None:
        """Clip ``gc`` to this artist's box and path, as a Text's is."""
        on = self.get_clip_on()
        gc.set_clip_rectangle(self.get_clip_box() if on else None)
        gc.set_clip_path(self.get_clip_path() if on else None)

    def get_window_extent(self, renderer: Any = None) -> Any:
        if renderer is None:
            figure: Any = self.get_figure(root=True)
            renderer = figure._get_renderer()
        extents = [extent for *_, extent in self._placed(renderer)]
        return Bbox.union(extents) if extents else Bbox.null()

    def draw(self, renderer: Any) -> None:
        if not self.get_visible() or not self._texts:
            return
        renderer.open_group("texts", self.get_gid())
        height = renderer.get_canvas_width_height()[1]
        by_colour: dict[tuple[float, ...], list[tuple[str, float, float]]] = {}
        for i, s, x, y, _extent in self._placed(renderer):
            by_colour.setdefault(self._rgba[i], []).append((s, x, y))
        for rgba, texts in by_colour.items():
            gc = renderer.new_gc()
            gc.set_foreground(rgba, isRGBA=True)
            gc.set_alpha(self.get_alpha())
            gc.set_antialiased(self._template.get_antialiased())
            self._clip(gc)
            for s, x, y in texts:
                renderer.draw_text(gc, x, height - y if renderer.flipy() else y, s, self._font, 0.0)
            gc.restore()
        renderer.close_group("texts")
        self.stale = False


def write_cells(
    ax: Any,
    x: ArrayLike,
    y: ArrayLike,
    texts: Sequence[str],
    *,
    fontsize: float,
    colors: Sequence[Any] | Any = "black",
    ha: str = "center",
    va: str = "center",
) -> CellTexts:
    """Write ``texts`` at the data points (``x``, ``y``) of ``ax``, clipped to it as
    ``ax.text`` would, and return the artist (its strings: ``get_texts()``)."""
    cells = CellTexts(
        np.column_stack([x, y]),
        texts,
        colors=colors,
        fontproperties=FontProperties(size=fontsize),
        ha=ha,
        va=va,
        transform=ax.transData,
    )
    ax.add_artist(cells)  # clipped to the Axes' box, as ax.text
    return cells


def write_grid(
    ax: Any,
    data: np.ndarray,
    text: Callable[[float], str],
    *,
    fontsize: float,
    light: tuple[float, float],
) -> CellTexts:
    """Write ``text(v)`` in each cell of a heatmap's ``data`` (rows x columns, as
    ``ax.imshow`` shows them) that is not NaN: black where ``light[0] < v < light[1]`` (a
    light colour under it), else white."""
    rows, cols = np.nonzero(~np.isnan(data))
    shown = data[rows, cols]
    return write_cells(
        ax,
        cols,
        rows,
        [text(v) for v in shown],
        fontsize=fontsize,
        colors=["black" if light[0] < v < light[1] else "white" for v in shown],
    )


class CellTable(Table):
    """A :class:`~matplotlib.table.Table` (its cells, ``get_celld()``, as matplotlib's) laid
    out once when made and drawn in two passes: every cell's rectangle, one graphics context
    per colour, then every text (:class:`CellTexts`)."""

    _cells: dict[tuple[int, int], Cell]  # Table's own (its stubs leave its private parts out)

    def _lay_out(self) -> None:
        """Place the cells (as matplotlib does at each draw, here once) and make the texts'
        artist from their places."""
        self._update_positions(None)  # type: ignore[attr-defined]  # matplotlib's own layout
        cells = self.get_celld()
        keys = sorted(cells)
        points, texts, rgba, ha = [], [], [], []
        for key in keys:
            cell = cells[key]
            text = cell.get_text()
            loc = text.get_horizontalalignment()
            x, y, w, h = cell.get_x(), cell.get_y(), cell.get_width(), cell.get_height()
            share = {"center": 0.5, "left": cell.PAD, "right": 1 - cell.PAD}[loc]
            # the cell's own Text stands where it is drawn (for its extent, as measured)
            text.set_transform(self.get_transform())
            text.set_position((x + w * share, y + h / 2))
            points.append((x + w * share, y + h / 2))
            texts.append(text.get_text())
            rgba.append(text.get_color())
            ha.append(loc)
        if len(set(ha)) > 1:
            raise ValueError(f"a CellTable aligns every cell alike, not {sorted(set(ha))}")
        first = cells[keys[0]].get_text()
        self._texts = CellTexts(
            points,
            texts,
            colors=rgba,
            fontproperties=first.get_fontproperties(),
            ha=ha[0] if ha else "center",
            va="center",
            transform=self.get_transform(),
        )
        self._texts.set_figure(self.get_figure(root=False))

    def _get_grid_bbox(self, renderer: Any) -> Any:
        """The cells' union in the table's (Axes) coordinates, read from their places (as
        matplotlib's, which measures each cell's drawn extent and maps it back)."""
        cells = [cell for (row, col), cell in self.get_celld().items() if row >= 0 and col >= 0]
        return Bbox.from_extents(
            min(c.get_x() for c in cells),
            min(c.get_y() for c in cells),
            max(c.get_x() + c.get_width() for c in cells),
            max(c.get_y() + c.get_height() for c in cells),
        )

    def get_window_extent(self, renderer: Any = None) -> Any:
        return self._get_grid_bbox(renderer).transformed(self.get_transform())

    def draw(self, renderer: Any) -> None:
        if not self.get_visible():
            return
        renderer.open_group("table", gid=self.get_gid())
        transform = self.get_transform()
        by_look: dict[tuple, list[Any]] = {}
        celld = self.get_celld()
        for key in sorted(celld):
            cell = celld[key]
            look = (cell.get_facecolor(), cell.get_edgecolor(), cell.get_linewidth())
            by_look.setdefault(look, []).append(cell)
        for (face, edge, width), cells in by_look.items():
            gc = renderer.new_gc()
            gc.set_foreground(edge, isRGBA=True)
            gc.set_linewidth(width)
            gc.set_joinstyle("miter")
            gc.set_capstyle("butt")
            gc.set_antialiased(True)
            for cell in cells:
                x, y, w, h = cell.get_x(), cell.get_y(), cell.get_width(), cell.get_height()
                (x0, y0), (x1, y1) = transform.transform([(x, y), (x + w, y + h)])
                path = Path([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], closed=True)
                renderer.draw_path(gc, path, IdentityTransform(), face)
            gc.restore()
        self._texts.draw(renderer)
        renderer.close_group("table")
        self.stale = False


def cell_table(
    ax: Any,
    rows: Sequence[Sequence[str]],
    labels: Sequence[str],
    *,
    fontsize: float,
    loc: str = "center",
    widths: Sequence[float] | None = None,
    bbox: tuple[float, float, float, float] | None = None,
    row_height: float | None = None,
    faces: Sequence[Any] | None = None,
    header_face: Any = "0.9",
    linewidth: float = 0.3,
    spaced: bool = False,
) -> CellTable:
    """A table of ``rows`` (strings) under the column ``labels`` on ``ax`` (Axes
    coordinates), centred text, thin black borders, the header row in ``header_face`` and
    each row in ``faces`` (white if None), laid out as matplotlib's ``ax.table`` would:
    ``loc`` and ``bbox`` as there; ``widths`` the columns' shares (else each column as wide
    as its widest text and a tenth of it either side, and, ``spaced``, a space either side:
    a narrow column never touches its borders); ``row_height`` in Axes units (else
    matplotlib's, a tenth taller where the widths are measured)."""
    table = CellTable(ax, loc, None if bbox is None else Bbox.from_bounds(*bbox))
    table.auto_set_font_size(False)
    font = FontProperties(size=fontsize)
    # matplotlib's row: its Table's type size (10 points) and a fifth, in Axes units
    approx = Table.FONTSIZE / 72 * ax.get_figure(root=True).dpi / ax.bbox.height * 1.2
    height = row_height or approx * (1.1 if widths is None else 1.0)
    grid = [list(labels), *(list(r) for r in rows)]
    if widths is None:
        pad = " " if spaced else ""  # measured, never drawn: a centred text stands as well
        widths = [
            _measured_width(ax, [f"{pad}{row[c]}{pad}" for row in grid], font)
            for c in range(len(labels))
        ]
    for r, row in enumerate(grid):
        face = header_face if r == 0 else ("w" if faces is None else faces[r - 1])
        for c, text in enumerate(row):
            cell = Cell(
                (0, 0),
                widths[c],
                height,
                text=text,
                loc="center",
                fontproperties={"size": fontsize},
                facecolor=face,
            )
            cell.set_linewidth(linewidth)
            table[r, c] = cell
    table._lay_out()
    ax.add_table(table)
    return table


def _measured_width(ax: Any, texts: Sequence[str], font: FontProperties) -> float:
    """The width, in ``ax``'s units, of a column holding ``texts``: the widest and a tenth
    of it either side (matplotlib's ``auto_set_column_width``)."""
    points = max(_MEASURE.get_text_width_height_descent(t, font, False)[0] for t in texts)
    inches = ax.get_position().width * ax.get_figure(root=True).get_figwidth()
    return points / 72 / inches * (1 + 2 * Cell.PAD)
