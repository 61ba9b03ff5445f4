"""Measuring the checker: labelled dev sets, metrics, threshold sweeps, probes, benchmarks.

Nothing in the scoring path imports this package; it only drives the Scorer
from the outside, like any other client.
"""
