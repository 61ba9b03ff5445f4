"""Documents in, source-linked statements out; the on-disk statement store."""

import json

import pytest

from groundwatch.audit.documents import CorpusError, Document, batches, read_jsonl
from groundwatch.scorers.times import parse_time as parse_date
from groundwatch.audit.statements import statements_of
from groundwatch.audit.store import StatementStore

TEXT = """Refund policy

How do I get a refund? Refunds are available within 30 days of purchase. Approved refunds go back to the card.
- Add-on packs are refunded with their plan.
- Gift cards

See the FAQ."""


def test_statements_point_back_into_the_document():
    doc = Document("kb-1", "Refunds", TEXT)
    statements = statements_of(doc)
    assert [s.text for s in statements] == ["Refunds are available within 30 days of purchase.",
                                            "Approved refunds go back to the card.",
                                            "Add-on packs are refunded with their plan.", "See the FAQ."]
    for s in statements:
        assert TEXT[s.start:s.end] == s.text and s.doc_id == "kb-1"
    assert [s.index for s in statements] == sorted({s.index for s in statements})
    assert statements[0].index == 2  # sentence 0 is the heading and 1 a question: no statements
    assert statements[0].facts[0].key == "refund | available within purchase"


def test_read_jsonl_streams_documents_and_names_bad_lines(tmp_path):
    path = tmp_path / "corpus.jsonl"
    path.write_text(json.dumps({"doc_id": 7, "title": "T", "text": "Hello there, world.", "updated_at": "2025-01-02"})
                    + "\n\n" + "{not json\n")
    docs = read_jsonl(path)
    first = next(docs)
    assert first == Document("7", "T", "Hello there, world.", "2025-01-02", None)
    with pytest.raises(CorpusError, match="line 3"):
        next(docs)
    path.write_text(json.dumps({"title": "no id", "text": "x"}) + "\n")
    with pytest.raises(CorpusError, match="doc_id is missing"):
        list(read_jsonl(path))


def test_dates_compare_whatever_their_form():
    assert parse_date("2025-06-01") < parse_date("2025-06-01T10:00:00Z") < parse_date("2025-06-02T00:00:00+00:00")
    assert parse_date("last tuesday") is None and parse_date(None) is None


def test_batches_cover_everything_in_order():
    assert list(batches(iter(range(7)), 3)) == [[0, 1, 2], [3, 4, 5], [6]]


def test_store_groups_statements_by_fact_key(tmp_path):
    store = StatementStore(tmp_path / "s.sqlite")
    a = statements_of(Document("a", "A", "Refunds are available within 30 days. The sky is blue today."))
    b = statements_of(Document("b", "B", "Refunds are available within 14 days."))
    ids = store.add(a) + store.add(b)
    store.commit()
    assert ids == [0, 1, 2] and store.count == 3
    assert list(store.key_groups(10)) == [("refund | available within", [0, 2])]
    assert store.get([2])[2].text == "Refunds are available within 14 days."
    assert [s.text for s in store.of_document("a")] == [s.text for s in a]
    store.close()
