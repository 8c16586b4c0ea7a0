# waitgate — `make dev` runs the local stack, `make test` runs every check. Both bootstrap .venv.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
export AWS_DEFAULT_REGION ?= us-east-1
# Hypothesis' profile (tests/support/hypothesis_profiles.py): under CI=true `ci`, every property test at
# its full example count; else `dev`, a fifth of them (at least 10). HYPOTHESIS_PROFILE=ci make test: the full check.
export HYPOTHESIS_PROFILE ?= $(if $(filter true,$(CI)),ci,dev)
PYTEST_WORKERS ?= 2
# The e2e tests' xdist workers, each with a local stack of its own.
E2E_WORKERS ?= 2
# Every pytest phase prints its 30 slowest steps and writes its cases where `make test`'s summary
# (tests/phases.py) reads them; the unit and integration phases measure the layer's branch coverage.
TEST_REPORTS := .cache/test-reports
PYTEST = $(BIN)/pytest -q --durations=30 --junitxml=$(TEST_REPORTS)/$@.xml
LAYER_COVERAGE = --cov=layers/waitgate/waitgate --cov-branch --cov-report=
# The unit and integration phases: no schemathesis plugin (only e2e's fuzz tests use it; its import
# and assert rewriting cost each pytest process ~1.5 CPU-s), and bytecode kept in __pycache__/ (ignored
# by git and by make build) even where PYTHONDONTWRITEBYTECODE is set: else every process compiled
# the repo's modules and rewrote the test modules' asserts again (~3 CPU-s a process).
CPU_PHASE = PYTHONDONTWRITEBYTECODE= $(PYTEST) -p no:schemathesis
COVERAGE_DATA = COVERAGE_FILE=.cache/coverage/$@

.PHONY: soak
.PHONY: dev dev-fresh smoke test static lint typecheck validate checkov unit integration e2e browser-deps axe-core mcp-inspector build bench docs-check pictures docs-pictures clean help

help:
	@echo "make dev    - start the local stack (no AWS account, no Docker) on http://127.0.0.1:3000,"
	@echo "              with the state it kept in .waitgate/ (WAITGATE_PORT, WAITGATE_AWS_PORT, WAITGATE_STATE_DIR)"
	@echo "make dev-fresh - the same, forgetting the kept state first"
	@echo "make test   - lint, typecheck, template checks, unit, integration and e2e tests"
	@echo "make smoke  - after sam deploy: make smoke STACK_NAME=<stack> (without: the local stack)"
	@echo "make build  - sam build of template.yaml into .aws-sam/ (bytecode for the runtime's Python 3.13)"
	@echo "make bench  - benchmarks (prints a table, writes bench/results/latest.json)"
	@echo "make soak   - the chaos soak alone: SOAK_RUNS runs (1000) of mixed kinds with every hop's faults"
	@echo "make pictures - re-make the pictures in docs/ (make docs-pictures: the human page's alone)"

# Two installs into .venv: `make dev` and `make smoke` need only the local stack's packages
# (requirements-stack.lock, 79 of them); `make test` and the rest add the test toolchain
# (requirements.lock, 145, the agent frameworks of docs/agents.md among them). Either says what it
# does before it takes its minute or two.
STACK_INSTALLED := $(VENV)/.stack-installed

$(STACK_INSTALLED): pyproject.toml requirements-stack.lock
	@echo "make: installing the local stack's packages into $(VENV) (first time only; about a minute)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-stack.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	@touch $@

$(INSTALLED): pyproject.toml requirements.lock requirements-stack.lock
	@echo "make: installing the local stack and the test toolchain into $(VENV) (first time only; about two minutes)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	@touch $@ $(STACK_INSTALLED)

