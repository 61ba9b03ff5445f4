"""Nearest neighbours of unit vectors by inner product (cosine).

Vectors are appended to a file while the corpus streams in, then memory-
mapped. Small corpora are searched exactly with numpy, block by block;
above `exact_limit` vectors a faiss HNSW graph answers approximately.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np


def _faiss():
    try:
        import faiss
    except ImportError:  # pragma: no cover - faiss-cpu is a dependency; numpy still works
        return None
    return faiss


class NeighbourIndex:
    def __init__(self, path: str | Path, dim: int = 384, exact_limit: int = 20_000, hnsw_m: int = 32):
        self.path = Path(path)
        self.dim = dim
        self.exact_limit = exact_limit
        self.hnsw_m = hnsw_m
        self.count = 0
        self.kind = "exact"
        self._file = open(self.path, "wb")
        self._vectors: np.ndarray | None = None
        self._hnsw = None

    def add(self, vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        self._file.write(vectors.tobytes())
        self.count += len(vectors)

    def finish(self, batch: int = 4096) -> None:
        self._file.close()
        if self.count == 0:
            self._vectors = np.zeros((0, self.dim), dtype=np.float32)
            return
        self._vectors = np.memmap(self.path, dtype=np.float32, mode="r", shape=(self.count, self.dim))
        faiss = _faiss()
        if self.count > self.exact_limit and faiss is not None:
            index = faiss.IndexHNSWFlat(self.dim, self.hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = 80
            index.hnsw.efSearch = 64
            for start in range(0, self.count, batch):
                index.add(np.ascontiguousarray(self._vectors[start:start + batch]))
            self._hnsw, self.kind = index, "faiss-hnsw"

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(similarities, ids), each (len(queries), k), best first; id -1 where fewer exist."""
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        k = min(k, self.count)
        if k == 0:
            return np.zeros((len(queries), 0), np.float32), np.zeros((len(queries), 0), np.int64)
        if self._hnsw is not None:
            return self._hnsw.search(queries, k)
        best_s = np.full((len(queries), k), -np.inf, dtype=np.float32)
        best_i = np.full((len(queries), k), -1, dtype=np.int64)
        for start in range(0, self.count, 8192):
            block = np.asarray(self._vectors[start:start + 8192])
            sims = queries @ block.T
            s = np.concatenate([best_s, sims], axis=1)
            i = np.concatenate([best_i, np.arange(start, start + len(block))[None, :].repeat(len(queries), 0)], axis=1)
            top = np.argpartition(-s, k - 1, axis=1)[:, :k]
            best_s, best_i = np.take_along_axis(s, top, 1), np.take_along_axis(i, top, 1)
        order = np.argsort(-best_s, axis=1)
        return np.take_along_axis(best_s, order, 1), np.take_along_axis(best_i, order, 1)

    def pairs(self, k: int, min_similarity: float, batch: int = 1024) -> Iterator[tuple[int, int, float]]:
        """(i, j, similarity) with i < j for each of the k neighbours at or above min_similarity.

        A pair that is a neighbour from both sides comes out twice; callers keep a seen-set.
        """
        for start in range(0, self.count, batch):
            sims, ids = self.search(np.asarray(self._vectors[start:start + batch]), k + 1)
            for row, (srow, irow) in enumerate(zip(sims, ids)):
                i = start + row
                for s, j in zip(srow, irow):
                    if j >= 0 and j != i and s >= min_similarity:
                        yield min(i, int(j)), max(i, int(j)), float(s)
