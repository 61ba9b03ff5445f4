"""Which ONNX Runtime builds are installed. Exactly one may be.

onnxruntime (CPU), onnxruntime-gpu and the other builds all install the same
`onnxruntime` module; with two of them the files of whichever was installed
last win, and the CUDA provider may silently be missing. pyproject.toml offers
them as alternative extras ([cpu], [gpu]); this check catches an environment
that got both anyway (a manual install, a constraints file).
"""

from __future__ import annotations

from importlib import metadata

from groundwatch.scorers.errors import ModelLoadError

BUILDS = ("onnxruntime", "onnxruntime-gpu", "onnxruntime-directml", "onnxruntime-openvino",
          "onnxruntime-qnn", "onnxruntime-rocm", "onnxruntime-training")


def _normalise(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def installed_builds() -> list[str]:
    """The ONNX Runtime distributions installed in this environment, e.g. ['onnxruntime-gpu']."""
    names = {_normalise(d.metadata["Name"] or "") for d in metadata.distributions()}
    return [b for b in BUILDS if b in names]


def require_single_build() -> str:
    """The one installed build; ModelLoadError when there is none or more than one."""
    builds = installed_builds()
    if not builds:
        raise ModelLoadError("no ONNX Runtime installed: pip install 'groundwatch[cpu]' (or [gpu] on CUDA nodes)")
    if len(builds) > 1:
        raise ModelLoadError(f"{' and '.join(builds)} are both installed and provide the same module; "
                             f"keep one: pip uninstall -y {' '.join(b for b in builds if b != 'onnxruntime-gpu')}"
                             " (CUDA nodes) or pip uninstall -y onnxruntime-gpu (CPU nodes)")
    return builds[0]
