"""The formatter's rules for a signed change, a change of a probability and an equivalent DC,
on every surface that writes one (issue 31's last review of the report's pages): each value
here is written by hand from the rule, never read back from the code's output."""

from __future__ import annotations

import re

import matplotlib
import pytest

matplotlib.use("Agg")

from explodice.present import i18n  # noqa: E402
from explodice.present.formats import Formatter  # noqa: E402
from explodice.present.plots.style import signed_number  # noqa: E402
from explodice.present.readings import points  # noqa: E402
from explodice.present.readings import signed_number as readings_signed

MINUS = "\u2212"


@pytest.mark.parametrize("noise", [0.0, -6.217248937900877e-15, 3e-13])
def test_no_change_is_written_one_way_with_its_plus_minus_sign(noise):
    # page 8 wrote a zero gain "0.000" (Gudulf's keep: -6.2e-15, rounding noise), page 25 a
    # zero change "±0.0 pp": both are "no change", written with ± on every surface
    en, fr, cli = Formatter("en"), Formatter("fr"), Formatter("en", "cli")
    assert en.cell(noise, "signed") == cli.cell(noise, "signed") == "±0.000"
    assert fr.cell(noise, "signed") == "±0,000"
    assert en.cell(noise, "change") == "±0.0 pp" and fr.cell(noise, "change") == "±0,0\xa0pts"
    # the figures' bar labels (page 8) and the readings' table (page 25) say the same
    assert signed_number(noise, "en", 3) == "±0.000"
    assert readings_signed(noise, "en", 3, MINUS) == "±0.000"
    assert points(noise, "en") == "±0.0 pp" and points(noise, "fr", minus="-") == "±0,0\xa0pts"


def test_a_change_that_rounds_to_zero_keeps_its_sign():
    # Aelis's optimal player gains 1.28e-05 successes a day over the best fixed λ: a gain,
    # however small, is never written as no change
    en = Formatter("en")
    assert en.cell(1.281990301826852e-05, "signed") == "+< 0.001"
    assert en.cell(-0.0004, "signed") == MINUS + "< 0.001"
    assert en.cell(0.0004, "change") == "+< 0.1 pp"  # 0.04 percentage points
    assert en.cell(0.0153, "signed") == "+0.015" and en.cell(-1.585, "signed") == MINUS + "1.585"


@pytest.mark.parametrize("delta, text", [(0.997, "+99.7 pp"), (-0.9996, MINUS + "100.0 pp")])
def test_a_change_above_99_5_points_is_its_value_not_a_bound(delta, text):
    # the equivalent-DC figure (page 5) wrote a gap of 99.7 points "+> 99%", through the
    # probability's rule: a change is no probability, and is written as the tables write it
    import matplotlib.pyplot as plt
    import pandas as pd

    from explodice.present.plots import plot_equivalent_dc

    assert Formatter("en").cell(delta, "change") == text
    table = pd.DataFrame({"profile": ["p", "p"], "d20_dc": [5, 10], "dc_3d6x": [8, 13]})
    table["gap"] = [delta, 0.0]
    fig, ax = plt.subplots()
    plot_equivalent_dc(table, ax=ax)
    assert [t.get_text() for t in ax.texts][:2] == [text, "±0.0 pp"]
    plt.close(fig)


def test_a_relative_change_on_an_axis_is_its_value_not_a_bound():
    # the haggling axis (a price's change in percent) went through the probability's rule
    ticks = i18n.change_formatter("en", 1, unit="percent", per=100)
    ticks.set_locs([50.0, 99.7])
    assert ticks(99.7) == "+99.7%" and ticks(-99.7) == MINUS + "99.7%"
    assert i18n.percent_of(0.997, "fr", 1) == "99,7\xa0%"
    assert i18n.percent(0.997, "en", 0) == "> 99%"  # a probability keeps its rule


def test_a_modifier_is_written_as_a_sheet_writes_it():
    en, cli = Formatter("en"), Formatter("en", "cli")
    assert [en.cell(m, "modifier") for m in (0, 4, -1)] == ["+0", "+4", MINUS + "1"]
    assert cli.cell(-1, "modifier") == "-1"


# -- the equivalent DC of a d20 DC the roll always reaches (page 5, compare, the explorer) ----
def _p_at_least(total: int) -> float:
    """P(3d6x >= total) for a small total, by hand: below 6 no die can explode (a 6 is
    needed), so it is plain 3d6: 1 - P(3d6 < total), counted over the 216 throws."""
    from itertools import product

    below = sum(1 for t in product(range(1, 7), repeat=3) if sum(t) < total)
    return 1 - below / 216


