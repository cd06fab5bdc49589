"""The title page: date, version, rules switches, seed, sample sizes, the party and the
contents."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from explodice.game.character import ABILITIES
from explodice.game.rules import switches
from explodice.game.tables import DC_TABLES, DIFFICULTIES
from explodice.present import i18n
from explodice.present.i18n import Lang
from explodice.present.labels import (
    ABILITY,
    policy_label,
    reading_line,
)
from explodice.present.report.kit import PAGE_SIZE, Context, PageData, draw_table

__all__ = ["data", "draw"]

#: The party table's columns the page shows (the CSV has the proficiency bonus too).
SHOWN = ("name", "level", "actor", "policy", *ABILITIES, "PA", "PM", "PF", "PH")


def data(ctx: Context) -> PageData:
    """The party: each character's level, actor, policy, scores and gauge maxima."""
    party = ctx.config.party
    return PageData({"party": _party_frame(party)} if party else {})


def _party_frame(party: Sequence[Any]) -> pd.DataFrame:
    rows = []
    for ch in party:
        row: dict[str, Any] = {
            "name": ch.name,
            "level": ch.level,
            "actor": ch.actor,
            "policy": str(ch.policy),
            "proficiency_bonus": ch.proficiency_bonus,
        }
        row |= {a: ch.scores[a] for a in ABILITIES}
        row |= ch.gauges()
        rows.append(row)
    return pd.DataFrame(rows)


def _reading(name: str, value: Any, lang: Lang) -> str:
    """A reading's line: ``Lucky rerolls a 1: before the rule of 1's choice ...``."""
    _ = i18n.translator(lang)
    question, answer = reading_line(name, value, lang)
    return _("{question}: {answer}").format(question=question, answer=answer)


def _settings(ctx: Context) -> list[str]:
    """The lines of the title page's left column: date, version, seed, samples and every
    rules switch, in the report's language."""
    c, _, lang = ctx.config, ctx._, ctx.lang
    if c.day_method == "simulate":
        days = _("days simulated: {days}").format(days=i18n.number(c.days, lang, 0))
    else:
        days = _("the day: exact (no days simulated)")
    return [
        _("Date: {date}").format(date=ctx.day()),
        _("explodice version {version}; configuration: {source}").format(
            version=ctx.version, source=_(c.source)
        ),
        _("Seed: {seed}").format(seed=c.seed),
        _("Monte Carlo checks: n = {n} rolls; {days}").format(
            n=i18n.number(c.n, lang, 0), days=days
        ),
        "",
        _("Rules switches (docs/rules.md):"),
        # every switch, in its declared words (game/rules.py): a new switch is listed by itself
        *("    " + _reading(sw.name, getattr(c.rules, sw.name), lang) for sw in switches()),
    ]


def draw(ctx: Context, data: PageData) -> Figure:
    c, _, lang = ctx.config, ctx._, ctx.lang
    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.06, 0.88, c.title, fontsize=24, weight="bold")
    lines = _settings(ctx)
    exact = _(
        "Exact numbers come from the exact engine (every cut of the infinite explosion leaves "
        "out less than 10⁻¹²); simulated numbers state n and seed and carry 95% Wilson "
        "intervals."
    )
    lines = [
        w
        for line in lines
        for w in (
            textwrap.wrap(
                i18n.keep_together(line),
                78,
                subsequent_indent=" " * (len(line) - len(line.lstrip()) + 4),
                break_on_hyphens=False,
            )
            or [""]
        )
    ]
    # the settings fill the left column down to the DC table's heading (at 0.385): a longer
    # list (French's longer lines, a switch added) takes smaller type, never runs into it
    room = (0.80 - 0.385) * fig.get_figheight() * 72  # points
    size = min(9.0, room / (1.4 * max(len(lines), 1)))
    fig.text(0.06, 0.80, "\n".join(lines), fontsize=size, va="top", linespacing=1.4)
    fig.text(0.06, 0.05, textwrap.fill(exact, 170), fontsize=7.5, va="bottom", color="0.25")
    contents = [
        w
        for number, line in ctx.contents
        for w in textwrap.wrap(
            i18n.keep_together(f"{number:>2}. {_(line)}"), 80, subsequent_indent="      "
        )
    ]
    fig.text(0.55, 0.80, _("Contents"), fontsize=11, weight="bold", va="top")
    # the contents fill the right column down to the note on exact numbers (two lines at
    # 0.05): a long contents (a chapter added, French's longer lines) takes smaller type
    room = (0.765 - 0.085) * fig.get_figheight() * 72  # points
    size = min(8.5, room / (1.35 * max(len(contents), 1)))
    fig.text(0.55, 0.765, "\n".join(contents), fontsize=size, va="top", linespacing=1.35)
    bands = pd.DataFrame(
        [
            [_("3d6x DC")] + [DC_TABLES["3d6x"][d] for d in DIFFICULTIES],
            [_("d20 DC")] + [DC_TABLES["d20"][d] for d in DIFFICULTIES],
        ],
        columns=[_("difficulty")] + [_(d) for d in DIFFICULTIES],
    )
    fig.text(0.06, 0.365, _("The typical DC table"), fontsize=10, weight="bold")
    draw_table(fig, bands, (0.06, 0.26, 0.42, 0.095), loc="upper left")
    if "party" in data.tables:
        shown = data.tables["party"][list(SHOWN)].copy()
        shown["policy"] = [policy_label(ch.policy, lang) for ch in c.party]
        shown["actor"] = shown["actor"].map(_)
        shown.columns = [_(n) for n in ("name", "level", "actor", "policy")] + [
            ABILITY[lang].get(a, a) for a in shown.columns[4:]
        ]
        height = 0.035 * (len(shown) + 1)
        fig.text(
            0.06,
            0.10 + height + 0.015,
            _("The party (scores and gauge maxima)"),
            fontsize=10,
            weight="bold",
        )
        draw_table(fig, shown, (0.06, 0.10, 0.42, height), loc="upper left")
    fig.text(0.06, 0.012, ctx.footer(), fontsize=6.5, color="0.4", va="bottom")
    return fig
