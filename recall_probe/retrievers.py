"""Retrievers the recall probe can replay its queries against.

Each returns the passage ids it ranks for one probe, best first:
- OpenSearchBM25: a `match` query on a text field;
- OpenSearchKNN: a `knn` query on a knn_vector field, the query embedded with
  all-MiniLM-L6-v2 (the index must hold vectors from the same model) unless the probe
  carries its own `query_vector`;
- Hybrid: reciprocal rank fusion of other retrievers' rankings, fused here so it works
  without a search pipeline on the cluster;
- HttpRetriever: POST {"query", "k"} to the application's own retrieval endpoint,
  which answers {"passage_ids": [ranked ids]}.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from groundwatch.config.unreachable import reason
from groundwatch.recall_probe.probe_set import Probe
from groundwatch.scorers.evidence.retrieval import rrf


class RetrieverError(RuntimeError):
    """The retriever could not be reached or answered something unusable."""


class Retriever(Protocol):
    def ranked_ids(self, probe: Probe, k: int) -> list[str]: ...


class _OpenSearchRetriever:
    def __init__(self, client, index: str, id_field: str = "_id"):
        self.client, self.index, self.id_field = client, index, id_field

    def hits(self, query: dict, k: int, source: list[str] | bool = False) -> list[dict]:
        """The raw hits of one search, best first, with `source` fields of _source."""
        from opensearchpy.exceptions import ConnectionError, TransportError

        try:
            return self.client.search(index=self.index, body={"size": k, "query": query, "_source": source}
                                      )["hits"]["hits"]
        except ConnectionError as exc:
            raise RetrieverError(f"OpenSearch unreachable ({reason(exc)})") from None
        except TransportError as exc:
            raise RetrieverError(f"OpenSearch refused the search on {self.index!r}: "
                                 f"{exc.status_code} {exc.info or exc.error}") from None

    def _search(self, query: dict, k: int) -> list[str]:
        hits = self.hits(query, k, False if self.id_field == "_id" else [self.id_field])
        if self.id_field == "_id":
            return [hit["_id"] for hit in hits]
        return [str(hit["_source"][self.id_field]) for hit in hits]


class OpenSearchBM25(_OpenSearchRetriever):
    def __init__(self, client, index: str, field: str = "text", id_field: str = "_id"):
        super().__init__(client, index, id_field)
        self.field = field

    def query(self, text: str) -> dict:
        return {"match": {self.field: text}}

    def ranked_ids(self, probe: Probe, k: int) -> list[str]:
        return self._search(self.query(probe.query), k)


class OpenSearchKNN(_OpenSearchRetriever):
    def __init__(self, client, index: str, vector_field: str = "embedding",
                 embed: Callable[[list[str]], Sequence[Sequence[float]]] | None = None, id_field: str = "_id"):
        super().__init__(client, index, id_field)
        self.vector_field, self.embed = vector_field, embed

    def _vector(self, probe: Probe) -> list[float]:
        if probe.vector is not None:
            return list(probe.vector)
        if self.embed is None:
            raise RetrieverError(f"line {probe.line}: no query_vector and no embedding model")
        return [float(x) for x in self.embed([probe.query])[0]]

    def query(self, vector: Sequence[float], k: int) -> dict:
        return {"knn": {self.vector_field: {"vector": [float(x) for x in vector], "k": k}}}

    def ranked_ids(self, probe: Probe, k: int) -> list[str]:
        return self._search(self.query(self._vector(probe), k), k)


class Hybrid:
    def __init__(self, retrievers: Sequence[Retriever], rrf_k: int = 60):
        self.retrievers, self.rrf_k = list(retrievers), rrf_k

    def ranked_ids(self, probe: Probe, k: int) -> list[str]:
        rankings = [r.ranked_ids(probe, k) for r in self.retrievers]
        return fuse(rankings, self.rrf_k)[:k]


def fuse(rankings: Sequence[Sequence[str]], rrf_k: int = 60) -> list[str]:
    """RRF order; ties go to the better single rank, then the id, so runs are reproducible."""
    scores = rrf([list(r) for r in rankings], rrf_k)
    best = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            best[doc] = min(rank, best.get(doc, rank))
    return sorted(scores, key=lambda d: (-scores[d], best[d], d))


class HttpRetriever:
    def __init__(self, url: str, timeout_s: float = 10.0):
        import httpx

        self.url = url
        self._client = httpx.Client(timeout=timeout_s)

    def ranked_ids(self, probe: Probe, k: int) -> list[str]:
        import httpx

        try:
            answer = self._client.post(self.url, json={"query": probe.query, "k": k})
        except httpx.HTTPError as exc:
            raise RetrieverError(f"{self.url} unreachable ({reason(exc)})") from None
        if answer.status_code != 200:
            raise RetrieverError(f"{self.url} answered {answer.status_code} for probe line {probe.line}")
        try:
            ids = answer.json()["passage_ids"]
        except (ValueError, KeyError, TypeError):
            raise RetrieverError(f"{self.url}: expected JSON {{'passage_ids': [...]}} "
                                 f"for probe line {probe.line}") from None
        if not isinstance(ids, list):
            raise RetrieverError(f"{self.url}: 'passage_ids' is not a list (probe line {probe.line})")
        return [str(i) for i in ids[:k]]

    def close(self) -> None:
        self._client.close()
