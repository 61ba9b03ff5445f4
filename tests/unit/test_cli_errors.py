"""A user's mistake gives one line, `groundwatch: error: ...` naming the file, key or variable, and exit 2
(an empty input: a warning and exit 1); never a traceback, never a secret's value. Logs go to stderr."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from groundwatch.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "responses.jsonl"
EMBEDDER = ROOT / "scorers" / "models" / "all-minilm-l6-v2"  # an ONNX export backend torch cannot read
SECRET = "s3cr3t-do-not-print"


@pytest.fixture
def no_model(monkeypatch):
    """Errors in settings and input must be found before any model loads."""
    import groundwatch.scorers.pipeline as pipeline

    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded")

    monkeypatch.setattr(pipeline.Scorer, "from_config", classmethod(refuse))


def _one_error(capsys, code: int, expected: list[str]) -> str:
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("groundwatch: error:")]
    assert code == 2 and len(errors) == 1, err
    assert "Traceback" not in err and all(e in errors[0] for e in expected), err
    return errors[0]


def _score(tmp_path, *extra) -> list[str]:
    return ["score", "-i", str(EXAMPLES), "-o", str(tmp_path / "v.jsonl"), "--no-progress", *extra]


@pytest.mark.parametrize("content, expected", [
    (None, ["--config", "no such file"]),
    ('{"scorer": ', ["--config", "not JSON", "line 1"]),
    ('[1, 2]', ["--config", "expected a JSON object"]),
    ('{"scorer": {"tau_entailment": "high"}}', ["scorer.tau_entailment", "valid number"]),
    ('{"scorer": {"tau_entailmen": 0.5}}', ["unknown setting 'scorer.tau_entailmen'", "did you mean 'tau_entailment'"]),
    ('{"policy": {"rules": [{"name": "r", "action": "block", "verdictz": []}]}}',
     ["policy.rules[0].verdictz", "did you mean 'verdicts'"]),
    ('{"kafka": {"security_protocol": "SASL_SSL", "sasl_mechanism": "PLAIN", "sasl_username": "u"}}',
     ["kafka.sasl_password"]),
])
def test_a_bad_settings_file_is_one_line(content, expected, tmp_path, capsys, no_model):
    config = tmp_path / "settings.json"
    if content is not None:
        config.write_text(content)
    _one_error(capsys, main(_score(tmp_path, "--config", str(config))), expected)


def test_a_bad_variable_names_the_variable(monkeypatch, tmp_path, capsys, no_model):
    monkeypatch.setenv("GROUNDWATCH_SCORER__TAU_ENTAILMENT", "abc")
    _one_error(capsys, main(_score(tmp_path)), ["GROUNDWATCH_SCORER__TAU_ENTAILMENT", "valid number"])
    monkeypatch.delenv("GROUNDWATCH_SCORER__TAU_ENTAILMENT")
    monkeypatch.setenv("GROUNDWATCH_POLICY__RULES", '[{"name": ')
    _one_error(capsys, main(_score(tmp_path)), ["GROUNDWATCH_POLICY__", "not valid JSON"])


def test_a_secret_is_never_printed(monkeypatch, tmp_path, capsys, no_model):
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"serve": {"auth_token": [SECRET]}, "opensearch": {"password": {"x": SECRET}}}))
    line = _one_error(capsys, main(_score(tmp_path, "--config", str(config))), ["serve.auth_token"])
    assert SECRET not in line
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SASL_PASSWORD", SECRET)
    monkeypatch.setenv("GROUNDWATCH_KAFKA__SECURITY_PROTOCOL", "SASL_SSL")  # incomplete: no mechanism
    line = _one_error(capsys, main(_score(tmp_path)), ["kafka.sasl_mechanism"])
    assert SECRET not in line


def test_an_unknown_variable_is_a_warning_and_a_service_link_is_not(monkeypatch, tmp_path, capsys, no_model):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    monkeypatch.setenv("GROUNDWATCH_SCORER__TAU_CONTRADICTON", "0.9")  # misspelt
    monkeypatch.setenv("GROUNDWATCH_SERVICE_HOST", "10.0.0.1")       # what Kubernetes injects
    monkeypatch.setenv("GROUNDWATCH_PORT_8080_TCP_ADDR", "10.0.0.1")
    code = main(["score", "-i", str(empty), "-o", str(tmp_path / "v.jsonl")])
    err = capsys.readouterr().err
    assert code == 1 and "holds no records" in err and "Traceback" not in err  # empty input: warned, non-zero
    assert "GROUNDWATCH_SCORER__TAU_CONTRADICTON" in err and "GROUNDWATCH_SCORER__TAU_CONTRADICTION" in err
    assert "SERVICE_HOST" not in err and "PORT_8080" not in err


@pytest.mark.parametrize("argv, expected", [
    (["score", "-i", "x.jsonl", "-o", "y.jsonl", "--batch-size", "0"], ["--batch-size", "at least 1"]),
    (["score", "-i", "missing.jsonl", "-o", "y.jsonl"], ["missing.jsonl", "No such file"]),
    (["score", "-i", str(EXAMPLES), "-o", "y.jsonl", "--backend", "torch", "--model", str(EMBEDDER)],
     ["ONNX model", "--backend onnx"]),
    (["score", "-i", str(EXAMPLES), "-o", "y.jsonl", "--model", "no/such/dir"], ["no/such/dir", "not found"]),
    (["report", "-i", str(EXAMPLES), "--since", "yesterday-ish"], ["--since"]),
    (["explain", "r1", "-i", "missing.jsonl"], ["missing.jsonl"]),
    (["scor"], ["invalid choice"]),
])
def test_input_and_argument_errors_are_one_line(argv, expected, capsys, no_model, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit from inside parse_args
        code = exc.code
    _one_error(capsys, code, expected)


def test_logs_go_to_stderr_and_stdout_holds_only_the_counts(monkeypatch, tmp_path, tiny_onnx, capsys):
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(EXAMPLES.read_text(encoding="utf-8").splitlines(keepends=True)[:2]))
    monkeypatch.setenv("GROUNDWATCH_LOG_LEVEL", "debug")
    assert main(["score", "-i", str(responses), "-o", str(tmp_path / "v.jsonl"), "--model", str(tiny_onnx),
                 "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"^responses +2$", out, re.M) and "onnx" not in out and "debug" not in out
    assert "onnx_threads" in err and "onnx_provider_fallback" not in err  # a CPU build is no fallback
    assert main(["-q", "score", "-i", str(responses), "-o", "-", "--model", str(tiny_onnx)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["request_id"] for line in out.splitlines()] == ["ex-001", "ex-002"]
    assert "onnx_threads" not in err and re.search(r"^responses +2$", err, re.M)  # the counts move to stderr


@pytest.mark.parametrize("command", [["score", "-o", "{tmp}/v.jsonl"], ["eval"], ["report"],
                                     ["audit-corpus", "--no-nli"], ["bench"]])
def test_an_empty_input_warns_and_exits_non_zero(command, tmp_path, capsys, no_model):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command] + ["-i", str(empty)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"--input {empty} holds no" in err and "Traceback" not in err
