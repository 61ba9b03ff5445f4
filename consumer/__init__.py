"""The streaming job: Kafka in, decode, dead letters, offsets; drives scoring and the sinks (and its end-to-end bench)."""
