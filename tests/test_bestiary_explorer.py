"""The explorer's monster picker: the chosen monster's chances are the API's, the SRD's
attribution is on the page, the configuration's monsters are offered beside the SRD's."""

from __future__ import annotations

import pytest

from explodice import SRD_ATTRIBUTION, bestiary
from explodice.present.config import load_config
from explodice.present.explorer import EXPLORER_NAME, explorer_data, explorer_html
from explodice.present.explorer.charts import shown_percent
from tests.test_bestiary_cli import MONSTERS
from tests.test_explorer import CONFIG


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("bestiary-explorer") / "tiny.toml"
    path.write_text(CONFIG + MONSTERS, encoding="utf-8")
    return load_config(path)


@pytest.fixture(scope="module")
def data(config):
    return explorer_data(config, day=False, date="2026-03-04")


@pytest.fixture(scope="module")
def page_file(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer") / EXPLORER_NAME
    path.write_text(explorer_html(data), encoding="utf-8")
    return path


def test_the_picker_offers_the_configurations_monsters_and_the_srds(data, page_file):
    names = set(data.bestiary.name)
    assert {"Mine goblin", "Deep worm", "Goblin", "Adult Red Dragon"} <= names
    assert len(names) == 336
    text = page_file.read_text(encoding="utf-8")
    assert SRD_ATTRIBUTION.replace('"', "&quot;") in text


def _points(pg) -> dict[str, str]:
    return pg.evaluate(
        """() => Object.fromEntries(
        Array.from(document.querySelectorAll('#view-bestiary [aria-label^="bestiary @"]'))
             .map(e => e.getAttribute('aria-label').split(' @ '))
             .map(([_, row, system, shown]) => [row + ' @ ' + system, shown]))"""
    )


def test_browser_shows_the_chosen_monsters_chances(browser, page_file):
    pg = browser.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.goto(page_file.as_uri())
    pg.evaluate("window.explodiceReady")
    option = pg.evaluate(
        """() => Array.from(document.querySelectorAll('#view-bestiary select option'))
        .map(o => o.value).find(v => v.startsWith('Adult Red Dragon '))"""
    )
    options = pg.evaluate(
        "() => Array.from(document.querySelectorAll('#view-bestiary select option')).map(o => o.value)"
    )
    mine = [o for o in options if o.startswith("Mine goblin ")]
    assert len(options) == 336 and len(mine) == 1 and mine[0].endswith(" — tiny.toml")
    pg.select_option("#view-bestiary select", option)
    pg.evaluate("window.explodiceViews.bestiary.runAsync().then(() => null)")
    shown = _points(pg)
    api = bestiary(name="Adult Red Dragon")
    hits = api[api.chance == "build_hits"].iloc[0]
    assert shown["the build hits the monster @ d20"] == shown_percent(hits.p_d20)
    assert shown["the build hits the monster @ 3d6x"] == shown_percent(hits.p_3d6x)
    bite = api[(api.chance == "monster_hits") & (api["item"] == "Bite")].iloc[0]
    assert shown["the monster hits the build: Bite @ 3d6x"] == shown_percent(bite.p_3d6x)
    assert len(shown) == 2 * len(api)
    pg.close()
    assert problems == []


HOSTILE = '</script><script>alert("x")</script><img src=x onerror=alert(1)>'


def test_a_monster_named_with_html_is_shown_as_text_never_run(tmp_path):
    """A designer's monster named with HTML reaches the page only escaped: in the embedded
    JSON as ``\\u003c`` escapes, nowhere as a tag the browser would read."""
    path = tmp_path / "hostile.toml"
    monsters = MONSTERS.replace('name = "Deep worm"', "name = '" + HOSTILE + "'")
    assert HOSTILE in monsters
    path.write_text(CONFIG + monsters, encoding="utf-8")
    data = explorer_data(load_config(path), day=False, date="2026-03-04")
    assert HOSTILE in set(data.bestiary.name)  # the name is data, kept as written
    text = explorer_html(data)
    assert HOSTILE not in text
    assert "<img src=x" not in text and '<script>alert("x")' not in text
    assert text.count("</script>") == text.count("<script")  # no script closed early
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert" in text


def test_the_french_picker_writes_the_french_abilities_and_colon(config):
    # section 5 in French read "contre le DD de l'archétype: STR / WIS / CHA"
    import dataclasses

    from explodice.present.explorer.charts import explorer_charts

    french = explorer_data(dataclasses.replace(config, lang="fr"), day=False, date="2026-03-04")
    rows = {r["row"] for r in explorer_charts(french)["bestiary"].to_dict()["data"]["values"]}
    saves = [r for r in rows if r.endswith((" FOR", " SAG", " CHA", " DEX"))]
    assert saves and all(r.split(":")[0].endswith(" ") for r in saves)  # " : "
    assert not any(r.endswith((" STR", " WIS")) for r in rows)
