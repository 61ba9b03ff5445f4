"""Per-claim retrieval from the knowledge base (the `corpus` section of the settings).

Off by default. For a claim the logged passages leave NOT_ENOUGH_INFO, the scorer asks the
knowledge-base index (BM25, plus k-NN where the server has it, fused by RRF) with the claim
as the query, scores the top hits and records `retrieval_miss` (the corpus supports the
claim; the application's retriever did not return it) or `unsupported_by_corpus`.
The connection is the `opensearch` section's.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CorpusSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False
    index: str = "rag-passages"      # the knowledge-base index (or alias)
    text_field: str = "text"
    vector_field: str | None = "embedding"  # None: BM25 only; k-NN is also skipped where the server lacks it
    id_field: str = "_id"            # the passage id as the application logs it
    updated_at_field: str = "updated_at"
    top_hits: int = Field(3, ge=1, le=20)        # documents per claim
    max_claims: int = Field(4, ge=1)             # claims per response looked up
    deadline_s: float = Field(2.0, gt=0)         # per scorer call, for searching and scoring; never past the batch's
