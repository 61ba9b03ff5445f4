"""A compact copy of a classifier (training/compact_checkpoint.py writes it): int8 matrices with fp16 scales, one
per row or per block of a row, dequantised to fp32 at load, so the shipped model's copy and a training run's serve
as they are."""

from __future__ import annotations

from collections.abc import Iterator
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


def read_tensors(path: Path) -> Iterator[tuple[str, object]]:
    """(name, tensor) of a safetensors file, a compact copy's int8 matrices dequantised to fp32 one at a time (the
    peak is the file plus one matrix); a plain checkpoint's tensors as they are."""
    from safetensors.torch import load_file

    raw = load_file(str(path))
    for name in [n for n in raw if not n.endswith(".scale")]:
        value = raw.pop(name)
        if name.endswith(".q"):
            name = name[:-2]
            value = dequantise(value, raw.pop(f"{name}.scale"))
        yield name, value


def load_compact(compact: Path):
    """The sequence-classification model of a compact copy through transformers, fp32, in eval mode. Each matrix
    is dequantised straight into the model's own tensor: the peak is the model plus the int8 file, not two fp32
    copies of it."""
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification
    from transformers.modeling_utils import no_init_weights

    with no_init_weights():  # every tensor is overwritten below: random initialisation would be wasted time
        model = AutoModelForSequenceClassification.from_config(AutoConfig.from_pretrained(str(compact)))
    targets = model.state_dict(keep_vars=True)
    loaded, unexpected = set(), []
    for name, value in read_tensors(Path(compact) / WEIGHTS):
        if name not in targets:
            unexpected.append(name)
            continue
        with torch.no_grad():
            targets[name].copy_(value)
        loaded.add(name)
    missing = [n for n in targets if n not in loaded and not n.endswith("position_ids")]
    if unexpected or missing:
        raise RuntimeError(f"compact checkpoint mismatch: missing={missing} unexpected={unexpected}")
    return model.eval()
