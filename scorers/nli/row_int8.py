"""Row-local int8 compute for an int8-weights model, built when the model is loaded.

An int8-weights export (scorers/nli/quantize.py) stores each weight MatMul's weight as int8 with one
scale per output channel, behind DequantizeLinear. Here each such MatMul becomes, in ONNX ops:

    lo, hi = ReduceMin(x, -1), ReduceMax(x, -1)             # this token's range only
    range  = max(hi - lo, eps)
    q      = Cast<uint8>(Round((x - lo) * (255 / range)))  # 0..255
    y      = MatMulIntegerToFloat(q, W_int8, 1, w_scale) * (range / 255) + lo * colsum(W)

The integer product is exact and every float op is elementwise or reduces along the row, so a pair's
scores do not depend on its batch or its padding (a DynamicQuantizeLinear, one scale per tensor, would
make them). The weight layout follows the CPU: with int8 dot-product instructions (AVX-512 VNNI,
AVX-VNNI, AMX) ONNX Runtime's uint8 x int8 kernel is the fast one; without them that kernel sums pairs
into int16 with VPMADDUBSW, which saturates for 8-bit activations (255 * 127 * 2 > 32767), so there the
weights go as uint8 with zero point 128 and the uint8 x uint8 kernel computes the same integers. Both
layouts give the same scores.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from groundwatch.config.logs import get_logger

log = get_logger(__name__)

LEVELS = 255.0  # 8-bit activations
EPS = 1e-8
FORMAT = 2  # of the cached graph: a new one whenever rows_model builds a different graph
# CPU flags (/proc/cpuinfo) whose int8 dot products make the uint8 x int8 kernel exact and fast.
INT8_DOT_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8")


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    try:
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("flags", "Features"):
                return set(value.split())
    except OSError:
        pass
    return set()


def has_int8_dot(flags: set[str] | None = None) -> bool:
    flags = cpu_flags() if flags is None else flags
    return any(f in flags for f in INT8_DOT_FLAGS)


def rows_is_faster(flags: set[str] | None = None) -> bool:
    """Whether `rows` outpaces fp32 compute on this CPU (what `auto` picks): with int8 dot products, or with
    AVX2's uint8 x uint8 kernel (measured on an AVX2-only EPYC, docs/figures/nli-options-avx2.json). Elsewhere
    (ARM, older x86) it is unmeasured, so fp32."""
    flags = cpu_flags() if flags is None else flags
    return has_int8_dot(flags) or "avx2" in flags


def _weight_matmuls(graph) -> list[tuple[object, object]]:
    """(MatMul, its DequantizeLinear) for every MatMul whose weight is a per-output-channel int8 initializer
    dequantised for it alone."""
    initializers = {i.name for i in graph.initializer}
    producers = {out: node for node in graph.node for out in node.output}
    users: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            users[name] = users.get(name, 0) + 1
    out = []
    for node in graph.node:
        dq = producers.get(node.input[1]) if node.op_type == "MatMul" else None
        if (dq is not None and dq.op_type == "DequantizeLinear" and users[node.input[1]] == 1
                and all(name in initializers for name in dq.input[:2]) and len(dq.input) < 3
                and any(a.name == "axis" and a.i == 1 for a in dq.attribute)):
            out.append((node, dq))
    return out


def _reduce(op: str, x: str, out: str, name: str, opset: int, axes_name: str):
    from onnx import helper

    if opset >= 18:  # axes became an input
        return helper.make_node(op, [x, axes_name], [out], keepdims=1, name=name)
    return helper.make_node(op, [x], [out], axes=[-1], keepdims=1, name=name)


def rows_model(model, int8_dot: bool):
    """The int8-weights `model` (onnx.ModelProto, changed in place and returned) with every weight MatMul
    computed row-locally in int8; `int8_dot`: the CPU has int8 dot products (weights as int8), else uint8."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 17)
    matmuls = _weight_matmuls(graph)
    if not matmuls:
        return model
    weights = {i.name: i for i in graph.initializer}
    replaced = {id(node) for node, _ in matmuls} | {id(dq) for _, dq in matmuls}
    drop = {name for _, dq in matmuls for name in dq.input[:2]}
    # Only constants some node reads: ONNX Runtime warns on stderr about every unused initializer.
    constants = [numpy_helper.from_array(np.array(LEVELS, np.float32), "rows_levels"),
                 numpy_helper.from_array(np.array(EPS, np.float32), "rows_eps"),
                 numpy_helper.from_array(np.array(1.0, np.float32), "rows_one")]
    if opset >= 18:
        constants.append(numpy_helper.from_array(np.array([-1], np.int64), "rows_axes"))
    if not int8_dot:
        constants.append(numpy_helper.from_array(np.array(128, np.uint8), "rows_w_zero"))
    rewritten: dict[int, list] = {}
    for node, dq in matmuls:
        p = node.name or node.output[0]
        x, y = node.input[0], node.output[0]
        q = numpy_helper.to_array(weights[dq.input[0]])
        w_scale = numpy_helper.to_array(weights[dq.input[1]]).astype(np.float32)
        colsum = (q.astype(np.float64).sum(axis=0) * w_scale).astype(np.float32)
        if int8_dot:
            stored, zero = q.astype(np.int8), []
        else:
            stored, zero = (q.astype(np.int16) + 128).astype(np.uint8), ["rows_w_zero"]
        constants += [numpy_helper.from_array(stored, f"{p}_w_q"), numpy_helper.from_array(w_scale, f"{p}_w_scale"),
                      numpy_helper.from_array(colsum, f"{p}_w_colsum")]
        n = lambda op, ins, outs, **kw: helper.make_node(op, ins, outs, name=f"{p}_{outs[0].split('/')[-1]}", **kw)  # noqa: E731
        rewritten[id(node)] = [
            _reduce("ReduceMin", x, f"{p}/lo", f"{p}_lo", opset, "rows_axes"),
            _reduce("ReduceMax", x, f"{p}/hi", f"{p}_hi", opset, "rows_axes"),
            n("Sub", [f"{p}/hi", f"{p}/lo"], [f"{p}/range"]),
            n("Max", [f"{p}/range", "rows_eps"], [f"{p}/range_pos"]),
            n("Div", ["rows_levels", f"{p}/range_pos"], [f"{p}/inverse"]),
            n("Div", [f"{p}/range_pos", "rows_levels"], [f"{p}/scale"]),
            n("Sub", [x, f"{p}/lo"], [f"{p}/shifted"]),
            n("Mul", [f"{p}/shifted", f"{p}/inverse"], [f"{p}/scaled"]),
            n("Round", [f"{p}/scaled"], [f"{p}/rounded"]),
            n("Cast", [f"{p}/rounded"], [f"{p}/q"], to=TensorProto.UINT8),
            n("MatMulIntegerToFloat", [f"{p}/q", f"{p}_w_q", "rows_one", f"{p}_w_scale", "", *zero],
              [f"{p}/product"], domain="com.microsoft"),
            n("Mul", [f"{p}/product", f"{p}/scale"], [f"{p}/row_scaled"]),
            n("Mul", [f"{p}/lo", f"{p}_w_colsum"], [f"{p}/offset"]),
            n("Add", [f"{p}/row_scaled", f"{p}/offset"], [y]),
        ]
    nodes = [new for node in graph.node if id(node) not in replaced or id(node) in rewritten
             for new in rewritten.get(id(node), [node])]
    kept = [i for i in graph.initializer if i.name not in drop]
    del graph.initializer[:]
    graph.initializer.extend(kept + constants)
    del graph.node[:]
    graph.node.extend(nodes)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return model


