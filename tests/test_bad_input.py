"""Bad input, as a hostile user would give it: every refusal is one line, exit status 2, no
traceback, and through the API the package's error (never an OverflowError, an IndexError, a
KeyError ...). The command line is run in this process for the long table (its parsing and
checks come before any work), and as real processes for a few of each kind, through the
console script's launcher.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import explodice as ex
from explodice.core.errors import ExplodiceError, ExplodiceTypeError
from explodice.core.files import MAX_TOML_DEPTH
from explodice.day.scenario import ScenarioError, ScenarioTypeError
from explodice.engine.seeding import MAX_CHUNKS, stream_seeds
from explodice.game.build import builds_from_toml
from explodice.game.character import CharacterError, CharacterTypeError, characters_from_tables
from explodice.game.rules import RulesTypeError
from explodice.present import i18n
from explodice.present.cli import main
from tests.api_calls import (
    CALLS,
    LIST_OK,
    MAPPING_OK,
    NONE_OK,
    STRING_OPTIONS,
)
from tests.api_calls import call as api_call

SRC = Path(__file__).resolve().parent.parent / "src"
LAUNCHER = [sys.executable, str(SRC / "explodice_launch.py")]
SCORES = dict(STR=12, DEX=10, CON=10, INT=10, WIS=10, CHA=10)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``main(argv)`` in this process: its exit status and its stderr (argparse exits too)."""
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    return status, capsys.readouterr().err


def assert_one_line_refusal(status: int, err: str) -> None:
    assert status == 2, err
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("explodice") and len(err) < 2100, err[:300]


# -- command-line numbers and options --------------------------------------------------------
EXAMPLE = str(Path(__file__).parents[1] / "src" / "explodice" / "data" / "day_example.toml")

BAD_ARGS = [
    ["odds", "--simulate", "--n", "1.25e1"],  # was 12
    ["odds", "--simulate", "--n", "1e400"],  # was an OverflowError traceback
    ["odds", "--simulate", "--n", "-1e400"],
    ["odds", "--simulate", "--n", "0"],
    ["odds", "--simulate", "--n", "1e14"],
    ["odds", "--simulate", "--n", "nan"],
    ["odds", "--simulate", "--n", "9" * 5000],
    ["odds", "--simulate", "--threads", "1e400"],
    ["odds", "--simulate", "--threads", "0"],
    ["odds", "--simulate", "--threads", "2.5"],
    ["odds", "--simulate", "--seed", "-1"],
    ["odds", "--simulate", "--seed", "inf"],
    ["odds", "--dc", "-9223372036854775808"],  # was 0 % (int64 wrap-around)
    ["odds", "--dc", "16.5"],
    ["odds", "--modifier", "1e400"],
    ["odds", "--modifier", "101"],
    ["odds", "--policy", "best:"],  # was λ = 0
    ["odds", "--policy", "best:1e400"],
    ["odds", "--policy", "best:nan"],
    ["odds", "--policy", "best:-1"],
    ["odds", "--advantage", "lots"],
    ["table", "--modifiers", "0", "1.5"],
    ["table", "--dc", "5000"],
    ["opposed", "--vs", "1e400"],
    ["frontier", "--dc", "1e400"],
    ["compare", "--profiles", "a=1", "a=2"],  # kept the last
    ["compare", "--profiles", "a=1.5"],
    ["compare", "--profiles", "a=1e400"],
    ["compare", "--profiles", "novice=0", "--reference", "trained"],
    ["day", "--gauge", "1e400"],
    ["day", "--gauge", "0"],
    ["day", "--gauge", "100000000"],  # 4 GB of gauge
    ["day", "--days", "1e400"],
    ["day", "--days", "1e12"],
    ["day", "--actor", "npc"],  # was ignored
    ["day", "--simulate", "--days", "2.5"],
    # options `day` would ignore are refused: they were ignored without a word
    ["day", EXAMPLE, "--simulate", "--n", "1000"],
    ["day", EXAMPLE, "--exact", "--days", "1000"],
    ["day", EXAMPLE, "--exact", "--seed", "3"],
    ["day", EXAMPLE, "--policy", "cancel"],
    ["day", EXAMPLE, "--gauge", "12"],
    ["day", EXAMPLE, "--reroll-on-failure"],
    ["day", "--gauge", "20", "--table", "drain"],
    ["day", "--gauge", "20", "--days", "1000"],
    ["sweep", "grid.toml", "--workers", "1e400"],
    ["sweep", "grid.toml", "--workers", "0"],
    ["sweep", "grid.toml", "--seed", "1e400.5"],
    ["report", "--out"],
    ["nonsense"],
    # this round's commands (combat, bestiary): duplicates, other digits, empty, huge, both
    ["attack", "-m", "5", "5"],
    ["attack", "-m", "٥"],
    ["attack", "-m", "²"],
    ["attack", "-m", ""],
    ["attack", "--ac", "1" + "0" * 400],
    ["attack", "--ac", "15", "--vd", "15"],
    ["attack", "--ac", "15", "15"],
    ["attack", "--wis", "３"],
    ["attack", "--advantage", "normal", "normal"],
    ["attack", "--seed", "3"],
    ["defence-base", "--offsets", "0", "0"],
    ["defence-base", "--offsets", "٣"],
    ["defence-base", "--defence-base", "12"],
    ["bestiary", "--fp", "1/3"],
    ["bestiary", "--fp", "５"],
    ["bestiary", "--fp", ""],
    ["bestiary", "--fp", "1/2", "0.5"],
    ["bestiary", "--type", "Dragon", "dragon"],
    ["bestiary", "--name", ""],
    ["bestiary", "--name", "no such monster"],
    ["bestiary", "--threshold", "٠.١"],
    ["bestiary", "--with-srd"],
    ["fp-table", "--fp", "5", "05"],
    ["fp-table", "--fp", "1/٤"],
]


@pytest.mark.parametrize("argv", BAD_ARGS, ids=" ".join)
def test_bad_options_are_one_line_and_exit_2(argv, capsys):
    assert_one_line_refusal(*run_cli(argv, capsys))


def test_numbers_written_exactly_are_accepted(capsys):
    status, _ = run_cli(["odds", "--modifier", "2e0", "--dc", "1_6", "--format", "csv"], capsys)
    assert status == 0
    status, _ = run_cli(
        [
            "odds",
            "--simulate",
            "--n",
            "2e3",
            "--seed",
            "7",
            "--threads",
            "1",
            "--dc",
            "16",
            "--format",
            "csv",
        ],
        capsys,
    )
    assert status == 0


