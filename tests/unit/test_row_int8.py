"""Row-local int8 compute (scorers/nli/row_int8.py): an int8-weights model computed in int8 with each row's
activation scales from that row alone, so a pair scores the same alone or in any batch, close to fp32, and the
same whichever weight layout the CPU gets."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.scorers.nli.onnx_backend import OnnxBackend, int8_mode
from groundwatch.scorers.nli.quantize import weights_int8
from groundwatch.scorers.nli.row_int8 import LEVELS, has_int8_dot, rows_is_faster, rows_model, rows_model_source
from groundwatch.training.model_export.onnx_export import export_checkpoint

PAIRS = [("Refunds are available within 30 days of purchase.", "Refunds take 60 days."),
         ("A man plays a guitar on a stage in front of a large crowd at night.", "Someone makes music."),
         ("Short.", "A much longer hypothesis with many more tokens than the premise has in it."),
         ("The office is closed on Sundays.", "The office opens on Sunday."),
         ("The API allows 100 requests per minute per key.", "The limit is 100 requests per minute."),
         ("Water boils at 100 degrees Celsius at sea level.", "Water never boils."),
         ("The bridge opened in 1932 and carries eight lanes of traffic across the bay.", "The bridge opened in 1935."),
         ("Enterprise customers may request an extension to 60 days with approval.", "Everyone gets 60 days.")]


@pytest.fixture(scope="module")
def exports(compact_tiny, tmp_path_factory):
    base = tmp_path_factory.mktemp("rows-exports")
    fp32 = export_checkpoint(compact_tiny, base / "fp32", "fp32")
    weights = export_checkpoint(compact_tiny, base / "int8-weights", "int8-weights")
    return {"fp32": OnnxBackend(fp32, providers="cpu", threads=1),
            "rows": OnnxBackend(weights, providers="cpu", threads=1, int8_compute="rows")}


def _probs(backend, pairs) -> np.ndarray:
    return np.array([[s.entailment, s.neutral, s.contradiction] for s in backend.predict(pairs)])


def test_a_pair_scores_the_same_alone_and_in_any_batch(exports):
    rows = exports["rows"]
    assert rows.int8_compute == "rows"
    alone = np.concatenate([_probs(rows, [p]) for p in PAIRS])
    for order in (list(range(len(PAIRS))), list(range(len(PAIRS)))[::-1], [3, 0, 6, 1, 7, 2, 5, 4]):
        together = _probs(rows, [PAIRS[i] for i in order])
        assert np.abs(together - alone[order]).max() <= 1e-5
    longest = max(PAIRS, key=lambda p: len(p[0]) + len(p[1]))
    for i, pair in enumerate(PAIRS):  # beside the longest pair: a lot of padding
        assert np.abs(_probs(rows, [longest, pair])[1] - alone[i]).max() <= 1e-5


def test_argmax_agrees_with_fp32(exports):
    fp32, rows = _probs(exports["fp32"], PAIRS), _probs(exports["rows"], PAIRS)
    assert (fp32.argmax(1) == rows.argmax(1)).all()
    assert np.abs(fp32 - rows).max() < 0.05


def test_both_weight_layouts_give_the_same_scores(exports, tmp_path):
    """uint8 weights (CPUs without int8 dot products) and int8 weights compute the same integers."""
    import onnxruntime as ort

    path = exports["rows"].model_dir / "model.onnx"
    features = exports["rows"].features([e[0] for e in exports["rows"].tokenize(PAIRS)])
    outputs = []
    for int8_dot in (True, False):
        source = rows_model_source(path, int8_dot, cache=tmp_path)
        session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
        names = {i.name for i in session.get_inputs()}
        outputs.append(session.run(None, {k: v for k, v in features.items() if k in names})[0])
    assert np.array_equal(outputs[0], outputs[1])
    assert not list(tmp_path.glob("*.tmp"))  # no partial files left
    assert len(list(tmp_path.glob("*-int8.onnx"))) == 1 and len(list(tmp_path.glob("*-uint8.onnx"))) == 1


def test_the_cached_copy_is_reused_and_an_unwritable_cache_still_loads(exports, tmp_path):
    path = exports["rows"].model_dir / "model.onnx"
    first = rows_model_source(path, True, cache=tmp_path / "cache")
    assert isinstance(first, bytes) and rows_model_source(path, True, cache=tmp_path / "cache").endswith(".onnx")
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    assert isinstance(rows_model_source(path, True, cache=blocked / "cache"), bytes)


def test_auto_follows_the_cpu_and_cuda_keeps_its_own_kernels():
    assert int8_mode("auto") == ("rows" if rows_is_faster() else "fp32")
    assert int8_mode(True) == int8_mode("auto") and int8_mode(False) == "fp32"
    assert int8_mode("rows", cpu=False) == "blocks" and int8_mode("fp32", cpu=False) == "fp32"
    assert has_int8_dot({"avx2", "avx512_vnni"}) and has_int8_dot({"amx_int8"}) and not has_int8_dot({"avx2", "fma"})
    assert rows_is_faster({"avx2", "fma"}) and rows_is_faster({"asimd", "avx512_vnni"})
    assert not rows_is_faster({"sse4_2"}) and not rows_is_faster({"asimd", "asimddp"})
    with pytest.raises(Exception, match="int8_compute 'fast'"):
        int8_mode("fast")


def test_the_weight_matmuls_run_as_integer_products(tmp_path):
    import onnx

    w = np.random.default_rng(0).normal(size=(96, 64)).astype(np.float32)
    ops = [n.op_type for n in rows_model(onnx.load(str(_one_matmul(tmp_path, w))), True).graph.node]
    assert "MatMulIntegerToFloat" in ops and "MatMul" not in ops and "DequantizeLinear" not in ops
    assert "DynamicQuantizeLinear" not in ops


@pytest.mark.parametrize("int8_dot", [True, False])
def test_the_integer_product_is_exact_where_uint8_times_int8_pairs_are_largest(tmp_path, int8_dot):
    """Rows at their maximum against weights at +127: the largest pair sums an x86 kernel forms (a
    saturating one gives errors in the hundreds); the result must equal the row-local formula computed
    exactly in numpy, and each row alone the same as in the batch."""
    import onnxruntime as ort

    if int8_dot and not has_int8_dot():
        pytest.skip("the int8 layout is built only where the CPU has int8 dot products (it saturates without)")

    rng = np.random.default_rng(1)
    w = rng.normal(size=(96, 64)).astype(np.float32)
    w[:, 0] = np.abs(w).max()  # a column of +127 weights
    x = rng.normal(size=(5, 3, 96)).astype(np.float32)
    x[0, 0, :] = 2.0  # a constant row: the eps guard
    x[1, 1, :] = np.where(np.arange(96) % 2, 3.0, -0.5)  # half the row at its maximum
    source = rows_model_source(_one_matmul(tmp_path, w), int8_dot, cache=tmp_path / "cache")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": x})[0]
    assert np.abs(got - _reference(x, w)).max() <= 1e-4
    alone = [session.run(None, {"x": x[i:i + 1]})[0] for i in range(len(x))]
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
    """An fp32 graph x @ w, through the int8-weights export step (DequantizeLinear of int8 weights)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "one",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "s", w.shape[0]])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", "s", w.shape[1]])],
                              [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    source, path = tmp_path / "one-fp32.onnx", tmp_path / "one.onnx"
    onnx.save(model, str(source))
    weights_int8(source, path)
    return path


@pytest.mark.parametrize("int8_dot", [True, False])
def test_loading_the_rows_graph_writes_nothing_to_stderr(exports, tmp_path, capfd, int8_dot):
    """ONNX Runtime warns about every initializer no node reads: the graph carries none."""
    import onnxruntime as ort

    source = rows_model_source(exports["rows"].model_dir / "model.onnx", int8_dot, cache=tmp_path)
    capfd.readouterr()
    ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    assert "W:onnxruntime" not in capfd.readouterr().err
