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
# A fresh clone's first `make report` is mostly this venv (issue 34, benchmarks/README.md):
# - the pip that `python -m venv` brings is used as it is (any pip of Python 3.11+ installs a
#   pyproject package editable); upgrading it cost about 3 s, and it does not ask PyPI
#   whether a newer pip exists (--disable-pip-version-check);
# - pip byte-compiles every module it installs, one at a time, the packages' own test suites
#   (a third of the source) included: instead $(COMPILE) compiles them on every core, their
#   tests left out (measured under load 8-9: 47-98 s against 67-160 s for this target). The
#   modules are compiled now, not at their first import, so that a run with
#   PYTHONDONTWRITEBYTECODE set does not compile them again each time. A module that does
#   not compile is left for Python to compile at its import, as pip leaves it.
COMPILE = $(BIN)/python -m compileall -q -j0 -x 'site-packages/.*/tests?/' $(VENV)/lib src \
	|| true
$(CORE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e .
	$(COMPILE)
	touch $(CORE)

$(DEV): $(CORE)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e '.[dev]'
	$(COMPILE)
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
