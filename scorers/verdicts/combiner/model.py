"""The verdict combiner: a standardised logistic regression from claim features to P(supported).

Stored as a small versioned JSON file beside the NLI model (`combiner.json`):
feature names, standardisation, coefficients, intercept, the decision
threshold on P(supported), the model it was fitted for (name@sha256 prefix,
as in verdict records) and the data it was fitted on. Applying it needs numpy
only; fitting (scikit-learn) lives in evaluation/redecide/combiner_fit.py.

Features are computed from NLI probabilities, so a combiner belongs to one
model: loading it for another model is refused.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping

from groundwatch.scorers.verdicts.combiner.features import FEATURES
from groundwatch.scorers.errors import ModelLoadError

COMBINER_VERSION = 1
FILE_NAME = "combiner.json"
REFIT = "groundwatch eval --input labelled.jsonl --fit-combiner OUT.json"


class CombinerError(ModelLoadError):
    """A combiner file is missing, malformed, or was fitted for another model."""


def model_digest(model: str) -> str:
    """The sha256 prefix of a model string `name@digest` (the whole string if it has none)."""
    return model.rsplit("@", 1)[-1]


@dataclass(frozen=True)
class Combiner:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float  # a claim is SUPPORTED when P(supported) >= threshold (and nothing contradicts or caps it)
    model: str        # name@sha256-prefix of the NLI model the features came from
    fitted_on: dict = field(default_factory=dict)
    metrics: dict = field(default_factory=dict)
    version: int = COMBINER_VERSION

    def __post_init__(self):
        n = len(self.features)
        if not (len(self.mean) == len(self.scale) == len(self.coef) == n):
            raise CombinerError(f"combiner: {n} features but {len(self.mean)} means, {len(self.scale)} scales, "
                                f"{len(self.coef)} coefficients")
        unknown = sorted(set(self.features) - set(FEATURES))
        if unknown:
            raise CombinerError(f"combiner uses features this version does not compute: {unknown}; "
                                f"refit with `{REFIT}`")

    def logit(self, features: Mapping[str, float]) -> float:
        z = self.intercept
        for name, mu, sigma, w in zip(self.features, self.mean, self.scale, self.coef):
            z += w * (float(features[name]) - mu) / sigma
        return z

    def probability(self, features: Mapping[str, float]) -> float:
        """P(supported) of one claim."""
        z = self.logit(features)
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))

    def supported(self, features: Mapping[str, float]) -> bool:
        return self.probability(features) >= self.threshold

    def check_model(self, model: str, source: str = "combiner") -> None:
        if model_digest(model) != model_digest(self.model):
            raise CombinerError(f"{source} was fitted for NLI model {self.model}, but this scorer runs {model}; "
                                f"its features would be read on another scale. Refit it on your labelled data "
                                f"with `{REFIT}` (or set scorer.verdict_rule to threshold)")

    def to_dict(self) -> dict:
        d = asdict(self)
        return {"version": d.pop("version"), "kind": "logistic_regression", **d}

    @classmethod
    def from_dict(cls, d: dict) -> "Combiner":
        if d.get("version") != COMBINER_VERSION or d.get("kind") != "logistic_regression":
            raise CombinerError(f"combiner file version {d.get('version')!r} kind {d.get('kind')!r}: this "
                                f"groundwatch reads version {COMBINER_VERSION} logistic_regression; refit with `{REFIT}`")
        try:
            return cls(tuple(d["features"]), tuple(d["mean"]), tuple(d["scale"]), tuple(d["coef"]),
                       float(d["intercept"]), float(d["threshold"]), str(d["model"]),
                       dict(d.get("fitted_on", {})), dict(d.get("metrics", {})))
        except (KeyError, TypeError, ValueError) as exc:
            raise CombinerError(f"combiner file malformed: {type(exc).__name__}: {exc}") from None

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")


def load_combiner(path: str | Path, model: str | None = None) -> Combiner:
    """Read a combiner file; with `model`, refuse one fitted for another model."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CombinerError(f"combiner file {path} not found; fit one with `{REFIT}` "
                            f"or set scorer.verdict_rule to threshold") from None
    except (OSError, ValueError) as exc:
        raise CombinerError(f"combiner file {path} unreadable: {exc}") from None
    combiner = Combiner.from_dict(data)
    if model is not None:
        combiner.check_model(model, f"combiner {path}")
    return combiner


def combiner_path(configured: str | None, model_dir: str | Path) -> Path:
    """The configured file, else `combiner.json` beside the model."""
    return Path(configured) if configured else Path(model_dir) / FILE_NAME
