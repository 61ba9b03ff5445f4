"""HaluEval QA (HotpotQA knowledge, question, a right and a hallucinated answer).

Label mapping:
  right_answer         -> supported
  hallucinated_answer  -> unsupported

Each sampled row gives two responses, one per answer, so a sample is balanced.
The knowledge is two paragraphs glued together; they become two passages,
and such two-paragraph rows are `multi_hop` (HotpotQA questions bridge or
compare them). Answers of under four words are `short_answer`: they need the
question to be checkable, which the claim-level checker does not read.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterator

from groundwatch.evaluation.converters.common import labelled, nonempty, read_jsonl
from groundwatch.evaluation.labels import SUPPORTED, UNSUPPORTED
from groundwatch.evaluation.passages import passage_records, unglue
from groundwatch.evaluation.sampling import sample


def convert(data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    rows = list(enumerate(read_jsonl(data_dir / "halueval" / "dataset_halueval_qa.jsonl")))
    picked = sample(rows, None if limit is None else math.ceil(limit / 2), seed)
    out = []
    for n, row in picked:
        passages = passage_records(unglue(row["knowledge"]))
        hop = ["multi_hop"] if len(passages) > 1 else []
        for kind, label in (("right", SUPPORTED), ("hallucinated", UNSUPPORTED)):
            answer = row[f"{kind}_answer"]
            short = ["short_answer"] if len(answer.split()) < 4 else []
            out.append(labelled(f"halueval-{n}-{kind}", answer, passages, label, set_name="halueval",
                                source_label=f"{kind}_answer", question=row["question"], stratum=hop + short))
    yield from nonempty(iter(out[:limit] if limit is not None else out))
