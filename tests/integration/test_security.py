"""The job over SASL_SSL to Kafka and authenticated TLS to OpenSearch, with a throwaway CA.

Credentials reach the process only as GROUNDWATCH_* environment variables, as a
Kubernetes Secret would put them there. The servers sit behind the TLS proxies of
infra/secure_proxy.py (SCRAM/PLAIN in front of Tansu, basic auth or client
certificates in front of osmem-server): see that module for why Tansu cannot serve
TLS and SASL itself in the packaged build.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import opensearchpy
import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from groundwatch.config.settings import KafkaSettings, OpenSearchSettings
from groundwatch.consumer.preflight import PreflightError, check_kafka, check_opensearch
from groundwatch.export.opensearch_client import connect
from infra.secure_proxy import HttpsBasicAuthProxy, KafkaSaslProxy, server_context
from infra.server import MissingBinary, free_port
from infra.stack import start_tansu
from infra.throwaway_ca import make_pki
from tests.integration.consumer_support import Names, response, wait_until

pytestmark = pytest.mark.integration

KAFKA_USER, KAFKA_PASSWORD = "groundwatch", "kafka-pw-4c1e9a77"
OS_USER, OS_PASSWORD = "groundwatch", "os-pw-b83d2f15"
WRONG_PASSWORD = "wrong-pw-0d5e"
# Words that occur only in the answers, questions and passages sent: none may reach a log line.
ANSWER_MARK, QUESTION_MARK, PASSAGE_MARK = "zanzibarquartz", "periwinklefjord", "obsidianmarmot"


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    try:
        return make_pki(tmp_path_factory.mktemp("pki"))
    except MissingBinary as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def sasl_kafka(pki, tansu_server, tmp_path_factory):
    """A broker reachable only over TLS + SASL (SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN)."""
    port = free_port()
    proxy = KafkaSaslProxy(("127.0.0.1", port), server_context(pki.server_cert, pki.server_key),
                           users={KAFKA_USER: KAFKA_PASSWORD}).start()
    broker = start_tansu(tmp_path_factory.mktemp("tansu-sasl"), port, advertised=proxy.address)
    yield proxy
    broker.stop()
    proxy.stop()


@pytest.fixture(scope="module")
def authenticated_opensearch(pki, osmem_server):
    proxy = HttpsBasicAuthProxy(("127.0.0.1", osmem_server.port), server_context(pki.server_cert, pki.server_key),
                                username=OS_USER, password=OS_PASSWORD).start()
    yield proxy
    proxy.stop()


def kafka_settings(proxy, pki, password: str = KAFKA_PASSWORD, **overrides) -> KafkaSettings:
    return KafkaSettings(**{"bootstrap_servers": proxy.address, "security_protocol": "SASL_SSL",
                            "sasl_mechanism": "SCRAM-SHA-512", "sasl_username": KAFKA_USER,
                            "sasl_password": password, "ssl_ca_location": str(pki.ca), **overrides})


def opensearch_settings(proxy, pki, password: str = OS_PASSWORD, **overrides) -> OpenSearchSettings:
    return OpenSearchSettings(**{"url": f"https://{proxy.address}", "username": OS_USER, "password": password,
                                 "ca_certs": str(pki.ca), "number_of_replicas": 0, "timeout_s": 5, **overrides})


def _marked(i: int, prefix: str) -> dict:
    record = response(i, prefix)
    record["question"] += f" {QUESTION_MARK}"
    record["answer"] = record["answer"].replace("Hope this helps!", f"Ask {ANSWER_MARK} anytime.")
    record["passages"][1]["text"] += f" {PASSAGE_MARK}"
    return record


def _env(names: Names, kafka: KafkaSettings, opensearch: OpenSearchSettings, model_dir) -> dict[str, str]:
    """A pod's environment: plain settings from the ConfigMap, passwords from Secrets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDWATCH_")}
    env.update({
        "GROUNDWATCH_LOG_FORMAT": "json", "GROUNDWATCH_LOG_LEVEL": "debug",
        "GROUNDWATCH_METRICS__HOST": "127.0.0.1", "GROUNDWATCH_METRICS__PORT": "0",  # any free port: none is scraped here
        "GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS": kafka.bootstrap_servers,
        "GROUNDWATCH_KAFKA__SECURITY_PROTOCOL": kafka.security_protocol,
        "GROUNDWATCH_KAFKA__SASL_MECHANISM": kafka.sasl_mechanism,
        "GROUNDWATCH_KAFKA__SASL_USERNAME": kafka.sasl_username,
        "GROUNDWATCH_KAFKA__SASL_PASSWORD": kafka.sasl_password.get_secret_value(),
        "GROUNDWATCH_KAFKA__SSL_CA_LOCATION": kafka.ssl_ca_location,
        "GROUNDWATCH_KAFKA__INPUT_TOPIC": names.topic, "GROUNDWATCH_KAFKA__GROUP_ID": names.group,
        "GROUNDWATCH_KAFKA__DEAD_LETTER_TOPIC": names.dead_letters, "GROUNDWATCH_KAFKA__ALERTS_TOPIC": names.alerts,
        "GROUNDWATCH_KAFKA__BATCH_SIZE": "4", "GROUNDWATCH_KAFKA__POLL_TIMEOUT_S": "0.2",
        "GROUNDWATCH_KAFKA__SESSION_TIMEOUT_MS": "6000", "GROUNDWATCH_KAFKA__PRODUCE_TIMEOUT_S": "10",
        "GROUNDWATCH_OPENSEARCH__URL": opensearch.url, "GROUNDWATCH_OPENSEARCH__USERNAME": opensearch.username,
        "GROUNDWATCH_OPENSEARCH__PASSWORD": opensearch.password.get_secret_value(),
        "GROUNDWATCH_OPENSEARCH__CA_CERTS": opensearch.ca_certs,
        "GROUNDWATCH_OPENSEARCH__ALIAS": names.alias, "GROUNDWATCH_OPENSEARCH__INDEX_PREFIX": names.prefix,
        "GROUNDWATCH_OPENSEARCH__NUMBER_OF_REPLICAS": "0", "GROUNDWATCH_OPENSEARCH__TIMEOUT_S": "5",
        "GROUNDWATCH_SCORER__MODEL_DIR": str(model_dir), "GROUNDWATCH_SCORER__USE_EMBEDDINGS": "false",
        "GROUNDWATCH_CONSUMER__SINK_RETRY_INITIAL_S": "0.2", "GROUNDWATCH_CONSUMER__SINK_RETRY_MAX_S": "1",
    })
    return env


