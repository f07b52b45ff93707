SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000

# Django 6 needs Python 3.12 or newer: take the first one on PATH, else one that pyenv holds.
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 \
	$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV) python3; do \
	"$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { command -v "$$p"; break; }; done)

# pytest's worker processes (pytest-xdist), each with its own test database, var/ folder and
# Redis database (config/settings.py); each test module runs whole in one of them, taken in
# the order collected (the longest first: tests/conftest.py), not by its number of tests.
PYTEST_WORKERS ?= 3
PYTEST := $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder
APP_CODE := accounts battles campaign config notifications loadtest tests manage.py
COVERED := --cov=campaign --cov=battles --cov=notifications --cov=accounts --cov=config

.PHONY: help run test bench mutate loadtest lint types pytest coverage simulate-long fuzz-long clean

help:
	@echo "make run    set up and serve the app with a demo campaign on http://$(HOST):$(PORT)"
	@echo "make test   set up and run the whole suite (lint, types, import contract, pytest)"
	@echo "make bench  time the rules engine, measure storage and page throughput"
	@echo "make mutate  the rules engine's mutation score (MODULES=campaign/rules/a.py,... for only those)"
	@echo "make loadtest  200 campaigns of 8 players polling and ordering at once"
	@echo "make coverage  pytest as make test runs it, with the line coverage of the app"
	@echo "make simulate-long  the hundred-seed simulation (make test plays the few seeds that reach everything)"
	@echo "make fuzz-long  the nightly-size fuzzing (Hypothesis's long profile)"

$(PY):
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (Django 6); none found. Set PYTHON=/path/to/python3.12." >&2; exit 1; }
	"$(PYTHON)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# --no-compile: Python compiles what it imports when it first imports it; compiling every
# installed module beforehand took a fresh machine's setup 20 s more.
$(VENV)/.runtime: requirements.txt | $(PY)
	$(PY) -m pip install --quiet --no-compile -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --no-compile -r requirements-dev.txt
	touch $(VENV)/.runtime $@

# Web server and a Celery worker with its beat, together; Ctrl-C stops both.
# With no REDIS_URL the broker is a folder under var/ (no server to install).
# The links of e-mails, the worker's and the web's alike, go where the app is served
# (SITE_URL, by default this HOST and PORT).
run: $(VENV)/.runtime
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py seed_demo
	export DEBUG=$${DEBUG:-1} SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)}; \
	$(BIN)/celery -A config worker --beat --loglevel=INFO --concurrency=1 --schedule=var/celerybeat-schedule & \
	worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM HUP; \
	$(PY) manage.py runserver $(HOST):$(PORT)

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

types: $(VENV)/.dev
	DEBUG=1 $(BIN)/mypy  # django-stubs loads the settings

# `+`: the tests' lines are printed as they come while make test runs lint and types beside
# them (each of those printed whole once it is done); the `+` also runs them under make -n.
# The app's bytecode written once before the suite: a test starts a hundred or so Python
# processes (manage.py, gunicorn, Celery, backups), and where PYTHONDONTWRITEBYTECODE is
# set each one would compile the app's modules again (0.6 s of CPU a start).
pytest: $(VENV)/.dev
	$(PY) -m compileall -q -j 0 $(APP_CODE)
	+$(PYTEST)

# Lint, types and the tests at once: mypy from cold (about 30 s of CPU) and the import
# contract no longer wait for each other nor hold back the tests, which start at once.
# make test fails if any of them fails, once the tests have finished.
test: $(VENV)/.dev
	@$(MAKE) --no-print-directory -j3 --output-sync=target lint types pytest

coverage: $(VENV)/.dev
	$(PYTEST) $(COVERED) --cov-report=term

# Each of the hundred seeded 8-kingdom campaigns plays to a sound end, and reaches no kind of
# decision or type of event that make test's few seeds do not (tests/rules/test_simulation.py).
simulate-long: $(VENV)/.dev
	$(PYTEST) -m long tests/rules/test_simulation.py

# 1,500 bodies a form and 15,000 hostile files, new ones on every run (about half an hour).
fuzz-long: $(VENV)/.dev
	HYPOTHESIS_PROFILE=long $(PYTEST) tests/test_fuzz_posts.py tests/test_fuzz_files.py

# One figure a line, `bench: NAME VALUE UNIT`, and a line per target (met or not met).
# The engine's figures need no server; storage, page throughput and first visits (the
# demo's pages against /healthz) are measured on a throwaway PostgreSQL and Redis
# (scripts/with-servers; apt install postgresql redis-server).
bench: $(VENV)/.runtime
	$(PY) manage.py bench
	PATH=$(CURDIR)/$(BIN):$$PATH scripts/with-servers $(PY) manage.py bench_storage
	PATH=$(CURDIR)/$(BIN):$$PATH scripts/with-servers $(PY) manage.py bench_pages
	PATH=$(CURDIR)/$(BIN):$$PATH scripts/with-servers $(PY) manage.py bench_first_visits

# Mutation testing of the rules engine (scripts/mutate, mutmut configured in pyproject.toml):
# each mutant of campaign/rules/ (or of the MODULES named, comma-separated) against the
# engine's own tests, no database; the survivors listed, then `mutate: K of N mutants killed
# (P %)`. Not part of make test: the modules a change touches take minutes, the whole engine
# is nightly-size. The results stay in mutants/.
MODULES ?=
mutate: $(VENV)/.dev
	$(PY) scripts/mutate $(MODULES)

# 200 campaigns of 8 players against gunicorn, Celery and beat on PostgreSQL and Redis.
loadtest: $(VENV)/.dev
	PATH=$(CURDIR)/$(BIN):$$PATH scripts/with-servers loadtest/run

clean:
	rm -rf $(VENV) var mutants .mypy_cache .pytest_cache .ruff_cache .import_linter_cache
