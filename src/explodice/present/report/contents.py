"""The report's pages, in order: the one list a page is added to.

Each entry of :data:`PAGES` is a :class:`PageSpec`: the page's name, its line in the
contents, and its two functions, ``data(ctx) -> PageData`` (every number of the page is
computed there) and ``draw(ctx, data) -> Figure`` (the page drawn from those numbers, no engine
call). The page's number is its place in the list and its slug (``07-day``, naming its PNG and
its CSVs) the number and the name, so neither is written anywhere else.

:func:`build_pages` walks the list: for each page, data, then drawing, then a
:class:`~explodice.present.report.kit.Page` for the writer.

To add a page: write ``pages/<name>.py`` with ``data`` and ``draw`` (see
:mod:`explodice.present.report.pages`), then add its ``PageSpec`` where it belongs below.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import matplotlib
from matplotlib.figure import Figure

from explodice.core.version import __version__
from explodice.present.config import ReportConfig, in_language, load_config
from explodice.present.labels import N_
from explodice.present.report.kit import Context, Page, PageData
from explodice.present.report.pages import (
    bestiary,
    combat_hits,
    compare,
    day,
    day_policies,
    dc_table,
    defence_base,
    distribution,
    gauge_sizing,
    group,
    haggling,
    initiative,
    level_dcs,
    levels_progression,
    lutte_serree,
    monte_carlo,
    opposed,
    passive,
    readings,
    rerolls,
    rule_of_one,
    save_dc,
    success_curves,
    title,
)
from explodice.present.report.warmup import start_day_warm_up, stop, warm_roll_kernel

__all__ = ["PAGES", "PageSpec", "build_pages"]


@dataclass(frozen=True)
class PageSpec:
    """One page of the report: ``name`` (its slug without the number), ``contents`` (its line
    in the title page's contents, in English, translated there), ``data`` and ``draw``."""

    name: str
    contents: str
    data: Callable[[Context], PageData]
    draw: Callable[[Context, PageData], Figure]


#: The report's pages, in order.
PAGES: list[PageSpec] = [
    PageSpec(
        "title",
        N_("Title page: date, version, rules switches and seed."),
        title.data,
        title.draw,
    ),
    PageSpec(
        "dc-table",
        N_("The DC table: P(success) for each modifier, DC and advantage state, both readings"),
        dc_table.data,
        dc_table.draw,
    ),
    PageSpec(
        "success-curves",
        N_("Success against DC for several modifiers, one line per advantage state"),
        success_curves.data,
        success_curves.draw,
    ),
    PageSpec(
        "distribution",
        N_('The total\'s distribution: 3d6x against d20, "at least" curves and the tail'),
        distribution.data,
        distribution.draw,
    ),
    PageSpec(
        "d20-comparison",
        N_("The d20 comparison: equivalent DCs and the equivalent DC table"),
        compare.data,
        compare.draw,
    ),
    PageSpec(
        "rule-of-one",
        N_("The rule of 1: the drain of one roll and the success/drain frontier of cancelling"),
        rule_of_one.data,
        rule_of_one.draw,
    ),
    PageSpec(
        "day",
        N_("The party's gauges over an adventuring day: every gauge that can empty, exactly"),
        day.data,
        day.draw,
    ),
    PageSpec(
        "day-policies",
        N_(
            "The party's day under four policies, exactly: keep, cancel, the best fixed λ and "
            "the optimal state-dependent player"
        ),
        day_policies.data,
        day_policies.draw,
    ),
    PageSpec(
        "opposed",
        N_("Opposed tests: win, tie (status quo) and loss by the difference of modifiers"),
        opposed.data,
        opposed.draw,
    ),
    PageSpec(
        "passive",
        N_("Passive values against the roll they stand for: median, mean and the matching base"),
        passive.data,
        passive.draw,
    ),
    PageSpec(
        "group",
        N_("Group tests and working together, for the party"),
        group.data,
        group.draw,
    ),
    PageSpec(
        "haggling",
        N_("Haggling: the price change for each modifier and item type of the seed's table"),
        haggling.data,
        haggling.draw,
    ),
    PageSpec(
        "monte-carlo",
        N_("The Monte Carlo engine checked against the exact one: bands and convergence"),
        monte_carlo.data,
        monte_carlo.draw,
    ),
    PageSpec(
        "rerolls",
        N_("Rerolls: what a reroll on failure and the Lucky trait are worth, in success and drain"),
        rerolls.data,
        rerolls.draw,
    ),
    PageSpec(
        "initiative",
        N_("Initiative: each creature's rank and P(the party acts first), both systems"),
        initiative.data,
        initiative.draw,
    ),
    PageSpec(
        "lutte-serree",
        N_("Lutte serrée: how often a test ties its DC, and what the bids cost each side"),
        lutte_serree.data,
        lutte_serree.draw,
    ),
    PageSpec(
        "levels-progression",
        N_("Across levels: each build's success by band and level, 3d6x beside d20"),
        levels_progression.data,
        levels_progression.draw,
    ),
    PageSpec(
        "level-dcs",
        N_("Across levels: the DC of each band per level that keeps each build on target"),
        level_dcs.data,
        level_dcs.draw,
    ),
    PageSpec(
        "gauge-sizing",
        N_("Across levels: the gauge points each build needs, against what it has"),
        gauge_sizing.data,
        gauge_sizing.draw,
    ),
    PageSpec(
        "save-dc",
        N_("Across levels: the base of a save DC that matches 5e's odds"),
        save_dc.data,
        save_dc.draw,
    ),
    PageSpec(
        "combat-hits",
        N_("Combat: hit chances by level, 3d6x beside 5e, and critical hits per reading"),
        combat_hits.data,
        combat_hits.draw,
    ),
    PageSpec(
        "defence-base",
        N_("Combat: the base of the defence value that keeps 5e's hit chances"),
        defence_base.data,
        defence_base.draw,
    ),
    PageSpec(
        "bestiary-fp",
        N_("The bestiary: the typical monster of each power factor, and its 3d6x numbers"),
        bestiary.data_fp,
        bestiary.draw_fp,
    ),
    PageSpec(
        "bestiary",
        N_("The bestiary: the SRD's monsters converted, and those a flat conversion moves most"),
        bestiary.data_moves,
        bestiary.draw_moves,
    ),
    PageSpec(
        "readings",
        N_(
            "Which readings matter: each open reading of the seeds moved alone, and the largest "
            "change it makes, ranked"
        ),
        readings.data,
        readings.draw,
    ),
]


def build_pages(config: ReportConfig | None = None, *, date: str | None = None) -> Iterator[Page]:
    """Build the report's pages one at a time, in the order of :data:`PAGES` (a generator:
    each figure can be written and released before the next is drawn). Each page is its
    data, then its drawing."""
    config = load_config() if config is None else in_language(config, config.lang)
    pages = list(PAGES)
    ctx = Context(
        config,
        __version__,
        date or _dt.date.today().isoformat(),
        contents=tuple((number, spec.contents) for number, spec in enumerate(pages, 1))[1:],
    )
    ctx.cache["warm-up"] = start_day_warm_up()
    try:
        # Every text of a page is written literally: a name holding `$` is not mathtext (the
        # setting holds while a page is drawn and while the caller saves it, between yields).
        with matplotlib.rc_context({"text.parse_math": False}):
            warm_roll_kernel()  # compiles here while the day kernel compiles in the other one
            for number, spec in enumerate(pages, 1):
                data = spec.data(ctx)
                figure = spec.draw(ctx, data)
                yield Page(
                    number, f"{number:02d}-{spec.name}", spec.contents, figure, dict(data.tables)
                )
    finally:
        stop(ctx.cache.pop("warm-up", None))
