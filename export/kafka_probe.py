"""Whether a Kafka cluster answers, for the one-off commands: one metadata round trip, no retries,
librdkafka's own log lines (a `FAIL ... Connection refused` per attempt) kept off stderr."""

from __future__ import annotations

# librdkafka's syslog levels: 2 keeps only critical lines; a one-off command reports the failure itself.
QUIET = 2
# Errors that waiting the full timeout would not change.
GIVE_UP = {"_ALL_BROKERS_DOWN", "_RESOLVE", "_AUTHENTICATION", "_SSL"}


def kafka_problem(client_config: dict, timeout_s: float = 10.0) -> str | None:
    """None when the cluster answered, else why not in a few words."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    errors: list = []
    admin = AdminClient({**client_config, "log_level": QUIET, "error_cb": errors.append})
    for _ in range(max(1, int(timeout_s))):  # one-second tries: every broker down is known after the first
        try:
            admin.list_topics(timeout=1.0)
            return None
        except KafkaException as exc:
            admin.poll(0.1)  # error_cb runs only while the client is polled
            errors.append(exc.args[0])
        if any(getattr(e, "name", lambda: "")() in GIVE_UP for e in errors):
            break
    texts = [e.str() if hasattr(e, "str") else str(e) for e in errors]
    for text in texts:
        lowered = text.lower()
        if "connection refused" in lowered:
            return "connection refused"
        if "resolve" in lowered:
            return "host not found"
    return texts[-1] if texts else f"no answer within {timeout_s:g} s"
