"""The game's own language: the French catalogue is complete, numbers and dates are written as
a French reader expects, and no label of the French explorer or command line is left in English
(the explorer checked in a real browser, as tests/test_explorer.py does)."""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from explodice.present import i18n
from explodice.present.cli import main
from explodice.present.explorer import explorer_data, explorer_html
from explodice.present.report import ConfigError, load_config
from tests import srd

SRC = Path(i18n.__file__).resolve().parents[1]  # src/explodice
FRENCH_CONFIG = """
title = "Petit explorateur"
seed = 5
lang = "fr"

[table]
profiles = { novice = 0, "entraîné" = 4 }

[simulation]
days = 40

[[character]]
name = "Ana"
level = 3
scores = { FOR = 10, DEX = 16, CON = 12, INT = 10, SAG = 12, CHA = 8 }
skills = { "Discrétion" = 1 }
gauge_per_level = { PA = 1 }
reroll = "chanceux"

[day]
name = "petite journée"
rolls_per_day = 5

[[day.roll]]
character = "Ana"
skill = "Discrétion"
dc = 16
"""
#: Words of the English labels that French never uses (names from the configuration aside).
ENGLISH = re.compile(
    r"\b(the|of|and|with|success|gauge|gauges|roll|rolls|easy|hard|very|keep|cancel|drop|"
    r"subtract|seed|save|check|day|who|against|expected|empty|full|written|by|each|"
    r"points lost|made|share|nothing|yes|no|lucky|drain|policy|profile|equivalent|best)\b",
    re.IGNORECASE,
)


def _catalogue():
    path = resources.files("explodice.present").joinpath("locale/fr/LC_MESSAGES/explodice.po")
    with path.open("rb") as f:
        return read_po(f, locale="fr_FR")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_label_of_the_code_has_a_french_translation():
    catalog = _catalogue()
    labels = {
        found[2]
        for found in extract_from_dir(
            SRC, method_map=[("**.py", "python")], keywords={"_": None, "N_": None}
        )
    }
    assert len(labels) > 100
    missing = sorted(m for m in labels if not (catalog.get(m) and catalog.get(m).string))
    assert missing == [], "run pybabel update (src/explodice/present/locale/README.md)"
    fuzzy = sorted(m.id for m in catalog if m.id and m.fuzzy)
    assert fuzzy == []
    for msg in catalog:
        if msg.id:
            assert _fields(msg.string) == _fields(msg.id), msg.id


def test_a_bid_model_is_written_one_way():
    # page 16 titled "uniform 0..5" above a table of "uniform 0-5" (the newcomer's walk)
    for msg in _catalogue():
        for text in (msg.id, msg.string) if msg.id else ():
            assert not re.search(r"uniforme? 0\.\.", text), text


def test_french_words_are_the_seeds():
    _ = i18n.translator("fr")
    assert [_(d) for d in ("very easy", "moderate", "nearly impossible")] == [
        "Très facile",
        "Modérée",
        "Presque impossible",
    ]
    assert (_("DC"), _("rule of 1"), _("gauge"), _("tie")) == (
        "DD",
        "règle du 1",
        "jauge",
        "égalité (statu quo)",
    )


def test_numbers_and_dates_as_a_french_reader_expects():
    nbsp = "\xa0"
    assert i18n.percent(0.491, "fr") == f"49,1{nbsp}%"
    assert i18n.percent(0.491, "en") == "49.1%"  # one format: the report, figures, explorer and CLI
    assert i18n.percent(0.0001, "fr") == f"< 0,1{nbsp}%"  # never a false 0 %
    assert i18n.number(12.6, "fr", 1) == "12,6"
    assert i18n.number(2000, "fr", 0) == "2\u202f000"
    assert i18n.date("2026-12-01", "fr") == "1 décembre 2026"
    assert i18n.d3_locale("fr")["decimal"] == ","


def test_lang_is_a_configuration_key(tmp_path):
    good = tmp_path / "fr.toml"
    good.write_text(FRENCH_CONFIG, encoding="utf-8")
    assert load_config(good).lang == "fr" and load_config().lang == "en"
    bad = tmp_path / "de.toml"
    bad.write_text(FRENCH_CONFIG.replace('lang = "fr"', 'lang = "de"'), encoding="utf-8")
    with pytest.raises(ConfigError, match="`lang`"):
        load_config(bad)
    with pytest.raises(ValueError, match="lang"):
        i18n.check_lang("es")


