"""The thresholds and window a model directory brings: its calibration.json, else scorers/calibration.json.

Thresholds belong to a model. `groundwatch eval --calibrate TARGET --into-model` writes calibration.json
into the model directory; the scorer reads it when it starts, for each threshold setting the
configuration leaves unset (a --config file, a GROUNDWATCH_SCORER__* variable or a Checker keyword
wins). A directory without one gets scorers/calibration.json, the shipped model's calibration, which
the code defaults in config/scorer.py follow. The encoder window (scorer.max_length) is cut to the
window the export recorded (scorers/nli/kinds.py). Resolved once, before the scorer starts, so the
scorer version hashes the values in use.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from groundwatch.config.logs import get_logger
from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.errors import ModelLoadError

log = get_logger(__name__)

FILE = "calibration.json"
SHIPPED = Path(__file__).resolve().parents[1] / FILE
THRESHOLD_KEYS = ("tau_entailment", "tau_contradiction", "threshold_mode", "threshold_pivot")


def model_path(model_dir: str | Path | None) -> Path:
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

    return Path(model_dir) if model_dir else DEFAULT_MODEL_DIR


def calibration_source(model_dir: str | Path | None) -> Path:
    """The model directory's calibration.json when it has one, else the shipped one."""
    own = model_path(model_dir) / FILE
    return own if own.is_file() else SHIPPED


def read_thresholds(path: Path) -> dict:
    """The threshold settings of a calibration file (`{"scorer": {...}, "calibration": {...}}`)."""
    try:
        section = json.loads(Path(path).read_text()).get("scorer")
    except (OSError, json.JSONDecodeError, AttributeError) as exc:
        raise ModelLoadError(f"{path} unreadable: {exc}") from exc
    if not isinstance(section, dict):
        raise ModelLoadError(f"{path} has no \"scorer\" section of thresholds")
    return {k: section[k] for k in THRESHOLD_KEYS if k in section}


def for_model(config: ScorerConfig) -> ScorerConfig:
    """`config` with the model's calibrated thresholds in the settings it leaves unset and its window cut
    to the model's; unchanged when the model directory is missing (loading it reports that)."""
    path = model_path(config.model_dir)
    if not (path / "config.json").is_file():
        return config
    from groundwatch.scorers.nli.kinds import read_kind

    source = calibration_source(config.model_dir)
    updates = {k: v for k, v in read_thresholds(source).items() if k not in config.model_fields_set}
    limit = read_kind(path).max_length
    if limit and config.max_length > limit:
        updates["max_length"] = limit
    if not updates:
        return config
    if source != SHIPPED or "max_length" in updates:  # the shipped thresholds are the code defaults anyway
        log.info("model_calibration", source=str(source), thresholds=sorted(set(updates) - {"max_length"}),
                 max_length=updates.get("max_length"))
    try:
        return ScorerConfig.model_validate({**config.model_dump(exclude_unset=True), **updates})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ModelLoadError(f"{source}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


@lru_cache(maxsize=32)
def _contradicts(path: str) -> bool:
    from groundwatch.scorers.nli.kinds import read_kind

    return not read_kind(Path(path)).two_way


def model_contradicts(model_dir: str | Path | None) -> bool:
    """Whether the model can say contradiction (nli3), not only unsupported (two-way kinds)."""
    path = model_path(model_dir)
    return _contradicts(str(path.resolve())) if (path / "config.json").is_file() else True
