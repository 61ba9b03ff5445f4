"""The one place an OpenSearch client is built from the settings' opensearch section."""

from __future__ import annotations

from config.settings import OpenSearchSettings


def connect(settings: OpenSearchSettings, max_retries: int = 0):
    """A client for settings.url with its credentials, TLS options and timeout.

    No client-side retries by default: the sink has its own back-off and a report should fail fast.
    """
    from opensearchpy import OpenSearch

    auth = None
    if settings.username:
        auth = (settings.username, settings.password.get_secret_value() if settings.password else "")
    return OpenSearch(hosts=[settings.url], http_auth=auth, verify_certs=settings.verify_certs,
                      ca_certs=settings.ca_certs, timeout=settings.timeout_s, max_retries=max_retries)