def test_cli_tables_in_french(capsys):
    assert main(["table", "--modifiers", "0", "--dc", "16", "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    table = "\n".join(line for line in out if not line.startswith("#"))
    assert "modificateur" in table and "avantage" in table and "désavantage" in table
    # P(3d6x >= 16) = 0.2539: a decimal comma and a space before %
    assert "25,4\xa0%" in table and "25.4" not in table
    assert main(["opposed", "-m", "2", "--lang", "fr"]) == 0
    header = capsys.readouterr().out.splitlines()[2]  # the columns, under the roll and the rules
    assert "victoire" in header and "statu quo" in header and "défaite" in header
    with pytest.raises(SystemExit) as exit_:
        main(["table", "--lang", "de"])
    assert exit_.value.code == 2 and "--lang" in capsys.readouterr().err


def test_french_explorer_says_which_trait_its_numbers_count(tmp_path):
    path = tmp_path / "fr.toml"
    path.write_text(FRENCH_CONFIG, encoding="utf-8")
    data = explorer_data(path, date="2026-12-01", day=False)
    assert any(label.endswith(", Chanceux") for label in data.subjects.label)
    page = explorer_html(data)
    notes = page[page.index('<ul class="notes"') : page.index("</ul>")]
    assert "Ana a le trait Chanceux, compté dans ces nombres" in notes
    assert ENGLISH.findall(re.sub(r"<[^>]+>", "", notes).replace("Ana", "")) == []


# -- the French explorer in a real browser -------------------------------------------------
@pytest.fixture(scope="module")
def french_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("fr") / "fr.toml"
    path.write_text(FRENCH_CONFIG, encoding="utf-8")
    page = path.with_name("explorateur.html")
    page.write_text(explorer_html(explorer_data(path, date="2026-12-01")), encoding="utf-8")
    return page


def _shown_text(pg) -> str:
    """Every text a reader sees: the page's prose, the charts' marks and axes, the options."""
    return pg.evaluate("""() => [document.body.innerText,
        ...Array.from(document.querySelectorAll('svg text')).map(e => e.textContent),
        ...Array.from(document.querySelectorAll('option')).map(e => e.textContent)].join('\\n')""")


def test_french_explorer_has_no_english_label(browser, french_page):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    pg.route(
        "**/*",
        lambda r: (
            r.continue_()
            if r.request.url.startswith("file://")
            else (problems.append(r.request.url), r.abort())
        ),
    )
    pg.goto(french_page.as_uri())
    pg.evaluate("window.explodiceReady")
    texts = [_shown_text(pg)]
    for policy in ("cancel", "best(λ=0.05)"):  # every state of the controls has its labels
        pg.select_option("select[name=policy]", policy)
        pg.select_option("select[name=day_policy]", policy)
        pg.check("input[name=adv][value=disadvantage]")
        pg.evaluate(
            "Promise.all(Object.values(window.explodiceViews).map(v => v.runAsync()))"
            ".then(() => null)"
        )
        texts.append(_shown_text(pg))
    shown = "\n".join(texts)
    assert pg.evaluate("document.documentElement.lang") == "fr"
    pg.close()
    assert problems == []
    config_file = str(french_page.with_name("fr.toml"))
    for name in (config_file, "Petit explorateur", "petite journée", "Ana", "novice", "entraîné"):
        shown = shown.replace(name, "")  # the designer's own words stay as written
    shown = srd.without_the_srd(shown)  # the SRD's words stay in English
    english = sorted({m.group(0) for m in ENGLISH.finditer(shown)})
    assert english == [], english
    assert "DD" in shown and "règle du 1" in shown and "Très facile" in shown
    assert re.search(r"\d+,\d\s%", shown)  # 49,1 % in the charts too
    assert "1 décembre 2026" in shown


def test_the_band_names_are_written_once_in_the_game_layer():
    # game/tables.py's DIFFICULTY_FR is the one source: the French catalogue gives its words
    # (the seed's, by hand below) and the .po file does not repeat a band's name, so it cannot
    # disagree with them
    from explodice.game.tables import DIFFICULTIES, DIFFICULTY_FR

    seed = ("Très facile", "Facile", "Modérée", "Difficile", "Très difficile", "Presque impossible")
    assert tuple(DIFFICULTY_FR[d] for d in DIFFICULTIES) == seed
    _ = i18n.translator("fr")
    assert tuple(_(d) for d in DIFFICULTIES) == seed
    in_po = {m.id for m in _catalogue() if m.id}
    assert in_po.isdisjoint(DIFFICULTIES), "a band's name is written in the .po file again"
