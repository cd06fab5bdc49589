"""The adventuring day: the day kernel against the exact engine, a Markov chain and hand values."""

import numpy as np
import pytest

import explodice as ex
from explodice.day import _kernel as _day_kernel
from explodice.day.scenario import ScenarioError

Z = 4.5  # |z| bound per compared number: a false alarm below 1e-5 each
SCORES = dict(STR=14, DEX=12, CON=14, INT=16, WIS=10, CHA=8)


def hero(name="Hero", *, gauges=None, **kw):
    return ex.Character(name, SCORES, gauge_max=gauges, **kw)


def close(observed, expected, se):
    return abs(observed - expected) <= Z * se + 1e-12


# -- the simple question ----------------------------------------------------------------------
def test_one_point_gauge_by_hand():
    # a gauge of 1 point empties at the first kept 1; under keep, 3 dice show at least one 1
    # with probability 1 - (5/6)**3 = 91/216, so the number of rolls is geometric: 216/91
    r = ex.rolls_to_empty(modifier=2, gauge=1, dc=16)
    assert r.mean == pytest.approx(216 / 91, rel=1e-9)
    assert r.pmf[1] == pytest.approx(91 / 216, rel=1e-9)
    assert r.pmf[2] == pytest.approx(125 / 216 * 91 / 216, rel=1e-9)


def test_rolls_to_empty_simulated_agrees_with_exact():
    e = ex.rolls_to_empty(1, 6, 14, policy="cancel")
    s = ex.rolls_to_empty(1, 6, 14, policy="cancel", method="simulate", n_days=20_000, seed=5,
                          threads=1)
    t = np.arange(e.pmf.size)
    sd = np.sqrt((e.pmf * (t - e.mean) ** 2).sum())
    assert close(s.mean, e.mean, sd / np.sqrt(20_000))
    assert set(s.to_frame().columns) >= {"rolls", "p", "count", "ci_low", "ci_high", "seed"}


def test_rolls_to_empty_refuses_a_roll_that_never_drains():
    with pytest.raises(ex.ExplodiceError, match="drains nothing"):
        ex.rolls_to_empty(0, 5, 12, kind="attack")


# -- first passage against an absorbing Markov chain -----------------------------------------
def chain_first_passage(drain_pmf, gauge, t_max):
    """P(T = t), t = 0..t_max, and P(T > t_max), by the transient matrix of levels 1..gauge."""
    q = np.zeros(gauge + 1)
    q[: min(gauge + 1, drain_pmf.size)] = drain_pmf[: gauge + 1]
    Q = np.zeros((gauge, gauge))  # level i + 1 -> level j + 1
    absorb = np.zeros(gauge)
    for i in range(gauge):
        level = i + 1
        for d in range(level):
            Q[i, level - d - 1] += q[d]
        absorb[i] = 1 - q[:level].sum()
    state = np.zeros(gauge)
    state[-1] = 1.0
    out = [0.0]
    for _ in range(t_max):
        out.append(state @ absorb)
        state = state @ Q
    return np.asarray(out), state.sum()


@pytest.mark.parametrize("policy,advantage", [("keep", 0), ("cancel", 1)])
def test_first_empty_matches_markov_chain(policy, advantage):
    gauge, t_max, n = 5, 25, 20_000
    who = hero(gauges={"PA": gauge, "PM": 0, "PF": 0, "PH": 0}, policy=policy)
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="DEX", dc=15, advantages=advantage,
                                       repeat=t_max)])
    res = ex.simulate_day(s, n_days=n, seed=11, threads=1)
    drain = ex.exact(s.roll_of(0)).drain_pmf
    p, beyond = chain_first_passage(drain, gauge, t_max)
    counts = res.first[0]  # PA of the only character
    for t in range(t_max + 1):
        assert close(counts[t] / n, p[t], np.sqrt(p[t] * (1 - p[t]) / n)), t
    assert close(counts[t_max + 1] / n, beyond, np.sqrt(beyond * (1 - beyond) / n))
    frame = res.to_frame("first_empty")
    assert frame.loc[frame.never, "count"].sum() == counts[t_max + 1]


