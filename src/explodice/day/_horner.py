"""Which Horner schemes the chain's kernels play: the vector sweeps (:mod:`explodice.day._vector`,
the default) or their plain twin (:mod:`explodice.day._plain`), picked once, when the kernels
are first imported, by the environment variable ``EXPLODICE_KERNELS`` (``vector`` or
``plain``). The two give the same days to rounding (``tests/test_chain_kernels.py``); the plain
one is the specification to read, and the way round a CPU or a numba whose vector code is in
doubt. The kernels built on each are cached apart (:mod:`explodice.engine.numba_cache`).

>>> KERNELS in KERNEL_CHOICES
True
"""

from __future__ import annotations

import os
from typing import Literal, get_args

from explodice.core.errors import ExplodiceError, check_choice
from explodice.day import _plain, _vector

__all__ = ["KERNELS", "KERNEL_CHOICES", "KernelChoice", "horner_columns", "horner_stage"]

KernelChoice = Literal["vector", "plain"]
KERNEL_CHOICES: tuple[KernelChoice, ...] = get_args(KernelChoice)

_WANTED = os.environ.get("EXPLODICE_KERNELS") or "vector"  # unset or empty: the vector sweeps
KERNELS: KernelChoice = check_choice("EXPLODICE_KERNELS", _WANTED, KERNEL_CHOICES, ExplodiceError)

if KERNELS == "plain":
    horner_columns, horner_stage = _plain.horner_columns, _plain.horner_stage
else:
    horner_columns, horner_stage = _vector.horner_columns, _vector.horner_stage
