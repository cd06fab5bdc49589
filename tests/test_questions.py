"""The catalogue of questions (issue 31): one answer on every surface.

Each question's numbers are the same, to full precision and with the same method, in the
report's CSV, the command's ``--format csv`` and the explorer's embedded data; the formatter
writes each kind of number one way per language; an answer is keyed and serialised for a
cache (issue 34). Values are checked against the engines called directly (exact_day), or by
hand (the formatter, the tightest line by brute force)."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pytest

from explodice.day.exact import exact_day
from explodice.game.bestiary import SRD_ATTRIBUTION
from explodice.game.rules import Rules
from explodice.present.answers import day_inputs, method_text
from explodice.present.cli import main
from explodice.present.config import load_config
from explodice.present.formats import Formatter
from explodice.present.report.kit import Context
from explodice.questions import registry
from explodice.questions.answer import Answer, Provenance
from explodice.questions.day import DayInputs, emptying
from explodice.questions.gauge_sizing import tightest_line


def _csv(capsys, *argv: str) -> pd.DataFrame:
    assert main(list(argv)) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out))


def _written(frame: pd.DataFrame) -> pd.DataFrame:
    """A report table as its CSV file holds it (the writer's to_csv), read back."""
    from explodice.core.spreadsheet import to_csv

    buf = io.StringIO()
    to_csv(frame, buf)
    return pd.read_csv(io.StringIO(buf.getvalue()))


@pytest.fixture(scope="module")
def config():
    return load_config()


# -- the formatter ---------------------------------------------------------------------------
def test_a_certain_probability_is_100_only_when_exact():
    en = Formatter("en")
    assert en.cell(0.999999999999939, "probability") == "100%"  # 3d6x+5 against DC 8
    assert en.cell(0.0, "probability") == "0%"
    assert en.cell(0.99996, "probability") == "> 99.9%"  # rounds to 100, but is not certain
    assert en.cell(1.0, "probability", exact=False) == "> 99.9%"  # a sample proves nothing
    assert en.cell(0.0, "probability", exact=False) == "< 0.1%"
    assert en.cell(0.838, "probability") == "83.8%"
    assert Formatter("fr").cell(0.838, "probability") == "83,8\xa0%"


def test_a_signed_change_always_carries_its_sign_and_the_surfaces_minus():
    report, cli, fr = Formatter("en"), Formatter("en", "cli"), Formatter("fr")
    assert report.cell(-0.586, "change") == "\u2212" + "58.6 pp"
    assert cli.cell(-0.586, "change") == "-58.6 pp"
    assert fr.cell(0.0548, "change") == "+5,5\xa0pts"
    assert report.cell(0.0, "change") == "±0.0 pp"
    assert report.cell(-1.585, "signed") == "\u22121.585" and cli.cell(0.015, "signed") == "+0.015"
    # one format per column: an exact 0 and rounding noise both ±0.000 (as a change: ±0.0 pp)
    assert report.cell(0.0, "signed") == report.cell(-3.6e-15, "signed") == "±0.000"
    assert report.cell(-3.5, "number") == "\u22123.500" and cli.cell(-3.5, "number") == "-3.500"


def test_missing_values_infinities_and_flags_in_words():
    en, fr = Formatter("en"), Formatter("fr")
    assert en.cell(float("nan"), "number") == "none" and en.cell(None, "points") == "none"
    assert en.cell(float("inf"), "points") == "unbounded"
    assert en.cell(float("-inf"), "number") == "\u2212unbounded"
    assert (en.cell(True, "flag"), fr.cell(False, "flag")) == ("yes", "non")


# -- the answer: keyed and serialised (issue 34's cache) -------------------------------------
def test_an_answers_rows_are_written_column_by_column_as_cell_by_cell():
    # to_json writes a column at a time (numpy's tolist for numbers, the cells of a string
    # column as they are): the same JSON as each cell of each row written alone, for every
    # kind of column a table holds (missing cells included), and an answer of every kind
    # reads back the same
    from explodice.questions import answer as module

    frame = pd.DataFrame(
        {
            "float": [1.5, np.nan, np.inf, -0.0, 1e-300],
            "int": [1, -2, 3, 2**40, 0],
            "flag": [True, False, True, True, False],
            "small": np.array([0.1, np.nan, 2, 3, 4], dtype=np.float32),
            "byte": np.array([1, 2, 3, 4, 255], dtype=np.uint8),
            "str": pd.Series(["x", None, "y", "z", ""], dtype="str"),
            "string": pd.Series(["x", None, "y", "z", "é"], dtype="string"),
            "object": ["a", None, pd.NA, 3, np.float64(2.5)],
            "Int64": pd.array([1, None, 3, 4, 5], dtype="Int64"),
            "category": pd.Categorical(["a", "b", "a", "b", "a"]),
        }
    )
    by_cell = [[module._plain(v) for v in row] for row in frame.itertuples(index=False)]
    assert json.dumps(module._rows(frame)) == json.dumps(by_cell)
    assert module._rows(frame)[1][:3] == [None, -2, False]  # NaN written as null
    assert module._rows(pd.DataFrame(index=range(2))) == [[], []]
    assert module._rows(pd.DataFrame({"x": []}, dtype=float)) == []


def test_an_answer_reads_back_bit_for_bit_and_its_key_follows_its_inputs(config):
    q = registry.question("day")
    inputs = day_inputs(config)
    answer = q.ask(inputs)
    back = Answer.from_json(answer.to_json())
    assert back.provenance == answer.provenance and dict(back.kinds) == dict(answer.kinds)
    for name, frame in answer.tables.items():
        pd.testing.assert_frame_equal(back.tables[name], frame, check_exact=True)
    assert q.key(inputs) == q.key(day_inputs(load_config()))  # content, never identity
    moved = DayInputs(inputs.scenario, Rules(overflow="lost"))
    assert q.key(moved) != q.key(inputs)
    assert q.ask(inputs) is answer  # asked twice in a run: computed once


def test_a_provenance_names_what_differs_from_the_defaults():
    p = Provenance.of("day", Rules(malus_die="plain", overflow="lost"))
    assert p.rules == (("overflow", "lost"), ("malus_die", "plain"))
    assert "overflow = lost" in method_text(p, "en") and "exact" in method_text(p, "en")
    assert p.columns()["rules"] == "overflow=lost;malus_die=plain"
    # a CSV row under the default switches says so (an empty cell read as a column unfilled)
    assert Provenance.of("day", Rules()).columns()["rules"] == "defaults"
    with pytest.raises(Exception, match="n"):
        Provenance("day", "simulate")  # a simulated answer without its n and seed


# -- the day: exact, every gauge that can empty ----------------------------------------------
def test_the_day_answer_is_the_exact_day_with_every_gauge_that_can_empty(config):
    answer = registry.ask("day", day_inputs(config))
    direct = exact_day(config.day, config.rules).to_frame("gauges")
    assert answer.provenance.method == "exact" and answer.provenance.n is None
    gauges = answer.tables["gauges"]
    np.testing.assert_array_equal(gauges.p_empty, direct.p_empty)
    # Gudulf's PM, PF and PH empty only through his PA's overflow (his rolls drain PA alone)
    overflow = gauges[(gauges.caused_mean == 0) & gauges.can_empty]
    assert {("Gudulf", g) for g in ("PM", "PF", "PH")} <= set(
        zip(overflow.character, overflow.gauge)
    )
    curves = emptying(answer)
    shown = set(zip(curves.character, curves.gauge))
    assert shown == set(zip(direct.character, direct.gauge)) - {
        (c, g) for c, g, p in zip(direct.character, direct.gauge, direct.p_empty) if p <= 1e-12
    }


def test_a_simulated_day_says_so_and_carries_its_intervals(config):
    inputs = day_inputs(config, method="simulate")
    answer = registry.ask("day", DayInputs(inputs.scenario, inputs.rules, "simulate", 200, 3))
    p = answer.provenance
    assert (p.method, p.n, p.seed) == ("simulate", 200, 3)
    assert {"ci_low", "ci_high"} <= set(answer.tables["gauges"].columns)
    assert "200 days, seed 3" in method_text(p, "en")


# -- the catalogue: the same numbers on every surface ----------------------------------------
def test_the_day_is_the_same_on_the_report_the_command_and_the_explorer(config, capsys, tmp_path):
    from explodice.present.explorer.data import explorer_data
    from explodice.present.report.pages import day as page

    report = page.data(Context(config, "x", "2026-12-01")).tables
    scenario = tmp_path / "day.toml"
    assert main(["day", "--write-default-scenario", str(scenario)]) == 0
    capsys.readouterr()
    registry.forget()  # each surface computes again: the numbers, not a shared object
    for table, slug in (("gauges", "gauges"), ("empty", "empty"), ("roll_types", "roll-types")):
        cli = _csv(capsys, "day", str(scenario), "--format", "csv", "--table", table)
        ours = _written(report[slug])
        assert list(cli.columns) == list(ours.columns)
        assert set(cli.method) == set(ours.method) == {"exact"}
        for col in ours.columns:
            if pd.api.types.is_float_dtype(ours[col]):
                np.testing.assert_array_equal(cli[col].to_numpy(), ours[col].to_numpy())
    registry.forget()
    data = explorer_data(config)
    own = data.day_gauges[data.day_gauges.policy == "each character's own"]
    gauges = report["gauges"][report["gauges"].can_empty]
    np.testing.assert_array_equal(own.p_empty.to_numpy(), gauges.p_empty.to_numpy())
    np.testing.assert_array_equal(own.caused_mean.to_numpy(), gauges.caused_mean.to_numpy())
    # Aelis already cancels: the party switched to cancel leaves her numbers exactly as they
    # are (the simulated explorer moved her PA from 20.8% to 19.1%: noise read as an effect)
    cancel = data.day_gauges[data.day_gauges.policy == "cancel"]
    mine = [g[g.character == "Aelis"].p_empty.to_numpy() for g in (own, cancel)]
    np.testing.assert_array_equal(*mine)


def test_the_readings_are_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import readings as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["readings"])
    registry.forget()
    # the page moves every switch but combat's (the combat pages read those): the same inputs
    cli = _csv(capsys, "readings", "--switches", *page.PAGE_SWITCHES, "--format", "csv")
    assert list(cli.switch) == list(report.switch) and list(cli.value) == list(report.value)
    assert set(cli.method) == set(report.method)
    assert "day=exact" in report.method.iloc[0]  # the day exact, as on every surface
    for col in ("largest", "drain_max", "day_p_empty_max", "day_successes_max"):
        np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


