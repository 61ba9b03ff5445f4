"""Which GROUNDWATCH_* variables are warned about: misspelt settings are, with the closest spelling;
what Kubernetes injects for a Service named after the release is not; settings are never refused for it."""

from __future__ import annotations

from groundwatch.config.settings import Settings
from groundwatch.config.settings_check import unknown_variables

KUBERNETES = {  # a Service "groundwatch" and a Service "groundwatch-serve"
    "GROUNDWATCH_SERVICE_HOST": "10.0.0.1", "GROUNDWATCH_SERVICE_PORT": "9108",
    "GROUNDWATCH_SERVICE_PORT_METRICS": "9108", "GROUNDWATCH_PORT": "tcp://10.0.0.1:9108",
    "GROUNDWATCH_PORT_9108_TCP": "tcp://10.0.0.1:9108", "GROUNDWATCH_PORT_9108_TCP_ADDR": "10.0.0.1",
    "GROUNDWATCH_PORT_9108_TCP_PORT": "9108", "GROUNDWATCH_PORT_9108_TCP_PROTO": "tcp",
    "GROUNDWATCH_SERVE_SERVICE_HOST": "10.0.0.2", "GROUNDWATCH_SERVE_PORT": "tcp://10.0.0.2:8080",
}


def test_service_links_and_real_settings_are_not_warned_about():
    env = {**KUBERNETES, "GROUNDWATCH_SCORER__TAU_ENTAILMENT": "0.6", "GROUNDWATCH_LOG_LEVEL": "debug",
           "GROUNDWATCH_SCORER__GUARDS__POLARITY": "false", "GROUNDWATCH_DATA_DIR": "/data", "HOME": "/root"}
    assert unknown_variables(env, Settings) == []


def test_misspelt_variables_are_named_with_the_closest_spelling():
    env = {"GROUNDWATCH_SCORER__TAU_ENTAILMEN": "0.6", "GROUNDWATCH_KAFKA_BOOTSTRAP_SERVERS": "b:9092",
           "GROUNDWATCH_SCORER__GUARDS__POLARTY": "false", "GROUNDWATCH_SERVE_PORT": "9000",
           "GROUNDWATCH_NOTHING_LIKE_IT": "1"}
    assert dict(unknown_variables(env, Settings)) == {
        "GROUNDWATCH_SCORER__TAU_ENTAILMEN": "GROUNDWATCH_SCORER__TAU_ENTAILMENT",
        "GROUNDWATCH_KAFKA_BOOTSTRAP_SERVERS": "GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS",  # one underscore
        "GROUNDWATCH_SCORER__GUARDS__POLARTY": "GROUNDWATCH_SCORER__GUARDS__POLARITY",
        "GROUNDWATCH_SERVE_PORT": "GROUNDWATCH_SERVE__PORT",  # not a tcp:// link
        "GROUNDWATCH_NOTHING_LIKE_IT": "",
    }


def test_the_shipped_calibration_file_loads_with_its_provenance():
    """eval --calibrate writes a `calibration` section beside the thresholds; it is not a setting, not refused."""
    from pathlib import Path

    from groundwatch.config.settings import load_settings

    path = Path(__file__).resolve().parents[2] / "scorers" / "calibration.json"
    assert load_settings(path).scorer.tau_entailment > 0
