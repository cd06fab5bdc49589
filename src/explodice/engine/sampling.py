"""How an analysis gets its numbers: exactly, or by simulating ``n`` rolls from a ``seed``.

A :class:`Sampling` is a frozen, validated value that every analysis that samples accepts as
``sampling=`` (:func:`~explodice.success_table`, :func:`~explodice.roll_distribution`,
:func:`~explodice.opposed`, :func:`~explodice.working_together`,
:func:`~explodice.group_success`, :func:`~explodice.haggle`, :func:`~explodice.hide`,
:func:`~explodice.initiative`, :func:`~explodice.close_opposed`), so one choice of method, sample
size, seed and threads is written once and passed around. Their keyword arguments ``method=``,
``n=``, ``seed=`` and ``threads=`` keep working and build the same object
(:func:`resolve_sampling`); a keyword that contradicts a ``sampling`` given beside it is refused.

>>> s = Sampling("simulate", n=10**6, seed=1)
>>> s.simulated, s.n, Sampling().method
(True, 1000000, 'exact')
>>> resolve_sampling(None, method="simulate", seed=1) == Sampling("simulate", seed=1)
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np

from explodice.core.errors import ExplodiceError, ExplodiceTypeError, check_choice, shown
from explodice.core.words import Phrase
from explodice.engine.chunks import MAX_THREADS
from explodice.engine.seeding import MAX_ROLLS, resolve_seed, seed_record
from explodice.game.rules import check_int

__all__ = ["DEFAULT_N", "METHODS", "Method", "Sampling", "Streams", "resolve_sampling"]

#: ``"exact"``: the exact engine; ``"simulate"``: the Monte Carlo engine.
Method = Literal["exact", "simulate"]
METHODS: tuple[Method, ...] = get_args(Method)
#: Rolls simulated per distribution when ``n`` is not given.
DEFAULT_N = 200_000


@dataclass(frozen=True)
class Sampling:
    """How distributions are computed: ``method`` ``"exact"`` (``n``, ``seed`` and ``threads``
    then play no part) or ``"simulate"``: ``n`` rolls per distribution (1..10**13), from
    ``seed`` (an int >= 0, a numpy ``SeedSequence``, or ``None`` for fresh entropy, recorded
    on the results), on ``threads`` threads (1..1024; ``None``: one per core). The numbers of
    a seed do not depend on the number of threads.

    >>> Sampling("simulate", n=0)
    Traceback (most recent call last):
    ...
    explodice.core.errors.RulesError: `n` must be an integer in 1..10,000,000,000,000, but 0 was passed.
    """

    method: Method = "exact"
    n: int = DEFAULT_N
    seed: int | np.random.SeedSequence | None = None
    threads: int | None = None

    def __post_init__(self) -> None:
        check_choice("method", self.method, METHODS)
        object.__setattr__(self, "n", check_int("n", self.n, lo=1, hi=MAX_ROLLS))
        if self.seed is not None:
            resolve_seed(self.seed)  # the seed's own check (an int >= 0 or a SeedSequence)
            if not isinstance(self.seed, np.random.SeedSequence):
                object.__setattr__(self, "seed", int(self.seed))
        if self.threads is not None:
            object.__setattr__(
                self, "threads", check_int("threads", self.threads, lo=1, hi=MAX_THREADS)
            )

    @property
    def simulated(self) -> bool:
        """True for the Monte Carlo engine."""
        return self.method == "simulate"

    def streams(self) -> Streams:
        """The seed streams of one call of an analysis (see :class:`Streams`)."""
        return Streams(self)


class Streams:
    """One call's random streams: the seed resolved once, and each simulated distribution
    of the call takes the next stream spawned from it, in a fixed order, so a table is
    reproducible from its ``seed`` column. Exact sampling resolves no seed.

    >>> run = Sampling("simulate", seed=7).streams()
    >>> run.record, run.next().spawn_key, run.next().spawn_key
    (7, (0,), (1,))
    """

    def __init__(self, sampling: Sampling) -> None:
        self.sampling = sampling
        self._root = resolve_seed(sampling.seed) if sampling.simulated else None

    @property
    def record(self) -> Any:
        """The root seed as tables record it (an int when an int was given; None if exact)."""
        return None if self._root is None else seed_record(self._root)

    def next(self) -> np.random.SeedSequence:
        """The next stream (a child of the seed)."""
        if self._root is None:
            raise ExplodiceError(Phrase("exact sampling draws no random streams."))
        return self._root.spawn(1)[0]


def resolve_sampling(
    sampling: Sampling | None,
    *,
    method: Method | None = None,
    n: int | None = None,
    seed: Any = None,
    threads: int | None = None,
) -> Sampling:
    """The :class:`Sampling` of one call: ``sampling`` itself, or one built from the keyword
    arguments (``None`` leaves a field at its default). A keyword given beside ``sampling``
    must agree with it.

    >>> resolve_sampling(Sampling("simulate", n=10), n=20)
    Traceback (most recent call last):
    ...
    explodice.core.errors.ExplodiceError: `n` 20 contradicts `sampling.n` 10: give the sampling or the keyword, not both.
    """
    given: dict[str, Any] = {  # the keywords given, each checked as Sampling's field is
        name: value
        for name, value in (("method", method), ("n", n), ("seed", seed), ("threads", threads))
        if value is not None
    }
    if sampling is None:
        return Sampling(**given)
    if not isinstance(sampling, Sampling):
        raise ExplodiceTypeError(
            Phrase(
                "`sampling` must be a Sampling (or None), but {sampling} was passed.",
                sampling=shown(sampling),
            )
        )
    merged = dataclasses.replace(sampling, **given)  # each keyword checked as a field is
    for name in given:
        if getattr(merged, name) != getattr(sampling, name):
            raise ExplodiceError(
                Phrase(
                    "`{name}` {given} contradicts `sampling.{name}` {getattr}: give the "
                    "sampling or the keyword, not both.",
                    name=name,
                    given=shown(given[name]),
                    getattr=shown(getattr(sampling, name)),
                )
            )
    return sampling
