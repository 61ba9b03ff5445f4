"""The whole scoring path on the tiny random model: structure, not verdict quality."""

import json

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.errors import ScoringError
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.identity import content_hash, document_id

RESPONSE = {
    "request_id": "r-1",
    "answer": "Refunds are available for up to 60 days [p1]. The fee is \"non-refundable after shipping\". "
              "Orders ship within 2 business days, and they arrive in a week. Hope this helps!",
    "passages": [
        {"id": "p1", "text": "Refunds are available within 30 days of purchase. Enterprise customers may request "
                             "an extension to 60 days, subject to approval by their account manager.", "score": 0.8},
        {"id": "p2", "text": "Shipping fees are non-refundable. Orders ship within 2 business days.", "score": 0.6},
    ],
    "metadata": {"app": "helpdesk", "tenant": "acme"},
}


@pytest.fixture(scope="module")
def scorer(tiny_onnx):
    s = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False))
    yield s
    s.close()


def test_every_claim_gets_a_verdict_with_evidence(scorer):
    [v] = scorer.score([parse_response(RESPONSE)])
    texts = [c.text for c in v.claims]
    assert texts == ["Refunds are available for up to 60 days.", 'The fee is "non-refundable after shipping".',
                     "Orders ship within 2 business days.", "Orders arrive in a week.", "Hope this helps!"]
    assert v.claims[-1].verdict is Verdict.SKIPPED and v.claims[-1].reason == "offer_of_help"
    for c in v.claims[:-1]:
        assert c.evidence, c.text
        for e in c.evidence:
            assert set(e.passage_ids) <= {"p1", "p2"}
            assert e.entailment + e.neutral + e.contradiction == pytest.approx(1.0, abs=1e-3)
            for pid, (start, end) in zip(e.passage_ids, e.offsets):
                assert 0 <= start < end
    quote = v.claims[1]
    assert quote.verdict is not Verdict.SUPPORTED and "failed_quote" in quote.flags
    assert v.doc_id == document_id("helpdesk", "acme", "r-1", v.scorer_version, content_hash(parse_response(RESPONSE)))
    record = v.to_dict()
    json.dumps(record)
    assert record["claims"][0]["verdict"] in {"SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"}
    assert record["metadata"] == {"app": "helpdesk", "tenant": "acme"}
    assert record["passages"][0]["id"] == "p1"


def test_pairs_of_all_responses_share_batches(tiny_onnx):
    # a wait long enough that a busy machine still submits every response's pairs inside it (at the default
    # 5 ms, a CI machine under load flushed a batch per response)
    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, max_wait_ms=500))
    try:
        responses = [parse_response(dict(RESPONSE, request_id=f"r-{i}", answer=f"Orders ship within {i} days."))
                     for i in range(6)]
        out = scorer.score(responses)
        assert [v.request_id for v in out] == [f"r-{i}" for i in range(6)]
        assert scorer.batcher.stats.batches < 6
    finally:
        scorer.close()


def test_one_failing_response_does_not_sink_the_batch(scorer, monkeypatch):
    good = parse_response(RESPONSE)
    bad = parse_response(dict(RESPONSE, request_id="boom"))
    original = scorer._prepare

    def prepare(response, deadline=None):
        if response.request_id == "boom":
            raise ValueError("evidence index broke")
        return original(response, deadline)

    monkeypatch.setattr(scorer, "_prepare", prepare)
    out = scorer.score([good, bad, good])
    assert isinstance(out[1], ScoringError) and "evidence index broke" in str(out[1])
    assert out[0].request_id == out[2].request_id == "r-1"


def test_given_claims_are_used_as_given(scorer):
    [v] = scorer.score([parse_response(dict(RESPONSE, claims=["Orders ship within 2 business days."]))])
    assert [c.text for c in v.claims] == ["Orders ship within 2 business days."]


