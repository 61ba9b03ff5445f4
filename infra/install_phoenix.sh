#!/usr/bin/env bash
# Installs Arize Phoenix into its own venv (.stack/phoenix-venv) for the verdict-sink tests.
# Never a groundwatch dependency: the tests start `phoenix serve` from this venv on loopback ports.
# Idempotent: a stamp of the pinned version skips a reinstall.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null 2>&1 || python=python3
version="${PHOENIX_VERSION:-arize-phoenix==20.26.1}"  # pinned: a newer Phoenix may change its REST API
venv=".stack/phoenix-venv"
stamp="$venv/.installed"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
    exit 0
fi
mkdir -p .stack
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$version"
echo "$version" > "$stamp"
echo "install_phoenix: ready ($venv)"
