"""The explorer: its numbers against values derived by hand and against the API, its page
self-contained, its command line, and the page itself driven in a real browser (headless
Chromium from Debian's package, through Playwright), offline."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import explodice as ex
from explodice import Best, Roll, Rules, exact
from explodice.core.errors import ExplodiceError
from explodice.engine.d20 import d20
from explodice.present.cli import main
from explodice.present.explorer import (
    EXPLORER_NAME,
    MODIFIER_CHOICE,
    explorer_data,
    explorer_html,
    shown_percent,
    write_explorer,
)
from explodice.present.report import load_config

CONFIG = """
title = "A tiny explorer"
seed = 7

[rules]
disadvantage = "drop"

[table]
profiles = { novice = 0, trained = 4 }

[simulation]
days = 60

[[character]]
name = "Ana"
level = 1
scores = { STR = 14, DEX = 16, CON = 12, INT = 10, WIS = 10, CHA = 8 }
skills = { Stealth = 1 }
gauge_per_level = { PA = 1 }

[[character]]
name = "Bo"
level = 10
scores = { STR = 10, DEX = 12, CON = 10, INT = 16, WIS = 12, CHA = 14 }
skills = { Arcana = 2 }
saves = { INT = 2 }
policy = "cancel"

[day]
name = "tiny day"
rolls_per_day = 8

[[day.roll]]
character = "Ana"
skill = "Stealth"
dc = 16

