"""int8 variants of an fp32 ONNX export, and whether a pair's scores can depend on its batch.

- `int8` (dynamic): activation scales are computed per batch at run time, so a pair's
  probabilities move with whatever else shares its batch (and its padding). Kept for comparison.
- `int8-static` (QDQ): per-channel int8 weights, activation ranges fixed by calibration on
  training pairs; a fixed scale per tensor makes every row's arithmetic its own (batch-invariant).
  The feed-forward down-projections stay fp32: their GELU inputs carry outliers that one
  per-tensor scale cannot hold (argmax agreement with fp32 on held-out pairs 0.91 with them
  quantised, 0.97 without; the model card has the figures).
- `int8-weights`: int8 weights, one scale per output channel, behind DequantizeLinear. How it
  computes is scorer.int8_compute, each mode batch-invariant: `rows` (scorers/nli/row_int8.py:
  int8 products with each row's activations quantised from that row alone), `blocks` (ONNX
  Runtime's MatMulNBits at accuracy level 4: activations quantised per row and block of 32
  columns) or `fp32` (the session option `session.disable_quant_qdq` folds the weights to fp32 at
  load: the fp32 export's scores when the checkpoint's weights were int8 already).
- `int8-blocks`: int8 weights with one scale per block of 32 input values of each output channel, as
  ONNX Runtime's MatMulNBits (8 bits, accuracy level 4: activations quantised per row and block, so
  batch-invariant). For models whose weights one scale per channel cannot hold: all-mpnet-base-v2's
  argmax agreement with its fp32 export is 0.86-0.88 with int8-weights, 0.99 with int8-blocks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np

# Session options that make ONNX Runtime fold DequantizeLinear of constant weights at load (fp32 compute).
FOLD_WEIGHTS = {"session.disable_quant_qdq": "1"}
# The MatMulNBits compute mode of int8_compute blocks (4: int8 with activation scales per row and block of 32).
INT8_COMPUTE = {"session.qdq_matmulnbits_accuracy_level": "4"}


def _consumers(graph) -> dict[str, list[tuple[object, int]]]:
    out: dict[str, list[tuple[object, int]]] = {}
    for node in graph.node:
        for index, name in enumerate(node.input):
            out.setdefault(name, []).append((node, index))
    return out


def _output_axis(uses: list[tuple[object, int]]) -> int | None:
    """Axis of a 2-D weight that indexes output channels, from how the graph uses it; None: leave it."""
    kinds = {(node.op_type, index) for node, index in uses}
    if kinds and all(k == ("MatMul", 1) for k in kinds):
        return 1  # x @ W with W (in, out)
    if kinds and all(k == ("Gather", 0) for k in kinds):
        return 0  # embedding table: one scale per row
    if kinds and all(k == ("Gemm", 1) for k in kinds):
        trans_b = [a.i for node, _ in uses for a in node.attribute if a.name == "transB"]
        return 0 if trans_b and trans_b[0] == 1 else 1
    return None


def dynamic_int8(source: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), per_channel=True, weight_type=QuantType.QInt8)


def weights_int8(source: Path, target: Path, min_size: int = 4096) -> None:
    """Every 2-D weight of at least min_size values as int8 with one fp32 scale per output channel."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    uses = _consumers(graph)
    initializers, dequantize = [], []
    for init in graph.initializer:
        weight = numpy_helper.to_array(init)
        axis = _output_axis(uses.get(init.name, [])) if weight.ndim == 2 and weight.size >= min_size else None
        if axis is None:
            initializers.append(init)
            continue
        scale = (np.maximum(np.abs(weight).max(axis=1 - axis), 1e-12) / 127.0).astype(np.float32)
        shape = (1, -1) if axis == 1 else (-1, 1)
        q = np.clip(np.round(weight / scale.reshape(shape)), -127, 127).astype(np.int8)
        initializers += [numpy_helper.from_array(q, f"{init.name}_int8"),
                         numpy_helper.from_array(scale, f"{init.name}_scale")]
        dequantize.append(helper.make_node("DequantizeLinear", [f"{init.name}_int8", f"{init.name}_scale"],
                                           [init.name], axis=axis, name=f"{init.name}_dequantize"))
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    nodes = dequantize + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def blocks_int8(source: Path, target: Path, block: int = 32) -> None:
    """Every weight MatMul as MatMulNBits (8-bit, symmetric, `block` input values per scale, int8 compute);
    embedding tables as int8-weights stores them (one scale per row)."""
    import tempfile

    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    quantizer = MatMulNBitsQuantizer(onnx.load(str(source)), bits=8, block_size=block, is_symmetric=True,
                                     accuracy_level=4)
    quantizer.process()
    with tempfile.TemporaryDirectory() as tmp:
        blocks = Path(tmp) / "blocks.onnx"
        quantizer.model.save_model_to_file(str(blocks), use_external_data_format=False)
        weights_int8(blocks, target)  # only the Gather tables are left to it


class _Batches:
    """onnxruntime's CalibrationDataReader over prepared feature dicts."""

    def __init__(self, batches: list[dict[str, np.ndarray]]):
        self.batches = batches
        self._it = iter(batches)

    def get_next(self):
        return next(self._it, None)

    def rewind(self):
        self._it = iter(self.batches)


def static_int8(source: Path, target: Path, calibration: Iterable[dict[str, np.ndarray]],
                keep_fp32_inner: int | None = None) -> None:
    """QDQ static int8 of the weight MatMuls; weights whose input dimension is keep_fp32_inner
    (the feed-forward down-projections: intermediate_size) stay fp32."""
    import onnx
    from onnx import numpy_helper
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    model = onnx.load(str(source))
    shapes = {i.name: numpy_helper.to_array(i).shape for i in model.graph.initializer}
    nodes = [n.name for n in model.graph.node
             if n.op_type in ("MatMul", "Gemm") and n.input[1] in shapes
             and not (keep_fp32_inner and shapes[n.input[1]][0] == keep_fp32_inner)]
    quantize_static(str(source), str(target), _Batches(list(calibration)), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    op_types_to_quantize=["MatMul", "Gemm"], nodes_to_quantize=nodes,
                    calibrate_method=CalibrationMethod.MinMax)