@pytest.mark.slow
def test_the_gauge_sizing_is_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import gauge_sizing as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["gauges"])
    registry.forget()
    cli = _csv(capsys, "size-gauges", "--format", "csv")
    for col in ("needed", "have", "risk", "risk_have", "per_level_needed"):
        np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


def test_the_progression_is_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import levels_progression as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["progression"])
    registry.forget()
    cli = _csv(capsys, "levels", "--table", "progression", "--format", "csv")
    assert list(cli.columns) == list(report.columns) and set(cli.method) == {"exact"}
    for col in ("p", "drain", "dc", "modifier", "level"):
        np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


@pytest.mark.slow
def test_the_save_dc_is_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import save_dc as page

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    registry.forget()
    for table in ("gaps", "bases"):
        cli = _csv(capsys, "save-dc", "--table", table, "--format", "csv")
        report = _written(tables[table])
        assert list(cli.columns) == list(report.columns) and set(cli.method) == {"exact"}
        for col in report.columns:
            if pd.api.types.is_float_dtype(report[col]):
                np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


def test_the_dc_table_is_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import dc_table as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["success"])
    registry.forget()
    mods = [str(m) for m in config.modifiers]
    cli = _csv(
        capsys, "table", "--modifiers", *mods, "--disadvantage-readings", "both", "--format", "csv"
    )
    assert list(cli.columns) == list(report.columns) and set(cli.method) == {"exact"}
    for col in ("p", "p_complication", "drain_mean", "modifier", "dc"):
        np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


# -- the catalogue walked: one answer on every surface it names ------------------------------
@dataclass(frozen=True)
class Page:
    """A report page's CSV: its slug, the table's name, the rows that stand for the question's
    table on the default configuration (``where``: column -> value)."""

    slug: str
    table: str
    where: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Cli:
    """A command's ``--format csv`` (``DAY.toml``: the default scenario, written)."""

    argv: tuple[str, ...]
    where: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Explorer:
    """A table of the explorer's embedded data (:class:`ExplorerData`'s field), its columns
    named as the question's (``rename``: the explorer's name -> the question's)."""

    field: str
    where: tuple[tuple[str, Any], ...] = ()
    rename: tuple[tuple[str, str], ...] = ()
    #: the method the page's text states for a table that has no ``method`` column (its
    #: records stay small): the explorer's intro says single rolls are exact
    method: str | None = None


#: For each question, on the default configuration: the surfaces that show one of its tables,
#: each list of surfaces holding the same rows (the same numbers, bit for bit, the same method).
#: A question added to the catalogue adds its line here (CONTRIBUTING.md, "A question").
#: A check of ONE surface (a question shown in one place) compares nothing: it only checks that
#: the surface shows the table, not empty, under one method. Those questions' numbers are
#: checked against values found another way by their own tests: monte_carlo
#: (test_the_monte_carlo_check_holds_both_methods...), passive, group, hiding
#: (test_..._hand_pmfs), haggling (test_the_haggling_page_reads_its_question, and
#: test_haggling.py), dc_for_target (test_the_dc_for_a_target_is_the_one_the_rules_give_by_hand),
#: day_policies (test_the_day_policies_are_the_exact_day_played_under_each_policy), critical and
#: combat_progression (test_combat.py).
_OWN = (("policy", "each character's own"),)
_MODS = tuple(str(m) for m in range(0, 13))
_ACS = tuple(str(a) for a in range(10, 25))
SURFACES: dict[str, list[tuple[Page | Cli | Explorer, ...]]] = {
    "day": [
        (
            Page("day", "gauges", (("can_empty", True),)),
            Cli(("day", "DAY.toml", "--table", "gauges"), (("can_empty", True),)),
            Explorer("day_gauges", _OWN),
        ),
        (Page("day", "roll-types"), Cli(("day", "DAY.toml", "--table", "roll_types"))),
    ],
    "readings": [(Page("readings", "readings"), Cli(("readings", "--switches", "PAGE_SWITCHES")))],
    "gauge_sizing": [(Page("gauge-sizing", "gauges"), Cli(("size-gauges",)))],
    "progression": [(Page("levels-progression", "progression"), Cli(("levels", "--table", "progression")))],
    "save_dc": [(Page("save-dc", "gaps"), Cli(("save-dc",))), (Page("save-dc", "bases"), Cli(("save-dc", "--table", "bases")))],
    "success": [
        (Page("dc-table", "success"), Cli(("table", "--modifiers", "MODIFIERS", "--disadvantage-readings", "both"))),
        (
            Page("success-curves", "success"),
            Cli(("table", "--modifiers", "SPREAD", "--dc", *(str(d) for d in range(3, 41)),
                 "--disadvantage-readings", "both")),
        ),
    ],
    "odds": [(Page("distribution", "pmf", (("curve", "3d6x+4"),)), Cli(("odds", "-m", "4", "--pmf")))],
    "compare": [
        (Page("d20-comparison", "equivalent-dc-table"), Cli(("compare",))),
        (Page("d20-comparison", "equivalent-dc"), Explorer("equivalent")),
    ],
    "rule_of_one": [
        (
            Page("rule-of-one", "frontier", (("roll", "3d6x+4, normal, check, pc, keep"), ("dc", 16))),
            Cli(("frontier", "-m", "4", "--dc", "16")),
        ),
    ],
    "monte_carlo": [(Page("monte-carlo", "bands"),), (Page("monte-carlo", "convergence"),)],
    "reroll": [
        (
            Page("rerolls", "worth", (("system", "3d6x"), ("trigger", "failure"), ("advantage", "normal"))),
            Cli(("reroll", "-m", "0", "4", "8")),
        ),
    ],
    "dc_for_target": [(Cli(("dc", "--target", "0.75", "0.5", "0.25")),)],
    "attack": [
        (
            Cli(("attack", "-m", *_MODS, "--ac", *_ACS, "--both-readings", "--critical", "none")),
            Explorer("attack", (("system", "3d6x"), ("critical", "none")),
                     (("state", "advantage"), ("p_hit", "p_hit_3d6x"), ("p_crit", "p_crit_3d6x"))),
        ),
    ],
    "critical": [(Page("combat-hits", "critical"),)],
    "combat_progression": [(Page("combat-hits", "progression"),)],
    "defence_base": [(Page("defence-base", "readings"), Cli(("defence-base", "--table", "readings")))],
    "fp_table": [(Page("bestiary-fp", "fp-table"), Cli(("fp-table",)))],
    "bestiary": [(Page("bestiary", "bestiary"), Cli(("bestiary",)), Explorer("bestiary"))],
    # explorer-only: its numbers are checked against the engines in a test of its own
    "roll_classes": [(Explorer("roll", method="exact"),)],
    "day_policies": [(Page("day-policies", "policies"),)],
    "level_dcs": [(Page("level-dcs", "dcs"), Cli(("levels", "--table", "dcs", "--systems", "3d6x")))],
    "opposed": [
        (
            Page("opposed", "opposed", (("system", "3d6x"), ("modifier_a", 2))),
            Cli(("opposed", "-m", "2", "--system", "3d6x")),
        ),
    ],
    "initiative": [
        (
            Page("initiative", "ranks", (("system", "3d6x"),)),
            Cli(("initiative", "CREATURES", "--show", "ranks", "--system", "3d6x")),
        ),
    ],
    "close_contest": [
        (
            Page("lutte-serree", "bids", (("bids_a", "3"), ("bids_b", "uniform:5"))),
            Cli(("contest", "--bids-a", "3", "--bids-b", "uniform:5")),
        ),
    ],
    "passive": [(Page("passive", "passive"),)],
    "hiding": [(Cli(("hide", "-m", "5", "--passive", "12", "14", "--active", "2")),)],
    "group": [(Page("group", "group"),)],
    "haggling": [(Page("haggling", "items"),), (Page("haggling", "dc16"),)],
}  # fmt: skip
#: The questions whose surfaces take more than a few seconds to compute.
SLOW_QUESTIONS = {"day", "readings", "gauge_sizing", "save_dc"}
_KIND = {Page: "report", Cli: "cli", Explorer: "explorer"}


def _rows(frame: pd.DataFrame, where: tuple[tuple[str, Any], ...]) -> pd.DataFrame:
    for col, value in where:
        frame = frame[frame[col] == value]
    return frame.reset_index(drop=True)


