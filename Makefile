# Two commands do all the set-up on a fresh machine:
#   make run   -> .venv with the package, then the main job (topswops f(10), both methods)
#   make test  -> .venv with the dev extras, then lint and the fast lane of the tests (a few minutes)
#   make test-all -> the same, then every test (the slow ones too): what CI runs
#   make docs     -> the documentation site in site/ (mkdocs build --strict); make serve-docs serves it
#   make docs-check -> every page of the built site read in headless Chromium (Debian's chromium
#                      package): images, raw roles or Markdown, overflowing code, broken links
#   make wheel-check -> the wheel and the sdist in dist/; the wheel installed into a fresh venv outside
#                       the clone, one command per puzzle run from there (what .ci/run adds)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test test-all lint bench docs serve-docs docs-check wheel wheel-check clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed $(VENV)/.installed-docs

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-docs-check: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[docs,docs-check]'
	touch $@ $(VENV)/.installed $(VENV)/.installed-docs

run: $(VENV)/.installed
	$(BIN)/puzzlesearch topswops solve --mode both -n 10

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks docs/hooks hatch_build.py
	$(BIN)/lint-imports --no-cache

test: lint
	$(BIN)/python -m pytest -q -m "not slow" -n auto

test-all: lint
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-dev
	for b in benchmarks/[a-z]*.py; do $(BIN)/python $$b || exit 1; done

docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

serve-docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

docs-check: docs $(VENV)/.installed-docs-check
	$(BIN)/python docs/hooks/browser_check.py site

# the version the wheel carries, read where the build reads it
VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)

wheel: $(VENV)/.installed-dev
	rm -f dist/puzzlesearch-*
	$(BIN)/python -m build --outdir dist
	$(BIN)/python benchmarks/wheel_smoke.py --manylinux dist/puzzlesearch-$(VERSION)-*.whl

wheel-check: wheel
	$(BIN)/python benchmarks/wheel_smoke.py --no-record --wheel $(wildcard dist/puzzlesearch-$(VERSION)-*.whl)

clean:
	rm -rf $(VENV) .pytest_cache build dist site
