"""One set of default thresholds: the code's defaults are the recorded calibration, and no deployment
profile quietly overrides them (the Helm values once set tau_entailment 0.75 against a calibrated 0.65)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from groundwatch.config.scorer import ScorerConfig

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = json.loads((ROOT / "scorers" / "calibration.json").read_text())["scorer"]
THRESHOLD_KEYS = ("tau_entailment", "tau_contradiction", "threshold_mode", "threshold_pivot")


def test_code_defaults_are_the_recorded_calibration():
    defaults = ScorerConfig()
    assert {k: getattr(defaults, k) for k in THRESHOLD_KEYS} == {k: CALIBRATION[k] for k in THRESHOLD_KEYS}


@pytest.mark.parametrize("values", sorted((ROOT / "helm" / "groundwatch").glob("values*.yaml")), ids=lambda p: p.name)
def test_helm_values_do_not_override_the_default_thresholds(values):
    scorer = ((yaml.safe_load(values.read_text()) or {}).get("settings") or {}).get("scorer") or {}
    overridden = {k: scorer[k] for k in THRESHOLD_KEYS if k in scorer and scorer[k] != CALIBRATION[k]}
    assert overridden == {}, f"{values.name} overrides the calibrated thresholds {CALIBRATION}"
