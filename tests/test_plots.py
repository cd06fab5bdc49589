"""Plot functions draw onto the Axes they are given (Agg backend), label it and return it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from explodice import ExplodiceError, Roll, Rules, d20, exact, frontier, simulate, success_table
from explodice.present import plots
from explodice.present.plots.cells import CellTexts


@pytest.fixture
def ax():
    fig = Figure(figsize=(6, 4))
    yield fig.add_subplot()
    fig.clear()


def _check(ax, returned):
    assert returned is ax
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert ax.has_data() or ax.images
    ax.figure.canvas.draw()  # renders without error


def _texts(ax) -> str:
    return " ".join(t.get_text() for t in ax.texts)


def test_pmf_and_at_least_share_a_scale_and_name_their_provenance(ax):
    dists = {"3d6x+4": exact(Roll(4)), "d20+4": d20(Roll(4))}
    _check(ax, plots.plot_pmf(dists, ax=ax))
    assert "d20 exact" in _texts(ax) and "disadvantage=subtract" in _texts(ax)
    assert len(ax.get_lines()) == 2


@pytest.mark.parametrize("log", [False, True])
def test_at_least_curve_with_bands_and_tail(ax, log):
    out = plots.plot_at_least(
        [exact(Roll(0)), d20(Roll(0))], ax=ax, log=log, bands=plots.DC_BANDS_3D6X
    )
    _check(ax, out)
    assert (ax.get_yscale() == "log") is log
    # the step curve drawn is P(total >= k) read from the distribution
    line = ax.get_lines()[0]
    k, y = line.get_data()
    assert y[list(k).index(8)] == pytest.approx(181 / 216)


def test_success_curves_one_line_per_modifier_and_state_with_named_bands(ax):
    table = success_table([0, 4], range(3, 30), readings=["subtract"])
    _check(ax, plots.plot_success_curves(table, ax=ax))
    assert len(ax.get_lines()) == 2 * 3
    assert "moderate" in _texts(ax)
    styles = {line.get_linestyle() for line in ax.get_lines()}
    assert len(styles) == 3
    assert "modifier +4, advantage" in [line.get_label() for line in ax.get_lines()]


def test_success_curves_named_series_and_own_title(ax):
    table = pd.DataFrame(
        {
            "series": ["group"] * 3 + ["alone"] * 3,
            "dc": [8, 12, 16] * 2,
            "p": [0.9, 0.5, 0.2, 0.8, 0.4, 0.1],
            "advantage": "normal",
            "method": "exact",
        }
    )
    _check(ax, plots.plot_success_curves(table, ax=ax, hue="series", title="Stealth"))
    # a text hue is not prefixed with its column's name, and one style is not repeated
    assert [line.get_label() for line in ax.get_lines()] == ["group", "alone"]
    assert ax.get_title() == "Stealth"


def test_heatmap_annotates_every_cell_with_a_percentage(ax):
    table = success_table([0, 2, 4], advantages=["normal"])
    _check(ax, plots.plot_heatmap(table, ax=ax))
    written = [t for a in ax.artists if isinstance(a, CellTexts) for t in a.get_texts()]
    cells = [t for t in written if t.endswith("%")]
    assert len(cells) == 3 * 6
    p = table.query("modifier == 0 and dc == 8").p.iloc[0]
    assert f"{p:.0%}" in cells


def test_drain_and_frontier(ax):
    _check(
        ax,
        plots.plot_drain(
            {"keep": exact(Roll(0)), "cancel": exact(Roll(0, policy="cancel"))}, ax=ax
        ),
    )
    fig = Figure()
    other = fig.add_subplot()
    front = frontier(2, 16)
    _check(other, plots.plot_frontier(front, ax=other))
    labels = [t.get_text() for t in other.texts]
    assert "keep" in labels and "cancel" in labels


def test_monte_carlo_band_and_convergence_state_n_and_seed(ax):
    sim = simulate(Roll(2), n=20_000, seed=5, threads=1)
    _check(ax, plots.plot_mc_bands(sim, exact=exact(Roll(2)), ax=ax, dcs=range(5, 30)))
    assert "n=20,000" in _texts(ax) and "seed=5" in _texts(ax)
    # an exact distribution has no band: it was a TypeError from babel formatting n=None
    with pytest.raises(ExplodiceError, match="`sim` must be a simulated Distribution"):
        plots.plot_mc_bands(exact(Roll(2)), ax=ax)
    fig = Figure()
    other = fig.add_subplot()
    rows = []
    for n in (1_000, 10_000):
        s = simulate(Roll(2), n=n, seed=2026, threads=1)
        lo, hi = s.ci(16)
        rows.append(
            {
                "n": n,
                "p": s.p_success(16),
                "ci_low": lo,
                "ci_high": hi,
                "seed": 2026,
                "method": "simulate",
            }
        )
    _check(
        other,
        plots.plot_convergence(pd.DataFrame(rows), exact=exact(Roll(2)).p_success(16), ax=other),
    )
    assert other.get_xscale() == "log"
    assert "seed=2026" in _texts(other)  # a seed is a name, not a quantity: no "2,026"


def test_equivalent_dc_depletion_outcomes_and_bars(ax):
    eq = pd.DataFrame(
        {
            "profile": ["a"] * 3,
            "d20_dc": [5, 10, 15],
            "dc_3d6x": [8, 13, 16],
            "gap": [0.01, -0.02, 0.0],
        }
    )
    _check(ax, plots.plot_equivalent_dc(eq, ax=ax))
    fig = Figure()
    axes = fig.subplots(1, 3)
    empty = pd.DataFrame(
        {
            "character": "A",
            "gauge": ["PA"] * 4,
            "roll": np.arange(4),
            "p": [0, 0.1, 0.3, 0.5],
            "ci_low": [0, 0.05, 0.2, 0.4],
            "ci_high": [0, 0.15, 0.4, 0.6],
            "n_days": 100,
            "seed": "1",
        }
    )
    _check(axes[0], plots.plot_depletion(empty, ax=axes[0]))
    assert "n_days=100" in _texts(axes[0])
    outcomes = pd.DataFrame(
        {"modifier": [0, 2], "win": [0.4, 0.6], "tie": [0.2, 0.1], "loss": [0.4, 0.3]}
    )
    _check(axes[1], plots.plot_outcomes(outcomes, x="modifier", ax=axes[1]))
    _check(axes[2], plots.plot_bars(outcomes, x="modifier", y="win", ax=axes[2], percent=True))


def test_current_axes_used_when_none_given():
    import matplotlib.pyplot as plt

    fig = plt.figure()
    try:
        ax = plots.plot_pmf(exact(Roll(0)))
        assert ax is fig.gca()
    finally:
        plt.close(fig)


def test_provenance_names_the_reading_each_panel_shows():
    # the DC-table page draws a 'drop' panel from a table computed with both readings: its
    # provenance must say drop (it said the rules' subtract), and both when both are shown
    table = success_table([0], [8, 16], readings="both", rules=Rules())
    drop = table[table.advantage.isin(["normal", "disadvantage (drop)"])]
    assert "disadvantage=drop" in plots.frame_provenance(drop)
    assert "disadvantage=subtract/drop" in plots.frame_provenance(table)
    assert "disadvantage=subtract," in plots.frame_provenance(table[table.advantage == "normal"])


def _subject_modules():
    """The modules of the package explodice.present.plots, one per subject."""
    import importlib
    import pkgutil

    return [
        importlib.import_module(f"{plots.__name__}.{m.name}")
        for m in pkgutil.iter_modules(plots.__path__)
    ]


#: The public plotting functions of the presentation layer, each reached as ``explodice.plots``
#: names it, whichever subject's module draws it.
PLOTS = [n for n in plots.__all__ if n.startswith("plot_")]


def test_explodice_plots_names_every_plotting_function():
    import explodice

    modules = _subject_modules()
    assert {"style", "roll", "day", "levels", "readings"} <= {
        m.__name__.rsplit(".", 1)[1] for m in modules
    }
    drawn = {n: m for m in modules for n in m.__all__ if n.startswith("plot_")}
    assert set(PLOTS) == set(drawn) and len(PLOTS) == len(set(PLOTS)) >= 17
    for name, module in drawn.items():
        assert getattr(explodice.plots, name) is getattr(module, name), name
        assert callable(getattr(explodice.plots, name)), name


def test_the_style_module_imports_no_subject_module():
    # the package has no circle: the subjects import the style, never the other way round
    import ast
    import inspect

    from explodice.present.plots import style

    tree = ast.parse(inspect.getsource(style))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not {m for m in imported if m.startswith(plots.__name__)}


def test_the_levels_plots_draw_on_the_axes_given(ax):
    from explodice import fit_save_dc, progression, reference_builds

    builds = reference_builds()[:1]
    grid = progression(builds, levels=[1, 2], tests="main")
    # a heatmap whose rows are the bands, named on its ticks (no y label)
    assert plots.plot_level_grid(grid[grid.system == "3d6x"], ax=ax, title="grid") is ax
    assert ax.get_xlabel() and ax.get_title() == "grid" and ax.images
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "very easy"
    ax.figure.canvas.draw()
    ax.clear()
    # rows as size_gauges gives them (the plot reads level, gauge, needed, have)
    needs = pd.DataFrame(
        {"level": [1, 2, 1, 2], "gauge": ["PA", "PA", "PM", "PM"], "needed": [9, 10, 4, 5],
         "have": [16, 18, 3, 6]}
    )  # fmt: skip
    _check(ax, plots.plot_gauge_needs(needs, ax=ax, title="needs"))
    ax.clear()
    fit = fit_save_dc(builds, levels=[1, 2])
    _check(ax, plots.plot_save_dc_fit(fit.gaps, base=fit.base, ax=ax, title="fit"))
    ax.clear()
    _check(ax, plots.plot_save_dc_bases(fit.bases, ax=ax, title="bases"))


def test_the_readings_plot_draws_on_the_axes_given(ax):
    from explodice import sensitivity
    from explodice.present.readings import largest_cells, readings_frame
    from explodice.present.report import load_config

    s = sensitivity(load_config(), modifiers=[0], dcs=[12], parts=("dc_table",))
    frame = readings_frame(s.table, largest_cells(s), "en")
    returned = plots.plot_readings(frame, ax=ax, title="readings")
    assert returned is ax and ax.get_xlabel() and ax.get_title(loc="left") == "readings"
    ax.figure.canvas.draw()


def test_the_figures_labels_write_a_probability_as_every_surface_does():
    # a certain result of the exact engine (1 - 6e-14, inside its 1e-12 cut) reads 100 %, as
    # French and the tables read it: English wrote "> 99%" beside the d20's "100" (page 17)
    from explodice.present.formats import Formatter
    from explodice.present.plots.style import share

    assert share(0.999999999999939) == "100%"
    assert share(0.999999999999939, "fr") == "100\xa0%"
    # short of certainty by more than the exact cut: marked (share knows no method: a simulated
    # 1.0 would read 100%, review 1.5)
    assert share(0.9991) == "> 99%"
    # 0.945 is 94.5 % by hand: one rounding in both languages (English said 94, French 95)
    assert share(0.945).removesuffix("%") == share(0.945, "fr").removesuffix("\xa0%") == "95"
    # a signed change carries its sign, and the report's minus, in both languages, in points
    assert Formatter("en").points(-0.04) == "\u22124.0 pp"
    assert Formatter("fr").points(-0.04) == "\u22124,0\xa0pts"
    assert Formatter("en").points(0.0003) == "+< 0.1 pp"  # not zero: never without a sign


def _ticks(axis) -> list[str]:
    axis.axes.figure.canvas.draw()
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_difference_of_probabilities_is_in_points_on_every_axis(ax, lang):
    # pages 20, 22, 24: an error or a change of a probability was ticked "10%", beside tables
    # in "pp"; a difference of two percents is in percentage points ("pts" in French)
    from explodice.present import i18n

    unit = " pp" if lang == "en" else "\xa0pts"
    bases = pd.DataFrame({"base": [10, 11, 12], "rmse": [0.12, 0.05, 0.1],
                          "max_error": [0.3, 0.2, 0.25], "chosen": [False, True, False]})  # fmt: skip
    for draw in (plots.plot_save_dc_bases, plots.plot_defence_bases):
        ax.clear()
        draw(bases, ax=ax, lang=lang, title="bases")
        ticks = _ticks(ax.yaxis)
        assert ticks and all(t.endswith(unit) and "%" not in t for t in ticks), ticks
        assert not any(t[0] in "+\u2212" for t in ticks)  # an error's size: no sign
    f = i18n.change_formatter(lang)
    f.set_locs([-0.1, 0.0, 0.1])
    assert [f(v) for v in (-0.1, 0.0, 0.1)] == ["\u221210" + unit, "0" + unit, "+10" + unit]
    # a price change (haggling) is a relative change: percent, signed
    f = i18n.change_formatter(lang, unit="percent", per=100)
    f.set_locs([-20, 0, 20])
    assert f(-20) == "\u2212" + i18n.percent(0.2, lang, 0) and f(20).startswith("+20")


def test_the_need_and_the_builds_line_are_told_apart_where_they_meet(ax):
    # page 19: the priest's PH 7 needed / 8 the build's lay on top of each other
    needs = pd.DataFrame({"level": [1, 2, 3, 4], "gauge": ["PH"] * 4, "needed": [7, 7, 7, 7],
                          "have": [7, 7, 8, 8]})  # fmt: skip
    plots.plot_gauge_needs(needs, ax=ax, title="needs")
    needed, have = ax.get_lines()[:2]
    assert needed.get_marker() != have.get_marker()
    assert needed.get_linestyle() != have.get_linestyle()
    # their markers at different levels: where the values are equal, both still show
    assert needed.get_markevery() != have.get_markevery()


def test_a_heatmaps_rows_keep_the_tables_order_in_every_language(ax):
    # page 12: English and French sorted the translated item names, so the rows differed
    from explodice.present import i18n

    table = pd.DataFrame({"item": ["Weapons", "Gems", "Armour"] * 2, "modifier": [0] * 3 + [2] * 3,
                          "mean": [-10.0, -20.0, 5.0, 0.0, -15.0, 20.0]})  # fmt: skip
    plots.plot_heatmap(table, ax=ax, row="item", col="modifier", value="mean",
                       fmt=str, bar_formatter=i18n.change_formatter("en", unit="percent",
                                                                    per=100))  # fmt: skip
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Weapons", "Gems", "Armour"]
    bar = ax.figure.axes[-1]
    ticks = _ticks(bar.yaxis)
    assert ticks and all(t.endswith("%") for t in ticks)
    assert all(t[0] in "+\u2212" for t in ticks if t != "0%")  # a change: its sign


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_hits_panel_spans_0_to_100_and_speaks_the_language(ax, lang):
    # page 21: the priest panel grew above 100 % to make room for a legend it then removed;
    # French wrote "3d6x: l'archétype touche" (no space before ':')
    from explodice import combat_progression, reference_builds
    from explodice.present import i18n

    t = combat_progression(reference_builds()[:1], levels=[1, 2, 3])
    name = t.build.iloc[0]
    for legend in (True, False):
        ax.clear()
        plots.plot_hits_by_level(t, build=name, ax=ax, lang=lang, legend=legend)
        assert ax.get_ylim() == (0.0, 1.0)
        assert (ax.get_legend() is not None) == legend
    labels = [ln.get_label() for ln in ax.get_lines()]
    mark = i18n.percent(0.65, lang, 0)
    assert any(mark in label for label in labels), labels
    for label in (lb for lb in labels if lb.startswith("3d6x")):
        before = label.split(":")[0]  # French puts a space before ':', English none
        assert before.endswith((" ", "\xa0")) == (lang == "fr"), label
