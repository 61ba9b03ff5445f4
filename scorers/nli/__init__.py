"""NLI cross-encoder backends, the dynamic batcher and the pair scorer."""
