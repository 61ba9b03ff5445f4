"""Start-up checks: a wrong password or an untrusted certificate stops the job with a clear error.

Without them librdkafka retries a failed SASL handshake forever and the job looks merely idle.
Only mistakes that waiting cannot fix fail the start (authentication, TLS); a server that is
down is logged and left to the usual retries.
"""

from __future__ import annotations

from groundwatch.config.logs import get_logger
from groundwatch.config.unreachable import reason
from groundwatch.config.settings import KafkaSettings, OpenSearchSettings
from groundwatch.export.kafka_log import KafkaLog

log = get_logger(__name__)

# librdkafka error names that no retry can fix.
_KAFKA_FATAL = {"_AUTHENTICATION": "authentication failed", "_SSL": "TLS handshake failed",
                "SASL_AUTHENTICATION_FAILED": "authentication failed",
                "UNSUPPORTED_SASL_MECHANISM": "SASL mechanism not supported by the broker"}


class PreflightError(RuntimeError):
    """A service refused this job's credentials or certificates."""

    def __init__(self, service: str, reason: str):
        super().__init__(f"{service}: {reason}")
        self.service = service
        self.reason = reason


def check_kafka(settings: KafkaSettings, timeout_s: float = 15.0, kafka_log: KafkaLog | None = None) -> None:
    """One metadata round trip with the job's own client settings; a cluster that is down is one warning
    through kafka_log (the job's clients then keep its retries quiet)."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    errors: list = []
    admin = AdminClient({**settings.client_config(), "error_cb": errors.append, "log_level": 2})
    try:
        admin.list_topics(timeout=timeout_s)
        return
    except KafkaException as exc:
        admin.poll(0.5)  # error_cb runs only while the client is polled
        errors.append(exc.args[0])
    for error in errors:
        what = _KAFKA_FATAL.get(error.name())
        if what:
            who = f" as {settings.sasl_username!r} ({settings.sasl_mechanism})" if settings.sasl_username else ""
            raise PreflightError("kafka", f"{what}{who} at {settings.bootstrap_servers} "
                                          f"[{settings.security_protocol}]: {error.str()}")
    texts = [e.str() for e in errors if hasattr(e, "str")]
    refused = [t for t in texts if "refused" in t.lower() or "resolve" in t.lower()]  # the cause, not "all down"
    (kafka_log or KafkaLog(settings.bootstrap_servers)).unreachable(
        (refused or texts or [f"no answer within {timeout_s:g} s"])[-1])


def check_opensearch(settings: OpenSearchSettings, client=None) -> None:
    """GET / with the sink's credentials and TLS options."""
    from opensearchpy.exceptions import AuthenticationException, AuthorizationException, SSLError
    from opensearchpy.exceptions import ConnectionError as OpenSearchConnectionError

    from groundwatch.export.opensearch_client import connect

    client = client if client is not None else connect(settings)
    who = f" as {settings.username!r}" if settings.username else " without credentials"
    try:
        client.info()
    except (AuthenticationException, AuthorizationException) as exc:
        raise PreflightError("opensearch", f"authentication failed{who} at {settings.url} "
                                           f"(HTTP {exc.status_code})") from None
    except SSLError as exc:
        raise PreflightError("opensearch", f"TLS handshake failed at {settings.url}: {_first_line(exc)}") from None
    except OpenSearchConnectionError as exc:
        log.warning("opensearch_not_reachable_yet", url=settings.url, reason=reason(exc), retrying=True)


def check(kafka: KafkaSettings, opensearch: OpenSearchSettings, kafka_log: KafkaLog | None = None) -> None:
    check_kafka(kafka, kafka_log=kafka_log)
    check_opensearch(opensearch)


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
