"""Imports run downhill only: CLI -> streaming job -> tools and sinks -> scoring core -> config.

Every package installs as `groundwatch.<folder>`; the layer of `groundwatch.scorers.x` is `scorers`.

Every module of every package is parsed (imports inside functions count too); a lower
layer importing a higher one fails the test with the offending file:line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Higher number = higher layer. A module may import its own package, any lower layer,
# and, inside one layer, only the packages listed in SIDEWAYS.
LAYERS = {
    "groundwatch": 5,    # the CLI: parses arguments, calls the packages below
    "consumer": 4,       # the streaming job: poll -> decode -> score -> sink -> commit
    "serve": 4,          # (future) an HTTP front end, beside the consumer
    "export": 3,         # sinks: OpenSearch, alerts, Prometheus metrics, delivery
    "reports": 3,        # rates, report data, HTML/SVG, evidence trace, verdict-store reader
    "recall_probe": 3,   # the recall@k probe
    "evaluation": 3,     # labelled dev sets, metrics, sweeps, probes, benchmarks
    "audit": 3,          # the corpus audit
    "training": 3,       # training and shipping the NLI model
    "scorers": 2,        # the scoring core
    "config": 1,         # settings and logging; imports nothing of ours
}

# Tools beside the pipeline may use the sinks' building blocks (the OpenSearch client
# factory, metric names) and evaluation may drive training's helpers; nothing else sideways.
SIDEWAYS = {
    "export": set(),
    "reports": {"export"},
    "recall_probe": {"export", "reports"},
    "evaluation": {"training"},
    "audit": {"export"},
    "training": set(),
    "consumer": set(),
    "serve": set(),
}

# Test and developer support outside the installed packages: the CLI may start the local
# stack for `bench-stream`; nothing installed may import them otherwise.
OUTSIDE = {"infra": {"groundwatch"}, "tests": set(), "examples": set()}


def _modules():
    for package in sorted(LAYERS):
        folder = ROOT / package
        if folder.is_dir():
            yield from sorted(folder.rglob("*.py"))


def _layer_of(module: str) -> str:
    """`groundwatch.scorers.pipeline` -> scorers, `groundwatch.cli` -> groundwatch, `json` -> json."""
    parts = module.split(".")
    if parts[0] == "groundwatch" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return parts[0]


def _imports(path: Path):
    """(line, layer name) of every absolute import; a bare folder name (`scorers`) is reported as such."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module


def violations() -> list[str]:
    found = []
    for path in _modules():
        rel = path.relative_to(ROOT)
        own = rel.parts[0]
        for line, module in _imports(path):
            where = f"{rel}:{line}"
            target = _layer_of(module)
            if target in LAYERS and target != "groundwatch" and not module.startswith("groundwatch."):
                found.append(f"{where}: imports {module} by its folder name (import groundwatch.{module})")
                continue
            if target == own:
                continue
            if target in OUTSIDE:
                if own not in OUTSIDE[target]:
                    found.append(f"{where}: {own} imports {target} (test/developer support)")
                continue
            if target not in LAYERS:
                continue  # the standard library or a third-party package
            if LAYERS[target] > LAYERS[own]:
                found.append(f"{where}: {own} (layer {LAYERS[own]}) imports {target} (layer {LAYERS[target]})")
            elif LAYERS[target] == LAYERS[own] and target not in SIDEWAYS.get(own, set()):
                found.append(f"{where}: {own} imports {target} sideways (allowed: {sorted(SIDEWAYS.get(own, ()))})")
    return found


def test_every_top_level_package_has_a_layer():
    ignored = set(OUTSIDE) | {"helm", "docs", "build", "shared"}
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - set(LAYERS) - ignored == set(), "give the new package a layer in LAYERS"


def test_imports_run_downhill():
    found = violations()
    assert not found, "upward or sideways imports:\n" + "\n".join(found)


@pytest.mark.parametrize("source, message", [
    ("from groundwatch.cli import main\n", "scorers (layer 2) imports groundwatch (layer 5)"),
    ("def f():\n    import groundwatch.consumer.app\n", "scorers (layer 2) imports consumer (layer 4)"),
    ("from groundwatch.reports.rates import wilson\n", "scorers (layer 2) imports reports (layer 3)"),
    ("from reports.rates import wilson\n", "imports reports.rates by its folder name (import groundwatch.reports.rates)"),
    ("from infra.stack import Stack\n", "scorers imports infra (test/developer support)"),
])
def test_the_check_names_the_file_and_line(tmp_path, monkeypatch, source, message):
    (tmp_path / "scorers").mkdir()
    (tmp_path / "scorers" / "bad.py").write_text("import json\n" + source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert violations() == [f"scorers/bad.py:{source.count(chr(10)) + 1}: {message}"]


def test_a_sideways_import_between_tools_is_caught(tmp_path, monkeypatch):
    (tmp_path / "training").mkdir()
    (tmp_path / "training" / "bad.py").write_text("from groundwatch.evaluation.metrics import f1\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert violations() == ["training/bad.py:1: training imports evaluation sideways (allowed: [])"]
