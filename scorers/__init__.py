"""Scoring core: claims, decorative filter, free checks, evidence, NLI and verdicts."""

SCORER_VERSION = "0.1.0"
