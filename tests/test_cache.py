"""Answers kept between runs (questions/cache.py, present/report/reuse.py): a cache never
changes a number, a corrupt or foreign entry is ignored and rewritten, an edit recomputes
only what reads it; the report's PNGs drawn by helper processes are the serial run's bytes."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from explodice.game.rules import Rules
from explodice.present.report import contents, load_config, write_report
from explodice.present.report.ahead import AHEAD
from explodice.present.report.kit import Context, PageData
from explodice.present.report.reuse import page_data
from explodice.present.report.writer import last_session
from explodice.questions import cache
from explodice.questions.answer import Answer, Provenance
from explodice.questions.registry import Question, forget


@dataclasses.dataclass(frozen=True)
class Coin:
    """A toy question's inputs: the chance of ``heads`` heads in ``flips`` fair flips."""

    flips: int
    heads: int


CALLS: list[Coin] = []


def _binomial(inputs: Coin) -> Answer:
    from math import comb

    CALLS.append(inputs)
    p = comb(inputs.flips, inputs.heads) / 2**inputs.flips
    table = pd.DataFrame({"heads": [inputs.heads], "p": [p], "third": [1 / 3]})
    return Answer("coin", {"t": table}, {"p": "probability"}, Provenance.of("coin", Rules()))


COIN = Question("coin", "a toy", Coin, _binomial, {"p": "probability"})


@pytest.fixture
def folder(tmp_path):
    forget()
    CALLS.clear()
    yield tmp_path / "answers"
    forget()


def _entry(folder: Path, inputs: Coin) -> Path:
    return cache._path(folder, "answer", cache.key_of("answer", COIN.key(inputs)))


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / kind).glob("*/*"))


def test_an_answer_is_computed_once_then_read_back_bit_for_bit(folder):
    with cache.session(folder=folder) as first:
        a = COIN.ask(Coin(10, 3))
    forget()  # a new run: nothing in memory
    with cache.session(folder=folder) as second:
        b = COIN.ask(Coin(10, 3))
    assert CALLS == [Coin(10, 3)]  # computed by the first run only
    assert (first.computed, first.reused, second.computed, second.reused) == (
        ["coin"],
        [],
        [],
        ["coin"],
    )
    assert b.tables["t"].p.iloc[0] == 120 / 1024 and b.tables["t"].third.iloc[0] == 1 / 3
    assert b.to_json() == a.to_json()


def test_other_inputs_are_another_answer(folder):
    with cache.session(folder=folder):
        COIN.ask(Coin(10, 3))
        forget()
        c = COIN.ask(Coin(10, 4))
    assert CALLS == [Coin(10, 3), Coin(10, 4)]
    assert c.tables["t"].p.iloc[0] == 210 / 1024


