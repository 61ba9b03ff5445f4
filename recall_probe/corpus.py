"""The knowledge base searched per claim (scorers/evidence/corpus_check.py): the recall probe's
OpenSearch retrievers, BM25 plus k-NN fused by RRF, returning documents with their text.

k-NN runs only when the scorer passes the claim's vector and the server answers k-NN
queries; the first refusal (osmem-server: "[knn] query is not supported") turns it off
for the life of the process, logged once, and the search goes on with BM25 alone.
"""

from __future__ import annotations

from groundwatch.config.corpus import CorpusSettings
from groundwatch.config.logs import get_logger
from groundwatch.recall_probe.retrievers import OpenSearchBM25, OpenSearchKNN, RetrieverError, fuse
from groundwatch.scorers.evidence.corpus_check import CorpusDoc, CorpusUnavailable

log = get_logger(__name__)


class OpenSearchCorpus:
    def __init__(self, client, settings: CorpusSettings, rrf_k: int = 60):
        self.settings, self.rrf_k = settings, rrf_k
        self.bm25 = OpenSearchBM25(client, settings.index, settings.text_field)
        self.knn = OpenSearchKNN(client, settings.index, settings.vector_field) if settings.vector_field else None
        self._fields = [f for f in (settings.text_field, settings.updated_at_field, settings.id_field)
                        if f and f != "_id"]

    @property
    def name(self) -> str:
        return self.settings.index

    def search(self, text: str, k: int, vector=None) -> list[CorpusDoc]:
        try:
            rankings = [self.bm25.hits(self.bm25.query(text), k, self._fields)]
            if self.knn is not None and vector is not None:
                try:
                    rankings.append(self.knn.hits(self.knn.query(vector, k), k, self._fields))
                except RetrieverError as exc:
                    log.warning("corpus_knn_off", index=self.settings.index, error=str(exc)[:200])
                    self.knn = None
        except RetrieverError as exc:
            raise CorpusUnavailable(str(exc)) from None
        by_id = {hit["_id"]: hit for ranking in rankings for hit in ranking}
        order = fuse([[hit["_id"] for hit in ranking] for ranking in rankings], self.rrf_k)[:k]
        return [self._doc(by_id[i]) for i in order]

    def _doc(self, hit: dict) -> CorpusDoc:
        source = hit.get("_source") or {}
        doc_id = hit["_id"] if self.settings.id_field == "_id" else str(source.get(self.settings.id_field, hit["_id"]))
        updated = source.get(self.settings.updated_at_field)
        return CorpusDoc(doc_id, str(source.get(self.settings.text_field) or ""),
                         str(updated) if updated is not None else None)


def build_corpus(opensearch, settings: CorpusSettings) -> OpenSearchCorpus:
    """The corpus search on the `opensearch` section's connection."""
    from groundwatch.export.opensearch_client import connect

    return OpenSearchCorpus(connect(opensearch), settings)
