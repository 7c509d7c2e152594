# twlookup: `make serve` installs and serves on SQLite; `make test` installs and runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed

.PHONY: install serve lint format test bench bench-startup compose-test clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/twlookup serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py

# the compose topology built and run for real (needs root or a running Docker; docs/deploy.md)
compose-test: $(STAMP)
	$(BIN)/python deploy/compose_test.py

clean:
	rm -rf $(VENV) var .pytest_cache