# Debian's chromium and its driver for the browser tests, and npm for axe-core (root, or sudo, on a
# fresh machine).
browser-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt (the browser tests' chromium, npm for axe-core)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# axe-core for the page's accessibility checks: from npm, at the version locked in tests/e2e/page/axe/,
# installed under .cache/ (ignored) and injected by the browser tests; the product never serves it.
AXE := .cache/axe-core/node_modules/axe-core/axe.min.js
axe-core: $(AXE)
$(AXE): tests/e2e/page/axe/package.json tests/e2e/page/axe/package-lock.json | browser-deps
	@mkdir -p .cache/axe-core
	cp tests/e2e/page/axe/package.json tests/e2e/page/axe/package-lock.json .cache/axe-core/
	cd .cache/axe-core && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The MCP Inspector, whose CLI mode is the e2e tests' second MCP client (docs/mcp.md): from npm, at the
# version locked in tests/e2e/mcp_inspector/, under .cache/ (the tests install it the same way if missing).
INSPECTOR := .cache/mcp-inspector/node_modules/.bin/mcp-inspector
mcp-inspector: $(INSPECTOR)
$(INSPECTOR): tests/e2e/mcp_inspector/package.json tests/e2e/mcp_inspector/package-lock.json | browser-deps
	@mkdir -p .cache/mcp-inspector
	cp tests/e2e/mcp_inspector/package.json tests/e2e/mcp_inspector/package-lock.json .cache/mcp-inspector/
	cd .cache/mcp-inspector && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# aws-sam-cli in a venv of its own (its pins would fight the project's), for `make build` and `make bench`;
# `make test` never needs it. The template's runtime's Python (Runtime python3.13) compiles the bytecode
# the layer and the functions ship: python3.13 on PATH, else pyenv's newest 3.13.x (docs/performance.md).
SAM_VERSION := 1.170.0
SAM := .cache/sam/bin/sam
RUNTIME_PYTHON ?= $(or $(WAITGATE_RUNTIME_PYTHON),$(shell for p in python3.13 $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python3.13 2>/dev/null | sort -V -r); do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 13); print(sys.executable)' 2>/dev/null && break; done))

$(SAM):
	@test -x .cache/sam/bin/python || $(PYTHON) -m venv .cache/sam
	.cache/sam/bin/python -m pip install -q --upgrade pip
	.cache/sam/bin/python -m pip install -q aws-sam-cli==$(SAM_VERSION)

# The stack name (STACK_NAME, else samconfig.toml's) is checked first: the names built from it must fit
# AWS's limits (local/template/stack_names.py).
build: $(SAM)
	@$(PYTHON) -m local.template.stack_names $(STACK_NAME)
	@test -n "$(RUNTIME_PYTHON)" || { echo "make build: no Python 3.13 (the template's runtime) here: pyenv install 3.13, or RUNTIME_PYTHON=..." >&2; exit 1; }
	SAM_CLI_TELEMETRY=0 WAITGATE_RUNTIME_PYTHON=$(RUNTIME_PYTHON) $(SAM) build --parallel

dev: $(STACK_INSTALLED)
	$(BIN)/waitgate dev

# After `sam deploy`: one approval by signed link, one signed webhook, one durable run, every alarm
# (local/cli/smoke.py). Without STACK_NAME, the local stack (the running one, else one of its own).
smoke: $(STACK_INSTALLED)
	$(BIN)/waitgate smoke $(if $(STACK_NAME),--stack-name $(STACK_NAME))

dev-fresh: $(STACK_INSTALLED)
	$(BIN)/waitgate dev --fresh

# The static checks, run at the same time by `make static` (and so by `make test`): a new check is a
# target of its own, added to this list.
STATIC_CHECKS := ruff-check ruff-format lint-imports mypy cfn-lint checkov
.PHONY: $(STATIC_CHECKS)

static: $(INSTALLED)
	@$(MAKE) --no-print-directory -j$(words $(STATIC_CHECKS)) --output-sync=target $(STATIC_CHECKS)

ruff-check: $(INSTALLED)
	$(BIN)/ruff check .

ruff-format: $(INSTALLED)
	$(BIN)/ruff format --check .

lint-imports: $(INSTALLED)
	$(BIN)/lint-imports --no-cache

mypy: $(INSTALLED)
	$(BIN)/mypy layers/waitgate/waitgate functions local

cfn-lint: $(INSTALLED)
	$(BIN)/cfn-lint --include-checks I -- template.yaml

lint: ruff-check ruff-format lint-imports

typecheck: mypy

# cfn-lint and the template's own tests (which `make test` runs in its integration phase, once).
validate: cfn-lint
	$(PYTEST) tests/integration/test_template.py

# checkov in a venv of its own (it pins boto3 1.35, the project 1.44), on the template as written: zero
# failures; each skip is justified in its resource's Metadata.checkov.skip (docs/deploy.md, "Static checks").
CHECKOV_VERSION := 3.3.30
CHECKOV := .cache/checkov/installed-$(CHECKOV_VERSION)
$(CHECKOV):
	@test -x .cache/checkov/bin/python || $(PYTHON) -m venv .cache/checkov
	.cache/checkov/bin/python -m pip install -q --upgrade pip
	.cache/checkov/bin/python -m pip install -q checkov==$(CHECKOV_VERSION)
	@touch $@

checkov: $(CHECKOV)
	.cache/checkov/bin/checkov --skip-download --quiet --compact --framework cloudformation -f template.yaml

unit: $(INSTALLED)
	@mkdir -p .cache/coverage
	$(COVERAGE_DATA) $(CPU_PHASE) -n $(PYTEST_WORKERS) $(LAYER_COVERAGE) tests/unit

integration: $(INSTALLED)
	@mkdir -p .cache/coverage
	$(COVERAGE_DATA) $(CPU_PHASE) -n $(PYTEST_WORKERS) $(LAYER_COVERAGE) tests/integration

e2e: $(INSTALLED) browser-deps axe-core
	$(PYTEST) -n $(E2E_WORKERS) --dist loadgroup tests/e2e

# make test's stages (tests/phases.py prints each phase's output, then their times, cases, slowest
# tests and the layer's coverage): one after another, the phases of a stage at the same time. One
# stage: the CPU-bound phases run while the end-to-end tests wait for their stacks. TEST_BEHIND can
# run at a lower priority (TEST_BEHIND_NICE), but by default all compete equally: at nice 10, beside
# two CPU-bound processes of nice 0, the integration tests got ~8% of a core per worker and had not
# finished after 17 minutes (2026-12-03); at nice 0 the end-to-end tests passed with the other phases
# and four other suites beside them (load 10; docs/performance.md, "The test suite's time").
TEST_STAGES := "e2e static unit integration"
TEST_BEHIND := static unit integration
TEST_BEHIND_NICE ?= 0

# What `make test` needs first, made at the same time (pip's packages, apt's chromium and npm, npm's
# axe-core and the Inspector): on a fresh machine the downloads and installs overlap.
TEST_NEEDS := $(INSTALLED) browser-deps axe-core mcp-inspector

test:
	@$(MAKE) --no-print-directory -j$(words $(TEST_NEEDS)) --output-sync=target $(TEST_NEEDS)
	@$(BIN)/python -m tests.phases --behind "$(TEST_BEHIND)" --nice $(TEST_BEHIND_NICE) $(TEST_STAGES)

bench: $(INSTALLED) $(SAM)
	SAM=$(SAM) WAITGATE_RUNTIME_PYTHON=$(RUNTIME_PYTHON) $(BIN)/python -m bench

# The chaos soak (bench/chaos_soak.py; also a module of make bench, with 120 runs): SOAK_RUNS (1000),
# SOAK_CONCURRENCY, SOAK_FAULTS, SOAK_RECONCILE_SECONDS. A bench, never part of make test.
soak: $(INSTALLED)
	$(BIN)/python -m bench.chaos_soak

# docs/pictures/: the e-mail and the Slack message as the channels build them (channel-*.png), and the
# human page's pictures in docs/human-page.md (page/, from the real pages on a local stack of their own)
pictures: $(INSTALLED) browser-deps docs-pictures
	$(BIN)/python docs/pictures/channel_pictures.py

docs-pictures: $(INSTALLED) browser-deps
	$(BIN)/python -m tests.e2e.page.docs_pictures docs/pictures/page

docs-check: $(INSTALLED)
	$(BIN)/pytest -q tests/e2e/test_docs_commands.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis .waitgate .cache .aws-sam