@pytest.mark.parametrize(
    "damage",
    ["garbage", "cut short", "payload changed", "header only", "empty"],
)
def test_a_corrupt_entry_is_ignored_and_rewritten(folder, damage):
    with cache.session(folder=folder):
        COIN.ask(Coin(6, 2))
    (entry,) = _entries(folder, "answer")
    good = entry.read_bytes()
    head, _, payload = good.partition(b"\n")
    entry.write_bytes(
        {
            "garbage": os.urandom(300),
            "cut short": good[: len(good) // 2],
            "payload changed": head + b"\n" + payload.replace(b"0.234375", b"0.5"),
            "header only": head,
            "empty": b"",
        }[damage]
    )
    forget()
    with cache.session(folder=folder) as s:
        a = COIN.ask(Coin(6, 2))
    assert s.ignored == ["coin"] and s.computed == ["coin"] and s.reused == []
    assert a.tables["t"].p.iloc[0] == 15 / 64  # computed again, never the damaged number
    assert entry.read_bytes() == good  # and written again


def test_a_foreign_entry_is_never_trusted(folder):
    """An entry that is whole but another key's (copied, or from another version) is ignored."""
    with cache.session(folder=folder):
        COIN.ask(Coin(6, 2))
        forget()
        COIN.ask(Coin(6, 3))
    a, b = (_entry(folder, Coin(6, heads)) for heads in (2, 3))
    a.write_bytes(b.read_bytes())  # a's file now holds b's answer, header and all
    forget()
    CALLS.clear()
    with cache.session(folder=folder) as s:
        x, y = COIN.ask(Coin(6, 2)), COIN.ask(Coin(6, 3))
    assert len(CALLS) == 1 and len(s.ignored) == 1 and len(s.reused) == 1
    assert sorted([x.tables["t"].p.iloc[0], y.tables["t"].p.iloc[0]]) == [15 / 64, 20 / 64]
    # the same header claiming the right key over another answer's payload: hash differs
    head, _, payload = a.read_bytes().partition(b"\n")
    other = b.read_bytes().partition(b"\n")[2]
    a.write_bytes(head + b"\n" + other)
    forget()
    CALLS.clear()
    with cache.session(folder=folder) as s:
        assert COIN.ask(Coin(6, 2)).tables["t"].p.iloc[0] == 15 / 64
    assert len(CALLS) == 1 and s.ignored == ["coin"]


def test_an_entry_of_other_code_is_another_key(folder, monkeypatch):
    with cache.session(folder=folder):
        COIN.ask(Coin(6, 2))
    monkeypatch.setattr(cache, "fingerprint", lambda: "an edited checkout")
    forget()
    with cache.session(folder=folder) as s:
        COIN.ask(Coin(6, 2))
    assert s.computed == ["coin"] and len(CALLS) == 2


def test_no_session_or_disabled_keeps_nothing(folder):
    COIN.ask(Coin(5, 1))
    forget()
    with cache.session(enabled=False, folder=folder) as s:
        COIN.ask(Coin(5, 1))
    assert not folder.exists() and len(CALLS) == 2 and s.computed == ["coin"]


def test_the_folder_is_trimmed_to_its_bound(folder):
    with cache.session(folder=folder):
        for i in range(6):
            cache.store("demo", cache.key_of("demo", i), bytes(1000))
            os.utime(cache._path(folder, "demo", cache.key_of("demo", i)), (i, i))
    size = _entries(folder, "demo")[0].stat().st_size  # every entry is the same size
    cache.trim(folder, limit=3 * size + size // 2)
    left = _entries(folder, "demo")
    assert len(left) == 3  # the three read last stay
    with cache.session(folder=folder):
        assert cache.load("demo", cache.key_of("demo", 5)) == bytes(1000)
        assert cache.load("demo", cache.key_of("demo", 0)) is None


def test_the_default_place_is_under_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("EXPLODICE_ANSWER_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.answers_folder() == tmp_path / "explodice" / "answers"
    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", "off")
    assert cache.answers_folder() is None


# -- a page's data: kept under the fields it reads ------------------------------------------
def _rules_page(ctx: Context) -> PageData:
    """A page that reads the rules and, under one reading, the seed."""
    CALLS.append(ctx.rules.disadvantage)
    extra = ctx.config.seed if ctx.rules.disadvantage == "drop" else 0
    return PageData({"t": pd.DataFrame({"x": [len(ctx.rules.disadvantage) + extra]})})


def test_a_page_is_computed_anew_only_when_what_it_reads_changes(folder):
    base = load_config()
    ctx = lambda config: Context(config, "v", "2026-01-01")  # noqa: E731
    with cache.session(folder=folder) as s:
        page_data("toy", _rules_page, ctx(base))
        forget()
        page_data("toy", _rules_page, ctx(dataclasses.replace(base, seed=7)))  # not read
        assert len(CALLS) == 1 and s.reused == ["page:toy"]
        drop = dataclasses.replace(base, rules=Rules(disadvantage="drop"))
        first = page_data("toy", _rules_page, ctx(drop))  # read: computed anew
        assert len(CALLS) == 2
        # under this reading the page reads the seed too: a new seed is computed anew
        again = page_data("toy", _rules_page, ctx(dataclasses.replace(drop, seed=7)))
        assert len(CALLS) == 3
        assert again.tables["t"].x.iloc[0] == first.tables["t"].x.iloc[0] - base.seed + 7


def test_a_page_that_reads_the_whole_configuration_is_keyed_by_all_of_it(folder):
    def whole(ctx: Context) -> PageData:
        CALLS.append(None)
        return PageData({"t": pd.DataFrame({"fields": [len(vars(ctx.config))]})})

    base = load_config()
    with cache.session(folder=folder):
        page_data("whole", whole, Context(base, "v", "d"))
        page_data("whole", whole, Context(dataclasses.replace(base, n=5), "v", "d"))
    assert len(CALLS) == 2


# -- the report: cold and warm, serial and in helpers -----------------------------------------
#: A few pages of each sort: exact tables, a day, builds across levels, a simulated page.
PAGES = ("title", "dc-table", "day", "monte-carlo", "levels-progression")


@pytest.fixture
def stand_in_explorer(monkeypatch):
    """A stand-in for the explorer's page (tests/test_explorer.py tests the page itself)."""
    import explodice.present.explorer as explorer

    def stand_in(config, out, *, date, lang):
        Path(out).write_text(f"explorer of {config.title} on {date} in {lang}")
        return Path(out)

    monkeypatch.setattr(explorer, "write_explorer", stand_in)


@pytest.fixture
def few_pages(monkeypatch, stand_in_explorer):
    """A report of :data:`PAGES`, with a stand-in explorer, its PDF dated the same in every
    run."""
    monkeypatch.setattr(contents, "PAGES", [p for p in contents.PAGES if p.name in PAGES])
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the PDF's creation date


def _files(out: Path) -> dict[str, str]:
    area = out / ".explodice-report" / "current"
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(area.iterdir())}


def test_a_warm_report_has_the_cold_reports_bytes(few_pages, folder, tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
    write_report(out=tmp_path / "cold", date="2026-12-01")
    cold = last_session()
    assert cold is not None and len(cold.computed) >= len(PAGES) and not cold.reused
    # the same configuration and date: every file is the one kept
    write_report(out=tmp_path / "copied", date="2026-12-01")
    assert _files(tmp_path / "copied") == _files(tmp_path / "cold")
    assert not last_session().computed
    # the files forgotten: every page drawn again from the data kept, nothing computed
    for kind in ("file", "files"):
        for entry in _entries(folder, kind):
            entry.unlink()
    write_report(out=tmp_path / "warm", date="2026-12-01")
    warm = last_session()
    assert warm.computed == ["explorer"] and {f"page:{p}" for p in PAGES} <= set(warm.reused)
    cold_files, warm_files = _files(tmp_path / "cold"), _files(tmp_path / "warm")
    assert len(cold_files) > 10 and warm_files == cold_files  # CSVs, PNGs, PDF, MANIFEST
    # no cache at all: the same bytes again
    write_report(out=tmp_path / "none", date="2026-12-01", cache=False)
    assert _files(tmp_path / "none") == cold_files


def test_changing_a_build_recomputes_only_the_pages_that_read_builds(
    few_pages, folder, tmp_path, monkeypatch
):
    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
    config = load_config()
    write_report(config, tmp_path / "a", date="2026-12-01", helpers=0)
    first, *others = config.builds
    scores = dict(first.scores)
    scores["STR"] += 2
    changed = dataclasses.replace(
        config, builds=(dataclasses.replace(first, scores=scores), *others)
    )
    write_report(changed, tmp_path / "b", date="2026-12-01", helpers=0)
    anew = [n for n in last_session().computed if n.startswith("page:")]
    assert anew == ["page:levels-progression"]
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    same = {n for n in a if a[n] == b.get(n)}
    day = [n for n in a if n.startswith("03-day-") and n.endswith(".csv")]
    assert day and set(day) <= same  # read back, the same bytes
    assert any(n.startswith("05-levels-progression-") and n not in same for n in a)


def test_after_an_edit_only_its_pages_are_drawn_and_the_report_is_the_cold_one(
    few_pages, folder, tmp_path, monkeypatch
):
    from pypdf import PdfReader

    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
    config = load_config()
    write_report(config, tmp_path / "a", date="2026-12-01", helpers=0)
    assert not [n for n in last_session().reused if n.startswith("drawing:")]
    first, *others = config.builds
    changed = dataclasses.replace(
        config,
        builds=(dataclasses.replace(first, scores=first.scores | {"STR": first.scores["STR"] + 2}),
                *others),
    )  # fmt: skip
    write_report(changed, tmp_path / "b", date="2026-12-01", helpers=1)
    kept = {n.removeprefix("drawing:") for n in last_session().reused if n.startswith("drawing:")}
    slugs = [f"{i:02d}-{p}" for i, p in enumerate(PAGES, 1)]
    assert kept == set(slugs) - {"05-levels-progression"}  # the page of builds drawn anew
    # a cold report of the edited configuration, nothing kept: the same bytes, page by page
    write_report(changed, tmp_path / "cold", date="2026-12-01", cache=False, helpers=0)
    b, cold = _files(tmp_path / "b"), _files(tmp_path / "cold")
    assert b == cold and sum(n.endswith(".png") for n in b) == len(PAGES)
    area = ".explodice-report/current/explodice-report.pdf"
    pages = [PdfReader(tmp_path / d / area).pages for d in ("b", "cold", "a")]
    streams = [[p.get_contents().get_data() for p in ps] for ps in pages]
    assert len(streams[0]) == len(PAGES) and streams[0] == streams[1]
    assert streams[0][4] != streams[2][4] and streams[0][:4] == streams[2][:4]


def test_pages_drawn_in_helpers_are_the_serial_bytes(few_pages, tmp_path):
    # serial: one process; helpers: two PNG helpers and the data helper (the day's page)
    write_report(out=tmp_path / "serial", date="2026-12-01", cache=False, helpers=0, ahead=False)
    write_report(out=tmp_path / "helpers", date="2026-12-01", cache=False, helpers=2, ahead=True)
    serial = _files(tmp_path / "serial")
    assert sum(n.endswith(".png") for n in serial) == len(PAGES)
    assert _files(tmp_path / "helpers") == serial  # every PNG and CSV, and the PDF


def test_pages_drawn_by_the_idle_data_helper_are_the_serial_bytes(few_pages, tmp_path):
    # no drawing helper: the data helper computes the day's page, then, idle (the stand-in
    # explorer cannot be sent), draws pages whole while this process draws the others
    write_report(out=tmp_path / "serial", date="2026-12-01", cache=False, helpers=0, ahead=False)
    write_report(out=tmp_path / "ahead", date="2026-12-01", cache=False, helpers=0, ahead=True)
    assert _files(tmp_path / "ahead") == _files(tmp_path / "serial")


def test_the_data_helper_draws_a_page_once_idle(tmp_path):
    from explodice.present.report.ahead import DataHelper
    from explodice.present.report.assemble import page_pdf, page_png
    from explodice.present.report.pages import day, title

    ctx = Context(load_config(), "test", "2026-12-01")
    helper = DataHelper(ctx, [("day", day.data)], None)
    drawn: list[tuple[bytes, set[str]]] = []
    try:
        assert not helper.idle  # its page first
        assert helper.page("day") is not None
        data = title.data(ctx)
        assert helper.idle and helper.submit(title.draw, data, tmp_path / "a.png", 40, _keep(drawn))
        assert not helper.idle  # one page at a time
        assert not helper.submit(title.draw, data, tmp_path / "b.png", 40, _keep(drawn))
        helper.finish()
        assert helper.idle
    finally:
        helper.close()
    with matplotlib.rc_context({"text.parse_math": False}):
        figure = title.draw(ctx, data)
        pdf = page_pdf(figure)
        page_png(figure, tmp_path / "here.png", 40)
    assert [d[0] for d in drawn] == [pdf]  # the bytes drawn here, and only one page sent
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "here.png").read_bytes()
    assert not (tmp_path / "b.png").exists()


def _keep(drawn: list) -> Any:
    return lambda pdf, reads: drawn.append((pdf, reads))


class _ExitWhenRead:
    """Data that end the process that unpickles them: a helper dying mid-draw."""

    def __reduce__(self) -> Any:
        return (os._exit, (7,))


def test_the_data_helpers_drawing_errors_and_death_reach_the_report(tmp_path):
    # an error of a page it draws is raised here by finish(); a helper that dies while it
    # draws a page makes finish() raise (never wait for ever), and it takes no more pages
    from explodice.present.report.ahead import DataHelper
    from explodice.present.report.pages import title

    ctx = Context(load_config(), "test", "2026-12-01")
    drawn: list[tuple[bytes, set[str]]] = []
    for data, error in ((None, "nothing drawn here"), (_ExitWhenRead(), "stopped while drawing")):
        helper = DataHelper(ctx, [("title", title.data)], None)
        try:
            assert helper.page("title") is not None and helper.idle
            assert helper.submit(_broken_draw, data, tmp_path / "a.png", 40, _keep(drawn))
            with pytest.raises(RuntimeError, match=error):
                helper.finish()
            dead = data is not None
            assert helper.idle is not dead  # a page's error leaves the helper as it was
            assert helper.submit(title.draw, None, tmp_path / "b.png", 40, _keep([])) is not dead
        finally:
            helper.close()
    assert drawn == []


def test_pages_computed_ahead_are_kept_and_counted_as_here(few_pages, tmp_path, monkeypatch):
    # the data helper computes the day's page (AHEAD) in its own session of the cache: the
    # same files, the same answers and pages counted in the same order, the same entries kept
    # (a second report in one process reads them all back)
    assert "day" in AHEAD and "day" in PAGES
    runs = {}
    for ahead in (False, True):
        forget()
        folder = tmp_path / f"answers-{ahead}"
        monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
        write_report(out=tmp_path / f"r-{ahead}", date="2026-12-01", helpers=0, ahead=ahead)
        s = last_session()
        kept = sorted(p.relative_to(folder).parts[0] for p in folder.glob("*/*/*"))
        runs[ahead] = (_files(tmp_path / f"r-{ahead}"), s.computed, s.reused, kept)
    assert runs[True] == runs[False]
    assert "page:day" in runs[True][1] and "day" in runs[True][1]
    forget()
    write_report(out=tmp_path / "again", date="2026-12-01", helpers=0, ahead=False)
    assert last_session().computed == [] and _files(tmp_path / "again") == runs[True][0]


def test_after_an_edit_pages_kept_are_read_here_and_counted_as_in_one_process(
    few_pages, tmp_path, monkeypatch
):
    # the day's page (AHEAD) is kept: the report reads it itself, the helper is not given it;
    # the files, the counts and their order are those of one process
    config = load_config()
    first, *others = config.builds
    changed = dataclasses.replace(
        config,
        builds=(dataclasses.replace(first, scores=first.scores | {"STR": first.scores["STR"] + 2}),
                *others),
    )  # fmt: skip
    runs = {}
    for ahead in (False, True):
        forget()
        monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(tmp_path / f"answers-{ahead}"))
        write_report(config, tmp_path / f"a-{ahead}", date="2026-12-01", helpers=0, ahead=ahead)
        write_report(changed, tmp_path / f"b-{ahead}", date="2026-12-01", helpers=0, ahead=ahead)
        s = last_session()
        runs[ahead] = (_files(tmp_path / f"b-{ahead}"), s.computed, s.reused, s.ignored)
    assert runs[True] == runs[False]
    assert runs[True][2].count("page:day") == 1 and "page:levels-progression" in runs[True][1]


@pytest.mark.parametrize(
    ("helper", "compiled", "started"),
    [
        (False, False, ["warm-up", "roll"]),  # the day's kernels compile in a warm-up process
        (True, False, ["roll"]),  # the data helper compiles them as it computes the day
        (True, True, []),  # numba's cache holds them: nothing to warm up
    ],
)
def test_a_first_run_compiles_the_day_in_the_helper_or_a_warm_up(
    helper, compiled, started, monkeypatch
):
    from explodice.present.report import warmup, writer

    calls: list[str] = []
    monkeypatch.setattr(warmup, "compiled", lambda *a: compiled)
    monkeypatch.setattr(warmup, "warm_roll_kernel", lambda: calls.append("roll"))
    monkeypatch.setattr(
        warmup, "start_day_warm_up", lambda *a, **k: calls.append("warm-up") or "a process"
    )
    start = writer._warm_up(Context(load_config(), "test", "2026-12-01"), helper)
    start()
    start()  # once
    assert calls == started


def test_a_page_the_data_helper_cannot_compute_is_computed_here(tmp_path):
    from explodice.present.report.ahead import DataHelper
    from explodice.present.report.pages import day

    ctx = Context(load_config(), "test", "2026-12-01")
    pages = [
        ("fails", functools.partial(int, "x")),  # int("x", ctx): a TypeError in the helper
        ("local", lambda ctx: PageData()),  # cannot be sent
        ("day", day.data),
    ]
    helper = DataHelper(ctx, pages, None)
    try:
        assert helper.page("fails") is None and helper.page("local") is None
        got = helper.page("day")
        assert helper.page("title") is None  # not asked of it
    finally:
        helper.close()
    assert got is not None and got[1] is None  # no session: not kept, no hash
    here = day.data(ctx)
    assert got[0].tables.keys() == here.tables.keys()
    for name, frame in here.tables.items():
        pd.testing.assert_frame_equal(got[0].tables[name], frame, check_exact=True)


def test_a_helpers_error_reaches_the_report(few_pages, tmp_path, monkeypatch):
    built = list(contents.PAGES)
    built[0] = dataclasses.replace(built[0], draw=_broken_draw)
    monkeypatch.setattr(contents, "PAGES", built)
    with pytest.raises(Exception, match="nothing drawn here"):
        write_report(out=tmp_path / "x", date="2026-12-01", cache=False, helpers=1)
    assert not list((tmp_path / "x").glob("*.png"))


def _broken_draw(ctx, data):
    raise ValueError("nothing drawn here")


def test_report_and_explore_take_no_cache(tmp_path, monkeypatch, capsys, stand_in_explorer):
    from explodice.present.cli.app import main

    folder = tmp_path / "answers"
    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
    monkeypatch.setattr(contents, "PAGES", [p for p in contents.PAGES if p.name == "title"])
    assert main(["report", "--out", str(tmp_path / "r"), "--no-cache", "--no-progress"]) == 0
    assert main(["explore", "--out", str(tmp_path / "e.html"), "--no-cache"]) == 0
    assert not folder.exists()
    err = capsys.readouterr().err
    assert "0 answers reused" in err and "(cache: none: --no-cache)" in err
    assert main(["explore", "--out", str(tmp_path / "e.html")]) == 0
    assert main(["explore", "--out", str(tmp_path / "f.html")]) == 0
    assert "1 answers reused, 0 computed" in capsys.readouterr().err
    assert (tmp_path / "e.html").read_bytes() == (tmp_path / "f.html").read_bytes()
    assert json.loads(next(folder.glob("file/*/*")).read_bytes().partition(b"\n")[0])["kind"]


@pytest.mark.slow
def test_the_whole_default_report_warm_has_the_cold_bytes(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLODICE_ANSWER_CACHE", str(folder))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    write_report(out=tmp_path / "cold", date="2026-12-01")
    for kind in ("file", "files"):
        for entry in _entries(folder, kind):
            entry.unlink()
    write_report(out=tmp_path / "warm", date="2026-12-01", helpers=0)
    assert last_session().computed == ["explorer"]
    cold, warm = _files(tmp_path / "cold"), _files(tmp_path / "warm")
    assert sum(n.endswith(".csv") for n in cold) > 30 and warm == cold
