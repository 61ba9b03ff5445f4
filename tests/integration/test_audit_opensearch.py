"""audit-corpus reads an OpenSearch index (osmem-server on loopback) page by page."""

from __future__ import annotations

import json
import uuid

import pytest
from opensearchpy import OpenSearch
from opensearchpy.helpers import bulk

from groundwatch.audit.documents import read_jsonl, read_opensearch
from groundwatch.cli import main
from tests.unit.audit_truth import CORPORA

pytestmark = pytest.mark.integration


@pytest.fixture
def corpus_index(opensearch_url: str):
    client = OpenSearch(hosts=[opensearch_url])
    index = f"audit-{uuid.uuid4().hex[:8]}"
    docs = list(read_jsonl(CORPORA / "conflicts.jsonl"))
    # one document without doc_id in its source: the hit's _id stands in
    actions = [{"_index": index, "_id": d.doc_id,
                "_source": {k: v for k, v in vars(d).items() if not (k == "doc_id" and d.doc_id == "billing-faq")}}
               for d in docs]
    bulk(client, actions, refresh=True)
    yield client, index, docs
    client.indices.delete(index=index, ignore_unavailable=True)


def test_scroll_reads_every_document_across_pages(corpus_index):
    client, index, docs = corpus_index
    read = list(read_opensearch(client, index, page_size=7))
    assert sorted(read, key=lambda d: d.doc_id) == sorted(docs, key=lambda d: d.doc_id)


def test_cli_audits_an_index_like_the_file(corpus_index, opensearch_url, tmp_path):
    _, index, _ = corpus_index
    from_index, from_file = tmp_path / "index.json", tmp_path / "file.json"
    assert main(["audit-corpus", "--opensearch-url", opensearch_url, "--index", index, "--no-nli", "--no-progress",
                 "--output", str(from_index)]) == 0
    assert main(["audit-corpus", "--input", str(CORPORA / "conflicts.jsonl"), "--no-nli", "--no-progress",
                 "--output", str(from_file)]) == 0
    a, b = json.loads(from_index.read_text()), json.loads(from_file.read_text())
    summary = lambda r: sorted((c["doc_ids"], c["keys"]) for c in r["conflicts"])  # noqa: E731
    assert summary(a) == summary(b) and len(a["conflicts"]) == 5
    assert sorted(f["current"] for f in a["versions"]) == sorted(f["current"] for f in b["versions"])
