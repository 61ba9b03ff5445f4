"""int8-rows (training/model_export/rowwise_int8.py): int8 compute whose activation scales come from each row
alone, so a pair scores the same alone or in any batch, and close to fp32."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.scorers.nli.onnx_backend import OnnxBackend
from groundwatch.training.model_export.onnx_export import export_checkpoint
from groundwatch.training.model_export.rowwise_int8 import LEVELS, rows_int8

PAIRS = [("Refunds are available within 30 days of purchase.", "Refunds take 60 days."),
         ("A man plays a guitar on a stage in front of a large crowd at night.", "Someone makes music."),
         ("Short.", "A much longer hypothesis with many more tokens than the premise has in it."),
         ("The office is closed on Sundays.", "The office opens on Sunday."),
         ("The API allows 100 requests per minute per key.", "The limit is 100 requests per minute."),
         ("Water boils at 100 degrees Celsius at sea level.", "Water never boils."),
         ("The bridge opened in 1932 and carries eight lanes of traffic across the bay.", "The bridge opened in 1935."),
         ("Enterprise customers may request an extension to 60 days with approval.", "Everyone gets 60 days.")]


@pytest.fixture(scope="module")
def compact_tiny(tiny_checkpoint, tmp_path_factory):
    """The tiny checkpoint through the compact int8 copy and back, as the shipped model is built."""
    from groundwatch.training.compact_checkpoint import materialise, save_compact

    base = tmp_path_factory.mktemp("compact-tiny-rows")
    return materialise(save_compact(tiny_checkpoint, base / "compact"), base / "materialised")


@pytest.fixture(scope="module")
def exports(compact_tiny, tmp_path_factory):
    base = tmp_path_factory.mktemp("rows-exports")
    return {p: OnnxBackend(export_checkpoint(compact_tiny, base / p, p), providers="cpu", threads=1)
            for p in ("fp32", "int8-rows")}


def _probs(backend, pairs) -> np.ndarray:
    return np.array([[s.entailment, s.neutral, s.contradiction] for s in backend.predict(pairs)])


def test_a_pair_scores_the_same_alone_and_in_any_batch(exports):
    rows = exports["int8-rows"]
    assert rows.precision == "int8-rows"
    alone = np.concatenate([_probs(rows, [p]) for p in PAIRS])
    for order in (list(range(len(PAIRS))), list(range(len(PAIRS)))[::-1], [3, 0, 6, 1, 7, 2, 5, 4]):
        together = _probs(rows, [PAIRS[i] for i in order])
        assert np.abs(together - alone[order]).max() <= 1e-5
    longest = max(PAIRS, key=lambda p: len(p[0]) + len(p[1]))
    for i, pair in enumerate(PAIRS):  # beside the longest pair: a lot of padding
        assert np.abs(_probs(rows, [longest, pair])[1] - alone[i]).max() <= 1e-5


def test_argmax_agrees_with_fp32(exports):
    fp32, rows = _probs(exports["fp32"], PAIRS), _probs(exports["int8-rows"], PAIRS)
    assert (fp32.argmax(1) == rows.argmax(1)).all()
    assert np.abs(fp32 - rows).max() < 0.05


def test_the_weight_matmuls_run_as_integer_products(tmp_path):
    import onnx

    w = np.random.default_rng(0).normal(size=(96, 64)).astype(np.float32)
    source = _one_matmul(tmp_path, w)
    rows_int8(source, tmp_path / "rows.onnx")
    ops = [n.op_type for n in onnx.load(str(tmp_path / "rows.onnx")).graph.node]
    assert "MatMulInteger" in ops and "MatMul" not in ops and "DynamicQuantizeLinear" not in ops


def test_the_integer_product_is_exact_where_uint8_times_int8_pairs_are_largest(tmp_path):
    """Rows at their maximum against weights at +127: the largest pair sums an x86 kernel forms (a
    saturating one gives errors in the hundreds); the result must equal the row-local formula computed
    exactly in numpy."""
    import onnxruntime as ort

    rng = np.random.default_rng(1)
    w = rng.normal(size=(96, 64)).astype(np.float32)
    w[:, 0] = np.abs(w).max()  # a column of +127 weights
    x = rng.normal(size=(5, 3, 96)).astype(np.float32)
    x[0, 0, :] = 2.0  # a constant row: the eps guard
    x[1, 1, :] = np.where(np.arange(96) % 2, 3.0, -0.5)  # half the row at its maximum
    rows_int8(_one_matmul(tmp_path, w), tmp_path / "rows.onnx")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    got = ort.InferenceSession(str(tmp_path / "rows.onnx"), options, providers=["CPUExecutionProvider"]).run(
        None, {"x": x})[0]
    assert np.abs(got - _reference(x, w)).max() <= 1e-4
    alone = [ort.InferenceSession(str(tmp_path / "rows.onnx"), options, providers=["CPUExecutionProvider"]).run(
        None, {"x": x[i:i + 1]})[0] for i in range(len(x))]
    assert np.array_equal(np.concatenate(alone), got)


def _reference(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    w_scale = np.maximum(np.abs(w).max(axis=0), 1e-12) / 127.0
    qw = np.clip(np.round(w / w_scale), -127, 127)
    lo, hi = x.min(-1, keepdims=True), x.max(-1, keepdims=True)
    scale = np.maximum(hi - lo, 1e-8) / LEVELS
    qx = np.round((x - lo) / scale)
    assert qx.min() >= 0 and qx.max() <= 255
    return (qx.astype(np.int64) @ qw.astype(np.int64)) * scale * w_scale + lo * (qw.sum(0) * w_scale)


def _one_matmul(tmp_path, w: np.ndarray):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "one",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "s", w.shape[0]])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", "s", w.shape[1]])],
                              [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "one.onnx"
    onnx.save(model, str(path))
    return path
