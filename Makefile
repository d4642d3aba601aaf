# Two commands do all the set-up on a fresh machine:
#   make run    start the web app on http://127.0.0.1:8000/ (creates .venv and installs on first use)
#   make test   lint, type-check and run every test
# and for a quick loop while working:
#   make test-fast     the engine, solver, players, records and CLI tests on every core (no
#                      browser, server, soak or slow test)
#   make test-explore  the property tests with ten times their examples
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-explore lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rummykit $(or $(ARGS),serve)

lint: $(STAMP)
	$(BIN)/ruff check rummykit tests bench
	$(BIN)/ruff format --check rummykit tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

FAST := not browser and not server and not soak and not slow

test-fast: $(STAMP)
	$(BIN)/pytest -n auto -m "$(FAST)"

test-explore: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest -n auto -m hypothesis

$(VENV)/.bench: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/clone.py
	$(BIN)/python bench/rl_step.py
	$(BIN)/python bench/resample.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
