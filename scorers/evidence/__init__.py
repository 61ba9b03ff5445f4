"""Evidence per claim: retrieval and embeddings, windows and joined pairs, the sentence premise, the cascade, corpus lookups, context conflicts, stale and newer evidence."""
