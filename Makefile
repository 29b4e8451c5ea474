# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-dev messages browser-deps lint check unit fuzz browser bench bench-load clean

run: install messages
	$(MAKE) --no-print-directory migrate
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install-dev messages browser-deps lint check unit fuzz browser

# Tamper-evidence (issue 13): on PostgreSQL the migrations run as the database
# owner (MIGRATION_DATABASE_URL), then the app's role (DATABASE_URL) gets its
# row rights; DATABASE_ADMIN_URL, a superuser's on the same database, first
# makes both roles. Without MIGRATION_DATABASE_URL all runs as DATABASE_URL.
.PHONY: migrate
migrate: install
	@if [ -n "$$DATABASE_ADMIN_URL" ]; then \
	  DATABASE_URL="$$DATABASE_ADMIN_URL" $(BIN)/python manage.py db_roles create \
	    --owner-url "$$MIGRATION_DATABASE_URL" --app-url "$$DATABASE_URL"; fi
	DATABASE_URL="$${MIGRATION_DATABASE_URL:-$$DATABASE_URL}" $(BIN)/python manage.py migrate --noinput
	@if [ -n "$$MIGRATION_DATABASE_URL" ]; then \
	  DATABASE_URL="$$MIGRATION_DATABASE_URL" $(BIN)/python manage.py db_roles grant \
	    --app-url "$$DATABASE_URL"; fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.runtime $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

# Compile the shipped translations with Babel, so GNU gettext is not needed.
messages:
	$(BIN)/pybabel compile --statistics -d locale -D django

# The browser tests drive Debian's Chromium; install it when it is missing.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: run 'sudo apt-get install chromium' and try again." >&2; exit 1; fi; }

lint:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

check:
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file /dev/null

# The unit and API tests on every core (pytest-xdist: each process its own
# test database), then the tests that start real Celery workers on their own,
# as they share one Redis database and flush it.
JOBS ?= auto
unit:
	$(BIN)/pytest -n $(JOBS) -m "not browser and not fuzz and not worker"
	$(BIN)/pytest -m worker

# Schemathesis over every API operation (tests/fuzz): FUZZ_EXAMPLES generated
# requests per operation, 50 unless set; FUZZ_PHASES=examples,fuzzing,coverage
# adds the boundary values. On every core, like the unit tests. Bounded in
# time: past 20 minutes it fails.
fuzz:
	timeout 1200 $(BIN)/pytest -n $(JOBS) -m fuzz

# Django refuses ORM calls from Playwright's event loop unless told; only here.
browser:
	DJANGO_ALLOW_ASYNC_UNSAFE=1 $(BIN)/pytest -m browser --output=test-results

bench: install-dev messages
	$(BIN)/python bench/run.py
	$(BIN)/python bench/calculators.py
	$(BIN)/python bench/proposal_pdf.py
	$(BIN)/python bench/motion.py

# Load figures (issue 28): give it a scratch PostgreSQL in DATABASE_URL (it
# migrates it and loads the demo) and a Redis in CACHE_URL.
bench-load: install-dev messages
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) staticfiles test-results
