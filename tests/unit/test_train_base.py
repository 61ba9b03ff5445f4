"""A run records the base it started from, says when the CPU cannot train in bf16, and can validate on fewer pairs."""

from __future__ import annotations

import json
import logging

import pytest

pytest.importorskip("torch")
from groundwatch.training import train  # noqa: E402


def test_the_manifest_names_a_fetched_base_or_the_run_it_continues(tmp_path):
    fetched, run = tmp_path / "base", tmp_path / "run"
    fetched.mkdir(), run.mkdir()
    (fetched / "BASE.json").write_text(json.dumps({"name": "sentence-transformers/all-mpnet-base-v2", "licence": "x"}))
    (run / "training_manifest.json").write_text(json.dumps({"base": "from an earlier run"}))
    assert train.base_description(fetched) == "sentence-transformers/all-mpnet-base-v2"
    assert train.base_description(run) == "from an earlier run"
    assert train.base_description(None).startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert train.base_description(tmp_path / "absent").startswith("sentence-transformers/all-MiniLM-L6-v2")
    # a resumed run's own manifest first; its --init folder may be gone in a later session
    assert train.base_description(run, tmp_path / "gone") == "from an earlier run"
    assert train.base_description(tmp_path / "no-manifest", fetched) == "sentence-transformers/all-mpnet-base-v2"


def test_a_checkpoint_that_records_no_base_is_named_by_its_architecture(tmp_path):
    """A run resumed from another run's --output (no manifest until a run ends) with its --init folder gone."""
    checkpoint = tmp_path / "output"
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text(json.dumps({"model_type": "mpnet"}))
    assert train.base_description(checkpoint, tmp_path / "gone").startswith("sentence-transformers/all-mpnet-base-v2")


@pytest.mark.parametrize(("cpuinfo", "expected"), [("flags : avx2 avx512f amx_bf16 amx_tile", True),
                                                    ("flags : avx2 avx512f avx512_bf16", True),
                                                    ("flags : avx2 fma avx512f", False)])
def test_bf16_is_read_from_the_cpu_flags(monkeypatch, cpuinfo, expected):
    monkeypatch.setattr(train.Path, "read_text", lambda self: cpuinfo)
    assert train._cpu_has_bf16() is expected


def test_a_cpu_without_bf16_is_reported_not_silently_run_in_fp32(monkeypatch, caplog, tmp_path):
    monkeypatch.setattr(train, "_cpu_has_bf16", lambda: False)

    class Stop(Exception):
        pass

    def stop(*_args, **_kwargs):
        raise Stop

    monkeypatch.setattr(train, "check_tokenizer", stop)  # the precision is decided before the model loads
    monkeypatch.setattr(train.torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr("transformers.AutoTokenizer.from_pretrained", stop)
    with caplog.at_level(logging.INFO, logger="groundwatch.train"), pytest.raises(Stop):
        train.main(["--output", str(tmp_path / "run"), "--init", str(tmp_path)])
    warning = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warning) == 1 and "no native bf16" in warning[0].getMessage()
    assert "training in fp32" in warning[0].getMessage()


def test_validation_can_keep_the_first_pairs_of_each_source(monkeypatch):
    pair = train.Pair
    held_out = {"a": [pair("p", f"h{i}", 0, "a") for i in range(5)], "b": [pair("p", "h", 1, "b")]}
    monkeypatch.setattr(train, "load_mix", lambda *a, **k: ([], {k: list(v) for k, v in held_out.items()}))
    monkeypatch.setattr(train.synthetic, "build", lambda *a, **k: [])
    args = train.parse_args(["--val-per-source", "2"])
    _, val = train.training_mix(args)
    assert [p.hypothesis for p in val["a"]] == ["h0", "h1"] and len(val["b"]) == 1


def test_a_saved_mpnet_tokenizer_tells_the_scorer_its_inputs(monkeypatch, tmp_path):
    from transformers import MPNetTokenizerFast

    from groundwatch.scorers.nli.tokenizer import load_tokenizer

    vocab = tmp_path / "vocab.txt"
    words = [f"word{i}" for i in range(1200)]  # the scorer refuses a tokenizer under 1,000 tokens as files missing
    vocab.write_text("\n".join(["<s>", "<pad>", "</s>", "<unk>", "[UNK]", "<mask>", *words]))
    MPNetTokenizerFast(vocab_file=str(vocab)).save_pretrained(tmp_path / "base")
    monkeypatch.setattr(train, "check_tokenizer", lambda tokenizer: None)  # a real vocabulary has 30,527 tokens
    train.training_tokenizer(tmp_path / "base").save_pretrained(tmp_path / "run")
    saved = json.loads((tmp_path / "run" / "tokenizer_config.json").read_text())
    assert saved["model_input_names"] == ["input_ids", "attention_mask"]
    assert load_tokenizer(tmp_path / "run").input_names == ("input_ids", "attention_mask")
