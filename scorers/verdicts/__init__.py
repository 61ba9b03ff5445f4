"""Verdicts: thresholds and calibration, the decision per claim and per response, severity, the combiner, the LLM judge, response signals, the action policy and its rewrites."""
