"""A run's compact copy (int8 + block scales) holds an MPNet cross-encoder as well as a BERT one, and keeps the
run's progress so the next session can resume from it."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
from groundwatch.training.compact_checkpoint import WEIGHTS, materialise, save_compact  # noqa: E402
from groundwatch.training.labels import ID2LABEL, LABEL2ID  # noqa: E402


@pytest.fixture(scope="module")
def tiny_mpnet(tmp_path_factory):
    from transformers import MPNetConfig, MPNetForSequenceClassification

    torch.manual_seed(0)
    config = MPNetConfig(vocab_size=120, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=128, max_position_embeddings=66, num_labels=3,
                         id2label=ID2LABEL, label2id=LABEL2ID)
    path = tmp_path_factory.mktemp("tiny-mpnet")
    MPNetForSequenceClassification(config).save_pretrained(path)
    (path / "progress.json").write_text(json.dumps({"step": 7, "of": 10, "loss": 1.0, "args": {"lr": 3e-5}}))
    (path / "training_manifest.json").write_text(json.dumps({"base": "tiny"}))
    return path


def test_an_mpnet_checkpoint_round_trips_through_the_compact_copy(tiny_mpnet, tmp_path):
    from transformers import AutoModelForSequenceClassification

    compact = save_compact(tiny_mpnet, tmp_path / "compact", run_files=True)
    restored = AutoModelForSequenceClassification.from_pretrained(materialise(compact, tmp_path / "cache")).eval()
    original = AutoModelForSequenceClassification.from_pretrained(tiny_mpnet).eval()
    ids = torch.tensor([[0, 5, 17, 42, 2, 2, 9, 11, 2]])
    with torch.no_grad():
        a, b = original(input_ids=ids).logits.softmax(-1), restored(input_ids=ids).logits.softmax(-1)
    assert type(restored).__name__ == "MPNetForSequenceClassification"
    assert restored.config.id2label == ID2LABEL
    assert (a - b).abs().max().item() < 0.02  # int8: close, not equal
    assert json.loads((compact / "progress.json").read_text())["step"] == 7


def test_only_a_runs_copy_keeps_its_progress(tiny_mpnet, tmp_path):
    compact = save_compact(tiny_mpnet, tmp_path / "shipped-style")
    assert (compact / WEIGHTS).exists() and not (compact / "progress.json").exists()


def test_block_scales_keep_a_row_with_an_outlier_close_and_the_row_format_still_loads():
    """One large weight in a row costs only its block's precision; a copy with one scale per row (the
    shipped MiniLM copy's format) dequantises as before."""
    from groundwatch.scorers.nli.pytorch.compact import dequantise
    from groundwatch.training.compact_checkpoint import BLOCK

    row = torch.linspace(-0.05, 0.05, 4 * BLOCK)
    row[3] = 4.0  # an outlier in the first block
    q_row = torch.round(row / (row.abs().max() / 127)).to(torch.int8)
    per_row = dequantise(q_row.unsqueeze(0), (row.abs().max() / 127).reshape(1))[0]
    blocks = row.view(-1, BLOCK)
    scale = (blocks.abs().amax(1) / 127).half()
    q = torch.round(blocks / scale.float().unsqueeze(1)).to(torch.int8).view(1, -1)
    per_block = dequantise(q, scale.unsqueeze(0))[0]
    rest = slice(BLOCK, None)  # the blocks without the outlier
    assert (per_block[rest] - row[rest]).abs().max() < 1e-3 < (per_row[rest] - row[rest]).abs().max()


def test_the_compact_copy_stores_block_scales(tiny_mpnet, tmp_path):
    from safetensors.torch import load_file

    from groundwatch.training.compact_checkpoint import BLOCK

    raw = load_file(str(save_compact(tiny_mpnet, tmp_path / "c") / WEIGHTS))
    matrices = [n[:-2] for n in raw if n.endswith(".q")]
    assert matrices
    for name in matrices:
        q, scale = raw[f"{name}.q"], raw[f"{name}.scale"]
        assert q.dtype == torch.int8 and scale.dtype == torch.float16
        assert scale.shape == (q.shape[0], q.shape[1] // BLOCK)
