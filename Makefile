# The commands in the README: `make demo`, `make test-quick` and `make test`.
.PHONY: setup setup-dev setup-test demo test-quick test stack-up stack-down

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

stack-up: setup-test
	.venv/bin/python -m infra.stack up

stack-down:
	.venv/bin/python -m infra.stack down
