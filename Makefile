# Mentat: `make demo` (offline), `make run` (needs DISCORD_TOKEN in .env), `make test` (every check).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install postgres chromium test lint typecheck pytest demo run bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict rules bot cogs mentat

# The store's tests also run on a real PostgreSQL server (tests/pg_server.py): Debian's
# `postgresql` package is installed when it is missing and apt-get can (root); otherwise
# those tests are skipped, each with the reason.
postgres:
	@if command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		:; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing postgresql (apt-get) for the PostgreSQL tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends postgresql >/dev/null) \
		|| echo "could not install postgresql: the PostgreSQL tests will be skipped"; \
	else \
		echo "PostgreSQL is not installed and apt-get cannot install it here:" \
			"the PostgreSQL tests will be skipped"; \
	fi

# The live page's browser test (tests/bot/test_web_browser.py) drives Debian's headless
# `chromium` with Playwright's Python API (its own driver; no browser is downloaded):
# installed like postgresql when it is missing and apt-get can; otherwise that test is
# skipped with the reason.
chromium:
	@if command -v chromium >/dev/null; then \
		:; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing chromium (apt-get) for the live page's browser test"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends chromium >/dev/null) \
		|| echo "could not install chromium: the browser test will be skipped"; \
	else \
		echo "Chromium is not installed and apt-get cannot install it here:" \
			"the browser test will be skipped"; \
	fi

# The suite runs in parallel, one pytest-xdist worker a core (PYTEST_WORKERS=0: serially).
# Nothing is shared between workers: each starts its own PostgreSQL server on a free port in
# its own folder (tests/conftest.py), and every test writes only in its own tmp_path.
PYTEST_WORKERS ?= auto

pytest: $(STAMP) postgres chromium
	$(BIN)/pytest -n $(PYTEST_WORKERS)

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/mentat demo

run: $(STAMP)
	$(BIN)/mentat run

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) demo-out .mypy_cache .ruff_cache .pytest_cache