[[day.roll]]
character = "Bo"
ability = "INT"
dc = 12
"""
DATE = "2026-03-04"


@pytest.fixture(scope="module")
def config_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer-config") / "tiny.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def config(config_path):
    return load_config(config_path)


@pytest.fixture(scope="module")
def data(config):
    return explorer_data(config, date=DATE)


@pytest.fixture(scope="module")
def page_file(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer") / EXPLORER_NAME
    path.write_text(explorer_html(data), encoding="utf-8")
    return path


def _row(data, **where):
    rows = data.roll
    for k, v in where.items():
        rows = rows[rows[k] == v]
    assert len(rows) == 1, where
    return rows.iloc[0]


# -- the numbers --------------------------------------------------------------------------
def test_roll_table_holds_hand_derived_values(data):
    # P(3d6 >= 8) with no explosion mattering below 6+: 181/216 (by hand: 1 - 35/216)
    keep = _row(data, system="3d6x", cls="check/pc", state="normal", policy="keep", need=8)
    assert keep.p == pytest.approx(float(Fraction(181, 216)), abs=1e-7)
    # drain of a kept 1: each initial 1 drains an exploding d6 (mean 4.2), three dice x 1/6
    assert keep.drain == pytest.approx(3 * Fraction(1, 6) * Fraction(21, 5), abs=1e-4)
    # d20 + 0 against 15: 6 faces of 20
    assert _row(data, system="d20", cls="check/pc", state="normal", need=15).p == pytest.approx(0.3)
    # d20 with disadvantage (both readings alike): (6/20)^2
    for state in ("disadvantage (subtract)", "disadvantage (drop)"):
        assert _row(data, system="d20", cls="check/pc", state=state, need=15).p == pytest.approx(
            0.09
        )
    # a keep policy never pays for cancelling: cancel succeeds less, drains less
    cancel = _row(data, system="3d6x", cls="check/pc", state="normal", policy="cancel", need=8)
    assert cancel.p < keep.p and cancel.drain < keep.drain


def test_best_rows_are_the_engine_at_each_dc(data):
    rules = Rules(disadvantage="drop")
    for need in (4, 12, 16, 22):
        row = _row(
            data, system="3d6x", cls="save/pc", state="advantage", policy="best(λ=0.05)", need=need
        )
        d = exact(Roll(0, advantage="advantage", kind="save", policy=Best(need, 0.05)), rules)
        assert row.p == pytest.approx(d.p_success(need), abs=1e-7)
        assert row.drain == pytest.approx(d.drain_mean, abs=1e-4)


def test_subjects_carry_each_systems_modifier(data):
    bo = data.subjects.set_index("who").loc["Bo: save INT (+11; d20 +7)"]
    # INT 16 (+3), level 10 (PB +4), save proficient twice: 3d6x adds PB twice, d20 once
    # (Expertise doubles ability checks only)
    assert (bo.mod3, bo.mod20, bo.cls) == (11, 7, "save/pc/own=cancel")  # Bo cancels
    assert MODIFIER_CHOICE in set(data.subjects.who)


def test_the_day_is_exact_day_per_policy(config, data):
    """The explorer's party day is the exact day (issue 31: the same numbers as the report's
    page and `explodice day`), every gauge that can empty shown, overflow included."""
    from explodice.day.exact import exact_day

    cancel = data.day_gauges[data.day_gauges.policy == "cancel"].set_index(["character", "gauge"])
    import dataclasses

    party = tuple(dataclasses.replace(c, policy="cancel") for c in config.day.characters)
    res = exact_day(config.day.replace(characters=party), config.rules)
    g = res.to_frame("gauges").set_index(["character", "gauge"])
    can_empty = g[g.p_empty > 1e-12]
    assert sorted(cancel.index) == sorted(can_empty.index)
    for key, row in cancel.iterrows():
        assert row.p_empty == pytest.approx(g.loc[key, "p_empty"], abs=1e-12)
        assert row.caused_mean == pytest.approx(g.loc[key, "caused_mean"], abs=1e-12)


def test_shown_percent_never_prints_a_false_zero_or_hundred():
    assert shown_percent(1e-9) == "< 0.1%" and shown_percent(1 - 1e-9) == "> 99.9%"
    assert shown_percent(0.0) == "0.0%" and shown_percent(1.0) == "100.0%"


# -- the page -----------------------------------------------------------------------------
def test_the_page_is_self_contained_and_states_its_provenance(page_file, data):
    text = page_file.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=|@import|\bimport\(", text)
    assert "vegaEmbed" in text and "A tiny explorer" in text
    for needle in (
        DATE,
        "seed",
        "7",
        data.meta["version"],
        "drop",
        "exact engine",
        "exactly",
        "60",
    ):
        assert needle in text
    assert page_file.stat().st_size < 4 * 2**20


def test_write_explorer_refuses_a_folder_and_an_unknown_language(tmp_path, config):
    with pytest.raises(ExplodiceError, match="folder"):
        write_explorer(config, tmp_path)
    with pytest.raises(ExplodiceError, match="lang"):
        write_explorer(config, tmp_path / "x.html", lang="de")  # French and English only
    assert not (tmp_path / "x.html").exists()


def test_cli_explore_writes_the_file(config_path, tmp_path, capsys):
    out = tmp_path / "mine.html"
    assert main(["explore", str(config_path), "--out", str(out)]) == 0
    assert out.stat().st_size > 500_000 and "MiB" in capsys.readouterr().out
    assert main(["explore", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("explodice: error:") and len(err.strip().splitlines()) == 1


# -- in a real browser --------------------------------------------------------------------
@pytest.fixture
def page(browser, page_file):
    """The explorer open from disk; every request that is not file:// fails the test."""
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    pg.on(
        "console",
        lambda m: (
            problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning")
            else None
        ),
    )
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))

    def guard(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            problems.append(f"request left the page: {route.request.url}")
            route.abort()

    pg.route("**/*", guard)
    pg.goto(page_file.as_uri())
    pg.evaluate("window.explodiceReady")
    yield pg
    pg.close()
    assert problems == []


def _cells(pg, view: str, prefix: str) -> dict[str, str]:
    """Text marks of a view whose description starts with ``prefix``: {description: text}."""
    return pg.evaluate(
        """([view, prefix]) => Object.fromEntries(
        Array.from(document.querySelectorAll(`#view-${view} text[aria-label]`))
             .filter(e => e.getAttribute('aria-label').startsWith(prefix))
             .map(e => [e.getAttribute('aria-label'), e.textContent]))""",
        [view, prefix],
    )


def _settle(pg) -> None:
    pg.evaluate(
        "Promise.all(Object.values(window.explodiceViews).map(v => v.runAsync())).then(() => null)"
    )


def _set_slider(pg, name: str, value: int) -> None:
    pg.evaluate(
        """([name, value]) => { const el = document.querySelector(`input[name=${name}]`);
        el.value = value; el.dispatchEvent(new Event('input', {bubbles: true})); }""",
        [name, value],
    )


DC3 = {
    "very easy": 8,
    "easy": 12,
    "moderate": 16,
    "hard": 22,
    "very hard": 28,
    "nearly impossible": 35,
}
DC20 = {
    "very easy": 5,
    "easy": 10,
    "moderate": 15,
    "hard": 20,
    "very hard": 25,
    "nearly impossible": 30,
}


def _expected_table(roll3: Roll, roll20: Roll, rules: Rules, policy) -> dict[str, float]:
    out = {}
    for band, dc in DC3.items():
        r = roll3 if policy != "best" else roll3.replace(policy=Best(dc, 0.05))
        d = exact(r, rules)
        out[f"3d6x DC @ {band}"] = dc
        out[f"3d6x P(success) @ {band}"] = float(d.p_success(dc))
        out[f"3d6x E[drain] @ {band}"] = d.drain_mean
    for band, dc in DC20.items():
        out[f"d20 DC @ {band}"] = dc
        out[f"d20 P(success) @ {band}"] = float(d20(roll20).p_success(dc))
    return out


def _agrees(text: str, value: float) -> bool:
    """A printed number ("49.1%", "< 0,1 %", "2.10") agrees with the API's value to the
    precision it is printed with (a value on a rounding tie may print either way)."""
    text = text.replace("\xa0", " ").replace("\u202f", " ").replace(",", ".")
    if text.startswith("< "):
        return 0 < value < 0.0005
    if text.startswith("> "):
        return 0.9995 <= value < 1
    scale = 100 if text.endswith("%") else 1
    number = text.removesuffix("%").rstrip()
    digits = len(number.partition(".")[2])
    return abs(float(number) - scale * value) <= 0.5 * 10.0**-digits + 1e-9


def _assert_shown(shown: dict[str, str], expected: dict[str, float]) -> None:
    assert set(shown) == set(expected)
    wrong = {k: (shown[k], expected[k]) for k in expected if not _agrees(shown[k], expected[k])}
    assert wrong == {}


def test_browser_default_view_shows_the_apis_numbers(page):
    rules = Rules(disadvantage="drop")
    shown = _cells(page, "roll", "")
    _assert_shown(shown, _expected_table(Roll(4), Roll(4), rules, "keep"))


def test_browser_controls_change_the_numbers_to_the_apis(page, tmp_path):
    page.select_option("select[name=who]", "Bo: save INT (+11; d20 +7)")
    page.check("input[name=adv][value=disadvantage]")
    page.check("input[name=reading][value=subtract]")
    page.select_option("select[name=policy]", "best(λ=0.05)")
    _settle(page)
    rules = Rules(disadvantage="subtract")
    roll = Roll(11, advantage="disadvantage", kind="save")
    _assert_shown(
        _cells(page, "roll", ""), _expected_table(roll, roll.replace(modifier=7), rules, "best")
    )

    page.select_option("select[name=who]", MODIFIER_CHOICE)
    _set_slider(page, "mod", -3)
    page.check("input[name=adv][value=advantage]")
    page.select_option("select[name=policy]", "cancel")
    _settle(page)
    roll = Roll(-3, advantage="advantage", policy="cancel")
    _assert_shown(
        _cells(page, "roll", ""),
        _expected_table(roll, roll.replace(policy="keep"), rules, "cancel"),
    )
    page.locator("#roll-section").screenshot(path=tmp_path / "roll.png")
    assert (tmp_path / "roll.png").stat().st_size > 20_000


def test_browser_equivalent_table_is_equivalent_dc(page):
    from explodice.analysis.compare import equivalent_dc

    shown = _cells(page, "equivalent", "equivalent @ ")
    for name, mod in (("novice", 0), ("trained", 4)):
        table = equivalent_dc(Roll(mod), rules=Rules(disadvantage="drop"))
        for row in table.itertuples():
            # a d20 DC the roll cannot reach has no equivalent: the cell says so (item 4)
            # and one it always reaches is matched by any 3d6x DC up to the one found
            want = (
                "impossible in d20"
                if row.p_d20 == 0
                else f"any DC ≤ {row.dc_3d6x}"
                if row.p_d20 == 1
                else f"DC {row.dc_3d6x}"
            )
            assert shown[f"equivalent @ {name} ({mod:+d}) @ {row.difficulty}"] == want


def test_browser_day_follows_the_policy_control(page, config):
    import dataclasses

    page.select_option("select[name=day_policy]", "keep")
    _settle(page)
    shown = _cells(page, "day", "gauge @ ")
    from explodice.day.exact import exact_day

    party = tuple(dataclasses.replace(c, policy="keep") for c in config.day.characters)
    res = exact_day(config.day.replace(characters=party), config.rules)
    g = res.to_frame("gauges")
    g = g[g.p_empty > 1e-12]  # every gauge that can empty, overflow included
    expected = {}
    for row in g.itertuples():
        who = f"{row.character} {row.gauge} ({row.start} points)"
        expected[f"gauge @ {who} @ empty_text"] = row.p_empty
        expected[f"gauge @ {who} @ drain_text"] = row.caused_mean
    _assert_shown(shown, expected)
    bars = _cells(page, "day", "day @ ")
    types = res.to_frame("roll_types")
    types = types[types.rolls > 0]
    _assert_shown(bars, {f"day @ {r.type} @ {r.state}": r.p for r in types.itertuples()})


# -- a character's reroll trait and a save proficient twice ----------------------------------
REROLL_CONFIG = """
title = "Rerolls"
seed = 3

[[character]]
name = "Cy"
level = 1
scores = { STR = 10, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 10 }
reroll = "failure"

[[character]]
name = "Di"
level = 1
scores = { STR = 10, DEX = 14, CON = 10, INT = 10, WIS = 10, CHA = 10 }
skills = { Stealth = 1 }
reroll = "lucky"

[[day.roll]]
character = "Di"
skill = "Stealth"
dc = 12
"""


@pytest.fixture(scope="module")
def reroll_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer-rerolls") / "rerolls.toml"
    path.write_text(REROLL_CONFIG, encoding="utf-8")
    return load_config(path)


@pytest.fixture(scope="module")
def reroll_data(reroll_config):
    return explorer_data(reroll_config, date=DATE, day=False)


def test_a_reroll_on_failure_is_spent_against_each_dc(reroll_data, reroll_config):
    cy = reroll_data.subjects.set_index("who").loc["Cy: save DEX (+0)"]
    assert (cy.mod3, cy.mod20, cy.cls) == (0, 0, "save/pc/failure")
    plain = exact(Roll(0, kind="save"))
    for need in (4, 8, 12, 16, 22, 35):
        # by hand: a failure throws the whole roll again, which drains again
        p = float(plain.p_success(need))
        keep = _row(
            reroll_data, system="3d6x", cls=cy.cls, state="normal", policy="keep", need=need
        )
        assert keep.p == pytest.approx(1 - (1 - p) ** 2, abs=1e-9)
        assert keep.drain == pytest.approx(plain.drain_mean * (1 + (1 - p)), abs=1e-9)
        q = min(max((21 - need) / 20, 0), 1)  # d20 + 0 >= need
        row = _row(reroll_data, system="d20", cls=cy.cls, state="normal", need=need)
        assert row.p == pytest.approx(1 - (1 - q) ** 2, abs=1e-12)
    # with advantage, disadvantage and best(λ): the character's own roll at that DC, as the API
    # builds it (Character.roll binds the trait to the DC)
    c = next(c for c in reroll_config.party if c.name == "Cy")
    for state, adv, rules in (
        ("advantage", "advantage", Rules()),
        ("disadvantage (subtract)", "disadvantage", Rules(disadvantage="subtract")),
        ("disadvantage (drop)", "disadvantage", Rules(disadvantage="drop")),
    ):
        for dc in (8, 16, 22):
            r = c.roll(ability="DEX", kind="save", advantage=adv, dc=dc, policy=Best(dc, 0.05))
            assert r.reroll_dc == dc
            d = exact(r, rules)
            row = _row(
                reroll_data, system="3d6x", cls=cy.cls, state=state, policy="best(λ=0.05)", need=dc
            )
            assert (row.p, row.drain) == pytest.approx((d.p_success(dc), d.drain_mean), abs=1e-12)
            r20 = c.roll(ability="DEX", kind="save", advantage=adv, dc=dc, system="d20")
            row = _row(reroll_data, system="d20", cls=cy.cls, state=state, need=dc)
            assert row.p == pytest.approx(d20(r20).p_success(dc), abs=1e-12)
            no_reroll = exact(r.replace(reroll=None), rules).p_success(dc)
            assert d.p_success(dc) > no_reroll  # the trait is in the numbers


def test_lucky_is_in_its_rows(reroll_data):
    di = reroll_data.subjects.set_index("who").loc["Di: Stealth (+4)"]
    assert di.cls == "check/pc/one" and di.label.endswith(", Lucky")
    for need in (2, 9, 15, 20):
        # d20 by hand: a 1 is rerolled once, so P = q + (1/20) q with q = (21 - need) / 20
        q = (21 - need) / 20
        row = _row(reroll_data, system="d20", cls=di.cls, state="normal", need=need)
        assert row.p == pytest.approx(q * 21 / 20, abs=1e-12)
    keep = _row(reroll_data, system="3d6x", cls=di.cls, state="normal", policy="keep", need=4)
    # 3d6x by hand: a total of 3 needs three 1s and the rerolled one showing 1 again
    assert keep.p == pytest.approx(1 - Fraction(1, 6) ** 4, abs=1e-12)
    # kept 1s: E[1s of the throw] - P(some 1) x P(its reroll is not a 1); each drains 4.2
    ones = Fraction(1, 2) - (1 - Fraction(5, 6) ** 3) * Fraction(5, 6)
    assert keep.drain == pytest.approx(float(ones * Fraction(21, 5)), abs=1e-9)


def test_the_roll_table_is_one_answer_per_class_kept_bit_for_bit(reroll_config, tmp_path):
    # the roll section asks the roll_classes question once per class of its subjects' rolls;
    # a second run reads each answer back from the cache, to the bit
    import dataclasses

    import pandas as pd

    from explodice.present.explorer.keys import POLICY_CHOICES, STATES
    from explodice.questions import cache, registry
    from explodice.questions.roll_classes import RollClass

    with cache.session(folder=tmp_path) as s:
        registry.forget()
        cold = explorer_data(reroll_config, date=DATE, day=False, monsters=False)
        registry.forget()
        warm = explorer_data(reroll_config, date=DATE, day=False, monsters=False)
    n_classes = cold.roll.cls.nunique()
    assert s.computed.count("roll_classes") == n_classes == s.reused.count("roll_classes")
    pd.testing.assert_frame_equal(warm.roll, cold.roll, check_exact=True)
    assert warm.roll.to_json(orient="records") == cold.roll.to_json(orient="records")
    # Cy's saves (a reroll on failure, spent against each need): the engines called directly
    cls = RollClass("save", trigger="failure")
    rows = cold.roll.set_index(["system", "cls", "state", "policy", "need"])
    for state in STATES:
        rules = reroll_config.rules
        if state.reading:
            rules = dataclasses.replace(rules, disadvantage=state.reading)
        for need in (1, 9, 17, 30):
            r20 = d20(cls.roll(state.advantage, "keep", need)).p_success(need)
            assert rows.loc[("d20", cls.key, state.key, "-", need), "p"] == r20
            for choice in POLICY_CHOICES:
                d = exact(cls.roll(state.advantage, choice.policy(need), need), rules)
                row = rows.loc[("3d6x", cls.key, state.key, choice.key, need)]
                assert (row.p, row.drain) == (d.p_success(need), d.drain_mean), (state, choice)


def test_the_page_says_what_its_numbers_count(reroll_data, data, page_file, config):
    page = explorer_html(reroll_data)
    notes = page[page.index('<ul class="notes"') : page.index("</ul>")]
    assert "Cy has a reroll on failure, counted in these numbers" in notes
    assert "against each DC" in notes and "Di has the Lucky trait, counted" in notes
    assert "Di: Stealth (+4), Lucky" in set(reroll_data.subjects.label)
    # Bo's INT save is proficient twice: 3d6x counts it twice, d20 once, and the page says so
    text = page_file.read_text(encoding="utf-8")
    assert "Bo: save INT is proficient twice" in text and "save_expertise" in text
    assert not any("Ana" in n for n in data.meta["notes"])  # nothing to say about Ana
    french = explorer_data(config, lang="fr", date=DATE, day=False)
    assert french.meta["notes"] == [
        "Bo : sauvegarde INT est maîtrisée deux fois ; le d20 n'ajoute le bonus de maîtrise "
        "qu'une fois à un jet de sauvegarde (5e), là où le 3d6x l'ajoute deux fois. La "
        "capacité `save_expertise` du personnage le compterait deux fois au d20."
    ]


@pytest.fixture
def reroll_page(browser, reroll_data, tmp_path):
    path = tmp_path / EXPLORER_NAME
    path.write_text(explorer_html(reroll_data), encoding="utf-8")
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.goto(path.as_uri())
    pg.evaluate("window.explodiceReady")
    yield pg
    pg.close()
    assert problems == []


def test_browser_shows_a_reroll_on_failure_at_each_dc(reroll_page, reroll_config):
    c = next(c for c in reroll_config.party if c.name == "Cy")
    rules = Rules()  # the configuration's rules: disadvantage "subtract"
    for adv, policy in (("normal", "keep"), ("advantage", "best(λ=0.05)")):
        reroll_page.select_option("select[name=who]", "Cy: save DEX (+0)")
        reroll_page.check(f"input[name=adv][value={adv}]")
        reroll_page.select_option("select[name=policy]", policy)
        _settle(reroll_page)
        expected = {}
        for band, dc in DC3.items():
            pol = Best(dc, 0.05) if policy != "keep" else "keep"
            d = exact(c.roll(ability="DEX", kind="save", advantage=adv, dc=dc, policy=pol), rules)
            expected[f"3d6x DC @ {band}"] = dc
            expected[f"3d6x P(success) @ {band}"] = float(d.p_success(dc))
            expected[f"3d6x E[drain] @ {band}"] = d.drain_mean
        for band, dc in DC20.items():
            r20 = c.roll(ability="DEX", kind="save", advantage=adv, dc=dc, system="d20")
            expected[f"d20 DC @ {band}"] = dc
            expected[f"d20 P(success) @ {band}"] = float(d20(r20).p_success(dc))
        _assert_shown(_cells(reroll_page, "roll", ""), expected)
    notes = reroll_page.inner_text("#roll-notes")
    assert "Cy has a reroll on failure" in notes and "Di has the Lucky trait" in notes


def test_browser_slider_follows_who_rolls(page):
    """With a character chosen, the slider is disabled and shows the character's modifier (it
    moves only the slider's own roll); the slider's own roll gets its value back."""
    slider = page.locator("#controls-roll input[name=mod]")
    shown = page.locator("#controls-roll input[name=mod] + span")
    _set_slider(page, "mod", 2)
    _settle(page)
    assert slider.is_enabled() and shown.inner_text() == "2"
    page.select_option("select[name=who]", "Bo: save INT (+11; d20 +7)")
    _settle(page)
    assert slider.is_disabled()
    assert shown.inner_text() == "+11 (d20 +7)" and slider.input_value() == "11"
    assert "the modifier is the character's" in slider.get_attribute("title")
    # the table is Bo's, not the slider's +2, and Bo plays Bo's own policy (cancel) unless
    # the control says otherwise (issue 31)
    cells = _cells(page, "roll", "3d6x P(success) @ moderate")
    rules = Rules(disadvantage="drop")
    own = exact(Roll(11, kind="save", policy="cancel"), rules).p_success(16)
    assert _agrees(cells["3d6x P(success) @ moderate"], own)
    page.select_option("select[name=policy]", "keep")
    _settle(page)
    cells = _cells(page, "roll", "3d6x P(success) @ moderate")
    keep = exact(Roll(11, kind="save"), rules).p_success(16)
    assert keep != own and _agrees(cells["3d6x P(success) @ moderate"], keep)
    page.select_option("select[name=who]", MODIFIER_CHOICE)
    _settle(page)
    assert slider.is_enabled() and shown.inner_text() == "2" and slider.input_value() == "2"
    cells = _cells(page, "roll", "3d6x P(success) @ moderate")
    assert _agrees(cells["3d6x P(success) @ moderate"], exact(Roll(2), rules).p_success(16))


# -- names the designer writes are data ----------------------------------------------------
HOSTILE = "</script><h1 id=injected>x</h1><!--"
HOSTILE_CONFIG = f"""
title = "{HOSTILE} title"
seed = 3

[table]
profiles = {{ "{HOSTILE} p" = 0, "=HYPERLINK(1)" = 4 }}

[simulation]
days = 20

[[character]]
name = "{HOSTILE}"
level = 1
scores = {{ STR = 14, DEX = 16, CON = 12, INT = 10, WIS = 10, CHA = 8 }}
skills = {{ Stealth = 1 }}
gauge_per_level = {{ PA = 1 }}

[[character]]
name = "<img src=x onerror=window.injected=1> \\u2028\\u2029 $x$"
level = 1
scores = {{ STR = 14, DEX = 10, CON = 12, INT = 10, WIS = 10, CHA = 8 }}
skills = {{ Athletics = 1 }}

[day]
name = "{HOSTILE} day"
rolls_per_day = 4

[[day.roll]]
character = "{HOSTILE}"
skill = "Stealth"
dc = 16
label = "{HOSTILE} roll"

[[day.roll]]
character = "<img src=x onerror=window.injected=1> \\u2028\\u2029 $x$"
skill = "Athletics"
dc = 12
"""


def test_hostile_names_inject_nothing_into_the_page(browser, tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE_CONFIG, encoding="utf-8")
    out = write_explorer(path, tmp_path / EXPLORER_NAME, date=DATE)
    text = out.read_text(encoding="utf-8")
    assert text.count("<script") == 2 and text.count("</script>") == 2  # the page's own two
    assert "<h1 id=injected>" not in text and "<img src=x" not in text
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(out.as_uri())
    pg.evaluate("window.explodiceReady")
    _settle(pg)
    counts = pg.evaluate(
        """() => ({scripts: document.querySelectorAll('script').length,
                   h1: document.querySelectorAll('h1').length,
                   injected: document.querySelectorAll('#injected, img').length,
                   ran: window.injected === 1})"""
    )
    assert counts == {"scripts": 2, "h1": 1, "injected": 0, "ran": False}
    assert errors == []
    # the names are shown as written: the title, the day, a character in the controls
    assert f"{HOSTILE} title" in pg.inner_text("h1")
    assert f"{HOSTILE} day" in pg.inner_text("#day-section")
    labels = pg.evaluate(
        "Array.from(document.querySelectorAll('select[name=who] option')).map(o => o.textContent)"
    )
    assert any(label.startswith(f"{HOSTILE}: Stealth") for label in labels)
    pg.select_option("select[name=who]", index=len(labels) - 1)  # a hostile subject chosen
    _settle(pg)
    # the tooltips of the day's bars name the hostile roll type: shown as text
    bar = pg.locator("#view-day g.mark-rect path").first
    bar.hover()
    pg.wait_for_selector("#vg-tooltip-element.visible", timeout=5_000)
    assert HOSTILE in pg.inner_text("#vg-tooltip-element")
    assert pg.evaluate("document.querySelectorAll('#injected, img').length") == 0
    assert errors == []
    pg.close()


# -- under an address-space limit (ulimit -v) ------------------------------------------------
LIMIT = 8 * 2**30  # bytes: far more than explodice needs, far less than V8 reserves


def _explore_under_limit(config_path, out, cache, *, soft_only: bool = False):
    import os
    import resource
    import subprocess
    import sys

    def limit():
        hard = resource.RLIM_INFINITY if soft_only else LIMIT
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, hard))

    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    cmd = [sys.executable, "-m", "explodice.present.cli", "explore", str(config_path)]
    return subprocess.run(
        [*cmd, "--out", str(out)],
        preexec_fn=limit,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_explore_under_an_address_space_limit(config_path, tmp_path):
    from explodice.present.explorer.bundle import bundle_path, vega_bundle

    empty = tmp_path / "empty-cache"
    done = _explore_under_limit(config_path, tmp_path / "a.html", empty)
    if done.returncode == 0:
        pytest.skip("vl-convert's engine starts under an 8 GiB address-space limit here")
    # no bundle cached: the engine's death is one line and exit 2, nothing written
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("explodice: error: ")
    assert "address-space limit of 8.0 GiB" in lines[0] and str(empty) in lines[0]
    assert not (tmp_path / "a.html").exists()
    # with the bundle cached (made here, without the limit), no engine is needed
    bundle = vega_bundle()
    full = tmp_path / "cache"
    target = full / "explodice" / bundle_path().name
    target.parent.mkdir(parents=True)
    target.write_text(bundle, encoding="utf-8")
    done = _explore_under_limit(config_path, tmp_path / "b.html", full)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "b.html").read_text(encoding="utf-8")
    assert bundle in page and "A tiny explorer" in page


