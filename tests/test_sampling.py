"""The public Sampling object: validated once, accepted as ``sampling=`` by every analysis that
samples, with the same numbers as the keyword arguments it stands for."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import explodice as ex
from explodice import Roll, Sampling
from explodice.core.errors import ExplodiceError, ExplodiceTypeError

N, SEED = 4_000, 5
SIM = {"method": "simulate", "n": N, "seed": SEED, "threads": 1}

#: Every public analysis that samples, called on small rolls; each returns its numbers as a
#: flat array, so the two ways of asking can be compared.
CALLS = {
    "roll_distribution": lambda **kw: ex.roll_distribution(Roll(2), **kw).total_pmf,
    "success_table": lambda **kw: ex.success_table(
        [0, 3], [12, 16], advantages=["normal", "advantage"], **kw
    ).p.to_numpy(),
    "opposed": lambda **kw: np.array(_summary(ex.opposed(Roll(2), Roll(0), **kw))),
    "working_together": lambda **kw: np.array(
        [ex.working_together([Roll(1), Roll(3)], 16, **kw).p]
    ),
    "group_success": lambda **kw: np.array(
        ex.group_success([Roll(1), Roll(3), Roll(0)], dc=14, **kw).p_each
    ),
    "haggle": lambda **kw: ex.haggle(Roll(3), dc=16, **kw).pmf.to_numpy(),
    "hide": lambda **kw: np.array(
        [ex.hide(Roll(3), active=[Roll(1)], passive=[12], **kw).p_hidden]
    ),
    "initiative": lambda **kw: ex.initiative({"A": 2, "B": 1}, **kw).ranks.p.to_numpy(),
    "close_opposed": lambda **kw: np.array([ex.close_opposed(Roll(1), dc=14, **kw).p_win_a]),
}


def _summary(o):
    return o.win, o.tie, o.loss


def test_sampling_is_public_frozen_and_defaults_to_exact():
    assert "Sampling" in ex.__all__ and ex.Sampling is Sampling
    s = Sampling()
    assert (s.method, s.n, s.seed, s.threads, s.simulated) == ("exact", 200_000, None, None, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.n = 10  # type: ignore[misc]
    assert Sampling("simulate", n=np.int64(10), seed=np.int64(3)) == Sampling(
        "simulate", n=10, seed=3
    )


@pytest.mark.parametrize(
    "fields, needle",
    [
        ({"method": "magic"}, "`method` must be one of ['exact', 'simulate']"),
        ({"n": 0}, "`n` must be an integer in 1..10,000,000,000,000"),
        ({"n": 2.5}, "`n` must be"),
        ({"n": 10**14}, "`n` must be"),
        ({"seed": -1}, "`seed` must be an integer >= 0"),
        ({"seed": "one"}, "`seed` must be"),
        ({"threads": 0}, "`threads` must be an integer in 1..1,024"),
        ({"threads": True}, "`threads` must be"),
    ],
)
def test_a_bad_field_names_itself_and_what_is_allowed(fields, needle):
    with pytest.raises(ExplodiceError) as err:
        Sampling(**fields)
    assert needle in str(err.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_sampling_analysis_takes_a_sampling(name):
    call = CALLS[name]
    by_keywords = call(**SIM)
    by_object = call(sampling=Sampling(**SIM))
    # the same streams, in the same order: the same numbers to the last bit
    np.testing.assert_array_equal(by_object, by_keywords)
    # and they were simulated: another seed moves them, the exact engine differs from them
    assert not np.array_equal(call(sampling=Sampling(**(SIM | {"seed": SEED + 1}))), by_object)
    exact = call(sampling=Sampling())
    np.testing.assert_array_equal(exact, call())
    assert not np.array_equal(exact, by_object)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_keyword_that_contradicts_the_sampling_is_refused(name):
    call = CALLS[name]
    with pytest.raises(ExplodiceError, match="`n` 10 contradicts `sampling.n` 4000"):
        call(sampling=Sampling(**SIM), n=10)
    with pytest.raises(ExplodiceError, match="`method` 'exact' contradicts"):
        call(sampling=Sampling(**SIM), method="exact")
    # a keyword that says the same as the sampling is no contradiction
    np.testing.assert_array_equal(call(sampling=Sampling(**SIM), seed=SEED), call(**SIM))


def test_sampling_must_be_a_sampling():
    with pytest.raises(ExplodiceTypeError, match="`sampling` must be a Sampling"):
        ex.success_table([0], [16], sampling={"method": "simulate"})


def test_a_simulated_table_records_the_sampling():
    t = ex.success_table([0], [16], advantages=["normal"], sampling=Sampling(**SIM))
    assert set(t.method) == {"simulate"} and set(t.n) == {N} and set(t.seed) == {SEED}
    assert t.attrs["n"] == N and t.attrs["seed"] == SEED
    # within its Wilson interval of the exact value (P(3d6x >= 16) = 0.2539...)
    p = ex.exact(Roll(0)).p_success(16)
    assert float(t.ci_low.iloc[0]) <= p <= float(t.ci_high.iloc[0])
