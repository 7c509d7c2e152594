# twlookup: `make serve` installs and serves on SQLite; `make test` installs and runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test` (each gets its own stores and test databases: tests/conftest.py)
TEST_WORKERS ?= 2

.PHONY: install serve lint format test suite bench bench-startup bench-instructions compose-test clean

# uv (from PyPI, into the virtualenv) installs the dependencies: the same packages as pip, in a
# fraction of the time (a fresh clone's `make test` includes this step). --compile-bytecode writes
# the modules' bytecode at install, as pip does by default: without it, where PYTHONDONTWRITEBYTECODE
# is set (CI), every process (each test server, each CLI call) compiles every library again.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/twlookup serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# `make test` runs the lint and the suite side by side, and fails if either fails: mypy (half a
# minute without its cache, as in a fresh clone) runs on one core while the suite's workers wait on
# the servers they start. The suite's output is shown as it runs, the lint's when the suite is done.
test: $(STAMP)
	@$(MAKE) --no-print-directory lint > $(VENV)/lint.log 2>&1 & lint=$$!; \
	$(MAKE) --no-print-directory suite; suite=$$?; \
	wait $$lint; linted=$$?; \
	echo "--- make lint (run beside the tests):"; cat $(VENV)/lint.log; \
	if [ $$linted -ne 0 ]; then echo "make test: the lint failed (above)"; fi; \
	exit $$(( suite || linted ))

# the package's own bytecode too (an editable install leaves it to the interpreter, which may not write it);
# pytest keeps its rewritten test modules in __pycache__ even where PYTHONDONTWRITEBYTECODE is set
# (CI): otherwise every worker rewrites all of them on every run (about 19 s of CPU each)
suite: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 src
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --durations=40

bench: $(STAMP)
	$(BIN)/python bench/run.py; status=$$?; $(BIN)/python bench/census.py || status=1; exit $$status

bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py; status=$$?; $(BIN)/python bench/memory.py || status=1; exit $$status

# the load benchmark's ratios by instructions counted under callgrind (needs valgrind; about ten
# minutes): what a busy or slow CPU does not change
bench-instructions: $(STAMP)
	$(BIN)/python bench/instructions.py

# the compose topology built and run for real (needs root or a running Docker; docs/deploy.md)
compose-test: $(STAMP)
	$(BIN)/python deploy/compose_test.py

clean:
	rm -rf $(VENV) var .pytest_cache
