"""Fault-injection suite for the streaming job: `python -m infra.faults --help`.

The bounded form runs in `make test` (tests/faults); the long form is
`python -m infra.faults --long` (5,000 messages, 20 kills, fake NLI backend).
"""

from infra.faults.suite import FaultConfig, run, summary

__all__ = ["FaultConfig", "run", "summary"]
