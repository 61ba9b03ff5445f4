"""The optional sinks that write verdicts back into traces, as the settings enable them."""

from __future__ import annotations

from groundwatch.config.extras import require
from groundwatch.export.otlp_sink import OtlpVerdictSink
from groundwatch.export.phoenix_sink import PhoenixAnnotationSink


def trace_sinks(settings, metrics=None) -> list:
    """OTLP verdict spans and Phoenix annotations, each only when its section is enabled."""
    sinks: list = []
    if settings.otlp_verdicts.enabled:
        require("otlp", "otlp_verdicts.enabled")
        sinks.append(OtlpVerdictSink(settings.otlp_verdicts))
    if settings.phoenix.enabled:
        sinks.append(PhoenixAnnotationSink(
            settings.phoenix, on_missing=metrics.phoenix_spans_missing if metrics is not None else None))
    return sinks