@pytest.mark.slow
def test_explore_lifts_a_soft_address_space_limit(config_path, tmp_path):
    done = _explore_under_limit(config_path, tmp_path / "a.html", tmp_path, soft_only=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "explodice").is_dir()  # the bundle was made, then kept


# -- the attack view (issue 32) -----------------------------------------------------------------
def test_attack_rows_are_the_apis_attack_table(data):
    a = data.attack
    three = a[(a.system == "3d6x") & (a.critical == "two_sixes") & (a.state == "advantage")]
    api = ex.attack_table(
        sorted(set(three.modifier)), sorted(set(three.ac)), advantages=["advantage"],
        rules=Rules(critical="two_sixes"),
    )  # fmt: skip
    merged = three.merge(api, on=["modifier", "ac"])
    assert len(merged) == len(three) and (merged.vd_x == merged.vd_y).all()
    assert list(merged.p_hit) == pytest.approx(list(merged.p_hit_3d6x), abs=1e-5)
    assert set(merged.p_crit.round(4)) == {0.1319}  # 4 dice, two 6s or more
    d20_rows = a[(a.system == "d20") & (a.state == "normal") & (a.modifier == 5)]
    by_hand = {ac: sum(f == 20 or (f != 1 and f + 5 >= ac) for f in range(1, 21)) / 20
               for ac in d20_rows.ac}  # fmt: skip
    assert list(d20_rows.p_hit) == pytest.approx([by_hand[ac] for ac in d20_rows.ac])
    assert set(d20_rows.p_crit) == {0.05}


