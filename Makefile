# Two commands do all the set-up on a fresh machine:
#   make run   -> .venv with the package, then the main job (topswops f(10), both methods)
#   make test  -> .venv with the dev extras, then lint and the fast lane of the tests (a few minutes)
#   make test-all -> the same, then every test (the slow ones too): what CI runs
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test test-all lint bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/puzzlesearch topswops solve --mode both -n 10

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports --no-cache

test: lint
	$(BIN)/python -m pytest -q -m "not slow"

test-all: lint
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-dev
	for b in benchmarks/[a-z]*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache build dist
