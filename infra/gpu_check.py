#!/usr/bin/env python3
"""GPU check: the shipped NLI model, a DeBERTa-v2/v3 checkpoint and one tiny model per kind in fp16 on CUDA
against fp32 on CPU.

    infra/gpu-check.sh [--deberta DIR] [--responses 24] [--tolerance 0.02] [--json out.json]

Scores a fixed pair set (each answer sentence of the first N example responses against each of
its passages, plus eight hand-written pairs) with PyTorch: fp32 on the CPU as the reference, fp16
on CUDA as the candidate. Prints, per model and path, pairs/s (batches of 64, sorted by length),
p50 latency per response (one batch per response), and parity: the largest difference of any class
probability and the share of pairs whose predicted label agrees. Exits 1 when a model fails
parity (max |dp| over --tolerance, agreement under --min-agreement, or a NaN), 2 when there is no
CUDA device (unless --cpu-only, which compares fp32 CPU with itself in another batch size: the
CI self-test). A tiny randomly initialised DeBERTa-v2 is built either way (no download), and one tiny
random model per model kind (scorers/nli/kinds.py) is checked too: the DeBERTa-v2 as nli3, a two-label
RoBERTa reading "premise[SEP]claim" as grounding2, and a Flan-T5-shaped encoder-decoder scored by its
first answer token ("1" against "0", from "predict: premise[SEP]claim") as seq2seq.
Where onnxruntime-gpu is installed, the shipped model is also exported to fp16 ONNX and run on the
CUDA execution provider; otherwise that row says skipped. Needs torch, transformers, safetensors
and numpy only; nothing of Python 3.12 or later, and not onnxruntime-gpu.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPACT = ROOT / "scorers" / "models" / "nli-minilm-torch"
EXAMPLES = ROOT / "examples" / "responses.jsonl"
WEIGHTS = "weights.int8.safetensors"
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json")
# Kept in fp32 in the fp16 ONNX export, as training/model_export/onnx_export.py does.
FP16_KEEP_FP32 = ["Softmax", "LayerNormalization", "ReduceMean", "Pow", "Sqrt"]
FIXED_PAIRS = [
    ("Refunds are available within 30 days of purchase.", "Refunds are available for 60 days."),
    ("Refunds are available within 30 days of purchase.", "You can get a refund within 30 days."),
    ("The office is closed on Sundays.", "The office is open on Sundays."),
    ("Enterprise customers may request an extension to 60 days with approval.", "Everyone gets 60 days."),
    ("A man is playing a guitar on stage.", "A person plays music."),
    ("The API allows 100 requests per minute per key.", "The limit is 100 requests per minute."),
    ("The bridge opened in 1932 and carries eight lanes.", "The bridge opened in 1935."),
    ("Water boils at 100 degrees Celsius at sea level.", "Water boils at 100 C at sea level."),
]
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def responses(n: int) -> list[list[tuple[str, str]]]:
    """Pairs per response: (passage, answer sentence) for every sentence and passage; the fixed pairs last."""
    out = []
    for line in EXAMPLES.read_text().splitlines()[:n]:
        record = json.loads(line)
        sentences = [s.strip() for s in SENTENCE.split(record["answer"]) if len(s.split()) >= 3]
        out.append([(p["text"], s) for s in sentences for p in record["passages"]])
    out.append(list(FIXED_PAIRS))
    return out


def shipped_checkpoint(target: Path) -> Path:
    """The shipped model as an fp32 Hugging Face checkpoint (int8 rows times their scale, as
    training/compact_checkpoint.py stores them)."""
    import torch
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoModelForSequenceClassification

    raw = load_file(str(COMPACT / WEIGHTS))
    state = {}
    for name, tensor in raw.items():
        if name.endswith(".q"):
            state[name[:-2]] = tensor.float() * raw[name[:-2] + ".scale"].unsqueeze(1)
        elif not name.endswith(".scale"):
            state[name] = tensor
    model = AutoModelForSequenceClassification.from_config(AutoConfig.from_pretrained(str(COMPACT)))
    missing, unexpected = model.load_state_dict(state, strict=False)
    if unexpected or [m for m in missing if not m.endswith("position_ids")]:
        raise RuntimeError(f"compact checkpoint mismatch: missing={missing} unexpected={unexpected}")
    model.save_pretrained(str(target))
    _copy_tokenizer(target)
    del torch
    return target


def tiny_deberta(target: Path) -> Path:
    """A 2-layer DeBERTa-v2 with random weights (seed 0) and the shipped tokenizer, as in tests/tiny_models.py."""
    import torch
    from transformers import AutoTokenizer, DebertaV2Config, DebertaV2ForSequenceClassification

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(str(COMPACT))
    id2label = {0: "entailment", 1: "neutral", 2: "contradiction"}
    config = DebertaV2Config(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                             intermediate_size=64, max_position_embeddings=512, relative_attention=True,
                             position_buckets=64, pos_att_type=["p2c", "c2p"], position_biased_input=False,
                             num_labels=3, id2label=id2label, label2id={v: k for k, v in id2label.items()},
                             type_vocab_size=0)
    DebertaV2ForSequenceClassification(config).save_pretrained(str(target))
    _copy_tokenizer(target)
    return target


def tiny_roberta(target: Path) -> Path:
    """A two-label RoBERTa with random weights (seed 0), class 1 supported, as MiniCheck-RoBERTa ships."""
    import torch
    from transformers import AutoTokenizer, RobertaConfig, RobertaForSequenceClassification

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(str(COMPACT))
    config = RobertaConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=514, pad_token_id=tokenizer.pad_token_id,
                           type_vocab_size=1, num_labels=2, initializer_range=0.3)
    RobertaForSequenceClassification(config).save_pretrained(str(target))
    _copy_tokenizer(target)
    return target


def tiny_t5(target: Path) -> Path:
    """A Flan-T5-shaped encoder-decoder with random weights (seed 0); [SEP] ends a sequence, [PAD] starts decoding."""
    import torch
    from transformers import AutoTokenizer, T5Config, T5ForConditionalGeneration

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(str(COMPACT))
    config = T5Config(vocab_size=len(tokenizer), d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2,
                      num_heads=2, relative_attention_num_buckets=8, feed_forward_proj="gated-gelu",
                      tie_word_embeddings=False, pad_token_id=tokenizer.pad_token_id,
                      eos_token_id=tokenizer.sep_token_id, decoder_start_token_id=tokenizer.pad_token_id)
    T5ForConditionalGeneration(config).save_pretrained(str(target))
    _copy_tokenizer(target)
    return target


def _copy_tokenizer(target: Path) -> None:
    for name in TOKENIZER_FILES:
        if (COMPACT / name).exists():
            (target / name).write_bytes((COMPACT / name).read_bytes())


def label_order(config) -> list[int]:
    """Logit columns of entailment, neutral, contradiction, from the model's id2label."""
    by_name = {}
    for index, label in config.id2label.items():
        for name in ("entailment", "neutral", "contradiction"):
            if str(label).lower().startswith(name[:5]):
                by_name[name] = int(index)
    if len(by_name) != 3:
        raise SystemExit(f"id2label {config.id2label} lacks entailment/neutral/contradiction")
    return [by_name["entailment"], by_name["neutral"], by_name["contradiction"]]


