"""`groundwatch recall-probe` against a real osmem index, real HTTP retrievers and real
metric receivers (a Pushgateway-style endpoint and Prometheus).

osmem answers `knn` queries with "not supported", so k-NN against OpenSearch can only be
checked for its error here; hybrid fusion is checked with osmem BM25 fused with a dense
ranking that an HTTP retriever computes from real all-MiniLM-L6-v2 embeddings.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from opensearchpy import OpenSearch, helpers
from prometheus_client.parser import text_string_to_metric_families

from groundwatch.cli import main
from infra.server import free_port
from groundwatch.recall_probe.probe import run_probe
from groundwatch.recall_probe.probe_set import load_probes
from groundwatch.recall_probe.retrievers import Hybrid, HttpRetriever, OpenSearchBM25

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "probes"
PROBES, CORPUS = EXAMPLES / "probes.jsonl", EXAMPLES / "corpus.jsonl"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# Written out here rather than imported, so the figures are checked independently.
def _expected(rankings: list[list[str]], golds: list[list[str]], ks: list[int]) -> tuple[dict, float]:
    recall = {str(k): sum(len(set(g) & set(r[:k])) / len(g) for r, g in zip(rankings, golds)) / len(golds)
              for k in ks}
    firsts = [next((1 / (i + 1) for i, pid in enumerate(r) if pid in g), 0.0) for r, g in zip(rankings, golds)]
    return recall, sum(firsts) / len(firsts)


class _Server:
    """A real HTTP server on loopback; `answer(method, path, body) -> (status, bytes)`."""

    def __init__(self, answer: Callable[[str, str, bytes], tuple[int, bytes]]):
        self.requests: list[tuple[str, str, bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.requests.append((self.command, self.path, body))
                status, payload = answer(self.command, self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_POST = do_PUT = _handle

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve():
    servers: list[_Server] = []

    def start(answer) -> _Server:
        servers.append(_Server(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def corpus_index(opensearch_url: str) -> str:
    client = OpenSearch(hosts=[opensearch_url])
    index = f"gw-probe-{uuid.uuid4().hex[:8]}"
    client.indices.create(index=index, body={"mappings": {"properties": {
        "text": {"type": "text"}, "title": {"type": "text"}, "section": {"type": "keyword"}}}})
    helpers.bulk(client, ({"_index": index, "_id": p["id"], "_source": p} for p in _lines(CORPUS)), refresh=True)
    return index


@pytest.fixture(scope="module")
def embedder():
    from groundwatch.scorers.evidence.retrieval import Embedder

    return Embedder()


def test_bm25_probe_on_osmem_matches_independent_figures(opensearch_url, corpus_index, tmp_path, capsys):
    out = tmp_path / "probe.json"
    assert main(["recall-probe", "--input", str(PROBES), "--retriever", "opensearch", "--opensearch-url",
                 opensearch_url, "--index", corpus_index, "--mode", "bm25", "--k", "1,5,10",
                 "--output", str(out)]) == 0
    table = capsys.readouterr().out
    result = json.loads(out.read_text())

    client = OpenSearch(hosts=[opensearch_url])
    probes = _lines(PROBES)
    rankings = [[hit["_id"] for hit in client.search(index=corpus_index, body={
        "size": 10, "query": {"match": {"text": p["query"]}}})["hits"]["hits"]] for p in probes]
    recall, mrr = _expected(rankings, [p["gold_passage_ids"] for p in probes], [1, 5, 10])

    assert [q["ranked_ids"] for q in result["per_query"]] == rankings
    assert result["recall_at_k"] == pytest.approx(recall)
    assert result["mrr"] == pytest.approx(mrr)
    assert result["queries"] == 30 and result["mode"] == "bm25"
    assert recall["10"] > 0.6  # the example set is answerable by BM25
    assert recall["1"] <= recall["5"] <= recall["10"]
    assert f"{recall['5']:8.3f}" in table and f"{mrr:8.3f}" in table


def test_knn_query_is_refused_by_osmem_with_a_clear_error(opensearch_url, corpus_index, tmp_path, capsys):
    probes = tmp_path / "vector-probes.jsonl"
    probes.write_text(json.dumps({"query": "reset password", "gold_passage_ids": ["kb-account-01"],
                                  "query_vector": [0.1] * 384}) + "\n")
    assert main(["recall-probe", "--input", str(probes), "--retriever", "opensearch", "--opensearch-url",
                 opensearch_url, "--index", corpus_index, "--mode", "knn"]) == 2
    err = capsys.readouterr().err
    assert "retrieval failed" in err and "knn" in err and "not supported" in err


def test_hybrid_fuses_osmem_bm25_with_a_dense_http_ranking(opensearch_url, corpus_index, embedder, serve):
    passages = _lines(CORPUS)
    vectors = embedder.encode([p["text"] for p in passages])

    def dense(method, path, body):
        request = json.loads(body)
        scores = vectors @ embedder.encode([request["query"]])[0]
        order = np.argsort(-scores, kind="stable")[:request["k"]]
        return 200, json.dumps({"passage_ids": [passages[i]["id"] for i in order]}).encode()

    server = serve(dense)
    client = OpenSearch(hosts=[opensearch_url])
    bm25, knn = OpenSearchBM25(client, corpus_index), HttpRetriever(server.url)
    probes = load_probes(PROBES)
    result = run_probe(probes, Hybrid([bm25, knn]), [5, 10]).to_dict()

    golds = [list(p.gold_ids) for p in probes]
    for probe, row in zip(probes, result["per_query"]):
        lists = [bm25.ranked_ids(probe, 10), knn.ranked_ids(probe, 10)]
        score = {pid: sum(1 / (60 + r.index(pid) + 1) for r in lists if pid in r) for r_ in lists for pid in r_}
        fused = row["ranked_ids"]
        assert len(fused) == 10 and set(fused) <= set(score)
        assert all(score[a] >= score[b] for a, b in zip(fused, fused[1:]))
        assert min(score[p] for p in fused) >= max((s for p, s in score.items() if p not in fused), default=0)
    recall, mrr = _expected([row["ranked_ids"] for row in result["per_query"]], golds, [5, 10])
    assert result["recall_at_k"] == pytest.approx(recall) and result["mrr"] == pytest.approx(mrr)
    dense_only = run_probe(probes, knn, [10]).recall(10)
    assert dense_only > 0.8  # real embeddings find paraphrased help-center answers


def test_http_retriever_mode_and_pushgateway(tmp_path, serve, capsys):
    probes = _lines(PROBES)
    corpus_ids = [p["id"] for p in _lines(CORPUS)]
    # A fixed ranking per query: the first gold id at rank (line % 8) + 1; ranks past 10 miss.
    fixed = {}
    for line, p in enumerate(probes, start=1):
        others = [pid for pid in corpus_ids if pid not in p["gold_passage_ids"]]
        ranking = others[:line % 8] + [p["gold_passage_ids"][0]] + others[line % 8:]
        fixed[p["query"]] = ranking if line % 5 else others  # every fifth query misses entirely
    retriever = serve(lambda method, path, body: (200, json.dumps(
        {"passage_ids": fixed[json.loads(body)["query"]][:json.loads(body)["k"]]}).encode()))
    gateway = serve(lambda method, path, body: (200, b""))
    out = tmp_path / "probe.json"

    assert main(["recall-probe", "--input", str(PROBES), "--retriever", "http", "--url", retriever.url,
                 "--k", "3,5", "--output", str(out), "--pushgateway", gateway.url, "--job", "probe-test"]) == 0
    result = json.loads(out.read_text())
    recall, mrr = _expected([fixed[p["query"]][:5] for p in probes], [p["gold_passage_ids"] for p in probes], [3, 5])
    assert result["recall_at_k"] == pytest.approx(recall) and result["mrr"] == pytest.approx(mrr)
    assert {json.loads(body)["k"] for _, _, body in retriever.requests} == {5}
    missed = [line for line, p in enumerate(probes, start=1)
              if not set(p["gold_passage_ids"]) & set(fixed[p["query"]][:5])]
    assert len(missed) > 10  # the table names the first ten
    assert f"{len(missed)} (lines {', '.join(map(str, missed[:10]))} ...)" in capsys.readouterr().out

    [(method, path, body)] = gateway.requests
    assert (method, path) == ("PUT", "/metrics/job/probe-test")
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(body.decode()) for s in family.samples}
    assert samples[("groundwatch_recall_at_k", (("k", "3"), ("source", "probe")))] == pytest.approx(recall["3"])
    assert samples[("groundwatch_recall_at_k", (("k", "5"), ("source", "probe")))] == pytest.approx(recall["5"])
    assert samples[("groundwatch_recall_probe_mrr", ())] == pytest.approx(mrr)


def test_http_retriever_errors_are_reported(serve, capsys):
    broken = serve(lambda method, path, body: (500, b"{}"))
    assert main(["recall-probe", "--input", str(PROBES), "--retriever", "http", "--url", broken.url]) == 2
    assert "answered 500" in capsys.readouterr().err
    assert main(["recall-probe", "--input", str(PROBES), "--retriever", "http"]) == 2
    assert "needs --url" in capsys.readouterr().err


def test_served_metrics_are_scraped_by_prometheus(opensearch_url, corpus_index, prometheus_factory, tmp_path):
    port = free_port()
    prometheus = prometheus_factory([f"127.0.0.1:{port}"])
    out = tmp_path / "probe.json"
    codes: list[int] = []
    run = threading.Thread(target=lambda: codes.append(main([
        "recall-probe", "--input", str(PROBES), "--retriever", "opensearch", "--opensearch-url", opensearch_url,
        "--index", corpus_index, "--output", str(out), "--metrics-host", "127.0.0.1",
        "--metrics-port", str(port), "--serve-timeout", "60"])))
    run.start()
    run.join(90)
    assert codes == [0], "the probe was never scraped"

    # A range selector: once the probe has exited, Prometheus marks the series stale.
    query = urllib.parse.quote('groundwatch_recall_at_k{source="probe"}[5m]')
    series = {}
    for _ in range(50):
        with urllib.request.urlopen(f"{prometheus.url}/api/v1/query?query={query}", timeout=5) as answer:
            series = {r["metric"]["k"]: float(r["values"][-1][1]) for r in json.load(answer)["data"]["result"]}
        if series:
            break
        time.sleep(0.2)
    expected = json.loads(out.read_text())["recall_at_k"]
    assert series == pytest.approx({k: v for k, v in expected.items()})
