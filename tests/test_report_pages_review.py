"""The pages review's items on pages 03, 04, 06, 08, 10, 11, 13 and 14: what each page's
caption, legend and axes say, read from the drawn figure and checked against numbers derived
by hand (tests/hand.py) or the page's own table, never against the page's own sentence."""

from __future__ import annotations

import dataclasses

import matplotlib
import pytest

matplotlib.use("Agg")

from explodice.present.labels import policy_label  # noqa: E402
from explodice.present.report import load_config  # noqa: E402
from explodice.present.report.kit import Context  # noqa: E402
from explodice.present.report.pages import (  # noqa: E402
    day_policies,
    distribution,
    group,
    monte_carlo,
    passive,
    rerolls,
    rule_of_one,
    success_curves,
)
from tests.hand import HAND, sf  # noqa: E402


def _ctx(lang: str = "en", **config: object) -> Context:
    return Context(dataclasses.replace(load_config(), lang=lang, **config), "x", "2026-12-05")


def _drawn(module: object, ctx: Context) -> tuple[object, str]:
    fig = module.draw(ctx, module.data(ctx))  # type: ignore[attr-defined]
    return fig, fig.texts[1].get_text().replace("\n", " ")


def _ticks(ax: object) -> list[str]:
    ax.figure.canvas.draw()  # type: ignore[attr-defined]
    return [t.get_text() for t in ax.get_yticklabels() if t.get_text()]  # type: ignore[attr-defined]


def test_passive_caption_gives_the_matching_base_of_each_state():
    # item 6: "a base of 11 would match the median" was false under disadvantage
    ctx = _ctx()
    data = passive.data(ctx)
    fig, caption = _drawn(passive, ctx)
    # by hand: 3d6x's median per state, and the base b with passive b (+5/-5) = median
    for state, shift in (("normal", 0), ("advantage", 5), ("disadvantage (subtract)", -5)):
        pmf = HAND[state]
        median = next(t for t in range(-20, 60) if sf(pmf, t + 1) <= 0.5)
        assert f"{state}: {median - shift}" in caption, (state, caption)
    assert "disadvantage (subtract): 13" in caption  # the review's number
    assert "a base of 11 instead of 10" not in caption
    assert len(data.tables["passive"])


def test_distribution_shows_the_negative_totals_and_percent_ticks():
    # item 7: 3d6x+4 with disadvantage (subtract) goes below 0; item 28: % on every panel
    ctx = _ctx()
    fig, caption = _drawn(distribution, ctx)
    a, b, _c = fig.axes[:3]
    assert a.get_xlim()[0] < 0 and b.get_xlim()[0] < 0
    below = 1 - sf(HAND["disadvantage (subtract)"], -4)  # P(3d6x - d6x + 4 < 0), by hand
    assert below == pytest.approx(0.0180, abs=5e-4)
    assert f"falls below 0 with probability {100 * below:.1f}%" in caption, caption
    assert all(t.endswith("%") for t in _ticks(a)), _ticks(a)
    assert b.get_ylim()[1] <= 1.02 and fig.legends  # one legend under the panels


def test_success_curves_keep_the_axis_at_100_percent():
    # item 28: the legend grew the y axis to about 130%
    fig, _caption = _drawn(success_curves, _ctx())
    for ax in fig.axes[:2]:
        assert ax.get_ylim()[1] <= 1.02 and ax.get_legend() is None
    assert fig.legends, "one legend under both panels"


def test_group_legend_names_each_members_policy():
    # item 8: two members at +1, one certain at DC 4 and one not, and nothing said why
    ctx = _ctx()
    fig, caption = _drawn(group, ctx)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    for ch in ctx.config.party:
        mine = [x for x in labels if x.startswith(f"{ch.name} alone")]
        assert len(mine) == 1 and policy_label(ch.policy, "en") in mine[0], (ch.name, labels)
    assert "rule-of-1 policy" in caption


def test_monte_carlo_says_what_the_interval_means_and_writes_its_method_in_words():
    # item 10: the estimate at n = 200,000 lies just outside its 95% interval
    ctx = _ctx()
    data = monte_carlo.data(ctx)
    conv = data.tables["convergence"]
    inside = (conv.ci_low <= conv.exact) & (conv.exact <= conv.ci_high)
    assert list(conv.covers) == list(inside)
    fig = monte_carlo.draw(ctx, data)
    caption = fig.texts[1].get_text().replace("\n", " ")
    assert "about 1 estimate in 20" in caption
    assert f"{int(inside.sum())} of {len(conv)} intervals" in caption
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    line = next(t for t in texts if "seed=" in t and "n = " in t)  # the right panel's note
    assert "Monte Carlo, n = 1,000 to 200,000" in line and "simulate" not in line


def test_rerolls_gain_axis_is_signed():
    # item 19: "gained" is a change: written with its sign, on the axis as in the table
    fig, _caption = _drawn(rerolls, _ctx())
    ticks = _ticks(fig.axes[0])
    assert any(t.startswith("+") for t in ticks) and all(t[0] in "+0−" for t in ticks), ticks


def test_day_policies_explains_the_best_fixed_lambda_0_and_says_sans_tirage():
    # item 21
    _fig, caption = _drawn(day_policies, _ctx())
    assert "λ = 0 still cancels a pair" in caption
    _fig, caption = _drawn(day_policies, _ctx("fr"))
    assert "sans tirage" in caption and "échantillonnage" not in caption


def test_rule_of_one_star_carries_the_tables_lambda():
    # item 22: the star read "λ≥0.2" beside a table's 0.222
    ctx = _ctx()
    data = rule_of_one.data(ctx)
    fig = rule_of_one.draw(ctx, data)
    front = data.tables["frontier"]
    texts = [t.get_text() for t in fig.axes[1].texts]
    for lam in front.drop_duplicates("case").implied_lambda:
        assert f"implied λ = {lam:.3f}" in texts, (lam, texts)
    legend = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "implied λ" in legend and not any("knee" in x for x in legend)
