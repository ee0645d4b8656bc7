# The two set-up commands: `make run` (the site on SQLite with demo data) and `make test` (the suite
# against the real PostgreSQL and Redis, with a real Celery worker). Both create .venv on first use.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

export DATABASE_URL_TEST ?= postgres://postgres@127.0.0.1:5432/shitenno
export CELERY_BROKER_URL_TEST ?= redis://127.0.0.1:6379/15
export CACHE_URL_TEST ?= redis://127.0.0.1:6379/11

.PHONY: run test install services lint

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	rm -f $(VENV)/.installed-*; touch $@

install: $(STAMP)

run: install
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) manage.py migrate --noinput
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) manage.py demo_data
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) manage.py runserver 127.0.0.1:8000

services:
	bash .ci/services

test: install services
	DATABASE_URL=$(DATABASE_URL_TEST) CELERY_BROKER_URL=$(CELERY_BROKER_URL_TEST) CACHE_URL=$(CACHE_URL_TEST) \
		$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
