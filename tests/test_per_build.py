"""Questions asked per build (issue 34): over several builds, ``progression``,
``gauge_sizing``, ``level_dcs`` and ``combat_progression`` are each build's answer put end to
end, and the fits over every build (``defence_base``, ``save_dc``, ``fp_table``) read each build's part, kept on its own:
the same numbers, bit for bit, as the analysis called once over all the builds; after an edit
to one build only that build's answer or part is computed, the others read back from the
cache of answers."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from explodice.analysis.bestiary import fp_table
from explodice.analysis.combat import combat_progression, fit_defence_base
from explodice.analysis.levels import build_day, fit_save_dc, level_dcs, progression
from explodice.game.build import reference_builds
from explodice.game.rules import Rules
from explodice.present.config import load_config
from explodice.questions import bestiary, cache, combat
from explodice.questions.gauge_sizing import SizingInputs, _lines
from explodice.questions.level_dcs import LevelDCsInputs
from explodice.questions.progression import ProgressionInputs
from explodice.questions.registry import ask, forget
from explodice.questions.save_dc import SaveDCInputs
from explodice.sweeps.levels import size_gauges

LEVELS = (1, 5, 11, 20)


@pytest.fixture
def builds():
    return tuple(load_config().builds)


@pytest.fixture
def folder(tmp_path):
    forget()
    yield tmp_path / "answers"
    forget()


def _raised(builds, i=0, ability="STR"):
    """``builds`` with build ``i``'s score in ``ability`` raised by 2."""
    b = builds[i]
    scores = dict(b.scores) | {ability: b.scores[ability] + 2}
    return (*builds[:i], dataclasses.replace(b, scores=scores), *builds[i + 1 :])


def test_the_progression_per_build_is_the_call_over_all_builds(builds):
    assert len(builds) >= 3
    answer = ask("progression", ProgressionInputs(builds, Rules(), levels=LEVELS))
    direct = progression(list(builds), list(LEVELS), tests="main", rules=Rules())
    direct.attrs = {}
    pd.testing.assert_frame_equal(answer.tables["progression"], direct, check_exact=True)
    assert [p[0] for p in answer.provenance.policies] == [b.name for b in builds]


def test_the_gauge_sizing_per_build_is_the_call_over_all_builds(builds):
    chosen = builds[:3]
    answer = ask("gauge_sizing", SizingInputs(chosen, Rules(), levels=LEVELS), progress=False)
    frames = [
        size_gauges(b, build_day(b), levels=list(LEVELS), rules=Rules(), progress=False)
        for b in chosen
    ]
    direct = pd.concat(frames, ignore_index=True)
    direct.attrs = {}
    pd.testing.assert_frame_equal(answer.tables["gauges"], direct, check_exact=True)
    pd.testing.assert_frame_equal(answer.tables["lines"], _lines(direct), check_exact=True)
    assert set(answer.tables["lines"].build) == {b.name for b in chosen}


def test_the_level_dcs_per_build_are_the_call_over_all_builds(builds):
    answer = ask("level_dcs", LevelDCsInputs(builds, Rules(), levels=LEVELS))
    frames = []
    for b in builds:  # each build's main test in 3d6x, as the question asked them all at once
        t = level_dcs(None, build=b, levels=list(LEVELS), system="3d6x", rules=Rules())
        t.insert(2, "system", "3d6x")
        frames.append(t)
    direct = pd.concat(frames, ignore_index=True)
    direct.attrs = {}
    pd.testing.assert_frame_equal(answer.tables["dcs"], direct, check_exact=True)
    assert list(dict.fromkeys(answer.tables["dcs"].build)) == [b.name for b in builds]


def test_the_combat_progression_per_build_is_the_call_over_all_builds(builds):
    answer = ask("combat_progression", combat.ProgressionInputs(builds, Rules(), levels=LEVELS))
    direct = combat_progression(list(builds), levels=list(LEVELS), rules=Rules())
    rows = combat._attributed(direct, combat._srd(None))
    pd.testing.assert_frame_equal(answer.tables["progression"], rows, check_exact=True)
    summary = combat._hit_means(direct)  # the mean over every build, level and direction
    pd.testing.assert_frame_equal(answer.tables["summary"], summary, check_exact=True)


