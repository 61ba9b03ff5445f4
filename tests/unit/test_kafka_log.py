"""A Kafka cluster that cannot be reached is one warning, not a line per librdkafka reconnect."""

from __future__ import annotations

import logging

from structlog.testing import capture_logs

from groundwatch.export.kafka_log import KafkaLog, short_reason


class _Error:
    def __init__(self, name: str, text: str):
        self._name, self._text = name, text

    def name(self) -> str:
        return self._name

    def str(self) -> str:
        return self._text


REFUSED = "127.0.0.1:9/bootstrap: Connect to ipv4#127.0.0.1:9 failed: Connection refused (after 0ms in state CONNECT)"


def _warnings(logs: list[dict]) -> list[dict]:
    return [entry for entry in logs if entry["log_level"] == "warning"]


def test_a_down_cluster_is_one_warning_until_it_has_been_down_for_repeat_s():
    now = [0.0]
    kafka_log = KafkaLog("127.0.0.1:9", repeat_s=300.0, clock=lambda: now[0])
    with capture_logs() as logs:
        for second in range(299):
            now[0] = float(second)
            kafka_log.error(_Error("_TRANSPORT", REFUSED))
            kafka_log.error(_Error("_ALL_BROKERS_DOWN", "1/1 brokers are down"))
            kafka_log.log(logging.ERROR, "%s [%s] %s", "FAIL", "rdkafka#consumer-1", REFUSED)
        assert len(_warnings(logs)) == 1 and _warnings(logs)[0]["reason"] == "connection refused"
        now[0] = 300.0
        kafka_log.error(_Error("_TRANSPORT", REFUSED))
    assert len(_warnings(logs)) == 2  # still down five minutes on: said once more
    assert kafka_log.down() and not KafkaLog("x").down()
    now[0] = 400.0
    assert not kafka_log.down()  # no "unreachable" for a while: no longer known to be down


def test_other_client_errors_are_each_a_warning():
    kafka_log = KafkaLog("127.0.0.1:9")
    with capture_logs() as logs:
        kafka_log.error(_Error("_AUTHENTICATION", "SASL authentication failed"))
        kafka_log.error(_Error("_AUTHENTICATION", "SASL authentication failed"))
    assert len(_warnings(logs)) == 2 and not kafka_log.down()


def test_short_reasons():
    assert short_reason(REFUSED) == "connection refused"
    assert short_reason("Failed to resolve 'kafka.invalid:9092'") == "host not found"
    assert short_reason("1/1 brokers are down") == "1/1 brokers are down"
