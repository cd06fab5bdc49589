"""What a question answers: tidy tables, the kind of each column, and where the numbers come
from (:class:`Provenance`).

An :class:`Answer` is computed once (by its :class:`~explodice.questions.registry.Question`)
and read by every surface: the report's page and its CSVs, the command's ``--format csv|json``
and its text table, the explorer's embedded data. No surface computes a probability or rounds
on its own: each reads the answer's numbers and writes them with the formatter of the
column's :data:`Kind` (:mod:`explodice.present.formats`). An answer is plain data: it goes to
JSON and back without losing a digit (:meth:`Answer.to_json`, :meth:`Answer.from_json`), so
that a cache can keep it on disk.

>>> import pandas as pd
>>> a = Answer("demo", {"t": pd.DataFrame({"dc": [12], "p": [0.25]})},
...            {"dc": "dc", "p": "probability"}, Provenance("demo", "exact"))
>>> Answer.from_json(a.to_json()).tables["t"].p.tolist(), a.csv_table("t").method.tolist()
([0.25], ['exact'])
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, get_args

import numpy as np
import pandas as pd

from explodice.core.errors import ExplodiceError, check_choice
from explodice.core.words import Phrase
from explodice.engine.exact import OMITTED_LIMIT
from explodice.game.reroll import Reroll
from explodice.game.rules import Rules, switches

__all__ = [
    "CERTAIN_WITHIN",
    "KINDS",
    "METHODS",
    "Answer",
    "Kind",
    "Method",
    "Provenance",
    "changed_switches",
    "roller_policies",
]

#: The kinds of column an answer declares, each written by one formatter per language:
#: ``probability`` (a percent), ``change`` (a signed change of a probability, in percentage
#: points), ``gap`` (the size of such a change, unsigned: an error of a fit, a threshold,
#: in percentage points), ``signed`` (a signed change of a number: successes per day), ``number`` (a mean,
#: an expected count), ``points`` (gauge points), ``count`` (a whole count: days, rolls),
#: ``dc``, ``level``, ``modifier`` (signed whole numbers), ``label`` (a word of the data,
#: translated), ``name`` (a name the designer wrote: shown as it is), ``flag`` (yes/no).
Kind = Literal[
    "probability",
    "change",
    "gap",
    "signed",
    "number",
    "points",
    "count",
    "dc",
    "level",
    "modifier",
    "label",
    "name",
    "flag",
]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: How an answer's numbers were obtained.
Method = Literal["exact", "simulate"]
METHODS: tuple[Method, ...] = get_args(Method)
#: An exact probability within this of 0 or 1 is 0 or 1: the exact engine's cut leaves out
#: less than :data:`~explodice.engine.exact.OMITTED_LIMIT` of a roll's mass, and the sums of
#: a table or a day add rounding far below it (3d6x+5 against DC 8 is 0.999999999999939).
CERTAIN_WITHIN = OMITTED_LIMIT


class Roller(Protocol):
    """What rolls with a policy and a reroll: a Roll, a Character, a Build."""

    @property
    def policy(self) -> object: ...

    @property
    def reroll(self) -> Reroll | None: ...


def roller_policies(rollers: Iterable[tuple[str, Roller]]) -> tuple[tuple[str, str, str], ...]:
    """The provenance's ``policies``: ``(who, policy, reroll)`` of each ``(who, roller)``,
    ``"none"`` for no reroll; a pair written twice once.

    >>> from explodice.game.reroll import Reroll
    >>> from explodice.game.rules import Roll
    >>> roller_policies([("A", Roll(0)), ("B", Roll(2, reroll=Reroll("one")))])
    (('A', 'keep', 'none'), ('B', 'keep', 'one'))
    """
    return tuple(
        dict.fromkeys(
            (who, str(r.policy), r.reroll.trigger if r.reroll is not None else "none")
            for who, r in rollers
        )
    )


def changed_switches(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The switches of ``rules`` that differ from the defaults, ``(name, value)`` in field
    order (a set of kinds as ``check,save``): what a caption names besides the method.

    >>> changed_switches(Rules(malus_die="plain"))
    (('malus_die', 'plain'),)
    """
    out = []
    for sw in switches():
        value = getattr(rules, sw.name)
        if value != sw.default:
            text = ",".join(sorted(value)) if isinstance(value, frozenset) else str(value)
            out.append((sw.name, text))
    return tuple(out)


