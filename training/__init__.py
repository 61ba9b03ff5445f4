"""Training, compacting and shipping groundwatch's default NLI cross-encoder."""
