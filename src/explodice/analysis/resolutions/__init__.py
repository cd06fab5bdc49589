"""The other resolutions of docs/rules.md, in both systems, computed exactly from the rolls'
PMFs, one module per resolution (and per test file): :mod:`.opposed` (opposed tests),
:mod:`.passive` (passive values), :mod:`.group` (working together, group tests) and
:mod:`.haggling`; :mod:`.common` holds what they share.

Each takes :class:`~explodice.Roll` objects (or ready :class:`~explodice.Distribution`
objects, exact or simulated) and returns a small result that displays itself in Jupyter.

>>> from explodice import Roll, exact, opposed, group_success, haggle
>>> o = opposed(Roll(2), Roll(0))
>>> round(o.win + o.tie + o.loss, 12)
1.0
>>> p = exact(Roll(0)).p_success(12)
>>> abs(group_success([Roll(0)] * 2, dc=12).p - (1 - (1 - p) ** 2)) < 1e-12  # 1 of 2 must succeed
True
>>> h = haggle(Roll(0), dc=16)   # 10 % a point of margin, held within -25 % .. +25 %
>>> int(h.pmf.index.min()), int(h.pmf.index.max())
(-25, 25)
"""

from explodice.analysis.resolutions.group import (
    Group,
    Together,
    count_successes,
    group_success,
    working_together,
)
from explodice.analysis.resolutions.haggling import Haggle, haggle, haggle_table
from explodice.analysis.resolutions.opposed import Opposed, opposed
from explodice.analysis.resolutions.passive import Passive, passive, passive_table

__all__ = [
    "Group",
    "Haggle",
    "Opposed",
    "Passive",
    "Together",
    "count_successes",
    "group_success",
    "haggle",
    "haggle_table",
    "opposed",
    "passive",
    "passive_table",
    "working_together",
]
