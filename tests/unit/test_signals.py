"""Response signals: stale evidence, off-topic answers, corpus lookups (with a fake corpus and
fake model scores), and their place in the verdict record and the OpenSearch mapping."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np

from groundwatch.config.corpus import CorpusSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.export.opensearch_mapping import MAPPINGS, to_document
from groundwatch.scorers.evidence.corpus_check import CorpusChecker, CorpusDoc, CorpusUnavailable
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.records import Evidence, NLIScores, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.signals import add_signals
from groundwatch.scorers.evidence.stale import Source, find_stale
from groundwatch.scorers.verdicts.thresholds import Thresholds
from tests.unit.verdicts import claim, verdict

OLD = "Refunds are available within 30 days of purchase. Shipping is free."
NEW = "Refunds are available within 14 days of purchase. Exchanges are free."


def _supported(text="Refunds are available within 30 days.", pid="p-old"):
    return claim(0, Verdict.SUPPORTED, text=text,
                 evidence=[Evidence([pid], [(0, 49)], 0.95, 0.03, 0.02, 0.9, "chunk")])


def test_a_claim_supported_by_an_older_passage_is_flagged_with_both_named():
    c = _supported()
    found = find_stale([c], [Source("p-old", OLD, "2025-01-10"), Source("p-new", NEW, "2026-02-01T00:00:00Z")])
    assert [(s.passage_id, s.newer_id, s.value, s.newer_value, s.source) for s in found] == [
        ("p-old", "p-new", "30 days", "14 days", "retrieved")]
    assert found[0].key == "refund | available within purchase" and found[0].updated_at == "2025-01-10"
    assert "stale_evidence" in c.flags


def test_no_flag_when_the_support_is_the_newer_one_or_dates_are_missing():
    assert find_stale([_supported()], [Source("p-old", OLD, "2026-03-01"), Source("p-new", NEW, "2026-02-01")]) == []
    assert find_stale([_supported()], [Source("p-old", OLD, None), Source("p-new", NEW, "2026-02-01")]) == []
    assert find_stale([_supported()], [Source("p-old", OLD, "2025-01-01"), Source("p-new", "Shipping is "
                                       "free within 3 days.", "2026-02-01")]) == []
    unsupported = claim(0, Verdict.NOT_ENOUGH_INFO)
    assert find_stale([unsupported], [Source("p1", OLD, "2025-01-01"), Source("p2", NEW, "2026-01-01")]) == []


def test_a_paraphrased_claim_is_matched_by_its_value():
    c = _supported("You can get your money back for up to 30 days.")
    found = find_stale([c], [Source("p-old", OLD, "2025-01-10"), Source("kb-9", NEW, "2026-02-01", "corpus")])
    assert [(s.newer_id, s.source) for s in found] == [("kb-9", "corpus")]


class _Embedder:
    """Questions about refunds point one way, everything else another."""

    def encode(self, texts):
        return np.array([[1.0, 0.0] if "refund" in t.lower() else [0.0, 1.0] for t in texts])


def _response(**kw):
    base = {"request_id": "r-1", "answer": "Refunds are available within 30 days.",
            "passages": [{"id": "p-old", "text": OLD, "updated_at": "2025-01-10"},
                         {"id": "p-new", "text": NEW, "updated_at": "2026-02-01"}]}
    return parse_response({**base, **kw})


def test_add_signals_sets_off_topic_relevance_and_stale_evidence():
    config = ScorerConfig(off_topic_threshold=0.5)
    on, off, none = verdict([_supported()]), verdict([_supported()], request_id="r-2"), verdict([_supported()])
    responses = [_response(question="How long do refunds take?"),
                 _response(question="What colour is the sky?"), _response()]
    add_signals([on, off, none], responses, config, embedder=_Embedder())
    assert on.relevance == {"similarity": 1.0, "threshold": 0.5, "off_topic": False}
    assert off.relevance["off_topic"] and "off_topic" in off.flags and "off_topic" not in on.flags
    assert none.relevance is None
    short = verdict([_supported()])
    add_signals([short], [_response(question="What colour is the sky?", answer="Refunds: 30 days.")], config,
                embedder=_Embedder())
    assert short.relevance is None and "off_topic" not in short.flags  # too short to judge
    assert [s.newer_id for s in on.stale_evidence] == ["p-new"] and "stale_evidence" in on.flags


def test_signals_can_be_switched_off():
    v = verdict([_supported()])
    add_signals([v], [_response(question="What colour is the sky?")],
                ScorerConfig(stale_evidence=False, off_topic=False), embedder=_Embedder())
    assert v.relevance is None and v.stale_evidence == [] and v.flags == []


class _Corpus:
    name = "kb"

    def __init__(self, docs, fail=False):
        self.docs, self.fail, self.queries = docs, fail, []

    def search(self, text, k, vector=None):
        self.queries.append(text)
        if self.fail:
            raise CorpusUnavailable("down")
        return self.docs[:k]


class _Pairs:
    """Entails when the premise states the claim's number."""

    def submit(self, pairs):
        out = []
        for premise, hypothesis in pairs:
            f = Future()
            hit = any(w in premise for w in hypothesis.split() if w.isdigit())
            f.set_result(NLIScores(0.97, 0.02, 0.01) if hit else NLIScores(0.05, 0.9, 0.05))
            out.append(f)
        return out


