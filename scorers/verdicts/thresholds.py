"""Thresholds, static or weighted by the retrieval score rs of the evidence.

With weighting, weak retrieval (low rs) demands stricter NLI confidence:
  tiered:  T(rs) = T_strict if rs < pivot else T_lenient
  sqrt:    T(rs) = T_strict - (T_strict - T_lenient) * sqrt(rs)
  sigmoid: T(rs) = T_lenient + (T_strict - T_lenient) / (1 + exp(k * (rs - pivot)))

`model_contradicts` is False for a two-way model (grounding2, seq2seq: scorers/nli/kinds.py): it has
no contradiction to hold to tau_contradiction, so the verdict rule takes CONTRADICTED from a verified
mismatch only (scorers/verdicts/decide.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MODES = ("static", "tiered", "sqrt", "sigmoid")


@dataclass(frozen=True)
class Thresholds:
    tau_entailment: float = 0.75
    tau_contradiction: float = 0.70
    mode: str = "static"
    strict_offset: float = 0.10   # T_strict = tau + offset
    lenient_offset: float = -0.10  # T_lenient = tau + offset
    pivot: float = 0.5
    steepness: float = 10.0
    model_contradicts: bool = True  # False: a two-way model, whose scores never convict

    @classmethod
    def from_config(cls, config, model_contradicts: bool | None = None) -> "Thresholds":
        """From a config.scorer.ScorerConfig (its tau_* and threshold_* fields); whether the model may
        convict is its kind's (scorers/nli/kinds.py), read from config.model_dir unless given."""
        if model_contradicts is None:
            from groundwatch.scorers.verdicts.calibration import model_contradicts as kind_contradicts

            model_contradicts = kind_contradicts(config.model_dir)
        return cls(config.tau_entailment, config.tau_contradiction, config.threshold_mode,
                   pivot=config.threshold_pivot, model_contradicts=model_contradicts)

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"threshold mode {self.mode!r}: expected one of {MODES}")

    def _weighted(self, tau: float, rs: float) -> float:
        strict = min(0.99, tau + self.strict_offset)
        lenient = max(0.01, tau + self.lenient_offset)
        rs = min(1.0, max(0.0, rs))
        if self.mode == "static":
            return tau
        if self.mode == "tiered":
            return strict if rs < self.pivot else lenient
        if self.mode == "sqrt":
            return strict - (strict - lenient) * math.sqrt(rs)
        return lenient + (strict - lenient) / (1.0 + math.exp(self.steepness * (rs - self.pivot)))

    def entailment(self, rs: float) -> float:
        return self._weighted(self.tau_entailment, rs)

    def contradiction(self, rs: float) -> float:
        return self._weighted(self.tau_contradiction, rs)