def _consume(env: dict[str, str], log_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"], env=env,
                            stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)


def _create_topics(kafka: KafkaSettings, names: Names) -> None:
    admin = AdminClient(kafka.client_config())
    topics = [NewTopic(t, num_partitions=1, replication_factor=1)
              for t in (names.topic, names.dead_letters, names.alerts)]
    for future in admin.create_topics(topics).values():
        future.result(15)


def _committed(kafka: KafkaSettings, names: Names) -> int:
    consumer = Consumer({**kafka.client_config(), "group.id": names.group})
    try:
        return max(consumer.committed([TopicPartition(names.topic, 0)], timeout=10)[0].offset, 0)
    finally:
        consumer.close()


def _read_all(kafka: KafkaSettings, topic: str, expected: int, timeout_s: float = 30) -> list:
    consumer = Consumer({**kafka.client_config(), "group.id": f"reader-{uuid.uuid4().hex[:8]}",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    out, deadline = [], time.monotonic() + timeout_s
    try:
        while len(out) < expected and time.monotonic() < deadline:
            out += [m for m in consumer.consume(expected, 0.5) if m.error() is None]
    finally:
        consumer.close()
    return out


def test_sasl_ssl_round_trip_with_secrets_from_the_environment_and_nothing_secret_in_the_logs(
        sasl_kafka, authenticated_opensearch, pki, tiny_onnx, tmp_path):
    names = Names.fresh("secure")
    kafka = kafka_settings(sasl_kafka, pki)
    opensearch = opensearch_settings(authenticated_opensearch, pki)
    _create_topics(kafka, names)
    good = [_marked(i, names.topic) for i in range(6)]
    poison = [b"{not json " + ANSWER_MARK.encode(),
              json.dumps({"request_id": "no-passages", "answer": f"{ANSWER_MARK} claims"}).encode()]
    values = [json.dumps(good[0]).encode(), poison[0], *(json.dumps(r).encode() for r in good[1:4]), poison[1],
              *(json.dumps(r).encode() for r in good[4:])]
    producer = Producer(kafka.client_config())
    for value in values:
        producer.produce(names.topic, value=value)
    assert producer.flush(15) == 0, "produced over SASL_SSL"

    log_path = tmp_path / "consume.log"
    authenticated_before, requests_before = sasl_kafka.authenticated, authenticated_opensearch.requests
    process = _consume(_env(names, kafka, opensearch, tiny_onnx), log_path)
    try:
        wait_until(lambda: _committed(kafka, names) == len(values), 120, "every offset committed over SASL_SSL")
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0, log_path.read_text()[-3000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    client = connect(opensearch)
    client.indices.refresh(index=names.alias)
    hits = client.search(index=names.alias, body={"size": 100, "query": {"match_all": {}}})["hits"]["hits"]
    assert sorted(h["_source"]["request_id"] for h in hits) == sorted(r["request_id"] for r in good)
    letters = _read_all(kafka, names.dead_letters, len(poison))
    assert sorted(m.value() for m in letters) == sorted(poison), "dead letters produced over SASL_SSL"
    assert sasl_kafka.authenticated > authenticated_before, "the job's clients authenticated with SCRAM"
    assert authenticated_opensearch.requests > requests_before, "the job wrote through the basic-auth proxy"

    log_text = log_path.read_text(errors="replace")
    events = [json.loads(line) for line in log_text.splitlines() if line.startswith("{")]
    assert any(e["event"] == "batch_committed" for e in events) and any(e["event"] == "settings" for e in events)
    for secret in (KAFKA_PASSWORD, OS_PASSWORD):
        assert secret not in log_text, "a password reached the log"
    for text in (ANSWER_MARK, QUESTION_MARK, PASSAGE_MARK, good[0]["answer"], good[0]["passages"][0]["text"]):
        assert text not in log_text, f"record text reached the log: {text[:30]!r}"
    assert "**********" in log_text, "the settings line shows masked secrets"


def test_wrong_kafka_password_stops_the_job_with_a_clear_error(
        sasl_kafka, authenticated_opensearch, pki, tiny_onnx, tmp_path):
    names = Names.fresh("badkafka")
    env = _env(names, kafka_settings(sasl_kafka, pki, WRONG_PASSWORD), opensearch_settings(authenticated_opensearch, pki),
               tiny_onnx)
    log_path = tmp_path / "consume.log"
    process = _consume(env, log_path)
    try:
        assert process.wait(60) == 2
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    log_text = log_path.read_text(errors="replace")
    assert f"groundwatch: error: kafka: authentication failed as '{KAFKA_USER}' (SCRAM-SHA-512)" in log_text
    assert "preflight_failed" in log_text and WRONG_PASSWORD not in log_text


def test_wrong_opensearch_password_stops_the_job_with_a_clear_error(
        sasl_kafka, authenticated_opensearch, pki, tiny_onnx, tmp_path):
    names = Names.fresh("bados")
    env = _env(names, kafka_settings(sasl_kafka, pki), opensearch_settings(authenticated_opensearch, pki, WRONG_PASSWORD),
               tiny_onnx)
    log_path = tmp_path / "consume.log"
    process = _consume(env, log_path)
    try:
        assert process.wait(60) == 2
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    log_text = log_path.read_text(errors="replace")
    assert f"groundwatch: error: opensearch: authentication failed as '{OS_USER}'" in log_text
    assert "(HTTP 401)" in log_text and WRONG_PASSWORD not in log_text


def test_a_broker_certificate_from_another_ca_is_a_clear_tls_error(sasl_kafka, pki):
    with pytest.raises(PreflightError, match=r"kafka: TLS handshake failed .*certificate verify failed"):
        check_kafka(kafka_settings(sasl_kafka, pki, ssl_ca_location=str(pki.other_ca)), timeout_s=5)
    check_kafka(kafka_settings(sasl_kafka, pki), timeout_s=10)  # the right CA passes


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "PLAIN"])
def test_other_sasl_mechanisms_authenticate(sasl_kafka, pki, mechanism):
    check_kafka(kafka_settings(sasl_kafka, pki, sasl_mechanism=mechanism), timeout_s=10)
    with pytest.raises(PreflightError, match="authentication failed"):
        check_kafka(kafka_settings(sasl_kafka, pki, WRONG_PASSWORD, sasl_mechanism=mechanism), timeout_s=10)


def test_kafka_mutual_tls_with_a_client_certificate(pki, tansu_server, tmp_path):
    port = free_port()
    proxy = KafkaSaslProxy(("127.0.0.1", port), server_context(pki.server_cert, pki.server_key, client_ca=pki.ca)).start()
    broker = start_tansu(tmp_path, port, advertised=proxy.address)
    try:
        kafka = KafkaSettings(bootstrap_servers=proxy.address, security_protocol="SSL", ssl_ca_location=str(pki.ca),
                              ssl_certificate_location=str(pki.client_cert), ssl_key_location=str(pki.client_key))
        topic = f"mtls-{uuid.uuid4().hex[:8]}"
        admin = AdminClient(kafka.client_config())
        admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(15)
        producer = Producer(kafka.client_config())
        producer.produce(topic, value=b"over mutual TLS")
        assert producer.flush(15) == 0
        assert [m.value() for m in _read_all(kafka, topic, 1)] == [b"over mutual TLS"]
        without_certificate = kafka.model_copy(update={"ssl_certificate_location": None, "ssl_key_location": None})
        # TLS 1.3: the broker side refuses after the client's handshake, so the client sees a closed connection.
        with pytest.raises(KafkaException):
            AdminClient({**without_certificate.client_config(), "log_level": 0}).list_topics(timeout=5)
    finally:
        broker.stop()
        proxy.stop()


def test_opensearch_with_a_client_certificate(pki, osmem_server, opensearch_url):
    proxy = HttpsBasicAuthProxy(("127.0.0.1", osmem_server.port),
                                server_context(pki.server_cert, pki.server_key, client_ca=pki.ca)).start()
    try:
        settings = OpenSearchSettings(url=f"https://{proxy.address}", ca_certs=str(pki.ca), timeout_s=5,
                                      client_cert=str(pki.client_cert), client_key=str(pki.client_key))
        check_opensearch(settings)
        index = f"mtls-{uuid.uuid4().hex[:8]}"
        connect(settings).index(index=index, id="1", body={"ok": True}, refresh=True)
        assert connect(settings).get(index=index, id="1")["_source"] == {"ok": True}
        # Under TLS 1.3 the server refuses a missing client certificate after the client's side of the
        # handshake: the request sees a closed connection, and no request reaches the server.
        served = proxy.requests
        with pytest.raises(opensearchpy.exceptions.ConnectionError):
            connect(settings.model_copy(update={"client_cert": None, "client_key": None})).info()
        assert proxy.requests == served
        with pytest.raises(PreflightError, match="opensearch: TLS handshake failed"):
            check_opensearch(settings.model_copy(update={"ca_certs": str(pki.other_ca)}))
    finally:
        proxy.stop()
