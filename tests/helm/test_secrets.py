"""Credentials and certificates reach the pods only from Kubernetes Secrets, never from values."""

from __future__ import annotations

import subprocess

import kubernetes_validate
import pytest

from tests.helm.conftest import CHART

TLS = ["--set", "secrets.kafkaTls.name=kafka-tls", "--set", "secrets.kafkaTls.certKey=tls.crt",
       "--set", "secrets.kafkaTls.keyKey=tls.key", "--set", "secrets.opensearchTls.name=os-tls",
       "--set", "secrets.kafkaSslKeyPassword.name=kafka-key", "--set", "secrets.kafkaSslKeyPassword.key=password",
       "--set", "secrets.alertsWebhookToken.name=webhook", "--set", "secrets.alertsWebhookToken.key=token",
       "--set", "secrets.alertsWebhookUrl.name=webhook", "--set", "secrets.alertsWebhookUrl.key=url",
       "--set", "secrets.phoenixApiKey.name=phoenix", "--set", "secrets.phoenixApiKey.key=api-key",
       "--set", "secrets.otlpVerdictsHeaders.name=otlp", "--set", "secrets.otlpVerdictsHeaders.key=headers"]


def _kind(manifests: list[dict], kind: str) -> dict:
    return next(m for m in manifests if m["kind"] == kind)


def test_the_config_map_holds_no_credential(render) -> None:
    data = next(m["data"] for m in render("default")
                if m["kind"] == "ConfigMap" and "GROUNDWATCH_KAFKA__INPUT_TOPIC" in m.get("data", {}))
    assert data["GROUNDWATCH_KAFKA__SECURITY_PROTOCOL"] == "SASL_SSL"
    assert not [k for k in data if any(word in k for word in ("PASSWORD", "TOKEN", "SECRET", "_KEY"))]


def test_certificate_secrets_are_mounted_and_the_settings_point_at_them(render) -> None:
    manifests = render("default", *TLS)
    pod = _kind(manifests, "Deployment")["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = {e["name"]: e for e in container["env"]}
    assert env["GROUNDWATCH_KAFKA__SSL_CA_LOCATION"]["value"] == "/etc/groundwatch/kafka-tls/ca.crt"
    assert env["GROUNDWATCH_KAFKA__SSL_CERTIFICATE_LOCATION"]["value"] == "/etc/groundwatch/kafka-tls/tls.crt"
    assert env["GROUNDWATCH_KAFKA__SSL_KEY_LOCATION"]["value"] == "/etc/groundwatch/kafka-tls/tls.key"
    assert env["GROUNDWATCH_OPENSEARCH__CA_CERTS"]["value"] == "/etc/groundwatch/opensearch-tls/ca.crt"
    assert "GROUNDWATCH_OPENSEARCH__CLIENT_CERT" not in env
    secret_refs = {name: e["valueFrom"]["secretKeyRef"] for name, e in env.items() if "valueFrom" in e}
    assert secret_refs == {
        "GROUNDWATCH_KAFKA__SASL_PASSWORD": {"name": "groundwatch-kafka", "key": "sasl-password"},
        "GROUNDWATCH_OPENSEARCH__PASSWORD": {"name": "groundwatch-opensearch", "key": "password"},
        "GROUNDWATCH_KAFKA__SSL_KEY_PASSWORD": {"name": "kafka-key", "key": "password"},
        "GROUNDWATCH_ALERTS__WEBHOOK_TOKEN": {"name": "webhook", "key": "token"},
        "GROUNDWATCH_ALERTS__WEBHOOK_URL": {"name": "webhook", "key": "url"},
        "GROUNDWATCH_PHOENIX__API_KEY": {"name": "phoenix", "key": "api-key"},
        "GROUNDWATCH_OTLP_VERDICTS__HEADERS": {"name": "otlp", "key": "headers"},
    }
    mounts = {m["name"]: m for m in container["volumeMounts"]}
    assert mounts["kafka-tls"] == {"name": "kafka-tls", "mountPath": "/etc/groundwatch/kafka-tls", "readOnly": True}
    assert mounts["opensearch-tls"]["readOnly"] is True
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes["kafka-tls"]["secret"] == {"secretName": "kafka-tls", "defaultMode": 0o440}
    assert volumes["opensearch-tls"]["secret"]["secretName"] == "os-tls"

    probe = _kind(manifests, "CronJob")["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    assert "opensearch-tls" in {m["name"] for m in probe["containers"][0]["volumeMounts"]}
    for manifest in manifests:
        if manifest["kind"] in ("Deployment", "CronJob"):
            kubernetes_validate.validate(manifest, kubernetes_validate.latest_version(), strict=True)


@pytest.mark.parametrize("path", ["kafka.sasl_password", "kafka.ssl_key_password", "opensearch.password",
                                  "alerts.webhook_url", "alerts.webhook_token", "serve.auth_token",
                                  "phoenix.api_key", "otlp_verdicts.headers"])
def test_a_credential_in_values_fails_the_render(helm: str, path: str) -> None:
    result = subprocess.run([helm, "template", "gw", str(CHART), "--set", f"settings.{path}=hunter2"],
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert f"settings.{path} must not be set in values" in result.stderr
    assert "hunter2" not in result.stdout
