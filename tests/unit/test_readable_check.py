"""The readable check: a claim the model cannot read whole is never SUPPORTED (scorers/pipeline.py)."""

from dataclasses import replace

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.nli.fake_backend import FakeBackend
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.records import Check, Evidence, Verdict
from groundwatch.scorers.verdicts.thresholds import Thresholds
from groundwatch.scorers.schema import parse_response

SETTINGS = dict(use_embeddings=False, context_conflicts=False, polarity_form=False)


@pytest.fixture(scope="module")
def backend(tiny_onnx):
    return FakeBackend(tiny_onnx)


def _only_claim(backend, answer: str, passage: str):
    scorer = Scorer(ScorerConfig(**SETTINGS), backend)
    try:
        [verdict] = scorer.score([parse_response({"request_id": "r", "answer": answer,
                                                  "passages": [{"id": "p1", "text": passage}]})])
    finally:
        scorer.close()
    [claim] = verdict.claims
    return claim


def _words(backend, n_tokens: int) -> str:
    """A sentence of exactly `n_tokens` tokens, of words the tokenizer reads as one token each."""
    words = [w for w in ("the", "of", "and", "to", "in", "is", "for", "on", "at", "by")
             if backend.encoder.claim_tokens(w) == (1, 0)]
    assert len(words) >= 3
    return " ".join(words[i % len(words)] for i in range(n_tokens))


def test_room_is_where_the_encoder_starts_to_cut_the_claim(backend):
    room = backend.encoder.claim_room
    premise = _words(backend, 3 * backend.max_length)
    for n, whole in ((room, True), (room + 1, False)):
        claim = _words(backend, n)
        assert backend.encoder.claim_tokens(claim) == (n, 0)
        [[first, *_]] = backend.tokenize([(premise, claim)], windows=True)
        read = sum(1 for t in first.token_type_ids if t == 1) - 1  # the claim's segment, less its [SEP]
        assert (read == n) is whole, (n, read)


def test_a_claim_longer_than_the_room_is_capped_not_supported(backend):
    room = backend.encoder.claim_room
    short = _words(backend, 20) + "."
    supported = _only_claim(backend, short, short)
    assert supported.verdict is Verdict.SUPPORTED and not any(c.name == "readable" for c in supported.checks)

    long = _words(backend, room + 40) + "."
    claim = _only_claim(backend, long, long)  # word for word: the fake model's entailment is near 1
    assert claim.entailment > 0.9
    assert claim.verdict is Verdict.NOT_ENOUGH_INFO
    [check] = [c for c in claim.checks if c.name == "readable"]
    assert not check.passed and f"the model reads {room} beside a passage" in check.detail
    assert {"failed_readable", "claim_not_read", "capped_by_check"} <= set(claim.flags)


def test_a_claim_of_unknown_tokens_is_capped_not_supported(backend):
    garbage = "Z" + "z" * 5_000  # longer than WordPiece reads as a word: one unknown token
    assert backend.encoder.claim_tokens(garbage) == (1, 1)
    claim = _only_claim(backend, garbage, f"{garbage} is the code.")
    assert claim.entailment > 0.9  # the fake model finds every word of it in the passage
    assert claim.verdict is Verdict.NOT_ENOUGH_INFO
    [check] = [c for c in claim.checks if c.name == "readable"]
    assert check.detail == "the model cannot read 1 of the claim's 2 tokens"  # the claim ends in "."


def test_a_few_unknown_tokens_do_not_fail_the_check(backend):
    text = "Refunds take 30 days for orders \u2063\U0001fae0 shipped in stores."
    n, unknown = backend.encoder.claim_tokens(text)
    assert 2 * unknown < n
    claim = _only_claim(backend, text, text)
    assert not any(c.name == "readable" for c in claim.checks)


def test_a_claim_in_another_language_than_the_model_reads_is_never_judged_by_it(backend, monkeypatch):
    german = "Rückerstattungen sind nicht möglich."
    assert not any(c.name == "readable" for c in _only_claim(backend, german, german).checks)  # languages unknown
    monkeypatch.setattr(backend, "kind", replace(backend.kind, languages=("en",)))
    claim = _only_claim(backend, german, german)  # word for word: the fake model entails it
    assert claim.entailment > 0.9 and claim.verdict is Verdict.NOT_ENOUGH_INFO
    [check] = [c for c in claim.checks if c.name == "readable"]
    assert check.detail == "the claim reads as German; the model reads English only"
    english = "Refunds are not possible."
    assert _only_claim(backend, english, english).verdict is Verdict.SUPPORTED


def test_an_unread_claim_is_not_contradicted_by_the_model():
    unread = Check("readable", False, "the claim reads as German; the model reads English only", flag="claim_not_read")
    contradicting = [Evidence(["p1"], [(0, 10)], 0.01, 0.01, 0.98, retrieval_score=0.9, kind="chunk")]
    assert decide(contradicting, [], Thresholds())[0] is Verdict.CONTRADICTED
    verdict, flags = decide(contradicting, [unread], Thresholds())
    assert verdict is Verdict.NOT_ENOUGH_INFO and "failed_readable" in flags
