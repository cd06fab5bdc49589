"""Design-space sweeps: one tidy table over a grid of cases, on any executor, Dask included.

:func:`sweep` runs one analysis (a *task*) on every case of a grid and returns one tidy
DataFrame: one row per case (or several, for a task that returns a table), with the case's
parameters, ``method``, ``n``, ``seed`` and ``case``, the task's columns, and ``error``.

- **Grid**: a mapping of parameter names to lists of values (their cartesian product, the last
  name varying fastest; a single value stands for a list of one), or a DataFrame with one
  case per row (an empty cell takes the task's default; a float column's whole numbers are
  read as integers, since pandas turns a column of integers with one float or empty cell
  into floats; a column of objects, as ``[[case]]`` tables are read, keeps each value as
  written).
- **Tasks** (:data:`TASKS`): ``"success"`` (the odds of one roll against a DC), ``"frontier"``
  (the cancel frontier of one roll, exact), ``"day"`` (days of a scenario with gauges),
  ``"empty"`` (rolls until one gauge empties), or any picklable callable
  ``task(case: dict, seed: SeedSequence) -> dict | DataFrame`` (a result key named like a
  parameter gives way to the parameter's column). Every named task also takes
  the switches of :class:`~explodice.Rules` (``disadvantage``, ``overflow``, ...) as
  parameters. ``sweep_parameters(task)`` lists a task's parameters and defaults.
- **Seeds**: case ``i`` gets ``SeedSequence(seed, spawn_key=(i,))``, which is
  ``SeedSequence(seed).spawn(n_cases)[i]``: its numbers do not depend on the worker that ran
  it, on the batches or on their order. The ``seed`` column holds the root seed (a fresh
  63-bit one when ``seed=None``), ``case`` the index.
- **Executors**: a local process pool by default (``workers`` processes, ``forkserver``
  start method where it exists, else ``spawn``: forking a process that has run numba's
  threads is unsafe; kernels load from numba's cache in each worker), any
  ``concurrent.futures.Executor``, a ``dask.distributed.Client`` (its executor; the
  ``explodice[dask]`` extra), or a scheduler address such as ``"tcp://host:8786"``.
  Simulations run on one thread per case (``threads=1``): the executor supplies the
  parallelism.
- **Batches**: cases travel in batches of about ``batch_seconds`` of work each. Each task
  type has a prior cost per case (``n`` rolls or days at a measured single-thread rate); the
  first wave of batches is sized for a quarter of ``batch_seconds``, then the sizes follow the
  median of measured/prior times of the finished batches. At most two batches per worker are
  in flight, and the last batches shrink so every worker gets a share of the tail.
- **Failures**: a case that raises gets one row with its parameters and ``error``
  (``"ExplodiceError: ..."``); the other cases are returned and a :class:`SweepWarning` names
  the first failure. A case that did not run is no result: when the executor loses a batch
  (a Dask scheduler gone, a local worker killed) or a Dask cluster has had no worker for
  ``no_worker_timeout`` seconds (default 60), the sweep stops and raises
  :class:`SweepIncomplete`, whose ``frame`` holds the cases that ran. Ctrl-C cancels the
  pending batches, stops the local pool's workers at once (a remote executor's running batch, seconds long, ends unread), shuts down an
  executor that :func:`sweep` made, and re-raises :class:`KeyboardInterrupt`; SIGTERM does
  the same and exits with status 143. The local workers watch the sweep's process through a
  pipe and end with it even when it is killed (SIGKILL): no worker, forkserver or resource
  tracker outlives it. Workers never show progress bars of their own.

>>> from concurrent.futures import ThreadPoolExecutor
>>> from explodice.sweeps import sweep
>>> df = sweep({"modifier": [0, 4], "dc": 16}, "success", executor=ThreadPoolExecutor(1))
>>> df.p.round(4).tolist(), df.method.tolist()
([0.2539, 0.4907], ['exact', 'exact'])
"""

from explodice.sweeps.grid import GridFile, load_grid
from explodice.sweeps.output import check_output, write_results
from explodice.sweeps.run import sweep
from explodice.sweeps.tasks import (
    TASKS,
    SweepError,
    SweepFileError,
    SweepIncomplete,
    SweepTypeError,
    SweepWarning,
    sweep_parameters,
)

__all__ = [
    "TASKS",
    "GridFile",
    "SweepError",
    "SweepFileError",
    "SweepIncomplete",
    "SweepTypeError",
    "SweepWarning",
    "check_output",
    "load_grid",
    "sweep",
    "sweep_parameters",
    "write_results",
]
