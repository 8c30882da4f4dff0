# Two commands for a newcomer: `make run` and `make test` (see README.md).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/trainer
export TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
TEST_REDIS_URL_POSTGRES_PASS ?= redis://127.0.0.1:6379/14

.PHONY: run test test-thorough lint typecheck services setup migrate bank serve clean

run: setup migrate bank serve

setup: $(STAMP)

# Rebuilt only when the pins change, so a second `make run` is quick.
$(STAMP): pyproject.toml requirements.lock scripts/requirements.py
	@python=$$(scripts/find-python) || exit 1; \
	if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then \
		rm -rf $(VENV); echo "Creating $(VENV) with $$python"; "$$python" -m venv $(VENV) || exit 1; \
	fi
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) scripts/requirements.py dev > $(VENV)/requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r $(VENV)/requirements.txt -c requirements.lock
	@touch $(STAMP)

migrate: setup
	DEBUG=1 $(PY) manage.py migrate --no-input

bank: migrate
	DEBUG=1 $(PY) manage.py load_bank

serve: setup
	@echo "Serving http://127.0.0.1:8000 (SQLite in var/, background tasks in-process). Ctrl-C stops."
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy over problems/ and trainer/ ([tool.mypy] in pyproject.toml). `make test` runs it too.
typecheck: setup
	$(VENV)/bin/mypy

# PostgreSQL and Redis, which the production path runs on: the suite's PostgreSQL pass and its
# Redis tests (Celery on Redis, the fault tests) are part of done, so `make test` stops at once
# when either cannot be reached, naming it, rather than passing without them.
services: setup
	@missing=0; \
	for url in "$(TEST_DATABASE_URL)" "$(TEST_REDIS_URL)" "$(TEST_REDIS_URL_POSTGRES_PASS)"; do \
	  $(PY) scripts/reachable.py "$$url" || missing=1; \
	done; \
	if [ $$missing -ne 0 ]; then \
	  echo "make test needs PostgreSQL and Redis (README.md, Tests): start them, or point"; \
	  echo "TEST_DATABASE_URL, TEST_REDIS_URL and TEST_REDIS_URL_POSTGRES_PASS at ones that run."; \
	  exit 1; \
	fi

# The whole suite: lint, migrations, the type check, the bank check, pytest on SQLite, then the
# database tests again on PostgreSQL. The machine has two cores, so the type check, the bank check
# and the PostgreSQL pass run beside the SQLite pass (their output is printed after it); every
# test still runs, and a type error fails the run after the other checks. The PostgreSQL pass uses
# its own Redis database so the two passes' Celery workers never take each other's tasks.
BACKGROUND_LOG := var/test-background.log
test: services lint
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	@mkdir -p var
	@( set -e; \
	  echo "== type check (mypy) =="; \
	  types=0; $(VENV)/bin/mypy || types=$$?; \
	  DEBUG=1 $(PY) manage.py bank check --files; \
	  echo "== database tests on PostgreSQL ($(TEST_DATABASE_URL)) =="; \
	  DATABASE_URL="$(TEST_DATABASE_URL)" TEST_REDIS_URL="$(TEST_REDIS_URL_POSTGRES_PASS)" \
	    $(VENV)/bin/pytest --database-tests-only -p no:cacheprovider; \
	  exit $$types ) > $(BACKGROUND_LOG) 2>&1 & background=$$!; \
	$(VENV)/bin/pytest; foreground=$$?; \
	wait $$background; background_status=$$?; \
	echo "== type check, bank check and PostgreSQL pass (run beside the SQLite pass) =="; \
	cat $(BACKGROUND_LOG); \
	test $$foreground -eq 0 -a $$background_status -eq 0

# Property tests with thousands of examples each (make test runs a few hundred).
test-thorough: setup
	HYPOTHESIS_PROFILE=thorough $(VENV)/bin/pytest tests/engine tests/estimator tests/srs tests/plan

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache
