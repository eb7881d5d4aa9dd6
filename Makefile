# Talon. `make run` plays, `make test` checks everything. Both set up what they need.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export VENV

.PHONY: run test test-fast openapi lint bench clean install

$(BIN)/python:
	PYTHON=$(PYTHON) scripts/venv

# Re-installs only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip >/dev/null
	$(BIN)/pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

## run: start Redis (unless REDIS_URL is set), the API and a worker; Ctrl-C stops them all
run: $(VENV)/.installed
	@scripts/run

## test: the whole suite against a throwaway Redis server and real rq workers
test: $(VENV)/.installed
	@scripts/openapi-tools >/dev/null
	@TALON_REDIS_SERVER="$$(scripts/redis-server-path)" TALON_CHROMIUM="$$(scripts/chromium-path)" \
		TALON_BROWSER_TOOLS="$$(scripts/browser-tools)" $(BIN)/python -m pytest $(PYTEST_ARGS)

## test-fast: only the pure rules engine tests (no I/O)
test-fast: $(VENV)/.installed
	$(BIN)/python -m pytest tests/unit $(PYTEST_ARGS)

## lint: ruff (lint, and the format checked) over the code and the tests; the import contract; mypy --strict over games/, app/, adapters/
## and events/ (pyproject's [tool.mypy], scripts/typecheck); openapi.yaml
## through Redocly CLI (recommended, warnings as errors), Spectral (spectral:oas) and the free-form schema
## count (pinned tools: scripts/openapi-tools)
lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python -m mypy
	@scripts/openapi-lint

## openapi: regenerate the committed openapi.yaml from the code
openapi: $(VENV)/.installed
	$(BIN)/python -m service.openapi > openapi.yaml

## bench: speed figures (bounded in time, loopback only)
bench: $(VENV)/.installed
	@TALON_REDIS_SERVER="$$(scripts/redis-server-path)" $(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .run *.egg-info
