"""Deterministic checks: the free checks (checks.py: quotes, numbers, citations) and the guards on a claim and its evidence sentences (polarity, dropped condition, arithmetic)."""
