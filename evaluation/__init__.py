"""Measuring the checker: labelled dev sets, metrics, threshold sweeps, probes, benchmarks.

Nothing in the scoring path imports this package; it only drives the Scorer
from the outside, like any other client.
"""

# Installed as groundwatch.evaluation; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.evaluation":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.evaluation", name=__name__)
