"""A compact PyTorch copy of a trained model: the shipped one, for the PyTorch baselines of `groundwatch bench`,
and each training run's (training/runs/), which the next run starts from or resumes.

The fp32 checkpoint (~90 MB for MiniLM, ~440 MB for all-mpnet-base-v2) is too large for the
repository, so matrices are stored as int8 with one fp16 scale per block of BLOCK values of a row
(~117 MB for all-mpnet-base-v2) and dequantized to fp32 on load into an ordinary Hugging Face
checkpoint directory. One scale per whole row, the earlier format (the shipped MiniLM copy, ~23 MB),
still loads; it costs all-mpnet-base-v2 an eighth of its argmax agreement with itself on held-out
pairs, blocks of 32 under 1%. The int8 ONNX model
is what groundwatch serves. A run's progress.json and manifest travel with its copy, so
`train --resume <copy>` continues the run (AdamW moments start again: they are not kept).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from groundwatch.scorers.nli.pytorch.compact import WEIGHTS, load_compact

MODEL_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json")
RUN_FILES = ("progress.json", "training_manifest.json")  # where a run stopped, with its options; what it was
BLOCK = 32  # values of a row per scale


def save_compact(checkpoint: Path, output: Path, run_files: bool = False) -> Path:
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(str(checkpoint))
    tensors = {}
    for name, t in model.state_dict().items():
        t = t.detach().float().contiguous()
        if t.ndim == 2 and t.numel() >= 4096 and t.shape[1] % BLOCK == 0:
            blocks = t.view(t.shape[0], -1, BLOCK)
            scale = (blocks.abs().amax(dim=2, keepdim=True).clamp(min=1e-12) / 127.0).half()
            tensors[f"{name}.q"] = torch.round(blocks / scale.float()).clamp(-127, 127).to(torch.int8).view_as(t)
            tensors[f"{name}.scale"] = scale.squeeze(2)
        else:
            tensors[name] = t
    output.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(output / WEIGHTS))
    for f in MODEL_FILES + (RUN_FILES if run_files else ()):
        if (checkpoint / f).exists():
            shutil.copy(checkpoint / f, output / f)
    return output


def materialise(compact: Path, cache: Path | None = None) -> Path:
    """An ordinary fp32 Hugging Face checkpoint directory built from the compact copy."""
    digest = hashlib.sha1((compact / WEIGHTS).read_bytes()).hexdigest()[:12]
    target = (cache or Path("build/torch-checkpoints")) / digest
    if (target / "model.safetensors").exists():
        return target
    model = load_compact(compact)
    target.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(target))
    for f in MODEL_FILES[1:]:
        if (compact / f).exists():
            shutil.copy(compact / f, target / f)
    return target


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m groundwatch.training.compact_checkpoint",
                                     description="Write the compact copy (int8 + block scales) of a checkpoint.")
    parser.add_argument("checkpoint", type=Path, help="a Hugging Face checkpoint directory (a training run's output)")
    parser.add_argument("output", type=Path, help="where the compact copy goes (about 117 MB for all-mpnet-base-v2)")
    args = parser.parse_args(argv)
    print(save_compact(args.checkpoint, args.output, run_files=True))


if __name__ == "__main__":
    main()
