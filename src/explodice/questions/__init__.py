"""The catalogue of questions: each analysis computed once (:class:`Question` -> :class:`Answer`),
read by every surface (the report, the explorer, the command line) through adapters.

This layer sits between ``present`` (the surfaces, which choose inputs and layout and format
the answer) and ``sweeps`` (the grids over levels): a question calls the analyses, the day
and the sweeps, and holds no word of a language.
"""

from explodice.questions.answer import CERTAIN_WITHIN, KINDS, Answer, Kind, Provenance
from explodice.questions.registry import Question, ask, catalogue, question, register

__all__ = [
    "CERTAIN_WITHIN",
    "KINDS",
    "Answer",
    "Kind",
    "Provenance",
    "Question",
    "ask",
    "catalogue",
    "question",
    "register",
]
