"""Quiet by default: one-off commands and the Python API log from warning up, the services (consume,
serve) from info; opensearch-py & co. stay at warning unless asked; a wrong level or a misspelt
GROUNDWATCH_* variable is one plain line; serve warns when it listens beyond loopback with no token."""

from __future__ import annotations

import logging

import pytest
from pydantic import SecretStr

from groundwatch.cli import build_parser, main
from groundwatch.commands.conventions import log_level, start_logging
from groundwatch.config.library_logs import LIBRARY_LOGGERS, REQUEST_LOGGERS
from groundwatch.config.settings import ServeSettings, exposure_warning
from tests.unit.test_cli_errors import EXAMPLES, no_model  # noqa: F401 - the fixture

SCORE = ["score", "-i", str(EXAMPLES), "-o", "v.jsonl"]


@pytest.mark.parametrize("argv, level", [
    (SCORE, "warning"), (["explain", "r-1", "-i", "v.jsonl"], "warning"), (["report", "-i", "v.jsonl"], "warning"),
    (["consume"], "info"), (["serve"], "info"),
    (["-v", *SCORE], "debug"), (["consume", "-q"], "warning"),
])
def test_each_command_has_its_default_level(argv, level, monkeypatch):
    monkeypatch.delenv("GROUNDWATCH_LOG_LEVEL", raising=False)
    assert log_level(build_parser().parse_args(argv)) == level


def test_a_level_from_the_settings_or_environment_wins_over_the_default(monkeypatch):
    monkeypatch.setenv("GROUNDWATCH_LOG_LEVEL", "INFO")
    assert log_level(build_parser().parse_args(SCORE)) == "info"
    assert log_level(build_parser().parse_args(["serve"]), "error") == "error"


@pytest.mark.parametrize("level, library", [("warning", logging.WARNING), ("info", logging.WARNING),
                                            ("debug", logging.INFO)])
def test_library_loggers_stay_at_warning_unless_debug_and_never_show_bodies(level, library):
    start_logging(build_parser().parse_args(SCORE), "json", level)
    assert {logging.getLogger(name).level for name in set(LIBRARY_LOGGERS) - set(REQUEST_LOGGERS)} == {library}
    assert {logging.getLogger(name).level for name in REQUEST_LOGGERS} == {max(library, logging.ERROR) if level != "debug" else library}


def test_an_unknown_log_level_is_one_line(monkeypatch, capsys, no_model, tmp_path):  # noqa: F811
    monkeypatch.setenv("GROUNDWATCH_LOG_LEVEL", "loud")
    code = main(["score", "-i", str(EXAMPLES), "-o", str(tmp_path / "v.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("groundwatch: error: GROUNDWATCH_LOG_LEVEL: unknown log level 'loud'")


def test_an_unknown_level_in_a_settings_file_is_one_line(tmp_path, capsys, no_model, monkeypatch):  # noqa: F811
    monkeypatch.delenv("GROUNDWATCH_LOG_LEVEL", raising=False)
    config = tmp_path / "settings.json"
    config.write_text('{"log_level": "loud"}')
    code = main(["score", "-i", str(EXAMPLES), "-o", str(tmp_path / "v.jsonl"), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "log_level" in err and "'warning'" in err


def test_a_misspelt_variable_is_one_plain_line_even_when_logs_are_json(monkeypatch, capsys, tmp_path):
    from groundwatch.config import settings

    monkeypatch.setattr(settings, "_warned", set())
    monkeypatch.setenv("GROUNDWATCH_LOG_FORMAT", "json")
    monkeypatch.setenv("GROUNDWATCH_SERVE__PORTT", "9000")
    settings.load_settings()
    err = capsys.readouterr().err
    assert err == ("groundwatch: warning: GROUNDWATCH_SERVE__PORTT names no setting and is ignored "
                   "(did you mean GROUNDWATCH_SERVE__PORT?)\n")


@pytest.mark.parametrize("host, token, warns", [
    ("127.0.0.1", None, False), ("localhost", None, False), ("::1", None, False),
    ("0.0.0.0", None, True), ("10.1.2.3", None, True), ("my-host", None, True),
    ("0.0.0.0", SecretStr("t0ken"), False), ("0.0.0.0", SecretStr(""), True),
])
def test_serve_warns_beyond_loopback_without_a_token(host, token, warns):
    message = exposure_warning(ServeSettings(host=host, auth_token=token))
    assert (message is not None) == warns
    if warns:
        assert host in message and "auth_token" in message and "\n" not in message


def test_score_on_the_examples_says_nothing_on_stderr_at_the_default_level(monkeypatch, tmp_path, capsys):
    for name in ("GROUNDWATCH_LOG_LEVEL", "GROUNDWATCH_LOG_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(EXAMPLES.read_text(encoding="utf-8").splitlines(keepends=True)[:3]))
    assert main(["score", "-i", str(responses), "-o", str(tmp_path / "v.jsonl"), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "responses" in out  # the shipped model loads without a word (was: thread-count JSON)
