"""WiCE (Wikipedia claims checked against the web page they cite).

Label mapping (binary):
  supported                               -> supported
  partially_supported, not_supported      -> unsupported

`wice`: the answer is the claim; its passages are the cited page's sentences
packed into passage-sized pieces (about 120 words, at most 100 passages).
`wice-oracle`: the passages are the oracle chunk instead (gold supporting
sentences plus distractors, about 19 sentences); the first oracle chunk of
each claim is used. Gold supporting sentences give `gold_passage_ids`; a
claim whose every supporting set needs two or more sentences is `multi_hop`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from groundwatch.evaluation.converters.common import labelled, nonempty, read_jsonl
from groundwatch.evaluation.labels import SUPPORTED, UNSUPPORTED
from groundwatch.evaluation.passages import pack, passage_records
from groundwatch.evaluation.sampling import sample

LABELS = {"supported": SUPPORTED, "partially_supported": UNSUPPORTED, "not_supported": UNSUPPORTED}


def _record(request_id: str, row: dict, sentences: list[str], gold_sets: list[list[int]], set_name: str) -> dict:
    packed = pack(sentences)
    passages = passage_records([p.text for p in packed])
    where = {i: passages[n]["id"] for n, p in enumerate(packed) for i in p.sentences}
    gold = sorted({where[i] for s in gold_sets for i in s if i in where}, key=lambda pid: int(pid[1:]))
    stratum = ["multi_hop"] if gold_sets and all(len(s) > 1 for s in gold_sets) else []
    return labelled(request_id, row["claim"], passages, LABELS[row["label"]], set_name=set_name,
                    source_label=row["label"], stratum=stratum, gold_passage_ids=gold)


def convert_claims(data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    rows = sample(read_jsonl(data_dir / "wice" / "claim" / "dev.jsonl"), limit, seed)
    yield from nonempty(_record(f"wice-{row['meta']['id']}", row, row["evidence"], row["supporting_sentences"],
                                "wice") for row in rows)


def convert_oracle(data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    first: dict[str, dict] = {}
    for row in read_jsonl(data_dir / "wice" / "oracle_chunks_claim" / "dev.jsonl"):
        first.setdefault(row["meta"]["id"], row)
    records = []
    for claim_id, row in first.items():
        # oracle_idx and chunk_idx number sentences of the full page; map them into this chunk.
        local = {page: i for i, page in enumerate(row["meta"]["chunk_idx"])}
        oracle = [local[i] for i in row["meta"].get("oracle_idx", []) if i in local]
        gold_sets = [oracle] if oracle else []
        records.append(_record(f"wice-oracle-{claim_id}", row, row["evidence"], gold_sets, "wice-oracle"))
    yield from nonempty(iter(sample(records, limit, seed)))
