"""Evidence sentences: the best-aligned sentence(s) of a chunk, with passage offsets."""

from groundwatch.scorers.evidence.chunking import Chunk, chunk_passages
from groundwatch.scorers.guards.evidence import align, chunk_sentences, evidence_sentences
from groundwatch.scorers.english.lemmas import analyse
from groundwatch.scorers.schema import Passage

TEXT = ("Acme Cloud subscriptions can be refunded within 30 days of the original purchase date. "
        "To request a refund, open Billing > Invoices. Enterprise customers may extend the refund window to "
        "60 days, but only with written approval. Approved refunds are returned within 5 to 10 business days.")


def test_sentence_offsets_point_into_the_passage():
    passage = Passage(id="p1", text="Intro sentence here. " + TEXT)
    chunks = chunk_passages([passage], sentences=2, overlap=1)
    sentences = chunk_sentences(chunks)
    assert len({(s.passage_id, s.start) for s in sentences}) == len(sentences)  # overlap counted once
    for s in sentences:
        assert passage.text[s.start:s.end] == s.text


def test_best_aligned_sentence_first():
    chunk = Chunk("p1", TEXT, 100, 100 + len(TEXT), 0)
    best = evidence_sentences("Refunds are available for up to 60 days.", [chunk], limit=1)[0]
    assert best.text.startswith("Enterprise customers") and best.start > 100 and best.coverage > 0.5
    assert best.to_record()["passage_id"] == "p1"


def test_a_second_sentence_only_when_it_adds_claim_content():
    chunk = Chunk("p1", TEXT, 0, len(TEXT), 0)
    found = evidence_sentences("Subscriptions can be refunded within 30 days from Billing > Invoices.", [chunk])
    assert [s.text[:10] for s in found] == ["Acme Cloud", "To request"]


def test_alignment_counts_synonyms_antonyms_numbers_and_prefixes():
    assert analyse("sixty days").content == analyse("60 day").content
    ranked = align("Cosmetic procedures are covered.", chunk_sentences(
        [Chunk("p1", "Dental care is included. Cosmetic procedures are excluded.", 0, 58, 0)]))
    assert ranked[0].text == "Cosmetic procedures are excluded." and ranked[0].shared == 3
    ranked = align("The archive is available.", chunk_sentences(
        [Chunk("p1", "The archive is unavailable.", 0, 27, 0)]))
    assert ranked[0].shared == 2
