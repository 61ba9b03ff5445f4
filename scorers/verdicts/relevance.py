"""Off-topic answers: the answer does not address the question.

Relevance is the cosine of the question's and the answer's all-MiniLM-L6-v2 embeddings
(the scorer's Embedder); below `scorer.off_topic_threshold` the response is flagged
`off_topic`. The default threshold is calibrated on HaluEval QA questions paired with
their own answers (on topic) and with answers to other questions (off topic):
`python -m groundwatch.evaluation.relevance` (figures in docs/measurements.md).
Responses without a question, answers shorter than `scorer.off_topic_min_words` (a bare
name is on topic but far from its question in embedding space), or a scorer without
embeddings get no relevance record.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

FLAG = "off_topic"


def similarities(embedder, questions: Sequence[str], answers: Sequence[str]) -> np.ndarray:
    """Cosine of each (question, answer) pair, both embedded in one call."""
    if not questions:
        return np.zeros(0)
    vectors = embedder.encode(list(questions) + list(answers))
    q, a = vectors[: len(questions)], vectors[len(questions):]
    return np.sum(q * a, axis=1)  # the Embedder normalises


def assess(similarity: float, threshold: float) -> dict:
    return {"similarity": round(float(similarity), 4), "threshold": threshold,
            "off_topic": bool(similarity < threshold)}
