# The two commands in the README: `make demo` and `make test`.
.PHONY: setup setup-test demo test stack-up stack-down

setup:
	bash infra/setup.sh

setup-test:
	bash infra/setup.sh --test

# Scores the example traffic with the shipped default model and prints the summary.
demo: setup
	.venv/bin/groundwatch score --input examples/responses.jsonl --output build/verdicts.jsonl

test: setup-test
	.venv/bin/python -m pytest -q

stack-up: setup-test
	.venv/bin/python -m infra.stack up

stack-down:
	.venv/bin/python -m infra.stack down
