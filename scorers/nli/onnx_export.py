"""Export a Hugging Face sequence-classification NLI checkpoint to a servable ONNX directory.

fp32 for reference, fp16 for GPU serving (softmax, layer norm and the other
numerically sensitive ops stay in fp32, which DeBERTa needs), and the int8
variants of scorers/nli/quantize.py for CPU: int8-weights (the shipped default:
batch-invariant), int8-static (batch-invariant, needs calibration pairs) and
int8 (dynamic: a pair's scores depend on its batch); and int8-rows
(scorers/nli/rowwise_int8.py: int8 compute with each row's activations quantised
from that row alone, so batch-invariant). The directory holds
model.onnx, the tokenizer, config.json with id2label, and precision.txt;
`parity` compares it with the source model.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundwatch.scorers.nli import quantize, rowwise_int8
from groundwatch.scorers.nli.base import read_label_order, softmax

PRECISIONS = ("fp32", "fp16", "int8", "int8-static", "int8-weights", "int8-rows")
# Ops kept in fp32 in an fp16 export: reductions and normalisations overflow in half precision.
FP16_KEEP_FP32 = ["Softmax", "LayerNormalization", "ReduceMean", "Pow", "Sqrt"]

PARITY_PAIRS = [
    ("Refunds are available within 30 days of purchase.", "Refunds are available for 60 days."),
    ("Refunds are available within 30 days of purchase.", "You can get a refund within 30 days."),
    ("The office is closed on Sundays.", "The office is open on Sundays."),
    ("Enterprise customers may request an extension to 60 days with approval.", "Everyone gets 60 days."),
    ("A man is playing a guitar on stage.", "A person plays music."),
    ("The API allows 100 requests per minute per key.", "The limit is 100 requests per minute."),
    ("The bridge opened in 1932 and carries eight lanes.", "The bridge opened in 1935."),
    ("Water boils at 100 degrees Celsius at sea level.", "Water boils at 100 C at sea level."),
]


@dataclass
class Parity:
    max_abs_prob_diff: float
    argmax_agreement: float
    n: int

    def __str__(self) -> str:
        return (f"parity on {self.n} pairs: max |p_onnx - p_torch| = {self.max_abs_prob_diff:.5f}, "
                f"argmax agreement = {self.argmax_agreement:.3f}")


def _export_fp32(model, tokenizer, path: Path, opset: int) -> None:
    import torch

    import inspect

    enc = tokenizer(["a premise that is long enough"], ["a hypothesis"], return_tensors="pt")
    # Graph inputs follow forward()'s signature order, so name them in that order.
    params = list(inspect.signature(model.forward).parameters)
    names = sorted(enc.keys(), key=params.index)
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["logits"] = {0: "batch"}
    with torch.no_grad():
        torch.onnx.export(model, (dict(enc),), str(path), input_names=names, output_names=["logits"],
                          dynamic_axes=axes, opset_version=opset, do_constant_folding=True, dynamo=False)


def _calibration_batches(tokenizer, pairs: list[tuple[str, str]], max_length: int = 256, size: int = 16):
    for start in range(0, len(pairs), size):
        chunk = pairs[start:start + size]
        enc = tokenizer([p for p, _ in chunk], [h for _, h in chunk], truncation="longest_first",
                        max_length=max_length, padding=True, return_tensors="np")
        yield {k: v.astype(np.int64) for k, v in enc.items()}


def export_checkpoint(checkpoint: Path, output: Path, precision: str = "int8", opset: int = 17,
                      calibration: list[tuple[str, str]] | None = None) -> Path:
    """Export; `calibration` (training pairs, never evaluation sets) is required for int8-static."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r}: expected one of {PRECISIONS}")
    if precision == "int8-static" and not calibration:
        raise ValueError("int8-static needs calibration pairs (training premises and hypotheses)")
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    checkpoint, output = Path(checkpoint), Path(output)
    read_label_order(checkpoint)  # fail early on a config without usable id2label
    tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
    model = AutoModelForSequenceClassification.from_pretrained(str(checkpoint)).eval()
    model.config.return_dict = True
    output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model.onnx"
        _export_fp32(model, tokenizer, fp32, opset)
        target = output / "model.onnx"
        if precision == "fp32":
            shutil.copy(fp32, target)
        elif precision == "int8":
            quantize.dynamic_int8(fp32, target)
        elif precision == "int8-weights":
            quantize.weights_int8(fp32, target)
        elif precision == "int8-rows":
            rowwise_int8.rows_int8(fp32, target)
        elif precision == "int8-static":
            inner = getattr(model.config, "intermediate_size", None)
            quantize.static_int8(fp32, target, _calibration_batches(tokenizer, calibration), keep_fp32_inner=inner)
        else:
            import onnx
            from onnxruntime.transformers.float16 import convert_float_to_float16

            half = convert_float_to_float16(onnx.load(str(fp32)), keep_io_types=True,
                                            op_block_list=FP16_KEEP_FP32)
            onnx.save(half, str(target))
    tokenizer.save_pretrained(str(output))
    model.config.save_pretrained(str(output))
    (output / "precision.txt").write_text(precision + "\n")
    (output / "export.json").write_text(json.dumps({"source": str(checkpoint), "precision": precision,
                                                    "opset": opset}, indent=2))
    return output


def parity(checkpoint: Path, onnx_dir: Path, pairs: list[tuple[str, str]] | None = None) -> Parity:
    """Compare class probabilities of the ONNX export with the source PyTorch model."""
    import torch
    from transformers import AutoModelForSequenceClassification

    from groundwatch.scorers.nli.onnx_backend import OnnxBackend

    pairs = pairs or PARITY_PAIRS
    backend = OnnxBackend(Path(onnx_dir), providers="cpu")
    model = AutoModelForSequenceClassification.from_pretrained(str(checkpoint)).eval()
    batch = [encs[0] for encs in backend.tokenize(pairs)]
    with torch.no_grad():
        ref = model(**{k: torch.from_numpy(v) for k, v in backend.features(batch).items()}).logits.numpy()
    got = backend.infer(batch)
    p_ref, p_got = softmax(ref.astype(np.float64)), softmax(got.astype(np.float64))
    return Parity(float(np.abs(p_ref - p_got).max()), float((p_ref.argmax(1) == p_got.argmax(1)).mean()), len(pairs))
