"""The local stack starts, serves its protocol, and osmem comes back on the same port."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
import uuid

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from opensearchpy import OpenSearch
from prometheus_client import CollectorRegistry, Counter, start_http_server

from infra.server import free_port, port_open

pytestmark = pytest.mark.integration


def test_tansu_round_trips_one_message(kafka_bootstrap: str) -> None:
    topic = f"stack-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": kafka_bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result(10)

    producer = Producer({"bootstrap.servers": kafka_bootstrap})
    producer.produce(topic, key=b"k", value=b"hello", headers={"h": b"1"})
    assert producer.flush(10) == 0

    consumer = Consumer({
        "bootstrap.servers": kafka_bootstrap,
        "group.id": f"g-{topic}",
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000,  # Tansu's group join waits about half of this
    })
    consumer.subscribe([topic])
    try:
        message = None
        for _ in range(30):
            message = consumer.poll(1.0)
            if message is not None and message.error() is None:
                break
        assert message is not None and message.error() is None
        assert (message.key(), message.value()) == (b"k", b"hello")
        assert message.headers() == [("h", b"1")]
    finally:
        consumer.close()


def test_osmem_indexes_and_gets_a_document(opensearch_url: str) -> None:
    client = OpenSearch(hosts=[opensearch_url])
    index = f"stack-{uuid.uuid4().hex[:8]}"
    client.index(index=index, id="doc-1", body={"verdict": "SUPPORTED"}, refresh=True)

    assert client.get(index=index, id="doc-1")["_source"] == {"verdict": "SUPPORTED"}


def test_osmem_restarts_on_the_same_port(osmem_server) -> None:
    address, old_pid = osmem_server.address, osmem_server.pid

    osmem_server.stop()
    try:
        assert not port_open(osmem_server.port)
    finally:
        osmem_server.start()

    assert osmem_server.address == address and osmem_server.pid != old_pid
    with urllib.request.urlopen(osmem_server.url + "/", timeout=5) as response:
        assert "version" in json.load(response)


def test_prometheus_scrapes_a_given_target(prometheus_factory) -> None:
    registry = CollectorRegistry()
    Counter("stack_probe_total", "Scrape probe for the stack test.", registry=registry).inc()
    port = free_port()
    http_server, thread = start_http_server(port, addr="127.0.0.1", registry=registry)
    try:
        prometheus = prometheus_factory([f"127.0.0.1:{port}"], scrape_interval="1s")
        query = urllib.parse.urlencode({"query": "stack_probe_total"})
        values: list = []
        deadline = time.monotonic() + 20
        while not values and time.monotonic() < deadline:
            time.sleep(0.5)
            with urllib.request.urlopen(f"{prometheus.url}/api/v1/query?{query}", timeout=5) as r:
                values = [sample["value"][1] for sample in json.load(r)["data"]["result"]]
        assert values == ["1"]
    finally:
        http_server.shutdown()
        thread.join()
