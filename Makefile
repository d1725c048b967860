# Two commands do all set-up on a fresh machine:
#   make run    imports the bundled examples into data/, prints standings, starts the bot
#               (in the terminal when TELEGRAM_BOT_TOKEN is not set)
#   make test   runs the linter and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/tiebreak: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

.PHONY: run test lint bench readme
run: $(BIN)/tiebreak
	$(BIN)/tiebreak import --from-config
	$(BIN)/tiebreak standings example-xiangqi-rr
	$(BIN)/python -m bot

lint: $(BIN)/tiebreak
	$(BIN)/ruff check ranking tiebreak bot site_builder tests benchmarks

test: lint
	$(BIN)/python -m pytest

bench: $(BIN)/tiebreak
	$(BIN)/python benchmarks/standings.py

readme: $(BIN)/tiebreak
	$(BIN)/python -m tiebreak.docs README.md