# -- with gauges too large to empty, each roll is the single roll ------------------------------
@pytest.mark.parametrize("rules", [
    ex.Rules(),
    ex.Rules(lucky=True),  # the face-by-face path of the kernel
    ex.Rules(disadvantage="drop", ones_on_explosions=True, rule_of_one_kinds=frozenset({"check"})),
], ids=["default", "lucky", "drop-explosion-ones"])
def test_large_gauges_reproduce_exact_single_rolls(rules):
    big = {"PA": 10_000, "PM": 10_000, "PF": 10_000, "PH": 10_000}
    party = [hero(gauges=big), hero("Mage", gauges=big, policy=ex.Best(0, 0.1)),
             ex.Character("Orc", SCORES, actor="npc")]
    rolls = [ex.DayRoll("Hero", skill="Athletics", dc=16, advantages=1, weight=3),
             ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, weight=2),
             ex.DayRoll("Hero", ability="STR", kind="attack", dc=13),
             ex.DayRoll("Mage", skill="Arcana", dc=18, disadvantages=1, weight=2),
             ex.DayRoll("Orc", ability="STR", dc=14)]
    s = ex.Scenario(party, rolls, rolls_per_day=40)
    n_days = 4000
    res = ex.simulate_day(s, rules, n_days=n_days, seed=3, threads=2)
    types = res.to_frame("roll_types")
    full = types[types.state == "gauge full"].reset_index(drop=True)
    assert (types[types.state == "gauge empty"].rolls == 0).all()
    weights = np.array([r.weight for r in rolls]) / sum(r.weight for r in rolls)
    total = n_days * 40
    for i, day_roll in enumerate(rolls):
        row = full.iloc[i]
        w = weights[i]
        assert close(row.rolls / total, w, np.sqrt(w * (1 - w) / total))
        d = ex.exact(s.roll_of(i), rules)
        p = d.p_success(day_roll.dc)
        assert close(row.p, p, np.sqrt(p * (1 - p) / row.rolls)), day_roll.label
        x = np.arange(d.drain_pmf.size)
        sd = np.sqrt((d.drain_pmf * (x - d.drain_mean) ** 2).sum())
        assert close(row.drain_mean, d.drain_mean, sd / np.sqrt(row.rolls)), day_roll.label
    assert full.drain_mean.iloc[4] == 0 and full.drain_mean.iloc[2] == 0  # NPC, attack
    if "save" not in rules.rule_of_one_kinds:
        assert full.drain_mean.iloc[1] == 0  # a save outside the rule of 1
    g = res.to_frame("gauges")
    assert (g.p_empty == 0).all() and (g.lost_mean == 0).all()
    assert list(g.character.unique()) == ["Hero", "Mage"]  # NPCs have no gauges


# -- a gauge at 0 means disadvantage -----------------------------------------------------------
def test_empty_gauge_puts_its_abilities_at_disadvantage():
    rules = ex.Rules(disadvantage="drop")  # 2 dice: fewer successes and fewer 1s
    who = hero(gauges={"PA": 0, "PM": 5, "PF": 1000, "PH": 5})
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=3),
                            ex.DayRoll("Hero", ability="WIS", kind="save", dc=12, repeat=2)])
    n = 20_000
    res = ex.simulate_day(s, rules, n_days=n, seed=2, threads=1)
    types = res.to_frame("roll_types").set_index(["type", "state"])
    str_row = types.loc[(s.rolls[0].label, "gauge empty")]
    assert str_row.rolls == 3 * n and str_row.advantage == "disadvantage"
    dis = ex.exact(ex.Roll(2, advantage="disadvantage"), rules)
    normal = ex.exact(ex.Roll(2), rules)
    p = dis.p_success(14)
    assert close(str_row.p, p, np.sqrt(p * (1 - p) / str_row.rolls))
    assert str_row.p < normal.p_success(14) - 0.05  # fails if the rule is skipped
    x = np.arange(dis.drain_pmf.size)
    drain_sd = np.sqrt(dis.drain_pmf @ (x - 2 / 6 * 4.2) ** 2)
    # 2 dice: E[ones] = 1/3, E[drain] = 1/3 x 4.2 (3 dice would give 2.1)
    assert close(str_row.drain_mean, 2 / 6 * 4.2, drain_sd / np.sqrt(str_row.rolls))
    wis_row = types.loc[(s.rolls[1].label, "gauge full")]
    assert wis_row.rolls == 2 * n  # PF is full: WIS is not at disadvantage
    assert res.to_frame("gauges").set_index("gauge").loc["PA", "p_empty"] == 1.0


