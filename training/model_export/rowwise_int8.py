"""`int8-rows`: int8 weight MatMuls with each row's activations quantised from that row alone.

Every MatMul whose weight is a 2-D initializer becomes, in plain ONNX ops:

    lo, hi = ReduceMin(x, -1), ReduceMax(x, -1)         # this token's range only
    scale  = max(hi - lo, eps) / 255
    q      = Cast<uint8>(Round((x - lo) / scale))      # 0..255
    y      = (Cast<float>(MatMulInteger(q, W_u8, zero_point=128)) * scale) * w_scale + lo * colsum(W)

The integer product is exact and every float op is elementwise or reduces along the row, so a
pair's scores do not depend on its batch or padding (unlike DynamicQuantizeLinear: one scale per
tensor). The weights are stored as uint8 (int8 + 128, one scale per output channel: exact for the
compact int8 checkpoint) so ONNX Runtime takes its uint8 x uint8 kernel: on x86 without VNNI its
uint8 x int8 kernel sums pairs with VPMADDUBSW into int16, which saturates for 8-bit activations
(255 * 127 * 2 > 32767) and would need 7-bit activations, which cost too much agreement with fp32.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

LEVELS = 255.0  # 8-bit activations
EPS = 1e-8


def _weight_matmuls(graph, min_size: int) -> list:
    from onnx import numpy_helper

    weights = {i.name: i for i in graph.initializer}
    users: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            users[name] = users.get(name, 0) + 1
    out = []
    for node in graph.node:
        if node.op_type == "MatMul" and node.input[1] in weights and users[node.input[1]] == 1:
            w = numpy_helper.to_array(weights[node.input[1]])
            if w.ndim == 2 and w.size >= min_size:
                out.append((node, w))
    return out


def rows_int8(source: Path, target: Path, min_size: int = 4096) -> None:
    """Rewrite every weight MatMul of at least min_size weights as row-local int8 (see the module doc)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    matmuls = _weight_matmuls(graph, min_size)
    replaced = {id(node) for node, _ in matmuls}
    drop = {node.input[1] for node, _ in matmuls}
    constants = [numpy_helper.from_array(np.array(LEVELS, np.float32), "rows_int8_levels"),
                 numpy_helper.from_array(np.array(EPS, np.float32), "rows_int8_eps"),
                 numpy_helper.from_array(np.array(128, np.uint8), "rows_int8_w_zero")]
    rewritten: dict[int, list] = {}
    for node, w in matmuls:
        p = node.name or node.output[0]
        x, y = node.input[0], node.output[0]
        w_scale = (np.maximum(np.abs(w).max(axis=0), 1e-12) / 127.0).astype(np.float32)
        q = np.clip(np.round(w / w_scale), -127, 127).astype(np.int8)
        colsum = (q.astype(np.float64).sum(axis=0) * w_scale).astype(np.float32)
        u8 = (q.astype(np.int16) + 128).astype(np.uint8)  # with zero point 128: the same integers
        constants += [numpy_helper.from_array(u8, f"{p}_w_u8"), numpy_helper.from_array(w_scale, f"{p}_w_scale"),
                      numpy_helper.from_array(colsum, f"{p}_w_colsum")]
        n = lambda op, ins, outs, **kw: helper.make_node(op, ins, outs, name=f"{p}_{outs[0].split('/')[-1]}", **kw)  # noqa: E731
        rewritten[id(node)] = [
            n("ReduceMin", [x], [f"{p}/lo"], axes=[-1], keepdims=1),
            n("ReduceMax", [x], [f"{p}/hi"], axes=[-1], keepdims=1),
            n("Sub", [f"{p}/hi", f"{p}/lo"], [f"{p}/range"]),
            n("Max", [f"{p}/range", "rows_int8_eps"], [f"{p}/range_pos"]),
            n("Div", [f"{p}/range_pos", "rows_int8_levels"], [f"{p}/scale"]),
            n("Sub", [x, f"{p}/lo"], [f"{p}/shifted"]),
            n("Div", [f"{p}/shifted", f"{p}/scale"], [f"{p}/scaled"]),
            n("Round", [f"{p}/scaled"], [f"{p}/rounded"]),
            n("Cast", [f"{p}/rounded"], [f"{p}/q"], to=TensorProto.UINT8),
            n("MatMulInteger", [f"{p}/q", f"{p}_w_u8", "", "rows_int8_w_zero"], [f"{p}/acc"]),
            n("Cast", [f"{p}/acc"], [f"{p}/acc_f"], to=TensorProto.FLOAT),
            n("Mul", [f"{p}/acc_f", f"{p}/scale"], [f"{p}/row_scaled"]),
            n("Mul", [f"{p}/row_scaled", f"{p}_w_scale"], [f"{p}/product"]),
            n("Mul", [f"{p}/lo", f"{p}_w_colsum"], [f"{p}/offset"]),
            n("Add", [f"{p}/product", f"{p}/offset"], [y]),
        ]
    nodes = [new for node in graph.node for new in (rewritten[id(node)] if id(node) in replaced else [node])]
    kept = [i for i in graph.initializer if i.name not in drop]
    del graph.initializer[:]
    graph.initializer.extend(kept + constants)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
