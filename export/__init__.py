"""Sinks of the streaming job: OpenSearch (sink, mapping, client factory), alerts, Kafka delivery, Prometheus metrics."""
