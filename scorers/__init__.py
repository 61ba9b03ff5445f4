"""Scoring core, by stage: english/, answer/, evidence/, guards/, nli/, verdicts/, composed by pipeline.py.

At the top: the schema, the records and the JSONL, time and file helpers every tool shares.
"""

# Installed as groundwatch.scorers; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.scorers":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.scorers", name=__name__)

# The code part of every verdict's scorer version (scorers/version.py hashes the model and the settings):
# raise it with any code change that can change a verdict, so new verdicts are stored and counted apart.
SCORER_VERSION = "0.1.3"
