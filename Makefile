# One-command entry points. Each target installs what it needs on a fresh Debian machine and
# is cheap to repeat (stamp files skip work already done).
#
#   make serve   build the site and serve it on http://127.0.0.1:$(PORT)/ (PORT=8000 by default)
#   make check   the quick check: CPython tests of the engine, bots and page logic; no npm, browser, build or slow test
#   make test    venv + npm packages + chromium, build, then the whole pytest suite (JOBS=2 processes)
#   make site    build site/ only
#   make bench   engine benchmarks (python -m splendor bench)
#   make lint    the linter alone (ruff, rules in ruff.toml; make check runs it too, as tests/test_lint.py)

PYTHON ?= python3
PORT ?= 8000
PYTEST_ARGS ?=
# pytest-xdist processes for the suite (JOBS=1: one process, no xdist)
JOBS ?= 2
PYTEST_JOBS = $(if $(filter-out 1,$(JOBS)),-n $(JOBS) --dist loadgroup,-p no:xdist)
# Started when make reads this file: `make test` reports its whole time, installs included.
MAKE_STARTED := $(shell date +%s)
VENV := .venv
VENV_PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CHROMIUM ?= /usr/bin/chromium

export DEBIAN_FRONTEND := noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export npm_config_audit := false
export npm_config_fund := false

.PHONY: serve check test site bench lint browser apt-install clean help

help:
	@sed -n '4,10p' Makefile

serve: $(NODE_STAMP)
	$(PYTHON) tools/serve.py --port $(PORT)

site: $(NODE_STAMP)
	$(PYTHON) tools/build_site.py

# Tests marked `site` use the built site (node, node_modules), `browser` ones drive chromium as well; `slow` ones
# (thousands of random playouts, the soak) are left to `make test`.
check: $(VENV_STAMP)
	$(VENV_PY) -m pytest -m "not browser and not site and not slow" $(PYTEST_JOBS) --durations=10 $(PYTEST_ARGS)

# The installs (prerequisites) are done when make expands this recipe ($(shell date) below, before its first line
# runs): it reports pytest's time, the build's and pytest's together (the suite after the installs), and the time
# since make started (installs included).
test: $(VENV_STAMP) $(NODE_STAMP) browser
	$(PYTHON) tools/build_site.py
	@installed=$(shell date +%s); started=$$(date +%s); status=0; \
	echo "$(VENV_PY) -m pytest $(PYTEST_JOBS) --durations=15 $(PYTEST_ARGS)"; \
	$(VENV_PY) -m pytest $(PYTEST_JOBS) --durations=15 $(PYTEST_ARGS) || status=$$?; \
	now=$$(date +%s); \
	echo "make test: pytest $$((now - started)) s; build and pytest $$((now - installed)) s (after the installs);" \
	     "everything since make started $$((now - $(MAKE_STARTED))) s (installs included)"; \
	exit $$status

bench:
	$(PYTHON) -m splendor bench

lint: $(VENV_STAMP)
	$(VENV_PY) -m ruff check

# --- setup steps ---------------------------------------------------------------------------

$(VENV_STAMP): requirements-dev.txt requirements-train.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ needed"'
	@if [ ! -x $(VENV_PY) ]; then \
	  $(PYTHON) -m venv $(VENV) || { \
	    echo "python3 -m venv failed; installing python3-venv"; \
	    $(MAKE) --no-print-directory apt-install PKGS=python3-venv && $(PYTHON) -m venv $(VENV); }; \
	fi
	$(VENV_PY) -m pip install --quiet -r requirements-dev.txt -r requirements-train.txt
	@touch $@

# npm ci, then Pyodide's standard library compiled to bytecode once per Pyodide version (into node_modules/.cache,
# which npm ci empties): a one-time step like the install itself, so that builds take seconds from the first one.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || $(MAKE) --no-print-directory apt-install PKGS="nodejs npm"
	npm ci --no-audit --no-fund
	$(PYTHON) tools/build_site.py --stdlib-only
	@touch $@

# Debian's chromium for the browser tests (Playwright's own browser download is unreachable): its headless shell
# runs most of them (less CPU a test), the full browser the install test and the tools.
HEADLESS_SHELL ?= /usr/bin/chromium-headless-shell
browser:
	@missing=""; \
	[ -x $(CHROMIUM) ] || missing="$$missing chromium"; \
	[ -x $(HEADLESS_SHELL) ] || missing="$$missing chromium-headless-shell"; \
	if [ -z "$$missing" ]; then :; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  $(MAKE) --no-print-directory apt-install PKGS="$$missing" || { \
	    echo "WARNING: apt-get could not install$$missing; chromium alone then (the browser tests run on it, slower)"; \
	    [ -x $(CHROMIUM) ] || $(MAKE) --no-print-directory apt-install PKGS=chromium; }; \
	else \
	  echo "WARNING:$$missing missing and apt-get unusable: browser tests will be skipped" \
	       "(or fail under CI)"; \
	fi

apt-install:
	apt-get update -q
	apt-get install -y -q $(PKGS) </dev/null

clean:
	rm -rf site test-results .pytest_cache .ruff_cache