def test_the_equivalent_of_a_certain_d20_dc_is_a_bound_in_words(capsys):
    from explodice.present.cli import main

    # +8 against d20 DC 5 always succeeds; 3d6x+8 is at least 99.5 % (the tolerance) up to
    # DC 12 (P(3d6 >= 4) = 215/216) and below it from DC 13 (P(3d6 >= 5) = 212/216): every
    # 3d6x DC up to 12 is as good a match, not the one DC 12
    assert _p_at_least(12 - 8) >= 0.995 > _p_at_least(13 - 8)
    en = Formatter("en")
    assert en.equivalent_dc(12, "certain in d20") == "any DC ≤ 12"
    assert Formatter("fr").equivalent_dc(12, "certain in d20") == "tout DD ≤ 12"
    assert en.equivalent_dc(16, "") == "16" and en.equivalent_dc(None, "") == "none"
    assert main(["compare", "-m", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    very_easy = next(line for line in lines if line.split()[:2] == ["very", "easy"])
    assert "any DC ≤ 12" in very_easy, very_easy
    moderate = next(line for line in lines if line.startswith(" " * 3) and "moderate" in line)
    assert "any DC" not in moderate  # 70 % in d20: one DC, 18
    # a header's note says it the same way when several d20 DCs share the bound (+20: 24)
    assert _p_at_least(24 - 20) >= 0.995 > _p_at_least(25 - 20)
    assert main(["compare", "-m", "20"]) == 0
    assert "matches them all with any DC ≤ 24" in capsys.readouterr().out


def test_the_equivalent_dc_page_shows_a_certain_d20_dc_as_a_bound():
    import dataclasses

    from explodice.present.report import load_config
    from explodice.present.report.kit import Context
    from explodice.present.report.pages import compare

    ctx = Context(dataclasses.replace(load_config(), lang="en"), "x", "2026-12-05")
    fig = compare.draw(ctx, compare.data(ctx))
    chart = fig.axes[0]
    texts = [t.get_text() for t in chart.texts]
    # trained +4 and expert +8 always reach d20 DC 5: any DC up to 8 (P(3d6 >= 4)) and 12
    assert _p_at_least(8 - 4) >= 0.995 > _p_at_least(9 - 4)
    assert "any DC ≤ 8" in texts and "any DC ≤ 12" in texts
    assert "▼" in fig.texts[1].get_text()  # the caption says what the mark means
    import matplotlib.pyplot as plt

    plt.close(fig)


# -- the switches on French pages: their declared words, never their TOML keys --------------
def test_every_switch_has_a_french_name_in_words_never_a_toml_key():
    from explodice.game.rules import switches
    from explodice.present.labels import switch_label

    for sw in switches():
        french = switch_label(sw.name, "fr")
        # page 25 named ones_on_explosions "1_sur_explosion = oui": a key, in French
        assert "_" not in french and french != sw.name, french
        assert switch_label(sw.name, "en") == sw.label  # English: the declared label


def test_a_captions_rules_off_their_defaults_are_said_in_the_pages_language():
    from explodice.game.rules import Rules
    from explodice.present.answers import method_text
    from explodice.questions.answer import Provenance

    rules = Rules(ones_on_explosions=True, rule_of_one_kinds=frozenset({"check"}))
    prov = Provenance.of("day", rules)
    fr = method_text(prov, "fr")
    # by the declarations: ones_on_explosions is "1 sur explosion", True "oui", check "test"
    assert "1 sur explosion = oui" in fr and "règle du 1 = test" in fr, fr
    assert "True" not in fr and "_" not in fr and "check" not in fr
    en = method_text(prov, "en")
    assert "ones_on_explosions = True" in en and "rule_of_one_kinds = check" in en, en


def test_the_readings_name_a_switch_in_words_on_french_pages():
    from explodice.present.readings import reading_label

    assert reading_label("ones_on_explosions", "True", "fr") == "1 sur explosion = oui"
    assert reading_label("rule_of_one_kinds", "+attack", "fr") == "règle du 1 = +attaque"
    assert reading_label("ones_on_explosions", "True", "en") == "ones_on_explosions = True"


# -- the SRD's attribution: the licence's words, framed in the page's language --------------
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_srd_attribution_is_framed_in_the_pages_language(lang):
    import dataclasses

    import matplotlib.pyplot as plt

    from explodice.game.bestiary import SRD_ATTRIBUTION
    from explodice.present.labels import srd_attribution
    from explodice.present.report import load_config
    from explodice.present.report.kit import Context
    from explodice.present.report.pages import bestiary

    text = srd_attribution(lang)
    assert SRD_ATTRIBUTION in text  # the licence's own wording, whole and in English
    assert "licence CC-BY-4.0" in text
    framing = text.replace(SRD_ATTRIBUTION, "")
    if lang == "fr":
        assert framing.startswith("Données\xa0: SRD 5.1 de Wizards") and "Monster" not in framing
        assert "https://creativecommons.org/licenses/by/4.0/legalcode" in text
    else:
        assert framing.startswith("Data: SRD 5.1")
    ctx = Context(dataclasses.replace(load_config(), lang=lang), "x", "2026-12-05")
    fig = bestiary.draw_fp(ctx, bestiary.data_fp(ctx))
    shown = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert framing.split(";")[0] in shown and "SRD 5.1 is licensed" in shown
    if lang == "fr":
        assert "Monster names" not in shown
    plt.close(fig)


def test_the_size_of_a_change_of_a_probability_is_in_points_unsigned_on_every_surface(capsys):
    # save-dc printed its error 5.1% and defence-base 11.5% where pages 20 and 22 say 5.1 pp
    # and 11.5 pp; bestiary "more than 10.0%" where the README says 10 points (newcomer's walk)
    from explodice.present.cli.app import main
    from explodice.present.formats import Formatter

    assert Formatter("en", "cli").cell(0.051, "gap") == "5.1 pp"
    assert Formatter("fr").cell(0.051, "gap") == "5,1\xa0pts"
    assert Formatter("en").cell(-0.051, "gap") == "5.1 pp"  # a size: no sign
    assert main(["save-dc"]) == 0
    header = capsys.readouterr().out.splitlines()[1]
    assert re.search(r"root mean square error \d+\.\d pp over", header), header
