# Two entry points that work on a fresh machine with Python 3.11 and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Test processes (pytest-xdist): one a core, at most four; `make test TEST_WORKERS=0` runs
# the suite in this process alone.
TEST_WORKERS ?= auto

.PHONY: demo test lint typecheck clean wheelhouse

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-base

# The runtime dependencies as wheels, fetched while the registries are reachable, so that
# tests/test_wheel.py can install the built wheel into a fresh venv with no index.
$(VENV)/wheelhouse/.done: pyproject.toml | $(BIN)/python
	$(BIN)/python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > $(VENV)/runtime-requirements.txt
	$(BIN)/python -m pip download -q --only-binary=:all: -d $(VENV)/wheelhouse -r $(VENV)/runtime-requirements.txt
	touch $@

wheelhouse: $(VENV)/wheelhouse/.done

demo: $(VENV)/.installed-base
	$(BIN)/pagemem demo

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy --strict src

test: lint typecheck wheelhouse
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --maxprocesses 4 --dist worksteal

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
