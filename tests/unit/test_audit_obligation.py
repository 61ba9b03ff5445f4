"""The corpus audit finds a requirement and an exemption for the same thing across documents, model-free,
whatever the wording; other groups and a requirement's stated exception are not conflicts.

Candidates come from sentence-embedding neighbours, so the MiniLM embedder runs; no NLI model does.
"""

from itertools import combinations
from types import SimpleNamespace

import pytest

from groundwatch.audit.audit import AuditConfig, audit_corpus
from groundwatch.audit.conflicts import relate
from groundwatch.audit.documents import Document
from groundwatch.audit.statements import Statement, statements_of
from groundwatch.scorers.evidence.retrieval import Embedder
from groundwatch.scorers.verdicts.thresholds import Thresholds
from tests.unit.audit_truth import documents

POLICY = Document("security-policy", "Security policy", "Employees are required to complete security training "
                  "every year. Laptops must be locked when unattended. Visitors must sign in at the front desk unless "
                  "they hold a staff badge.", "2024-03-01")
FAQ = Document("hr-faq", "HR FAQ", "Annual security training is optional for employees. Visitors with a staff badge "
               "do not need to sign in at the front desk. The canteen opens at 8 am.", "2026-02-10")
LAB = Document("lab-rules", "Lab rules", "Interns are exempt from security training. Safety glasses are mandatory "
               "in the lab.", "2025-06-01")


@pytest.fixture(scope="module")
def model_free_scorer():
    return SimpleNamespace(embedder=Embedder(), pairs=None, thresholds=Thresholds(), model=None)


def _statement(text: str, doc_id: str = "d") -> Statement:
    return Statement(doc_id, 0, 0, len(text), text)


@pytest.mark.parametrize("a, b", [
    ("Employees are required to complete security training every year.",
     "Annual security training is optional for employees."),
    ("The update must be installed.", "Installing the update is optional."),
    ("A receipt is required for all returns.", "Customers do not have to provide a receipt for returns."),
])
def test_requirement_against_exemption_relates_as_obligation_both_ways(a, b):
    assert relate(_statement(a), _statement(b))[0] == "obligation"
    assert relate(_statement(b), _statement(a))[0] == "obligation"


def test_only_the_unexcepted_requirement_conflicts_across_documents(model_free_scorer):
    report = audit_corpus([POLICY, FAQ, LAB], model_free_scorer, AuditConfig(progress=False))
    found = [c for c in report.conflicts if "obligation" in c.signals]
    assert len(found) == 1, [(c.doc_ids, [s["text"] for s in c.statements]) for c in report.conflicts]
    conflict = found[0]
    assert conflict.kind == "inter" and conflict.doc_ids == ["hr-faq", "security-policy"]
    texts = {s["doc_id"]: s["text"] for s in conflict.statements}
    assert texts == {"security-policy": "Employees are required to complete security training every year.",
                     "hr-faq": "Annual security training is optional for employees."}
    assert conflict.pairs[0]["signals"] == ["obligation"]


@pytest.mark.parametrize("corpus", ["clean", "mixed", "degraded", "conflicts"])
def test_no_two_statements_of_the_constructed_corpora_relate_as_obligation(corpus):
    # every pair, not only the embedding neighbours the audit would compare: none was written as one
    statements = [s for d in documents(corpus) for s in statements_of(d)]
    found = [(a.text, b.text) for a, b in combinations(statements, 2) if relate(a, b)[0] == "obligation"]
    assert found == []
