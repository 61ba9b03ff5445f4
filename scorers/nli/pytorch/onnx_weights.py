"""The weights of a BERT classifier's ONNX export as a state dict, so the torch backend runs the shipped model
from the file the ONNX backend reads (one copy of the model in an install, not two).

The export keeps PyTorch's names for biases, norms and the embedding tables; a weight MatMul's matrix is named
by the exporter (`onnx::MatMul_746`) and stored transposed, so it takes the name of the bias its MatMul adds.
An int8-weights export stores a matrix as int8 with one scale per output channel behind DequantizeLinear: the
compact copy's integers and scales, so the dequantised values (and the logits) are the same bit for bit. The
state dict is cached as safetensors under the user's cache directory, keyed by the export's content: reading
the graph imports onnx (most of a second), once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from groundwatch.scorers.nli.row_int8 import cache_dir, keep

FORMAT = 1  # of the cached file: a new one whenever state_dict reads an export differently


def state_dict(model) -> dict[str, np.ndarray]:
    """fp32 arrays by PyTorch name from an onnx.ModelProto of a BERT classifier export (fp32 or int8-weights)."""
    from onnx import numpy_helper

    graph = model.graph
    constants = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    users: dict[str, list] = {}
    for node in graph.node:  # in graph order, so a constant's source is known before its users
        for name in node.input:
            users.setdefault(name, []).append(node)
        if node.op_type == "Identity" and node.input[0] in constants:  # equal tensors the exporter shares
            constants[node.output[0]] = constants[node.input[0]]
        elif node.op_type == "DequantizeLinear" and node.input[0] in constants:  # named as the fp32 original
            constants[node.output[0]] = _dequantize(node, constants)
    out = {name: value.astype(np.float32) for name, value in constants.items()
           if value.dtype.kind == "f" and not name.startswith("onnx::") and not name.endswith("_scale")}
    for node in graph.node:
        if node.op_type not in ("MatMul", "Gemm") or len(node.input) < 2 or node.input[1] not in constants:
            continue
        weight = constants[node.input[1]].astype(np.float32)
        if node.op_type == "MatMul" or not any(a.name == "transB" and a.i == 1 for a in node.attribute):
            weight = weight.T  # x @ W keeps W as (in, out); PyTorch as (out, in)
        name = _name(node, users, constants)
        if name is not None:
            out[name] = np.ascontiguousarray(weight)
    return out


def _dequantize(node, constants: dict) -> np.ndarray:
    """What DequantizeLinear computes for constant inputs, in fp32: (q - zero point) x scale along its axis."""
    q = constants[node.input[0]].astype(np.float32)
    if len(node.input) > 2 and node.input[2]:
        q = q - _along(constants[node.input[2]].astype(np.float32), node, q.ndim)
    return q * _along(constants[node.input[1]].astype(np.float32), node, q.ndim)


def _along(values: np.ndarray, node, ndim: int) -> np.ndarray:
    if values.ndim == 0:
        return values
    axis = next((a.i for a in node.attribute if a.name == "axis"), 1) % ndim
    shape = [1] * ndim
    shape[axis] = -1
    return values.reshape(shape)


def _name(node, users: dict, constants: dict) -> str | None:
    """The PyTorch name of a MatMul or Gemm weight: its own where the exporter kept it, else from the bias
    added to the product (`bert.encoder.layer.0.attention.self.query.bias` names the query weight)."""
    if not node.input[1].startswith("onnx::"):
        return node.input[1]
    biases = [name for user in users.get(node.output[0], []) if user.op_type == "Add"
              for name in user.input if name in constants and name.endswith(".bias")]
    return biases[0][:-len(".bias")] + ".weight" if len(biases) == 1 else None


def cached_state_dict(model_path: Path, cache: Path | None = None) -> dict[str, np.ndarray]:
    """state_dict of the export at `model_path`, read from the cache after the first time (written then, where
    it can be)."""
    from safetensors.numpy import load_file, save_file

    digest = hashlib.sha256(Path(model_path).read_bytes()).hexdigest()[:20]
    target = (cache or cache_dir("torch-weights")) / f"{digest}-v{FORMAT}.safetensors"
    if target.exists():
        return load_file(str(target))
    import onnx

    arrays = state_dict(onnx.load(str(model_path)))
    keep(target, lambda partial: save_file(arrays, str(partial)))
    return arrays
