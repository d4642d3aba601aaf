# Two commands do all the set-up on a fresh machine:
#   make run    start the web app on http://127.0.0.1:8000/ (creates .venv and installs the web
#               extra on first use)
#   make test   lint, type-check and run every test (installs the dev extra: everything)
# and for a quick loop while working:
#   make test-fast     the engine, solver, players, records and CLI tests on every core (no
#                      browser, server, soak or slow test)
#   make test-explore  the property tests with ten times their examples
#   make docs          build the documentation site into site/ (make docs-serve: on 127.0.0.1:8001)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEB_STAMP := $(VENV)/.web

.PHONY: run test test-fast test-explore lint bench docs docs-serve clean

$(BIN)/pip:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# make run needs only the web app's packages; make test everything (dev includes web)
$(WEB_STAMP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install -q -e '.[web]'
	touch $(WEB_STAMP)

$(STAMP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP) $(WEB_STAMP)

run: $(WEB_STAMP)
	$(BIN)/rummykit $(or $(ARGS),serve)

lint: $(STAMP)
	$(BIN)/ruff check rummykit tests bench examples docs/*.py
	$(BIN)/ruff format --check rummykit tests bench examples docs/*.py
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

FAST := not browser and not server and not soak and not slow

test-fast: $(STAMP)
	$(BIN)/pytest -n auto -m "$(FAST)"

test-explore: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest -n auto -m hypothesis

docs: $(STAMP)
	$(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

$(VENV)/.bench: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/clone.py
	$(BIN)/python bench/rl_step.py
	$(BIN)/python bench/resample.py
	$(BIN)/python bench/import_time.py

clean:
	rm -rf $(VENV) site .mypy_cache .pytest_cache .ruff_cache .hypothesis