def test_own_advantage_nets_with_the_empty_gauge():
    who = hero(gauges={"PA": 0, "PM": 1, "PF": 1, "PH": 1})
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="CON", kind="save", dc=14, advantages=2,
                                       repeat=4)])
    n = 10_000
    res = ex.simulate_day(s, n_days=n, seed=8, threads=1)
    row = res.to_frame("roll_types").iloc[1]
    assert row.advantage == "normal"  # advantage + disadvantage -> neither
    p = ex.exact(ex.Roll(2)).p_success(14)
    assert close(row.p, p, np.sqrt(p * (1 - p) / row.rolls))


# -- overflow ------------------------------------------------------------------------------------
def test_overflow_pours_into_the_fullest_gauges_in_order():
    level = np.array([0, 5, 9, 9, 7, 7, 7, 7], dtype=np.int64)  # two characters
    pts = np.array([23, 28], dtype=np.int64)
    first = np.full(8, _day_kernel.NEVER, dtype=np.int64)
    first[0] = 0
    left = _day_kernel._overflow(level, pts, 0, 12, first, 3)
    # PF and PH tie at 9: PF (the first) takes 9, then PH (now the fullest) takes 3
    assert left == 0 and list(level[:4]) == [0, 5, 0, 6] and first[2] == 3
    assert list(pts) == [11, 28] and first[3] == _day_kernel.NEVER
    left = _day_kernel._overflow(level, pts, 1, 100, first, 4)
    assert left == 100 - 11 and list(level[:4]) == [0, 0, 0, 0]
    assert list(first[:4]) == [0, 4, 3, 4] and list(pts) == [0, 28]
    assert list(level[4:]) == [7, 7, 7, 7]  # never into another character's gauges


@pytest.mark.parametrize("overflow", ["fullest", "lost"])
def test_overflow_rule_in_the_day(overflow):
    who = hero(gauges={"PA": 2, "PM": 30, "PF": 3, "PH": 0})
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=20)])
    n = 5000
    res = ex.simulate_day(s, ex.Rules(overflow=overflow), n_days=n, seed=4, threads=1)
    g = res.to_frame("gauges").set_index("gauge")
    caused = res.sums[:, 0].sum()
    absorbed = res.sums[:, 1].sum()
    assert caused == absorbed + res.lost_sum.sum()  # every point goes somewhere
    if overflow == "fullest":  # fails if the overflow is skipped
        assert g.loc["PM", "absorbed_mean"] > 20 and g.loc["PF", "absorbed_mean"] > 0
        assert g.loc["PA", "lost_mean"] < g.loc["PA", "caused_mean"] - 30
    else:
        assert g.loc["PM", "absorbed_mean"] == 0 and g.loc["PF", "absorbed_mean"] == 0
        assert res.lost_sum[0] == caused - res.sums[0, 1]


# -- seeds, tables, validation -------------------------------------------------------------------
def test_same_seed_same_numbers_for_one_or_two_threads():
    who = hero(gauges={"PA": 12, "PM": 8, "PF": 6, "PH": 4}, policy=ex.Best(0, 0.05))
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="DEX", dc=15),
                            ex.DayRoll("Hero", ability="CHA", dc=12, weight=0.5)],
                    rolls_per_day=15)
    a = ex.simulate_day(s, n_days=3000, seed=9, threads=1, chunk_days=500)
    b = ex.simulate_day(s, n_days=3000, seed=np.random.SeedSequence(9), threads=2,
                        chunk_days=500)
    for key in ("first", "succ_t", "by_type", "caused", "end", "lost", "sums"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    c = ex.simulate_day(s, n_days=3000, seed=10, threads=1, chunk_days=500)
    assert not np.array_equal(a.first, c.first)


def test_tables_carry_provenance_and_are_consistent():
    who = hero(gauges={"PA": 6, "PM": 6, "PF": 6, "PH": 6})
    s = ex.Scenario([who], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=8)])
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


def test_scenario_validation():
    who = hero()
    with pytest.raises(ScenarioError, match="character"):
        ex.Scenario([who], [ex.DayRoll("Nobody", ability="STR")])
    with pytest.raises(ScenarioError, match="skill"):
        ex.DayRoll("Hero", skill="Athletics", kind="save")
    with pytest.raises(ScenarioError, match="ability"):
        ex.DayRoll("Hero")
    with pytest.raises(ScenarioError, match="weight"):
        ex.DayRoll("Hero", ability="STR", weight=0)
    with pytest.raises(ScenarioError, match="start.Hero.XX"):
        ex.Scenario([who], [ex.DayRoll("Hero", ability="STR")], start={"Hero": {"XX": 3}})