# How each kind reads a pair: the tokenizer's pair template, or one joined text (as scorers/nli/kinds.py records).
TEMPLATES = {"nli3": None, "grounding2": "{premise}[SEP]{claim}", "seq2seq": "predict: {premise}[SEP]{claim}"}


class ScoringPath:
    """One model of one kind on one device in one precision. Probabilities come back as entailment,
    neutral, contradiction (nli3) or supported, unsupported (the two-way kinds)."""

    def __init__(self, checkpoint: Path, device: str, half: bool, max_length: int = 256, kind: str = "nli3"):
        import torch
        from transformers import AutoModelForSeq2SeqLM, AutoModelForSequenceClassification, AutoTokenizer

        self.torch = torch
        self.device = torch.device(device)
        self.kind = kind
        self.template = TEMPLATES[kind]
        self.tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
        loader = AutoModelForSeq2SeqLM if kind == "seq2seq" else AutoModelForSequenceClassification
        model = loader.from_pretrained(str(checkpoint)).eval().to(self.device)
        self.model = model.half() if half else model
        if kind == "nli3":
            self.order = label_order(model.config)
        elif kind == "grounding2":
            self.order = [1, 0]  # class 1 is supported
        else:  # the first tokens of the answers "1" (supported) and "0"
            self.order = [self.tokenizer("1", add_special_tokens=False)["input_ids"][0],
                          self.tokenizer("0", add_special_tokens=False)["input_ids"][0]]
            self.start = model.config.decoder_start_token_id
        self.max_length = max_length
        self.label = f"{device} {'fp16' if half else 'fp32'}"

    def encode(self, pairs: list[tuple[str, str]], **kwargs):
        if self.template is None:
            return self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation="longest_first",
                                  max_length=self.max_length, **kwargs)
        texts = [self.template.replace("{premise}", p).replace("{claim}", h) for p, h in pairs]
        encoded = self.tokenizer(texts, truncation=True, max_length=self.max_length, **kwargs)
        encoded.pop("token_type_ids", None)  # one text: a single segment
        return encoded

    def _sync(self) -> None:
        if self.device.type == "cuda":
            self.torch.cuda.synchronize()

    def probs(self, pairs: list[tuple[str, str]]):
        torch = self.torch
        enc = {k: v.to(self.device) for k, v in self.encode(pairs, padding=True, return_tensors="pt").items()}
        with torch.inference_mode():
            if self.kind == "seq2seq":  # the first decoding step; softmax over the two answer tokens
                start = torch.full((enc["input_ids"].shape[0], 1), self.start, dtype=torch.long, device=self.device)
                logits = self.model(**enc, decoder_input_ids=start, use_cache=False).logits[:, 0].float()
                return torch.softmax(logits[:, self.order], dim=-1).cpu().numpy()
            logits = self.model(**enc).logits.float()
        return torch.softmax(logits, dim=-1)[:, self.order].cpu().numpy()

    def run(self, per_response: list[list[tuple[str, str]]], batch_size: int) -> dict:
        import numpy as np

        flat = [pair for pairs in per_response for pair in pairs]
        self.probs(flat[:8])  # warm-up (CUDA context, kernels)
        self._sync()
        latencies = []
        for pairs in per_response:  # one batch per response, as the scorer sends a response's pairs
            start = time.perf_counter()
            self.probs(pairs)
            self._sync()
            latencies.append(time.perf_counter() - start)
        lengths = [len(ids) for ids in self.encode(flat)["input_ids"]]
        order = sorted(range(len(flat)), key=lengths.__getitem__)
        out = np.zeros((len(flat), len(self.order)))
        start = time.perf_counter()
        for i in range(0, len(order), batch_size):
            chunk = order[i:i + batch_size]
            out[chunk] = self.probs([flat[j] for j in chunk])
        self._sync()
        seconds = time.perf_counter() - start
        return {"path": self.label, "kind": self.kind, "pairs": len(flat), "pairs_per_s": len(flat) / seconds,
                "p50_ms_per_response": statistics.median(latencies) * 1000, "probs": out}


