"""Across levels: the DC of each band at each level that keeps each build's main test on the
band's target (as Pathfinder 2e prints a DC per level), beside the single flat table that
stays closest over levels 1-20 and the game's printed one, with each table's worst miss."""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from explodice.game.build import parse_test
from explodice.present.builds import first_builds, shown_builds
from explodice.present.formats import Formatter
from explodice.present.labels import build_test_label, difficulty_label
from explodice.present.plots.cells import cell_table
from explodice.present.report.kit import Context, PageData, page_figure
from explodice.questions.level_dcs import LevelDCsInputs
from explodice.questions.registry import ask

__all__ = ["MAX_BUILDS", "data", "draw"]

#: The builds the page's table has room for (the CSV holds every build).
MAX_BUILDS = 5


def data(ctx: Context) -> PageData:
    """The level-based, flat and typical 3d6x DC tables of each build's main test (the
    question ``level_dcs``, exact)."""
    shown = shown_builds(ctx.config)
    answer = ask("level_dcs", LevelDCsInputs(tuple(shown.builds), ctx.rules))
    return PageData({"dcs": answer.csv_table("dcs")}, {"builds": shown, "answer": answer})


def _row(rows: pd.DataFrame, cell: Any) -> list[str]:
    """One band of one build: its DC at each level, then each table's worst miss and DC."""
    by = {t: part.sort_values("level") for t, part in rows.groupby("table")}
    miss = {t: cell(part.worst_miss.iloc[0], "worst_miss") for t, part in by.items()}
    return [
        *(cell(v, "dc") for v in by["level"].dc),
        miss["level"],
        cell(by["flat"].dc.iloc[0], "dc"),
        miss["flat"],
        cell(by["typical"].dc.iloc[0], "dc"),
        miss["typical"],
    ]


def draw(ctx: Context, data: PageData) -> Figure:
    _, lang = ctx._, ctx.lang
    answer = data.shown["answer"]
    frame = answer.tables["dcs"]
    shown = data.shown["builds"]
    fmt, prov = Formatter(lang), answer.provenance

    def cell(v: Any, col: str) -> str:  # each number by its column's kind
        return fmt.cell(v, answer.kind(col), exact=prov.exact, cut=prov.cut)

    kept, left_out = first_builds(list(dict.fromkeys(frame.build)), MAX_BUILDS, lang)
    levels = sorted(set(frame.level))
    rows, shade = [], []
    for k, name in enumerate(kept):
        part = frame[frame.build == name]
        first = part.iloc[0]
        test = build_test_label(first.test, *_kind(part), lang)
        for i, band in enumerate(dict.fromkeys(part.difficulty)):
            cells = _row(part[part.difficulty == band], cell)
            who = f"{name} · {test}" if i == 0 else ""
            rows.append(
                [
                    who,
                    difficulty_label(band, lang),
                    cell(part[part.difficulty == band].target.iloc[0], "target"),
                    *cells,
                ]
            )
            shade.append(k % 2 == 1)
    columns = [
        _("build · test"),
        _("band"),
        _("target"),
        *(str(lv) for lv in levels),
        _("miss (per level)"),
        _("flat"),
        _("miss (flat)"),
        _("typical"),
        _("miss (typical)"),
    ]
    table = pd.DataFrame(rows, columns=range(len(columns)))
    table.columns = columns
    caption = _(
        "For each build's main test and each band, the 3d6x DC at each level (columns 1 to "
        "{last}) whose P(success) is closest to the band's target (ties: the higher DC), then "
        "the single flat DC for every level with the smallest worst miss, and the game's "
        "printed DC; worst miss: the largest distance from the target over the levels. Exact. "
        "{builds}."
    ).format(last=max(levels), builds=shown.note(lang, ctx.config.source))
    caption += f" {left_out}" if left_out else ""
    fig, axes = page_figure(ctx, _("Across levels: a DC table per level"), caption)
    axes[0].remove()
    height = min(0.74, 0.023 * (len(table) + 1))
    _draw(fig, table, (0.03, 0.80 - height, 0.94, height), len(levels), shade)
    return fig


def _draw(fig: Figure, table: pd.DataFrame, rect: tuple, n_levels: int, shade: list) -> None:
    """The DC table: narrow equal columns for the levels, wider ones for the names and the
    misses, every other build shaded."""
    ax = fig.add_axes(rect)
    ax.axis("off")
    # the misses' columns hold the French headers too ("écart (par niveau)", "unique")
    widths = [0.11, 0.1, 0.045] + [0.023] * n_levels + [0.086, 0.036, 0.072, 0.045, 0.08]
    total = sum(widths)
    cell_table(
        ax,
        [[str(v) for v in row] for row in table.itertuples(index=False)],
        [str(c) for c in table.columns],
        fontsize=6.5,
        loc="upper center",
        widths=[w / total for w in widths],
        row_height=1 / (len(table) + 1),
        faces=["0.94" if s else "w" for s in shade],
        header_face="0.85",
    )


def _kind(part: pd.DataFrame) -> tuple[str, str]:
    """The kind and ability of the test of a build's rows, read from its name."""
    t = parse_test(part.test.iloc[0])
    return t.kind, t.ability
