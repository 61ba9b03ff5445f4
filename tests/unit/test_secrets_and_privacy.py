"""Secrets stay out of every log (webhook URLs, credentials inside URLs), redaction reaches metadata
values, and forget says what it cannot delete."""

from __future__ import annotations

import io
import json
import sys

import structlog

from groundwatch.config.logs import configure, get_logger
from groundwatch.config.redaction import RedactionSettings
from groundwatch.config.secrets import mask_url_credentials
from groundwatch.config.settings import AlertSettings, KafkaSettings, Settings
from groundwatch.export.alerts import Webhook
from groundwatch.export.forget import kept_elsewhere
from groundwatch.export.opensearch_mapping import StoreLayout, to_document
from groundwatch.scorers.redaction import Redactor
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict

HOOK = "https://hooks.slack.com/services/T0001/B0002/hook-secret-3"


def test_url_credentials_are_masked_and_the_rest_kept():
    assert mask_url_credentials("https://gw:pa55@os.internal:9200/x") == "https://***@os.internal:9200/x"
    assert mask_url_credentials("see http://u@h and https://h/p?a=1&sig=abc%3D&token=t#f") == \
        "see http://***@h and https://h/p?a=1&sig=***&token=***#f"
    assert mask_url_credentials("http://os:9200 user@example.com k=v") == "http://os:9200 user@example.com k=v"


def test_the_start_up_settings_log_shows_no_credential(monkeypatch):
    monkeypatch.setenv("GROUNDWATCH_OPENSEARCH__URL", "https://gw:url-secret-1@os.internal:9200")
    monkeypatch.setenv("GROUNDWATCH_ALERTS__WEBHOOK_URL", HOOK)
    settings = Settings()
    assert settings.alerts.webhook_url.get_secret_value() == HOOK
    out = io.StringIO()
    monkeypatch.setattr(sys, "stderr", out)
    configure("json", "info")
    try:
        get_logger("test").info("settings", **settings.masked())
        get_logger("test").warning("anything", where="https://gw:url-secret-1@os.internal:9200/_bulk?api_key=url-secret-4",
                                   nested={"urls": ["http://a:url-secret-2@b"]})
    finally:
        structlog.reset_defaults()
    logged = out.getvalue()
    for secret in ("url-secret-1", "url-secret-2", "url-secret-4", "hook-secret-3", "hooks.slack.com"):
        assert secret not in logged, secret
    first = json.loads(logged.splitlines()[0])
    assert first["opensearch"]["url"] == "https://***@os.internal:9200"
    assert first["alerts"]["webhook_url"] == "**********"
    assert "secret" not in repr(settings.alerts) + str(settings.alerts)


def test_the_webhook_keeps_its_url_private():
    hook = Webhook(AlertSettings(webhook_url=HOOK).webhook_url)
    try:
        assert "hook-secret" not in repr(hook) and hook._url == HOOK
    finally:
        hook.close()


def test_redaction_covers_metadata_values_but_not_who_the_verdict_belongs_to():
    redactor = Redactor.from_settings(RedactionSettings(enabled=True))
    v = verdict([claim(0, Verdict.SUPPORTED)],
                metadata={"app": "shop", "tenant": "acme", "user": "jane@example.com", "phone": "+44 20 7946 0958"})
    doc = redactor.document(to_document(v, None, StoreLayout()))
    assert doc["metadata"] == {"app": "shop", "tenant": "acme"}
    assert doc["metadata_extra"]["user"] == "[email]*********" + "*" * (len("jane@example.com") - 16)
    assert "7946" not in doc["metadata_extra"]["phone"]
    assert redactor.document(v.to_dict())["metadata"]["user"].startswith("[email]")  # `score --output` too


def test_forget_names_what_it_cannot_delete():
    lines = kept_elsewhere(KafkaSettings(), AlertSettings(webhook_url=HOOK))
    assert [line.split(":")[0] for line in lines] == ["dead letters", "alerts", "webhook"]
    assert "'groundwatch-dead-letters'" in lines[0] and "'groundwatch-alerts'" in lines[1]
    assert [line.split(":")[0] for line in kept_elsewhere(KafkaSettings(), AlertSettings(enabled=False))] == \
        ["dead letters"]


def test_library_logs_carry_no_request_body_and_no_url_credentials():
    import logging

    configure("json", "debug")
    try:
        assert not logging.getLogger("opensearch").isEnabledFor(logging.DEBUG), "bulk bodies are verdict records"
        assert logging.getLogger("opensearch").isEnabledFor(logging.INFO)
        seen: list[str] = []
        handler = logging.Handler()
        handler.emit = lambda record: seen.append(record.getMessage())
        library = logging.getLogger("urllib3.connectionpool")
        library.addHandler(handler)
        try:
            library.warning("Retrying %s", "https://gw:url-secret-5@os.internal:9200/_bulk")
        finally:
            library.removeHandler(handler)
        assert seen == ["Retrying https://***@os.internal:9200/_bulk"]
    finally:
        structlog.reset_defaults()
