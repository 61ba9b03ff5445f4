#!/usr/bin/env bash
# Load test of `groundwatch serve` with the example traffic, server and load generator pinned apart:
#   server on CPU 0 (ONNX Runtime with one thread), load generator on CPU 1, both nice'd.
#   infra/loadtest.sh [levels] [seconds per level]      e.g. infra/loadtest.sh 1,2,4,8,16 30
# Prints the table; writes ${OUT:-build/loadtest.json} (docs/figures/serve-loadtest.json for the README's
# figure: OUT=docs/figures/serve-loadtest.json infra/loadtest.sh) and build/loadtest-serve.log.
set -euo pipefail
cd "$(dirname "$0")/.."
levels="${1:-1,2,4,8,16}"
duration="${2:-30}"
port="${PORT:-18080}"
mkdir -p build

GROUNDWATCH_SCORER__THREADS=1 GROUNDWATCH_SERVE__DEADLINE_S=120 GROUNDWATCH_SERVE__HOST=127.0.0.1 \
GROUNDWATCH_SERVE__PORT="$port" GROUNDWATCH_LOG_FORMAT=json OMP_NUM_THREADS=1 \
    taskset -c 0 nice -n 5 .venv/bin/groundwatch serve > build/loadtest-serve.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 180); do
    if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then break; fi
    kill -0 "$server" 2>/dev/null || { cat build/loadtest-serve.log; exit 1; }
    sleep 1
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null

echo "server pid $server pinned to CPU 0; load generator on CPU 1; levels $levels; ${duration}s each" >&2
taskset -c 1 nice -n 5 .venv/bin/python infra/loadtest.py --url "http://127.0.0.1:$port" \
    --levels "$levels" --duration "$duration" --json "${OUT:-build/loadtest.json}" --server-pid "$server" \
    --pinning "server: taskset -c 0, ONNX Runtime and torch 1 thread; load generator: taskset -c 1; both nice -n 5"
