"""Corpus audit: conflicts, superseded versions and quality problems in a document collection.

documents -> statements (+ facts) -> grouping (keys, embedding neighbours)
-> conflicts (value mismatch, NLI both ways) / versions / quality -> score -> report.
"""

# Installed as groundwatch.audit; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.audit":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.audit", name=__name__)
