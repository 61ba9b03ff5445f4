"""The bounded fault-injection run (real model): kills, stalls, pauses and a rebalance lose nothing,
write every document once and leave one dead letter per bad message (one per key: a kill -9 may leave
a replayed physical copy under the same key, which the topic's consumers and compaction drop).

The long form is `python -m infra.faults --long` (5,000 messages, 20 kills, fake NLI backend);
its figures are in the README.
"""

from __future__ import annotations

import os

import pytest

from infra.faults import FaultConfig, run, summary
from infra.server import MissingBinary

pytestmark = [pytest.mark.faults, pytest.mark.integration, pytest.mark.timeout(900)]

BOUNDED = FaultConfig(messages=120, kills=3, opensearch_stalls=1, opensearch_freezes=1, broker_pauses=1,
                      rebalances=1, partitions=3, oversized=2, bad_fraction=0.1, backend="onnx", batch_size=8,
                      gap_s=(2.0, 6.0), seed=7, finish_timeout_s=400.0)


def test_bounded_fault_run_loses_nothing_and_writes_each_document_once(tmp_path):
    try:
        result = run(BOUNDED, workdir=tmp_path)
    except MissingBinary as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI is set and a stack binary is missing: {exc}")
        pytest.skip(str(exc))
    print(summary(result))
    assert result["kills"] == 3 and result["rebalances"] == 2
    assert result["outages"] == {"opensearch_bulk_stalls": 1, "opensearch_freezes": 1, "broker_pauses": 1}
    assert result["all_committed"], (result["committed"], result["expected_committed"])
    assert result["lost"] == 0, result["examples"]
    assert result["duplicated_documents"] == 0, "a replay overwrites its documents"
    # One dead letter per bad message under the contract (README, Streaming): keyed by source coordinates,
    # read one per key. A kill -9 after the dead letters were acknowledged and before the commit sends them
    # again under the same key: physical copies, at most one replayed batch per kill, never a second key.
    assert result["duplicated_dead_letters"] == 0 and result["duplicated"] == 0
    assert result["dead_letters_with_wrong_key"] == 0
    assert result["redelivered_dead_letters"] <= result["kills"] * BOUNDED.batch_size
    assert result["dead_letter_records"] == result["dead_letters"] + result["redelivered_dead_letters"]
    assert result["documents"] == result["valid"]
    assert result["dead_letters"] == result["bad"]
    assert result["valid_dead_lettered"] == 0 and result["bad_with_document"] == 0
    assert result["dead_letters_with_wrong_bytes"] == 0
    assert result["crashes"] == 0, f"a consumer exited by itself; logs in {tmp_path / 'logs'}"
    assert result["final_exit_code"] == 0
