"""Documents traced without their text (the GenAI convention's id and score) are looked up by id in the
knowledge-base index the corpus lookup searches, on osmem-server; ids the index lacks stay flagged."""

from __future__ import annotations

import json
import uuid

import pytest
from opensearchpy import OpenSearch

from groundwatch import Checker
from tests.otlp_apps import App, Doc, genai_app

pytestmark = pytest.mark.integration

KB = {"kb-shipping": "Orders ship within 2 business days from our warehouse in Leeds.",
      "kb-holidays": "Our offices are closed on public holidays."}
ANSWER = "Orders ship within 2 business days from our warehouse in Leeds."


def _index(url: str, id_field: str | None) -> str:
    index = f"gw-kb-{uuid.uuid4().hex[:8]}"
    client = OpenSearch(hosts=[url])
    client.indices.create(index=index, body={"mappings": {"properties": {"text": {"type": "text"},
                                                                          "doc_id": {"type": "keyword"}}}})
    for doc_id, text in KB.items():
        body = {"text": text, **({id_field: doc_id} if id_field else {})}
        client.index(index=index, id=doc_id if not id_field else uuid.uuid4().hex, body=body)
    client.indices.refresh(index=index)
    return index


@pytest.mark.parametrize("id_field", [None, "doc_id"])
def test_missing_text_comes_from_the_passage_store(opensearch_url: str, id_field) -> None:
    index = _index(opensearch_url, id_field)
    app = App("help-desk")
    genai_app(app, "Where do orders ship from?", ANSWER,
              [Doc("kb-shipping", None, 0.9), Doc("kb-unknown", None, 0.5), Doc("kb-holidays", None, 0.2)])
    corpus = {"index": index, "vector_field": None, **({"id_field": id_field} if id_field else {})}
    with Checker(backend="fake", use_embeddings=False, opensearch={"url": opensearch_url}, corpus=corpus,
                 traces={"look_up_missing_text": True}) as checker:
        [result] = checker.check_spans(app.finished())
        record = result.to_dict()
        assert record["passage_ids"] == ["kb-shipping", "kb-holidays"]
        assert [p["text"] for p in record["passages"]] == [KB["kb-shipping"], KB["kb-holidays"]]
        assert record["metadata"]["passages_without_text"] == ["kb-unknown"]
        assert "passage_text_missing" in result.flags  # the one id the index lacks is said, not hidden
        assert {c.verdict for c in result.claims} == {"SUPPORTED"}
        same = checker.check_many([{"request_id": result.request_id, "question": "Where do orders ship from?",
                                    "answer": ANSWER, "timestamp": record["timestamp"],
                                    "passages": record["passages"], "metadata": record["metadata"]}])[0]
        assert json.dumps(same.to_dict()["claims"]) == json.dumps(record["claims"])


def test_an_unreachable_store_leaves_the_text_missing_and_flagged() -> None:
    app = App("help-desk")
    genai_app(app, "Where do orders ship from?", ANSWER, [Doc("kb-shipping", None, 0.9)])
    with Checker(backend="fake", use_embeddings=False, opensearch={"url": "http://127.0.0.1:9", "timeout_s": 1},
                 traces={"look_up_missing_text": True}) as checker:
        [result] = checker.check_spans(app.finished())
    assert "passage_text_missing" in result.flags and {c.verdict for c in result.claims} == {"NOT_ENOUGH_INFO"}
