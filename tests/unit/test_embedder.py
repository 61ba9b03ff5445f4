"""The ONNX embedder reproduces sentence-transformers' all-MiniLM-L6-v2 vectors, batched or not."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.scorers.evidence.embedder import BATCH_TEXTS, Embedder
from groundwatch.scorers.errors import ModelLoadError

TEXTS = ["Refunds are available within 30 days of purchase.",
         "  Leading and trailing spaces, and a tab.\t",
         "Ünïcödé façade — naïve café’s “quotes”.",
         "",
         "UPPER case AND lower Case.",
         " ".join(f"Fact number {i} says item {i} costs {i} euros." for i in range(60))]  # over 256 tokens


@pytest.fixture(scope="module")
def embedder():
    return Embedder()


def test_vectors_match_sentence_transformers(embedder):
    st = pytest.importorskip("sentence_transformers")
    from groundwatch.scorers.evidence.base_model import minilm_dir

    reference = st.SentenceTransformer(str(minilm_dir()), device="cpu").encode(
        TEXTS, batch_size=1, normalize_embeddings=True, convert_to_numpy=True)
    ours = embedder.encode(TEXTS)
    assert ours.shape == reference.shape == (len(TEXTS), 384) and ours.dtype == np.float32
    assert float(np.abs(ours - reference).max()) < 1e-5


def test_a_batch_gives_each_text_its_vector_alone(embedder):
    texts = [f"Item {i} ships in {i % 7 + 1} days" + " and more" * (i % 13) for i in range(BATCH_TEXTS + 9)]
    together = embedder.embed(texts)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    assert np.array_equal(together, alone)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-6)


def test_the_cache_returns_stored_vectors_in_input_order(embedder):
    first = embedder.encode(TEXTS[:3])
    again = embedder.encode([TEXTS[2], TEXTS[0], TEXTS[2]])
    assert np.array_equal(again, first[[2, 0, 2]])
    assert embedder.encode([]).shape == (0, 384)


def test_a_directory_without_the_model_is_refused(tmp_path):
    with pytest.raises(ModelLoadError, match="unreadable"):
        Embedder(tmp_path)


def test_the_examples_passages_rank_as_with_sentence_transformers(embedder):
    """Every answer sentence of examples/responses.jsonl ranks its passages in the same order by
    cosine with our vectors as with sentence-transformers' (the evidence order of the embedding side)."""
    import json
    import re
    from pathlib import Path

    st = pytest.importorskip("sentence_transformers")
    from groundwatch.scorers.evidence.base_model import minilm_dir

    model = st.SentenceTransformer(str(minilm_dir()), device="cpu")
    lines = (Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl").read_text().splitlines()
    compared = 0
    for record in map(json.loads, lines):
        passages = [p["text"] for p in record["passages"]]
        claims = [s for s in re.split(r"(?<=[.!?])\s+", record["answer"]) if s]
        ours = embedder.encode(claims) @ embedder.encode(passages).T
        ref = model.encode(claims, batch_size=1, normalize_embeddings=True) @ model.encode(
            passages, batch_size=1, normalize_embeddings=True).T
        assert np.abs(ours - ref).max() < 1e-5
        assert (np.argsort(-ours, axis=1, kind="stable") == np.argsort(-ref, axis=1, kind="stable")).all()
        compared += len(claims)
    assert compared > 100