def test_browser_attack_view_follows_its_controls(page):
    def shown(kind: str) -> dict[str, str]:
        return page.evaluate(
            """(kind) => Object.fromEntries(
            Array.from(document.querySelectorAll('#view-attack [aria-label]'))
                 .map(e => e.getAttribute('aria-label'))
                 .filter(t => t && t.startsWith(kind + ' @ '))
                 .map(t => t.split(' = ')))""",
            kind,
        )

    view = "window.explodiceViews.attack"
    page.evaluate(f"{view}.signal('atk_mod', 7).signal('atk_adv', 'advantage')"
                  f".signal('atk_crit', 'two_sixes').signal('atk_axis', 'vd') && null")  # fmt: skip
    _settle(page)
    hits, crits = shown("hit"), shown("crit")
    rules = Rules(critical="two_sixes")
    roll = Roll(7, advantage="advantage", kind="attack")
    for vd in (14, 18, 22):
        p = float(ex.attack_odds(roll, vd, rules).p_hit[0])
        assert _agrees(hits[f"hit @ 3d6x @ {vd}"], p), (vd, hits.get(f"hit @ 3d6x @ {vd}"), p)
        assert _agrees(crits[f"crit @ 3d6x @ {vd}"], 0.131944)
    ac = 15  # the d20 row of the AC that reads VD 15 + base - 10
    vd = ac - 10 + Rules().defence_base
    assert _agrees(hits[f"hit @ d20 @ {vd}"], 1 - (7 / 20) ** 2)  # needs 8+: 1 - P(both < 8)
    assert _agrees(crits[f"crit @ d20 @ {vd}"], 0.0975)