PARTY = """
[[character]]
name = "Gudulf"
scores = { FOR = 16, DEX = 12, CON = 14, INT = 8, SAG = 10, CHA = 10 }
skills = ["Athlétisme"]
policy = { dc = 16, weight = 0.1 }
"""

SCENARIO = """
name = "mines"
characters = "party.toml"
rolls_per_day = 12
start = { Gudulf = { PA = 10 } }

[[roll]]
character = "Gudulf"
skill = "Athlétisme"
dc = 16
weight = 3

[[roll]]
character = "Gudulf"
ability = "SAG"
kind = "save"
dc = 12
"""


def test_load_scenario(tmp_path):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    s = ex.load_scenario(path)
    assert s.name == "mines" and s.n_rolls == 12 and s.gauge_start()["Gudulf"]["PA"] == 10
    roll = s.roll_of(0)
    assert roll.modifier == 5 and roll.policy == ex.Best(16, 0.1)
    assert s.roll_of(1).kind == "save" and s.rolls[1].gauge == "PF"


@pytest.mark.parametrize("edit,message", [
    (("dc = 16", 'dc = "hard"'), r"`roll\[0\]`.*`dc`"),
    (("weight = 3", "wieght = 3"), r"`roll\[0\].wieght`: unknown key"),
    (('character = "Gudulf"\nability', 'character = "Nobody"\nability'), r"rolls\[1\].character"),
    (('characters = "party.toml"', 'characters = "missing.toml"'), "cannot be read"),
    (("rolls_per_day = 12", "rolls_per_day = 12\ncolour = 1"), r"`colour`: unknown key"),
    (("[[roll]]", "[[roll]\n"), "not valid TOML"),
])
def test_load_scenario_errors_name_file_key_problem(tmp_path, edit, message):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(SCENARIO.replace(*edit, 1), encoding="utf-8")
    with pytest.raises(ex.ExplodiceError, match=message) as err:
        ex.load_scenario(path)
    assert "toml" in str(err.value)


# -- one file with the party and the day ----------------------------------------------------------
def test_load_scenario_with_inline_characters(tmp_path):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    (tmp_path / "day.toml").write_text(SCENARIO, encoding="utf-8")
    one_file = tmp_path / "one.toml"
    one_file.write_text(SCENARIO.replace('characters = "party.toml"\n', "") + PARTY,
                        encoding="utf-8")
    s = ex.load_scenario(one_file)
    assert s.characters == ex.load_scenario(tmp_path / "day.toml").characters
    assert s.roll_of(0).modifier == 5  # FOR 16: +3, Athlétisme at level 1: +2


def test_load_scenario_day_table_layout(tmp_path):
    top, rolls = SCENARIO.split("[[roll]]", 1)
    day = ("[day]\n" + top.replace('characters = "party.toml"\n', "")
           + "[[day.roll]]" + rolls.replace("[[roll]]", "[[day.roll]]"))
    path = tmp_path / "day.toml"
    path.write_text(PARTY + day, encoding="utf-8")
    s = ex.load_scenario(path)
    assert s.name == "mines" and s.n_rolls == 12 and len(s.rolls) == 2
    assert s.gauge_start()["Gudulf"]["PA"] == 10


@pytest.mark.parametrize("text,message", [
    (SCENARIO + PARTY, r"`characters`: give the party either"),
    (SCENARIO.replace('characters = "party.toml"\n', ""), r"`characters`: missing"),
    (SCENARIO.replace('characters = "party.toml"\n', "") + PARTY.replace("FOR = 16", "FOR = 99"),
     r"`character\[0\]\.scores\.FOR`"),
    (SCENARIO + "[day]\nrolls_per_day = 3\n", r"`name`: give the day's keys either"),
    (PARTY + "[day]\ncolour = 1\n", r"`day.colour`: unknown key"),
    (PARTY + "[day]\nname = 'x'\n", r"`day.roll`: no \[\[day.roll\]\]"),
])
def test_load_scenario_one_file_errors(tmp_path, text, message):
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    path = tmp_path / "day.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ex.ExplodiceError, match=message) as err:
        ex.load_scenario(path)
    assert "day.toml" in str(err.value)


