"""The corpus audit finds polarity conflicts across documents (the guard's logic), model-free, with provenance.

Candidates come from sentence-embedding neighbours, so the MiniLM embedder runs;
no NLI model does (`pairs` is None): only the model-free signals can fire.
"""

from types import SimpleNamespace

import pytest

from groundwatch.audit.audit import AuditConfig, audit_corpus
from groundwatch.audit.documents import Document
from groundwatch.scorers.evidence.retrieval import Embedder
from groundwatch.scorers.verdicts.thresholds import Thresholds
from tests.unit.audit_truth import documents

HANDBOOK = Document("office-handbook", "Office handbook", "Visitors must sign in at the front desk. Meeting rooms "
                    "are booked in the calendar. The kitchen is cleaned every evening.", "2024-02-01")
FACILITIES = Document("facilities-faq", "Facilities FAQ", "Since the new gates opened, visitors do not need to "
                      "sign in at the front desk. Parking is free for visitors on weekdays.", "2025-09-15")
SECURITY = Document("security-policy", "Security policy", "Laptops must be locked when unattended. Contractors do "
                    "not need to wear a badge inside the lab.", "2025-01-10")


@pytest.fixture(scope="module")
def model_free_scorer():
    return SimpleNamespace(embedder=Embedder(), pairs=None, thresholds=Thresholds(), model=None)


def test_must_sign_in_against_need_not_sign_in_is_found_across_documents(model_free_scorer):
    report = audit_corpus([HANDBOOK, FACILITIES, SECURITY], model_free_scorer, AuditConfig(progress=False))
    polar = [c for c in report.conflicts if "polarity" in c.signals]
    assert len(polar) == 1, [(c.doc_ids, c.signals) for c in report.conflicts]
    conflict = polar[0]
    assert conflict.kind == "inter" and conflict.doc_ids == ["facilities-faq", "office-handbook"]
    texts = {s["doc_id"]: s for s in conflict.statements}
    assert texts["office-handbook"]["text"] == "Visitors must sign in at the front desk."
    assert "do not need to sign in" in texts["facilities-faq"]["text"]
    for doc in (HANDBOOK, FACILITIES):
        ref = texts[doc.doc_id]
        start, end = ref["offsets"]
        assert doc.text[start:end] == ref["text"] and ref["title"] == doc.title and ref["updated_at"]
    assert conflict.pairs[0]["signals"] == ["polarity"]


def test_clean_corpus_has_no_polarity_conflict(model_free_scorer):
    report = audit_corpus(documents("clean"), model_free_scorer, AuditConfig(progress=False))
    assert [c for c in report.conflicts + report.internal_contradictions if "polarity" in c.signals] == []
