"""The layout of the simulation histograms: ``h[kept 1s, drain, total - HIST_T_LO]`` (int64).

The CPU kernels (:mod:`explodice.engine._kernels`) index it with these compile-time constants
(measured: about 1.5x faster than reading the shape at run time), and the drivers
(:mod:`explodice.engine.simulate`, :mod:`explodice.engine.cuda`) allocate and trim it. A
plain module, without numba: reading the layout does not import or compile any kernel.

>>> (HIST_T_LO, HIST_T_LO + HIST_T - 1, HIST_D - 1, N_ONES - 1)  # totals, drains, kept 1s
(-160, 319, 255, 4)
"""

from __future__ import annotations

__all__ = ["HIST_D", "HIST_T", "HIST_T_LO", "N_ONES"]

N_ONES = 5  # kept 1s 0..4
HIST_T = 480  # totals -160..319 (HIST_T_LO ..)
HIST_D = 256  # drains 0..255
HIST_T_LO = -160
