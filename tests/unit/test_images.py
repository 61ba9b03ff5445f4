"""Dockerfile and Dockerfile.cuda, checked statically (no Docker engine here or in CI): every COPY
source exists, every package is copied, the entry point is groundwatch, the user is not root, the
Python and package versions match pyproject.toml, the tags and model path match the chart, the runtime
stages install no torch (only the CUDA image's export stage does, pinned); and the [cpu] / [gpu] extras
cannot install two ONNX Runtime builds."""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CHART = ROOT / "helm" / "groundwatch"
ORT_BUILDS = {"onnxruntime", "onnxruntime-gpu", "onnxruntime-directml", "onnxruntime-openvino"}


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)


def _parse(path: Path) -> tuple[dict[str, str], list[Stage]]:
    """Global ARG defaults and the stages, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", path.read_text())
    args, stages = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        op, _, rest = line.partition(" ")
        op = op.upper()
        if op == "FROM":
            parts = rest.split()
            stages.append(Stage(parts[0], parts[2] if len(parts) > 2 and parts[1].upper() == "AS" else None))
        elif op == "ARG" and not stages and "=" in rest:
            key, value = rest.split("=", 1)
            args[key.strip()] = value.strip()
        elif stages:
            stages[-1].instructions.append((op, rest))
    return args, stages


def _expand(text: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), text)


def _pins() -> dict[str, str]:
    out = {}
    extras = PYPROJECT["project"]["optional-dependencies"].values()
    for dep in PYPROJECT["project"]["dependencies"] + [d for deps in extras for d in deps]:
        req = Requirement(dep)
        exact = [s.version for s in req.specifier if s.operator == "=="]
        if exact:
            out[req.name.lower()] = exact[0]
    return out


IMAGES = {"Dockerfile": "", "Dockerfile.cuda": "-cuda"}


@pytest.fixture(params=list(IMAGES), ids=list(IMAGES))
def image(request):
    path = ROOT / request.param
    args, stages = _parse(path)
    return request.param, path, args, stages


def test_every_copy_source_exists_and_is_not_ignored(image):
    _, _, _, stages = image
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    for stage in stages:
        for op, rest in stage.instructions:
            if op not in ("COPY", "ADD") or "--from=" in rest:
                continue
            sources = shlex.split(rest)[:-1]
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such path"
                assert source.split("/")[0] not in ignored, f"COPY {source} is excluded by .dockerignore"


def test_every_installed_package_is_copied(image):
    _, _, _, stages = image
    wanted = {"groundwatch", *PYPROJECT["tool"]["setuptools"]["package-dir"].values()}
    for stage in stages:
        copied = {shlex.split(rest)[0] for op, rest in stage.instructions if op == "COPY" and "--from=" not in rest}
        if "pyproject.toml" in copied:
            assert wanted <= copied, f"stage {stage.name}: packages not copied: {wanted - copied}"
            assert all((ROOT / p).is_dir() for p in wanted)


def test_entry_point_is_groundwatch_and_user_is_not_root(image):
    _, _, _, stages = image
    final = stages[-1]
    entry = [rest for op, rest in final.instructions if op == "ENTRYPOINT"]
    assert entry and entry[-1] == '["groundwatch"]'
    users = [rest.split(":")[0] for op, rest in final.instructions if op == "USER"]
    assert users and users[-1] not in ("root", "0")
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    assert users[-1] == str(values["securityContext"]["runAsUser"])  # the chart runs it as that uid
    env = " ".join(rest for op, rest in final.instructions if op == "ENV")
    for writable in ("HOME=/tmp", "HF_HOME=/tmp/", "XDG_CACHE_HOME=/tmp/", "HF_HUB_OFFLINE=1"):
        assert writable in env  # read-only root filesystem: caches under /tmp, nothing fetched


def test_python_and_pinned_packages_match_pyproject(image):
    name, _, args, stages = image
    requires = SpecifierSet(PYPROJECT["project"]["requires-python"])
    version = args["PYTHON_VERSION"]
    assert requires.contains(version + ".0"), f"{name}: Python {version} outside {requires}"
    pins = _pins()
    runs = " ".join(_expand(rest, args) for stage in stages for op, rest in stage.instructions if op == "RUN")
    for package, pinned in re.findall(r'"([A-Za-z0-9_.-]+)==([^"\s]+)"', runs):
        assert pins.get(package.lower()) == pinned, f"{name}: {package}=={pinned}, pyproject: {pins.get(package.lower())}"
    if "TORCH_VERSION" in args:
        assert pins["torch"] == args["TORCH_VERSION"]
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    for extra in re.findall(r'pip install "\.\[([a-z,]+)\]"', runs):
        assert set(extra.split(",")) <= extras


def test_the_runtime_stages_install_no_torch(image):
    """The stage the final image copies its venv from installs [cpu] or [gpu] alone and checks that
    torch, transformers and onnx stayed out; only an export stage may install torch."""
    name, _, _, stages = image
    final = stages[-1]
    sources = {rest.split()[0].split("=", 1)[1] for op, rest in final.instructions
               if op == "COPY" and rest.startswith("--from=") and "/opt/venv" in rest}
    runtime = [s for s in stages if s.name in sources] or [final]
    for stage in runtime:
        runs = " ".join(rest for op, rest in stage.instructions if op == "RUN")
        assert not re.search(r"pip install [^&;]*torch", runs), f"{name}: stage {stage.name} installs torch"
        assert re.search(r'pip install "\.\[(cpu|gpu)\]"', runs), f"{name}: stage {stage.name} is not [cpu]/[gpu] alone"
        assert "missing('export') == ['torch', 'transformers', 'onnx']" in runs
    for stage in stages:
        runs = " ".join(rest for op, rest in stage.instructions if op == "RUN")
        if re.search(r"pip install [^&;]*torch", runs):
            assert stage not in runtime and '"torch==${TORCH_VERSION}" --index-url https://download.pytorch.org/whl/cpu' in runs


def test_tags_and_versions_match_the_chart(image):
    name, path, _, stages = image
    suffix = IMAGES[name]
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    version = PYPROJECT["project"]["version"]
    assert chart["appVersion"] == version
    labels = " ".join(rest for op, rest in stages[-1].instructions if op == "LABEL")
    assert f'org.opencontainers.image.version="{version}{suffix}"' in labels
    assert f"-t {values['image']['repository']}:{version}{suffix} " in path.read_text()
    if suffix:
        gpu = yaml.safe_load((CHART / "values-gpu-t4.yaml").read_text())
        assert gpu["image"]["tag"] == f"{version}{suffix}"
    else:
        assert (values["image"]["tag"] or chart["appVersion"]) == version


def test_cuda_image_has_onnxruntime_gpu_only_and_the_fp16_model():
    args, stages = _parse(ROOT / "Dockerfile.cuda")
    final, build = stages[-1], stages[-2]
    assert final.base == build.base == "${CUDA_IMAGE}" and "cudnn-runtime" in args["CUDA_IMAGE"]
    build_runs = " ".join(rest for op, rest in build.instructions if op == "RUN")
    assert 'pip install ".[gpu]"' in build_runs and "[cpu]" not in build_runs
    assert "require_single_build" in build_runs  # the build fails if a CPU onnxruntime came in too
    copies = [shlex.split(rest) for op, rest in final.instructions if op == "COPY"]
    assert ["--from=build", "/opt/venv", "/opt/venv"] in copies
    gpu_values = yaml.safe_load((CHART / "values-gpu-t4.yaml").read_text())
    model_dir = gpu_values["settings"]["scorer"]["model_dir"]
    assert ["--from=export", "/models/nli-minilm-fp16", model_dir] in copies
    export_runs = " ".join(rest for op, rest in stages[0].instructions if op == "RUN")
    assert "--precision fp16" in export_runs and "/models/nli-minilm-fp16" in export_runs


def test_onnxruntime_comes_from_exactly_one_extra():
    base = {Requirement(d).name.lower() for d in PYPROJECT["project"]["dependencies"]}
    assert not base & ORT_BUILDS, "an ONNX Runtime build in the base dependencies installs beside [gpu]"
    extras = PYPROJECT["project"]["optional-dependencies"]
    builds = {name: {Requirement(d).name.lower() for d in deps} & ORT_BUILDS for name, deps in extras.items()}
    assert builds["cpu"] == {"onnxruntime"} and builds["gpu"] == {"onnxruntime-gpu"}
    assert not any(b for name, b in builds.items() if name not in ("cpu", "gpu"))
    setup = (ROOT / "infra" / "setup.sh").read_text()
    assert 'ort="${GROUNDWATCH_ORT:-cpu}"' in setup and '-e ".[${ort}' in setup
