"""The tutorial notebooks: stored without outputs, and every cell runs with small samples.

Each notebook is executed top to bottom by nbclient in a fresh kernel (ipykernel's ``python3``
kernelspec, which jupyter_client launches with this interpreter, the venv's), from the
``notebooks/`` folder, with the sample sizes it reads from the environment set small. A cell
that raises fails the test and names the cell.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbclient
import nbclient.exceptions
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
EXPECTED = {
    "01-quickstart.ipynb",
    "02-balancing-dcs.ipynb",
    "03-rule-of-one.ipynb",
    "04-levels.ipynb",
    "05-combat.ipynb",
    "06-bestiary.ipynb",
}
SMALL = {"EXPLODICE_NOTEBOOK_N": "20000", "EXPLODICE_NOTEBOOK_DAYS": "300", "MPLBACKEND": "Agg"}
# Generous: on a fresh clone the first cell that simulates compiles numba's kernels (10-60 s);
# with a warm cache every cell takes a few seconds at most.
CELL_TIMEOUT_S = 600


def _code_cells(path: Path) -> list:
    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if c.cell_type == "code"]


def test_the_notebooks_are_there() -> None:
    assert EXPECTED <= {p.name for p in PATHS}


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and (c.outputs or c.execution_count is not None)
    ]
    assert not dirty, (
        f"{path.name}: code cells {dirty} have outputs or an execution count; "
        "clear them before committing (Jupyter: Edit > Clear Outputs of All Cells)"
    )


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_reads_its_sample_sizes_from_the_environment(path: Path) -> None:
    """A notebook that simulates must take its sizes from the variables the tests set small."""
    source = "\n".join(c.source for c in _code_cells(path))
    if "simulate" in source:
        assert "EXPLODICE_NOTEBOOK_N" in source, path.name
    if "simulate_day" in source:
        assert "EXPLODICE_NOTEBOOK_DAYS" in source, path.name


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in SMALL.items():
        monkeypatch.setenv(key, value)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=CELL_TIMEOUT_S,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    # jupyter_client runs a kernelspec whose argv[0] is "python" with sys.executable: this venv.
    assert (
        Path(client.kernel_manager_class(kernel_name="python3").format_kernel_cmd()[0]).resolve()
        == Path(sys.executable).resolve()
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        pytest.fail(f"{path.name}: a cell raised\n{err}", pytrace=False)
    ran = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in ran)
    # every figure the notebook draws comes back as an inline image
    assert any("image/png" in o.get("data", {}) for c in ran for o in c.outputs), path.name
