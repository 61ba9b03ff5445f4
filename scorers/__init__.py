"""Scoring core: claims, decorative filter, free checks, evidence, NLI and verdicts (plus the JSONL, time and recall helpers every tool shares)."""

SCORER_VERSION = "0.1.0"
