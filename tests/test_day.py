"""The adventuring day: the day kernel against the exact engine, a Markov chain and hand values."""

import numpy as np
import pytest

import explodice as ex
from tests.day_helpers import hero

# -- the simple question ----------------------------------------------------------------------


# -- first passage against an absorbing Markov chain -----------------------------------------


# -- with gauges too large to empty, each roll is the single roll ------------------------------


# -- a gauge at 0 means disadvantage -----------------------------------------------------------


# -- overflow ------------------------------------------------------------------------------------


# -- seeds, tables, validation -------------------------------------------------------------------
def test_same_seed_same_numbers_for_one_or_two_threads():
    who = hero(gauges={"PA": 12, "PM": 8, "PF": 6, "PH": 4}, policy=ex.Best(0, 0.05))
    s = ex.Scenario(
        [who],
        [
            ex.DayRoll("Hero", skill="Acrobatics", dc=15),
            ex.DayRoll("Hero", skill="Persuasion", dc=12, weight=0.5),
        ],
        rolls_per_day=15,
    )
    a = ex.simulate_day(s, n_days=3000, seed=9, threads=1, chunk_days=500)
    b = ex.simulate_day(s, n_days=3000, seed=np.random.SeedSequence(9), threads=2, chunk_days=500)
    for key in ("first", "succ_t", "by_type", "caused", "end", "lost", "sums"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    c = ex.simulate_day(s, n_days=3000, seed=10, threads=1, chunk_days=500)
    assert not np.array_equal(a.first, c.first)


def test_tables_carry_provenance_and_are_consistent():
    who = hero(gauges={"PA": 6, "PM": 6, "PF": 6, "PH": 6})
    s = ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=8)])
    res = ex.simulate_day(s, n_days=2000, seed=1, threads=1)
    for what in ("gauges", "first_empty", "empty", "success", "roll_types", "drain", "lost"):
        df = res.to_frame(what)
        assert {"n_days", "seed", "method", "rules"} <= set(df.columns), what
    empty = res.to_frame("empty").query("gauge == 'PA'")
    assert empty.p.is_monotonic_increasing
    first = res.to_frame("first_empty").query("gauge == 'PA'")
    assert first["count"].sum() == 2000
    assert "<table" in res._repr_html_()
    with pytest.raises(ex.ExplodiceError, match="`what`"):
        res.to_frame("nope")


# -- one file with the party and the day ----------------------------------------------------------


# -- progress bar and Ctrl-C ----------------------------------------------------------------------
class Bar:
    def __init__(self, total, progress):
        self.total, self.progress, self.done, self.closed = total, progress, 0, False

    def update(self, n):
        self.done += n

    def close(self):
        self.closed = True


def recording_bar(monkeypatch):
    from explodice.day import simulate as day

    bars = []

    def fake(total, progress):
        bars.append(Bar(total, progress))
        return bars[-1] if progress else None

    monkeypatch.setattr(day, "progress_bar", fake)
    return bars


def test_progress_bar_counts_every_roll(monkeypatch):
    bars = recording_bar(monkeypatch)
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=7)])
    ex.simulate_day(s, n_days=1000, seed=1, threads=1, chunk_days=100, progress=True)
    (bar,) = bars
    assert bar.total == bar.done == 7000 and bar.closed
    ex.simulate_day(s, n_days=1000, seed=1, threads=1)
    assert bars[1].progress is None  # auto: left to simulate's threshold


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_between_chunks_and_closes_the_bar(monkeypatch, threads):
    from explodice.day import _kernel as day_kernel  # simulate_day imports it when it runs

    bars = recording_bar(monkeypatch)
    kernel = day_kernel.day_chunk
    calls = []

    def interrupted(*args, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return kernel(*args, **kw)

    monkeypatch.setattr(day_kernel, "day_chunk", interrupted)
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=5)])
    with pytest.raises(KeyboardInterrupt):
        ex.simulate_day(s, n_days=10_000, seed=1, threads=threads, chunk_days=100, progress=True)
    # the run stopped after the chunk in hand: far fewer than the 100 chunks were started
    assert 2 <= len(calls) <= 2 + threads
    assert bars[0].closed and bars[0].done == (len(calls) - 1) * 100 * 5


def test_an_error_in_one_lane_stops_the_others_promptly(monkeypatch):
    """With tiny chunks and a cold compile the failing lane must stop the run itself."""
    from explodice.day import _kernel as day_kernel  # simulate_day imports it when it runs

    kernel = day_kernel.day_chunk
    calls = []

    def failing(*args, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return kernel(*args, **kw)

    monkeypatch.setattr(day_kernel, "day_chunk", failing)
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=5)])
    with pytest.raises(RuntimeError, match="boom"):
        ex.simulate_day(s, n_days=100_000, seed=1, threads=2, chunk_days=10)
    assert len(calls) <= 2  # the other lane finished at most the chunk it had taken


@pytest.mark.slow
def test_day_kernel_stays_inside_its_arrays(tmp_path):
    """With numba's bounds checks on (a fresh compile in a child process), a party with an NPC
    (whose rolls go to the scratch gauge) and an overflowing PC runs without an IndexError."""
    import os
    import subprocess
    import sys

    code = (
        "import explodice as ex\n"
        "s = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)\n"
        "party = [ex.Character('Hero', s, gauge_max={'PA': 2, 'PM': 3, 'PF': 0, 'PH': 1}),\n"
        "         ex.Character('Orc', s, actor='npc')]\n"
        "rolls = [ex.DayRoll('Orc', ability='STR', dc=14), ex.DayRoll('Hero', ability='STR')]\n"
        "ex.simulate_day(ex.Scenario(party, rolls, rolls_per_day=30), n_days=200, seed=1,\n"
        "                threads=1)\n"
    )
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]


def test_mix_lookup_table_holds_every_roll_type():
    from explodice.day.kernel_day import mix_lut

    # 40000 roll types of weight 1: type 39999 must not wrap to a negative int16
    lut = mix_lut(np.arange(1, 40_001, dtype=np.int64))
    assert lut.size == 40_000 and int(lut[-1]) == 39_999 and int(lut.min()) == 0
    small = mix_lut(np.array([3, 4, 6], dtype=np.int64))  # weights 3, 1, 2
    assert small.tolist() == [0, 0, 0, 1, 2, 2]
