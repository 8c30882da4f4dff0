# Two commands for a newcomer: `make run` and `make test` (see README.md).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/trainer
export TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: run test lint setup migrate bank serve clean

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

# The whole suite on SQLite, then the database tests again on PostgreSQL when it is reachable.
test: lint
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	DEBUG=1 $(PY) manage.py bank check --files
	$(VENV)/bin/pytest
	@if $(PY) scripts/reachable.py "$(TEST_DATABASE_URL)"; then \
		echo "== database tests on PostgreSQL ($(TEST_DATABASE_URL)) =="; \
		DATABASE_URL="$(TEST_DATABASE_URL)" $(VENV)/bin/pytest --database-tests-only -p no:cacheprovider; \
	else \
		echo "SKIPPED: the database tests on PostgreSQL did not run: $(TEST_DATABASE_URL) is not reachable."; \
	fi

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
