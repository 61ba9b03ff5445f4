"""Settings (one frozen object, including the scorer section) and logging set-up; imports nothing of groundwatch's."""

# Installed as groundwatch.config; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.config":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.config", name=__name__)