def parity(reference, candidate) -> tuple[float, float]:
    import numpy as np

    if not np.isfinite(candidate).all():
        return float("nan"), 0.0
    return float(np.abs(reference - candidate).max()), float((reference.argmax(1) == candidate.argmax(1)).mean())


def onnx_cuda(checkpoint: Path, per_response, tmp: Path) -> dict | None:
    """fp16 ONNX on the CUDA execution provider, when onnxruntime-gpu is installed; else None."""
    if importlib.util.find_spec("onnxruntime") is None:
        return None
    import numpy as np
    import onnxruntime as ort

    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return None
    import onnx
    import torch
    from onnxruntime.transformers.float16 import convert_float_to_float16
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
    model = AutoModelForSequenceClassification.from_pretrained(str(checkpoint)).eval()
    enc = tokenizer(["a premise that is long enough"], ["a hypothesis"], return_tensors="pt")
    names = list(enc.keys())
    fp32, fp16 = tmp / "model-fp32.onnx", tmp / "model-fp16.onnx"
    export = dict(input_names=names, output_names=["logits"], opset_version=17,
                  dynamic_axes={**{n: {0: "batch", 1: "sequence"} for n in names}, "logits": {0: "batch"}})
    with torch.no_grad():
        try:
            torch.onnx.export(model, (dict(enc),), str(fp32), dynamo=False, **export)
        except TypeError:  # a torch from before the dynamo switch
            torch.onnx.export(model, (dict(enc),), str(fp32), **export)
    onnx.save(convert_float_to_float16(onnx.load(str(fp32)), keep_io_types=True, op_block_list=FP16_KEEP_FP32),
              str(fp16))
    session = ort.InferenceSession(str(fp16), providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    if session.get_providers()[0] != "CUDAExecutionProvider":
        return {"path": "onnx cuda fp16", "error": "session did not start on CUDA"}
    order = label_order(model.config)
    inputs = {i.name for i in session.get_inputs()}

    def probs(pairs):
        e = tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation="longest_first", max_length=256,
                      padding=True, return_tensors="np")
        logits = session.run(None, {k: v.astype(np.int64) for k, v in e.items() if k in inputs})[0]
        z = np.exp(logits - logits.max(1, keepdims=True))
        return (z / z.sum(1, keepdims=True))[:, order]

    flat = [pair for pairs in per_response for pair in pairs]
    probs(flat[:8])
    latencies = []
    for pairs in per_response:
        start = time.perf_counter()
        probs(pairs)
        latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    out = np.concatenate([probs(flat[i:i + 64]) for i in range(0, len(flat), 64)])
    seconds = time.perf_counter() - start
    return {"path": "onnx cuda fp16", "pairs": len(flat), "pairs_per_s": len(flat) / seconds,
            "p50_ms_per_response": statistics.median(latencies) * 1000, "probs": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deberta", type=Path,
                    help="a DeBERTa-v2/v3 NLI checkpoint directory (default: none; the tiny random models run either way)")
    ap.add_argument("--responses", type=int, default=24, help="example responses in the pair set (default 24)")
    ap.add_argument("--tolerance", type=float, default=0.02, help="largest allowed |p_fp16 - p_fp32| (default 0.02)")
    ap.add_argument("--min-agreement", type=float, default=0.98, help="share of pairs with the same label")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--cpu-only", action="store_true", help="CI self-test: fp32 CPU against fp32 CPU, batch 7")
    ap.add_argument("--json", type=Path, dest="json_out")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("gpu-check: PyTorch is not installed", file=sys.stderr)
        return 2
    cuda = torch.cuda.is_available()
    if not cuda and not args.cpu_only:
        print("gpu-check: no CUDA device (torch.cuda.is_available() is False); --cpu-only runs the self-test",
              file=sys.stderr)
        return 2
    per_response = responses(args.responses)
    digest = hashlib.sha256(json.dumps(per_response).encode()).hexdigest()[:12]
    device = "cuda" if cuda else "cpu"
    print(f"pair set: {sum(map(len, per_response))} pairs in {len(per_response)} responses (sha256 {digest}); "
          f"torch {torch.__version__}, device {torch.cuda.get_device_name(0) if cuda else 'cpu only'}")
    rows, failed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        models = {"shipped (nli-minilm)": (shipped_checkpoint(tmp / "shipped"), "nli3")}
        if args.deberta:
            models["deberta"] = (args.deberta, "nli3")
        models["tiny random deberta-v2"] = (tiny_deberta(tmp / "tiny"), "nli3")
        models["tiny random roberta-2way"] = (tiny_roberta(tmp / "tiny-roberta"), "grounding2")
        models["tiny random t5-seq2seq"] = (tiny_t5(tmp / "tiny-t5"), "seq2seq")
        for name, (checkpoint, kind) in models.items():
            reference = ScoringPath(checkpoint, "cpu", half=False, kind=kind).run(per_response, args.batch_size)
            candidate = (ScoringPath(checkpoint, "cpu", half=False, kind=kind).run(per_response, 7) if args.cpu_only
                         else ScoringPath(checkpoint, device, half=True, kind=kind).run(per_response, args.batch_size))
            candidates = [candidate]
            if name.startswith("shipped") and cuda:
                onnx_row = onnx_cuda(checkpoint, per_response, tmp)
                candidates.append(onnx_row or {"path": "onnx cuda fp16", "skipped": "onnxruntime-gpu not installed"})
            rows.append({"model": name, **{k: v for k, v in reference.items() if k != "probs"}})
            for row in candidates:
                if "probs" in row:
                    diff, agreement = parity(reference["probs"], row["probs"])
                    ok = diff <= args.tolerance and agreement >= args.min_agreement  # NaN compares False
                    row.update(max_abs_dp=diff, agreement=agreement, parity="ok" if ok else "FAIL")
                    if not ok:
                        failed.append(f"{name} {row['path']}")
                rows.append({"model": name, **{k: v for k, v in row.items() if k != "probs"}})
    print(f"{'model':26} {'kind':10} {'path':16} {'pairs/s':>9} {'p50 ms/resp':>12} {'max|dp|':>9} {'agree':>6}"
          "  parity")
    for r in rows:
        if "skipped" in r or "error" in r:
            print(f"{r['model']:26} {'':10} {r['path']:16} {r.get('skipped') or r.get('error')}")
            continue
        print(f"{r['model']:26} {r.get('kind', 'nli3'):10} {r['path']:16} {r['pairs_per_s']:9.1f} "
              f"{r['p50_ms_per_response']:12.2f} "
              f"{r.get('max_abs_dp', 0.0):9.5f} {r.get('agreement', 1.0):6.3f}  {r.get('parity', 'reference')}")
    if args.json_out:
        args.json_out.write_text(json.dumps({"pair_set": digest, "rows": rows}, indent=2) + "\n")
    if failed:
        print(f"gpu-check: parity FAILED for {', '.join(failed)}", file=sys.stderr)
        return 1
    print("gpu-check: parity ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
