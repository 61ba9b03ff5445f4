"""Pair-level accuracy of an NLI model on held-out and evaluation-only sets.

    python -m groundwatch.training.evaluate_nli --model scorers/models/nli-minilm-int8-weights --output build/nli_eval.json

Sets: the training run's validation split per source (build/nli-minilm/validation.jsonl),
ANLI R1-R3 dev, SICK (corrected labels, SemEval TEST part) and ConTRoL dev
(long premises, scored through groundwatch's overlapping windows). The
nli-eval-noncommercial sets are used for evaluation only, never for training.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.training.labels import ID2LABEL, NOT_ENTAILMENT, to_label

EVAL_DIR = Path("../shared/data/nli-eval-noncommercial")
LABELS = ["entailment", "neutral", "contradiction"]


def anli(root: Path, round_: int) -> list[tuple[str, str, int]]:
    with (root / "anli_dev" / f"ANLI_analysis_r{round_}_dev.csv").open(encoding="utf-8") as f:
        return [(r["context"], r["statement"], to_label(r["gold_label"])) for r in csv.DictReader(f)]


def sick(root: Path) -> list[tuple[str, str, int]]:
    with (root / "sick" / "SICK_whole_corpus_reannotated.csv").open(encoding="utf-8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return [(r["sentence_A"], r["sentence_B"], to_label(r["entailment_label"]))
                for r in rows if r["SemEval_set"].strip().upper() == "TEST"]


def control(root: Path) -> list[tuple[str, str, int]]:
    out = []
    for _, d in read_jsonl(root / "control" / "dev.jsonl"):
        out.append((d["premise"], d["hypothesis"], to_label(d["label"])))
    return out


def validation(path: Path) -> dict[str, list[tuple[str, str, int]]]:
    sets: dict[str, list] = defaultdict(list)
    for _, d in read_jsonl(path):
        sets[d["source"]].append((d["premise"], d["hypothesis"], d["label"]))
    return dict(sets)


def score_set(pairs, predict) -> dict:
    preds = predict([(p, h) for p, h, _ in pairs])
    confusion: Counter = Counter()
    correct = 0
    for (_, _, gold), scores in zip(pairs, preds):
        probs = [scores.entailment, scores.neutral, scores.contradiction]
        pred = max(range(3), key=probs.__getitem__)
        if gold == NOT_ENTAILMENT:
            correct += pred != 0
            confusion[("not_entailment", LABELS[pred])] += 1
        else:
            correct += pred == gold
            confusion[(ID2LABEL[gold], LABELS[pred])] += 1
    return {"n": len(pairs), "accuracy": round(correct / max(1, len(pairs)), 4),
            "confusion": {f"{g}->{p}": n for (g, p), n in sorted(confusion.items())}}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None, help="ONNX model dir (default: the shipped model)")
    ap.add_argument("--backend", default="onnx", choices=["onnx", "torch"])
    ap.add_argument("--validation", type=Path, default=Path("build/nli-minilm/validation.jsonl"))
    ap.add_argument("--eval-dir", type=Path, default=EVAL_DIR)
    ap.add_argument("--output", type=Path, default=Path("build/nli_eval.json"))
    ap.add_argument("--limit", type=int, default=0, help="pairs per set (0 = all)")
    args = ap.parse_args(argv)

    from groundwatch.scorers.nli.batcher import DynamicBatcher
    from groundwatch.scorers.nli.factory import load_backend
    from groundwatch.scorers.nli.pair_scorer import PairScorer

    backend = load_backend(args.model, args.backend)
    batcher = DynamicBatcher(backend, max_batch_tokens=16384, max_batch_size=64)
    scorer = PairScorer(backend, batcher, "eval")
    sets: dict[str, list] = {}
    if args.validation.exists():
        sets.update({f"validation/{k}": v for k, v in validation(args.validation).items()})
    for r in (1, 2, 3):
        sets[f"anli_r{r}_dev"] = anli(args.eval_dir, r)
    sets["sick_test"] = sick(args.eval_dir)
    sets["control_dev"] = control(args.eval_dir)
    results = {}
    for name, pairs in sets.items():
        pairs = [p for p in pairs if p[2] is not None]
        if args.limit:
            pairs = pairs[:args.limit]
        start = time.perf_counter()
        results[name] = score_set(pairs, scorer.score)
        print(f"{name:<34} n={results[name]['n']:>5}  accuracy={results[name]['accuracy']:.3f}  "
              f"({time.perf_counter() - start:.0f}s)", flush=True)
    batcher.close()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"model": str(backend.model_dir), "precision": backend.precision,
                                       "results": results}, indent=2))


if __name__ == "__main__":
    main()