def test_shipped_day_example():
    from importlib import resources

    s = ex.load_scenario(resources.files("explodice") / "data/day_example.toml")
    assert [c.name for c in s.characters] == ["Gudulf", "Aelis", "Kobold chief"]
    assert s.rolls_per_day == 30 and len(s.rolls) == 6
    start = s.gauge_start()
    assert start["Gudulf"]["PA"] == 14 + 3 * 3  # CON + 3 per level at level 3
    assert start["Aelis"]["PF"] == 6 and start["Aelis"]["PA"] == 12 + 2 * 3
    stealth = s.roll_of(2)  # DEX 16 (+3), Stealth x2 at level 3 (2 x +2), one advantage
    assert stealth.modifier == 7 and stealth.advantage == "advantage"
    assert s.roll_of(3).policy == ex.Best(16, 0.1)  # Aelis' weight at the roll's own DC
    res = ex.simulate_day(s, n_days=500, seed=1, threads=1)
    types = res.to_frame("roll_types")
    assert types.loc[types.type.str.startswith("Kobold"), "drain_mean"].fillna(0).eq(0).all()


def test_default_report_config_party_and_day_read_as_a_scenario():
    # the report's configuration describes the party and the day in the same layout
    import tomllib
    from importlib import resources

    from explodice.day.scenario import scenario_from_tables

    data = tomllib.loads(resources.files("explodice").joinpath("data/default.toml")
                         .read_text("utf-8"))
    s = scenario_from_tables({"character": data["character"], "day": data["day"]},
                             source="default.toml")
    assert [c.name for c in s.characters] == [t["name"] for t in data["character"]]
    assert s.rolls_per_day == data["day"]["rolls_per_day"]
    assert len(s.rolls) == len(data["day"]["roll"])


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
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=7)])
    ex.simulate_day(s, n_days=1000, seed=1, threads=1, chunk_days=100, progress=True)
    (bar,) = bars
    assert bar.total == bar.done == 7000 and bar.closed
    ex.simulate_day(s, n_days=1000, seed=1, threads=1)
    assert bars[1].progress is None  # auto: left to simulate's threshold


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_between_chunks_and_closes_the_bar(monkeypatch, threads):
    from explodice.day import simulate as day
    bars = recording_bar(monkeypatch)
    kernel = day._day_kernel.day_chunk
    calls = []

    def interrupted(*args, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return kernel(*args, **kw)

    monkeypatch.setattr(day._day_kernel, "day_chunk", interrupted)
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=5)])
    with pytest.raises(KeyboardInterrupt):
        ex.simulate_day(s, n_days=10_000, seed=1, threads=threads, chunk_days=100, progress=True)
    # the run stopped after the chunk in hand: far fewer than the 100 chunks were started
    assert 2 <= len(calls) <= 2 + threads
    assert bars[0].closed and bars[0].done == (len(calls) - 1) * 100 * 5


def test_an_error_in_one_lane_stops_the_others_promptly(monkeypatch):
    """With tiny chunks and a cold compile the failing lane must stop the run itself."""
    from explodice.day import simulate as day
    kernel = day._day_kernel.day_chunk
    calls = []

    def failing(*args, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return kernel(*args, **kw)

    monkeypatch.setattr(day._day_kernel, "day_chunk", failing)
    s = ex.Scenario([hero()], [ex.DayRoll("Hero", ability="STR", dc=14, repeat=5)])
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
    from explodice.day.simulate import _mix_lut

    # 40000 roll types of weight 1: type 39999 must not wrap to a negative int16
    lut = _mix_lut(np.arange(1, 40_001, dtype=np.int64))
    assert lut.size == 40_000 and int(lut[-1]) == 39_999 and int(lut.min()) == 0
    small = _mix_lut(np.array([3, 4, 6], dtype=np.int64))  # weights 3, 1, 2
    assert small.tolist() == [0, 0, 0, 1, 2, 2]


def test_empty_time_quantile_refuses_bad_q():
    r = ex.rolls_to_empty(modifier=2, gauge=3, dc=16)
    assert r.quantile(1e-9) >= 1 and r.quantile(0.5) == r.median
    for bad in (-0.1, 1.5, "half"):
        with pytest.raises(ex.ExplodiceError, match="`q`"):
            r.quantile(bad)
