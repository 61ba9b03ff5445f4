"""The bench's replay stream: every response once or more, repeats sharing passages, the same every run."""

from collections import Counter

from groundwatch.evaluation.bench.inputs import synthetic_responses
from groundwatch.evaluation.bench.replay import replay_stream


def test_the_replay_repeats_responses_deterministically():
    records = synthetic_responses(20)
    stream = replay_stream(records)
    assert stream == replay_stream(records) and stream != replay_stream(records, seed=1)
    answers = Counter(r["answer"] for r in stream)
    assert set(answers) == {r["answer"] for r in records} and max(answers.values()) <= 3
    assert len(stream) > len(records) and len({r["request_id"] for r in stream}) == len(stream)
    shared = [r for r in stream if any(p["id"].startswith("shared-") for p in r["passages"])]
    assert shared and all(len(r["passages"]) == 4 for r in shared)  # its own three and another's
    assert [r["request_id"] for r in stream[:len(records)]] != [r["request_id"] for r in records]  # shuffled
