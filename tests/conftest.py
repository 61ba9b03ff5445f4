"""Shared fixtures: a tiny randomly initialised NLI model exported to ONNX (no weights needed)."""

from __future__ import annotations

import pytest

from tests.tiny_models import tiny_bert_checkpoint


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory):
    return tiny_bert_checkpoint(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture(scope="session")
def tiny_onnx(tiny_checkpoint, tmp_path_factory):
    from groundwatch.training.model_export.onnx_export import export_checkpoint

    return export_checkpoint(tiny_checkpoint, tmp_path_factory.mktemp("tiny-onnx"), precision="fp32")


@pytest.fixture(scope="session")
def compact_tiny(tiny_checkpoint, tmp_path_factory):
    """The tiny checkpoint through the compact int8 copy and back, as the shipped model is built: int8-representable
    fp32 weights."""
    from groundwatch.training.compact_checkpoint import materialise, save_compact

    base = tmp_path_factory.mktemp("compact-tiny")
    return materialise(save_compact(tiny_checkpoint, base / "compact"), base / "materialised")


@pytest.fixture(autouse=True)
def _logging_back_to_defaults():
    """The CLI sets logging up for the whole process (level, format, stderr); each test starts from
    structlog's defaults again, so one test's level cannot hide another's debug events."""
    yield
    import structlog

    structlog.reset_defaults()
