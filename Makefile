# The two set-up commands: `make run` (the site on SQLite with demo data) and `make test` (the suite
# against the real PostgreSQL and Redis, with a real Celery worker). Both create .venv on first use.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per set of packages and version of pyproject.toml: `make run` installs what the site needs to run,
# `make test` (and lint) add the test tools (pytest, Playwright, schemathesis, ruff).
SUM := $(shell cksum pyproject.toml | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(SUM)
TEST_STAMP := $(VENV)/.installed-test-$(SUM)

export DATABASE_URL_TEST ?= postgres://postgres@127.0.0.1:5432/shitenno
export CELERY_BROKER_URL_TEST ?= redis://127.0.0.1:6379/15
export CACHE_URL_TEST ?= redis://127.0.0.1:6379/11

.PHONY: run test install install-run services lint types types-baseline messages messages-compile

# axe-core (injected into the pages by tests/browser/test_axe.py) and ESLint (`make lint`, eslint.config.js) come
# from npm, pinned by package-lock.json, into node_modules/ (git-ignored). Without npm the accessibility tests say
# how to get it and are skipped.
node_modules/.installed: package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: apt-get install npm (the axe tests are skipped without it)" >&2; exit 0; }
	npm ci --no-audit --no-fund --silent && touch $@

$(VENV)/bin/python:
	@$(PYTHON) --version >/dev/null 2>&1 || { echo "Python 3.11 is required: see README.md (Try it) and docs/development.md" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	rm -f $(VENV)/.installed-run-*; touch $@

$(TEST_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e ".[test]"
	rm -f $(VENV)/.installed-run-* $(VENV)/.installed-test-*; touch $(RUN_STAMP) $@

install-run: $(RUN_STAMP)

install: $(TEST_STAMP) node_modules/.installed

# `make run HOST=0.0.0.0 PORT=8000` serves the demo to the other devices on the same network (a phone on the wifi
# opens http://<this machine's address>:8000/): the site then answers to this machine's addresses too.
HOST ?= 127.0.0.1
PORT ?= 8000
comma := ,
empty :=
space := $(empty) $(empty)
ifeq ($(HOST),127.0.0.1)
RUN_ENV :=
else
# this machine's IPv4 addresses (Linux: hostname -I; macOS: the wifi's)
LAN_ADDRESSES := $(strip $(foreach a,$(shell hostname -I 2>/dev/null || ipconfig getifaddr en0 2>/dev/null),$(if $(findstring :,$(a)),,$(a))))
RUN_ENV := ALLOWED_HOSTS=127.0.0.1,localhost$(if $(LAN_ADDRESSES),$(comma)$(subst $(space),$(comma),$(strip $(LAN_ADDRESSES))))
endif

run: install-run
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) manage.py migrate --noinput
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) manage.py demo_data
	@$(if $(LAN_ADDRESSES),echo "On a phone on the same network: $(foreach a,$(LAN_ADDRESSES),http://$(a):$(PORT)/ )")
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(RUN_ENV) $(PY) manage.py runserver $(HOST):$(PORT)

services:
	bash .ci/services

# The whole suite on PostgreSQL, then the league tests and the tables' move, page and statistics tests again on
# SQLite (the demo's database: the stores and the move post write there through the ORM instead of COPY or one
# PostgreSQL statement, and that path must stay right too). PYTEST_ARGS runs only what it names, on PostgreSQL.
SQLITE_GAMES_TESTS = tests/games/test_tables_api.py tests/games/test_pages.py tests/games/test_stats_store.py \
	tests/games/test_phrase_backfill.py tests/games/test_poll_heads.py

# Both runs use pytest-xdist: one worker a core, at most four (each has its own test database and Redis databases
# below the given numbers, see tests/xdist_env.py); worksteal: a worker that runs out takes half of another's queue.
# `make test XDIST=` runs serially.
XDIST ?= -n auto --maxprocesses=4 --dist worksteal

test: install services
	DATABASE_URL=$(DATABASE_URL_TEST) CELERY_BROKER_URL=$(CELERY_BROKER_URL_TEST) CACHE_URL=$(CACHE_URL_TEST) \
		$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)
ifeq ($(strip $(PYTEST_ARGS)),)
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL \
		$(PY) -m pytest $(XDIST) tests/leagues $(SQLITE_GAMES_TESTS) -q -m "not celery_worker and not browser"
endif

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	node_modules/.bin/eslint .
	$(MAKE) types

# The whole site type-checked with django-stubs (mypy-site.ini) against mypy-baseline.txt, which only shrinks: a new
# error fails, and so does one fixed while the baseline still lists it (then run `make types-baseline`). The pipe's
# status is the filter's: mypy itself exits 1 on the baselined errors; a mypy that crashes prints none, and the filter
# then fails on every listed error "fixed".
SITE_MYPY = env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(VENV)/bin/mypy --config-file mypy-site.ini
types: install
	$(SITE_MYPY) | $(VENV)/bin/mypy-baseline filter --baseline-path mypy-baseline.txt --sort-baseline --no-colors

types-baseline: install
	$(SITE_MYPY) | $(VENV)/bin/mypy-baseline sync --baseline-path mypy-baseline.txt --sort-baseline

# The Dutch messages (docs/development.md): `make messages` appends the strings the code uses and
# locale/nl/LC_MESSAGES/django.po lacks at its end, untranslated, without rewriting or re-sorting the file and
# without fuzzy guesses (shitenno_site/catalogue.py; never `manage.py makemessages`, which rewrites it all).
# Translate them there, then `make messages-compile` checks the file and builds django.mo.
messages: install
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(PY) -m shitenno_site.catalogue

messages-compile:
	msgfmt --check -o locale/nl/LC_MESSAGES/django.mo locale/nl/LC_MESSAGES/django.po
