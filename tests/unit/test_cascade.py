"""The evidence cascade (scorers/evidence/cascade.py): joined pairs are scored only for claims their single
premises leave open, and a settled claim keeps the verdict the single premises gave it."""

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.evidence.cascade import settled, single_premises
from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.nli.fake_backend import FakeBackend
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Check, Evidence, Verdict
from groundwatch.scorers.evidence.retrieval import Candidate
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

T = Thresholds(0.65, 0.90)


def ev(e, c, kind="chunk", rs=0.7):
    return Evidence(["p1"], [(0, 10)], e, round(1 - e - c, 4), c, rs, kind)


def test_single_premises_are_the_chunks_and_the_sentence_not_the_joined_pairs():
    a, b = Chunk("p1", "A.", 0, 2, 0), Chunk("p2", "B.", 0, 2, 1)
    cands = [Candidate((a,), 0.5), Candidate((b,), 0.4), Candidate((a, b), 0.4), Candidate((a,), 0.5, sentence=True)]
    assert single_premises(cands) == [0, 1, 3]


def test_a_claim_is_settled_only_where_its_single_premises_agree():
    assert settled([ev(0.9, 0.05), ev(0.2, 0.1)], [], T)                    # entailed, nothing contradicts
    assert settled([ev(0.02, 0.97), ev(0.3, 0.1)], [], T)                   # contradicted first, nothing entails
    assert settled([ev(0.9, 0.05, "sentence"), ev(0.3, 0.1)], [], T)        # the sentence premise supports
    assert not settled([ev(0.3, 0.2), ev(0.4, 0.1)], [], T)                 # open: the pairs may entail
    assert not settled([], [], T)
    # entailed, but a chunk reads contradiction (above its threshold or not): a pair's contradiction could win
    assert not settled([ev(0.98, 0.01), ev(0.03, 0.95)], [], T)
    assert not settled([ev(0.6, 0.39, rs=0.72), ev(0.23, 0.76, rs=0.58)], [], T)
    # contradicted, but another chunk entails: the joined text may entail more than the chunk contradicts
    assert not settled([ev(0.966, 0.031), ev(0.005, 0.967)], [], T)
    # the sentence premise never contradicts on its own, so it leaves the claim open
    assert not settled([ev(0.02, 0.97, "sentence"), ev(0.3, 0.1)], [], T)


def test_a_verified_mismatch_settles_whatever_the_premises_say():
    mismatch = Check("numbers", False, found={"mismatch": {"claimed": "30", "stated": "14", "converted": None}})
    capped = Check("numbers", False, found={"missing": ["30"]})
    assert settled([ev(0.3, 0.2)], [mismatch], T)
    assert not settled([ev(0.3, 0.2)], [capped], T)


RESPONSE = {
    "request_id": "c-1",
    "answer": "Refunds are accepted within 30 days of delivery. Refunds to the original card take 30 days.",
    "passages": [
        {"id": "p1", "text": "Refunds are accepted within 30 days of delivery.", "score": 0.9},
        {"id": "p2", "text": "Refunds go to the original card.", "score": 0.7},
        {"id": "p3", "text": "Card refunds take 30 days.", "score": 0.5},
    ],
}


@pytest.fixture(scope="module")
def backend(tiny_onnx):
    return FakeBackend(tiny_onnx)  # entailment = share of the claim's words found in the premise


def _score(backend, **config):
    scorer = Scorer(ScorerConfig(use_embeddings=False, context_conflicts=False, **config), backend)
    try:
        [verdict] = scorer.score([parse_response(RESPONSE)])
    finally:
        scorer.close()  # joins the batcher: a batch's count is recorded after its results are handed out
    return verdict, scorer.batcher.stats.pairs


def test_joined_pairs_are_scored_only_for_the_claim_no_single_premise_decides(backend):
    on, pairs_on = _score(backend)
    off, pairs_off = _score(backend, evidence_cascade=False)
    whole, split = on.claims
    assert [c.verdict for c in on.claims] == [c.verdict for c in off.claims] == [Verdict.SUPPORTED] * 2
    assert {e.kind for e in whole.evidence} == {"chunk"}             # one chunk holds it: settled
    assert "pair" in {e.kind for e in split.evidence}                # its support is split across two
    assert max(e.entailment for e in split.evidence if e.kind == "pair") > max(
        e.entailment for e in split.evidence if e.kind == "chunk")
    assert {e.kind for e in off.claims[0].evidence} == {"chunk", "pair"}
    assert pairs_on == pairs_off - 3                                 # the settled claim's three joined pairs
    # ranks are positions among all candidates, so a record re-decided for a smaller window still reads them
    assert sorted(e.rank for e in whole.evidence) == [0, 1, 2]
    assert sorted(e.rank for e in split.evidence) == sorted(e.rank for e in off.claims[1].evidence)


def test_candidate_pairs_are_every_premise_the_cascade_may_score(backend):
    scorer = Scorer(ScorerConfig(use_embeddings=False, context_conflicts=False), backend)
    try:
        [pairs] = scorer.candidate_pairs([parse_response(RESPONSE)])
    finally:
        scorer.close()
    off, _ = _score(backend, evidence_cascade=False)
    assert len(pairs) == sum(len(c.evidence) for c in off.claims) == 12  # 2 claims x (3 chunks + 3 joined pairs)
    assert {claim for _, claim in pairs} == {c.text for c in off.claims}
