# Two commands do all set-up on a fresh machine:
#   make run    imports the bundled examples into data/, prints standings, starts the bot
#               (in the terminal when TELEGRAM_BOT_TOKEN is not set)
#   make test   runs the linter and the whole test suite, in parallel (installing, as root, the
#               system packages the browser and publishing tests need: scripts/system-packages)
#   make check  the linter and the fast tests, for the edit-test loop
#   make site   builds the standings site into public/
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# The versions installed are the lock's (requirements.lock, every package pinned with its
# hashes; `make lock` remakes it from pyproject.toml), then Tiebreak itself, editable.
$(BIN)/tiebreak: pyproject.toml requirements.lock
	@echo "make: creating the virtual environment .venv ($(PYTHON) -m venv)"
	@$(PYTHON) -m venv $(VENV) || { echo "make: could not create .venv: on Debian, apt-get install python3-venv" >&2; exit 1; }
	@echo "make: installing Tiebreak and its test tools into .venv (pip, from requirements.lock, about a minute)"
	@$(BIN)/pip install --quiet --upgrade pip
	@$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	@$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	@touch $@
	@echo "make: .venv is ready (its commands: .venv/bin/tiebreak, .venv/bin/python -m bot, ...)"

# axe-core (npm), which the browser tests inject into the pages: installed before the tests run,
# never by a test
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/package.json tests/browser/package-lock.json
	@echo "make: installing axe-core for the browser tests (npm ci into tests/browser/node_modules)"
	@npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	@touch $@

.PHONY: run test check lint lock bench readme site system
run: $(BIN)/tiebreak
	@echo "make: importing the tournaments of config.toml into data/ (once)"
	$(BIN)/tiebreak import --from-config
	$(BIN)/tiebreak standings example-xiangqi-rr
	@echo "make: starting the bot (in this terminal unless TELEGRAM_BOT_TOKEN is set; :quit leaves)"
	$(BIN)/python -m bot

lint: $(BIN)/tiebreak
	$(BIN)/ruff check ranking tiebreak bot site_builder tests benchmarks

system:
	@scripts/system-packages

# The tests run in parallel (pytest-xdist, one worker per core), with compiled modules cached
# in __pycache__ (ignored by git) even where PYTHONDONTWRITEBYTECODE is set, so a run does not
# compile every module again. `make check` is the edit-test loop: the linter and the fast tests
# (not the slow, browser and process ones: tests/markers.py); `make test` is the whole suite.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto
FAST := not slow and not browser and not process

check: lint
	$(PYTEST) -m "$(FAST)"

test: lint system $(AXE)
	$(PYTEST)

site: $(BIN)/tiebreak
	$(BIN)/python -m site_builder build

# The lock, remade from pyproject.toml (after adding or changing a dependency) with pip-tools in
# a virtual environment of its own; commit requirements.lock with the pyproject.toml change.
PIP_TOOLS := pip-tools==7.6.2
lock:
	@$(PYTHON) -m venv .venv-lock && .venv-lock/bin/pip install --quiet $(PIP_TOOLS)
	.venv-lock/bin/pip-compile --quiet --generate-hashes --allow-unsafe --all-build-deps --extra test \
	    --extra s3 --strip-extras --no-emit-index-url --no-emit-find-links $(LOCK_FLAGS) -o requirements.lock pyproject.toml

bench: $(BIN)/tiebreak
	$(BIN)/python benchmarks/standings.py
	$(BIN)/python benchmarks/site.py
	$(BIN)/python benchmarks/live.py

readme: $(BIN)/tiebreak
	$(BIN)/python -m tiebreak.docs README.md docs/rules.md
