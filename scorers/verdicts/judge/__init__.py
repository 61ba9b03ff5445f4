"""An LLM judge for the uncertain band: optional, off by default (the `judge` settings section).

Claims whose best entailment falls between two calibrated bounds go, redacted, with their deciding
evidence, to an OpenAI-compatible chat endpoint; a validated JSON verdict replaces the small model's,
anything else (timeout, malformed reply, spent budget, endpoint down, the caller's deadline) keeps it.

prompt.py (the messages and their hash), reply.py (the schema), client.py (the HTTP call),
budget.py (calls per second, share of claims), cache.py (by judge model, premise, claim),
judge.py (which claims, on whose threads, within which deadline, and what goes into the record).
"""
