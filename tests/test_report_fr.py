"""The report in French: every label of every page comes from the catalogue, numbers and dates
are written as a French reader expects, and the seed's own words are there. The PDF's text is
read back with pypdf, as a reader's copy-paste would."""

from __future__ import annotations

import re

import matplotlib
import pytest
from matplotlib.backends.backend_pdf import PdfPages
from pypdf import PdfReader

from explodice.present import i18n
from explodice.present.report import PAGES, build_pages, load_config
from tests import srd

matplotlib.use("Agg")

FRENCH_REPORT = """
title = "Un petit rapport"
seed = 11
lang = "fr"

[rules]
disadvantage = "drop"

[table]
modifiers = [0, 4]
profiles = { novice = 0, "entraîné" = 4 }

[simulation]
n = 2000
days = 40

[[character]]
name = "Ana"
level = 1
scores = { FOR = 14, DEX = 14, CON = 12, INT = 10, SAG = 10, CHA = 8 }
skills = { "Discrétion" = 1 }
gauge_per_level = { PA = 1 }
policy = { dc = 16, weight = 0.05 }

[[character]]
name = "Bo"
level = 10
scores = { FOR = 10, DEX = 12, CON = 10, INT = 16, SAG = 12, CHA = 14 }
skills = { "Discrétion" = 2 }
policy = "cancel"

[day]
name = "petite journée"
rolls_per_day = 6

[[day.roll]]
character = "Ana"
skill = "Discrétion"
dc = 16

[[day.roll]]
character = "Bo"
ability = "INT"
dc = 12
"""

#: Words and phrases of the English report that a French page never shows.
ENGLISH = re.compile(
    r"\b(the|of|and|with|by|each|against|per|from|at least|success|gauges?|rolls?|easy|hard|"
    r"very|nearly|moderate|keep|cancel|drop|subtract|seed|saves?|check|days?|expected|empty|"
    r"full|drain|policy|profiles?|equivalent|best|advantage|disadvantage|modifier|DC|DCs|"
    r"probability|estimate|haggling|opposed|group|tie|win|loss|mean|median|party|"
    r"character|level|name|rules|contents|none|lost|fullest|interval|band|alone|leads|"
    r"working|together|price|change|item|weapons|armour|gems|outcomes|scores|config|simulate|"
    r"simulated|lucky|yes|no|same|case|implied|knee|left|right|table of|title page|"
    r"points lost|first empty|ones_on_explosions|overflow)\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def french_text(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fr")
    config_path = folder / "rapport.toml"
    config_path.write_text(FRENCH_REPORT, encoding="utf-8")
    config = load_config(config_path)
    pdf_path = folder / "rapport.pdf"
    with PdfPages(pdf_path) as pdf:
        for page in build_pages(config, date="2026-12-01"):
            pdf.savefig(page.figure)
            page.figure.clear()
    pages = [p.extract_text() for p in PdfReader(pdf_path).pages]
    return str(config_path), pages


def test_no_label_of_the_french_report_is_left_in_english(french_text):
    config_path, pages = french_text
    assert len(pages) == len(PAGES)
    for number, text in enumerate(pages, start=1):
        for own in (
            config_path,
            "Un petit rapport",
            "petite journée",
            "Ana",
            "Bo",
            "novice",
            "docs/rules.md",  # a file name
        ):
            text = text.replace(own, "")  # the designer's own words stay as written
        text = srd.without_the_srd(text)  # the SRD's words stay in English
        english = sorted({m.group(0) for m in ENGLISH.finditer(text)})
        assert english == [], f"page {number}: {english}"


def test_the_french_report_speaks_the_seeds_words(french_text):
    _, pages = french_text
    text = "\n".join(pages)
    for word in (
        "DD",
        "Très facile",
        "Facile",
        "Modérée",
        "Difficile",
        "Très difficile",
        "Presque impossible",
        "jauge",
        "PA",
        "PM",
        "PF",
        "PH",
        "règle du 1",
        "Tests opposés",
        "statu quo",
        "lutte serrée",
        "Marchandage",
        "Valeurs passives",
        "Tests de groupe",
        "travailler ensemble",
        "désavantage",
        "Discrétion",
        "FOR",
        "SAG",
        "graine",
    ):
        assert word in text, word
    assert "1 décembre 2026" in pages[0]  # the date as a French reader writes it
    assert re.search(r"\d+,\d\s%", text)  # 49,1 % in tables and on the axes
    assert re.search(r"\b12,6\b", text)  # 3d6x's mean, with a decimal comma
    assert not re.search(r"\d\.\d\s?%", text)  # and never a decimal point


def test_no_french_probability_is_written_as_a_false_zero(french_text):
    _, pages = french_text
    text = "\n".join(pages)
    assert "< 1\xa0%" in text or "< 1 %" in text  # P(success) of +0 against DC 35, say
    assert i18n.percent(0.002, "fr", 0) == "< 1\xa0%"


# -- the embedded default's own names, in French -------------------------------------------
#: The pages that show the configuration's names (title, profiles, the day's) and the Monte
#: Carlo legend: the default report's, in English and in French.
NAMED_PAGES = ("title", "d20-comparison", "day", "day-policies", "monte-carlo")


