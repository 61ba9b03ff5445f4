"""The production export path, on tiny randomly initialised checkpoints built here."""

import numpy as np
import pytest

from groundwatch.scorers.nli.onnx_backend import OnnxBackend
from groundwatch.training.model_export.onnx_export import PARITY_PAIRS, export_checkpoint, parity
from tests.tiny_models import tiny_deberta_checkpoint

ODD_ORDER = {0: "neutral", 1: "contradiction", 2: "entailment"}


@pytest.fixture(scope="module")
def deberta(tmp_path_factory):
    return tiny_deberta_checkpoint(tmp_path_factory.mktemp("deberta"), ODD_ORDER)


@pytest.mark.parametrize("precision, tolerance", [("fp32", 1e-4), ("int8", 0.05), ("fp16", 0.01)])
def test_deberta_v2_exports_and_matches_pytorch(deberta, tmp_path, precision, tolerance):
    import torch
    from transformers import AutoModelForSequenceClassification

    out = export_checkpoint(deberta, tmp_path / precision, precision)
    assert (out / "model.onnx").exists() and (out / "config.json").exists()
    assert (out / "precision.txt").read_text().strip() == precision
    backend = OnnxBackend(out, providers="cpu")
    # Different lengths than the export's dummy input: relative positions must not be baked in.
    batch = [encs[0] for encs in backend.tokenize(PARITY_PAIRS)]
    model = AutoModelForSequenceClassification.from_pretrained(str(deberta)).eval()
    with torch.no_grad():
        reference = model(**{k: torch.from_numpy(v) for k, v in backend.features(batch).items()}).logits.numpy()
    got = backend.infer(batch)
    assert np.abs(got - reference).max() < tolerance
    report = parity(deberta, out)
    assert report.n == len(PARITY_PAIRS) and report.max_abs_prob_diff < tolerance


def test_label_order_is_read_from_id2label(deberta, tmp_path):
    import torch
    from transformers import AutoModelForSequenceClassification

    out = export_checkpoint(deberta, tmp_path / "fp32", "fp32")
    backend = OnnxBackend(out, providers="cpu")
    assert backend.labels == {"neutral": 0, "contradiction": 1, "entailment": 2}
    model = AutoModelForSequenceClassification.from_pretrained(str(deberta)).eval()
    features = backend.features([encs[0] for encs in backend.tokenize(PARITY_PAIRS[:2])])
    with torch.no_grad():
        probs = torch.softmax(model(**{k: torch.from_numpy(v) for k, v in features.items()}).logits, -1).numpy()
    scores = backend.predict(PARITY_PAIRS[:2])
    for row, s in zip(probs, scores):
        assert s.entailment == pytest.approx(row[2], abs=1e-4)
        assert s.neutral == pytest.approx(row[0], abs=1e-4)
        assert s.contradiction == pytest.approx(row[1], abs=1e-4)


@pytest.mark.parametrize("precision", ["int8", "int8-weights"])
def test_export_command_prints_parity(deberta, tmp_path, capsys, precision):
    from groundwatch.cli import main

    assert main(["export-model", "--checkpoint", str(deberta), "--output", str(tmp_path / "o"),
                 "--precision", precision]) == 0
    out = capsys.readouterr().out
    assert "parity on 8 pairs" in out and "argmax agreement" in out
    assert (tmp_path / "o" / "precision.txt").read_text().strip() == precision


def test_export_command_rejects_a_non_checkpoint(tmp_path, capsys):
    from groundwatch.cli import main

    assert main(["export-model", "--checkpoint", str(tmp_path), "--output", str(tmp_path / "o")]) == 2
    assert "no config.json" in capsys.readouterr().err
