# One command per job: `make run` starts the bot on the bundled seeds (SQLite),
# `make check` runs every check CI runs (format, lint, types, the whole test suite).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install run test check lint fmt bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

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

# Benchmarks are not part of `make test`: they generate 100,000 papers (~700 MB) in /tmp.
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
