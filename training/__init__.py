"""Training and export of groundwatch's default NLI cross-encoder."""
