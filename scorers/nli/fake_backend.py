"""A deterministic NLI backend without a model, for delivery tests and benchmarks of the pipeline around it.

It keeps the real tokenizer of a model directory (the batcher measures token lengths and
long premises are windowed by tokens) and replaces inference by word overlap: the share
of the hypothesis's words found in the premise becomes the entailment probability. The
same pair always gets the same scores, in any batch, on any machine.
"""

from __future__ import annotations

import re

import numpy as np

from groundwatch.scorers.nli.base import NLIBackend
from groundwatch.scorers.nli.encoding import Pair, PairEncoding
from groundwatch.scorers.records import NLIScores

_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


class FakeBackend(NLIBackend):
    provider = "fake"
    precision = "none"

    @property
    def name(self) -> str:
        return f"fake-{self.model_dir.name}"

    def predict(self, items: list[Pair] | list[PairEncoding]) -> list[NLIScores]:
        out = []
        for item in items:
            premise, hypothesis = item.pair if isinstance(item, PairEncoding) else item
            hyp = _words(hypothesis)
            overlap = len(hyp & _words(premise)) / len(hyp) if hyp else 0.0
            entailment = 0.02 + 0.96 * overlap
            contradiction = 0.02 + 0.3 * (1.0 - overlap) ** 2
            out.append(NLIScores(entailment, 1.0 - entailment - contradiction, contradiction))
        return out

    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        return np.zeros((len(batch), 3), dtype=np.float32)  # predict() never calls it
