"""Sinks of the streaming job: OpenSearch (sink, mapping, client factory), alerts, Kafka delivery, Prometheus metrics."""

# Installed as groundwatch.export; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.export":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.export", name=__name__)
