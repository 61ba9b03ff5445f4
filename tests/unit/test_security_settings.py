"""Security settings: librdkafka and OpenSearch client options, validation, secrets from the environment."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from groundwatch.config.settings import KafkaSettings, OpenSearchSettings, Settings
from groundwatch.export.opensearch_client import client_options

SASL = {"security_protocol": "SASL_SSL", "sasl_mechanism": "SCRAM-SHA-512", "sasl_username": "gw",
        "sasl_password": "pw-123", "ssl_ca_location": "/etc/groundwatch/kafka-tls/ca.crt"}


def test_sasl_ssl_becomes_librdkafka_properties():
    conf = KafkaSettings(**SASL).client_config()
    assert conf == {"bootstrap.servers": "127.0.0.1:9092", "security.protocol": "SASL_SSL",
                    "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "gw", "sasl.password": "pw-123",
                    "ssl.ca.location": "/etc/groundwatch/kafka-tls/ca.crt",
                    "ssl.endpoint.identification.algorithm": "https"}


def test_mutual_tls_and_lower_case_names():
    conf = KafkaSettings(security_protocol="ssl", ssl_certificate_location="/c.pem", ssl_key_location="/k.pem",
                         ssl_key_password="kp", ssl_endpoint_identification_algorithm="none").client_config()
    assert conf["security.protocol"] == "SSL" and conf["ssl.key.password"] == "kp"
    assert conf["ssl.certificate.location"] == "/c.pem" and conf["ssl.endpoint.identification.algorithm"] == "none"
    assert "ssl.endpoint.identification.algorithm" not in KafkaSettings().client_config()


@pytest.mark.parametrize("change, message", [
    ({"security_protocol": "TLS"}, "expected one of PLAINTEXT, SSL"),
    ({"sasl_mechanism": None}, "SASL_SSL needs one of PLAIN"),
    ({"sasl_mechanism": "GSSAPI"}, "SASL_SSL needs one of PLAIN"),
    ({"sasl_password": None}, "needs kafka.sasl_username and kafka.sasl_password"),
    ({"sasl_username": None}, "needs kafka.sasl_username and kafka.sasl_password"),
    ({"ssl_key_location": "/k.pem"}, "go together"),
])
def test_half_configured_kafka_security_is_refused_with_a_reason(change, message):
    with pytest.raises(ValidationError, match=message):
        KafkaSettings(**{**SASL, **change})


def test_opensearch_tls_client_options():
    settings = OpenSearchSettings(url="https://os:9200", username="gw", password="os-pw", ca_certs="/ca.pem",
                                  client_cert="/c.pem", client_key="/k.pem")
    options = client_options(settings)
    assert options["http_auth"] == ("gw", "os-pw") and options["use_ssl"] and options["verify_certs"]
    assert (options["ca_certs"], options["client_cert"], options["client_key"]) == ("/ca.pem", "/c.pem", "/k.pem")
    plain = client_options(OpenSearchSettings(url="http://127.0.0.1:9200"))
    assert plain["http_auth"] is None and "use_ssl" not in plain
    with pytest.raises(ValidationError, match="go together"):
        OpenSearchSettings(url="https://os:9200", client_cert="/c.pem")
    with pytest.raises(ValidationError, match="needs an https"):
        OpenSearchSettings(url="http://os:9200", client_cert="/c.pem", client_key="/k.pem")


def test_secrets_come_from_the_environment_and_stay_masked(monkeypatch):
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SECURITY_PROTOCOL", "SASL_SSL")
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SASL_MECHANISM", "SCRAM-SHA-512")
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SASL_USERNAME", "gw")
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SASL_PASSWORD", "from-a-secret-1")
    monkeypatch.setenv("GROUNDWATCH_OPENSEARCH__PASSWORD", "from-a-secret-2")
    settings = Settings()
    assert settings.kafka.client_config()["sasl.password"] == "from-a-secret-1"
    assert settings.opensearch.password.get_secret_value() == "from-a-secret-2"
    shown = f"{settings.masked()} {settings!r} {settings}"
    assert "from-a-secret" not in shown and "**********" in shown
