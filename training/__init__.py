"""Training, compacting and shipping groundwatch's default NLI cross-encoder."""

# Installed as groundwatch.training; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.training":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.training", name=__name__)
