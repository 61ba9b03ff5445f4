"""Builds the retriever a probe run replays its queries against (OpenSearch BM25 / k-NN / hybrid, or HTTP)."""

from __future__ import annotations

from groundwatch.config.settings import OpenSearchSettings
from groundwatch.recall_probe.retrievers import Hybrid, HttpRetriever, OpenSearchBM25, OpenSearchKNN, Retriever


def lazy_embedder():
    """all-MiniLM-L6-v2 loaded on first use: only k-NN probes without their own vector need it."""
    holder = {}

    def embed(texts):
        if "model" not in holder:
            from groundwatch.scorers.evidence.retrieval import Embedder

            holder["model"] = Embedder()
        return holder["model"].encode(texts)

    return embed


def build_retriever(kind: str, *, url: str | None = None, opensearch: OpenSearchSettings | None = None,
                    index: str | None = None, mode: str | None = None, field: str = "text",
                    vector_field: str = "embedding", id_field: str = "_id") -> tuple[Retriever, dict]:
    """(retriever, description for the table and JSON); ValueError on a bad combination of options."""
    if kind == "http":
        if not url:
            raise ValueError("--retriever http needs --url")
        if mode:
            raise ValueError("--mode applies to --retriever opensearch; the HTTP endpoint ranks by itself")
        return HttpRetriever(url), {"retriever": "http", "url": url}
    if not index:
        raise ValueError("--retriever opensearch needs --index")
    from groundwatch.export.opensearch_client import connect

    client = connect(opensearch or OpenSearchSettings())
    mode = mode or "bm25"
    bm25 = OpenSearchBM25(client, index, field, id_field)
    knn = OpenSearchKNN(client, index, vector_field, lazy_embedder(), id_field)
    retriever = {"bm25": bm25, "knn": knn, "hybrid": Hybrid([bm25, knn])}[mode]
    return retriever, {"retriever": "opensearch", "index": index, "mode": mode}
