"""Marking an English word for the French catalogue where it is written as data.

:func:`N_` returns its text unchanged: ``pybabel extract -k N_`` finds the calls, so the word
enters the catalogue, and it is translated where it is shown (``_(word)``, in ``present/``).
Every layer may mark its words (a rules switch declares its label in ``game/rules.py``);
only ``present/`` translates them.

>>> N_("malus_die")
'malus_die'
"""

from __future__ import annotations

__all__ = ["N_"]


def N_(text: str) -> str:
    """Marks an English label for the catalogue where it is defined as data; it is
    translated where it is shown (``_(label)``)."""
    return text
