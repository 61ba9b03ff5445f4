"""The verdict combiner: claim features -> P(supported), one small JSON file per NLI model."""

from groundwatch.scorers.verdicts.combiner.features import FEATURES, claim_features
from groundwatch.scorers.verdicts.combiner.model import Combiner, CombinerError, combiner_path, load_combiner

__all__ = ["FEATURES", "Combiner", "CombinerError", "claim_features", "combiner_path", "load_combiner"]
