"""int8 exports on a tiny model: which ones keep a pair's scores independent of its batch, and the
int8-weights export reproducing fp32 exactly when the checkpoint's weights are int8 already."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.scorers.nli.factory import load_backend
from groundwatch.scorers.nli.onnx_backend import OnnxBackend
from groundwatch.training.model_export.onnx_export import export_checkpoint

PAIRS = [("Refunds are available within 30 days of purchase.", "Refunds take 60 days."),
         ("A man plays a guitar on a stage in front of a large crowd at night.", "Someone makes music."),
         ("Short.", "A much longer hypothesis with many more tokens than the premise has in it."),
         ("The office is closed on Sundays.", "The office opens on Sunday.")]


def _probs(backend, pairs) -> np.ndarray:
    return np.array([[s.entailment, s.neutral, s.contradiction] for s in backend.predict(pairs)])


def _invariance(backend) -> float:
    alone = np.concatenate([_probs(backend, [p]) for p in PAIRS])
    together = _probs(backend, PAIRS)
    reversed_ = _probs(backend, PAIRS[::-1])[::-1]
    return float(max(np.abs(alone - together).max(), np.abs(alone - reversed_).max()))


@pytest.mark.parametrize("precision", ["fp32", "int8-weights", "int8-blocks", "int8-static"])
def test_batch_invariant_exports(compact_tiny, tmp_path, precision):
    calibration = [(p, h) for p, h in PAIRS] * 4
    out = export_checkpoint(compact_tiny, tmp_path / precision, precision, calibration=calibration)
    modes = ("rows", "blocks", "fp32") if precision == "int8-weights" else ("auto",)
    for mode in modes:  # every way an int8-weights model may compute
        backend = OnnxBackend(out, providers="cpu", threads=1, int8_compute=mode)
        assert backend.precision == precision
        assert _invariance(backend) <= 1e-5


def test_int8_static_needs_calibration_pairs(compact_tiny, tmp_path):
    with pytest.raises(ValueError, match="calibration"):
        export_checkpoint(compact_tiny, tmp_path / "s", "int8-static")


def test_int8_weights_folded_at_load_equal_fp32_when_the_weights_are_int8(compact_tiny, tmp_path):
    fp32 = OnnxBackend(export_checkpoint(compact_tiny, tmp_path / "fp32", "fp32"), providers="cpu", threads=1)
    weights = export_checkpoint(compact_tiny, tmp_path / "w", "int8-weights")
    folded = OnnxBackend(weights, providers="cpu", threads=1, int8_compute="fp32")
    assert np.abs(_probs(folded, PAIRS) - _probs(fp32, PAIRS)).max() <= 1e-6
    # scorer.int8_compute = false (the setting's earlier form) loads the same way: the fp32 export's scores from the int8 file
    off = load_backend(weights, "onnx", "cpu", threads=1, int8_compute=False)
    assert np.abs(_probs(off, PAIRS) - _probs(fp32, PAIRS)).max() <= 1e-6
    assert (weights / "model.onnx").stat().st_size < 0.5 * (tmp_path / "fp32" / "model.onnx").stat().st_size


def test_int8_blocks_runs_its_matmuls_as_8_bit_blocks_and_agrees_with_fp32(compact_tiny, tmp_path):
    import onnx

    fp32 = OnnxBackend(export_checkpoint(compact_tiny, tmp_path / "fp32", "fp32"), providers="cpu", threads=1)
    out = export_checkpoint(compact_tiny, tmp_path / "blocks", "int8-blocks")
    nodes = onnx.load(str(out / "model.onnx")).graph.node
    nbits = [n for n in nodes if n.op_type == "MatMulNBits"]
    assert nbits and all({a.name: a.i for a in n.attribute}["bits"] == 8 for n in nbits)
    assert all({a.name: a.i for a in n.attribute}["block_size"] == 32 for n in nbits)
    blocks = OnnxBackend(out, providers="cpu", threads=1)
    assert blocks.precision == "int8-blocks" and blocks.int8_compute is None
    assert (_probs(blocks, PAIRS).argmax(1) == _probs(fp32, PAIRS).argmax(1)).all()
    assert np.abs(_probs(blocks, PAIRS) - _probs(fp32, PAIRS)).max() < 0.05


@pytest.mark.parametrize("mode", ["rows", "blocks", "fp32"])
def test_a_batch_cut_into_one_part_per_thread_scores_as_one_part(compact_tiny, tmp_path, mode):
    """With two threads each batch runs as two single-threaded halves at once: the same scores, bit for bit."""
    weights = export_checkpoint(compact_tiny, tmp_path / "w", "int8-weights")
    one = OnnxBackend(weights, providers="cpu", threads=1, int8_compute=mode)
    two = OnnxBackend(weights, providers="cpu", threads=2, int8_compute=mode)
    assert (one.parts, two.parts) == (1, 2)
    encodings = sorted((e[0] for e in one.tokenize(PAIRS * 3)), key=len)
    assert np.array_equal(one.infer(encodings), two.infer(encodings))
    assert np.array_equal(one.infer(encodings[:1]), two.infer(encodings[:1]))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_cut_into_pieces_of_a_few_tokens_scores_as_one_piece(compact_tiny, tmp_path, threads):
    weights = export_checkpoint(compact_tiny, tmp_path / "w", "int8-weights")
    whole = OnnxBackend(weights, providers="cpu", threads=threads, int8_compute="rows")
    cut = OnnxBackend(weights, providers="cpu", threads=threads, int8_compute="rows")
    whole._parts.piece_tokens, cut._parts.piece_tokens = 0, 24  # about one pair a piece
    encodings = sorted((e[0] for e in whole.tokenize(PAIRS * 3)), key=len)
    assert np.array_equal(whole.infer(encodings), cut.infer(encodings))
