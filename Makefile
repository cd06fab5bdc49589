# Every target sets up .venv itself, so a fresh machine needs only Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
CORE   := $(VENV)/.installed-core
DEV    := $(VENV)/.installed-dev

.PHONY: all venv lint test test-all report bench clean clean-cache

all: test

# The report needs only the package; the tests add the dev extra (pytest, scipy, dask,
# numba-cuda's simulator, nbclient, pypdf). Each stamp is rebuilt when pyproject.toml changes.
$(CORE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(CORE)

$(DEV): $(CORE)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV)

venv: $(DEV)

## make lint: the layers contract (import-linter), ruff's checks and format, then mypy's types
lint: $(DEV)
	$(BIN)/lint-imports
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy src/explodice

## make test: the quick suite (slow statistical checks excluded), on every core
test: $(DEV)
	$(BIN)/python -m pytest -m "not slow" -n auto -q

## make test-all: everything, the large Monte Carlo runs included
test-all: $(DEV)
	$(BIN)/python -m pytest -n auto -q

## make report: write the default designer's report into reports/
report: $(CORE)
	$(BIN)/explodice report --out reports

## make bench: the side-by-side benchmarks of benchmarks/README.md
bench: $(DEV)
	$(BIN)/python benchmarks/bench_engine.py

## make clean-cache: drop numba's compiled kernels (to free the space; an edit to any source a
## kernel is built from already makes its cache stale: engine/numba_cache.py)
clean-cache:
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete

clean: clean-cache
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache
