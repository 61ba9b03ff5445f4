"""Hostile text: every text stage grows linearly with its input, whatever the input repeats.

Each stage (decode, sentence splitting, claim splitting, chunking, and the whole path through
prepare() and Scorer.score) is fed generated worst cases (repeated list markers and
abbreviations, separators, whitespace and punctuation runs, citation marks, long tokens, one
unpunctuated wall of text, deep nesting) at sizes n and 8n. The property is a ratio, not a
wall-clock bound, so a busy machine does not flake it: t(8n) / t(n) < 16, each time the median of
3 runs of CPU time of this process (linear gives about 8, quadratic about 64).
"""

from __future__ import annotations

import gc
import json
import statistics
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundwatch.config.scorer import ScorerConfig
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.decode import DecodeError, Limits, decode
from groundwatch.consumer.prepare import prepare
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.evidence.chunking import chunk_passages
from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.schema import Passage, Response
from groundwatch.scorers.english.sentences import sentence_spans
from tests.unit.test_decode_properties import FakeMessage

RATIO = 16
# Units that once made a stage re-read the rest of its input at every repetition, and their neighbours.
UNITS = {
    "list markers": "1. ", "abbreviations": "e.g. ", "No.": "No. ", "punctuation run": ".",
    "sentences": "A b. ", "semicolons": "The plan covers data; ", "non-clauses": "x; ",
    "whitespace run": " ", "but": "a  but ", "citations": ". [a.] ", "comma and": "x, and ",
    "colons": "Note: ", "wall of words": "word ", "long token": "x", "brackets": "[",
}
ATOMS = sorted(set(UNITS.values()) | {"!", "?", "\n", "it ", "If ", "U.S. ", "[p1] ", "\"", ")", "so "})


