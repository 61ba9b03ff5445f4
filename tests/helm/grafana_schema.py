"""Type-check a Grafana dashboard JSON against Grafana's published schema (npm @grafana/schema).

The package publishes the dashboard schema as TypeScript types, not as a JSON Schema file, so the
check is the TypeScript compiler: the JSON becomes an object literal that must satisfy the
schema's `Dashboard` type (unknown keys, wrong types and unknown enum values all fail, because
object literals get excess-property checks). String enums are compared as the strings a JSON file
holds. infra/install_grafana_schema.sh installs both packages into .tools/grafana-schema.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.helm.conftest import REPO, require_tool

TOOLS = REPO / ".tools" / "grafana-schema"
TYPES = "@grafana/schema/dist/types/raw/dashboard/x/types.gen"
SOURCE = """import type {{ Dashboard }} from '{types}';

// The schema's string enums (ThresholdsMode, ...) as the literal strings a JSON file holds.
type Json<T> = T extends string ? `${{T}}` : T extends (infer U)[] ? Json<U>[]
  : T extends object ? {{ [K in keyof T]: Json<T[K]> }} : T;

export const dashboard = {json} satisfies Json<Dashboard>;
"""


def tsc() -> list[str]:
    node = require_tool(shutil.which("node"), "node", "infra/install_system.sh")
    compiler = require_tool(str(TOOLS / "node_modules" / "typescript" / "bin" / "tsc"), "tsc",
                            "infra/install_grafana_schema.sh")
    if not (TOOLS / "node_modules" / "@grafana" / "schema" / "package.json").is_file():
        require_tool(None, "@grafana/schema", "infra/install_grafana_schema.sh")
    return [node, compiler]


def check_dashboard(text: str, workdir: Path) -> subprocess.CompletedProcess:
    """tsc's verdict on one dashboard JSON text (returncode 0: it satisfies the schema)."""
    source = workdir / "dashboard_check.ts"
    source.write_text(SOURCE.format(types=TYPES, json=text.strip()))
    return subprocess.run([*tsc(), "--noEmit", "--strict", "--skipLibCheck", "--moduleResolution", "node10",
                           "--module", "commonjs", "--target", "es2020", "--baseUrl", str(TOOLS / "node_modules"),
                           str(source)], capture_output=True, text=True, timeout=120)
