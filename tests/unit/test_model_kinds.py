"""Model kinds end to end: a tiny randomly initialised checkpoint of each architecture (BERT nli3,
two-label RoBERTa grounding2 read as one joined text, T5 seq2seq), exported by `groundwatch export-model`,
loaded and run through `groundwatch score` on the examples. Records are well-formed, the same in another
batch order, and a two-way model never makes a claim CONTRADICTED on its own.

The models are random: these tests check the plumbing (export, labels, templates, batching, the verdict
rule per kind), not any checker's accuracy. Embeddings are off to keep the runs short; evidence ranking
is not what they test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundwatch.cli import main
from tests.tiny_models import tiny_bert_checkpoint, tiny_roberta_grounding_checkpoint, tiny_t5_checkpoint

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "responses.jsonl"
VERDICTS = {"SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED"}
KINDS = {
    "nli3": (tiny_bert_checkpoint, []),
    # MiniCheck-RoBERTa's config says LABEL_0 / LABEL_1 and it reads "document</s>claim" ([SEP] here).
    "grounding2": (tiny_roberta_grounding_checkpoint, ["--supported-label", "1", "--input-template",
                                                       "{premise}[SEP]{claim}"]),
    "seq2seq": (tiny_t5_checkpoint, []),  # the default template: "predict: {premise}{eos}{claim}"
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """kind -> (export directory, what export-model printed)."""
    out = {}
    for kind, (build, options) in KINDS.items():
        base = tmp_path_factory.mktemp(kind)
        checkpoint = build(base / "checkpoint")
        target = base / "onnx"
        import contextlib
        import io

        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            assert main(["export-model", "--checkpoint", str(checkpoint), "--output", str(target), *options]) == 0
        out[kind] = (target, printed.getvalue())
    return out


def _score(model: Path, responses: Path, output: Path, batch_size: int, monkeypatch) -> list[dict]:
    monkeypatch.setenv("GROUNDWATCH_SCORER__USE_EMBEDDINGS", "false")
    assert main(["score", "--input", str(responses), "--output", str(output), "--model", str(model),
                 "--batch-size", str(batch_size), "--no-progress"]) == 0
    return [json.loads(line) for line in output.read_text().splitlines()]


@pytest.fixture(scope="module")
def scored(exported, tmp_path_factory):
    """kind -> (records in file order, records of the reversed file scored 5 at a time)."""
    monkeypatch = pytest.MonkeyPatch()
    try:
        reversed_input = tmp_path_factory.mktemp("reversed") / "responses.jsonl"
        reversed_input.write_text("".join(reversed(EXAMPLES.read_text().splitlines(keepends=True))))
        out = {}
        for kind, (model, _) in exported.items():
            work = tmp_path_factory.mktemp(f"scored-{kind}")
            forward = _score(model, EXAMPLES, work / "forward.jsonl", 32, monkeypatch)
            backward = _score(model, reversed_input, work / "backward.jsonl", 5, monkeypatch)
            out[kind] = (forward, backward)
        return out
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("kind", list(KINDS))
def test_export_records_the_kind(exported, kind):
    model, printed = exported[kind]
    record = json.loads((model / "export.json").read_text())
    assert record["kind"] == kind and record["precision"] == "int8-weights"
    assert record["max_length"] == 512  # the MiniLM tokenizer's model_max_length; no position table is shorter
    assert (model / "tokenizer.json").is_file() and (model / "model.onnx").is_file()
    card = (model / "MODEL_CARD.md").read_text()
    assert f"`{kind}`" in card and "parity" in card.lower()
    assert f"kind {kind}" in printed and "parity on 8 pairs" in printed
    if kind == "grounding2":
        assert record["labels"] == {"supported": 1, "unsupported": 0}
        assert record["input"] == "{premise}[SEP]{claim}"
    if kind == "seq2seq":
        assert record["input"] == "predict: {premise}[SEP]{claim}"  # {eos}: the tokenizer's end token
        assert set(record["label_tokens"]) == {"supported", "unsupported"}


@pytest.mark.parametrize("kind", list(KINDS))
def test_records_are_well_formed(scored, kind):
    forward, _ = scored[kind]
    expected = [json.loads(line)["request_id"] for line in EXAMPLES.read_text().splitlines()]
    assert [r["request_id"] for r in forward] == expected
    checked = 0
    for record in forward:
        assert record["model"].startswith("onnx@") and record["scorer_version"]
        for claim in record["claims"]:
            assert claim["verdict"] in VERDICTS
            for e in claim["evidence"]:
                assert abs(e["entailment"] + e["neutral"] + e["contradiction"] - 1) < 1e-3
                assert 0 <= e["entailment"] <= 1
            checked += bool(claim["evidence"])
    assert checked > 100  # the examples' claims were scored, not skipped


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_same_verdicts_in_another_batch_order(scored, kind):
    forward, backward = scored[kind]
    strip = lambda r: {k: v for k, v in r.items() if k != "scored_at"}  # noqa: E731
    assert {r["request_id"]: strip(r) for r in backward} == {r["request_id"]: strip(r) for r in forward}


@pytest.mark.parametrize("kind", ["grounding2", "seq2seq"])
def test_a_two_way_model_never_convicts_on_its_own(scored, kind):
    forward, _ = scored[kind]
    claims = [c for r in forward for c in r["claims"]]
    assert all(e["contradiction"] == 0.0 for c in claims for e in c["evidence"])
    # The model said "unsupported" with confidence on some claims: read as contradiction, they would convict.
    assert any(e["neutral"] >= 0.9 for c in claims for e in c["evidence"])
    convicted = [c for c in claims if c["verdict"] == "CONTRADICTED"]
    assert all("contradicted_by_check" in c.get("flags", []) for c in convicted)


def test_a_three_way_model_may_convict(scored):
    forward, _ = scored["nli3"]
    assert any(e["contradiction"] > 0 for r in forward for c in r["claims"] for e in c["evidence"])


def test_a_checkpoint_without_tokenizer_json_gets_one_at_export(tmp_path):
    from groundwatch.scorers.nli.onnx_backend import OnnxBackend
    from groundwatch.training.model_export.onnx_export import export_checkpoint

    checkpoint = tiny_bert_checkpoint(tmp_path / "checkpoint")
    (checkpoint / "tokenizer.json").unlink()  # only the slow tokenizer's files (vocab.txt) are left
    out = export_checkpoint(checkpoint, tmp_path / "onnx", "fp32")
    assert (out / "tokenizer.json").is_file()
    [scores] = OnnxBackend(out, providers="cpu").predict([("A cat sleeps.", "A cat sleeps.")])
    assert abs(scores.entailment + scores.neutral + scores.contradiction - 1) < 1e-6


def test_a_sentencepiece_tokenizer_is_converted_at_export(tmp_path):
    """A T5 checkpoint with only spiece.model: the export writes tokenizer.json, the runtime's tokenizer
    (the `tokenizers` library) gives the slow tokenizer's ids, and a pair scores."""
    from tokenizers import Tokenizer
    from transformers import T5Tokenizer

    from groundwatch.scorers.nli.onnx_backend import OnnxBackend
    from tests.tiny_models import tiny_t5_sentencepiece_checkpoint

    checkpoint = tiny_t5_sentencepiece_checkpoint(tmp_path / "checkpoint")
    assert not (checkpoint / "tokenizer.json").exists()
    assert main(["export-model", "--checkpoint", str(checkpoint), "--output", str(tmp_path / "onnx")]) == 0
    record = json.loads((tmp_path / "onnx" / "export.json").read_text())
    assert record["kind"] == "seq2seq"
    fast = Tokenizer.from_file(str(tmp_path / "onnx" / "tokenizer.json"))
    slow = T5Tokenizer.from_pretrained(str(checkpoint))
    for text in ("Refunds are accepted within 30 days.", "predict: The fee is 10 euros, not 0."):
        assert fast.encode(text).ids == slow(text)["input_ids"], text
    [scores] = OnnxBackend(tmp_path / "onnx", providers="cpu").predict([("Refunds take 30 days.", "Refunds take 30 days.")])
    assert scores.contradiction == 0 and abs(scores.entailment + scores.neutral - 1) < 1e-6
