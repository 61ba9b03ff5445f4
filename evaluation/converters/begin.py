"""BEGIN v1 (knowledge-grounded dialogue responses, dev_05_24_21.tsv).

Label mapping, from the `coarse label` column:
  entailment     -> supported        (3-way: supported)
  neutral        -> unsupported      (3-way: not_enough_info)
  contradiction  -> unsupported      (3-way: contradicted)

The answer is the response, the question the previous dialogue turn, the one
passage the knowledge snippet. The five-way `gold label` (generic, off-topic,
hallucination ...) becomes a stratum hint.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Iterator

from groundwatch.evaluation.converters.common import labelled, nonempty
from groundwatch.evaluation.labels import CONTRADICTED, NOT_ENOUGH_INFO, SUPPORTED, UNSUPPORTED
from groundwatch.evaluation.sampling import sample

BINARY = {"entailment": SUPPORTED, "neutral": UNSUPPORTED, "contradiction": UNSUPPORTED}
THREE_WAY = {"entailment": SUPPORTED, "neutral": NOT_ENOUGH_INFO, "contradiction": CONTRADICTED}


def convert(data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    path = data_dir / "begin" / "v1_2021" / "dev_05_24_21.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    numbered = sample(list(enumerate(rows)), limit, seed)
    yield from nonempty(
        labelled(f"begin-{n}", row["response"], [{"id": "p1", "text": row["evidence"]}], BINARY[row["coarse label"]],
                 set_name="begin", source_label=row["coarse label"], question=row["previous turn"],
                 stratum=[f"begin_{row['gold label'].replace('-', '_')}"],
                 label_3way=THREE_WAY[row["coarse label"]])
        for n, row in numbered)
