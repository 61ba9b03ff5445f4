"""MODEL_CARD.md of an exported model directory: its kind and what the verdict rule makes of it."""

from __future__ import annotations

import json
from pathlib import Path

RULES = {
    "nli3": "three-way NLI: SUPPORTED from entailment, CONTRADICTED from the model's contradiction or a "
            "verified mismatch",
    "grounding2": "two-way grounding: SUPPORTED from P(supported); the model never makes a claim CONTRADICTED "
                  "(only a verified mismatch does); P(unsupported) is recorded as neutral, contradiction as 0",
    "seq2seq": "encoder-decoder scored by its first answer token, read as two-way grounding: SUPPORTED from "
               "P(supported); the model never makes a claim CONTRADICTED (only a verified mismatch does)",
}


def write_card(output: Path, parity: str | None = None) -> Path:
    """Write (or rewrite) MODEL_CARD.md from the directory's export.json."""
    output = Path(output)
    record = json.loads((output / "export.json").read_text())
    kind = record.get("kind", "nli3")
    lines = [
        f"# {output.name}",
        "",
        f"Exported by `groundwatch export-model` from `{record.get('source')}`.",
        "",
        f"- **Kind:** `{kind}` — {RULES[kind]}.",
        f"- **Labels:** `{json.dumps(record.get('labels'))}` (output column of each label)"
        + (f"; answer tokens `{json.dumps(record['label_tokens'])}`" if record.get("label_tokens") else "") + ".",
        f"- **Input:** " + (f"one joined text, `{record['input']}`" if record.get("input")
                            else "the tokenizer's own pair template (premise, claim)") + ".",
        f"- **Window:** {record.get('max_length')} tokens (scorer.max_length is cut to it; longer premises "
        "are scored in overlapping windows).",
        f"- **Format:** ONNX opset {record.get('opset')}, precision `{record.get('precision')}`; tokenizer.json "
        "for the `tokenizers` library.",
    ]
    if parity:
        lines.append(f"- **Parity with the source checkpoint:** {parity}.")
    lines += ["", "Thresholds belong to the model: calibrate them on labelled responses with "
              "`groundwatch eval --input labelled.jsonl --model DIR --calibrate balanced-accuracy --into-model`, which writes "
              "calibration.json here; "
              "without it the scorer uses the shipped model's thresholds.", ""]
    path = output / "MODEL_CARD.md"
    path.write_text("\n".join(lines))
    return path
