"""What the benchmark ran on: cores, CPU features that matter for int8/fp16, GPU, library versions."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

# Instruction sets that change transformer inference speed on CPU.
INTERESTING_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8",
                     "amx_bf16")


def cpu_info(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict:
    model, flags = platform.processor() or "unknown", set()
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model in ("unknown", "", "x86_64"):
                model = value.strip()
            elif key.strip() == "flags" and not flags:
                flags = set(value.split())
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"model": model, "logical_cores": os.cpu_count(), "usable_cores": usable,
            "flags": [f for f in INTERESTING_FLAGS if f in flags]}


def gpu_info() -> dict | None:
    import torch

    if not torch.cuda.is_available():
        return None
    return {"name": torch.cuda.get_device_name(0), "count": torch.cuda.device_count(),
            "cuda": torch.version.cuda}


def versions() -> dict:
    out = {"python": platform.python_version()}
    for package in ("torch", "onnxruntime", "onnxruntime-gpu", "transformers", "sentence-transformers"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass
    return out


def machine() -> dict:
    import onnxruntime as ort

    return {"cpu": cpu_info(), "gpu": gpu_info(), "onnxruntime_providers": ort.get_available_providers(),
            "versions": versions()}
