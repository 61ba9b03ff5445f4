"""Calibrate and measure the off-topic threshold (scorers/verdicts/relevance.py) on HaluEval QA.

Each question is paired with its own answers (right and hallucinated: both address the
question, so both are on topic) and with an answer to another question drawn at random
(off topic). Questions are split in two halves by a seeded shuffle; on the calibration
half two thresholds are chosen, the one with the best balanced accuracy and the highest
one that flags at most `--max-false-alarms` of the on-topic answers (the default for a
monitor, where a flag should mean something), and both are reported on the other half,
also by answer kind (HaluEval's right answers are often a bare name; its hallucinated
answers are sentences), without and with the minimum answer length below which the
scorer does not judge relevance (`scorer.off_topic_min_words`).

    python -m groundwatch.evaluation.relevance --data /work/shared/data/groundedness-dev/halueval/dataset_halueval_qa.jsonl \
        --limit 2000 --output build/relevance.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys

import numpy as np

from groundwatch.scorers.files import output_path
from groundwatch.scorers.jsonl import read_jsonl


def pairs(records: list[dict], seed: int) -> list[tuple[int, str, str, bool, str]]:
    """(question number, question, answer, on_topic, answer kind)."""
    rng = random.Random(seed)
    out = []
    for i, r in enumerate(records):
        out.append((i, r["question"], r["right_answer"], True, "right"))
        out.append((i, r["question"], r["hallucinated_answer"], True, "hallucinated"))
        j = rng.randrange(len(records) - 1)
        j = j + 1 if j >= i else j
        kind = "right" if rng.random() < 0.5 else "hallucinated"
        out.append((i, r["question"], records[j][f"{kind}_answer"], False, kind))
    return out


def balanced_accuracy(sims: np.ndarray, on_topic: np.ndarray, threshold: float) -> dict:
    flagged = sims < threshold
    tpr = float(np.mean(flagged[~on_topic])) if (~on_topic).any() else 0.0  # off topic caught
    fpr = float(np.mean(flagged[on_topic])) if on_topic.any() else 0.0      # on topic flagged
    return {"threshold": round(float(threshold), 4), "balanced_accuracy": round((tpr + 1 - fpr) / 2, 4),
            "off_topic_caught": round(tpr, 4), "on_topic_flagged": round(fpr, 4)}


def calibrate(sims: np.ndarray, on_topic: np.ndarray) -> dict:
    grid = np.round(np.arange(-0.2, 0.9, 0.005), 4)
    return max((balanced_accuracy(sims, on_topic, t) for t in grid), key=lambda m: m["balanced_accuracy"])


def low_false_alarms(sims: np.ndarray, on_topic: np.ndarray, most: float) -> dict:
    """The highest threshold that flags at most `most` of the on-topic answers."""
    grid = np.round(np.arange(-0.2, 0.9, 0.005), 4)
    fine = [t for t in grid if np.mean(sims[on_topic] < t) <= most]
    return balanced_accuracy(sims, on_topic, max(fine) if fine else float(grid[0]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="/work/shared/data/groundedness-dev/halueval/dataset_halueval_qa.jsonl")
    p.add_argument("--limit", type=int, default=2000, help="questions used (both halves together)")
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--max-false-alarms", type=float, default=0.05, help="on-topic answers flagged, at most")
    p.add_argument("--min-answer-words", type=int, default=4,
                   help="answers shorter than this are not judged (also measured without the gate)")
    p.add_argument("--output", help="JSON with the chosen threshold and both halves' figures")
    args = p.parse_args(argv)

    from groundwatch.scorers.evidence.retrieval import Embedder

    records = [r for _, r in read_jsonl(args.data)]
    random.Random(args.seed).shuffle(records)
    records = records[: args.limit]
    rows = pairs(records, args.seed)
    embedder = Embedder()
    questions = [row[1] for row in rows]
    answers = [row[2] for row in rows]
    from groundwatch.scorers.verdicts.relevance import similarities

    sims = np.concatenate([similarities(embedder, questions[s:s + 512], answers[s:s + 512])
                           for s in range(0, len(rows), 512)])
    on_topic = np.array([row[3] for row in rows])
    kinds = np.array([row[4] for row in rows])
    words = np.array([len(row[2].split()) for row in rows])
    half = np.array([row[0] < len(records) // 2 for row in rows])
    result = {"data": args.data, "questions": len(records), "pairs": len(rows), "seed": args.seed,
              "max_false_alarms": args.max_false_alarms,
              "on_topic_similarity_mean": round(float(sims[on_topic].mean()), 4),
              "off_topic_similarity_mean": round(float(sims[~on_topic].mean()), 4)}
    for gate in sorted({0, args.min_answer_words}):
        judged = words >= gate  # shorter answers are never flagged (scorer.off_topic_min_words)
        cal, rest = half & judged, ~half & judged
        chosen = {"balanced": calibrate(sims[cal], on_topic[cal]),
                  "low_false_alarms": low_false_alarms(sims[cal], on_topic[cal], args.max_false_alarms)}
        report = {}
        for name, c in chosen.items():
            report[name] = balanced_accuracy(sims[rest], on_topic[rest], c["threshold"])
            for kind in ("right", "hallucinated"):
                sel = rest & (kinds == kind)
                report[name][f"{kind}_answers"] = balanced_accuracy(sims[sel], on_topic[sel], c["threshold"])
        result[f"min_answer_words_{gate}"] = {
            "judged_share": round(float(judged.mean()), 4), "calibration": chosen, "report": report}
    print(json.dumps(result, indent=2))
    if args.output:
        output_path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
