"""Neighbour search (exact numpy and faiss HNSW agree) and MinHash overlap estimates."""

import numpy as np
import pytest

from groundwatch.audit.minhash import LSH, MinHasher, jaccard, shingles, similarity
from groundwatch.audit.neighbours import NeighbourIndex


def clustered(n_clusters=40, per=5, dim=384, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(n_clusters, dim))
    points = np.repeat(centres, per, axis=0) + 0.15 * rng.normal(size=(n_clusters * per, dim))
    return (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)


def build(tmp_path, vectors, exact_limit, name):
    index = NeighbourIndex(tmp_path / name, dim=vectors.shape[1], exact_limit=exact_limit)
    for start in range(0, len(vectors), 37):  # streamed in uneven chunks
        index.add(vectors[start:start + 37])
    index.finish()
    return index


def test_exact_search_finds_true_nearest(tmp_path):
    vectors = clustered()
    index = build(tmp_path, vectors, exact_limit=10_000, name="exact.f32")
    assert index.kind == "exact"
    sims, ids = index.search(vectors[:20], 5)
    truth = np.argsort(-(vectors[:20] @ vectors.T), axis=1)[:, :5]
    assert (ids == truth).all()
    assert np.allclose(sims, np.take_along_axis(vectors[:20] @ vectors.T, truth, 1), atol=1e-5)


def test_faiss_hnsw_agrees_with_exact_search(tmp_path):
    pytest.importorskip("faiss")
    vectors = clustered()
    exact = build(tmp_path, vectors, exact_limit=10_000, name="exact.f32")
    hnsw = build(tmp_path, vectors, exact_limit=0, name="hnsw.f32")
    assert hnsw.kind == "faiss-hnsw"
    _, a = exact.search(vectors, 5)
    _, b = hnsw.search(vectors, 5)
    recall = np.mean([len(set(x) & set(y)) / 5 for x, y in zip(a, b)])
    assert recall >= 0.95


def test_pairs_are_within_clusters_and_above_threshold(tmp_path):
    vectors = clustered(n_clusters=10, per=4)
    index = build(tmp_path, vectors, exact_limit=10_000, name="v.f32")
    pairs = set((a, b) for a, b, s in index.pairs(k=3, min_similarity=0.8))
    assert pairs == {(a, b) for a in range(40) for b in range(a + 1, 40) if a // 4 == b // 4}


def test_minhash_estimates_jaccard():
    hasher = MinHasher(slots=128)
    a = shingles("refunds are available within thirty days of purchase for every plan we sell today")
    b = shingles("refunds are available within fourteen days of purchase for every plan we sell today")
    assert abs(similarity(hasher.signature(a), hasher.signature(b)) - jaccard(a, b)) < 0.15
    assert similarity(hasher.signature(a), hasher.signature(a)) == 1.0


def test_lsh_returns_earlier_near_copies_only():
    hasher, lsh = MinHasher(), LSH(bands=16)
    base = "the desktop app keeps a full copy of your notebooks so you can read and edit notes offline"
    assert lsh.add("a", hasher.signature(shingles(base))) == set()
    assert lsh.add("b", hasher.signature(shingles("invoices are issued on the day your subscription renews"))) == set()
    assert lsh.add("c", hasher.signature(shingles(base + " anywhere"))) == {"a"}
