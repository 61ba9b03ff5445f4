"""Hand-written and built probe sets: the controls, the failure probes and their report."""
