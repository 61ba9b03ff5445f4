# The commands in the README: `make demo`, `make test-quick` and `make test`.
.PHONY: setup setup-dev setup-test demo test-quick test identity stack-up stack-down

setup:
	bash infra/setup.sh

setup-dev:
	bash infra/setup.sh --dev

setup-test:
	bash infra/setup.sh --test

# Scores the example traffic with the shipped default model and prints the summary.
demo: setup
	.venv/bin/groundwatch score --input examples/responses.jsonl --output build/verdicts.jsonl

# The unit tests: no servers, nothing installed outside .venv (tests/unit/README.md says what is left out).
test-quick: setup-dev
	.venv/bin/python -m pytest -q tests/unit -m "not slow"

test: setup-test
	.venv/bin/python -m pytest -q

# For a change meant to leave behaviour alone: rescore the examples, the controls and the guard probe and
# compare with BEFORE, a folder scored the same way on the commit before the change
# (`python -m tests.verdict_identity score DIR`). Every verdict record must be equal but its code version.
identity:
	@test -n "$(BEFORE)" || { echo "usage: make identity BEFORE=DIR"; exit 2; }
	.venv/bin/python -m tests.verdict_identity score build/identity
	.venv/bin/python -m tests.verdict_identity compare $(BEFORE) build/identity

stack-up: setup-test
	.venv/bin/python -m infra.stack up

stack-down:
	.venv/bin/python -m infra.stack down
