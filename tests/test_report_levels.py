"""The report's chapter across levels: each page's tables against the API and against values
derived by hand (a hand PMF, a plain convolution of drains), every text inside the page, and
the reference builds named when the configuration has none."""

from __future__ import annotations

import dataclasses

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import explodice as ex
from explodice.present.report import PAGES, load_config
from explodice.present.report.kit import Context
from tests.test_cli_levels import CONFIG, hand_needed
from tests.test_levels import hand_sf3

CHAPTER = ("levels-progression", "level-dcs", "gauge-sizing", "save-dc")
RULES = ex.Rules(disadvantage="drop")  # the configuration's


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("chapter") / "two.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return load_config(path)


@pytest.fixture(scope="module")
def pages(config):
    """{name: (data, English figure, French figure)} of the chapter's pages."""
    out = {}
    for spec in (s for s in PAGES if s.name in CHAPTER):
        data = spec.data(Context(config, "x", "2026-12-01"))
        figures = [
            spec.draw(Context(dataclasses.replace(config, lang=lang), "x", "2026-12-01"), data)
            for lang in ("en", "fr")
        ]
        out[spec.name] = (data, *figures)
    return out


def test_the_chapter_closes_the_report_in_order():
    # the levels chapter comes in order after the single-level pages; then this round's
    # combat and bestiary chapters (issues 32, 33); "which readings matter" closes the report
    names = [s.name for s in PAGES]
    start = names.index(CHAPTER[0])
    assert names[start : start + len(CHAPTER)] == list(CHAPTER)
    assert names[start + len(CHAPTER) :] == [
        "combat-hits", "defence-base", "bestiary-fp", "bestiary", "readings",
    ]  # fmt: skip


def test_progression_page_is_the_api_and_the_hand_pmf(pages, config):
    data = pages["levels-progression"][0]
    table = data.tables["progression"]
    api = ex.progression(list(config.builds), tests="main", rules=RULES)
    assert table.p.tolist() == pytest.approx(api.p.tolist(), abs=1e-15)
    assert set(table.method) == {"exact"} and table.n.isna().all() and table.seed.isna().all()
    bo = table[(table.build == "Bo") & (table.system == "3d6x") & (table.level == 1)]
    moderate = bo[bo.difficulty == "moderate"].iloc[0]
    assert moderate.p == pytest.approx(hand_sf3(16 - 4), abs=1e-9)  # STR 15 (+2), PB +2


def test_level_dcs_page_is_level_dcs(pages, config):
    table = pages["level-dcs"][0].tables["dcs"]
    api = ex.level_dcs(build=list(config.builds), rules=RULES)
    assert table.dc.tolist() == api.dc.tolist()
    assert table.worst_miss.tolist() == pytest.approx(api.worst_miss.tolist(), abs=1e-15)


def test_gauge_page_is_a_plain_convolution_of_drains(pages, config):
    table = pages["gauge-sizing"][0].tables["gauges"]
    bo = table[table.build == "Bo"]
    # Bo's own day: 12 Athletics checks, each draining PA by an exploding d6 per kept 1
    assert set(bo.gauge) == {"PA"} and set(bo.needed) == {hand_needed(12, 0.1)}
    api = ex.size_gauges(list(config.builds), risk=0.1, rules=RULES)
    assert table.risk_have.tolist() == pytest.approx(api.risk_have.tolist(), abs=1e-15)


def test_save_dc_page_is_fit_save_dc(pages, config):
    data = pages["save-dc"][0]
    fit = ex.fit_save_dc(list(config.builds), rules=RULES)
    assert data.shown["fit"].base == fit.base
    assert data.tables["gaps"].p_3d6x.tolist() == pytest.approx(fit.gaps.p_3d6x.tolist())
    assert set(data.tables) == {"gaps", "bases", "cases"}


def _texts(fig):
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        e = t.get_window_extent(renderer)
        out.append(
            (
                t.get_text(),
                e.x0 >= box.x0 - 1 and e.x1 <= box.x1 + 1 and e.y0 >= -1 and e.y1 <= box.y1 + 1,
            )
        )
    return out


@pytest.mark.parametrize("name", CHAPTER)
def test_every_text_lies_inside_the_page(pages, name):
    for fig in pages[name][1:]:
        outside = [text for text, inside in _texts(fig) if not inside]
        assert outside == []


def test_pages_name_their_builds_and_method(pages):
    for name in CHAPTER:
        en = " ".join(" ".join(t.split()) for t, _ in _texts(pages[name][1]))
        assert "Builds of the configuration (" in en and "Bo, Cy" in en and "xact" in en
        fr = " ".join(" ".join(t.split()) for t, _ in _texts(pages[name][2]))
        assert "Archétypes de la configuration (" in fr and "xact" in fr


def test_without_builds_the_chapter_shows_the_reference_builds(config):
    spec = next(s for s in PAGES if s.name == "level-dcs")
    bare = dataclasses.replace(config, builds=())
    ctx = Context(bare, "x", "2026-12-01")
    data = spec.data(ctx)
    assert list(dict.fromkeys(data.tables["dcs"].build)) == [b.name for b in ex.reference_builds()]
    text = " ".join(" ".join(t.split()) for t, _ in _texts(spec.draw(ctx, data)))
    assert "The reference builds (the configuration has no [[build]] table)" in text


def test_a_day_that_drains_nothing_has_a_gauge_page_that_says_so(config):
    spec = next(s for s in PAGES if s.name == "gauge-sizing")
    quiet = dataclasses.replace(config, rules=ex.Rules(rule_of_one_kinds=()))
    ctx = Context(quiet, "x", "2026-12-01")
    data = spec.data(ctx)
    assert data.tables["gauges"].empty and "needed" in data.tables["gauges"]
    text = " ".join(" ".join(t.split()) for t, _ in _texts(spec.draw(ctx, data)))
    assert "No roll of the builds' days drains a gauge under these rules" in text