#: The ``rules`` cell of a CSV row computed under the default switches (docs/rules.md).
DEFAULT_RULES = "defaults"


@dataclass(frozen=True)
class Provenance:
    """Where an answer's numbers come from: the ``question``, its ``method`` (``exact`` or
    ``simulate``), ``n`` and ``seed`` where simulated (``n`` counts days or rolls, as
    ``unit`` says), ``cut`` (the largest mass an exact answer may leave out: a probability
    within it of 0 or 1 is 0 or 1), ``rules`` (the switches that differ from the defaults,
    :func:`changed_switches`), ``policies`` (``(who, policy, reroll)`` of each character or
    build that rolls), and ``notes`` (anything else a caption must say, in English words of
    the data)."""

    question: str
    method: Method
    n: int | None = None
    seed: int | None = None
    unit: str = "days"
    cut: float = CERTAIN_WITHIN
    rules: tuple[tuple[str, str], ...] = ()
    policies: tuple[tuple[str, str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_choice("method", self.method, METHODS, ExplodiceError)
        if self.method == "simulate" and (self.n is None or self.seed is None):
            raise ExplodiceError(Phrase("a simulated answer must record its `n` and `seed`."))

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def columns(self) -> dict[str, Any]:
        """The provenance columns of every CSV row: ``method``, ``n``, ``seed`` (empty where
        exact) and ``rules`` (the non-default switches, ``name=value;...``, or ``defaults``
        where none differs: an empty cell would read as a column left unfilled)."""
        return {
            "method": self.method,
            "n": self.n,
            "seed": self.seed,
            "rules": ";".join(f"{k}={v}" for k, v in self.rules) or DEFAULT_RULES,
        }

    @staticmethod
    def of(
        question: str,
        rules: Rules,
        *,
        method: Method = "exact",
        n: int | None = None,
        seed: int | None = None,
        unit: str = "days",
        cut: float = CERTAIN_WITHIN,
        policies: tuple[tuple[str, str, str], ...] = (),
        notes: tuple[str, ...] = (),
    ) -> Provenance:
        """The provenance of an answer under ``rules`` (their non-default switches)."""
        return Provenance(
            question,
            method,
            n if method == "simulate" else None,
            seed if method == "simulate" else None,
            unit,
            max(cut, CERTAIN_WITHIN) if method == "exact" else 0.0,
            changed_switches(rules),
            policies,
            notes,
        )


@dataclass(frozen=True, eq=False)
class Answer:
    """What a question answers: ``tables`` (tidy frames by name, full precision), ``kinds``
    (the :data:`Kind` of each column that holds a number or a word to show; a column not
    named is data for a chart, shown as it is), ``provenance``, and ``extra`` (plain values
    a surface reads besides the tables: a reason the answer has no numbers, say)."""

    question: str
    tables: Mapping[str, pd.DataFrame]
    kinds: Mapping[str, Kind]
    provenance: Provenance
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for col, kind in self.kinds.items():
            check_choice(f"kinds[{col!r}]", kind, KINDS, ExplodiceError)

    def kind(self, column: str) -> Kind | None:
        """The declared kind of ``column`` (``None``: not declared)."""
        return self.kinds.get(column)

    def csv_table(self, name: str) -> pd.DataFrame:
        """Table ``name`` as every surface writes it for scripts: its columns at full
        precision, then the provenance columns (:meth:`Provenance.columns`), the same in the
        report's CSV, the command's ``--format csv`` and the explorer's embedded data."""
        frame = self.tables[name]
        extra = {k: v for k, v in self.provenance.columns().items() if k not in frame}
        return frame.assign(**extra).reset_index(drop=True)

    def to_json(self) -> str:
        """The answer as JSON, every float as Python writes it (it reads back bit for bit)."""
        tables = {
            name: {
                "columns": [str(c) for c in f.columns],
                "dtypes": [str(t) for t in f.dtypes],
                "rows": _rows(f),
            }
            for name, f in self.tables.items()
        }
        return json.dumps(
            {
                "question": self.question,
                "kinds": dict(self.kinds),
                "provenance": asdict(self.provenance),
                "extra": {k: _plain(v) for k, v in self.extra.items()},
                "tables": tables,
            },
            ensure_ascii=False,
        )

    @staticmethod
    def from_json(text: str) -> Answer:
        """An answer written by :meth:`to_json`."""
        d = json.loads(text)
        tables = {}
        for name, t in d["tables"].items():
            columns = list(zip(*t["rows"])) if t["rows"] else [()] * len(t["columns"])
            data = {}
            for col, dtype, values in zip(t["columns"], t["dtypes"], columns):
                if dtype in _NUMPY:  # read whole (each cell as below: 10x slower)
                    with contextlib.suppress(TypeError, ValueError, OverflowError):
                        data[col] = pd.Series(np.array(values, dtype=dtype))
                        continue
                if dtype == "object":
                    data[col] = pd.Series([_na(v) for v in values], dtype=object)
                else:
                    data[col] = pd.Series(
                        [pd.NA if v == _NA else v for v in values], dtype=object
                    ).astype(dtype)
            tables[name] = pd.DataFrame(data, columns=t["columns"])
        p = d["provenance"]
        prov = Provenance(
            **{
                **p,
                "rules": tuple(tuple(x) for x in p["rules"]),
                "policies": tuple(tuple(x) for x in p["policies"]),
                "notes": tuple(p["notes"]),
            }
        )
        return Answer(d["question"], tables, d["kinds"], prov, d["extra"])


#: pandas' NA as JSON holds it (``None`` is Python's None, a float's NaN is null too).
_NA = {"@": "NA"}


#: The dtypes of a column read back whole (a null in a float column is NaN, as cell by cell).
_NUMPY = ("float64", "int64")


def _na(v: Any) -> Any:
    return pd.NA if v == _NA else v


def _rows(frame: pd.DataFrame) -> list[list[Any]]:
    """The rows of ``frame``, each cell as :func:`_plain` writes it, built a column at a time
    (a numeric or string column whole: the same Python values as cell by cell, about 3x
    faster on the readings answer's table of 78,846 rows)."""
    columns = [_plain_column(frame.iloc[:, j]) for j in range(frame.shape[1])]
    if not columns:
        return [[] for _ in range(len(frame))]
    return [list(row) for row in zip(*columns)]


def _plain_column(column: pd.Series) -> list[Any]:
    """:func:`_plain` of each cell of ``column``: a float, integer or bool column of numpy's
    as its ``tolist()`` (NaN as None), a column of strings as its cells (the missing ones
    marked), any other cell by cell."""
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else None
    if kind in ("i", "u", "b"):
        return column.to_numpy().tolist()
    if kind == "f":
        values = column.to_numpy()
        cells = values.tolist()
        for i in np.flatnonzero(np.isnan(values)).tolist():
            cells[i] = None
        return cells
    if isinstance(column.dtype, pd.StringDtype):  # str cells as they are, the missing ones marked
        cells = column.to_numpy(dtype=object).tolist()
        missing = _plain(column.dtype.na_value)
        for i in np.flatnonzero(column.isna().to_numpy()).tolist():
            cells[i] = missing
        return cells
    return [_plain(v) for v in column]


def _plain(v: Any) -> Any:
    """A cell as JSON holds it (numpy scalars as Python's, NA as a marker, NaN as null)."""
    if v is pd.NA:
        return _NA
    if v is None or (not isinstance(v, (str, list, tuple, dict)) and pd.isna(v)):
        return None
    if hasattr(v, "item"):
        return v.item()
    return v
