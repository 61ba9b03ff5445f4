"""One installed name: every package installs under `groundwatch.`, and no module loads under two names.

The stages keep their folders at the repository root (`scorers/` installs as `groundwatch.scorers`,
pyproject.toml's package-dir), so from the root a bare `import scorers` would find the folder too; each
folder's __init__ refuses that name.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("config", "consumer", "serve", "scorers", "export", "reports", "recall_probe", "evaluation", "audit",
           "training")


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


# Folders of data only (no module), listed as packages so setuptools ships them without its "Package would
# be ignored" warning; their files come from package-data.
DATA_PACKAGES = {"groundwatch.scorers.models": "scorers/models"}


def test_every_folder_with_an_init_is_a_listed_package():
    config = _setuptools()
    roots = {"groundwatch": "groundwatch", **config["package-dir"]}
    on_disk = set()
    for package, folder in roots.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            on_disk.add(".".join((package, *relative)))
    assert on_disk | set(DATA_PACKAGES) == set(config["packages"])
    for package, folder in DATA_PACKAGES.items():
        assert not list((ROOT / folder).rglob("*.py")) and package in config["package-data"], package
    assert set(config["package-dir"]) == {f"groundwatch.{name}" for name in FOLDERS}


IMPORT_ALL = """
import pkgutil, sys, groundwatch
names = [m.name for m in pkgutil.walk_packages(groundwatch.__path__, "groundwatch.")]
root, folders = sys.argv[1], sys.argv[2:]
names += [m.name for folder in folders for m in pkgutil.walk_packages(
    __import__("groundwatch." + folder, fromlist=["_"]).__path__, f"groundwatch.{folder}.")]
for name in names:
    __import__(name)
for bare in folders:
    try:
        __import__(bare)
    except ModuleNotFoundError:
        continue
    raise SystemExit(f"bare name {bare} imported")
by_file = {}
for name, module in list(sys.modules.items()):
    path = getattr(module, "__file__", None) or ""
    if path.startswith(root) and "site-packages" not in path:  # ours (not the venv's, nor os.path's aliases)
        by_file.setdefault(module.__file__, set()).add(name)
twice = {path: sorted(n) for path, n in by_file.items() if len(n) > 1}
print(len(names))
raise SystemExit(f"loaded under two names: {twice}" if twice else 0)
"""


def test_every_module_imports_once_under_one_name_from_the_repository_root():
    """As pytest and `python -m` run: the repository root on sys.path, every module of every package
    imported, then the ten bare folder names tried; no source file may be loaded under two names."""
    result = subprocess.run([sys.executable, "-c", IMPORT_ALL, str(ROOT), *FOLDERS], cwd=ROOT, capture_output=True,
                            text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    assert int(result.stdout.split()[-1]) > 150  # every module of every package was walked


@pytest.mark.parametrize("name", FOLDERS)
def test_a_bare_folder_name_is_refused_from_the_repository_root(name):
    result = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1
    assert f"ModuleNotFoundError: No module named '{name}': import groundwatch.{name}" in result.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(ROOT)], check=True, capture_output=True, timeout=600)
    return next(out.glob("groundwatch-*.whl"))


def test_the_wheel_installs_one_top_level_name(wheel):
    names = {Path(n).parts[0] for n in zipfile.ZipFile(wheel).namelist()}
    assert {n for n in names if not n.endswith(".dist-info")} == {"groundwatch"}
    listed = set(zipfile.ZipFile(wheel).namelist())
    assert "groundwatch/scorers/errors.py" in listed
    assert any(n.startswith("groundwatch/scorers/models/nli-minilm-int8-weights/") for n in listed)


def test_from_the_installed_wheel_only_groundwatch_imports(wheel, tmp_path):
    """A user's own `config` or `export` never resolves to ours: the unpacked wheel alone on the path
    (no site-packages, not the repository root)."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = ("import sys, importlib\n"
             "import groundwatch.scorers, groundwatch.config\n"
             "assert groundwatch.scorers.__file__.startswith(sys.argv[1]), groundwatch.scorers.__file__\n"
             "for bare in sys.argv[2:]:\n"
             "    try:\n"
             "        importlib.import_module(bare)\n"
             "    except ModuleNotFoundError:\n"
             "        continue\n"
             "    raise SystemExit(bare + ' imported')\n")
    result = subprocess.run([sys.executable, "-S", "-c", probe, str(site), *FOLDERS], cwd=tmp_path,
                            env={"PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