def _checker(corpus, **settings):
    return CorpusChecker(corpus, CorpusSettings(enabled=True, **settings), _Pairs(),
                         Thresholds.from_config(ScorerConfig()))


def test_corpus_lookup_tells_a_retrieval_miss_from_an_unsupported_claim():
    docs = [CorpusDoc("kb-7", "Premium support answers within 60 minutes.", "2026-01-01"),
            CorpusDoc("kb-8", "Refunds take 14 days.")]
    v = verdict([claim(0, Verdict.NOT_ENOUGH_INFO, text="Support answers within 60 minutes."),
                 claim(1, Verdict.NOT_ENOUGH_INFO, text="Support is open 24 hours a day."),
                 claim(2, Verdict.SUPPORTED)])
    found = _checker(_Corpus(docs)).check([v], Deadline(5.0))
    miss, unsupported, supported = v.claims
    assert miss.corpus["outcome"] == "retrieval_miss" and miss.corpus["evidence_ids"][0] == "kb-7"
    assert miss.corpus["entailment"] == 0.97 and "retrieval_miss" in miss.flags
    assert miss.verdict is Verdict.NOT_ENOUGH_INFO  # the verdict on the logged passages stands
    assert unsupported.corpus["outcome"] == "unsupported_by_corpus" and "unsupported_by_corpus" in unsupported.flags
    assert supported.corpus is None  # only claims the logged passages leave unsupported
    assert set(v.flags) >= {"retrieval_miss", "unsupported_by_corpus"}
    assert [d.id for d in found[id(v)]][:2] == ["kb-7", "kb-8"]


def test_corpus_cost_is_bounded_by_claims_and_deadline():
    corpus = _Corpus([CorpusDoc("kb-1", "Refunds take 14 days.")])
    v = verdict([claim(i, Verdict.NOT_ENOUGH_INFO) for i in range(5)])
    _checker(corpus, max_claims=2).check([v], Deadline(5.0))
    assert len(corpus.queries) == 2 and [c.corpus is not None for c in v.claims] == [True, True, False, False, False]

    late = verdict([claim(0, Verdict.NOT_ENOUGH_INFO)])
    _checker(corpus).check([late], Deadline(0.0))
    assert late.claims[0].corpus == {"outcome": "skipped", "reason": "deadline", "evidence_ids": [], "index": "kb"}
    down = verdict([claim(0, Verdict.NOT_ENOUGH_INFO)])
    _checker(_Corpus([], fail=True)).check([down], Deadline(5.0))
    assert down.claims[0].corpus["reason"] == "unavailable" and down.claims[0].flags == []


def _unmapped(doc, mapping, path=""):
    out = []
    for key, value in doc.items():
        spec = mapping.get(key)
        if spec is None:
            out.append(path + key)
        elif isinstance(value, dict) and "properties" in spec:
            out += _unmapped(value, spec["properties"], path + key + ".")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for item in value:
                out += _unmapped(item, spec["properties"], path + key + ".")
    return out


def test_every_new_field_is_mapped():
    v = verdict([claim(0, Verdict.NOT_ENOUGH_INFO, evidence=[]), _supported()])
    _checker(_Corpus([CorpusDoc("kb-1", "Refunds take 30 days.")])).check([v], Deadline(5.0))
    add_signals([v], [_response(question="How long do refunds take?")], ScorerConfig(), embedder=_Embedder())
    doc = to_document(v)
    assert doc["stale_evidence"] and doc["relevance"] and doc["claims"][0]["corpus"]
    new = {k: doc[k] for k in ("stale_evidence", "relevance")}
    new["claims"] = [{"corpus": c["corpus"]} for c in doc["claims"] if c["corpus"]]
    assert _unmapped(new, MAPPINGS["properties"]) == []
