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
import os
from pathlib import Path

import numpy as np

from groundwatch.config.logs import get_logger
from groundwatch.scorers.nli.row_int8 import cache_dir

log = get_logger(__name__)

FORMAT = 1  # of the cached file: a new one whenever state_dict reads an export differently


def state_dict(model) -> dict[str, np.ndarray]:
    """fp32 arrays by PyTorch name from an onnx.ModelProto of a BERT classifier export (fp32 or int8-weights)."""
    from onnx import numpy_helper

    graph = model.graph
    initializers = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:  # the exporter shares equal tensors (zero biases, unit norms) through Identity
        if node.op_type == "Identity" and node.input[0] in initializers:
            initializers[node.output[0]] = initializers[node.input[0]]
    producers = {out: node for node in graph.node for out in node.output}
    users: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    out = {name: value.astype(np.float32) for name, value in initializers.items()
           if not name.startswith("onnx::") and value.dtype.kind == "f" and "_scale" not in name}
    for node in graph.node:
        if node.op_type not in ("MatMul", "Gemm") or len(node.input) < 2:
            continue
        weight, source = _weight(node.input[1], producers, initializers)
        if weight is None:
            continue
        if node.op_type == "MatMul":  # x @ W: W is (in, out), PyTorch keeps (out, in)
            weight = weight.T
        elif not any(a.name == "transB" and a.i == 1 for a in node.attribute):
            weight = weight.T
        name = _name(node, source, users, initializers)
        if name is not None:
            out[name] = np.ascontiguousarray(weight)
    for name, value in initializers.items():  # quantised tables read by Gather (the embeddings)
        if name.endswith("_int8") and not name.startswith("onnx::") and name[:-len("_int8")] not in out:
            weight, _ = _weight_of_dequantize(name, users, initializers)
            if weight is not None:
                out[name[:-len("_int8")]] = weight
    return out


def _weight(name: str, producers: dict, initializers: dict):
    """(fp32 matrix, initializer name) of a MatMul or Gemm weight input: an initializer, or one behind
    DequantizeLinear; (None, None) for an activation."""
    if name in initializers:
        return initializers[name].astype(np.float32), name
    node = producers.get(name)
    if node is not None and node.op_type == "DequantizeLinear" and node.input[0] in initializers:
        return _dequantize(node, initializers), node.input[0]
    return None, None


def _weight_of_dequantize(name: str, users: dict, initializers: dict):
    for node in users.get(name, []):
        if node.op_type == "DequantizeLinear":
            return _dequantize(node, initializers), name
    return None, None


def _dequantize(node, initializers: dict) -> np.ndarray:
    """What DequantizeLinear computes for constant inputs, in fp32: (q - zero point) x scale along its axis."""
    q = initializers[node.input[0]].astype(np.float32)
    scale = initializers[node.input[1]].astype(np.float32)
    if len(node.input) > 2 and node.input[2]:
        q = q - _along(initializers[node.input[2]].astype(np.float32), node, q.ndim)
    return q * _along(scale, node, q.ndim)


def _along(values: np.ndarray, node, ndim: int) -> np.ndarray:
    if values.ndim == 0:
        return values
    axis = next((a.i for a in node.attribute if a.name == "axis"), 1) % ndim
    shape = [1] * ndim
    shape[axis] = -1
    return values.reshape(shape)


def _name(node, source: str, users: dict, initializers: dict) -> str | None:
    """The PyTorch name of a MatMul or Gemm weight: its own where the exporter kept it, else from the bias
    added to the product (`bert.encoder.layer.0.attention.self.query.bias` names the query weight)."""
    base = source[:-len("_int8")] if source.endswith("_int8") else source
    if not base.startswith("onnx::"):
        return base
    biases = [name for user in users.get(node.output[0], []) if user.op_type == "Add"
              for name in user.input if name in initializers and name.endswith(".bias")]
    return biases[0][:-len(".bias")] + ".weight" if len(biases) == 1 else None


def cached_state_dict(model_path: Path, cache: Path | None = None) -> dict[str, np.ndarray]:
    """state_dict of the export at `model_path`, read from the cache after the first time (written then, where
    it can be)."""
    from safetensors.numpy import load_file, save_file

    digest = hashlib.sha256(Path(model_path).read_bytes()).hexdigest()[:20]
    target = (cache or cache_dir().parent / "torch-weights") / f"{digest}-v{FORMAT}.safetensors"
    if target.exists():
        return load_file(str(target))
    import onnx

    arrays = state_dict(onnx.load(str(model_path)))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        save_file(arrays, str(partial))
        os.replace(partial, target)  # a reader never sees half a file
    except OSError as exc:
        log.debug("torch_weights_cache_unwritable", path=str(target.parent), error=type(exc).__name__)
    return arrays
