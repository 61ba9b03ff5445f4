"""The one place an OpenSearch client is built from the settings' opensearch section."""

from __future__ import annotations

from groundwatch.config.settings import OpenSearchSettings


def client_options(settings: OpenSearchSettings) -> dict:
    """Keyword arguments for opensearchpy.OpenSearch: credentials, TLS and timeout (no retries)."""
    auth = None
    if settings.username:
        auth = (settings.username, settings.password.get_secret_value() if settings.password else "")
    options = {"hosts": [settings.url], "http_auth": auth, "timeout": settings.timeout_s}
    if settings.url.startswith("https://"):
        options.update(use_ssl=True, verify_certs=settings.verify_certs, ca_certs=settings.ca_certs,
                       ssl_show_warn=settings.verify_certs)
        if settings.client_cert:
            options.update(client_cert=settings.client_cert, client_key=settings.client_key)
    return options


def connect(settings: OpenSearchSettings, max_retries: int = 0):
    """A client for settings.url with its credentials, TLS options and timeout.

    No client-side retries by default: the sink has its own back-off and a report should fail fast.
    """
    from opensearchpy import OpenSearch

    return OpenSearch(**client_options(settings), max_retries=max_retries)
