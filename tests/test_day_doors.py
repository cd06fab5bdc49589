"""Bad input at the day's doors (simulate_day, exact_day, optimal_policy): the package's error,
naming the field, the value and what is allowed, never an AttributeError or a wrong number."""

import pytest

import explodice as ex
from tests.day_helpers import hero


def _day(n=3):
    who = hero(gauges={"PA": 3, "PM": 1, "PF": 0, "PH": 0})
    return ex.Scenario([who], [ex.DayRoll("Hero", skill="Athletics", dc=14, repeat=n)])


@pytest.mark.parametrize("engine", ["simulate_day", "exact_day"])
@pytest.mark.parametrize("bogus", ["bogus", 3, ex.Rules(), "keep"])
def test_a_policy_that_is_not_an_optimal_policy(engine, bogus):
    call = getattr(ex, engine)
    kw = {"n_days": 10, "seed": 1} if engine == "simulate_day" else {}
    with pytest.raises(ex.ExplodiceTypeError, match="`policy` must be an OptimalPolicy") as err:
        call(_day(), policy=bogus, **kw)
    assert repr(bogus)[:20] in str(err.value)
    assert isinstance(err.value, TypeError) and err.value.field == "policy"


def test_an_optimal_policy_of_another_day_is_refused_by_both():
    best = ex.optimal_policy(_day(3))
    for call in (ex.exact_day, lambda s, policy: ex.simulate_day(s, n_days=10, policy=policy)):
        with pytest.raises(ex.ExplodiceError, match="another scenario"):
            call(_day(4), policy=best)


def test_simulating_an_optimal_policy_with_rerolls_on_failure_is_refused():
    orc = ex.Character("Orc", hero().scores, actor="npc", reroll=ex.Reroll("failure", per_day=1))
    rolls = [ex.DayRoll("Hero", skill="Athletics", dc=14), ex.DayRoll("Orc", ability="STR")]
    s = ex.Scenario([hero(gauges={"PA": 3, "PM": 0, "PF": 0, "PH": 0}), orc], rolls * 2)
    best = ex.optimal_policy(s)
    with pytest.raises(ex.ExplodiceError, match="`policy`.*die by die.*exact_day"):
        ex.simulate_day(s, n_days=10, policy=best)
    assert ex.exact_day(s, policy=best).omitted < 1e-12  # the exact day plays it


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(n_days="10"), "n_days"),
        (dict(n_days=0), "n_days"),
        (dict(n_days=2.5), "n_days"),
        (dict(seed=-1), "seed"),
        (dict(seed="one"), "seed"),
        (dict(threads=0), "threads"),
        (dict(threads="2"), "threads"),
        (dict(chunk_days=0), "chunk_days"),
        (dict(progress="yes"), "progress"),
        (dict(rules="drop"), "rules"),
    ],
)
def test_simulate_day_names_the_bad_field(kwargs, field):
    with pytest.raises(ex.ExplodiceError, match=f"`{field}`"):
        ex.simulate_day(_day(), **{"n_days": 10, **kwargs})


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: ex.exact_day("day"), "scenario"),
        (lambda: ex.exact_day(_day(), "drop"), "rules"),
        (lambda: ex.exact_day(_day(), distributions="no"), "distributions"),
        (lambda: ex.exact_day(_day(), distributions=1), "distributions"),
        (lambda: ex.optimal_policy(["day"]), "scenario"),
        (lambda: ex.optimal_policy(_day(), 1), "rules"),
        (lambda: ex.optimal_policy(_day(), values=5), "values"),
        (lambda: ex.optimal_policy(_day(), values=("1",)), "values"),
        (lambda: ex.simulate_day(None), "scenario"),
    ],
)
def test_exact_and_optimal_name_the_bad_field(call, field):
    with pytest.raises(ex.ExplodiceError, match=f"`{field}`"):
        call()


def test_the_share_of_a_roll_outside_the_day_is_refused():
    with pytest.raises(ex.ExplodiceError, match="`t`"):
        _day(3).shares_at(3)
