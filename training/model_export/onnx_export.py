"""Export a Hugging Face checkpoint of any model kind (scorers/nli/kinds.py) to a servable ONNX directory.

A sequence classifier (nli3, grounding2) is exported as it is; an encoder-decoder (seq2seq) as the
graph of its first decoding step that returns the logits of its two label tokens
(training/model_export/first_token.py), so every kind is served by the same backend and batcher.

fp32 for reference, fp16 for GPU serving (softmax, layer norm and the other
numerically sensitive ops stay in fp32, which DeBERTa needs), and the int8
variants of scorers/nli/quantize.py for CPU: int8-weights (the shipped default:
batch-invariant), int8-blocks (batch-invariant, one weight scale per block of 32: for larger
models such as all-mpnet-base-v2), int8-static (batch-invariant, needs calibration pairs) and
int8 (dynamic: a pair's scores depend on its batch). An int8-weights model may also compute
in int8 with each row's activations quantised from that row alone (scorers/nli/row_int8.py,
built when it is loaded). The directory holds
model.onnx, the tokenizer (tokenizer.json), config.json with id2label, precision.txt and
export.json (source, precision, opset, kind, labels, input template, window);
`parity` compares it with the source model.
"""

from __future__ import annotations

import inspect
import json
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from groundwatch.scorers.nli import quantize
from groundwatch.training.model_export.export_kind import ExportKind, choose_kind, fast_tokenizer
from groundwatch.training.model_export.export_kind import plan as export_plan
from groundwatch.scorers.nli.kinds import read_config, read_kind

PRECISIONS = ("fp32", "fp16", "int8", "int8-static", "int8-weights", "int8-blocks")
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


def _export_fp32(model, inputs: dict, path: Path, opset: int) -> None:
    """fp32 ONNX of `model` called with `inputs` by name; batch and sequence axes dynamic."""
    import torch

    # Graph inputs follow forward()'s signature order, so name them in that order.
    params = list(inspect.signature(model.forward).parameters)
    names = sorted((k for k in inputs if k in params), key=params.index)
    inputs = {k: inputs[k] for k in names}
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["logits"] = {0: "batch"}
    with torch.no_grad():
        torch.onnx.export(model, (dict(inputs),), str(path), input_names=names, output_names=["logits"],
                          dynamic_axes=axes, opset_version=opset, do_constant_folding=True, dynamo=False)


def _dummy(tokenizer, plan: ExportKind) -> dict:
    premise, claim = "a premise that is long enough", "a hypothesis"
    if plan.kind.template:
        text = plan.kind.template.replace("{premise}", premise).replace("{claim}", claim)
        enc = tokenizer([text], return_tensors="pt")
    else:
        enc = tokenizer([premise], [claim], return_tensors="pt")
    if plan.kind.name == "seq2seq":  # the encoder reads ids and mask only
        return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}
    return dict(enc)


def load_reference(checkpoint: Path, plan: ExportKind):
    """The PyTorch model the export is made from: the classifier, or an encoder-decoder wrapped to
    return its label tokens' first-step logits (training/model_export/first_token.py)."""
    if plan.kind.name == "seq2seq":
        from transformers import AutoModelForSeq2SeqLM

        from groundwatch.training.model_export.first_token import FirstTokenLogits

        model = AutoModelForSeq2SeqLM.from_pretrained(str(checkpoint)).eval()
        return FirstTokenLogits(model, plan.start_token, [plan.tokens["unsupported"], plan.tokens["supported"]]).eval()
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(str(checkpoint)).eval()
    model.config.return_dict = True
    return model


def _calibration_batches(tokenizer, pairs: list[tuple[str, str]], max_length: int = 256, size: int = 16):
    for start in range(0, len(pairs), size):
        chunk = pairs[start:start + size]
        enc = tokenizer([p for p, _ in chunk], [h for _, h in chunk], truncation="longest_first",
                        max_length=max_length, padding=True, return_tensors="np")
        yield {k: v.astype(np.int64) for k, v in enc.items()}