def cache_dir(kind: str = "rows-int8") -> Path:
    """Where groundwatch keeps what it derives from a model file at load, one folder per `kind` of derivation."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "groundwatch" / kind


def keep(target: Path, write) -> None:
    """Write the cache file `target` through `write(path)` to a partial file and a rename, so a reader never sees
    half a file; where the cache cannot be written, nothing is kept and the next start derives it again."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        write(partial)
        os.replace(partial, target)
    except OSError as exc:
        log.debug("model_cache_unwritable", path=str(target.parent), error=type(exc).__name__)


def rows_model_source(path: Path, int8_dot: bool | None = None, cache: Path | None = None) -> bytes | str:
    """What an InferenceSession loads for the int8-weights model at `path` computed row-locally: a cached
    copy's path, or the serialised model. Building it imports onnx (most of a second), so the result is kept
    under `cache` (default: the user's cache directory), keyed by the model's content and the weight layout;
    where that cannot be written, every start builds it."""
    int8_dot = has_int8_dot() if int8_dot is None else int8_dot
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:20]
    target = (cache or cache_dir()) / f"{digest}-v{FORMAT}-{'int8' if int8_dot else 'uint8'}.onnx"
    if target.exists():
        return str(target)
    import onnx

    data = rows_model(onnx.load(str(path)), int8_dot).SerializeToString()
    keep(target, lambda partial: partial.write_bytes(data))
    return data