def test_the_defence_base_from_each_builds_cases_is_the_fit_over_all_builds(builds):
    answer = ask("defence_base", combat.DefenceBaseInputs(builds, Rules(), levels=LEVELS))
    fit = fit_defence_base(list(builds), levels=list(LEVELS), rules=Rules())
    for name in ("readings", "cases", "bases"):
        direct = combat._attributed(getattr(fit, name), combat._srd(None))
        pd.testing.assert_frame_equal(answer.tables[name], direct, check_exact=True)
    assert answer.extra == {"base": fit.base, "error": fit.error, "criterion": fit.criterion}
    assert set(answer.tables["cases"].build) == {b.name for b in builds}


@pytest.mark.parametrize("d20_base", [8, 100])  # 100: beyond the DCs of a build's part
def test_the_save_dc_from_each_builds_side_is_the_fit_over_all_builds(builds, d20_base):
    inputs = SaveDCInputs(builds, Rules(), levels=LEVELS, d20_base=d20_base)
    answer = ask("save_dc", inputs)
    fit = fit_save_dc(list(builds), levels=list(LEVELS), d20_base=d20_base, rules=Rules())
    for name in ("gaps", "bases", "cases"):
        direct = getattr(fit, name).reset_index(drop=True)
        direct.attrs = {}
        pd.testing.assert_frame_equal(answer.tables[name], direct, check_exact=True)
    assert answer.extra["base"] == fit.base and answer.extra["error"] == fit.error
    assert len(answer.tables["cases"]) == len(LEVELS) * len(builds) ** 2 * 6  # every pair


def test_the_fp_table_from_each_builds_part_is_the_table_over_all_builds(builds):
    answer = ask("fp_table", bestiary.FpTableInputs(builds=builds, rules=Rules()))
    direct = bestiary._plain(fp_table(builds=list(builds), rules=Rules()))
    pd.testing.assert_frame_equal(answer.tables["fp_table"], direct, check_exact=True)
    assert len(direct) == 34  # every FP of 5e's ladder: 0, 1/8, 1/4, 1/2, 1..30


#: Each question asked per build: its inputs for some builds, and the name of its part asked
#: of each build (the question itself, or the part a fit over every build reads).
PER_BUILD = {
    "progression": (lambda bs: ProgressionInputs(bs, Rules(), levels=LEVELS), "progression"),
    "gauge_sizing": (lambda bs: SizingInputs(bs, Rules(), levels=LEVELS), "gauge_sizing"),
    "level_dcs": (lambda bs: LevelDCsInputs(bs, Rules(), levels=LEVELS), "level_dcs"),
    "combat_progression": (
        lambda bs: combat.ProgressionInputs(bs, Rules(), levels=LEVELS),
        "combat_progression",
    ),
    "defence_base": (
        lambda bs: combat.DefenceBaseInputs(bs, Rules(), levels=LEVELS),
        "defence_curves",
    ),
    "save_dc": (lambda bs: SaveDCInputs(bs, Rules(), levels=LEVELS), "save_side"),
    "fp_table": (lambda bs: bestiary.FpTableInputs(fps=("1", "5"), builds=bs), "fp_table_part"),
}


@pytest.mark.parametrize("name", list(PER_BUILD))
def test_an_edit_to_one_build_computes_only_its_answer(builds, folder, name):
    inputs, part = PER_BUILD[name]
    how = {"progress": False} if name == "gauge_sizing" else {}
    chosen = builds[:3]
    with cache.session(folder=folder) as first:
        ask(name, inputs(chosen), **how)
    both = part == name  # the parts and the whole under one name
    assert first.computed.count(part) == len(chosen) + both  # each build (then the whole)
    assert first.computed.count(name) == len(chosen) * both + 1
    forget()  # a new run
    edited = _raised(chosen, 1)
    with cache.session(folder=folder) as second:
        warm = ask(name, inputs(edited), **how)
    # the whole and the edited build computed; the two others read back
    assert second.computed.count(part) == 1 + both and second.reused.count(part) == 2
    assert second.computed.count(name) == 1 + both
    forget()
    with cache.session(enabled=False):
        cold = ask(name, inputs(edited), **how)
    for table in cold.tables:
        pd.testing.assert_frame_equal(warm.tables[table], cold.tables[table], check_exact=True)
    assert json.dumps(warm.extra) == json.dumps(cold.extra)  # a tuple kept reads as a list


def test_the_reference_builds_are_asked_per_build_too():
    refs = tuple(reference_builds())
    answer = ask("progression", ProgressionInputs(refs, Rules(), levels=(1,)))
    assert list(dict.fromkeys(answer.tables["progression"].build)) == [b.name for b in refs]
