"""groundwatch serve: the inline check over HTTP, beside the streaming job."""

# Installed as groundwatch.serve; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.serve":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.serve", name=__name__)