@pytest.fixture(scope="module")
def surfaces_of(config, tmp_path_factory):
    """Reads one surface's table on the default configuration, each computed afresh."""
    from explodice.present.explorer.data import explorer_data
    from explodice.present.report.contents import PAGES
    from explodice.present.report.pages.readings import PAGE_SWITCHES
    from explodice.present.report.pages.success_curves import _spread

    folder = tmp_path_factory.mktemp("catalogue")
    day = folder / "day.toml"
    assert main(["day", "--write-default-scenario", str(day)]) == 0
    ctx = Context(config, "x", "2026-12-01")
    explorer: dict[str, Any] = {}
    fill = {
        "DAY.toml": [str(day)],
        "PAGE_SWITCHES": list(PAGE_SWITCHES),
        "MODIFIERS": [str(m) for m in config.modifiers],
        "SPREAD": [str(m) for m in _spread(config.modifiers, 3)],
        # the initiative page's creatures: the party by its DEX, an orc +1 and a wolf +2
        "CREATURES": [f"{c.name}={c.modifier('DEX'):+d}" for c in config.party]
        + ["Orc=+1", "Wolf=+2"],
    }

    def read(surface: Page | Cli | Explorer, capsys: Any) -> pd.DataFrame:
        registry.forget()  # each surface computes its answer again: the numbers, not an object
        if isinstance(surface, Page):
            spec = next(p for p in PAGES if p.name == surface.slug)
            frame = _written(spec.data(ctx).tables[surface.table])
        elif isinstance(surface, Cli):
            capsys.readouterr()
            argv = [a for arg in surface.argv for a in fill.get(arg, [arg])]
            frame = _csv(capsys, *argv, "--format", "csv")
        else:  # only the parts of the explorer this field needs (the day's take seconds)
            day, monsters = surface.field.startswith("day"), surface.field == "bestiary"
            if (day, monsters) not in explorer:
                explorer[day, monsters] = explorer_data(config, day=day, monsters=monsters)
            data = explorer[day, monsters]
            frame = getattr(data, surface.field).rename(columns=dict(surface.rename))
            if surface.method is not None and "method" not in frame:
                frame = frame.assign(method=surface.method)
            frame = _written(frame)  # as a CSV holds it, like the others
        return _rows(frame, surface.where)

    return read


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if n in SLOW_QUESTIONS else n
        for n in registry.catalogue()
    ],
)
def test_every_question_holds_the_same_numbers_on_each_of_its_surfaces(name, surfaces_of, capsys):
    # issue 31's "done means": the report's CSV, the command's --format csv and the explorer's
    # embedded data hold the same numbers, to full precision, with the same method
    q = registry.question(name)
    assert name in SURFACES, f"question {name!r}: add the surfaces that show it to SURFACES"
    checks = SURFACES[name]
    named = {kind: set(where) for kind, where in q.surfaces.items()}
    covered = {_KIND[type(s)] for check in checks for s in check}
    assert covered == set(named), (name, covered, named)  # every surface it names, and no other
    for check in checks:
        frames = [read for read in (surfaces_of(s, capsys) for s in check)]
        first = frames[0]
        assert len(first), (name, check[0])
        methods = [set(f.method) for f in frames if "method" in f]
        assert methods and all(m == methods[0] for m in methods), (name, methods)
        assert all(len(m) == 1 for m in methods), (name, methods)  # one method per table
        for surface, other in zip(check[1:], frames[1:]):
            assert len(other) == len(first), (name, surface)
            shared = [
                c
                for c in first.columns
                if c in other.columns and pd.api.types.is_numeric_dtype(first[c])
            ]
            assert shared, (name, surface)  # some numbers to compare
            for col in shared:
                np.testing.assert_array_equal(
                    other[col].to_numpy(), first[col].to_numpy(), err_msg=f"{name} {surface} {col}"
                )


def test_every_question_names_its_surfaces_and_each_one_exists():
    from explodice.present.cli.commands import COMMANDS
    from explodice.present.report.contents import PAGES

    pages, commands = {p.name for p in PAGES}, {c.name for c in COMMANDS}
    explorer = {"roll", "equivalent", "day", "bestiary", "attack"}  # explorer_charts' sections
    for name, q in registry.catalogue().items():
        # shown somewhere: a page or a command, or only the explorer (roll_classes)
        assert q.surfaces.get("report") or q.surfaces.get("cli") or q.surfaces.get("explorer"), name
        assert set(q.surfaces) <= {"report", "cli", "explorer"}, name
        assert set(q.surfaces.get("report", ())) <= pages, name
        assert set(q.surfaces.get("cli", ())) <= commands, name
        assert set(q.surfaces.get("explorer", ())) <= explorer, name
    # this round's analyses are questions, shown where they are shown
    combat = {n: registry.question(n).surfaces for n in ("attack", "defence_base", "bestiary")}
    assert combat["attack"] == {"cli": ("attack",), "explorer": ("attack",)}
    assert combat["defence_base"] == {"report": ("defence-base",), "cli": ("defence-base",)}
    assert combat["bestiary"]["explorer"] == ("bestiary",)
    assert registry.question("fp_table").surfaces["cli"] == ("fp-table",)
    assert set(registry.question("critical").surfaces) == {"report"}


def _same_floats(cli: pd.DataFrame, ours: pd.DataFrame) -> None:
    """The same columns, the same method, every float the same double."""
    assert list(cli.columns) == list(ours.columns) and set(cli.method) == set(ours.method)
    for col in ours.columns:
        if pd.api.types.is_float_dtype(ours[col]):
            np.testing.assert_array_equal(cli[col].to_numpy(), ours[col].to_numpy(), err_msg=col)


def test_the_defence_base_is_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import defence_base as page

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    registry.forget()
    for table in ("readings", "cases", "bases"):
        cli = _csv(capsys, "defence-base", "--table", table, "--format", "csv")
        _same_floats(cli, _written(tables[table]))
        assert set(cli.method) == {"exact"}


def test_the_bestiary_is_the_same_on_the_report_the_command_and_the_explorer(config, capsys):
    from explodice.present.explorer.data import BESTIARY_COLUMNS, explorer_data
    from explodice.present.report.pages import bestiary as page

    assert not config.monsters  # the SRD's alone on every surface: the command's default
    ctx = Context(config, "x", "2026-12-01")
    report = _written(page.data_moves(ctx).tables["bestiary"])
    fp = _written(page.data_fp(ctx).tables["fp-table"])
    registry.forget()
    _same_floats(_csv(capsys, "bestiary", "--format", "csv"), report)
    _same_floats(_csv(capsys, "fp-table", "--format", "csv"), fp)
    assert set(report.attribution) == set(fp.attribution) == {SRD_ATTRIBUTION}
    registry.forget()
    ours = explorer_data(config, day=False).bestiary
    assert list(ours.columns) == BESTIARY_COLUMNS and len(ours) == len(report)
    for col in ("p_d20", "p_3d6x", "largest_change"):
        np.testing.assert_array_equal(ours[col].to_numpy(), report[col].to_numpy())


def test_the_attack_is_the_same_on_the_command_and_the_explorer(config, capsys):
    from explodice.present.explorer.data import ATTACK_ACS, ATTACK_MODIFIERS, explorer_data

    data = explorer_data(config, day=False, monsters=False).attack
    registry.forget()
    mods = [str(m) for m in ATTACK_MODIFIERS]
    acs = [str(a) for a in ATTACK_ACS]
    for critical in ("none", "two_sixes", "5"):
        cli = _csv(capsys, "attack", "-m", *mods, "--ac", *acs, "--both-readings",
                   "--critical", critical, "--format", "csv")  # fmt: skip
        assert set(cli.method) == {"exact"}
        ours = data[(data.system == "3d6x") & (data.critical == critical)]
        assert list(ours.state) == list(cli.advantage) and list(ours.ac) == list(cli.ac)
        # full precision: the explorer rounded to five decimals before
        np.testing.assert_array_equal(ours.p_hit.to_numpy(), cli.p_hit_3d6x.to_numpy())
        np.testing.assert_array_equal(ours.p_crit.to_numpy(), cli.p_crit_3d6x.to_numpy())
    five = data[data.system == "d20"]
    np.testing.assert_array_equal(five.p_hit.to_numpy(), cli.p_hit_d20.to_numpy())


def test_the_combat_page_reads_its_questions(config):
    from explodice.analysis.combat import combat_progression, critical_table
    from explodice.present.report.pages import combat_hits as page

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    from explodice.present.builds import shown_builds

    direct = combat_progression(list(shown_builds(config).builds), rules=config.rules)
    for col in ("p_build_hits", "p_monster_hits", "p_build_saves"):
        np.testing.assert_array_equal(tables["progression"][col].to_numpy(), direct[col].to_numpy())
    crit = critical_table(5, rules=config.rules)
    np.testing.assert_array_equal(tables["critical"].p_crit.to_numpy(), crit.p_crit.to_numpy())
    assert set(tables["progression"].method) == set(tables["critical"].method) == {"exact"}


