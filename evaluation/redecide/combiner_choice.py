"""Which combiner `groundwatch eval` compares with the threshold rule, and which model the scores came from."""

from __future__ import annotations

from pathlib import Path

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.verdicts.combiner import Combiner, CombinerError, combiner_path, load_combiner
from groundwatch.scorers.jsonl import read_jsonl


def scores_model(verdicts_path: str | Path | None) -> str | None:
    """The `model` (name@digest) of the first verdict record of a file."""
    if not verdicts_path:
        return None
    for _, record in read_jsonl(verdicts_path):
        return record.get("model")
    return None


def comparison_combiner(config: ScorerConfig, model: str | None, path: str | Path | None = None,
                        live: Combiner | None = None) -> Combiner | None:
    """The combiner given, else the scorer's, else combiner.json beside the model when it fits this model.

    A file named explicitly, or required by verdict_rule combiner, must load and match the model;
    the one found beside the model is only used when it does.
    """
    if path:
        return load_combiner(path, model)
    if live is not None:
        return live
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

    default = combiner_path(config.combiner_path, config.model_dir or DEFAULT_MODEL_DIR)
    if config.verdict_rule == "combiner":
        return load_combiner(default, model)
    if default.exists():
        try:
            return load_combiner(default, model)
        except CombinerError:
            return None
    return None
