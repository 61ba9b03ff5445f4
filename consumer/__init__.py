"""Consumer stage: Kafka in, decode, dead letters, offsets; drives scoring and the sinks."""
