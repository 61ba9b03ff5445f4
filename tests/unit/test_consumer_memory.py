"""The consumer's scorer at the default settings stays under 700 MB of RSS: the shipped model, the embedder
and two Kafka batches of example responses (infra/consumer_memory.py, in a fresh process). What bounds it:
ONNX Runtime keeps the memory of the largest batch it has run, and scorer.max_batch_tokens bounds the
batches; torch stays out of the process on the ONNX backend."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from groundwatch.config.scorer import ScorerConfig

ROOT = Path(__file__).resolve().parents[2]
LIMIT_MB = 700


def test_the_scorer_of_the_consumer_stays_under_700_mb_at_the_default_settings(tmp_path):
    report = tmp_path / "memory.json"
    command = [sys.executable, "-m", "infra.consumer_memory", "--responses", "128", "--output", str(report)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(report.read_text(encoding="utf-8"))
    assert measured["max_batch_tokens"] == ScorerConfig().max_batch_tokens and measured["backend"] == "onnx"
    assert list(measured["rss_mb"])[-1] == "scored_128"
    assert not measured["torch_imported"]
    assert measured["peak_rss_mb"] <= LIMIT_MB, measured