# -- the gauge sizing's line ----------------------------------------------------------------
@pytest.mark.parametrize(
    "needs",
    [{1: 31, 20: 31}, {1: 12, 10: 30, 20: 50}, {1: 5, 5: 40, 20: 41}, {3: 10, 4: 9}],
)
def test_the_tightest_line_meets_every_level_with_the_fewest_points(needs):
    base, per = tightest_line(needs)
    assert all(base + per * lv >= n for lv, n in needs.items())
    total = sum(base + per * lv for lv in needs)
    for b, p in itertools.product(range(-60, 80), range(0, 60)):  # brute force
        if all(b + p * lv >= n for lv, n in needs.items()):
            assert sum(b + p * lv for lv in needs) >= total


# -- every caption names its method and the rules off their defaults -------------------------
CAPTION_CONFIG = """
title = "Captions"
seed = 5

[rules]
overflow = "lost"

[table]
modifiers = [0, 4]

[simulation]
n = 2000
days = 50

[[character]]
name = "Ana"
level = 1
scores = { STR = 14, DEX = 14, CON = 12, INT = 10, WIS = 10, CHA = 8 }
skills = { Stealth = 1 }
gauge_per_level = { PA = 1 }

[day]
name = "short day"
rolls_per_day = 4

[[day.roll]]
character = "Ana"
skill = "Stealth"
dc = 16

[[build]]
name = "fighter"
main = "STR"
scores = { STR = 16, DEX = 13, CON = 14, INT = 8, WIS = 12, CHA = 10 }
skills = { Athletics = 1 }
saves = { STR = 1, CON = 1 }
gauge_per_level = { PA = 3 }
"""
#: How a caption says where its numbers come from (a page of sampled numbers names its n and
#: seed; the Monte Carlo page checks the engine itself).
METHOD_WORDS = ("Exact", "exact", "simulated", "Monte Carlo")


@pytest.mark.slow
def test_every_caption_names_the_method_and_the_rules_off_their_defaults(tmp_path):
    from explodice.present.report.contents import PAGES

    path = tmp_path / "captions.toml"
    path.write_text(CAPTION_CONFIG, encoding="utf-8")
    ctx = Context(load_config(path), "x", "2026-12-01")
    for spec in PAGES[1:]:  # the title page states everything in its own table
        fig = spec.draw(ctx, spec.data(ctx))
        caption = fig.texts[1].get_text().replace("\n", " ")
        assert "Rules off their defaults: overflow = lost." in caption, spec.name
        assert any(w in caption for w in METHOD_WORDS), (spec.name, caption)


def test_a_day_simulated_without_a_seed_records_the_seed_it_drew(capsys, tmp_path):
    scenario = tmp_path / "day.toml"
    assert main(["day", "--write-default-scenario", str(scenario)]) == 0
    capsys.readouterr()
    first = _csv(capsys, "day", str(scenario), "--simulate", "--days", "50", "--format", "csv")
    assert set(first.method) == {"simulate"} and set(first.n) == {50}
    (seed,) = set(first.seed)
    again = _csv(
        capsys, "day", str(scenario), "--days", "50", "--seed", str(seed), "--format", "csv"
    )
    np.testing.assert_array_equal(again.p_empty.to_numpy(), first.p_empty.to_numpy())


def test_a_configuration_that_simulates_the_day_says_n_and_seed_in_the_captions(tmp_path):
    from explodice.present.report.contents import PAGES

    path = tmp_path / "simulated.toml"
    path.write_text(
        CAPTION_CONFIG.replace("days = 50", 'days = 50\nday = "simulate"'), encoding="utf-8"
    )
    config = load_config(path)
    assert config.day_method == "simulate"
    ctx = Context(config, "x", "2026-12-01")
    for spec in PAGES:
        if spec.name in ("day", "readings"):
            data = spec.data(ctx)
            caption = spec.draw(ctx, data).texts[1].get_text().replace("\n", " ")
            assert "50 days" in caption and "seed 5" in caption, (spec.name, caption)
    day = next(s for s in PAGES if s.name == "day").data(ctx)
    assert set(day.tables["gauges"].method) == {"simulate"}
    assert {"ci_low", "ci_high"} <= set(day.tables["gauges"].columns)


# -- the SRD's attribution wherever its monsters are shown -----------------------------------
#: The report's pages that show the SRD's monsters (the combat pages meet its typical monster
#: of each FP), and the commands that do by default.
SRD_PAGES = ("combat-hits", "defence-base", "bestiary-fp", "bestiary")
SRD_COMMANDS = (("defence-base", "--levels", "1"), ("bestiary", "--fp", "5"), ("fp-table",))


def test_every_surface_that_shows_the_srds_monsters_carries_its_attribution(config, capsys):
    from explodice.present.report.contents import PAGES

    ctx = Context(config, "x", "2026-12-01")
    specs = [s for s in PAGES if s.name in SRD_PAGES]
    assert len(specs) == len(SRD_PAGES)
    for spec in specs:
        data = spec.data(ctx)
        for name, table in data.tables.items():  # every CSV of monsters, every row
            if name != "critical":  # a +5 attack against a VD: no monster in it
                assert set(table.attribution) == {SRD_ATTRIBUTION}, (spec.name, name)
        texts = [t.get_text().replace("\n", " ") for t in spec.draw(ctx, data).texts]
        assert any(SRD_ATTRIBUTION in t for t in texts), spec.name
    for argv in SRD_COMMANDS:
        assert main([*argv]) == 0
        header = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("#")]
        assert any(SRD_ATTRIBUTION in ln for ln in header), argv
        csv = _csv(capsys, *argv, "--format", "csv")
        assert set(csv.attribution) == {SRD_ATTRIBUTION}, argv


def test_the_bestiary_pages_meet_the_configurations_builds_as_the_commands_do(capsys, tmp_path):
    # review: `fp-table CONFIG` met the configuration's [[build]] tables, the report's pages and
    # the explorer the reference builds (the same numbers only while the two were equal)
    from importlib.resources import files

    from explodice.present.report.pages import bestiary as page

    text = files("explodice").joinpath("data/default.toml").read_text(encoding="utf-8")
    text = text[: text.index("[[build]]")]  # the default configuration without its builds
    path = tmp_path / "one.toml"
    path.write_text(
        text + '[[build]]\nname = "brute"\nmain = "STR"\n'
        "scores = { STR = 18, DEX = 10, CON = 14, INT = 8, WIS = 8, CHA = 10 }\n"
        'saves = { STR = 1, CON = 1 }\narmour = "plate"\nattack = "melee"\n',
        encoding="utf-8",
    )
    one = load_config(path)
    assert [b.name for b in one.builds] == ["brute"]
    ctx = Context(one, "x", "2026-12-01")
    fp = _written(page.data_fp(ctx).tables["fp-table"])
    registry.forget()
    cli = _csv(capsys, "fp-table", str(path), "--with-srd", "--format", "csv")
    _same_floats(cli, fp)
    # and not the reference builds' table: a single brute in plate moves the matched values
    reference = _written(page.data_fp(Context(load_config(), "x", "2026-12-01")).tables["fp-table"])
    assert not np.array_equal(fp.vd_matched.to_numpy(), reference.vd_matched.to_numpy())


# -- issue 31, the rest of the analyses on the registry --------------------------------------
def _table_cells(fig, header: str) -> list[str]:
    """The cells under ``header`` of the first table drawn on ``fig`` that has that column."""
    for ax in fig.axes:
        for table in ax.tables:
            cells = table.get_celld()
            heads = {
                c: cell.get_text().get_text().strip() for (r, c), cell in cells.items() if r == 0
            }
            for col, head in heads.items():
                if head == header:
                    rows = sorted(r for (r, c) in cells if c == col and r > 0)
                    return [cells[r, col].get_text().get_text().strip() for r in rows]
    raise AssertionError(f"no column {header!r} drawn")


def test_the_day_policies_are_the_exact_day_played_under_each_policy(config):
    import dataclasses

    from explodice.present.report.pages import day_policies as page

    ctx = Context(config, "en", "2026-12-01")
    data = page.data(ctx)
    policies = _written(data.tables["policies"])
    assert set(policies.method) == {"exact"} and policies.n.isna().all()
    day = config.day
    # keep and cancel: the exact day with every PC playing it, the successes of each PC's rolls
    for policy in ("keep", "cancel"):
        scenario = day.replace(
            characters=tuple(dataclasses.replace(c, policy=policy) for c in day.characters)
        )
        types = exact_day(scenario, config.rules).to_frame("roll_types")
        owner = {r.label: r.character for r in day.rolls}  # each roll type's character
        who = [owner[t] for t in types["type"]]  # successes per day, gauge empty or not
        expected = types.successes.groupby(who).sum().sort_index()
        ours = policies[policies.policy == policy].set_index("character").successes.sort_index()
        np.testing.assert_allclose(ours.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    # the gain is the optimal player's successes minus each policy's, never negative
    optimal = policies[policies.policy == "optimal"].set_index("character").successes
    gains = optimal[policies.character].to_numpy() - policies.successes.to_numpy()
    np.testing.assert_array_equal(policies.optimal_gain.to_numpy(), gains)
    assert (policies.optimal_gain > -1e-9).all()
    best = policies[policies.policy == "best fixed λ"]
    assert set(best.weight) <= set(page.LAMBDAS)
    assert policies[policies.policy != "best fixed λ"].weight.isna().all()
    # one format per column: λ with two decimals in every row, gains with three and a sign
    fig = page.draw(ctx, data)
    weights = [c for c in _table_cells(fig, "λ") if c]
    assert weights and all(c == f"{float(c):.2f}" for c in weights), weights
    for cell in _table_cells(fig, "optimal gain"):
        assert cell == "±0.000" or (cell[0] == "+" and len(cell.split(".")[1]) == 3), cell


def test_the_level_dcs_are_the_same_on_the_report_and_the_command(config, capsys):
    from explodice.present.report.pages import level_dcs as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["dcs"])
    registry.forget()
    cli = _csv(capsys, "levels", "--table", "dcs", "--systems", "3d6x", "--format", "csv")
    _same_floats(cli, report)
    assert set(cli.method) == {"exact"} and set(cli.system) == {"3d6x"}
    for col in ("level", "modifier", "dc"):
        np.testing.assert_array_equal(cli[col].to_numpy(), report[col].to_numpy())


