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


# Threads that may use one client at once: the writer, the store probe and the retention keeper, with
# one to spare. urllib3 keeps one connection by default and warns "Connection pool is full" each time
# a second thread's connection is returned.
POOL_SIZE = 4


def connect(settings: OpenSearchSettings, max_retries: int = 0):
    """A client for settings.url with its credentials, TLS options and timeout.

    No client-side retries by default: the sink has its own back-off and a report should fail fast.
    A failed request is not logged by the client (the caller reports it, once).
    """
    from opensearchpy import OpenSearch

    return OpenSearch(**client_options(settings), max_retries=max_retries, pool_maxsize=POOL_SIZE,
                      connection_class=_quiet_connection_class())


def _quiet_connection_class():
    """opensearch-py's urllib3 connection, minus its WARNING with a traceback for every failed request
    (the sink's retry already logs one line with the reason and the next wait) and its INFO line for
    every request that succeeded. Both records stay at DEBUG, the traceback included."""
    import logging

    from opensearchpy.connection import Urllib3HttpConnection
    from opensearchpy.connection.base import logger

    class QuietConnection(Urllib3HttpConnection):
        def log_request_success(self, method, full_url, path, body, status_code, response, duration) -> None:
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug("%s %s [status:%s request:%.3fs]", method, full_url, status_code, duration)

        def log_request_fail(self, method, full_url, path, body, duration, status_code=None, response=None,
                             exception=None) -> None:
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug("%s %s [status:%s request:%.3fs]", method, full_url, status_code or "N/A", duration,
                             exc_info=exception is not None)

    return QuietConnection
