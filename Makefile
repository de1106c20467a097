# boardlab: `make demo` runs the main job, `make test` runs every check (what CI runs).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python

CHROMIUM ?= /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: demo test lint wheel-check bench install warm clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# One stamp per set of extras, redone whenever pyproject.toml changes.
$(VENV)/.installed-base: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,cluster]'
	touch $@ $(VENV)/.installed-base

$(VENV)/.installed-bench: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,cluster,bench]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-base

install: $(VENV)/.installed-base

# Every game's kernels compiled once (numba's cache), ahead of timed play.
warm: $(VENV)/.installed-base
	$(BIN)/boardlab warm

demo: $(VENV)/.installed-base
	$(BIN)/boardlab demo

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests $(wildcard benchmarks) $(wildcard scripts)
	$(BIN)/mypy --strict src $(wildcard benchmarks/*.py) $(wildcard scripts/*.py)

# The browser tests (tests/web) drive Debian's Chromium; install it when missing.
$(CHROMIUM):
	@echo "installing Debian's Chromium for the browser tests (tests/web)"
	$(SUDO) apt-get install -y chromium || ($(SUDO) apt-get update && $(SUDO) apt-get install -y chromium)

# The kernels are compiled once ahead of the tests, in one process per core (otherwise
# each test worker compiles the same ones where it first needs them).
test: lint wheel-check $(CHROMIUM)
	$(BIN)/boardlab warm --jobs 0
	$(BIN)/python -m pytest -n auto --dist loadgroup --durations=15

# The wheel as a user installs it: built from the project's files, installed in a fresh
# virtual environment, `boardlab --version` and a quick verb run from there, its package
# data checked (a few seconds; scripts/wheel_check.py --from-index also installs the
# dependencies from the package index, as a user gets them).
wheel-check: $(VENV)/.installed-test
	$(PY) scripts/wheel_check.py

bench: $(VENV)/.installed-bench
	@for script in $(wildcard benchmarks/bench_*.py); do \
		echo "== $$script"; $(PY) $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist .mypy_cache .ruff_cache .pytest_cache
