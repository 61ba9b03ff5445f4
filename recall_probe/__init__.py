"""The recall@k probe: labelled probe questions, retrievers, probe metrics."""

# Installed as groundwatch.recall_probe; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.recall_probe":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.recall_probe", name=__name__)
