#!/usr/bin/env bash
# Creates .venv and installs groundwatch (editable) with its dependencies.
#   infra/setup.sh          the runtime only: groundwatch[cpu], no torch (score, consume, serve, make demo)
#   infra/setup.sh --dev    plus [dev] (test tools and every extra the tests exercise: export, train, eval,
#                           bench, audit): enough for the unit tests (make test-quick)
#   infra/setup.sh --test   [dev], Debian prometheus/chromium, helm and Arize Phoenix (own venv): the whole suite
# Idempotent: a stamp of pyproject.toml skips a reinstall when nothing changed.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null 2>&1 || python=python3

mode="${1:-}"
extras=""
case "$mode" in --dev|--test) extras="[dev]" ;; esac
# One ONNX Runtime build: cpu here (GROUNDWATCH_ORT=gpu on a CUDA machine; never both, see pyproject.toml).
ort="${GROUNDWATCH_ORT:-cpu}"

if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=".venv/.groundwatch-installed${extras}"
if [ ! -f "$stamp" ] || ! cmp -s pyproject.toml "$stamp"; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    # [dev] brings torch, pinned to 2.13.0 in pyproject.toml: on these machines pip takes its CPU build from disk.
    # An editable install makes setuptools print a 10-line note that a folder named like the package may
    # shadow it on import; here that folder (groundwatch/) is the package itself, so the note is silenced.
    PYTHONWARNINGS="ignore:Editable installation" \
        .venv/bin/python -m pip install --quiet -e ".[${ort}${extras:+,dev}]"
    cp pyproject.toml "$stamp"
fi

if [ "$mode" = "--test" ]; then
    bash infra/install_system.sh
    bash infra/install_helm.sh
    bash infra/install_grafana_schema.sh
    bash infra/install_phoenix.sh  # Arize Phoenix in its own venv, for the verdict-sink tests
fi
echo "setup: ready (.venv${extras:+ with test tools and every extra})"
