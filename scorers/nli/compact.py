"""Load a compact PyTorch copy (training/compact_checkpoint.py writes it): int8 matrices with fp16 scales, one
per row or per block of a row, dequantised to fp32 at load. The torch backend reads such a directory as it
reads a Hugging Face checkpoint, so the shipped model's copy (scorers/models/nli-minilm-torch) and a training
run's (training/runs/) serve as they are."""

from __future__ import annotations

from pathlib import Path

WEIGHTS = "weights.int8.safetensors"


def is_compact(model_dir: Path) -> bool:
    return (Path(model_dir) / WEIGHTS).is_file()


def dequantise(q, scale):
    """int8 values times their scales: one per row (a 1-D scale) or one per block of a row (2-D)."""
    if scale.ndim == 1:
        return q.float() * scale.float().unsqueeze(1)
    rows, blocks = scale.shape
    return (q.float().view(rows, blocks, -1) * scale.float().unsqueeze(2)).view(q.shape)


def load_compact(compact: Path):
    """The sequence-classification model of a compact copy, fp32, in eval mode."""
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoModelForSequenceClassification

    raw = load_file(str(Path(compact) / WEIGHTS))
    state = {}
    for name, t in raw.items():
        if name.endswith(".q"):
            state[name[:-2]] = dequantise(t, raw[f"{name[:-2]}.scale"])
        elif not name.endswith(".scale"):
            state[name] = t
    model = AutoModelForSequenceClassification.from_config(AutoConfig.from_pretrained(str(compact)))
    missing, unexpected = model.load_state_dict(state, strict=False)
    if unexpected or [m for m in missing if not m.endswith("position_ids")]:
        raise RuntimeError(f"compact checkpoint mismatch: missing={missing} unexpected={unexpected}")
    return model.eval()
