"""Export stage: OpenSearch, alerts, Prometheus metrics."""