@pytest.fixture(scope="module")
def default_reports(tmp_path_factory):
    """The default report's pages that show its names, written in English and in French
    (smaller samples), read back: PDF text and metadata, explorer."""
    import dataclasses

    from explodice.present.report import contents, write_report

    config = dataclasses.replace(load_config(), n=2_000, days=40)
    read = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contents, "PAGES", [p for p in contents.PAGES if p.name in NAMED_PAGES])
        for lang in ("en", "fr"):
            out = tmp_path_factory.mktemp(f"default-{lang}")
            write_report(config, out, date="2026-12-01", lang=lang)
            reader = PdfReader(out / "explodice-report.pdf")
            text = "\n".join(p.extract_text() for p in reader.pages)
            page = (out / "explorer.html").read_text(encoding="utf-8")
            read[lang] = (text, reader.metadata, page)
    return read


def _default_names():
    """The embedded default configuration's names: title, day, profiles, builds."""
    import tomllib

    from explodice.present.report import default_config_text

    data = tomllib.loads(default_config_text())
    return [
        data["title"],
        data["day"]["name"],
        *data["table"]["profiles"],
        *(b["name"] for b in data["build"]),
    ]


def test_every_name_of_the_default_configuration_is_translated():
    from explodice.present.config import DEFAULT_NAMES

    _ = i18n.translator("fr")
    names = _default_names()
    assert set(names) <= set(DEFAULT_NAMES)  # a new name in default.toml: add it there
    french = load_config(lang="fr")
    assert french.title == _(names[0]) != names[0]
    assert french.day.name == "Une journée dans les vieilles mines"
    assert list(french.profiles) == ["non entraîné", "entraîné", "expert"]
    assert [b.name for b in french.builds] == [
        "guerrier",
        "roublard",
        "mage",
        "prêtre",
        "émissaire",
    ]
    assert list(french.profiles.values()) == list(load_config().profiles.values())


def test_the_french_default_report_has_no_english_name(default_reports):
    _ = i18n.translator("fr")
    text, meta, page = default_reports["fr"]
    # the SRD's monsters keep their English names ("Priest", "Mage"): their case tells them
    # from a build's name ("priest") left in English
    text, page = srd.without_the_srd(text), srd.without_the_srd(page)
    english = [n for n in _default_names() if _(n) != n]  # "expert" and "mage" are French too
    for name in english:
        pattern = re.compile(rf"(?<![\w']){re.escape(name)}(?![\w'])", re.IGNORECASE)
        assert not pattern.search(text), name
        assert not pattern.search(page), name  # nor in the explorer
    assert meta.title == "explodice — le rapport du concepteur"
    assert "Le rapport du concepteur" in meta.subject and "désavantage=soustraire" in meta.subject
    assert not ENGLISH.search(meta.title + " " + meta.subject)
    for french in ("Une journée dans les vieilles mines", "non entraîné", "entraîné"):
        assert french in text and french in page


def test_the_english_default_report_keeps_its_names(default_reports):
    text, meta, page = default_reports["en"]
    assert meta.title == "explodice — the designer's report"
    assert meta.subject.startswith("The designer's report of explodice: disadvantage=subtract")
    for name in ("A day in the old mines", "untrained", "trained", "expert"):
        assert name in text and name in page
    assert "vieilles mines" not in text + page


def test_a_name_the_designer_wrote_stays_as_written(tmp_path):
    from explodice.present.config import in_language

    path = tmp_path / "mine.toml"
    mine_text = (
        FRENCH_REPORT.replace('"Un petit rapport"', '"A day in the old mines"')
        .replace('profiles = { novice = 0, "entraîné" = 4 }', "profiles = { trained = 4 }")
        .replace('"petite journée"', '"fighter"')
    )
    path.write_text(mine_text, encoding="utf-8")
    mine = load_config(path, lang="fr")
    assert mine.title == "A day in the old mines" and list(mine.profiles) == ["trained"]
    assert mine.day.name == "fighter"
    # a key the file leaves out is filled with explodice's own name, in the file's language
    bare = tmp_path / "bare.toml"
    bare.write_text(FRENCH_REPORT.replace('title = "Un petit rapport"\n', ""), encoding="utf-8")
    assert load_config(bare).title == "explodice — le rapport du concepteur"
    assert in_language(load_config(bare), "en").title == "explodice — the designer's report"
    assert in_language(in_language(load_config(), "fr"), "en") == load_config()


def test_numbers_are_written_the_languages_way(french_text, default_reports):
    """Every number a page shows, legends included, goes through the language's format: no
    decimal point and no ungrouped thousands in French, no decimal comma in English."""
    _, pages = french_text
    for number, text in enumerate(pages, start=1):
        text = text.replace("0.1.0", "").replace("2026", "")  # the version, the year
        text = srd.without_the_srd(text)  # the SRD's attribution: "SRD 5.1", "4.0 International"
        assert not re.search(r"\d\.\d", text), f"page {number}: a decimal point"
        # (a run of digits after a decimal comma is decimals; two labels side by side read as one)
        assert not re.search(r"(?<![\d\u202f\xa0 ,])\d{4,}", text), f"page {number}: {text}"
    french, _, _ = default_reports["fr"]
    assert "n=2\u202f000" in french or "n=2\xa0000" in french  # the Monte Carlo legend
    english, _, _ = default_reports["en"]
    assert "n=2,000" in english and not re.search(r"\d,\d(?!\d\d)", english.replace("0.1.0", ""))
