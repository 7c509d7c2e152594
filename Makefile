# twlookup: `make serve` installs and serves on SQLite; `make test` installs and runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test` (each gets its own stores and test databases: tests/conftest.py)
TEST_WORKERS ?= 2

.PHONY: install serve lint format test bench bench-startup clean

# uv (from PyPI, into the virtualenv) installs the dependencies: the same packages as pip, in a
# fraction of the time (a fresh clone's `make test` includes this step)
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
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
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --durations=25

bench: $(STAMP)
	$(BIN)/python bench/run.py; status=$$?; $(BIN)/python bench/census.py || status=1; exit $$status

bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py; status=$$?; $(BIN)/python bench/memory.py || status=1; exit $$status

clean:
	rm -rf $(VENV) var .pytest_cache
