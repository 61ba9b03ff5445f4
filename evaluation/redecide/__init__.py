"""Decisions re-made from one scoring run: threshold sweeps, evidence windows, guards off and on, the rule against the combiner, calibration and the seed conditions."""
