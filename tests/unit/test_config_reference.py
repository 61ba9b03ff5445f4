"""docs/configuration.md is generated from the settings classes and matches them."""

from __future__ import annotations

from pydantic import BaseModel

from groundwatch.config.settings import Settings
from groundwatch.reports import config_reference
from groundwatch.reports.config_reference import PAGE, field_comments, render


def _settings(model: type[BaseModel], path: tuple[str, ...] = ()):
    """Every leaf setting as a dotted name, nested sections walked."""
    for name, field in model.model_fields.items():
        if isinstance(field.default, BaseModel):
            yield from _settings(type(field.default), path + (name,))
        else:
            yield ".".join(path + (name,))


def test_the_page_matches_the_settings_classes():
    assert PAGE.read_text(encoding="utf-8") == render(), \
        "docs/configuration.md is stale: run python -m groundwatch.reports.config_reference"
    assert config_reference.main(["--check"]) == 0


def test_every_setting_is_listed_with_its_environment_variable():
    text = render()
    for dotted in _settings(Settings):
        env = "GROUNDWATCH_" + dotted.upper().replace(".", "__")
        assert f"| `{dotted}` | `{env}` |" in text, dotted
    assert "| `kafka.sasl_password` | `GROUNDWATCH_KAFKA__SASL_PASSWORD` | `secret` |" in text


def test_a_changed_default_makes_the_check_fail(monkeypatch):
    from groundwatch.config.scorer import ScorerConfig

    before = render()
    monkeypatch.setattr(ScorerConfig.model_fields["top_k"], "default", 7)
    assert render() != before


def test_comments_above_and_beside_a_field_become_its_description():
    class Example:
        # What the field is for,
        # on two lines.
        alpha: int = 1  # and a note
        beta: str = "a # b"  # the real comment
        gamma: int = 2

    assert field_comments(Example) == {"alpha": "What the field is for, on two lines. and a note",
                                       "beta": "the real comment", "gamma": ""}
