# One command per job: `make run` starts the bot on the bundled seeds (SQLite),
# `make check` runs every check CI runs (format, lint, types, the whole test suite),
# `make lock` refreshes the locked dependencies after pyproject.toml changes.
# The distribution's Python 3.11 where it can make a virtual environment, else `python3`:
# CPython built with its optimisations (linked statically or profile-guided, as
# distributions and the image's python:3.11-slim build it) parses 11-13% faster than a
# plain source build such as pyenv's default (tests/benchmarks/RESULTS.md).
SYSTEM_PYTHON := /usr/bin/python3.11
PYTHON ?= $(if $(shell $(SYSTEM_PYTHON) -c 'import ensurepip, venv' 2>/dev/null && echo y),$(SYSTEM_PYTHON),python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEV_LOCK     := requirements/dev.lock
RUNTIME_LOCK := requirements/runtime.lock
LOCK_FLAGS   := --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)
# The build backend (pyproject's build-system.requires), locked with the rest.
BUILD_REQUIRES := $(PYTHON) -c 'import tomllib; \
	print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")'

.PHONY: install lock run test check lint fmt bench clean

# Dependencies come from the lock only, each file checked against its hash; the project
# itself is installed without resolving anything (its build backend is in the lock too).
$(STAMP): pyproject.toml $(DEV_LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r $(DEV_LOCK)
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP)

# Rewrites both locks from pyproject.toml (uv, one universal resolution). Pins already in
# a lock are kept; `make lock UPGRADE=1` moves every pin to the newest allowed release.
# requirements/runtime.lock (the image) is the dev lock's runtime part, same versions.
lock: install
	$(BUILD_REQUIRES) | $(BIN)/uv pip compile $(LOCK_FLAGS) --extra dev pyproject.toml - \
		-o $(DEV_LOCK)
	$(BUILD_REQUIRES) | $(BIN)/uv pip compile $(LOCK_FLAGS) pyproject.toml - \
		-c $(DEV_LOCK) -o $(RUNTIME_LOCK)

# Loads the bundled seeds into var/paperbot.db, then serves Slack when its tokens are set
# (environment or .env), else opens the offline shell.
run: install
	$(BIN)/paperbot ingest
	@if [ -n "$$SLACK_BOT_TOKEN" ] || grep -qs '^SLACK_BOT_TOKEN=.' .env; then \
		$(BIN)/paperbot serve; else $(BIN)/paperbot shell; fi

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

check: lint test

# Benchmarks are not part of `make test`: they generate 100,000 papers (~700 MB of digest
# files) and load them into SQLite and PostgreSQL, about 3 GB in /tmp in all.
# bench_relevance scores search on a labelled question set (under a minute).
bench: install
	$(BIN)/python -m tests.benchmarks.bench_search --papers 10000 100000 --write
	$(BIN)/python -m tests.benchmarks.bench_ingest --papers 10000 --write
	$(BIN)/python -m tests.benchmarks.bench_relevance --postgres --write
	$(BIN)/python -m tests.benchmarks.bench_overhead --postgresql --write

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .hypothesis
