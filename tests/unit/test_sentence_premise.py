"""The claim's best-aligned sentence as one more premise: support only (scorers/evidence/sentence_premise.py)."""

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.records import Evidence, Verdict
from groundwatch.scorers.evidence.retrieval import Candidate
from groundwatch.scorers.evidence.sentence_premise import sentence_candidate
from groundwatch.scorers.verdicts.thresholds import Thresholds

PASSAGE = ("Open Settings > Security to change your password. Reset links expire after 60 minutes. "
           "Sessions end after 30 days of inactivity.")


def chunk(text, start=0, pid="p1", rank=0):
    return Chunk(pid, text, start, start + len(text), rank)


def test_the_best_aligned_sentence_of_the_top_chunks_is_a_premise_with_its_offsets():
    other = chunk("Invoices are sent by email.", pid="p2", rank=1)
    candidates = [Candidate((chunk(PASSAGE),), 0.7), Candidate((other,), 0.4),
                  Candidate((chunk(PASSAGE), other), 0.4)]
    s = sentence_candidate("The reset link you get stays valid for 60 minutes.", candidates)
    assert s.kind == "sentence" and s.retrieval_score == 0.7
    [c] = s.chunks
    assert c.text == "Reset links expire after 60 minutes." and PASSAGE[c.start:c.end] == c.text


def test_no_sentence_premise_without_shared_content_or_when_the_chunk_is_the_sentence():
    candidates = [Candidate((chunk(PASSAGE),), 0.7)]
    assert sentence_candidate("Dogs are not allowed in the office.", candidates) is None
    single = [Candidate((chunk("Reset links expire after 60 minutes."),), 0.7)]
    assert sentence_candidate("Reset links are valid for 60 minutes.", single) is None


def test_a_sentence_premise_supports_but_never_contradicts_on_its_own():
    t = Thresholds(0.65, 0.90)
    sentence = lambda e, c: Evidence(["p1"], [(50, 86)], e, round(1 - e - c, 4), c, 0.7, "sentence")  # noqa: E731
    whole = Evidence(["p1"], [(0, 150)], 0.55, 0.40, 0.05, 0.7, "chunk")
    assert decide([whole, sentence(0.85, 0.05)], [], t)[0] is Verdict.SUPPORTED
    assert decide([whole, sentence(0.02, 0.97)], [], t)[0] is Verdict.NOT_ENOUGH_INFO
    assert decide([Evidence(["p1"], [(0, 150)], 0.02, 0.03, 0.95, 0.7, "chunk")], [], t)[0] is Verdict.CONTRADICTED