@pytest.mark.parametrize(
    ("lang", "zero", "fifteen", "seventy"),
    [("en", "0%", "15.0%", "70.0%"), ("fr", "0\xa0%", "15,0\xa0%", "70,0\xa0%")],
)
def test_levels_writes_a_miss_of_exactly_zero_as_0_and_every_other_to_a_tenth(
    capsys, lang, zero, fifteen, seventy
):
    # by hand, d20: the fighter has +5 at level 1 and +11 at 20, P(success) = (21 + mod - DC)/20
    # is 0.7 exactly at DC 12 and 18 (a per-level miss of 0); the flat DC 15 misses both by
    # 3/20, and so does 5e's printed moderate DC 15 ("levels" wrote "< 0.1%" beside "0.0%"
    # for misses that were both exactly 0, and whole percents)
    argv = ["levels", "--table", "dcs", "--builds", "fighter", "--levels", "1", "20"]
    argv += ["--targets", "moderate=0.7", "--systems", "d20", "--lang", lang]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    # the cell after the label: the text after its last run of plain spaces (nbsp kept)
    lines = [re.split(" {2,}", ln.strip())[-1] for ln in out if "%" in ln and ln[0] != "#"]
    assert lines == [seventy, zero, fifteen, fifteen]


def _opposed_by_hand(m: int, system: str) -> tuple[float, float, float]:
    """P(A wins, ties, loses) for A at +m against B at +0: 3d6x from the hand-made PMF of
    three exploding dice (tests/hand.py), d20 by counting the 400 pairs."""
    from tests.hand import pool

    p = pool(3)[0] if system == "3d6x" else np.r_[0.0, np.full(20, 1 / 20)]
    joint = np.outer(p, p)  # [A's die total, B's]
    margin = np.subtract.outer(np.arange(p.size) + m, np.arange(p.size))
    return tuple(float(joint[cmp(margin, 0)].sum()) for cmp in (np.greater, np.equal, np.less))


def test_the_opposed_tests_are_the_same_on_the_report_and_the_command_and_by_hand(config, capsys):
    from explodice.present.report.pages import opposed as page

    report = _written(page.data(Context(config, "x", "2026-12-01")).tables["opposed"])
    assert set(report.method) == {"exact"} and len(report) == 2 * len(page.MODIFIERS)
    for row in report.itertuples():
        hand = _opposed_by_hand(row.modifier_a, row.system)
        np.testing.assert_allclose((row.win, row.tie, row.loss), hand, rtol=0, atol=1e-12)
    registry.forget()
    for system in ("3d6x", "d20"):
        for m in (-4, 2, 8):
            cli = _csv(capsys, "opposed", "-m", str(m), "--system", system, "--format", "csv")
            ours = report[(report.system == system) & (report.modifier_a == m)]
            _same_floats(cli, ours.reset_index(drop=True))


