#!/usr/bin/env bash
# Installs Grafana's published dashboard schema (npm @grafana/schema, TypeScript types) and the
# TypeScript compiler into .tools/grafana-schema (repo-local, gitignored), for
# tests/helm/test_dashboard.py, which type-checks the dashboard JSON against the schema's
# Dashboard type. @grafana/schema ships no JSON Schema file; its types are the published schema.
# Idempotent.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dest="$repo/.tools/grafana-schema"
schema="@grafana/schema@13.2.3"
typescript="typescript@5.9.3"

if [ -f "$dest/node_modules/@grafana/schema/package.json" ] && [ -f "$dest/node_modules/typescript/bin/tsc" ]; then
    echo "install_grafana_schema: already at $dest"
    exit 0
fi
mkdir -p "$dest"
(cd "$dest" && npm install --no-audit --no-fund --silent --no-save "$schema" "$typescript")
echo "install_grafana_schema: $schema and $typescript at $dest"
