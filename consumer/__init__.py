"""The streaming job: Kafka in, decode, dead letters, offsets; drives scoring and the sinks (and its end-to-end bench)."""

# Installed as groundwatch.consumer; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.consumer":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.consumer", name=__name__)
