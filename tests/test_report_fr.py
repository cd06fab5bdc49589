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
