"""The catalogue of questions: each analysis that reaches the user is one :class:`Question`,
registered once (:func:`register`), asked by every surface with :func:`ask`.

A question has a ``name``, a frozen dataclass of ``inputs`` (everything its numbers depend on:
the rules, the party or builds, the day, the method and sampling), and ``compute(inputs) ->
Answer``. :meth:`Question.key` is a content hash of the question's name, its inputs (rules
included) and the package's version: the same key, the same answer. Within one run an answer
is computed once (:func:`ask` keeps it by its key), so the report's page, the explorer and a
command that ask the same question with the same inputs read the same numbers.

Adding a question: one module in this folder that defines its inputs, its ``compute`` and
``QUESTION = register(Question(...))``, its name in :data:`MODULES`; then one adapter line per
surface (CONTRIBUTING.md).

>>> {"day", "gauge_sizing", "attack", "bestiary"} <= set(catalogue())
True
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from explodice.core.errors import ExplodiceError, check_choice
from explodice.core.version import __version__
from explodice.core.words import Phrase
from explodice.questions import cache
from explodice.questions.answer import Answer, Kind

__all__ = [
    "MODULES",
    "Question",
    "ask",
    "ask_each_build",
    "canonical",
    "catalogue",
    "forget",
    "keyed",
    "question",
    "register",
]

#: The modules that register the questions, imported by :func:`catalogue`.
MODULES = (
    "day",
    "day_policies",
    "readings",
    "gauge_sizing",
    "progression",
    "level_dcs",
    "save_dc",
    "success",
    "odds",
    "compare",
    "rule_of_one",
    "roll_classes",
    "monte_carlo",
    "reroll",
    "dc_for_target",
    "combat",
    "bestiary",
    "opposed",
    "initiative",
    "close_contest",
    "passive",
    "hiding",
    "group",
    "haggling",
)
#: Answers kept in memory within a run (the largest, the day's, are a few hundred kB).
MEMO_SIZE = 64

Inputs = TypeVar("Inputs")

_REGISTRY: dict[str, Question[Any]] = {}
#: The canonical form of frozen dataclasses asked last (a build, a monster), by identity:
#: a report's keys hold the SRD's 334 monsters again and again (30 ms a key).
_FORMS: dict[int, tuple[Any, Any]] = {}
_FORMS_SIZE = 4096
_MEMO: OrderedDict[str, Answer] = OrderedDict()


@dataclass(frozen=True)
class Question(Generic[Inputs]):
    """One question: its ``name`` (the key of the catalogue and of a cache), a one-line
    ``summary``, its ``inputs`` type (a frozen dataclass), ``compute`` (inputs -> Answer),
    the ``kinds`` of its columns, and the ``surfaces`` that show it (``report`` page slugs,
    ``cli`` commands, ``explorer`` sections), which the catalogue test walks."""

    name: str
    summary: str
    inputs: type
    compute: Callable[..., Answer]
    kinds: Mapping[str, Kind]
    surfaces: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def key(self, inputs: Inputs) -> str:
        """A content hash of this question, ``inputs`` and the package's version (never a
        time): what a cache of answers is keyed by."""
        text = json.dumps([self.name, canonical(inputs), __version__], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def ask(self, inputs: Inputs, **how: Any) -> Answer:
        """The answer for ``inputs``: computed on the first call of a run, then kept (and
        kept on disk between runs while a :func:`~explodice.questions.cache.session` is open).
        ``how``: options that change how it is computed, never what (a sweep's executor,
        a progress bar); they are not in the key."""
        if not isinstance(inputs, self.inputs):
            raise ExplodiceError(
                Phrase(
                    "question {name!r} takes {name2}, but {name3} was passed.",
                    name=self.name,
                    name2=self.inputs.__name__,
                    name3=type(inputs).__name__,
                )
            )
        if not keyed(inputs):  # a simulation from fresh entropy: its numbers are new each time
            return self.compute(inputs, **how)
        key = self.key(inputs)
        if key in _MEMO:
            _MEMO.move_to_end(key)
            return _MEMO[key]
        answer = cache.recall(self.name, key)  # kept on disk by an earlier run (a session)
        if answer is None:
            answer = self.compute(inputs, **how)
            cache.keep(self.name, key, answer)
        _MEMO[key] = answer
        while len(_MEMO) > MEMO_SIZE:
            _MEMO.popitem(last=False)
        return answer


def keyed(inputs: Any) -> bool:
    """Whether an answer to ``inputs`` may be kept by its key: not a simulation asked without a
    seed (fresh entropy; the answer records the seed it drew)."""
    return not (
        getattr(inputs, "method", "exact") == "simulate" and getattr(inputs, "seed", 0) is None
    )


def register(q: Question[Any]) -> Question[Any]:
    """Add ``q`` to the catalogue (a name is registered once)."""
    if q.name in _REGISTRY and _REGISTRY[q.name] is not q:
        raise ExplodiceError(Phrase("question {name!r} is registered twice.", name=q.name))
    _REGISTRY[q.name] = q
    return q


def catalogue() -> dict[str, Question[Any]]:
    """Every registered question, by name."""
    for module in MODULES:
        importlib.import_module(f"explodice.questions.{module}")
    return dict(_REGISTRY)


def question(name: str) -> Question[Any]:
    """The question called ``name``."""
    names = catalogue()
    return names[check_choice("question", name, tuple(names), ExplodiceError)]


def ask(name: str, inputs: Any, **how: Any) -> Answer:
    """The answer of question ``name`` for ``inputs`` (computed once per run)."""
    return question(name).ask(inputs, **how)


def ask_each_build(
    asked: Question[Any], inputs: Any, table: str, **how: Any
) -> tuple[Any, Any, Answer]:
    """``asked`` of each build of ``inputs`` alone (each answer kept on its own, so that an
    edit of one build computes one), its table ``table`` put end to end: the rows per build
    in the builds' order, as one call over all of them gives them; the provenance naming
    every build's policies; the first build's answer (for its ``extra``)."""
    import pandas as pd

    parts = [asked.ask(dataclasses.replace(inputs, builds=(b,)), **how) for b in inputs.builds]
    frame = pd.concat([a.tables[table] for a in parts], ignore_index=True)
    policies = tuple(p for a in parts for p in a.provenance.policies)
    return frame, dataclasses.replace(parts[0].provenance, policies=policies), parts[0]


def forget() -> None:
    """Drop the answers kept in this run (tests that time or count computations)."""
    _MEMO.clear()


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data that identifies it: a dataclass as its type's name and
    fields, a mapping with sorted keys, a set sorted, a float by its exact repr; what
    :meth:`Question.key` hashes."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
        kept = _FORMS.get(id(value)) if frozen else None
        if kept is not None and kept[0] is value:
            return kept[1]
        form = {
            "@": type(value).__qualname__,
            **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }
        if frozen:  # kept with the value itself, so that its id is not another's
            if len(_FORMS) >= _FORMS_SIZE:
                _FORMS.clear()
            _FORMS[id(value)] = (value, form)
        return form
    if isinstance(value, enum.Enum):
        return canonical(value.value)
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, float):
        return repr(value)
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if hasattr(value, "item"):  # a numpy scalar
        return canonical(value.item())
    if hasattr(value, "tolist"):  # a numpy array
        return canonical(value.tolist())
    return repr(value)
