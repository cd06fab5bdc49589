"""The explorer's builds: each build's tests as subjects, their modifiers at every level by hand
(the increases and the PB table), and the level control in a real browser (headless Chromium):
moving it changes the numbers to the API's for ``build.at(level)``."""

from __future__ import annotations

import pytest

from explodice import Roll, Rules
from explodice.present.explorer import EXPLORER_NAME, explorer_data, explorer_html
from explodice.present.report import load_config
from tests.test_explorer import (
    CONFIG,
    DATE,
    _assert_shown,
    _cells,
    _expected_table,
    _set_slider,
    _settle,
)

BUILDS = """
[[build]]
name = "Vi"
scores = { FOR = 8, DEX = 16, CON = 14, INT = 12, SAG = 12, CHA = 10 }
skills = { "Discrétion" = 2, Perception = { 1 = 1, 6 = 2 } }
saves = { DEX = 1 }
gauge_per_level = { PA = 2 }
reroll = "one"
"""
#: Vi's DEX by level: 16, +2 at 4 and 8, then capped at 20 (docs/rules.md).
VI_DEX = [16] * 3 + [18] * 4 + [20] * 13
PB = [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer-builds") / "builds.toml"
    path.write_text(CONFIG + BUILDS, encoding="utf-8")
    return load_config(path)


@pytest.fixture(scope="module")
def data(config):
    return explorer_data(config, date=DATE, day=False)


def test_builds_are_subjects_with_every_levels_modifier(data, config):
    subjects = data.subjects.set_index("who")
    # Vi's proficient skills and save (its DEX check, proficient in nothing, left out)
    assert {w for w in subjects.index if w.startswith("Vi (build)")} == {
        "Vi (build): Stealth",
        "Vi (build): Perception",
        "Vi (build): DEX save",
    }
    assert subjects.loc["Vi (build): Stealth", "cls"] == "check/pc/one"  # Lucky at every level
    assert subjects.loc["Vi (build): Stealth", "label"].endswith(", Lucky")
    levels = data.build_levels.set_index(["who", "level"])
    for level in range(1, 21):
        dex, pb = (VI_DEX[level - 1] - 10) // 2, PB[level - 1]
        stealth = levels.loc[("Vi (build): Stealth", level)]
        # 3d6x adds PB twice; d20 reads a skill's 2 as Expertise: twice as well
        assert (stealth.mod3, stealth.mod20) == (dex + 2 * pb, dex + 2 * pb)
        perception = levels.loc[("Vi (build): Perception", level)]
        wis = 1  # WIS 12, never increased
        assert perception.mod3 == wis + pb * (2 if level >= 6 else 1)
        assert levels.loc[("Vi (build): DEX save", level)].mod3 == dex + pb
    assert data.meta["builds"] == ["Vi"]
    # every need the page reads at any level is in the roll table
    rows = data.roll[(data.roll.cls == "check/pc/one") & (data.roll.system == "3d6x")]
    assert rows.need.min() <= 1 - 17 and rows.need.max() >= 50 - 4


def test_a_configuration_without_builds_has_no_level_control(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text(CONFIG, encoding="utf-8")
    plain = explorer_data(load_config(path), date=DATE, day=False)
    assert plain.build_levels.empty and "build_level" not in explorer_html(plain)


@pytest.fixture
def page(browser, data, tmp_path):
    path = tmp_path / EXPLORER_NAME
    path.write_text(explorer_html(data), encoding="utf-8")
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    pg.goto(path.as_uri())
    pg.evaluate("window.explodiceReady")
    yield pg
    pg.close()
    assert problems == []


def _line(pg) -> str:
    """The line above the DC table: who rolls, at which level, with which modifier."""
    texts = pg.evaluate(
        "Array.from(document.querySelectorAll('#view-roll text')).map(e => e.textContent)"
    )
    return next(t for t in texts if " · " in t)


def test_browser_level_control_moves_a_build_to_the_apis_numbers(page, config, tmp_path):
    vi = next(b for b in config.builds if b.name == "Vi")
    rules = Rules(disadvantage="drop")
    page.select_option("select[name=who]", "Vi (build): Stealth")
    for level in (1, 7, 17):
        _set_slider(page, "build_level", level)
        _settle(page)
        c = vi.at(level)
        r3 = c.roll("Stealth", dc=16)
        r20 = c.roll("Stealth", dc=16, system="d20")
        assert r3.reroll is not None and r3.reroll.trigger == "one"
        _assert_shown(_cells(page, "roll", ""), _expected_table(r3, r20, rules, "keep"))
        assert (
            _line(page) == f"Vi (build): Stealth, Lucky, level {level} · modifier {r3.modifier:+d}"
        )
    # a character's numbers do not move with the builds' level
    page.select_option("select[name=who]", "Bo: save INT (+11; d20 +7)")
    _set_slider(page, "build_level", 3)
    _settle(page)
    roll = Roll(11, kind="save")  # Bo plays Bo's own policy, cancel (issue 31)
    _assert_shown(
        _cells(page, "roll", ""),
        _expected_table(roll.replace(policy="cancel"), roll.replace(modifier=7), rules, "own"),
    )
    page.locator("#roll-section").screenshot(path=tmp_path / "builds.png")