def test_the_header_lists_every_switch_as_the_title_page_does(page_file, config):
    # the header listed 5 switches where the title page lists every one (Lucky's timing, the
    # malus die, hiding ties, haggling, combat were missing): read from the declarations
    import html

    from explodice.game.rules import switches
    from explodice.present.labels import reading_line

    found = re.search(r"<dl class='meta'>.*?</dl>", page_file.read_text(encoding="utf-8"), re.S)
    header = html.unescape(found.group(0))
    for sw in switches():
        question, answer = reading_line(sw.name, getattr(config.rules, sw.name), "en")
        assert f"<dt>{question}</dt>" in header, sw.name
        assert answer in header, sw.name


def test_the_charts_colour_every_gauge_apart_and_tick_whole_percents(data):
    from explodice.present.explorer.charts import explorer_charts

    charts = {k: c.to_dict() for k, c in explorer_charts(data).items()}
    text = str(charts["day"])
    # the default palette has 10 colours: a party of 12 gauges gave two gauges one colour
    assert "'scheme': 'tableau20'" in text
    crit = charts["attack"]["hconcat"][1]["encoding"]["y"]["axis"]
    assert crit["format"] == ".0%"  # "5%", as every other chart, never "5.0%"


def test_the_specifications_are_altairs_checked_ones(data):
    # explorer_specs holds every table aside while Altair builds the charts and leaves out
    # Altair's check of the schema: its specifications are Altair's own, which it checks
    from explodice.present.explorer.charts import explorer_charts, explorer_specs

    specs = explorer_specs(data)
    assert specs == {k: c.to_dict() for k, c in explorer_charts(data).items()}
    assert specs["roll"]["datasets"]  # the tables are there, under Altair's names