def test_a_sweep_asking_for_more_workers_than_cores_allow_is_refused(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text('task = "success"\n[grid]\nmodifier = [0]\n', encoding="utf-8")
    too_many = ex.sweeps.run.WORKERS_PER_CORE * (os.cpu_count() or 1) + 1
    status, err = run_cli(
        ["sweep", str(grid), "--out", str(tmp_path / "o.csv"), "--workers", str(too_many)], capsys
    )
    assert_one_line_refusal(status, err)
    assert "per core" in err and not (tmp_path / "o.csv").exists()


# -- malformed files ----------------------------------------------------------------------------
ROLL = '[[character]]\nname = "Ana"\nscores = {STR = 12, DEX = 10, CON = 10, INT = 10, WIS = 10, CHA = 10}\n'
BAD_FILES = {
    "not TOML": b"level = \n",
    "nested 1000 deep": b"a = " + b"[" * 1000 + b"]" * 1000 + b"\n",
    f"nested {MAX_TOML_DEPTH + 1} deep": b"a = "
    + b"[" * (MAX_TOML_DEPTH + 1)
    + b"]" * (MAX_TOML_DEPTH + 1)
    + b"\n",
    "invalid UTF-8": b'name = "\xff\xfe"\n',
    "a 400-digit integer": ("seed = 1" + "0" * 400 + "\n").encode(),
    "a 400-digit level": (ROLL + "level = 1" + "0" * 400 + "\n").encode(),
    "a huge gauge maximum": (ROLL + "gauge_max = { PA = 100000000 }\n").encode(),
    "a huge gauge per level": (ROLL + "gauge_per_level = { PA = 1000000 }\n").encode(),
    "a huge weight": (
        ROLL + '[[day.roll]]\ncharacter = "Ana"\nability = "STR"\nweight = 1e300\n'
    ).encode(),
    "an infinite weight": (
        ROLL + '[[day.roll]]\ncharacter = "Ana"\nability = "STR"\nweight = inf\n'
    ).encode(),
    "a key of 100 000 characters": ("k" * 100_000 + " = 1\n").encode(),
    "a table where a number goes": b"seed = { a = 1 }\n",
    "an unknown rule": b'[rules]\ndisadvantage = "sometimes"\n',
    "no rule of 1 kinds as a string": b'[rules]\nrule_of_one_kinds = "check"\n',
}


@pytest.mark.parametrize("name", list(BAD_FILES))
@pytest.mark.parametrize("command", ["report", "day", "sweep"])
def test_malformed_files_are_one_line_naming_the_file(tmp_path, capsys, command, name):
    path = tmp_path / "bad.toml"
    path.write_bytes(BAD_FILES[name])
    extra = ["--out", str(tmp_path / "out")] if command != "day" else []
    status, err = run_cli([command, str(path), *extra], capsys)
    assert_one_line_refusal(status, err)
    assert "bad.toml" in err, err


@pytest.mark.parametrize("path", ["/dev/zero", "/nonexistent/party.toml", "."])
@pytest.mark.parametrize("command", ["report", "day", "sweep"])
def test_unreadable_paths_are_one_line(tmp_path, capsys, command, path):
    if not Path(path).exists() and path == "/dev/zero":
        pytest.skip("no /dev/zero here")
    extra = ["--out", str(tmp_path / "out")] if command != "day" else []
    assert_one_line_refusal(*run_cli([command, path, *extra], capsys))


# -- real processes, through the console script's launcher --------------------------------------
def _env() -> dict[str, str]:
    return os.environ | {"MPLBACKEND": "Agg", "PYTHONPATH": str(SRC)}


def test_bad_input_as_real_processes(tmp_path):
    bad = tmp_path / "deep.toml"
    bad.write_bytes(BAD_FILES["nested 1000 deep"])
    cases = [
        ["odds", "--simulate", "--n", "1e400"],
        ["day", "--gauge", "1e400"],
        ["odds", "--dc", "-9223372036854775808"],
        ["day", str(bad)],
    ]
    procs = [
        subprocess.Popen(
            LAUNCHER + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()
        )
        for argv in cases
    ]
    for argv, proc in zip(cases, procs):
        _, err = proc.communicate(timeout=300)
        assert_one_line_refusal(proc.returncode, err)
        assert "Traceback" not in err, argv


CTRL_C_DURING_IMPORT = """
import builtins, sys
real_import = builtins.__import__

def interrupted(name, *args, **kwargs):
    if name == "numpy":  # deep inside `import explodice`: the user pressed Ctrl-C there
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)

builtins.__import__ = interrupted
import explodice_launch
sys.exit(explodice_launch.main())
"""


def test_ctrl_c_while_explodice_is_imported_is_one_line_and_130():
    out = subprocess.run(
        [sys.executable, "-c", CTRL_C_DURING_IMPORT, "odds"],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert out.returncode == 130
    assert out.stderr == "explodice: interrupted\n"


def test_the_console_script_is_the_launcher():
    text = (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'explodice = "explodice_launch:main"' in text
    assert 'py-modules = ["explodice_launch"]' in text


# -- the API: the package's error, never another -------------------------------------------------
def _hero(**kwargs):
    return ex.Character("Hero", SCORES, **kwargs)


def _day(**kwargs):
    return ex.Scenario([_hero(**kwargs)], [ex.DayRoll("Hero", ability="STR", repeat=4)])


BAD_CALLS = {
    "success_table(dcs=[])": lambda: ex.success_table(dcs=[]),
    "success_table(modifiers=[])": lambda: ex.success_table(modifiers=[]),
    "success_table(modifiers=5)": lambda: ex.success_table(modifiers=5),
    "success_table(advantages=[])": lambda: ex.success_table(advantages=[]),
    "success_table(readings=1)": lambda: ex.success_table(readings=1),
    "success_table(characters=1)": lambda: ex.success_table(characters=1),
    "success_table(tests=1)": lambda: ex.success_table(characters=[_hero()], tests=1),
    "success_table(rules='drop')": lambda: ex.success_table(rules="drop"),
    "p_success(1.5)": lambda: ex.exact(ex.Roll(0)).p_success(1.5),
    "p_drain_at_least(1.5)": lambda: ex.exact(ex.Roll(0)).p_drain_at_least(1.5),
    "success_frame([1.5])": lambda: ex.exact(ex.Roll(0)).success_frame([1.5]),
    "quantile(nan)": lambda: ex.exact(ex.Roll(0)).quantile(float("nan")),
    "wilson_interval(5, 0)": lambda: ex.wilson_interval(5, 0),
    "wilson_interval(5, 3)": lambda: ex.wilson_interval(5, 3),
    "wilson_interval(-1, 3)": lambda: ex.wilson_interval(-1, 3),
    "wilson_interval(1.5, 3)": lambda: ex.wilson_interval(1.5, 3),
    "wilson_interval('a', 3)": lambda: ex.wilson_interval("a", 3),
    "wilson_interval(1, 10**400)": lambda: ex.wilson_interval(1, 10**400),
    "Best(16, 10**400)": lambda: ex.Best(16, 10**400),
    "exact(1)": lambda: ex.exact(1),
    "exact(Roll(), rules=1)": lambda: ex.exact(ex.Roll(), 1),
    "simulate(Roll(), rules=1)": lambda: ex.simulate(ex.Roll(), 1, n=10),
    "simulate(chunk_size=1, n=10**13)": lambda: ex.simulate(ex.Roll(), n=10**13, chunk_size=1),
    "d20(1)": lambda: ex.d20(1),
    "opposed(1, 2)": lambda: ex.opposed(1, 2),
    "passive(1.5)": lambda: ex.passive(1.5),
    "haggle_table([])": lambda: ex.haggle_table([]),
    "group_success(1, dc=16)": lambda: ex.group_success(1, dc=16),
    "working_together(1, 16)": lambda: ex.working_together(1, 16),
    "frontier(rules=1)": lambda: ex.frontier(ex.Roll(), 16, rules=1),
    "breakpoints(rules=1)": lambda: ex.breakpoints(0, 16, rules=1),
    "drain_frame(rules=1)": lambda: ex.drain_frame(ex.Roll(), 1),
    "drain_summary(tail=(1.5,))": lambda: ex.drain_summary(ex.Roll(0), tail=(1.5,)),
    "equivalent_dc(rules=1)": lambda: ex.equivalent_dc(ex.Roll(), rules=1),
    "divergence(advantages=[])": lambda: ex.divergence({"a": 1}, advantages=[]),
    "divergence(advantages=1)": lambda: ex.divergence({"a": 1}, advantages=1),
    "suggest_dcs(1)": lambda: ex.suggest_dcs(1),
    "pivot_success(1)": lambda: ex.pivot_success(1),
    "rolls_to_empty(rules=1)": lambda: ex.rolls_to_empty(0, 20, 16, rules=1),
    "rolls_to_empty(gauge=10**8)": lambda: ex.rolls_to_empty(0, 10**8, 16),
    "simulate_day(1)": lambda: ex.simulate_day(1),
    "simulate_day(rules=1)": lambda: ex.simulate_day(_day(), 1, n_days=10),
    "simulate_day(n_days=10**12)": lambda: ex.simulate_day(_day(), n_days=10**12),
    "simulate_day(chunk_days=1, n_days=10**8)": lambda: ex.simulate_day(
        _day(), n_days=10**8, chunk_days=1
    ),
    "Scenario(1, 2)": lambda: ex.Scenario(1, 2),
    "Character(gauge_max=10**8)": lambda: _hero(gauge_max={"PA": 10**8}),
    "Character(gauge_max=10**400)": lambda: _hero(gauge_max={"PA": 10**400}),
    "Character(gauge_per_level=10**6)": lambda: _hero(gauge_per_level={"PA": 10**6}),
    "DayRoll(weight=10**400)": lambda: ex.DayRoll("Hero", ability="STR", weight=10**400),
    "DayRoll(weight=1e300)": lambda: ex.DayRoll("Hero", ability="STR", weight=1e300),
    "load_characters(1)": lambda: ex.load_characters(1),  # opened (and closed) stdout
    "load_scenario(1)": lambda: ex.load_scenario(1),
    "sweep(10**10 cases)": lambda: ex.sweep(
        {
            "modifier": list(range(-50, 50)),
            "dc": list(range(100)),
            "n": list(range(1, 10_001)),
            "advantage": ["normal"] * 100,
        },
        "success",
    ),
    "sweep(workers=10**6)": lambda: ex.sweep({"modifier": [0]}, "success", workers=10**6),
    # this round's API (combat, bestiary)
    "attack_table(acs and vds)": lambda: ex.attack_table([5], [15], vds=[15]),
    "attack_table(acs=[10**400])": lambda: ex.attack_table([5], [10**400]),
    "attack_table(modifiers=['٥'])": lambda: ex.attack_table(["٥"]),
    "bestiary(fp=[5, '5'])": lambda: ex.bestiary(fp=[5, "5"]),
    "bestiary(fp='1/3')": lambda: ex.bestiary(fp="1/3"),
    "bestiary(fp='５')": lambda: ex.bestiary(fp="５"),
    "bestiary(types=['Dragon', 'dragon'])": lambda: ex.bestiary(types=["Dragon", "dragon"]),
    "bestiary(name='no such monster')": lambda: ex.bestiary(name="no such monster"),
    "fp_table(fps=['1/2', 0.5])": lambda: ex.fp_table(fps=["1/2", 0.5]),
    "Monster(ac and defence)": lambda: _monster(defence=15),
    "Monster(fp='1/3')": lambda: _monster(fp="1/3"),
    "Monster(fp='٥')": lambda: _monster(fp="٥"),
    "Monster(ac=10**400)": lambda: _monster(ac=10**400),
    "Monster(name='')": lambda: _monster(name=""),
    "Monster(attacks={'Bite': '٤'})": lambda: _monster(attacks={"Bite": "٤"}),
    "Monster(scores STR and FOR)": lambda: _monster(scores={**SCORES, "FOR": 12}),
    "Monster(saves STR and FOR)": lambda: _monster(saves=["STR", "FOR"]),
}


def _monster(**kw):
    given = dict(name="Goblin", fp="1/4", scores=SCORES, ac=15, attacks={"Bite": 4})
    return ex.Monster(**(given | kw))


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_bad_api_calls_raise_the_packages_error(name):
    with pytest.raises(ExplodiceError):
        BAD_CALLS[name]()


@pytest.mark.parametrize(
    "call",
    [
        lambda: ex.exact(1),
        lambda: ex.exact(ex.Roll(), "drop"),
        lambda: ex.success_table(modifiers=5),
        lambda: ex.wilson_interval("a", 3),
        lambda: ex.load_scenario(1),
        lambda: ex.drain_summary(ex.Roll(0), tail=(1.5,)),
        lambda: ex.pivot_success(1),
        # the language of a plot or a table: an array was "ambiguous", None a wrong value
        lambda: i18n.check_lang(np.array(["en"])),
        lambda: i18n.check_lang(None),
        lambda: ex.plots.plot_pmf(ex.exact(ex.Roll(0)), lang=b"fr"),
    ],
)
def test_a_wrong_type_is_both_the_packages_error_and_a_type_error(call):
    with pytest.raises(ExplodiceTypeError) as info:
        call()
    assert isinstance(info.value, TypeError) and isinstance(info.value, ExplodiceError)


def test_a_message_never_echoes_a_huge_value():
    with pytest.raises(ExplodiceError) as info:
        ex.Roll("x" * 50_000_000)
    assert len(str(info.value)) < 300


# -- limits and what they leave intact -----------------------------------------------------------
def test_an_all_npc_party_gives_empty_gauge_tables_not_a_crash():
    result = ex.simulate_day(_day(actor="npc"), n_days=200, seed=1, threads=1)
    for table in ("gauges", "first_empty", "empty", "drain", "lost"):
        assert result.to_frame(table).empty  # an NPC drains no gauge: there is nothing to list
    success = result.to_frame("success")
    assert len(success) == 4 and success.p.between(0, 1).all()


def test_no_rule_of_one_kinds_drains_nothing():
    rules = ex.Rules(rule_of_one_kinds=frozenset())
    result = ex.simulate_day(_day(), rules, n_days=200, seed=1, threads=1)
    assert (result.to_frame("gauges").caused_mean == 0).all()
    assert ex.exact(ex.Roll(0), rules).drain_mean == 0


def test_seed_streams_are_those_of_spawning_every_chunk_up_front():
    # the children numpy's SeedSequence.spawn gives, derived independently of explodice
    ss = np.random.SeedSequence(2026)
    wanted = [c.generate_state(4, np.uint64) for c in np.random.SeedSequence(2026).spawn(7)]
    seeds = stream_seeds(ss, 7)
    assert len(seeds) == 7
    for c, state in enumerate(wanted):
        assert (seeds[c] == state).all()
    # a run of 10**13 rolls holds no table of seeds: the last chunk's state comes at once
    many = stream_seeds(np.random.SeedSequence(1), MAX_CHUNKS)
    last = np.random.SeedSequence(1, spawn_key=(MAX_CHUNKS - 1,)).generate_state(4, np.uint64)
    assert (many[MAX_CHUNKS - 1] == last).all()


def test_a_simulation_is_the_same_for_a_seed_and_threads():
    a = ex.simulate(ex.Roll(1), n=30_000, seed=5, threads=1, chunk_size=4_000)
    b = ex.simulate(ex.Roll(1), n=30_000, seed=5, threads=2, chunk_size=4_000)
    assert (a.counts == b.counts).all()


# -- the report with a party that drains nothing ------------------------------------------------
PARTY_OF_NPCS = """
seed = 3
[simulation]
n = 2000
days = 40
[[character]]
name = "Guard"
scores = { STR = 14, DEX = 12, CON = 12, INT = 10, WIS = 10, CHA = 8 }
actor = "npc"
[day]
name = "a watch"
[[day.roll]]
character = "Guard"
ability = "WIS"
dc = 12
repeat = 5
"""
NO_KINDS = PARTY_OF_NPCS.replace('actor = "npc"', "") + "[rules]\nrule_of_one_kinds = []\n"


@pytest.mark.parametrize("text", [PARTY_OF_NPCS, NO_KINDS], ids=["all NPCs", "no rule of 1"])
def test_the_day_page_of_a_day_that_drains_nothing(tmp_path, text):
    from explodice.present.report import load_config
    from explodice.present.report.kit import Context
    from explodice.present.report.pages import day

    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    ctx = Context(load_config(path), "test", "2026-01-02")
    page = day.data(ctx)
    day.draw(ctx, page)  # the drawing copes with it too
    gauges = page.tables["gauges"]  # an NPC has no gauge; a PC's gauges, never drained
    assert gauges.empty or (gauges.caused_mean == 0).all()
    empty = page.tables["empty"]  # every PC gauge's curve (issue 31): none can empty here
    assert empty.empty or (empty.p == 0).all()
    assert len(page.tables["success"]) == 5


@pytest.mark.slow
@pytest.mark.parametrize("text", [PARTY_OF_NPCS, NO_KINDS], ids=["all NPCs", "no rule of 1"])
def test_the_whole_report_of_a_day_that_drains_nothing(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    status = main(["report", str(path), "--out", str(tmp_path / "out"), "--no-progress"])
    assert status == 0 and (tmp_path / "out" / "explodice-report.pdf").exists()


# -- a wrong rules= object, everywhere ----------------------------------------------------------
def _takes_rules() -> list[str]:
    names = []
    for name in ex.__all__:
        f = getattr(ex, name)
        if callable(f) and not isinstance(f, type) and "rules" in inspect.signature(f).parameters:
            names.append(name)
    return names


REQUIRED = {
    "roll": ex.Roll(0),
    "roll_a": ex.Roll(0),
    "roll_b": ex.Roll(0),
    "rolls": [ex.Roll(0)],
    "modifier": 0,
    "dc": 16,
    "gauge": 20,
    "target": 0.5,
}


@pytest.mark.parametrize("name", _takes_rules())
def test_a_wrong_rules_object_is_refused_by_every_public_function(name):
    f = getattr(ex, name)
    required = {
        p: REQUIRED.get(p)
        for p, par in inspect.signature(f).parameters.items()
        if par.default is inspect.Parameter.empty
        and p != "rules"
        and par.kind not in (par.VAR_POSITIONAL, par.VAR_KEYWORD)
    }
    if "scenario" in required:
        required["scenario"] = _day()
    with pytest.raises(ExplodiceTypeError, match="`rules` must be a Rules"):
        f(**required, rules="drop")  # was read as the default rules, or an AttributeError


# -- long values in character and scenario tables ------------------------------------------------
LONG = "x" * 10_000
_HERO = {"name": "Bo", "scores": SCORES}
_ROLL = {"character": "Bo", "ability": "STR"}


def _day_tables(**day):
    return {"character": [_HERO], "day": {"roll": [_ROLL], **day}}


# each case: what is built from tables, and the field the message must name
LONG_VALUES = {
    "day not a table": (lambda: {"character": [_HERO], "day": LONG}, "`day`"),
    "roll not a table": (lambda: {"character": [_HERO], "day": {"roll": [LONG]}}, "day.roll[0]"),
    "start of an unknown character": (lambda: _day_tables(start={LONG: {"PA": 1}}), "start.x"),
    "start of an unknown gauge": (lambda: _day_tables(start={"Bo": {LONG: 1}}), "start.Bo.x"),
    "roll of an unknown character": (
        lambda: _day_tables(roll=[{"character": LONG, "ability": "STR"}]),
        "rolls[0].character",
    ),
    "roll of a long-named party": (
        lambda: {"character": [dict(_HERO, name=LONG)], "day": {"roll": [_ROLL]}},
        "rolls[0].character",
    ),
    "character not a table": (lambda: {"character": [LONG], "day": {}}, "character[0]"),
    "unknown character key": (
        lambda: {"character": [dict(_HERO, **{LONG: 1})], "day": {}},
        "character[0].x",
    ),
    "long name, bad level": (
        lambda: {"character": [dict(_HERO, name=LONG, level=99)], "day": {}},
        "character[0].level",
    ),
    "two long names": (
        lambda: {"character": [dict(_HERO, name=LONG), dict(_HERO, name=LONG)], "day": {}},
        "character.name",
    ),
    "long skill": (
        lambda: {"character": [dict(_HERO, skills={LONG: 1})], "day": {}},
        "character[0].skills.x",
    ),
    "long save": (
        lambda: {"character": [dict(_HERO, saves={LONG: 1})], "day": {}},
        "character[0].saves.x",
    ),
    "long tool": (
        lambda: {"character": [dict(_HERO, tools={LONG: 3})], "day": {}},
        "character[0].tools.x",
    ),
    "long gauge": (
        lambda: {"character": [dict(_HERO, gauge_max={LONG: 3})], "day": {}},
        "character[0].gauge_max.x",
    ),
}


@pytest.mark.parametrize("name", list(LONG_VALUES))
def test_a_10000_character_value_in_a_table_gives_a_short_message_naming_the_field(name):
    from explodice.day.scenario import scenario_from_tables

    tables, field = LONG_VALUES[name]
    with pytest.raises(ExplodiceError) as info:
        scenario_from_tables(tables())
    message = str(info.value)
    # the skill's message lists the seeds' 18 skills in both languages (~600 characters)
    assert len(message) < 800, message[:300]
    assert field in message, message[:300]
    assert "chars)" in message  # the long value or key is shown cut, with its length


@pytest.mark.parametrize(
    "call",
    [
        lambda: ex.close_contest(LONG, 2),
        lambda: ex.success_table(characters=[ex.Character("Bo", SCORES)], tests=[[LONG]]),
        lambda: ex.initiative({"A": 1, "B": 2}, sides={LONG: [LONG]}),
        lambda: ex.initiative({LONG: 1, "B": 2}).p_first(LONG + "y"),
        lambda: ex.exact(ex.Roll(0)).to_frame(LONG),
        lambda: ex.d20(ex.Roll(0), method=LONG),
    ],
)
def test_a_10000_character_value_through_the_api_gives_a_short_message(call):
    with pytest.raises(ExplodiceError) as info:
        call()
    assert len(str(info.value)) < 400 and "chars)" in str(info.value), str(info.value)[:300]


# -- new kinds of input, over every public call (issues 21.18 and 26.17) -------------------------

#: what a caller passes by mistake: arrays (a numpy array compared with a string is
#: "ambiguous"), bytes, bools where integers go, NaN and infinities, integers past int64,
#: whole floats beside fractional ones, nested lists, dicts, sets, None
NEW_KINDS = {
    "array": np.array([1, 2]),
    "0-d array": np.array(1),
    "string array": np.array(["normal", "x"]),
    "float array": np.array([16.0, 16.5]),
    "None": None,
    "bool": True,
    "bytes": b"normal",
    "nan": float("nan"),
    "inf": float("inf"),
    "-inf": -float("inf"),
    "10**400": 10**400,
    "-2**63": -(2**63),
    "16.0": 16.0,
    "16.5": 16.5,
    "numpy 16.0": np.float64(16.0),
    "nested list": [[1, 2], [3]],
    "list of str": ["normal"],
    "empty list": [],
    "dict": {"a": 1},
    "set": {"x"},
    "object": object(),
}

# every public name is called by tests/api_calls.py, or is not a callable to feed input to
NOT_CALLED = {
    # exceptions, warnings and tables
    "ExplodiceError",
    "ExplodiceTypeError",
    "RulesError",
    "CharacterFileError",
    "ProficiencyWarning",
    "ScenarioFileError",
    "BuildFileError",
    "MonsterFileError",
    "DefenceBaseFit",
    # the SRD's attribution: a constant
    "SRD_ATTRIBUTION",
    "SweepError",
    "SweepIncomplete",
    "SweepWarning",
    "SKILLS",
    "DC_TABLE",
    "HAGGLE_DCS",
    # result types, made by the functions (their methods are called through a result)
    "Distribution",
    "D20Distribution",
    "CloseContest",
    "Hiding",
    "Initiative",
    "DayResult",
    "EmptyTime",
    "OptimalPolicy",
    "Sensitivity",
    "SaveDCFit",
    # the report: its `out` is checked below, its files in tests/test_file_modes.py
    "write_report",
    # the optimal policy of a day: its values are checked in tests/test_optimal.py
    "optimal_policy",
}


def test_every_public_callable_is_fed_the_new_kinds_of_input():
    called = {name.split(".")[0] for name in CALLS}
    missing = [n for n in ex.__all__ if n not in called and n not in NOT_CALLED]
    assert not missing, f"add a quick call of {missing} to tests/api_calls.py"


def _cases():
    for name, (_, kwargs) in CALLS.items():
        for arg in kwargs:
            yield pytest.param(name, arg, id=f"{name}.{arg}")


@pytest.mark.parametrize("name, arg", list(_cases()))
def test_new_kinds_of_input_get_the_packages_error_and_nothing_else(name, arg):
    for kind, value in NEW_KINDS.items():
        try:
            api_call(name, **{arg: value})
        except ExplodiceError:
            pass
        except Exception as err:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{name}({arg}={kind}) raised {type(err).__name__}: {err}"[:400])


def _string_options():
    for name, args in STRING_OPTIONS.items():
        for arg in args:
            yield pytest.param(name, arg, id=f"{name}.{arg}")


def is_right_type(name: str, arg: str, value) -> bool:
    """True for a value of a type the argument takes (then a wrong *value* error is fine)."""
    if isinstance(value, str):
        return True
    if value is None and (name, arg) in NONE_OK:
        return True
    if (name, arg) in LIST_OK and (
        isinstance(value, (list, set))
        or (isinstance(value, np.ndarray) and value.dtype.kind == "U")
    ):
        return True
    return (name, arg) in MAPPING_OK and isinstance(value, dict)


@pytest.mark.parametrize("name, arg", list(_string_options()))
def test_a_string_option_given_another_type_is_a_type_error_naming_it(name, arg):
    for kind, value in NEW_KINDS.items():
        if is_right_type(name, arg, value):
            continue
        with pytest.raises(ExplodiceTypeError) as info:
            api_call(name, **{arg: value})
        head = str(info.value).split(" must ", 1)[0]
        assert arg in head, f"{name}({arg}={kind}): {info.value}"


# -- the error classes: a wrong type is the type error of its domain ---------------------------

WRONG_TYPES = {
    "Roll('3')": (lambda: ex.Roll("3"), ex.RulesError),
    "Roll(None)": (lambda: ex.Roll(None), ex.RulesError),
    "Roll(16.0)": (lambda: ex.Roll(16.0), ex.RulesError),
    "Best('16')": (lambda: ex.Best("16"), ex.RulesError),
    "Best(16, '0.1')": (lambda: ex.Best(16, "0.1"), ex.RulesError),
    "Rules(disadvantage=None)": (lambda: ex.Rules(disadvantage=None), ex.RulesError),
    "Rules(close_contest=1)": (lambda: ex.Rules(close_contest=1), ex.RulesError),
    "Rules(rule_of_one_kinds='check')": (
        lambda: ex.Rules(rule_of_one_kinds="check"),
        ex.RulesError,
    ),
    "Reroll(1)": (lambda: ex.Reroll(1), ex.RulesError),
    "simulate(n='1000')": (lambda: ex.simulate(ex.Roll(), n="1000"), ex.RulesError),
    "Character(None, ...)": (lambda: ex.Character(None, SCORES), CharacterError),
    "Character(level='3')": (lambda: _hero(level="3"), CharacterError),
    "Character(saves=5)": (lambda: _hero(saves=5), CharacterError),
    "Character(actor=b'pc')": (lambda: _hero(actor=b"pc"), CharacterError),
    "DayRoll(dc='16')": (lambda: ex.DayRoll("Hero", ability="STR", dc="16"), ScenarioError),
    "DayRoll(label=5)": (lambda: ex.DayRoll("Hero", ability="STR", label=5), ScenarioError),
    "DayRoll(weight='1')": (lambda: ex.DayRoll("Hero", ability="STR", weight="1"), ScenarioError),
    "Scenario(name=3)": (
        lambda: ex.Scenario([_hero()], [{"character": "Hero", "ability": "STR"}], name=3),
        ScenarioError,
    ),
    "sweep(progress='no')": (
        lambda: ex.sweep({"modifier": [0]}, "success", progress="no"),
        ex.SweepError,
    ),
}


@pytest.mark.parametrize("name", list(WRONG_TYPES))
def test_a_wrong_type_is_the_type_error_of_its_domain(name):
    call, domain = WRONG_TYPES[name]
    with pytest.raises(ExplodiceTypeError) as info:
        call()
    err = info.value
    # both `except RulesError` (or its domain's class) and `except TypeError` catch it
    assert isinstance(err, domain) and isinstance(err, TypeError), type(err).__mro__


WRONG_VALUES = {
    "Roll(101)": (lambda: ex.Roll(101), ex.RulesError),
    "Rules(disadvantage='sometimes')": (lambda: ex.Rules(disadvantage="sometimes"), ex.RulesError),
    "Character(level=30)": (lambda: _hero(level=30), CharacterError),
    "DayRoll(dc=500)": (lambda: ex.DayRoll("Hero", ability="STR", dc=500), ScenarioError),
    "DayRoll(label='')": (lambda: ex.DayRoll("Hero", ability="STR", label=" "), ScenarioError),
}


@pytest.mark.parametrize("name", list(WRONG_VALUES))
def test_a_wrong_value_of_the_right_type_is_the_value_error(name):
    call, domain = WRONG_VALUES[name]
    with pytest.raises(domain) as info:
        call()
    assert not isinstance(info.value, TypeError)


def test_the_type_errors_are_pickled_across_processes():
    # a sweep's worker sends its errors to the parent: each class must unpickle as itself
    import pickle

    for klass in (RulesTypeError, CharacterTypeError, ScenarioTypeError, ex.sweeps.SweepTypeError):
        err = pickle.loads(pickle.dumps(klass("`x` must be y, but z was passed.")))
        assert type(err) is klass and str(err).startswith("`x`")


@pytest.mark.parametrize(
    "call",
    [
        lambda: ex.unpivot_success(5),  # was AttributeError
        lambda: ex.sweep({"modifier": [0]}, "success", executor="bogus"),  # was dask's ValueError
        lambda: ex.write_report(out=5),  # was pathlib's TypeError
        lambda: ex.Scenario([_hero()], [{"character": "Hero", "ability": "STR", "colour": 1}]),
        lambda: ex.sweep({"modifier": [0]}, ".x:f"),  # was a TypeError from importlib
        lambda: ex.sweep({"modifier": [0]}, "success", batch_seconds=10**400),  # OverflowError
    ],
    ids=["unpivot", "executor", "write_report", "Scenario key", "task", "batch_seconds"],
)
def test_other_packages_exceptions_no_longer_escape(call):
    with pytest.raises(ExplodiceError):
        call()


# -- issue 30: duplicates, options a part cannot use, digits other than ASCII --------------------
LEVELS_TOML = """
[[build]]
name = "Bo"
scores = { STR = 15, DEX = 14, CON = 13, INT = 12, WIS = 10, CHA = 8 }
skills = ["Athletics", "Stealth"]
"""

#: Each is refused in one line naming the option and the value (was accepted: counted twice,
#: the last one kept, or ignored).
REFUSED_30 = {
    "levels --tests twice": (["levels", "--builds", "fighter", "--levels", "1", "--tests",
                              "Stealth", "Stealth"], ["--tests", "Stealth"]),
    "levels --tests in two languages": (["levels", "--builds", "fighter", "--levels", "1",
                                         "--tests", "Stealth", "Discrétion"], ["--tests", "Discrétion"]),
    "save-dc --casters twice": (["save-dc", "--casters", "fighter", "fighter"], ["--casters", "fighter"]),
    "save-dc --saves twice": (["save-dc", "--saves", "STR", "STR"], ["--saves", "STR"]),
    "save-dc --saves FOR STR": (["save-dc", "--saves", "FOR", "STR"], ["--saves", "STR"]),
    "readings --switches twice": (["readings", "--switches", "overflow", "overflow"], ["--switches", "overflow"]),
    "readings --parts twice": (["readings", "--parts", "hiding", "hiding"], ["--parts", "hiding"]),
    "readings --dc twice": (["readings", "--dc", "12", "12"], ["--dc", "12"]),
    "readings --modifiers twice": (["readings", "--modifiers", "1", "1"], ["--modifiers", "1"]),
    "readings --states twice": (["readings", "--states", "normal", "normal"], ["--states", "normal"]),
    "readings --policies twice": (["readings", "--policies", "best:0.05", "best:.05"], ["--policies", "best:.05"]),
    "readings dc_table --seed": (["readings", "--parts", "dc_table", "--seed", "3"], ["--seed", "dc_table"]),
    "readings dc_table --days": (["readings", "--parts", "dc_table", "--days", "100"], ["--days"]),
    "readings haggle --states": (["readings", "--parts", "haggle", "--states", "normal"], ["--states"]),
    "readings haggle --dc": (["readings", "--parts", "haggle", "--dc", "12"], ["--dc"]),
    "readings hiding --policies": (["readings", "--parts", "hiding", "--policies", "keep"], ["--policies"]),
    "readings hiding --kinds": (["readings", "--parts", "hiding", "--kinds", "check"], ["--kinds"]),
    "size-gauges --difficulty ''": (["size-gauges", "--difficulty", ""], ["--difficulty", "''"]),
    "dc npc --policy keep": (["dc", "--target", "0.5", "--actor", "npc", "--policy", "keep"], ["--policy", "npc"]),
    "odds npc --policy cancel": (["odds", "--actor", "npc", "--policy", "cancel"], ["--policy", "npc"]),
    "table npc --policy keep": (["table", "--actor", "npc", "--policy", "keep"], ["--policy", "npc"]),
    "opposed npc --policy keep": (["opposed", "--actor", "npc", "--policy", "keep"], ["--policy", "npc"]),
    # any option of several values: a value given twice (as read: 16 and 1_6 are one DC)
    "odds --dc 16 1_6": (["odds", "--dc", "16", "1_6"], ["--dc", "16", "explodice odds --help"]),
    "table --modifiers 0 0": (["table", "--modifiers", "0", "0"], ["--modifiers", "0"]),
    "reroll -m 0 0": (["reroll", "-m", "0", "0"], ["--modifier", "0"]),
    "size-gauges --gauges PA PA": (["size-gauges", "--gauges", "PA", "PA"], ["--gauges", "PA"]),
    "odds --rule-of-one twice": (["odds", "--rule-of-one", "check", "check"], ["--rule-of-one", "check"]),
    # an option written twice: argparse kept the second and dropped the first, silently
    "odds --dc 16 --dc 12": (["odds", "--dc", "16", "--dc", "12"], ["`--dc` given twice", "all its values"]),
    "bestiary --fp 5 --fp 6": (["bestiary", "--fp", "5", "--fp", "6"], ["`--fp` given twice"]),
    "odds -m 3 --modifier 4": (["odds", "-m", "3", "--modifier", "4"], ["`-m` and `--modifier`"]),
    "odds -m3 -m 4": (["odds", "-m3", "-m", "4"], ["`-m` given twice"]),
    "day --ones-on-explosions --no-...": (
        ["day", "--ones-on-explosions", "--no-ones-on-explosions"], ["`--no-ones-on-explosions`"]
    ),
}  # fmt: skip


def test_observers_of_the_same_perception_are_two_observers(capsys):
    # hide lists --passive and --active in its repeats: two guards with passive 12 hide less
    status, err = run_cli(["hide", "-m", "2", "--passive", "12", "12", "--format", "csv"], capsys)
    assert status == 0, err


@pytest.mark.parametrize("name", list(REFUSED_30))
def test_duplicates_and_options_a_part_cannot_use_are_refused(name, capsys):
    argv, named = REFUSED_30[name]
    status, err = run_cli(argv, capsys)
    assert_one_line_refusal(status, err)
    assert all(word in err for word in named), err


#: Digits other than ASCII, where the command line reads a number: each refused (``int()``,
#: ``float()`` and ``Decimal()`` take them; ``str.isdigit()`` is true for superscripts).
UNICODE_DIGITS = {
    "odds -m": ["odds", "-m", "٤٢"],
    "odds --dc": ["odds", "--dc", "١٦"],
    "levels --levels": ["levels", "--levels", "٥"],
    "levels --levels range": ["levels", "--levels", "1-٥"],
    "odds --n": ["odds", "--simulate", "--n", "١٠٠٠"],
    "odds --seed": ["odds", "--simulate", "--seed", "٣"],
    "odds --policy λ": ["odds", "--policy", "best:٠.٥"],
    "odds --policy DC": ["odds", "--policy", "best:0.1@١٦"],
    "dc --target": ["dc", "--target", "٠.٥"],
    "size-gauges --risk": ["size-gauges", "--risk", "٠.١"],
    "contest --bids-a": ["contest", "--bids-a", "٣"],
    "contest --bids-a p": ["contest", "--bids-a", "0.5,٠.٥"],
    "initiative": ["initiative", "A=٣", "B=1"],
    "compare --profiles": ["compare", "--profiles", "a=٣"],
    "superscript": ["odds", "-m", "²"],
}


@pytest.mark.parametrize("name", list(UNICODE_DIGITS))
def test_digits_other_than_ascii_are_refused_everywhere(name, capsys):
    assert_one_line_refusal(*run_cli(UNICODE_DIGITS[name], capsys))


def test_ascii_numbers_as_the_readme_writes_them_are_still_accepted(capsys):
    for argv in (
        ["odds", "-m", "+4", "--dc", "1_6", "--policy", "best:.05@16", "--format", "csv"],
        ["dc", "--target", "50%", "--format", "csv"],
        ["contest", "--bids-a", "0.5,0.5", "--format", "csv"],
    ):
        status, err = run_cli(argv, capsys)
        assert status == 0, (argv, err)


def test_a_superscript_level_in_a_build_is_the_builds_error():
    scores = dict(STR=15, DEX=14, CON=13, INT=12, WIS=10, CHA=8)
    with pytest.raises(ExplodiceError, match=r"`increases.²`.*'²' was passed"):
        ex.Build("x", scores, increases={"²": "STR"})  # was int("²"): a ValueError
    toml = LEVELS_TOML + 'increases = { "²" = "STR" }\n'
    with pytest.raises(ExplodiceError, match=r"increases.²"):
        builds_from_toml(toml)
    assert ex.Build("x", scores, increases={"4": "STR"}).increases  # ASCII digits: a level


def test_a_gauge_given_twice_in_a_build_is_refused_as_in_a_character():
    scores = dict(STR=15, DEX=14, CON=13, INT=12, WIS=10, CHA=8)
    with pytest.raises(ExplodiceError, match=r"`gauge_per_level.pa`.*repeats PA"):
        ex.Build("x", scores, gauge_per_level={"PA": 1, "pa": 2})  # the last one won
    with pytest.raises(ExplodiceError, match=r"gauge_per_level"):
        builds_from_toml(LEVELS_TOML + "gauge_per_level = { PA = 1, pa = 2 }\n")
    with pytest.raises(CharacterError, match=r"repeats PA"):
        ex.Character("y", scores=scores, gauge_per_level={"PA": 1, "pa": 2})


def test_the_api_refuses_a_save_dc_case_and_a_test_counted_twice():
    with pytest.raises(ExplodiceError, match=r"`casters`.*'fighter' is given twice"):
        ex.fit_save_dc(casters=["fighter", "fighter"])
    with pytest.raises(ExplodiceError, match=r"`saves`.*\(as 'STR' and 'FOR'\)"):
        ex.fit_save_dc(saves=["STR", "FOR"])
    from explodice.game.build import parse_test

    stealth = parse_test("Stealth")
    with pytest.raises(ExplodiceError, match=r"`tests`.*twice"):
        ex.progression(
            ex.reference_builds()[:1], levels=[1], tests=[stealth, parse_test("Discrétion")]
        )


def test_builds_from_tables_of_the_wrong_type_is_the_type_error():
    for value in (5, "fighter"):
        with pytest.raises(ExplodiceTypeError, match=r"a list of \[\[build\]\] tables"):
            ex.builds_from_tables(value)  # was BuildFileError
        with pytest.raises(ExplodiceTypeError, match=r"\[\[character\]\]"):
            characters_from_tables(value)


def test_dcs_have_one_limit_the_readmes_everywhere(capsys):
    # README: "modifiers; DCs (on the command line and through the API) | -100..100; -1,000..1,000"
    readme = (SRC.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| modifiers; DCs"))
    assert row.endswith("| -100..100; -1,000..1,000 |")
    for argv in (
        ["readings", "--dc", "1001"],
        ["odds", "--dc", "-1001"],
        ["table", "--dc", "1001"],
    ):
        status, err = run_cli(argv, capsys)
        assert_one_line_refusal(status, err)
        assert "an integer in -1,000..1,000" in err  # as the README writes it: no underscores
    status, err = run_cli(["odds", "-m", "101"], capsys)
    assert "an integer in -100..100" in err
    for call in (
        lambda: ex.success_table([0], dcs=[1001]),
        lambda: ex.Reroll("failure", dc=-1001),
        lambda: ex.sensitivity(modifiers=[0], dcs=[1001], parts=("hiding",)),
        lambda: ex.hide(ex.Roll(0), passive=[1001]),
    ):
        with pytest.raises(ExplodiceError, match=r"-1,000\.\.1,000"):  # the README's way
            call()
    s = ex.sensitivity(modifiers=[0], dcs=[-1000, 1000], parts=("hiding",))  # was refused
    assert set(s.detail.dc.dropna()) == {-1000, 1000}


# -- issue 31: the one line as a person reads it ---------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--dc", "2000"],  # argparse's
        ["day", "--actor", "npc"],  # the command's ExplodiceError
        ["sweep", "/nonexistent/grid.toml"],  # a file
        ["readings", "--dc", "12", "12"],
    ],
    ids=" ".join,
)
def test_the_one_line_names_no_class_of_the_code(argv, capsys):
    status, err = run_cli(argv, capsys)
    assert_one_line_refusal(status, err)
    assert not re.search(r"\b[A-Z]\w*(Error|Warning):", err), err  # was "ExplodiceError: ..."


def test_ranges_are_written_as_a_person_writes_them(capsys):
    status, err = run_cli(["odds", "--simulate", "--n", "0"], capsys)
    assert "an integer in 1..10,000,000,000,000," in err and "_" not in err.split("--n")[-1]


def test_an_unknown_argument_sends_to_the_commands_own_help(capsys):
    status, err = run_cli(["odds", "4", "16"], capsys)
    assert_one_line_refusal(status, err)
    assert err.startswith("explodice odds: error: unrecognized arguments: 4 16")
    assert err.rstrip().endswith("(see explodice odds --help)")


def test_a_probability_in_percent_is_read_by_every_command_that_takes_one(capsys):
    for argv in (
        ["dc", "--target", "50%", "--format", "csv"],
        ["size-gauges", "--risk", "10%", "--levels", "1", "--builds", "fighter", "--format", "csv"],
    ):
        status, err = run_cli(argv, capsys)
        assert status == 0, (argv, err)  # size-gauges refused 10%
    status, err = run_cli(["size-gauges", "--risk", "110%"], capsys)
    assert_one_line_refusal(status, err)


def test_the_api_refuses_a_combat_value_counted_twice():
    # issue 33: the command line refuses these; the API counted them twice (or merged them)
    cases = [
        (lambda: ex.attack_table(modifiers=[5, 5]), r"`modifiers`.*5 is given twice"),
        (lambda: ex.attack_table(acs=[15, 15]), r"`acs`.*15 is given twice"),
        (lambda: ex.attack_table(vds=[15, 15]), r"`vds`.*15 is given twice"),
        (
            lambda: ex.attack_table(advantages=["normal", "normal"]),
            r"`advantages`.*'normal' is given twice",
        ),
        (
            lambda: ex.attack_table(readings=["drop", "drop"]),
            r"`readings`.*'drop' is given twice",
        ),
        (lambda: ex.critical_table(margins=[5, 5]), r"`margins`.*5 is given twice"),
        (
            lambda: ex.critical_table(advantages=["advantage", "advantage"]),
            r"`advantages`.*'advantage' is given twice",
        ),
        (lambda: ex.combat_progression(levels=[1], offsets=[0, 0]), r"`offsets`.*0 is given twice"),
        (
            lambda: ex.combat_progression(levels=[1], saves=["STR", "FOR"]),
            r"`saves`.*\(as 'STR' and 'FOR'\)",
        ),
        (lambda: ex.fit_defence_base(levels=[1], bases=[10, 10]), r"`bases`.*10 is given twice"),
        (lambda: ex.fit_defence_base(levels=[1], offsets=[1, 1]), r"`offsets`.*1 is given twice"),
    ]
    for call, message in cases:
        with pytest.raises(ExplodiceError, match=message) as info:
            call()
        assert "\n" not in str(info.value)


def test_a_huge_bid_is_echoed_as_typed_and_a_target_of_zero_is_refused(capsys):
    """Review 3.3: `contest --bids-a 1e400` echoed a 401-digit integer, naming `bids_a`; 3.4:
    `dc --target 0` answered DC 141, where the exact table stops (3d6x reaches any total)."""
    for flag in ("--bids-a", "--bids-b"):
        status, err = run_cli(["contest", flag, "1e400"], capsys)
        assert_one_line_refusal(status, err)
        assert f"`{flag}`" in err and "'1e400'" in err and len(err) < 200, err
    for mode in ("closest", "at_least", "at_most"):
        status, err = run_cli(["dc", "-m", "0", "--target", "0", "--mode", mode], capsys)
        assert_one_line_refusal(status, err)
        assert "`target`" in err and "0.0 was passed" in err, err
    # a d20 roll stops at 20: DC 21 gives exactly 0, a true answer
    assert main(["dc", "-m", "0", "--target", "0", "--system", "d20", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split(",")[:3] == ["0.0", "21", "0.0"]


def test_a_dc_outside_the_table_is_named_so(capsys):
    """Review 3.4: a DC below the table's lowest (8) or above its highest (35) said nothing in
    the difficulty column; one between two of the table's DCs (17) is no band."""
    from explodice.questions.dc_for_target import BEYOND, band

    assert [band(dc, "3d6x") for dc in (3, 8, 17, 35, 36)] == [
        BEYOND,
        "very easy",
        "",
        "nearly impossible",
        BEYOND,
    ]
    assert [band(dc, "d20") for dc in (4, 5, 21, 31)] == [BEYOND, "very easy", "", BEYOND]
    # +0 in 3d6x: 3 is the lowest total, so DC 3 is certain
    assert main(["dc", "-m", "0", "--target", "1", "--lang", "fr"]) == 0
    row = capsys.readouterr().out.splitlines()[2]
    assert " 3 " in row and row.endswith("hors de la table"), row  # target, DC 3, p, band
