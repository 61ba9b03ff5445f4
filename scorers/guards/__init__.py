"""Guards: deterministic checks on a claim and its evidence sentences (polarity, dropped condition, arithmetic)."""
