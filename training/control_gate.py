"""The cheap gate before a retraining run is exported: its checkpoint over the control set, pair by pair.

Each control answer against its passage, whole, as one pair, in the form the scorer gives the model
(`--as-written` reads them as written): how many supported rewordings the model's most likely label
calls entailment or contradiction, and how many minimal pairs it calls entailment, beside the shipped
model. A run worth exporting moves the first count up and the other two down; the pipeline's verdicts
(docs/controls.md) are measured only for such a run. Beside them, `verbatim`: each sentence of a control
passage as the claim against its own passage, which any NLI model must call entailment. `families`
gives the same counts per control family (`_pair` families are the minimal pairs).

    python -m groundwatch.training.control_gate build/nli-counter-run3 --output build/run3-gate.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR, load_backend
from groundwatch.scorers.english.polarity_form import polarity_form
from groundwatch.scorers.english.sentences import sentence_spans
from groundwatch.scorers.files import shown_path
from groundwatch.training.compact_checkpoint import WEIGHTS, materialise

CONTROLS = Path(__file__).resolve().parents[1] / "examples" / "controls"


def control_pairs(as_written: bool = False) -> list[tuple[str, str, bool]]:
    """(premise, hypothesis, supported) per control answer, in the scorer's form unless `as_written`."""
    expected = {e["request_id"]: e for e in map(json.loads, (CONTROLS / "expected.jsonl").open())}
    out = []
    for record in map(json.loads, (CONTROLS / "responses.jsonl").open()):
        premise = " ".join(p["text"] for p in record["passages"])
        hypothesis = record["answer"]
        if not as_written:
            premise, hypothesis = polarity_form(premise), polarity_form(hypothesis)
        out.append((premise, hypothesis, expected[record["request_id"]]["all_supported"]))
    return out


def control_families() -> list[str]:
    """The family of each control answer, in the order of `control_pairs`."""
    case = {e["request_id"]: e["case"] for e in map(json.loads, (CONTROLS / "expected.jsonl").open())}
    return [case[record["request_id"]] for record in map(json.loads, (CONTROLS / "responses.jsonl").open())]


def verbatim_pairs(as_written: bool = False) -> list[tuple[str, str]]:
    """(passage, one of its sentences) for every sentence of every distinct control passage."""
    passages = dict.fromkeys(p["text"] for record in map(json.loads, (CONTROLS / "responses.jsonl").open())
                             for p in record["passages"])
    form = (lambda text: text) if as_written else polarity_form
    return [(form(text), form(text[a:b])) for text in passages for a, b in sentence_spans(text)]


def gate(model_dir: Path, backend: str, pairs: list[tuple[str, str, bool]], verbatim: list[tuple[str, str]],
         families: list[str] | None = None) -> dict:
    scores = load_backend(model_dir, backend, providers="cpu", torch_compute="fp32").predict(  # the reference
        [(p, h) for p, h, _ in pairs] + verbatim)
    by_family: dict[str, dict[str, int]] = {}
    counts = {"rewordings": 0, "rewordings_entailment": 0, "rewordings_contradiction": 0,
              "pairs": 0, "pairs_entailment": 0,
              "verbatim": 0, "verbatim_entailment": 0, "verbatim_contradiction": 0}
    kinds = ["rewordings" if supported else "pairs" for _, _, supported in pairs] + ["verbatim"] * len(verbatim)
    for i, (kind, s) in enumerate(zip(kinds, scores)):
        top = max(("entailment", "neutral", "contradiction"), key=lambda label: getattr(s, label))
        counts[kind] += 1
        if top == "entailment" or kind != "pairs" and top == "contradiction":
            counts[f"{kind}_{top}"] += 1
        if families and i < len(families):
            row = by_family.setdefault(families[i], {"claims": 0, "entailment": 0, "neutral": 0, "contradiction": 0})
            row["claims"] += 1
            row[top] += 1
    if families:
        counts["families"] = {f: by_family[f] for f in sorted(by_family)}
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", type=Path, help="a training run's checkpoint directory, or its compact copy")
    p.add_argument("--as-written", action="store_true", help="read the pairs as written, not in the scorer's form")
    p.add_argument("--output", type=Path, default=None)
    args = p.parse_args(argv)
    pairs, verbatim, families = control_pairs(args.as_written), verbatim_pairs(args.as_written), control_families()
    checkpoint = materialise(args.checkpoint) if (args.checkpoint / WEIGHTS).exists() else args.checkpoint
    result = {"form": "as written" if args.as_written else "polarity form",
              "checkpoint": {"path": str(args.checkpoint), **gate(checkpoint, "torch", pairs, verbatim, families)},
              "shipped": {"path": shown_path(DEFAULT_MODEL_DIR, CONTROLS.parents[1]),
                          **gate(DEFAULT_MODEL_DIR, "onnx", pairs, verbatim, families)}}
    text = json.dumps(result, indent=2)
    print(text)
    if args.output:
        args.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