def test_a_simulated_opposed_test_carries_its_interval_and_replays_from_its_seed(capsys):
    first = _csv(capsys, "opposed", "-m", "2", "--simulate", "--n", "20000", "--format", "csv")
    (seed,) = set(first.seed)
    assert set(first.method) == {"simulate"} and set(first.n) == {20000}
    again = _csv(capsys, "opposed", "-m", "2", "--simulate", "--n", "20000", "--seed", str(seed),
                 "--format", "csv")  # fmt: skip
    _same_floats(again, first)
    win, tie, loss = _opposed_by_hand(2, "3d6x")
    fixed = _csv(capsys, "opposed", "-m", "2", "--simulate", "--n", "20000", "--seed", "1",
                 "--format", "csv")  # fmt: skip
    row = fixed.iloc[0]  # a fixed seed: the check of the interval never flickers
    for name, p in (("win", win), ("tie", tie), ("loss", loss)):  # the truth in its interval
        assert row[f"{name}_low"] < row[name] < row[f"{name}_high"]
        assert row[f"{name}_low"] <= p <= row[f"{name}_high"], name
    assert main(["opposed", "-m", "2", "--simulate", "--n", "20000", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "simulated: 20,000 rolls, seed 1, 95% intervals" in text and " – " in text


def _d20_side_first_by_hand(party: list[int], monsters: list[int]) -> float:
    """P(every party member acts before every monster) in d20 by counting every roll: keys
    (total, DEX) in decreasing order; a group of equal keys in a random order, so where the
    party's lowest key equals the monsters' highest, the a party members and b monsters of
    that key put the party first with 1 / C(a + b, a)."""
    from math import comb

    mods = np.array(party + monsters)
    faces = np.indices((20,) * len(mods)).reshape(len(mods), -1) + 1
    keys = (faces + mods[:, None]) * 100 + mods[:, None]  # total first, then DEX
    ours, theirs = keys[: len(party)], keys[len(party) :]
    low, high = ours.min(axis=0), theirs.max(axis=0)
    a, b = (ours == low).sum(axis=0), (theirs == high).sum(axis=0)
    tied = np.array([1 / comb(int(x) + int(y), int(x)) for x, y in zip(a, b)])
    p = np.where(low > high, 1.0, np.where(low == high, tied, 0.0))
    return float(p.mean())


def test_the_initiative_is_the_same_on_the_report_and_the_command_and_by_hand(config, capsys):
    from explodice.present.report.pages import initiative as page

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    sides, ranks = _written(tables["sides"]), _written(tables["ranks"])
    assert set(sides.method) == set(ranks.method) == {"exact"}
    party = {c.name: c.modifier("DEX") for c in config.party}
    assert all(c.reroll is None for c in config.party)  # the command's NAME=DEX says it all
    first = sides[(sides.system == "d20") & (sides["first"] == "the party")].p.iloc[0]
    hand = _d20_side_first_by_hand(list(party.values()), [1, 2])  # an orc +1, a wolf +2
    assert first == pytest.approx(hand, abs=1e-12)
    registry.forget()
    creatures = [f"{n}={m:+d}" for n, m in party.items()] + ["Orc=+1", "Wolf=+2"]
    split = ["--side", f"the party={','.join(party)}", "--side", "the monsters=Orc,Wolf"]
    for system in ("3d6x", "d20"):
        for show, ours, more in (("sides", sides, split), ("ranks", ranks, [])):
            cli = _csv(capsys, "initiative", *creatures, *more, "--show", show, "--system",
                       system, "--format", "csv")  # fmt: skip
            _same_floats(cli, ours[ours.system == system].reset_index(drop=True))


def test_the_close_contest_is_the_same_on_the_report_and_the_command_and_by_hand(config, capsys):
    from explodice.present.report.pages import lutte_serree as page
    from tests.hand import pool

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    bids, ties = _written(tables["bids"]), _written(tables["ties"])
    assert set(bids.method) == set(ties.method) == {"exact"}
    # by hand, A bids 3 against B's uniform 0-5: B's 0-2 lose (3/6), a 3 ties and both bid
    # again (1/6), a 4 or a 5 wins (2/6): A wins 3/5, the rounds are geometric (mean 6/5), A
    # pays 3 in each of the 1/5 tied rounds and 3 when it wins: 3/5 + 9/5 = 12/5
    row = bids[(bids.bids_a == "3") & (bids.bids_b == "uniform:5")].iloc[0]
    hand = (3 / 5, 2 / 5, 6 / 5, 12 / 5)
    np.testing.assert_allclose(
        (row.p_win_a, row.p_win_b, row.rounds_mean, row.hp_a_mean), hand, rtol=0, atol=1e-12
    )
    # P(total = DC): the hand-made PMF of three exploding dice, 1/20 for a d20 in reach
    three = pool(3)[0]
    for r in ties.itertuples():
        need = r.dc - r.modifier
        p = three[need] if r.system == "3d6x" else (1 / 20 if 1 <= need <= 20 else 0.0)
        assert r.p_tie == pytest.approx(p, abs=1e-12), r
    registry.forget()
    for r in bids.itertuples():
        cli = _csv(capsys, "contest", "--bids-a", r.bids_a, "--bids-b", r.bids_b, "--format", "csv")
        _same_floats(cli, bids[bids.index == r.Index].reset_index(drop=True))


def test_the_passive_page_reads_its_question_and_the_hand_pmfs(config):
    from explodice.present.report.pages import passive as page
    from tests.hand import pool

    frame = _written(page.data(Context(config, "x", "2026-12-01")).tables["passive"])
    assert set(frame.method) == {"exact"}
    three = pool(3)[0]
    cdf = np.cumsum(three)
    by = frame.set_index(["system", "advantage"])
    normal = by.loc[("3d6x", "normal")]  # modifier +0, passive 10
    assert normal["median"] == int(np.argmax(cdf >= 0.5)) and normal.passive == 10
    assert normal["mean"] == pytest.approx(3 * 3.5 * 6 / 5, abs=1e-9)  # exploding d6: 4.2, cut
    assert normal.p_roll_at_least == pytest.approx(three[10:].sum(), abs=1e-12)
    d20 = by.loc[("d20", "normal")]  # faces 10..20 reach 10: 11/20; the mean 10.5
    assert (d20.p_roll_at_least, d20["mean"]) == pytest.approx((11 / 20, 10.5), abs=1e-12)
    assert normal.base_for_median == normal["median"]  # at modifier +0, passive 10 + 0


def test_hide_is_its_question_and_the_hand_pmfs(capsys):
    from explodice.game.rules import Roll
    from explodice.questions.hiding import HidingInputs
    from tests.hand import pool

    three = pool(3)[0]
    s = np.arange(three.size)
    # Stealth +5 against passive 12 and 14 and an active Perception +2 (a tie keeps hidden)
    joint = np.outer(three, three)  # [Stealth die total, Perception die total]
    each = {
        "passive 12": three[s + 5 >= 12].sum(),
        "passive 14": three[s + 5 >= 14].sum(),
        "active 0": joint[np.add.outer(s + 5, -(s + 2)) >= 0].sum(),
    }
    beats = np.add.outer(s + 5, -(s + 2)) >= 0
    every = joint[beats & (s + 5 >= 14)[:, None]].sum()
    cli = _csv(capsys, "hide", "-m", "5", "--passive", "12", "14", "--active", "2", "--format",
               "csv")  # fmt: skip
    assert set(cli.method) == {"exact"}
    got = dict(zip(cli.observer, cli.p_hidden_from))
    np.testing.assert_allclose([got[k] for k in each], list(each.values()), rtol=0, atol=1e-12)
    assert got["all"] == pytest.approx(every, abs=1e-12)
    answer = registry.ask("hiding", HidingInputs(Roll(5), (Roll(2),), (12, 14)))
    group = answer.tables["group"].iloc[0]
    assert group.p_if_independent == pytest.approx(np.prod(list(each.values())), abs=1e-12)
    assert main(["hide", "-m", "5", "--passive", "12", "14", "--active", "2"]) == 0
    out = capsys.readouterr().out
    assert Formatter("en", "cli").cell(every, "probability") in out.splitlines()[0]


def test_the_group_page_reads_its_question_and_the_hand_pmfs(config):
    from explodice.present.report.pages import group as page
    from tests.hand import pool, sf

    frame = _written(page.data(Context(config, "x", "2026-12-01")).tables["group"])
    assert set(frame.method) == {"exact"} and set(frame.how) == {"group", "together", "alone"}
    gudulf = next(c for c in config.party if c.name == "Gudulf")
    assert (str(gudulf.policy), gudulf.reroll) == ("keep", None)  # his total is the dice's
    mod = gudulf.roll(page.SKILL).modifier
    for dc in (8, 12, 16, 22):
        at = frame[frame.dc == dc]
        alone = at[at.how == "alone"].set_index("member").p
        assert alone["Gudulf"] == pytest.approx(sf(pool(3), dc - mod), abs=1e-12)
        a, b, c = alone.to_numpy()  # at least 2 of 3, by hand from each alone
        (group,) = at[at.how == "group"].p
        assert group == pytest.approx(a * b + a * c + b * c - 2 * a * b * c, abs=1e-12)


def test_the_haggling_page_reads_its_question(config):
    from explodice.analysis.resolutions import haggle_table
    from explodice.present.report.pages import haggling as page

    tables = page.data(Context(config, "x", "2026-12-01")).tables
    items, changes = _written(tables["items"]), _written(tables["dc16"])
    assert set(items.method) == set(changes.method) == {"exact"}
    direct = haggle_table(list(config.modifiers), rules=config.rules)
    for col in ("mean", "p_better", "p_even", "p_worse"):
        np.testing.assert_array_equal(items[col].to_numpy(), direct[col].to_numpy())
    # each modifier's changes are a distribution; better / even / worse at DC 16 agree
    sums = changes.groupby("modifier").p.sum()
    np.testing.assert_allclose(sums.to_numpy(), 1.0, rtol=0, atol=1e-9)
    at16 = direct[direct.dc == 16].drop_duplicates("modifier").set_index("modifier")
    better = changes[changes.change_pct > 0].groupby("modifier").p.sum()
    np.testing.assert_allclose(better.to_numpy(), at16.p_better[better.index], atol=1e-12)


def _caption(fig) -> str:
    return fig.texts[1].get_text().replace("\n", " ")


def test_the_combat_and_bestiary_captions_read_their_questions_summaries(config):
    from explodice.present.report.pages import bestiary, combat_hits, defence_base

    ctx, fmt = Context(config, "en", "2026-12-01"), Formatter("en")
    # combat: the mean P(hit) of each system over every build, level and both directions
    data = combat_hits.data(ctx)
    table = data.tables["progression"]
    means = data.shown["progression"].tables["summary"].set_index("system").p_hit_mean
    caption = _caption(combat_hits.draw(ctx, data))
    for system in ("3d6x", "d20"):
        part = table[table.system == system][["p_build_hits", "p_monster_hits"]].to_numpy()
        assert means[system] == pytest.approx(part.mean(), abs=1e-15)
        assert fmt.cell(means[system], "probability") in caption
    # the defence base: its cases, its fit's error, the largest error of a case
    data = defence_base.data(ctx)
    cases = data.tables["cases"]
    summary = data.shown["answer"].tables["summary"].iloc[0]
    assert summary.n_cases == len(cases) and summary.base == data.shown["fit"].base
    assert summary.max_error == cases.error.abs().max()
    caption = _caption(defence_base.draw(ctx, data))
    # the errors are differences of probabilities: percentage points (pages review, item 12)
    for text in (fmt.points(summary.fit_error, signed=False),
                 fmt.points(summary.max_error, signed=False),
                 fmt.cell(summary.n_cases, "count")):  # fmt: skip
        assert text in caption
    # the bestiary: the monsters shown and the share of their chances flagged
    data = bestiary.data_moves(ctx)
    frame, summary = data.tables["bestiary"], data.shown["summary"]
    assert summary.monsters == frame.name.nunique()
    assert summary.share_flagged == pytest.approx(frame.flagged.mean(), abs=1e-15)
    caption = _caption(bestiary.draw_moves(ctx, data))
    assert f"{fmt.cell(summary.share_flagged, 'probability')} of the chances" in caption


def test_the_haggling_page_writes_every_minus_the_same_way(config):
    # issue 31: page 12's cells wrote U+2212 and its axes a hyphen (-1 beside −13 %)
    from explodice.present.plots.cells import CellTexts
    from explodice.present.report.pages import haggling as page

    ctx = Context(config, "en", "2026-12-01")
    fig = page.draw(ctx, page.data(ctx))
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_xticklabels()]
    # the heatmap's numbers: one CellTexts artist (plots/cells.py), not a Text each
    cells = [t for ax in fig.axes for a in ax.artists if isinstance(a, CellTexts)
             for t in a.get_texts()]  # fmt: skip
    assert cells  # the cells were read
    assert any("\u2212" in t for t in ticks) and any("\u2212" in t for t in cells)
    assert not any("-" in t for t in ticks + cells), [t for t in ticks + cells if "-" in t]


def test_the_resolutions_answers_read_back_bit_for_bit(config):
    # what the cache of answers between runs keeps: NA, empty tables, labels, every float
    from explodice.game.rules import Roll
    from explodice.questions.close_contest import CloseContestInputs
    from explodice.questions.group import GroupInputs
    from explodice.questions.haggling import HagglingInputs
    from explodice.questions.hiding import HidingInputs
    from explodice.questions.initiative import InitiativeInputs
    from explodice.questions.level_dcs import LevelDCsInputs
    from explodice.questions.opposed import OpposedInputs
    from explodice.questions.passive import PassiveInputs

    asked = {
        "opposed": OpposedInputs(
            (Roll(1), Roll(-2)), Roll(0), ("3d6x", "d20"), method="simulate", n=500, seed=4
        ),  # fmt: skip
        "passive": PassiveInputs(),
        "group": GroupInputs(tuple(config.party), dcs=(12, 16)),
        "haggling": HagglingInputs((0, 4)),
        "initiative": InitiativeInputs(tuple((f"c{i}", i % 3) for i in range(8))),  # no orders
        "close_contest": CloseContestInputs(((3, "uniform:5"),), (0,)),
        "hiding": HidingInputs(Roll(3), (Roll(1),), (12,)),
        "level_dcs": LevelDCsInputs(tuple(config.builds)[:1], config.rules, (1, 20)),
    }
    for name, inputs in asked.items():
        answer = registry.ask(name, inputs)
        back = Answer.from_json(answer.to_json())
        assert back.provenance == answer.provenance, name
        assert set(answer.kinds) >= {c for f in answer.tables.values() for c in f.columns}, name
        for table, frame in answer.tables.items():
            pd.testing.assert_frame_equal(back.tables[table], frame, check_exact=True)
    assert registry.ask("initiative", asked["initiative"]).tables["orders"].empty


def test_the_opposed_header_speaks_french(capsys):
    # issue 31: `opposed --lang fr` wrote its sides in English ("normal, check, pc, keep")
    assert main(["opposed", "-m", "2", "--policy", "cancel", "--lucky", "--lang", "fr"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "A = 3d6x+2, normal, test, PJ, annuler, Chanceux ; B = 3d6x+0" in header, header
    assert "exacte (sans tirage)" in header and "check" not in header and "keep" not in header


# -- single rolls: odds and the d20 comparison, against the rules by hand --------------------
@pytest.mark.parametrize(
    "state, hand", [("normal", "normal"), ("advantage", "advantage"),
                    ("disadvantage", "disadvantage (subtract)")],
)  # fmt: skip
def test_the_odds_are_the_rules_by_hand(state, hand):
    from explodice.game.rules import Roll
    from explodice.questions.odds import OddsInputs
    from tests.hand import HAND, sf

    answer = registry.ask("odds", OddsInputs(Roll(4, advantage=state), Rules(), dcs=(8, 16, 30)))
    success = answer.tables["success"]
    expected = [sf(HAND[hand], dc - 4) for dc in (8, 16, 30)]
    np.testing.assert_allclose(success.p.to_numpy(), expected, rtol=0, atol=1e-12)
    pmf = answer.tables["pmf"]
    p, lo = HAND[hand]
    np.testing.assert_allclose(pmf.p.to_numpy(), p[pmf.total.to_numpy() - 4 - lo], atol=1e-12)
    at_least = [sf(HAND[hand], t - 4) for t in pmf.total]
    np.testing.assert_allclose(pmf.p_at_least.to_numpy(), at_least, atol=1e-12)
    summary = answer.tables["summary"].iloc[0]
    mean = float((p * (np.arange(p.size) + lo)).sum()) + 4
    assert summary["mean"] == pytest.approx(mean, abs=1e-9)
    assert answer.provenance.method == "exact" and "ci_low" not in success


def test_the_d20_odds_and_a_simulated_roll_say_how_they_were_obtained():
    from explodice.game.rules import Roll
    from explodice.questions.odds import OddsInputs

    d20 = registry.ask("odds", OddsInputs(Roll(3), Rules(), "d20", (2, 15, 24)))
    # by hand: a d20 + 3 reaches DC d on the faces d - 3 .. 20, at least 1 and at most 20 faces
    np.testing.assert_allclose(d20.tables["success"].p, [1.0, 9 / 20, 0.0], rtol=0, atol=1e-15)
    assert Formatter("en").cell(1.0, "probability") == "100%"  # exact: certain
    sim = registry.ask(
        "odds", OddsInputs(Roll(4), Rules(), dcs=(16,), method="simulate", n=20_000, seed=3)
    )
    p = sim.provenance
    assert (p.method, p.n, p.seed, p.unit) == ("simulate", 20_000, 3, "rolls")
    row = sim.tables["success"].iloc[0]
    from tests.hand import HAND, sf

    assert row.ci_low <= sf(HAND["normal"], 12) <= row.ci_high  # the exact value inside
    assert "20,000 rolls, seed 3" in method_text(p, "en")


def test_the_odds_command_in_french_writes_the_roll_and_the_method_in_french(capsys):
    assert main(["odds", "-m", "4", "--advantage", "advantage", "--lang", "fr"]) == 0
    head = capsys.readouterr().out.splitlines()[:3]
    assert head[0] == "# 3d6x+4, avantage, test, PJ, garder"
    assert "exacte (sans tirage)" in head[1] and head[2].startswith("# moyenne 20,8")


def test_the_equivalent_dcs_are_the_closest_by_hand():
    from explodice.questions.compare import CompareInputs
    from tests.hand import HAND, sf

    answer = registry.ask("compare", CompareInputs((("trained", 4), ("expert", 8)), Rules()))
    eq = answer.tables["equivalent"]
    for row in eq.itertuples():
        p_d20 = min(max((21 - (row.d20_dc - row.modifier)) / 20, 0.0), 1.0)  # by hand
        assert row.p_d20 == pytest.approx(p_d20, abs=1e-12)
        if p_d20 == 0:  # no roll reaches it: no 3d6x DC is its equivalent (item 4)
            assert row.note == "impossible in d20"
            assert pd.isna(row.dc_3d6x) and pd.isna(row.p_3d6x) and pd.isna(row.gap)
            continue
        p3 = sf(HAND["normal"], row.dc_3d6x - row.modifier)
        assert row.p_3d6x == pytest.approx(p3, abs=1e-12)
        if not row.note:  # the closest 3d6x DC: neither neighbour is closer
            for dc in (row.dc_3d6x - 1, row.dc_3d6x + 1):
                other = sf(HAND["normal"], dc - row.modifier)
                assert abs(p3 - p_d20) <= abs(other - p_d20) + 1e-12
    table = answer.tables["table"]
    assert answer.extra["reference"] == "trained" and set(table.profile) == {"trained", "expert"}
    # d20 DC 30: 0% for +4 and +8 alike (by hand above), so no row of it names a 3d6x DC
    none = table[table.d20_dc == 30]
    assert len(none) == 2 and set(none.note) == {"impossible in d20"}
    assert none.dc_3d6x.isna().all() and none.p_3d6x.isna().all()
    # d20 DC 25 is reached by +8 (20%): matched on it, a DC is given to both
    some = table[table.d20_dc == 25]
    assert set(some.matched_on) == {"expert"} and some.dc_3d6x.notna().all()
    assert set(some.note) == {""}


def test_the_compare_note_is_french_under_lang_fr(capsys):
    # issue 31: `compare -m 4 --lang fr` wrote its note about d20 DCs 25 and 30 in English
    assert main(["compare", "-m", "4", "--lang", "fr"]) == 0
    head = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("#")]
    assert len(head) == 2 and "DD du d20 25 et 30" in head[1], head
    assert "for this roll" not in "".join(head)


def test_the_rule_of_one_answers_the_rules_by_enumeration():
    from explodice.game.rules import Roll
    from explodice.questions.rule_of_one import RuleOfOneInputs
    from tests.brute import enumerate_roll
    from tests.hand import HAND, sf

    rules = Rules()
    inputs = RuleOfOneInputs(rules, drains=(("keep", Roll(0)),), cases=((Roll(2), 16),), upto=6)
    answer = registry.ask("rule_of_one", inputs)
    front = answer.tables["frontier"]
    keep, cancel = front.iloc[0], front.iloc[-1]
    assert (keep.policy, cancel.policy) == ("keep", "cancel")
    assert keep.p_success == pytest.approx(sf(HAND["normal"], 14), abs=1e-12)
    assert keep.drain_mean == pytest.approx(3 / 6 * 4.2, abs=1e-9)  # a kept 1 drains a d6x
    brute = enumerate_roll(Roll(2, policy="cancel"), rules, 10)  # every throw, walked
    p = sum(q for (total, _, _), q in brute.items() if total >= 16)
    drain = sum(q * d for (_, d, _), q in brute.items())
    assert cancel.p_success == pytest.approx(p, abs=1e-6)
    assert cancel.drain_mean == pytest.approx(drain, abs=1e-6)
    drains = answer.tables["drain"]
    # drain 1: exactly one kept 1 (75/216) whose drain die shows 1 (1/6)
    assert drains.p.iloc[1] == pytest.approx(75 / 216 / 6, abs=1e-12)
    assert answer.provenance.method == "exact"


def test_the_monte_carlo_check_holds_both_methods_and_its_seed_gives_its_numbers():
    from explodice.game.rules import Roll
    from explodice.questions.monte_carlo import MonteCarloInputs
    from tests.hand import HAND, sf

    inputs = MonteCarloInputs(Roll(4, advantage="advantage"), Rules(), dc=22, n=4000, seed=9)
    answer = registry.ask("monte_carlo", inputs)
    p = answer.provenance
    assert (p.method, p.n, p.seed) == ("simulate", 4000, 9)
    bands = answer.tables["bands"]
    by_hand = [sf(HAND["advantage"], dc - 4) for dc in bands.dc]
    np.testing.assert_allclose(bands.exact.to_numpy(), by_hand, atol=1e-12)
    outside = ((bands.exact < bands.ci_low) | (bands.exact > bands.ci_high)).mean()
    assert outside < 0.2  # 95% intervals: a few DCs may miss, not many
    conv = answer.tables["convergence"]
    assert conv.n.tolist()[0] == 1000 and conv.n.tolist()[-1] == 4000
    np.testing.assert_allclose(conv.exact.to_numpy(), sf(HAND["advantage"], 18), atol=1e-12)
    registry.forget()
    again = registry.ask("monte_carlo", inputs)  # computed afresh: the same seed, the same rolls
    np.testing.assert_array_equal(again.tables["bands"].p.to_numpy(), bands.p.to_numpy())


def test_a_reroll_on_failure_is_worth_what_the_rules_say_by_hand():
    from explodice.questions.reroll import RerollInputs
    from tests.hand import HAND, sf

    inputs = RerollInputs((0, 4), Rules(), (12, 16, 22), systems=("3d6x", "d20"))
    worth = registry.ask("reroll", inputs).tables["worth"]
    for row in worth.itertuples():
        need = row.dc - row.modifier
        if row.system == "3d6x":
            p = sf(HAND["normal"], need)
        else:  # a d20 reaches `need` on the faces need..20
            p = min(max((21 - need) / 20, 0.0), 1.0)
        assert row.p == pytest.approx(p, abs=1e-12)
        assert row.p_reroll == pytest.approx(1 - (1 - p) ** 2, abs=1e-12)  # two tries
        assert row.gain == pytest.approx(row.p_reroll - row.p, abs=1e-15)
    assert (worth[worth.system == "d20"].drain_added == 0).all()  # the d20 drains nothing


@pytest.mark.parametrize("mode", ["closest", "at_least", "at_most"])
def test_the_dc_for_a_target_is_the_one_the_rules_give_by_hand(mode):
    from explodice.game.rules import Roll
    from explodice.questions.dc_for_target import DCForTargetInputs
    from tests.hand import HAND, sf

    targets = (0.9, 0.5, 0.2)
    answer = registry.ask("dc_for_target", DCForTargetInputs(Roll(3), Rules(), targets, mode=mode))
    odds = {dc: sf(HAND["normal"], dc - 3) for dc in range(1, 60)}  # by hand
    for t, row in zip(targets, answer.tables["dcs"].itertuples()):
        assert row.p == pytest.approx(odds[row.dc], abs=1e-12)
        if mode == "closest":
            best = min(abs(p - t) for p in odds.values())
            assert abs(row.p - t) == pytest.approx(best, abs=1e-12)
        elif mode == "at_least":  # the hardest DC still at least t
            assert row.p >= t and odds[row.dc + 1] < t
        else:  # the easiest DC at most t
            assert row.p <= t and odds[row.dc - 1] > t


def _single_roll_inputs() -> dict[str, Any]:
    """Small inputs of the single-roll questions (issue 31's second round)."""
    from explodice.game.rules import Roll
    from explodice.questions.compare import CompareInputs
    from explodice.questions.dc_for_target import DCForTargetInputs
    from explodice.questions.monte_carlo import MonteCarloInputs
    from explodice.questions.odds import OddsInputs
    from explodice.questions.reroll import RerollInputs
    from explodice.questions.rule_of_one import RuleOfOneInputs

    rules = Rules(overflow="lost")
    return {
        "odds": OddsInputs(Roll(2, advantage="advantage"), rules, dcs=(12, 16)),
        "compare": CompareInputs((("a", 0), ("b", 5)), rules, lucky=True),
        "rule_of_one": RuleOfOneInputs(rules, (("keep", Roll(1)),), ((Roll(1), 14),), upto=5),
        "monte_carlo": MonteCarloInputs(Roll(0), rules, 12, 2000, 4, dcs=(8, 12), steps=2),
        "reroll": RerollInputs((1,), rules, (14,), triggers=("one",)),
        "dc_for_target": DCForTargetInputs(Roll(1), rules, (0.3,)),
    }


@pytest.mark.parametrize("name", list(_single_roll_inputs()))
def test_a_single_roll_answer_reads_back_bit_for_bit_and_names_the_rules(name):
    inputs = _single_roll_inputs()[name]
    answer = registry.ask(name, inputs)
    assert answer.provenance.rules == (("overflow", "lost"),)  # the switch off its default
    back = Answer.from_json(answer.to_json())  # what the cache of answers keeps
    assert back.provenance == answer.provenance and back.extra == answer.extra
    for table, frame in answer.tables.items():
        pd.testing.assert_frame_equal(back.tables[table], frame, check_exact=True)
        for col in frame.columns:  # every column that reaches a surface has its kind
            assert answer.kind(str(col)) is not None, (name, table, col)


def test_a_certain_cell_of_the_dc_table_is_100_percent_on_the_command_line(capsys):
    # issue 31: 3d6x+5 against DC 8 always succeeds (its three dice make at least 3), but the
    # table wrote "100.0%" (and the report ">99") like a cell that only rounds there
    assert main(["table", "--modifiers", "5", "--dc", "8", "16", "--states", "normal"]) == 0
    row = capsys.readouterr().out.splitlines()[-1].split()
    assert row[2] == "100%" and row[3] not in ("100%", "> 99.9%")


def test_the_roll_classes_question_is_the_hand_made_pmfs_and_the_engines():
    # the explorer's roll section's question, checked against values found another way: the
    # hand-made 3d6x PMFs of tests/hand.py, the d20 by hand, and the exact engine called on
    # the roll as the API builds it (a reroll on failure bound to each DC, best(λ) at each DC)
    from explodice import Best, Roll, exact
    from explodice.game.reroll import Reroll
    from explodice.questions.roll_classes import PolicyChoice, RollClass, RollClassInputs
    from tests.hand import HAND, sf

    states = (
        ("normal", "normal", None),
        ("advantage", "advantage", None),
        ("disadvantage (subtract)", "disadvantage", "subtract"),
        ("disadvantage (drop)", "disadvantage", "drop"),
    )
    keep, cancel, best = PolicyChoice("keep"), PolicyChoice("cancel"), PolicyChoice("best", 0.1)
    needs = (4, 8, 12, 16, 22)
    plain = registry.ask(
        "roll_classes",
        RollClassInputs(RollClass(), needs, (("keep", keep), ("cancel", cancel)), states, Rules()),
    )
    assert plain.provenance.method == "exact" and set(plain.kinds) == set(plain.tables["roll"])
    t = plain.tables["roll"].set_index(["system", "state", "policy", "need"])
    assert len(t) == len(states) * 3 * len(needs) and t.index.is_unique
    for state, _, _ in states:
        for need in needs:
            # keep: the dice's total against the need, whatever the 1s drain
            got = t.loc[("3d6x", state, "keep", need), "p"]
            assert got == pytest.approx(sf(HAND[state], need), abs=1e-9), (state, need)
            q = min(max((21 - need) / 20, 0.0), 1.0)  # d20 + 0 >= need
            by_hand = {"normal": q, "advantage": 1 - (1 - q) ** 2}.get(state, q * q)
            assert t.loc[("d20", state, "-", need), "p"] == pytest.approx(by_hand, abs=1e-12)
    # a save with a reroll on failure, its owner playing best(λ=0.1), written under two names
    cls = RollClass("save", trigger="failure", own="best(λ=0.1)")
    tried = (("keep", keep), ("best(λ=0.1)", best), ("each character's own", best))
    bound = registry.ask("roll_classes", RollClassInputs(cls, needs, tried, states, Rules()))
    r = bound.tables["roll"]
    assert set(r.cls) == {"save/pc/failure/own=best(λ=0.1)"}
    r = r.set_index(["system", "state", "policy", "need"])
    for need in needs:
        # by hand: a failure throws the whole roll again
        p = sf(HAND["normal"], need)
        assert r.loc[("3d6x", "normal", "keep", need), "p"] == pytest.approx(1 - (1 - p) ** 2)
        q = min(max((21 - need) / 20, 0.0), 1.0)
        assert r.loc[("d20", "normal", "-", need), "p"] == pytest.approx(1 - (1 - q) ** 2)
        for state, adv, reading in states:
            roll = Roll(0, advantage=adv, kind="save", policy=Best(need, 0.1),
                        reroll=Reroll("failure", dc=need))  # fmt: skip
            d = exact(roll, Rules(disadvantage=reading) if reading else Rules())
            for name in ("best(λ=0.1)", "each character's own"):
                row = r.loc[("3d6x", state, name, need)]
                assert (row.p, row.drain) == (d.p_success(need), d.drain_mean), (state, name)


def test_roll_classes_best_rows_share_a_distribution_only_where_the_engine_agrees(monkeypatch):
    # best(λ) rows against needs far apart share one exact distribution where their policy
    # tables agree: each row must still be the exact engine's own distribution of the roll
    # at that need (to the bit), and far fewer distributions computed than rows
    from explodice import Best, Roll, exact
    from explodice.game.reroll import Reroll
    from explodice.questions import roll_classes
    from explodice.questions.roll_classes import PolicyChoice, RollClass, RollClassInputs

    monkeypatch.setattr(roll_classes, "_AT_NEED", {})
    monkeypatch.setattr(roll_classes, "_BY_TABLE", {})
    calls: list[Roll] = []

    def counted(roll: Roll, rules: Rules) -> Any:
        calls.append(roll)
        return exact(roll, rules)

    monkeypatch.setattr(roll_classes, "exact", counted)
    states = (("advantage", "advantage", None), ("disadvantage (drop)", "disadvantage", "drop"))
    # saves outside the rule of 1: their rolls keep every 1 and drain nothing
    rules = Rules(ones_on_explosions=True, rule_of_one_kinds=frozenset({"check"}))
    needs = tuple(range(-6, 41))
    classes = (RollClass("check", own="best(λ=0.2)"), RollClass("save"), RollClass(trigger="one"))
    for cls in classes:
        tried = tuple((c.key, c) for c in (PolicyChoice("best", 0.0), PolicyChoice("best", 0.2)))
        inputs = RollClassInputs(cls, needs, tried, states, rules)
        t = roll_classes.compute(inputs).tables["roll"]
        t = t[t.system == "3d6x"].set_index(["state", "policy", "need"])
        for (state, adv, drop), (key, choice), need in itertools.product(states, tried, needs):
            roll = Roll(0, advantage=adv, kind=cls.kind, policy=Best(need, choice.weight),
                        reroll=Reroll("one") if cls.trigger else None)  # fmt: skip
            d = exact(roll, dataclasses.replace(rules, disadvantage=drop) if drop else rules)
            row = t.loc[(state, key, need)]
            assert (row.p, row.drain) == (d.p_success(need), d.drain_mean), (cls, state, need)
    rows = len(classes) * len(states) * 2 * len(needs)
    assert len(calls) < rows / 3, (len(calls), rows)
