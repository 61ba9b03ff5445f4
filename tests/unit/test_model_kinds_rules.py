"""The rules around model kinds, without exporting a model: the verdict rule per kind, what each kind's
outputs become, how labels are read, what is refused, and the thresholds a model directory brings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from groundwatch.cli import main
from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.verdicts.calibration import SHIPPED, for_model
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.kinds import ModelKind, grounding_labels, read_kind
from groundwatch.scorers.records import Check, Evidence, EvidenceSentence, Verdict
from groundwatch.scorers.verdicts.thresholds import Thresholds
from groundwatch.scorers.version import scorer_version

NLI_CONFIG = {"id2label": {"0": "entailment", "1": "neutral", "2": "contradiction"}}
TWO_WAY = Thresholds(0.6, 0.7, model_contradicts=False)
THREE_WAY = Thresholds(0.6, 0.7)


def _evidence(e: float, n: float, c: float) -> Evidence:
    return Evidence(["p1"], [(0, 40)], e, n, c, 0.8)


def _model_dir(path: Path, config: dict = NLI_CONFIG, export: dict | None = None,
               calibration: dict | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text(json.dumps(config))
    if export is not None:
        (path / "export.json").write_text(json.dumps(export))
    if calibration is not None:
        (path / "calibration.json").write_text(json.dumps({"scorer": calibration}))
    return path


# -- the verdict rule per kind ------------------------------------------------------------------

def test_a_two_way_model_cannot_convict_where_a_three_way_one_does():
    evidence = [_evidence(0.05, 0.0, 0.95)]
    assert decide(evidence, [], THREE_WAY)[0] is Verdict.CONTRADICTED
    assert decide(evidence, [], TWO_WAY)[0] is Verdict.NOT_ENOUGH_INFO


def test_a_verified_mismatch_convicts_under_either_kind():
    mismatch = Check("numbers", False, found={"mismatch": {"claimed": "60 days", "stated": "30 days",
                                                           "converted": "30 day"}})
    for thresholds in (THREE_WAY, TWO_WAY):
        verdict, flags = decide([_evidence(0.9, 0.1, 0.0)], [mismatch], thresholds)
        assert verdict is Verdict.CONTRADICTED and "contradicted_by_check" in flags


def test_a_guard_flagged_sentence_convicts_only_with_a_model_that_reads_contradiction():
    sentence = EvidenceSentence("p1", 0, 20, "The office is closed.")
    guard = Check("polarity", False, flag="polarity_mismatch", evidence=sentence)
    evidence = [_evidence(0.1, 0.2, 0.7)]
    assert decide(evidence, [guard], Thresholds(0.6, 0.9))[0] is Verdict.CONTRADICTED
    assert decide(evidence, [guard], Thresholds(0.6, 0.9, model_contradicts=False))[0] is Verdict.NOT_ENOUGH_INFO


def test_support_is_decided_alike():
    for thresholds in (THREE_WAY, TWO_WAY):
        assert decide([_evidence(0.8, 0.2, 0.0)], [], thresholds)[0] is Verdict.SUPPORTED


# -- what each kind's outputs become ------------------------------------------------------------

def test_nli3_scores_follow_the_label_order():
    kind = ModelKind("nli3", {"neutral": 0, "contradiction": 1, "entailment": 2})
    [s] = kind.scores(np.array([[0.0, 1.0, 3.0]]))
    assert s.entailment > s.contradiction > s.neutral and s.entailment + s.neutral + s.contradiction == pytest.approx(1)


def test_two_way_scores_have_no_contradiction():
    [s] = ModelKind("grounding2", {"supported": 1, "unsupported": 0}).scores(np.array([[2.0, -1.0]]))
    assert s.contradiction == 0.0 and s.neutral > 0.9 and s.entailment == pytest.approx(1 - s.neutral)
    [one] = ModelKind("grounding2", {"supported": 0}).scores(np.array([[0.0]]))  # one logit: a sigmoid
    assert one.entailment == pytest.approx(0.5) and one.contradiction == 0.0


def test_grounding_labels_from_names_or_from_the_option():
    assert grounding_labels({"id2label": {"0": "hallucinated", "1": "consistent"}}, None, "x") == \
        {"supported": 1, "unsupported": 0}
    with pytest.raises(ModelLoadError, match="--supported-label"):
        grounding_labels({"id2label": {"0": "LABEL_0", "1": "LABEL_1"}}, None, "x")
    assert grounding_labels({"id2label": {"0": "LABEL_0", "1": "LABEL_1"}}, "1", "x")["supported"] == 1
    assert grounding_labels({"id2label": {"0": "LABEL_0", "1": "LABEL_1"}}, "LABEL_0", "x")["supported"] == 0


# -- what is refused ----------------------------------------------------------------------------

def test_remote_code_is_refused_at_export_and_at_load(tmp_path, capsys):
    hhem = _model_dir(tmp_path / "hhem", {"auto_map": {"AutoModel": "modeling_hhem.HHEMv2"}, "num_labels": 2})
    assert main(["export-model", "--checkpoint", str(hhem), "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "trust_remote_code" in err and len(err.splitlines()) == 1 and "Traceback" not in err
    with pytest.raises(ModelLoadError, match="trust_remote_code"):
        read_kind(hhem)


def test_an_unexported_encoder_decoder_says_to_export_it(tmp_path):
    with pytest.raises(ModelLoadError, match="export-model --kind seq2seq"):
        read_kind(_model_dir(tmp_path / "t5", {"is_encoder_decoder": True}))


def test_an_unknown_kind_is_refused(tmp_path):
    with pytest.raises(ModelLoadError, match="model kind 'nli4'"):
        read_kind(_model_dir(tmp_path / "m", export={"kind": "nli4", "labels": {}}))


# -- thresholds and window per model ------------------------------------------------------------

def test_the_model_directory_calibration_is_read_for_unset_thresholds(tmp_path):
    model = _model_dir(tmp_path / "m", calibration={"tau_entailment": 0.41, "threshold_mode": "static"})
    resolved = for_model(ScorerConfig(model_dir=str(model)))
    assert (resolved.tau_entailment, resolved.threshold_mode) == (0.41, "static")
    explicit = for_model(ScorerConfig(model_dir=str(model), tau_entailment=0.7))
    assert (explicit.tau_entailment, explicit.threshold_mode) == (0.7, "static")  # what the settings set wins
    assert scorer_version(resolved, "m@1") != scorer_version(ScorerConfig(model_dir=str(model)), "m@1")


def test_without_one_the_shipped_calibration_applies(tmp_path):
    shipped = json.loads(SHIPPED.read_text())["scorer"]
    resolved = for_model(ScorerConfig(model_dir=str(_model_dir(tmp_path / "m"))))
    assert {k: getattr(resolved, k) for k in shipped} == shipped


def test_the_window_is_cut_to_the_model_and_two_way_thresholds_follow_the_kind(tmp_path):
    model = _model_dir(tmp_path / "m", {"num_labels": 2},
                       export={"kind": "grounding2", "labels": {"supported": 1, "unsupported": 0}, "max_length": 128})
    resolved = for_model(ScorerConfig(model_dir=str(model)))
    assert resolved.max_length == 128
    assert Thresholds.from_config(resolved).model_contradicts is False
    assert Thresholds.from_config(ScorerConfig()).model_contradicts is True  # the shipped model: nli3


def test_checker_keywords_leave_the_model_calibration_in_place():
    from groundwatch.api import apply_overrides
    from groundwatch.config.settings import Settings

    settings = apply_overrides(Settings(), {"model_dir": "models/x"})
    assert settings.scorer.model_fields_set == {"model_dir"}


def test_eval_calibrates_into_the_model_directory(tiny_onnx, tmp_path):
    from tests.unit.test_eval_calibrate import RECORDS

    model = shutil.copytree(tiny_onnx, tmp_path / "model")
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    assert main(["eval", "--input", str(labelled), "--model", str(model), "--calibrate", "balanced-accuracy",
                 "--into-model", "--no-question-mode", "--resamples", "20"]) == 0
    written = json.loads((model / "calibration.json").read_text())["scorer"]
    resolved = for_model(ScorerConfig(model_dir=str(model)))
    assert {k: getattr(resolved, k) for k in written} == written


def test_into_model_is_refused_for_the_shipped_model(capsys):
    from groundwatch.commands.evaluate import model_calibration_path

    with pytest.raises(ValueError, match="scorers/calibration.json"):
        model_calibration_path(None)
    assert main(["eval", "--input", "x.jsonl", "--into-model"]) == 2
    assert "--into-model goes with --calibrate" in capsys.readouterr().err


def test_input_templates_are_checked_when_given():
    from types import SimpleNamespace

    from groundwatch.training.model_export.export_kind import input_template

    t5 = SimpleNamespace(eos_token="</s>")
    assert input_template(t5, "seq2seq", None) == "predict: {premise}</s>{claim}"  # MiniCheck-Flan-T5's
    assert input_template(t5, "grounding2", None) is None  # pairs, by the tokenizer's own template
    with pytest.raises(ModelLoadError, match="before"):
        input_template(t5, "grounding2", "{claim}</s>{premise}")
    with pytest.raises(ModelLoadError, match="no eos token"):
        input_template(SimpleNamespace(eos_token=None), "seq2seq", None)


def test_an_unexported_two_way_classifier_is_read_from_its_label_names(tmp_path):
    named = _model_dir(tmp_path / "named", {"id2label": {"0": "hallucinated", "1": "consistent"}})
    assert read_kind(named) == ModelKind("grounding2", {"supported": 1, "unsupported": 0})
    with pytest.raises(ModelLoadError, match="supported"):
        read_kind(_model_dir(tmp_path / "unnamed", {"id2label": {"0": "LABEL_0", "1": "LABEL_1"}}))


def test_joined_text_windows_leave_room_for_the_template():
    from groundwatch.scorers.nli.encoding import PairEncoder
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
    from groundwatch.scorers.nli.tokenizer import load_tokenizer

    tokenizer = load_tokenizer(DEFAULT_MODEL_DIR, "predict: {premise}[SEP]{claim}")
    encoder = PairEncoder(tokenizer, 64)
    premise = " ".join(f"Clause {i} of the agreement sets a fee of {i} dollars per month." for i in range(20))
    claim = "The fee is 7 dollars per month."
    [windows] = encoder.encode([(premise, claim)])
    assert len(windows) > 3 and windows[-1].pair[0].endswith("month.")
    words = lambda text: len(tokenizer.tokenizer.encode(text, add_special_tokens=False).ids)  # noqa: E731
    for e in windows:  # nothing of a window or the claim is cut: the template's tokens were counted
        assert len(e) <= 64 and len(e) == words(e.pair[0]) + words(claim) + encoder.specials
