"""bf16 with fixed shapes: a pair's scores do not depend on what shares its batch."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from groundwatch.scorers.nli.pytorch.backend import FIXED_ROWS, TorchBackend  # noqa: E402

PAIRS = [("The pool opens at 7 am on weekdays and at 9 am at weekends.", "The pool opens at 7 am on weekdays."),
         ("Refunds are available for 30 days.", "Refunds take 60 days."),
         ("A man is walking a dog along a long sandy beach while the sun sets behind the hills and a "
          "group of children builds sandcastles near the water.", "Children are on the beach."),
         ("Cats sleep.", "Dogs bark."),
         ("The library lends e-books and audiobooks through one app, and newspapers can be read online.",
          "The library lends audiobooks.")] * 3


@pytest.fixture(scope="module")
def fixed(tiny_checkpoint):
    return TorchBackend(tiny_checkpoint, max_length=128, device="cpu", bf16=True, fixed_shapes=True)


def test_a_pair_scores_the_same_alone_and_in_any_batch(fixed):
    encodings = [e[0] for e in fixed.tokenize(PAIRS)]
    alone = np.concatenate([fixed.infer([e]) for e in encodings])
    together = fixed.infer(encodings)
    reversed_ = fixed.infer(encodings[::-1])[::-1]
    assert len(encodings) > FIXED_ROWS  # more than one chunk of a bucket
    assert np.array_equal(alone, together)
    assert np.array_equal(alone, reversed_)


def test_chunks_score_the_same_on_one_core_or_two_and_leave_the_callers_threads(tiny_checkpoint):
    import torch

    before = torch.get_num_threads()
    one, two = (TorchBackend(tiny_checkpoint, max_length=128, device="cpu", bf16=True, fixed_shapes=True, threads=n)
                for n in (1, 2))
    encodings = [e[0] for e in one.tokenize(PAIRS)]
    assert np.array_equal(one.infer(encodings), two.infer(encodings))
    assert torch.get_num_threads() == before


def test_fixed_shapes_score_close_to_fp32(fixed, tiny_checkpoint):
    reference = TorchBackend(tiny_checkpoint, max_length=128, device="cpu")
    encodings = [e[0] for e in fixed.tokenize(PAIRS)]
    assert np.abs(fixed.infer(encodings) - reference.infer(encodings)).max() < 0.1


def test_auto_is_bf16_only_with_amx():
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.scorers.nli.pytorch.backend import torch_mode

    assert torch_mode("auto", cpu=True, flags={"avx512_bf16", "amx_bf16", "amx_tile"}) == "bf16"
    assert torch_mode("auto", cpu=True, flags={"avx512_bf16", "avx512_vnni"}) == "fp32"
    assert torch_mode("bf16", cpu=True, flags=set()) == "bf16"
    assert torch_mode("bf16", cpu=False) == "fp32"  # CUDA keeps its own precision
    with pytest.raises(ModelLoadError, match="torch_compute"):
        torch_mode("fp8", cpu=True)


def test_forced_bf16_is_fixed_shapes(tiny_checkpoint):
    backend = TorchBackend(tiny_checkpoint, max_length=128, device="cpu", compute="bf16")
    assert backend.fixed_shapes and backend.precision == "bf16 (fixed shapes)"
    assert TorchBackend(tiny_checkpoint, max_length=128, device="cpu", compute="fp32").precision == "fp32"


def test_a_second_opinion_directory_picks_its_backend(tiny_checkpoint, tiny_onnx, tmp_path):
    from groundwatch.scorers.nli.factory import backend_of

    assert backend_of(tiny_checkpoint, "onnx") == "torch"
    assert backend_of(tiny_onnx, "torch") == "onnx"
    assert backend_of(tmp_path, "onnx") == "onnx"  # neither: the scorer's backend, which names the problem


def test_backend_torch_without_a_directory_reads_the_shipped_export_as_its_compact_copy(tmp_path, monkeypatch):
    """The shipped ONNX export holds the compact copy's integers and scales: the same logits bit for bit, the
    second start from the cache."""
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR, load_backend

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    export = load_backend(None, "torch", threads=1)
    assert export.model_dir == DEFAULT_MODEL_DIR and export.precision.startswith(("bf16", "fp32"))
    compact = load_backend(DEFAULT_MODEL_DIR.parent / "nli-minilm-torch", "torch", threads=1)
    encodings = [e[0] for e in export.tokenize(PAIRS)]
    assert np.array_equal(export.infer(encodings), compact.infer(encodings))
    assert list(tmp_path.rglob("*.safetensors"))  # cached for the next start
    again = load_backend(None, "torch", threads=1)
    assert np.array_equal(again.infer(encodings[:3]), export.infer(encodings[:3]))


def test_an_fp32_export_gives_back_its_checkpoints_weights(tiny_checkpoint, tiny_onnx):
    import onnx
    from safetensors.numpy import load_file

    from groundwatch.scorers.nli.pytorch.onnx_weights import state_dict

    read = state_dict(onnx.load(str(Path(tiny_onnx) / "model.onnx")))
    saved = {n: v for n, v in load_file(str(Path(tiny_checkpoint) / "model.safetensors")).items()
             if not n.endswith("position_ids")}
    assert set(read) == set(saved)
    assert all(np.array_equal(read[n], saved[n]) for n in saved)
