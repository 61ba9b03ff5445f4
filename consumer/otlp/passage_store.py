"""Passage texts by id from the knowledge-base index the corpus lookup searches (the `corpus` section)."""

from __future__ import annotations


class OpenSearchPassageStore:
    def __init__(self, client, corpus_settings):
        self.client, self.settings = client, corpus_settings

    def texts(self, ids: list[str]) -> dict[str, str]:
        """The texts of the ids the index holds; ids it lacks are absent from the result."""
        s = self.settings
        if s.id_field == "_id":
            body = self.client.mget(index=s.index, body={"ids": ids}, params={"_source_includes": s.text_field})
            hits = [(d["_id"], d.get("_source") or {}) for d in body.get("docs", []) if d.get("found")]
        else:
            body = self.client.search(index=s.index, body={"size": len(ids), "query": {"terms": {s.id_field: ids}},
                                                           "_source": [s.id_field, s.text_field]})
            hits = [(str((h.get("_source") or {}).get(s.id_field)), h.get("_source") or {})
                    for h in body.get("hits", {}).get("hits", [])]
        return {doc_id: source[s.text_field] for doc_id, source in hits
                if isinstance(source.get(s.text_field), str) and source[s.text_field].strip()}


def build_passage_store(settings):
    """The store the settings ask for (traces.look_up_missing_text), on the opensearch connection; else None."""
    if not settings.traces.look_up_missing_text:
        return None
    from groundwatch.export.opensearch_client import connect

    return OpenSearchPassageStore(connect(settings.opensearch), settings.corpus)