def test_response_without_passages_is_not_enough_info(scorer):
    [v] = scorer.score([parse_response({"request_id": "x", "answer": "The sky is green.", "passages": []})])
    assert v.claims[0].verdict is Verdict.NOT_ENOUGH_INFO and "no_evidence" in v.claims[0].flags
    assert not v.response.all_supported


def test_guards_are_named_checks_with_their_evidence_sentence(scorer):
    [v] = scorer.score([parse_response(RESPONSE)])
    texts = {p["id"]: p["text"] for p in RESPONSE["passages"]}
    refund = v.claims[0]
    dropped = next(c for c in refund.checks if c.name == "dropped_condition")
    assert not dropped.passed and dropped.flag == "dropped_condition" and "dropped_condition" in refund.flags
    assert refund.verdict is not Verdict.SUPPORTED
    sentence = dropped.evidence
    assert texts[sentence.passage_id][sentence.start:sentence.end].startswith("Enterprise customers may request")
    # "available" keeps "may request" (what is available is asked for); the group and the approval are dropped
    assert {c["kind"] for c in dropped.found["conditions"]} >= {"restricted_group", "approval"}
    assert refund.evidence_sentences[0] == sentence  # the sentence that fired comes first
    for claim in v.claims[:-1]:  # (none when the deciding chunk shares no content word with the claim)
        for s in claim.evidence_sentences:
            assert texts[s.passage_id][s.start:s.end] == s.text
    record = json.loads(json.dumps(v.to_dict()))
    assert record["claims"][0]["evidence_sentences"][0]["start"] == sentence.start


def test_each_guard_can_be_switched_off(tiny_onnx):
    from groundwatch.config.scorer import GuardsConfig

    off = GuardsConfig(polarity=False, dropped_condition=False, arithmetic=False)
    s = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, guards=off))
    try:
        [v] = s.score([parse_response(RESPONSE)])
    finally:
        s.close()
    names = {c.name for claim in v.claims for c in claim.checks}
    assert not names & {"polarity", "dropped_condition", "arithmetic"}
    assert v.claims[0].evidence_sentences  # evidence sentences are recorded either way


def test_a_bare_yes_is_checked_as_the_statement_it_makes(scorer, tiny_onnx):
    asked = dict(RESPONSE, question="Can I still get a refund? I bought it 45 days ago.",
                 answer="Yes. Orders ship within 2 business days.")
    [v] = scorer.score([parse_response(asked)])
    yes = v.claims[0]
    assert yes.text == "If you bought it 45 days ago, you can still get a refund." and yes.span == (0, 4)
    assert yes.verdict is not Verdict.SKIPPED and yes.evidence
    [v] = scorer.score([parse_response(dict(asked, question="How do refunds work?"))])
    assert v.claims[0].verdict is Verdict.SKIPPED and v.claims[0].reason == "bare_answer"
    s = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, yes_no_answers=False))
    try:
        [v] = s.score([parse_response(asked)])
    finally:
        s.close()
    assert v.claims[0].verdict is Verdict.SKIPPED


def test_the_nli_reads_a_verified_derived_number_as_its_operands(scorer, monkeypatch):
    seen = []
    submit = scorer.pairs.submit

    def spy(pairs, expires_at=None):
        seen.extend(hypothesis for _, hypothesis in pairs)
        return submit(pairs, expires_at)

    monkeypatch.setattr(scorer.pairs, "submit", spy)
    response = {"request_id": "r-op", "answer": "Partners receive 42 days of fully paid leave. Partners receive "
                "50 days of fully paid leave.",
                "passages": [{"id": "p1", "text": "Partners receive 6 weeks of fully paid leave.", "score": 0.8}]}
    [v] = scorer.score([parse_response(response)])
    assert "Partners receive 6 weeks of fully paid leave." in seen  # 42 days = 6 weeks, checked by the guard
    assert "Partners receive 50 days of fully paid leave." in seen  # a wrong number is read as written
    assert v.claims[0].text == "Partners receive 42 days of fully paid leave."  # the record keeps the claim