def export_checkpoint(checkpoint: Path, output: Path, precision: str = "int8", opset: int = 17,
                      calibration: list[tuple[str, str]] | None = None, kind: str | None = None,
                      supported_label: str | None = None, unsupported_label: str | None = None,
                      input_template: str | None = None, max_length: int | None = None,
                      languages: tuple[str, ...] | None = None) -> Path:
    """Export; `calibration` (training pairs, never evaluation sets) is required for int8-static.
    The kind (nli3, grounding2, seq2seq), its labels, input template and window are read from the
    checkpoint or given (training/model_export/export_kind.py) and recorded in export.json, with the languages the
    model reads when given."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r}: expected one of {PRECISIONS}")
    if precision == "int8-static" and not calibration:
        raise ValueError("int8-static needs calibration pairs (training premises and hypotheses)")
    checkpoint, output = Path(checkpoint), Path(output)
    config = read_config(checkpoint)
    choose_kind(config, kind, f"{checkpoint}/config.json")  # refuse remote code before loading anything
    tokenizer = fast_tokenizer(checkpoint)
    plan = export_plan(checkpoint, config, tokenizer, kind, supported_label, unsupported_label, input_template,
                       max_length)
    if languages:
        plan = replace(plan, kind=replace(plan.kind, languages=tuple(languages)))
    if precision == "int8-static" and (plan.kind.name != "nli3" or plan.kind.template):
        raise ValueError("int8-static calibrates on NLI pairs: use it for nli3 models read as pairs")
    model = load_reference(checkpoint, plan)
    output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model.onnx"
        _export_fp32(model, _dummy(tokenizer, plan), fp32, opset)
        target = output / "model.onnx"
        if precision == "fp32":
            shutil.copy(fp32, target)
        elif precision == "int8":
            quantize.dynamic_int8(fp32, target)
        elif precision == "int8-weights":
            quantize.weights_int8(fp32, target)
        elif precision == "int8-blocks":
            quantize.blocks_int8(fp32, target)
        elif precision == "int8-static":
            inner = getattr(model.config, "intermediate_size", None)
            quantize.static_int8(fp32, target, _calibration_batches(tokenizer, calibration), keep_fp32_inner=inner)
        else:
            import onnx
            from onnxruntime.transformers.float16 import convert_float_to_float16

            half = convert_float_to_float16(onnx.load(str(fp32)), keep_io_types=True,
                                            op_block_list=FP16_KEEP_FP32)
            onnx.save(half, str(target))
    tokenizer.save_pretrained(str(output))  # a fast tokenizer: tokenizer.json is among the files
    model.config.save_pretrained(str(output))
    (output / "precision.txt").write_text(precision + "\n")
    (output / "export.json").write_text(json.dumps({"source": str(checkpoint), "precision": precision,
                                                    "opset": opset, **plan.record()}, indent=2))
    _check_servable(output)
    return output


def _check_servable(output: Path) -> None:
    """The runtime's reading of the directory: kind, and pairs rebuilt from token ids exactly as the
    tokenizer encodes the pair or the joined text (ModelLoadError otherwise, at export, not at serving)."""
    from groundwatch.scorers.nli.encoding import PairEncoder
    from groundwatch.scorers.nli.tokenizer import load_tokenizer

    kind = read_kind(output)
    PairEncoder(load_tokenizer(output, kind.template), kind.window(512))


def parity(checkpoint: Path, onnx_dir: Path, pairs: list[tuple[str, str]] | None = None) -> Parity:
    """Compare class probabilities of the ONNX export with the source PyTorch model, on the same inputs."""
    import torch

    from groundwatch.scorers.nli.onnx_backend import OnnxBackend

    pairs = pairs or PARITY_PAIRS
    backend = OnnxBackend(Path(onnx_dir), providers="cpu")
    model = load_reference(checkpoint, recorded_plan(onnx_dir))
    batch = [encs[0] for encs in backend.tokenize(pairs)]
    accepted = inspect.signature(model.forward).parameters
    features = {k: torch.from_numpy(v) for k, v in backend.features(batch).items() if k in accepted}
    with torch.no_grad():
        ref = model(**features)
    ref = (ref.logits if hasattr(ref, "logits") else ref).numpy()
    got = backend.infer(batch)
    p_ref, p_got = backend.kind.probabilities(ref), backend.kind.probabilities(got)
    return Parity(float(np.abs(p_ref - p_got).max()), float((p_ref.argmax(1) == p_got.argmax(1)).mean()), len(pairs))


def recorded_plan(onnx_dir: Path) -> ExportKind:
    """What export.json recorded (kind, label tokens, decoder start), as the export's plan."""
    record = json.loads((Path(onnx_dir) / "export.json").read_text())
    config = read_config(onnx_dir)
    return ExportKind(read_kind(onnx_dir), record.get("label_tokens"), config.get("decoder_start_token_id"))