def _cpu_seconds(fn, make, size: int) -> float:
    """Median of 3 runs; each run gets its own input (run number in it), so no cache answers for it."""
    times = []
    for run in range(3):
        arg = make(size, run)
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            fn(arg)
            times.append(time.process_time() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def growth(fn, make, n: int) -> float:
    make_small = _cpu_seconds(fn, make, n)
    return _cpu_seconds(fn, make, 8 * n) / max(make_small, 1e-3)


def _text(unit: str, size: int, run: int = 0) -> str:
    return f"Run {run} starts here. " + unit * max(1, size // len(unit)) + " The end."


def _record(field: str, unit: str, size: int, run: int) -> dict:
    text = _text(unit, size, run)
    record = {"request_id": f"r-{run}", "answer": f"Refunds take {run} days.",
              "passages": [{"id": "p1", "text": "Refunds take 30 days. Shipping is free."}]}
    if field == "answer":
        record["answer"] = text
    elif field == "passage":
        record["passages"] = [{"id": "p1", "text": text}, {"id": "p2", "text": "Refunds take 30 days."}]
    elif field == "claims":
        record["claims"] = [unit * max(1, 40 // len(unit))] * max(1, size // 40)
    elif field == "question":
        record["question"] = text
    return record


def _encoded(field: str, unit: str):
    def make(size: int, run: int) -> bytes:
        record = _record(field, unit, size, run)
        if field != "nesting":
            return json.dumps(record).encode()
        depth = max(1, size // 20)  # built as text: deeper than the JSON parser goes at the large size
        record["metadata"] = {"app": "shop", "x": "NEST"}
        return json.dumps(record).replace('"NEST"', "[" * depth + "]" * depth).encode()

    return make


@pytest.mark.parametrize("unit", list(UNITS.values()), ids=list(UNITS))
def test_sentence_splitting_is_linear(unit):
    assert growth(sentence_spans, lambda size, run: _text(unit, size, run), 5_000) < RATIO


@pytest.mark.parametrize("unit", list(UNITS.values()), ids=list(UNITS))
def test_claim_splitting_is_linear(unit):
    assert growth(decompose, lambda size, run: _text(unit, size, run), 2_000) < RATIO


@pytest.mark.parametrize("unit", list(UNITS.values()), ids=list(UNITS))
def test_chunking_is_linear(unit):
    def passages(size, run):
        return [Passage(id="p1", text=_text(unit, size, run)), Passage(id="p2", text=_text(unit, size // 2, run))]

    assert growth(chunk_passages, passages, 4_000) < RATIO


@pytest.mark.parametrize("field", ["answer", "passage", "claims", "nesting"])
@pytest.mark.parametrize("unit", ["1. ", "x; ", " ", "No. "])
def test_decoding_is_linear(field, unit):
    assert growth(decode, _encoded(field, unit), 10_000) < RATIO


def test_json_nested_past_the_parser_is_refused_in_time_independent_of_its_size():
    for size in (1_000, 100_000, 190_000):
        result = decode(b'{"a":' * size)
        assert isinstance(result, DecodeError) and result.reason == "too_deep"


@pytest.fixture(scope="module")
def scorer():
    from groundwatch.scorers.pipeline import Scorer

    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    yield scorer
    scorer.close()


hostile_units = st.lists(st.sampled_from(ATOMS), min_size=1, max_size=4).map("".join)
fields = st.sampled_from(["answer", "passage", "claims", "question", "nesting"])
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])


@FEW
@given(fields, hostile_units)
def test_hostile_records_through_prepare_grow_linearly(scorer, field, unit):
    limits = Limits.from_config(scorer.config)

    def run_prepare(value: bytes) -> None:
        batch = Batch([FakeMessage(value, 0)], number=1)
        prepare(batch, scorer, limits, Metrics())
        assert len(batch.scored) + len(batch.dead) == 1, "scored or dead-lettered"

    assert growth(run_prepare, _encoded(field, unit), 1_500) < RATIO


@FEW
@given(fields, hostile_units)
def test_hostile_records_through_scorer_score_grow_linearly(scorer, field, unit):
    def response(size: int, run: int) -> Response:
        result = decode(_encoded(field, unit)(size, run), Limits.from_config(scorer.config))
        return result if isinstance(result, Response) else Response(
            request_id="refused", answer="Refunds take 30 days.", passages=[])

    assert growth(lambda r: scorer.score([r]), response, 1_500) < RATIO


def main() -> None:
    """Print the growth ratios the tests assert on (python -m tests.unit.test_hostile_text)."""
    stages = [("sentence_spans", sentence_spans, lambda u: (lambda size, run: _text(u, size, run)), 5_000),
              ("decompose", decompose, lambda u: (lambda size, run: _text(u, size, run)), 2_000),
              ("chunk_passages", chunk_passages,
               lambda u: (lambda size, run: [Passage(id="p1", text=_text(u, size, run))]), 4_000),
              ("decode (answer)", decode, lambda u: _encoded("answer", u), 10_000),
              ("decode (passage)", decode, lambda u: _encoded("passage", u), 10_000)]
    print(f"{'stage':18} {'unit':16} {'t(n) ms':>9} {'t(8n) ms':>9} {'ratio':>6}")
    for name, fn, make, n in stages:
        for label, unit in UNITS.items():
            small, large = _cpu_seconds(fn, make(unit), n), _cpu_seconds(fn, make(unit), 8 * n)
            print(f"{name:18} {label:16} {small * 1000:9.1f} {large * 1000:9.1f} {large / max(small, 1e-3):6.1f}")


def records() -> None:
    """CPU seconds of records near the 1 MB limit through decode and Scorer.score (fake backend)
    (python -m tests.unit.test_hostile_text --records)."""
    from groundwatch.scorers.pipeline import Scorer

    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    limits = Limits.from_config(scorer.config)
    wall = " ".join(["word"] * 19_990)  # ~100 kB without a sentence end
    shapes = {
        "JSON nested 190,000 deep": b'{"a":' * 190_000,
        "answer of 1.0 MB '1. '": json.dumps(_record("answer", "1. ", 990_000, 0)).encode(),
        "10 passages of 99 kB 'A b. '": json.dumps({"request_id": "r", "answer": "Refunds take 30 days.",
            "passages": [{"id": f"p{i}", "text": _text("A b. ", 99_000, i)} for i in range(10)]}).encode(),
        "10 passages of 99 kB '1. '": json.dumps({"request_id": "r", "answer": "Refunds take 30 days.",
            "passages": [{"id": f"p{i}", "text": _text("1. ", 99_000, i)} for i in range(10)]}).encode(),
        "10 unpunctuated passages of 100 kB": json.dumps({"request_id": "r", "answer": "Refunds take 30 days.",
            "passages": [{"id": f"p{i}", "text": f"{i} {wall}"} for i in range(10)]}).encode(),
        "answer of 20 kB 'The plan covers data; '": json.dumps(_record("answer", "The plan covers data; ", 19_900,
                                                                       0)).encode(),
        "128 claims of 2 kB": json.dumps({"request_id": "r", "answer": "Refunds take 30 days.",
            "claims": [f"{i} " + "Refunds take 30 days and " * 79 for i in range(128)],
            "passages": [{"id": "p1", "text": "Refunds take 30 days."}]}).encode(),
    }
    print(f"{'record':42} {'bytes':>9} {'outcome':>24} {'cpu s':>7}")
    for name, value in shapes.items():
        start = time.process_time()
        result = decode(value, limits)
        if not isinstance(result, DecodeError):
            [result] = scorer.score([result])
        outcome = (f"decode: {result.reason}" if isinstance(result, DecodeError) else
                   f"score: {result.reason}" if isinstance(result, Exception) else "verdict")
        print(f"{name:42} {len(value):9d} {outcome:>24} {time.process_time() - start:7.2f}")
    scorer.close()


if __name__ == "__main__":
    import sys

    records() if "--records" in sys.argv else main()
