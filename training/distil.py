"""The larger model as the teacher: its three-way probabilities over training pairs, for the small model to learn.

    python -m groundwatch.training.distil --teacher training/runs/mpnet-run2 --output build/teacher.jsonl \\
        --limit 6000 --neighbours 6000 [the training mix options of train.py]

The pairs are the training mix that `train.py` would build from the same options (labelled pairs and recipes),
plus `--neighbours` pairs that no data set labels: a training hypothesis against the training premise that
shares the most rare words with it but is not its own, the near-miss evidence a retriever hands the checker.
Only training premises are used: the validation split, the evaluation sets and the control set never are.
Each line: premise, hypothesis, label (-2 where the pair has none), source, teacher (p entailment, neutral,
contradiction). Train the small model on it with `train.py --distil FILE`.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import re
import time
from pathlib import Path

from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.training.nli_data import Pair

NO_LABEL = -2  # a neighbour pair: only the teacher's probabilities
WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 3}


def neighbour_pairs(train: list[Pair], n: int, seed: int) -> list[Pair]:
    """Up to `n` pairs of a hypothesis against another premise: the one sharing the most inverse-document-
    frequency weight of its longer words, among premises that share at least two of them."""
    premises = list(dict.fromkeys(p.premise for p in train))
    premise_words = [_words(p) for p in premises]
    df = collections.Counter(w for words in premise_words for w in words)
    index: dict[str, list[int]] = collections.defaultdict(list)
    for i, words in enumerate(premise_words):
        for w in words:
            if df[w] <= 50:  # common words add nothing but time
                index[w].append(i)
    rng = random.Random(seed)
    candidates = list(train)
    rng.shuffle(candidates)
    out: list[Pair] = []
    seen = set()
    for pair in candidates:
        if len(out) >= n:
            break
        weight: dict[int, float] = collections.defaultdict(float)
        shared: dict[int, int] = collections.Counter()
        for w in _words(pair.hypothesis):
            for i in index.get(w, ()):
                weight[i] += math.log(len(premises) / df[w])
                shared[i] += 1
        best = max((i for i in weight if shared[i] >= 2 and premises[i] != pair.premise),
                   key=weight.__getitem__, default=None)
        if best is None or (premises[best], pair.hypothesis) in seen:
            continue
        seen.add((premises[best], pair.hypothesis))
        out.append(Pair(premises[best], pair.hypothesis, NO_LABEL, "neighbour"))
    return out


def label_with_teacher(pairs: list[Pair], teacher: Path, batch: int = 32) -> list[dict]:
    """Each pair with the teacher's (entailment, neutral, contradiction) probabilities, scored by the
    checkpoint itself (torch), not an export; batched by length, so little of the work is padding."""
    from groundwatch.scorers.nli.factory import load_backend

    backend = load_backend(teacher, "torch", providers="cpu", max_length=192, torch_compute="fp32")
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].premise) + len(pairs[i].hypothesis))
    probs: dict[int, list[float]] = {}
    start = time.monotonic()
    for n, first in enumerate(range(0, len(order), batch)):
        ids = order[first:first + batch]
        for i, s in zip(ids, backend.predict([(pairs[i].premise, pairs[i].hypothesis) for i in ids])):
            probs[i] = [round(float(s.entailment), 5), round(float(s.neutral), 5), round(float(s.contradiction), 5)]
        if n % 50 == 0:
            print(f"teacher: {len(probs)}/{len(pairs)} pairs, {len(probs) / (time.monotonic() - start):.1f} pairs/s",
                  flush=True)
    return [{**pair.to_json(), "teacher": probs[i]} for i, pair in enumerate(pairs)]


def read_distil(path: Path) -> list[tuple[Pair, tuple[float, float, float]]]:
    """The pairs of a teacher file with the teacher's probabilities, in the label order of labels.ID2LABEL."""
    return [(Pair(d["premise"], d["hypothesis"], int(d["label"]), d["source"]), tuple(d["teacher"]))
            for _, d in read_jsonl(path)]


def main(argv: list[str] | None = None) -> None:
    from groundwatch.training import train as training
    from groundwatch.training.compact_checkpoint import WEIGHTS, materialise

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--teacher", type=Path, required=True, help="the larger model's checkpoint or compact copy")
    p.add_argument("--neighbours", type=int, default=0, metavar="N", help="N unlabelled near-miss pairs")
    known, rest = p.parse_known_args(argv)
    args = training.parse_args(rest)  # the mix options, with train.py's defaults and its --output
    train, _ = training.training_mix(args)
    pairs = train + neighbour_pairs(train, known.neighbours, args.seed)
    random.Random(args.seed).shuffle(pairs)
    teacher = materialise(known.teacher) if (known.teacher / WEIGHTS).exists() else known.teacher
    rows = label_with_teacher(pairs, teacher)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    print(f"wrote {len(rows)} pairs ({collections.Counter(r['source'] for r in rows).most_common(5)} ...) "
          f"to {args.output}")


if __name__ == "__main__":
    main()
