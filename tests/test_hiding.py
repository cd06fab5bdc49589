"""Hiding (docs/rules.md, "Hiding"): against passive observers one DC, the highest; against
active ones a shared Stealth total; values by hand and by a Monte Carlo written here."""

import numpy as np
import pytest

import explodice as ex
from explodice import Roll

Z = 4.5


@pytest.mark.parametrize("system", ["3d6x", "d20"])
def test_hiding_from_two_passives_is_one_dc_the_higher(system):
    h = ex.hide(Roll(3), passive=[12, 15], system=system)
    d = ex.exact(Roll(3)) if system == "3d6x" else ex.d20(Roll(3))
    assert h.p_hidden == pytest.approx(d.p_success(15), abs=1e-12)
    assert h.p_each["passive 12"] == pytest.approx(d.p_success(12), abs=1e-12)
    assert h.p_if_independent < h.p_hidden  # the events are positively dependent


def test_hiding_from_active_observers_shares_one_stealth_total():
    # d20 + 0 against two active d20 + 0: hidden when S >= both. By hand: sum over s of
    # 1/20 * (s/20)^2 = (1/8000) * sum s^2 = 2870 / 8000
    h = ex.hide(Roll(0), active=[Roll(0), Roll(0)], system="d20")
    assert h.p_hidden == pytest.approx(2870 / 8000, abs=1e-12)
    o = ex.opposed(Roll(0), Roll(0), system="d20")
    assert h.p_each["active 0"] == pytest.approx(o.win + o.tie, abs=1e-12)  # tie: still hidden
    assert h.p_if_independent == pytest.approx((o.win + o.tie) ** 2, abs=1e-12)
    assert sum(h.spotted) == pytest.approx(1.0) and h.spotted[0] == pytest.approx(h.p_hidden)


def test_hiding_3d6x_against_a_monte_carlo():
    rng = np.random.default_rng(8)
    n = 100_000
    draw = {m: ex.exact(Roll(m)) for m in (2, 1, 0)}
    sample = {
        m: rng.choice(d.totals, size=n, p=d.total_pmf / d.total_pmf.sum()) for m, d in draw.items()
    }
    hidden = (sample[2] >= 13) & (sample[2] >= sample[1]) & (sample[2] >= sample[0])
    p = ex.hide(Roll(2), passive=[13], active=[Roll(1), Roll(0)]).p_hidden
    assert abs(hidden.mean() - p) <= Z * np.sqrt(p * (1 - p) / n)


def test_hide_labels_each_observer_from_its_row_and_states_its_method(capsys):
    """Review 4.6: the command's rows are labelled from the answer's own columns (a reordered
    table keeps its labels), and its header says the method as every command does."""
    from explodice.present.cli import main
    from explodice.present.cli.hide import observer_label
    from explodice.questions.hiding import HidingInputs
    from explodice.questions.registry import ask

    inputs = HidingInputs(Roll(5), (Roll(2), Roll(-1)), (12, 14))
    observers = ask("hiding", inputs).tables["observers"]
    assert observers.kind.tolist() == ["passive", "passive", "active", "active", "all"]
    assert observers.passive.tolist()[:2] == [12, 14] and observers.passive[2:].isna().all()
    assert (
        observers.modifier.tolist()[2:4] == [2, -1] and observers.modifier[[0, 1, 4]].isna().all()
    )
    backwards = [observer_label(o, "en") for o in observers[::-1].itertuples()]
    assert backwards == [
        "all",
        "active, Perception -1",
        "active, Perception +2",
        "passive 14",
        "passive 12",
    ]
    assert main(["hide", "-m", "5", "--passive", "12", "--active", "2", "--lang", "fr"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "exacte (sans tirage)" in header and "exact :" not in header


def test_the_spotted_counts_are_the_total_by_total_sum_to_the_last_bit():
    # hide() adds P(k spot | Stealth total) over the totals at once (np.cumsum): the same
    # floats as a loop adding them one total after another, with one observer or several
    from explodice.analysis import hiding as hiding_mod
    from explodice.analysis.resolutions.group import count_successes

    rng = np.random.default_rng(34)
    for observers in (1, 1, 2, 3):
        ps = rng.random(60) * (rng.random(60) > 0.2)
        h = rng.random((observers, 60)) ** 3 * (rng.random((observers, 60)) > 0.3)
        want = np.zeros(observers + 1)
        for i in np.nonzero(ps)[0].tolist():
            want += ps[i] * count_successes(1.0 - h[:, i])
        assert hiding_mod._spotted(ps, h).tobytes() == want.tobytes()
