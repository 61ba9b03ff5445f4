"""Pre-processing: pairs are tokenized once, encodings equal transformers' pair encoding of the
same model (the examples' pairs included), premise windows are slices of the premise's ids,
padding is masked."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.scorers.nli.batcher import DynamicBatcher, combine_windows
from groundwatch.scorers.nli.encoding import PairEncoder, PairEncoding, longest_first
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR, load_backend
from groundwatch.scorers.nli.tokenizer import load_tokenizer
from groundwatch.scorers.records import NLIScores

CLAIM = "Item 79 costs 79 euros."
LONG = " ".join(f"Fact number {i} is that item {i} costs {i} euros." for i in range(80))


@pytest.fixture(scope="module")
def tokenizer():
    """The reference: transformers' fast tokenizer of the shipped model (not installed by [cpu])."""
    transformers = pytest.importorskip("transformers")
    return transformers.AutoTokenizer.from_pretrained(str(DEFAULT_MODEL_DIR))


@pytest.fixture(scope="module")
def encoder():
    return PairEncoder(load_tokenizer(DEFAULT_MODEL_DIR), max_length=64)


class _Counting:
    """Wraps a tokenizers.Tokenizer and records every batch call's texts."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []

    def encode_batch(self, texts, *args, **kwargs):
        self.calls.append(list(texts))
        return self.inner.encode_batch(texts, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.parametrize("first, second", [(200, 200), (300, 10), (10, 300), (129, 128), (128, 129), (5, 5),
                                           (253, 1), (1, 253), (260, 3), (400, 300)])
def test_longest_first_matches_the_fast_tokenizer(tokenizer, first, second):
    enc = tokenizer(" ".join(["apple"] * first), " ".join(["pear"] * second), truncation="longest_first",
                    max_length=256)
    apple, pear = tokenizer.convert_tokens_to_ids(["apple", "pear"])
    assert longest_first(first, second, 253) == (enc["input_ids"].count(apple), enc["input_ids"].count(pear))


@pytest.mark.parametrize("pair", [
    ("Refunds are available within 30 days of purchase.", "Refunds take 60 days."),
    ("Short.", "A much longer hypothesis with many more tokens than the premise has in it, and then some more."),
    (LONG, CLAIM),                      # premise truncated
    (LONG, LONG[:300]),                 # both truncated
    ("Ünïcödé façade — naïve café’s “quotes”.", "The café is naïve."),
])
def test_an_encoding_equals_the_tokenizers_pair_encoding(encoder, tokenizer, pair):
    [[enc]] = encoder.encode([pair], windows=False)
    direct = tokenizer(*pair, truncation="longest_first", max_length=64)
    assert list(enc.input_ids) == direct["input_ids"]
    assert list(enc.token_type_ids) == direct["token_type_ids"]
    assert enc.pair == pair and len(enc) <= 64


def test_each_distinct_text_is_tokenized_once_per_call():
    encoder = PairEncoder(load_tokenizer(DEFAULT_MODEL_DIR), max_length=64)
    spy = encoder._local.tokenizer = _Counting(encoder.tokenizer)
    pairs = [("Passage one.", "Claim A."), ("Passage one.", "Claim B."), ("Passage two.", "Claim A."),
             (LONG, "Claim A.")]
    out = encoder.encode(pairs)
    assert len(spy.calls) == 1
    assert sorted(spy.calls[0]) == sorted({"Passage one.", "Passage two.", LONG, "Claim A.", "Claim B."})
    assert [len(w) for w in out[:3]] == [1, 1, 1] and len(out[3]) > 1


def test_long_premises_become_overlapping_windows_of_its_own_ids(encoder, tokenizer):
    [windows] = encoder.encode([(LONG, CLAIM)])
    premise_ids = tokenizer(LONG, add_special_tokens=False)["input_ids"]
    claim_ids = tokenizer(CLAIM, add_special_tokens=False)["input_ids"]
    assert encoder.tokenizer.encode(LONG, add_special_tokens=False).ids == premise_ids
    starts, size = encoder.window_starts(len(premise_ids), len(claim_ids))
    assert len(windows) == len(starts) > 1 and size == 64 - len(claim_ids) - 4
    for start, enc in zip(starts, windows):
        assert len(enc) <= 64
        # [CLS] window [SEP] claim [SEP], the window a slice of the premise's ids
        window = list(enc.input_ids[1:len(enc) - len(claim_ids) - 2])
        assert window == premise_ids[start:start + size]
        assert list(enc.input_ids[-len(claim_ids) - 1:-1]) == claim_ids
        assert enc.pair[1] == CLAIM and enc.pair[0] in LONG
    assert starts[0] == 0 and starts[-1] + size >= len(premise_ids)   # the whole premise is covered
    assert all(b - a < size for a, b in zip(starts, starts[1:]))       # consecutive windows overlap
    assert windows[0].pair[0].startswith("Fact number 0") and windows[-1].pair[0].endswith("79 euros.")


def test_a_claim_that_leaves_no_room_truncates_instead_of_windowing(encoder):
    long_claim = " ".join(["word"] * 60)
    [windows] = encoder.encode([(LONG, long_claim)])
    assert len(windows) == 1 and len(windows[0]) == 64


def test_collate_pads_with_a_zero_attention_mask(encoder):
    batch = [e for [e] in encoder.encode([("A cat sleeps.", "A cat rests."), (LONG, CLAIM)], windows=False)]
    f = encoder.collate(batch)
    assert f["input_ids"].shape == f["attention_mask"].shape == (2, 64)
    n = len(batch[0])
    assert f["attention_mask"][0].tolist() == [1] * n + [0] * (64 - n)
    assert (f["input_ids"][0, n:] == encoder.pad_id).all() and f["attention_mask"][1].all()
    assert f["input_ids"].dtype == np.int64


def test_window_scores_combine_to_best_entailment_and_worst_contradiction():
    combined = combine_windows([NLIScores(0.2, 0.1, 0.7), NLIScores(0.9, 0.05, 0.05), NLIScores(0.5, 0.4, 0.1)])
    assert (combined.entailment, combined.neutral, combined.contradiction) == (0.9, 0.05, 0.7)


class _Spy:
    """A backend wrapper counting tokenize calls and recording what predict receives."""

    def __init__(self, inner):
        self.inner, self.tokenized, self.received = inner, 0, []

    def tokenize(self, pairs, windows=False):
        self.tokenized += 1
        return self.inner.tokenize(pairs, windows)

    def predict(self, items):
        self.received.append(list(items))
        return self.inner.predict(items)


def test_the_batcher_tokenizes_once_and_the_backend_scores_those_encodings(tiny_onnx):
    backend = load_backend(tiny_onnx, "onnx", providers="cpu")
    spy = _Spy(backend)
    batcher = DynamicBatcher(spy, max_wait_ms=50)
    try:
        pairs = [("A cat sleeps on the mat.", "A cat sleeps."), (LONG, CLAIM), ("Dogs bark.", "A cat sleeps.")]
        got = batcher.predict(pairs)
        assert spy.tokenized == 1
        received = [item for batch in spy.received for item in batch]
        assert all(isinstance(item, PairEncoding) for item in received)
        windows = backend.tokenize(pairs, windows=True)
        assert sorted(received, key=lambda e: e.input_ids) == sorted(
            [e for w in windows for e in w], key=lambda e: e.input_ids)
        alone = [combine_windows(backend.predict(w)) for w in windows]
        for a, b in zip(got, alone):
            assert a.entailment == pytest.approx(b.entailment, abs=1e-6)
    finally:
        batcher.close()


def _example_pairs() -> list[tuple[str, str]]:
    """Every passage of the examples against every sentence of its answer, and the question."""
    import json
    import re
    from pathlib import Path

    pairs = []
    path = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"
    for line in path.read_text().splitlines():
        record = json.loads(line)
        claims = [s for s in re.split(r"(?<=[.!?])\s+", record["answer"]) if s] + [record["question"]]
        pairs += [(p["text"], c) for p in record["passages"] for c in claims]
    return pairs


def test_the_examples_pairs_encode_as_transformers_encoded_them(tokenizer):
    pairs = _example_pairs()
    encoder = PairEncoder(load_tokenizer(DEFAULT_MODEL_DIR), max_length=256)
    short = PairEncoder(load_tokenizer(DEFAULT_MODEL_DIR), max_length=48)  # most pairs truncated
    assert len(pairs) > 500
    for enc in (encoder, short):
        direct = tokenizer([p for p, _ in pairs], [c for _, c in pairs], truncation="longest_first",
                           max_length=enc.max_length)
        ours = [e for [e] in enc.encode(pairs, windows=False)]
        assert [list(e.input_ids) for e in ours] == direct["input_ids"]
        assert [list(e.token_type_ids) for e in ours] == direct["token_type_ids"]
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    offsets = tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
    assert [e.offsets for e in encoder.tokenizer.encode_batch(texts, add_special_tokens=False)] == offsets
    assert encoder.pad_id == tokenizer.pad_token_id and encoder.specials == tokenizer.num_special_tokens_to_add(True)
